import type { Kysely } from "kysely";
import { requestRecount } from "./recounts";

/**
 * 积分订单统计 at volume (issue 15, decision 040 addendum): it joined a month's earning and take-back lines (700,000
 * for 20,000 diners) to their orders on every view (2.6 s). The orders' points per order day and restaurant are kept
 * instead by `postPoints` (server/modules/zhct/pointsOrderDays.ts). An order without a restaurant is kept under 0.
 * The existing lines are counted once, after the migrations (./recounts.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("points_order_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("order_date", "text", (c) => c.notNull())
    .addColumn("restaurant_id", "bigint", (c) => c.notNull())
    .addColumn("orders", "bigint", (c) => c.notNull())
    .addColumn("paid", "bigint", (c) => c.notNull())
    .addColumn("earned", "bigint", (c) => c.notNull())
    .addColumn("taken_back", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("points_order_day_pkey", ["tenant_id", "order_date", "restaurant_id"])
    .execute();
  await requestRecount(db, "pointsOrderDays");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("points_order_day").execute();
}
