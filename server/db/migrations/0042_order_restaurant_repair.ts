import { sql, type Kysely } from "kysely";

/**
 * Issue 38: a sale without a meal time (an amount at 收银台, a booking's price, a device's amount) was written without
 * the restaurant it was sold at, so 订单管理 showed no 餐厅 and the reports by restaurant counted it under none. The
 * payment now records it (server/modules/zhct/payments.ts, `placeOf`); this repairs the orders written before, where
 * something still tells: the order's meal time (its restaurant), else the device that sold it (its 所属餐厅, or the
 * restaurant of the stall it stands at, with that stall). An order with neither stays without a restaurant: nothing
 * recorded says where a cashier stood.
 *
 * The kept counts keyed by restaurant (order_day, swipe_day, diner_place_month, points_order_day, food_sales_day)
 * counted those orders under restaurant 0; they are counted afresh for each tenant that had an order repaired, with
 * the same statements their modules' recounts run (copied here: a migration keeps its SQL as it was written).
 */

const NOT_COUNTED = sql.raw("2, 4");
const SWIPE_SOURCES = sql.raw("'cashier', 'device'");
const EARN = sql.lit(1);
const TAKE_BACK = sql.lit(4);

/** The restaurant (or stall) a device stands at, for the order being updated. */
const deviceOrg = (column: "restaurant" | "stall") => sql`(
  select ${column === "restaurant" ? sql`case when o.org_type = 'stall' then o.parent_id else o.id end` : sql`case when o.org_type = 'stall' then o.id end`}
  from device d join org o on o.tenant_id = d.tenant_id and o.id = d.org_id
  where d.tenant_id = meal_order.tenant_id and d.device_code = meal_order.device_code and o.org_type in ('restaurant', 'stall'))`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One transaction: the kept counts are never seen cleared (PostgreSQL's migrator already runs in one).
  await (db.isTransaction ? repair(db) : db.transaction().execute(repair));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function repair(db: Kysely<any>): Promise<void> {
  const touched = await sql<{ tenant_id: number }>`
    select distinct tenant_id from meal_order
    where restaurant_id is null and (meal_times_id is not null or (device_code is not null and ${deviceOrg("restaurant")} is not null))`.execute(db);
  if (!touched.rows.length) return;

  await sql`
    update meal_order set restaurant_id = (select t.restaurant_id from meal_times t where t.tenant_id = meal_order.tenant_id and t.id = meal_order.meal_times_id)
    where restaurant_id is null and meal_times_id is not null`.execute(db);
  await sql`
    update meal_order set stall_id = coalesce(stall_id, ${deviceOrg("stall")}), restaurant_id = ${deviceOrg("restaurant")}
    where restaurant_id is null and device_code is not null and ${deviceOrg("restaurant")} is not null`.execute(db);

  for (const { tenant_id: raw } of touched.rows) {
    const tenantId = Number(raw);
    for (const table of ["order_day", "swipe_day", "diner_place_month", "points_order_day", "food_sales_day"]) {
      await sql`delete from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(db);
    }
    const counted = sql`order_status not in (${NOT_COUNTED})`;
    await sql`
      insert into swipe_day (tenant_id, order_date, restaurant_id, meal_type, swipes, card_swipes, amount, diners)
      select tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), sum(case when ${counted} then 1 else 0 end),
        sum(case when ${counted} and card_no is not null then 1 else 0 end), sum(paid_amount - refunded_amount), count(distinct case when ${counted} then user_info_id end)
      from meal_order
      where tenant_id = ${tenantId} and order_source in (${SWIPE_SOURCES})
      group by tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, '')`.execute(db);
    await sql`
      insert into order_day (tenant_id, order_date, restaurant_id, meal_type, pay_flag, placed, cancelled, paid, refunded)
      select tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag, count(*),
        sum(case when order_status in (${NOT_COUNTED}) then 1 else 0 end), sum(paid_amount), sum(refunded_amount)
      from meal_order
      where tenant_id = ${tenantId}
      group by tenant_id, order_date, coalesce(restaurant_id, 0), coalesce(meal_type, ''), pay_flag`.execute(db);
    await sql`
      insert into diner_place_month (tenant_id, month, restaurant_id, stall_id, meal_type, user_info_id, meals, amount)
      select tenant_id, substr(order_date, 1, 7), coalesce(restaurant_id, 0), coalesce(stall_id, 0), coalesce(meal_type, ''), user_info_id,
        sum(case when ${counted} then 1 else 0 end), sum(paid_amount - refunded_amount)
      from meal_order
      where tenant_id = ${tenantId}
      group by tenant_id, substr(order_date, 1, 7), coalesce(restaurant_id, 0), coalesce(stall_id, 0), coalesce(meal_type, ''), user_info_id`.execute(db);
    await sql`
      insert into points_order_day (tenant_id, order_date, restaurant_id, orders, paid, earned, taken_back)
      select o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0),
        sum(case when p.change_type = ${EARN} then 1 else 0 end),
        sum(case when p.change_type = ${EARN} then o.paid_amount else 0 end),
        sum(case when p.change_type = ${EARN} then p.points else 0 end),
        sum(case when p.change_type = ${TAKE_BACK} then -p.points else 0 end)
      from user_account_integral_detail p join meal_order o on o.tenant_id = p.tenant_id and o.id = p.order_id
      where o.tenant_id = ${tenantId} and p.change_type in (${EARN}, ${TAKE_BACK})
      group by o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0)`.execute(db);
    await sql`
      insert into food_sales_day (tenant_id, order_date, restaurant_id, meal_type, food_id, food_name, quantity, amount)
      select o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name, sum(i.quantity), sum(i.subtotal)
      from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id
      where o.tenant_id = ${tenantId} and o.order_status not in (${NOT_COUNTED})
      group by o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name`.execute(db);
  }
}

/** The repaired restaurants are facts the orders should have had; nothing to undo. */
export async function down(): Promise<void> {}
