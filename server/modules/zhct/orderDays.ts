import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { inTransaction } from "../../db/transaction";

/**
 * The canteen's orders per order day, restaurant, meal type and payment method (table order_day, decision 041
 * addendum), counted by pay, cancel and refunds in their own transactions: 订单日汇总, the dashboard's 30 days and
 * 月度结算-商户 read a few dozen rows a day instead of a month of orders. An order without a restaurant is kept under
 * 0, one without a meal type under '' (the key has no nulls).
 */

type Trx = Kysely<Database>;

/** Orders fully refunded by a cancel or a complaint (mealOrderStatus 2 and 4): the reports' 取消/退款 orders. */
const NOT_COUNTED = [2, 4];

export interface OrderDayChange {
  tenantId: number;
  orderDate: string;
  restaurantId: number | null;
  mealType: string | null;
  payFlag: number;
  /** +1 when paid. */
  placed?: number;
  /** +1 when the order stops counting (cancelled, or refunded in full). */
  cancelled?: number;
  paid?: number;
  refunded?: number;
}

/**
 * Adds an order's change to its day. Callers count it after the diner's rows: the day's row is shared by every
 * payment of the restaurant and meal, so it is locked last and held for the shortest time (PostgreSQL).
 */
export async function countOrderDay(trx: Trx, change: OrderDayChange): Promise<void> {
  const figures = { placed: change.placed ?? 0, cancelled: change.cancelled ?? 0, paid: change.paid ?? 0, refunded: change.refunded ?? 0 };
  if (Object.values(figures).every((n) => n === 0)) return;
  await trx
    .insertInto("order_day")
    .values({ tenant_id: change.tenantId, order_date: change.orderDate, restaurant_id: change.restaurantId ?? 0, meal_type: change.mealType ?? "", pay_flag: change.payFlag, ...figures })
    .onConflict((oc) =>
      oc.columns(["tenant_id", "order_date", "restaurant_id", "meal_type", "pay_flag"]).doUpdateSet({
        placed: sql`order_day.placed + excluded.placed`,
        cancelled: sql`order_day.cancelled + excluded.cancelled`,
        paid: sql`order_day.paid + excluded.paid`,
        refunded: sql`order_day.refunded + excluded.refunded`,
      }),
    )
    .execute();
}

/** Counts the days afresh from the orders, one tenant's or (migration 0036) all: the demo generator writes in bulk. */
export async function recountOrderDays(db: Kysely<Database>, tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    let clear = trx.deleteFrom("order_day");
    if (tenantId !== undefined) clear = clear.where("tenant_id", "=", tenantId);
    await clear.execute();
    await sql`
      insert into order_day (tenant_id, order_date, restaurant_id, meal_type, pay_flag, placed, cancelled, paid, refunded)
      select tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag, count(*),
        sum(case when order_status in (${sql.join(NOT_COUNTED.map((s) => sql.lit(s)))}) then 1 else 0 end), sum(paid_amount), sum(refunded_amount)
      from meal_order
      where ${tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`}
      group by tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag`.execute(trx);
  });
}
