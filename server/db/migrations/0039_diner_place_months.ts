import { PostgresAdapter, sql, type Kysely } from "kysely";
import { requestRecount } from "./recounts";

/**
 * 食堂消费次数统计 at volume (issue 15, decision 047): its diners per restaurant, stall and meal type are distinct over
 * the period, which no kept day adds up to; it sorted a month of orders on every view (0.6–0.9 s for 20,000 diners).
 * Each diner's month is kept per place instead, by pay, cancel and refunds in the order's own transaction (one more row
 * of the diner's own, so no two diners wait for each other). A period is its whole months plus or minus the orders of
 * the days at its edges. On SQLite the rows live in their key (WITHOUT ROWID), as the other kept tables do. The
 * existing orders are counted once, after the migrations (./recounts.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable("diner_place_month")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("restaurant_id", "bigint", (c) => c.notNull())
    .addColumn("stall_id", "bigint", (c) => c.notNull())
    .addColumn("meal_type", "text", (c) => c.notNull())
    .addColumn("user_info_id", "bigint", (c) => c.notNull())
    .addColumn("meals", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("amount", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("diner_place_month_pkey", ["tenant_id", "month", "restaurant_id", "stall_id", "meal_type", "user_info_id"]);
  await (db.getExecutor().adapter instanceof PostgresAdapter ? table : table.modifyEnd(sql`without rowid`)).execute();
  await requestRecount(db, "dinerPlaceMonths");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("diner_place_month").execute();
}
