import { PostgresAdapter, sql, type Kysely } from "kysely";
import { requestRecount } from "./recounts";

// Written out, not imported: a later business type adds its columns in a migration of its own.
const FIGURES = ["cash", "subsidy"].flatMap((account) => ["lines", "top_up", "refund", "consume", "reversal", "grant", "clear", "consume_return"].map((figure) => `${account}_${figure}`));

/**
 * 账户类型日统计 at volume (issue 15, decision 044): it grouped a month of ledger lines on every view (0.6 s for
 * 20,000 diners, and a month of a large canteen is millions of lines). Each China day's lines are kept instead, per
 * account and business type, by `post` in the line's own transaction (server/modules/zhct/ledgerDays.ts). A day has
 * 16 rows per tenant, one per shard of the diners, so concurrent movements of different diners seldom wait for one
 * row on PostgreSQL; each transaction moves one diner's money and so writes one row. On SQLite the rows live in their
 * key (WITHOUT ROWID), as the other kept days do. The existing lines are counted once, after the migrations (./recounts.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable("ledger_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("day_no", "bigint", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull());
  for (const column of FIGURES) table = table.addColumn(column, "bigint", (c) => c.notNull().defaultTo(0));
  table = table.addPrimaryKeyConstraint("ledger_day_pkey", ["tenant_id", "day_no", "shard"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
  await requestRecount(db, "ledgerDays");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ledger_day").execute();
}
