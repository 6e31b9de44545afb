import { sql, type Kysely } from "kysely";
import { preparedQuery, runPrepared } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { inTransaction } from "../../db/transaction";

/**
 * The canteen's orders per order day, restaurant, meal type and payment method (table order_day, decision 041
 * addendum), counted by pay, cancel and refunds in their own transactions: 订单日汇总, the dashboard's 30 days and
 * 月度结算-商户 read a few dozen rows a day instead of a month of orders. An order without a restaurant is kept under
 * 0, one without a meal type under '' (the key has no nulls).
 */

type Trx = Kysely<Database>;

/** Orders fully refunded by a cancel or a complaint (mealOrderStatus 2 and 4) no longer count as meals: the reports' 取消/退款 orders. */
const NOT_COUNTED = [2, 4];
/** NOT_COUNTED as SQL literals, for `order_status not in (…)`: the kept rows and the reports count the same orders. */
export const notCountedStatuses = sql.join(NOT_COUNTED.map((s) => sql.lit(s)));
/** Orders a diner was served in person: at a cashier (card, face or typed) or at a device (刷卡统计). */
export const SWIPE_SOURCES = ["cashier", "device"];

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
  await addOrderDay(trx, change.tenantId, change.orderDate, change.restaurantId ?? 0, change.mealType ?? "", change.payFlag, figures.placed, figures.cancelled, figures.paid, figures.refunded);
}

// The kept days' upserts, compiled once: every payment, cancel and refund runs them.
const addOrderDay = preparedQuery(
  "order day add",
  (trx: Trx, tenantId: number, orderDate: string, restaurantId: number, mealType: string, payFlag: number, placed: number, cancelled: number, paid: number, refunded: number) =>
    trx
      .insertInto("order_day")
      .values({ tenant_id: tenantId, order_date: orderDate, restaurant_id: restaurantId, meal_type: mealType, pay_flag: payFlag, placed, cancelled, paid, refunded })
      .onConflict((oc) =>
        oc.columns(["tenant_id", "order_date", "restaurant_id", "meal_type", "pay_flag"]).doUpdateSet({
          placed: sql`order_day.placed + excluded.placed`,
          cancelled: sql`order_day.cancelled + excluded.cancelled`,
          paid: sql`order_day.paid + excluded.paid`,
          refunded: sql`order_day.refunded + excluded.refunded`,
        }),
      ),
);
const addSwipeDay = preparedQuery(
  "swipe day add",
  (trx: Trx, tenantId: number, orderDate: string, restaurantId: number, mealType: string, swipes: number, cardSwipes: number, amount: number, diners: number) =>
    trx
      .insertInto("swipe_day")
      .values({ tenant_id: tenantId, order_date: orderDate, restaurant_id: restaurantId, meal_type: mealType, swipes, card_swipes: cardSwipes, amount, diners })
      .onConflict((oc) =>
        oc.columns(["tenant_id", "order_date", "restaurant_id", "meal_type"]).doUpdateSet({
          swipes: sql`swipe_day.swipes + excluded.swipes`,
          card_swipes: sql`swipe_day.card_swipes + excluded.card_swipes`,
          amount: sql`swipe_day.amount + excluded.amount`,
          diners: sql`swipe_day.diners + excluded.diners`,
        }),
      ),
);

export interface SwipeChange {
  tenantId: number;
  orderId: number;
  userInfoId: number;
  orderDate: string;
  restaurantId: number | null;
  mealType: string | null;
  source: string;
  cardNo: string | null;
  /** +1 when paid, −1 when it stops counting (cancelled, or refunded in full). */
  counts?: number;
  paid?: number;
  refunded?: number;
}

/**
 * How many other counted swipe sales the diner has that day at the sale's restaurant and meal. It reads only the
 * diner's orders of the day, through their index (0040): each sale at the counter asks it.
 */
