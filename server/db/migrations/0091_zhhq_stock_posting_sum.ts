// Issue 35, decision 099: 库存月报 over a year read every kept day of it (≈ 1,000,000 at the benchmark's volume) to sum
// each warehouse's months and to count which stock opened each day at nothing, and asked each day that closed at nothing
// for its key's next day. Two things make that a read of a few thousand rows:
// - `stock_posting_sum`: what each posting moved per warehouse and China day (in and out, quantities and amounts),
//   kept by the stock ledger's postings (server/modules/zhhq/stockDays.ts). A posting adds rows of its own (keyed by
//   the first of the lines each sums) and never updates another's, so postings into one warehouse at once do not wait on each other; a recount keeps one row per
//   warehouse and day. Counted once after the migrations (./recounts.ts).
// - A partial index of the kept days that opened at nothing (closing − in + out, quantity and amount): the first day
//   of each key and the day after each day that closed at nothing (0090's index), so a key's next day after one that
//   emptied it is among them, read in one range instead of one seek each.
// Released migrations are not edited.
import { sql, type Kysely } from "kysely";
import { requestRecount } from "./recounts";

const TABLE = "stock_posting_sum";
const OPENED_EMPTY = "stock_day_opened_empty_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable(TABLE)
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("warehouse_id", "bigint", (c) => c.notNull())
    .addColumn("day_no", "bigint", (c) => c.notNull())
    // The first of the lines the row sums: a posting's own key, as its lines are its own.
    .addColumn("line_id", "bigint", (c) => c.notNull());
  for (const column of ["in_quantity", "in_amount", "out_quantity", "out_amount"]) table = table.addColumn(column, "bigint", (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint(`${TABLE}_pkey`, ["tenant_id", "warehouse_id", "day_no", "line_id"]).execute();
  await db.schema.createIndex(`${TABLE}_day_idx`).on(TABLE).columns(["tenant_id", "day_no", "warehouse_id", "in_quantity", "in_amount", "out_quantity", "out_amount"]).execute();
  await db.schema
    .createIndex(OPENED_EMPTY)
    .on("stock_day")
    // The figures too: SQLite reads a partial index's rows without the table only when the index holds what the
    // query's copy of its condition reads.
    .columns(["tenant_id", "day_no", "warehouse_id", "goods_id", "closing_quantity", "in_quantity", "out_quantity", "closing_amount", "in_amount", "out_amount"])
    .where(sql<boolean>`closing_quantity - in_quantity + out_quantity = 0 and closing_amount - in_amount + out_amount = 0`)
    .execute();
  await requestRecount(db, "stockPostingSums");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(OPENED_EMPTY).execute();
  await db.schema.dropTable(TABLE).execute();
  await db.deleteFrom("projection_recount").where("name", "=", "stockPostingSums").execute();
}
