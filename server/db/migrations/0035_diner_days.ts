import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The day-range reports per diner at volume (issue 15, decision 041): 个人消费统计, 部门就餐统计 and 个人就餐统计
 * grouped a month of orders (and 个人消费统计 their ledger lines) by diner on every view (1–2.2 s for 20,000 diners).
 * Each diner's day of orders is kept in totals, beside their month (decision 040), by pay, cancel and refunds; a
 * period is read as its whole months plus or minus the days at its edges (server/modules/report/dinerPeriods.ts).
 *
 * The month gains what a period needs of it: the orders placed (a diner with only cancelled orders is still listed),
 * what went back to each account, the meals per meal type and the days with a meal. Migration 0033 no longer counts
 * its tables itself: the count writes these columns too, so it runs once, for every table, after the last migration
 * that adds a column it writes (0037).
 *
 * On SQLite the days are a WITHOUT ROWID table: a period's edge days are read in key order with their figures,
 * instead of a key look-up and then a row look-up each (a week of 20,000 diners' days: 370 ms → 150 ms).
 */
const FIGURES = ["placed", "orders", "paid", "ticket", "refunded", "cash", "subsidy", "cash_back", "subsidy_back", "meals_breakfast", "meals_lunch", "meals_dinner", "meals_midnight", "meals_none"];
const ADDED_TO_MONTH = ["placed", "cash_back", "subsidy_back", "meals_breakfast", "meals_lunch", "meals_dinner", "meals_midnight", "meals_none", "days"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable("diner_day_order")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("order_date", "text", (c) => c.notNull())
    .addColumn("user_info_id", "bigint", (c) => c.notNull());
  for (const figure of FIGURES) table = table.addColumn(figure, "bigint", (c) => c.notNull());
  table = table.addPrimaryKeyConstraint("diner_day_order_pkey", ["tenant_id", "order_date", "user_info_id"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
  for (const column of ADDED_TO_MONTH) await db.schema.alterTable("diner_month_order").addColumn(column, "bigint", (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...ADDED_TO_MONTH].reverse()) await db.schema.alterTable("diner_month_order").dropColumn(column).execute();
  await db.schema.dropTable("diner_day_order").execute();
}
