import { sql, type Kysely } from "kysely";

/**
 * 菜品销量统计 at volume (issue 15, decision 038): a month of a large canteen is ~2,000,000 order items, and grouping
 * them took seconds on every view. The day's totals per restaurant, meal type and dish are kept instead, written in
 * the order's own transaction (server/modules/zhct/foodSales.ts): a month is then a few thousand rows.
 *
 * An order without a restaurant or a meal type is kept under 0 and '' (a key column cannot be null: two nulls
 * never conflict, and the upsert would add a row per sale). The existing orders are counted here once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("food_sales_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("order_date", "text", (c) => c.notNull())
    .addColumn("restaurant_id", "bigint", (c) => c.notNull())
    .addColumn("meal_type", "text", (c) => c.notNull())
    .addColumn("food_id", "bigint", (c) => c.notNull())
    .addColumn("food_name", "text", (c) => c.notNull())
    .addColumn("quantity", "bigint", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("food_sales_day_pkey", ["tenant_id", "order_date", "restaurant_id", "meal_type", "food_id", "food_name"])
    .execute();
  await sql`
    insert into food_sales_day (tenant_id, order_date, restaurant_id, meal_type, food_id, food_name, quantity, amount)
    select o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name, sum(i.quantity), sum(i.subtotal)
    from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id
    where o.order_status not in (2, 4)
    group by o.tenant_id, o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("food_sales_day").execute();
}
