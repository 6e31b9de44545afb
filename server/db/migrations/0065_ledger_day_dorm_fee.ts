import type { Kysely } from "kysely";

/**
 * Issue 36, decision 074: the business type 宿舍水电费 (busiType 7, a dormitory bill's share paid from the canteen
 * account) gets its columns in the ledger's days (decision 044), as migration 0038 foresaw. No line of the type exists
 * before this migration, so nothing is recounted.
 */
const COLUMNS = ["cash_dorm_fee", "subsidy_dorm_fee"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable("ledger_day").addColumn(column, "bigint", (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable("ledger_day").dropColumn(column).execute();
}
