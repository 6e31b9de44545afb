import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { inTransaction } from "../../db/transaction";

/**
 * 积分订单统计 kept per order day and restaurant (table points_order_day, decision 040 addendum): the orders that
 * earned points, what they paid, the points they earned and those taken back, counted by `postPoints` in the
 * transaction of each earning or take-back line. The report reads a few rows a day instead of joining a month's
 * points lines to their orders.
 */

type Trx = Kysely<Database>;

/** Dictionary integralChangeType: 1 earned by an order, 4 taken back by its refund (points.ts `PointsChange`). */
const EARN = 1;
const TAKE_BACK = 4;

/**
 * Counts an order's earning or take-back line on the order's day and restaurant, read from the order in the same
 * statement. A line of another kind, or of an order that is not in `meal_order`, counts nothing.
 */
export async function countPointsOrderDay(trx: Trx, line: { tenantId: number; orderId: number | null | undefined; changeType: number; points: number }): Promise<void> {
  if (!line.orderId || (line.changeType !== EARN && line.changeType !== TAKE_BACK)) return;
  const earned = line.changeType === EARN;
  // The SELECT's WHERE is needed before ON CONFLICT on SQLite (its parser would read ON as a join's otherwise).
  await sql`
    insert into points_order_day (tenant_id, order_date, restaurant_id, orders, paid, earned, taken_back)
    select tenant_id, order_date, coalesce(restaurant_id, 0), ${earned ? 1 : 0}, ${earned ? sql`paid_amount` : sql`0`}, ${earned ? line.points : 0}, ${earned ? 0 : -line.points}
    from meal_order where tenant_id = ${line.tenantId} and id = ${line.orderId}
    on conflict (tenant_id, order_date, restaurant_id) do update set
      orders = points_order_day.orders + excluded.orders,
      paid = points_order_day.paid + excluded.paid,
      earned = points_order_day.earned + excluded.earned,
      taken_back = points_order_day.taken_back + excluded.taken_back`.execute(trx);
}

/** Counts the days afresh from the points lines and their orders, one tenant's or (migration 0034) all. */
export async function recountPointsOrderDays(db: Kysely<Database>, tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    let clear = trx.deleteFrom("points_order_day");
    if (tenantId !== undefined) clear = clear.where("tenant_id", "=", tenantId);
    await clear.execute();
    const ofTenant = tenantId === undefined ? sql`1 = 1` : sql`o.tenant_id = ${tenantId}`;
    await sql`
      insert into points_order_day (tenant_id, order_date, restaurant_id, orders, paid, earned, taken_back)
      select o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0),
        sum(case when p.change_type = ${sql.lit(EARN)} then 1 else 0 end),
        sum(case when p.change_type = ${sql.lit(EARN)} then o.paid_amount else 0 end),
        sum(case when p.change_type = ${sql.lit(EARN)} then p.points else 0 end),
        sum(case when p.change_type = ${sql.lit(TAKE_BACK)} then -p.points else 0 end)
      from user_account_integral_detail p join meal_order o on o.tenant_id = p.tenant_id and o.id = p.order_id
      where ${ofTenant} and p.change_type in (${sql.lit(EARN)}, ${sql.lit(TAKE_BACK)})
      group by o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0)`.execute(trx);
  });
}
