import type { Kysely } from "kysely";

/**
 * A sale at the counter asks whether its diner already has a counted swipe that day at that restaurant and meal
 * (`countSwipeDay`, decision 043). The diner's index (tenant, diner, day) did not hold the source, status, place and
 * id that question reads, and the report index (tenant, day, …, 0030) does: SQLite, which the server never ANALYZEs,
 * took the covering one and read every order of the tenant's day on each sale (decision 049). The diner's index now
 * holds those columns, so the question reads that diner's orders of the day and nothing else; every query that used
 * its prefix still can.
 */
const DINER_DAY = ["tenant_id", "user_info_id", "order_date", "order_source", "order_status", "restaurant_id", "meal_type", "id"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("meal_order_diner_day_idx").on("meal_order").columns(DINER_DAY).execute();
  await db.schema.dropIndex("meal_order_user_info_id_order_date_idx").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("meal_order_user_info_id_order_date_idx").on("meal_order").columns(["tenant_id", "user_info_id", "order_date"]).execute();
  await db.schema.dropIndex("meal_order_diner_day_idx").execute();
}