export function otherSwipes(trx: Trx, change: Pick<SwipeChange, "tenantId" | "userInfoId" | "orderDate" | "orderId" | "restaurantId" | "mealType">) {
  const others = trx
    .selectFrom("meal_order")
    .select(sql<number>`count(*)`.as("n"))
    .where("tenant_id", "=", change.tenantId)
    .where("user_info_id", "=", change.userInfoId)
    .where("order_date", "=", change.orderDate)
    .where("order_source", "in", SWIPE_SOURCES)
    .where("order_status", "not in", NOT_COUNTED)
    .where("id", "!=", change.orderId);
  const atPlace = change.restaurantId === null ? others.where("restaurant_id", "is", null) : others.where("restaurant_id", "=", change.restaurantId);
  return change.mealType === null ? atPlace.where("meal_type", "is", null) : atPlace.where("meal_type", "=", change.mealType);
}

/** `otherSwipes`, compiled once per shape (a sale without a restaurant or a meal type asks with IS NULL). */
async function countOtherSwipes(trx: Trx, change: SwipeChange): Promise<number> {
  const { restaurantId, mealType } = change;
  const key = `other swipes${restaurantId === null ? "" : " at restaurant"}${mealType === null ? "" : " of meal"}`;
  const args = [change.tenantId, change.userInfoId, change.orderDate, change.orderId, ...(restaurantId === null ? [] : [restaurantId]), ...(mealType === null ? [] : [mealType])];
  const [row] = await runPrepared(trx, key, args, ([tenantId, userInfoId, orderDate, orderId, ...place]) =>
    otherSwipes(trx, {
      tenantId: tenantId as number,
      userInfoId: userInfoId as number,
      orderDate: orderDate as string,
      orderId: orderId as number,
      restaurantId: restaurantId === null ? null : (place[0] as number),
      mealType: mealType === null ? null : (place[restaurantId === null ? 0 : 1] as string),
    }),
  );
  return Number(row.n);
}

/**
 * Adds a counter or device sale's change to its day, restaurant and meal (table swipe_day, decision 043). Its diners
 * are those with a sale there that counts: a sale that starts counting adds its diner when they had none there
 * before, one that stops takes them away when it was their last. The caller holds the diner's lock (`lockDiner`), so
 * the diner's other sales read here cannot change meanwhile; the row is shared by the restaurant's meal, so it is
 * written last, after `countOrderDay`.
 */
export async function countSwipeDay(trx: Trx, change: SwipeChange): Promise<void> {
  if (!SWIPE_SOURCES.includes(change.source)) return;
  const counts = change.counts ?? 0;
  let diners = 0;
  if (counts !== 0 && (await countOtherSwipes(trx, change)) === 0) diners = counts;
  const figures = { swipes: counts, card_swipes: change.cardNo ? counts : 0, amount: (change.paid ?? 0) - (change.refunded ?? 0), diners };
  if (Object.values(figures).every((n) => n === 0)) return;
  await addSwipeDay(trx, change.tenantId, change.orderDate, change.restaurantId ?? 0, change.mealType ?? "", figures.swipes, figures.card_swipes, figures.amount, figures.diners);
}

/**
 * Counts the days afresh from the orders, one tenant's or (migration 0037) all: the demo generator writes in bulk.
 * Both tables: the orders per payment method (`order_day`) and the counter and device sales (`swipe_day`).
 */
export async function recountOrderDays(db: Kysely<Database>, tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const table of ["order_day", "swipe_day"] as const) {
      let clear = trx.deleteFrom(table);
      if (tenantId !== undefined) clear = clear.where("tenant_id", "=", tenantId);
      await clear.execute();
    }
    const counted = sql`order_status not in (${notCountedStatuses})`;
    await sql`
      insert into swipe_day (tenant_id, order_date, restaurant_id, meal_type, swipes, card_swipes, amount, diners)
      select tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), sum(case when ${counted} then 1 else 0 end),
        sum(case when ${counted} and card_no is not null then 1 else 0 end), sum(paid_amount - refunded_amount), count(distinct case when ${counted} then user_info_id end)
      from meal_order
      where ${tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`} and order_source in (${sql.join(SWIPE_SOURCES.map((s) => sql.lit(s)))})
      group by tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, '')`.execute(trx);
    await sql`
      insert into order_day (tenant_id, order_date, restaurant_id, meal_type, pay_flag, placed, cancelled, paid, refunded)
      select tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag, count(*),
        sum(case when order_status in (${notCountedStatuses}) then 1 else 0 end), sum(paid_amount), sum(refunded_amount)
      from meal_order
      where ${tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`}
      group by tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag`.execute(trx);
  });
}
