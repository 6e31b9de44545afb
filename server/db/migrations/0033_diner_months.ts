import type { Kysely } from "kysely";

/**
 * The monthly reports per diner at volume (issue 15, decision 040): 月度个人结算, 教师补贴 and 员工积分月结 grouped a
 * month of a large canteen's orders, ledger lines or points lines by diner on every view (4–14 s for 20,000 diners).
 * Each diner's month is kept in totals instead, in the transaction of the line or order it counts
 * (server/modules/zhct/dinerMonths.ts): a month is then one row per diner and kind.
 *
 * The ledger's and the points' months are keyed by diner first: their reports go from each account to its months
 * (the opening is the balance less the months since). The orders' months are keyed by month first: 月度结算-人员
 * reads a range of months for every diner. The existing lines and orders are counted by migration 0035, once: the
 * count writes that migration's columns too, so it cannot run before them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("diner_month_ledger")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("account_type", "text", (c) => c.notNull())
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("user_info_id", "bigint", (c) => c.notNull())
    .addColumn("busi_type", "integer", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("lines", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("diner_month_ledger_pkey", ["tenant_id", "user_info_id", "account_type", "month", "busi_type"])
    .execute();
  await db.schema
    .createTable("diner_month_points")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("user_info_id", "bigint", (c) => c.notNull())
    .addColumn("change_type", "integer", (c) => c.notNull())
    .addColumn("points", "bigint", (c) => c.notNull())
    .addColumn("lines", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("diner_month_points_pkey", ["tenant_id", "user_info_id", "month", "change_type"])
    .execute();
  await db.schema
    .createTable("diner_month_order")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("user_info_id", "bigint", (c) => c.notNull())
    .addColumn("orders", "bigint", (c) => c.notNull())
    .addColumn("paid", "bigint", (c) => c.notNull())
    .addColumn("ticket", "bigint", (c) => c.notNull())
    .addColumn("refunded", "bigint", (c) => c.notNull())
    .addColumn("cash", "bigint", (c) => c.notNull())
    .addColumn("subsidy", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("diner_month_order_pkey", ["tenant_id", "month", "user_info_id"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["diner_month_order", "diner_month_points", "diner_month_ledger"]) await db.schema.dropTable(table).execute();
}
