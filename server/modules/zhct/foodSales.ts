import { sql } from "kysely";
import type { Db } from "../../db";
import { runPrepared } from "../../db/prepared";
import type { Trx } from "./ledger";
import { notCountedStatuses } from "./orderDays";

/**
 * The day's dishes sold per restaurant and meal type (table food_sales_day, decision 038), kept by the orders that
 * count: an order adds its items when paid and takes them back when it stops counting (cancelled, or refunded in
 * full). Both happen in the order's own transaction, so 菜品销量统计 reads totals that are always the orders'.
 */

export interface SoldOrder {
  tenantId: number;
  orderDate: string;
  restaurantId: number | null;
  mealType: string | null;
}

export interface SoldItem {
  foodId: number;
  foodName: string;
  quantity: number;
  subtotal: number;
}

/**
 * Adds (`sign` 1) or takes back (−1) an order's items. One upsert for the order, its rows in key order: two orders
 * of the same dishes on PostgreSQL lock those rows in the same order, so they wait for each other, never deadlock.
 */
export async function countFoodSales(trx: Trx, order: SoldOrder, items: readonly SoldItem[], sign: 1 | -1): Promise<void> {
  const byDish = new Map<string, { foodId: number; foodName: string; quantity: number; amount: number }>();
  for (const item of items) {
    const key = `${item.foodId}\u0000${item.foodName}`;
    const row = byDish.get(key) ?? { foodId: item.foodId, foodName: item.foodName, quantity: 0, amount: 0 };
    row.quantity += item.quantity;
    row.amount += item.subtotal;
    byDish.set(key, row);
  }
  if (!byDish.size) return;
  const dishes = [...byDish.values()].sort((a, b) => a.foodId - b.foodId || (a.foodName < b.foodName ? -1 : a.foodName > b.foodName ? 1 : 0));
  // Compiled once per number of dishes (at most MAX_ITEMS of a payment): each dish's four values follow one another.
  const args = [order.tenantId, order.orderDate, order.restaurantId ?? 0, order.mealType ?? "", ...dishes.flatMap((d) => [d.foodId, d.foodName, sign * d.quantity, sign * d.amount])];
  await runPrepared(trx, `food sales add ${dishes.length}`, args, ([tenantId, orderDate, restaurantId, mealType, ...values]) =>
    trx
      .insertInto("food_sales_day")
      .values(
        dishes.map((_, i) => ({
          tenant_id: tenantId as number,
          order_date: orderDate as string,
          restaurant_id: restaurantId as number,
          meal_type: mealType as string,
          food_id: values[4 * i] as number,
          food_name: values[4 * i + 1] as string,
          quantity: values[4 * i + 2] as number,
          amount: values[4 * i + 3] as number,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["tenant_id", "order_date", "restaurant_id", "meal_type", "food_id", "food_name"]).doUpdateSet({
          quantity: sql`food_sales_day.quantity + excluded.quantity`,
          amount: sql`food_sales_day.amount + excluded.amount`,
        }),
      ),
  );
}

/**
 * Counts a tenant's orders of a period afresh (the demo generator writes orders without `pay`): the period's rows are
 * replaced by the sums of its orders that count (not 已取消 or 已全额退款), as migration 0031 counted the first time.
 */
export async function recountFoodSales(db: Db, tenantId: number, from: string, to: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("food_sales_day").where("tenant_id", "=", tenantId).where("order_date", ">=", from).where("order_date", "<=", to).execute();
    await sql`
      insert into food_sales_day (tenant_id, order_date, restaurant_id, meal_type, food_id, food_name, quantity, amount)
      select o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name, sum(i.quantity), sum(i.subtotal)
      from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id
      where o.tenant_id = ${tenantId} and o.order_date >= ${from} and o.order_date <= ${to} and o.order_status not in (${notCountedStatuses})
      group by o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name`.execute(trx);
  });
}
