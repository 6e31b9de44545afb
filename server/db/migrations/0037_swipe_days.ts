import { PostgresAdapter, sql, type Kysely } from "kysely";
import { requestRecount } from "./recounts";

/**
 * 刷卡统计 at volume (issue 15, decision 043): it counted a month of orders, with the distinct diners of each day,
 * restaurant and meal and of the whole period, on every view (1 s for 20,000 diners). The counter and device sales
 * per day, restaurant and meal type, with their diners, are kept instead by pay, cancel and refunds
 * (server/modules/zhct/orderDays.ts), and each diner's days and months gain their sales that count, so a period's
 * diners are read as the other per-diner reports read theirs (decision 041).
 *
 * The counts of migrations 0035 (the diners' days and months) and 0036 (the orders' days) are asked for here, after
 * these columns exist, and run once after the migrations (./recounts.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable("swipe_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("order_date", "text", (c) => c.notNull())
    .addColumn("restaurant_id", "bigint", (c) => c.notNull())
    .addColumn("meal_type", "text", (c) => c.notNull())
    .addColumn("swipes", "bigint", (c) => c.notNull())
    .addColumn("card_swipes", "bigint", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("diners", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("swipe_day_pkey", ["tenant_id", "order_date", "restaurant_id", "meal_type"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
  for (const days of ["diner_day_order", "diner_month_order"]) await db.schema.alterTable(days).addColumn("swipes", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  await requestRecount(db, "dinerMonths", "orderDays");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const days of ["diner_month_order", "diner_day_order"]) await db.schema.alterTable(days).dropColumn("swipes").execute();
  await db.schema.dropTable("swipe_day").execute();
}
