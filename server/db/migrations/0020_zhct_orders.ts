// Written by `npm run migration:new -- zhct/mealOrder zhct/mealOrderItem` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "meal_order",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "order_no", type: "text", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "order_date", type: "text", notNull: true },
      { name: "meal_times_id", type: "bigint", notNull: false },
      { name: "meal_type", type: "text", notNull: false },
      { name: "restaurant_id", type: "bigint", notNull: false },
      { name: "stall_id", type: "bigint", notNull: false },
      { name: "order_type", type: "integer", notNull: true, default: 1 },
      { name: "amount", type: "bigint", notNull: true },
      { name: "paid_amount", type: "bigint", notNull: true },
      { name: "refunded_amount", type: "bigint", notNull: true, default: 0 },
      { name: "pay_flag", type: "integer", notNull: true },
      { name: "pay_result", type: "integer", notNull: true, default: 1 },
      { name: "order_appointment_status", type: "integer", notNull: false },
      { name: "order_source", type: "text", notNull: true },
      { name: "order_status", type: "integer", notNull: true, default: 1 },
      { name: "cashier_id", type: "bigint", notNull: false },
      { name: "cashier_name", type: "text", notNull: false },
      { name: "device_code", type: "text", notNull: false },
      { name: "card_no", type: "text", notNull: false },
      { name: "paid_at", type: "bigint", notNull: true },
      { name: "cancel_reason", type: "text", notNull: false },
      { name: "cancelled_by_name", type: "text", notNull: false },
      { name: "cancelled_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "order_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "stall_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id", "order_date"], ["tenant_id", "order_date"], ["tenant_id", "paid_at"], ["tenant_id", "cashier_id", "paid_at"], ["tenant_id", "meal_times_id"], ["tenant_id", "restaurant_id"], ["tenant_id", "stall_id"]],
  },
  {
    name: "meal_order_item",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "meal_order_id", type: "bigint", notNull: true },
      { name: "food_id", type: "bigint", notNull: true },
      { name: "food_name", type: "text", notNull: true },
      { name: "price", type: "bigint", notNull: true },
      { name: "quantity", type: "integer", notNull: true },
      { name: "subtotal", type: "bigint", notNull: true },
      { name: "food_menu_item_id", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "meal_order_id"], table: "meal_order", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "food_id"], table: "food", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "food_menu_item_id"], table: "food_menu_item", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "meal_order_id"], ["tenant_id", "food_id"], ["tenant_id", "food_menu_item_id"]],
  },
];

// By hand: a complaint upheld with a refund keeps the amount refunded (fen) beside its status (decision 021). Its
// order_id (0003) stays a plain column: SQLite cannot add a foreign key to an existing table; the declaration's
// relation is checked by the resource engine, and the refund by the order's own row.
export const added: Array<{ table: string; columns: ColumnSpec[] }> = [{ table: "meal_order_complaints", columns: [{ name: "refund_amount", type: "bigint", notNull: false }] }];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
