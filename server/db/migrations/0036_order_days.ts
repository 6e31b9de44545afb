import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * 订单日汇总 (and the dashboard's 30 days, which show it) and 月度结算-商户 at volume (issue 15, decision 041
 * addendum): they grouped a month of orders on every view (0.3–0.6 s for 20,000 diners). The orders per day,
 * restaurant, meal type and payment method are kept instead by pay, cancel and refunds
 * (server/modules/zhct/orderDays.ts); every filter of those reports is in the key. Restaurant 0 and meal type ''
 * stand for none. On SQLite the rows live in their key (WITHOUT ROWID), as the diners' days do (migration 0035).
 * Migration 0037 counts them, with the table it adds.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable("order_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("order_date", "text", (c) => c.notNull())
    .addColumn("restaurant_id", "bigint", (c) => c.notNull())
    .addColumn("meal_type", "text", (c) => c.notNull())
    .addColumn("pay_flag", "integer", (c) => c.notNull())
    .addColumn("placed", "bigint", (c) => c.notNull())
    .addColumn("cancelled", "bigint", (c) => c.notNull())
    .addColumn("paid", "bigint", (c) => c.notNull())
    .addColumn("refunded", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("order_day_pkey", ["tenant_id", "order_date", "restaurant_id", "meal_type", "pay_flag"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_day").execute();
}
