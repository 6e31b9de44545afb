// Issue 35, decision 090: 库存日报 and 库存月报 read the stock ledger's days (warehouse × goods × China day: in, out
// and closing, quantities and amounts) instead of summing the movement lines of a period and of everything after it
// (16 s for 30 days of 20 warehouses at 1,000,000 lines). Kept by the ledger's postings
// (server/modules/zhhq/stockDays.ts); the existing lines are counted once after the migrations (./recounts.ts).
// On SQLite the rows live in their key (WITHOUT ROWID), as the canteen's kept days do; a period of every warehouse is
// one range of the day index, which carries the figures. Released migrations are not edited.
import { PostgresAdapter, sql, type Kysely } from "kysely";
import { requestRecount } from "./recounts";

const TABLE = "stock_day";
const FIGURES = ["in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable(TABLE)
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("warehouse_id", "bigint", (c) => c.notNull())
    .addColumn("goods_id", "bigint", (c) => c.notNull())
    .addColumn("day_no", "bigint", (c) => c.notNull());
  for (const column of FIGURES) table = table.addColumn(column, "bigint", (c) => c.notNull().defaultTo(0));
  table = table.addPrimaryKeyConstraint(`${TABLE}_pkey`, ["tenant_id", "warehouse_id", "goods_id", "day_no"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
  await db.schema.createIndex(`${TABLE}_day_idx`).on(TABLE).columns(["tenant_id", "day_no", "warehouse_id", "goods_id", ...FIGURES]).execute();
  await requestRecount(db, "stockDays");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable(TABLE).execute();
  await db.deleteFrom("projection_recount").where("name", "=", "stockDays").execute();
}
