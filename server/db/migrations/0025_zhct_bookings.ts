// Written by `npm run migration:new -- zhct/appointmentPeriod zhct/appointmentDetail zhct/appointmentDetailForOrder zhct/orderingPlan zhct/orderingFood` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "appointment_period",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "period_name", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "meal_times_id", type: "bigint", notNull: true },
      { name: "begin_date", type: "text", notNull: true },
      { name: "end_date", type: "text", notNull: true },
      { name: "capacity", type: "integer", notNull: true },
      { name: "deadline_days", type: "integer", notNull: true, default: 1 },
      { name: "deadline_time", type: "text", notNull: true, default: "16:00" },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "meal_times_id", "begin_date"], ["tenant_id", "restaurant_id"]],
  },
  {
    name: "appointment_detail",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "appointment_date", type: "text", notNull: true },
      { name: "meal_times_id", type: "bigint", notNull: true },
      { name: "period_id", type: "bigint", notNull: false },
      { name: "appointment_status", type: "integer", notNull: false },
      { name: "order_appointment_status", type: "integer", notNull: false },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "booked_at", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "user_info_id", "appointment_date", "meal_times_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "period_id"], table: "appointment_period", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "meal_times_id", "appointment_date", "appointment_status"], ["tenant_id", "period_id"], ["tenant_id", "order_id"]],
  },
  {
    name: "appointment_detail_for_order",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "appointment_detail_id", type: "bigint", notNull: false },
      { name: "order_no", type: "text", notNull: false },
      { name: "user_info_id", type: "bigint", notNull: false },
      { name: "appointment_date", type: "text", notNull: false },
      { name: "meal_times_id", type: "bigint", notNull: false },
      { name: "order_appointment_status", type: "integer", notNull: false },
      { name: "recorded_at", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "order_id"], ["tenant_id", "appointment_detail_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "appointment_detail_id"], table: "appointment_detail", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id", "appointment_date"], ["tenant_id", "meal_times_id"]],
  },
  {
    name: "ordering_plan",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "plan_name", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "meal_times_id", type: "bigint", notNull: true },
      { name: "food_id", type: "bigint", notNull: true },
      { name: "begin_date", type: "text", notNull: true },
      { name: "end_date", type: "text", notNull: true },
      { name: "price", type: "bigint", notNull: true },
      { name: "daily_quota", type: "integer", notNull: true },
      { name: "pay_time", type: "integer", notNull: true, default: 1 },
      { name: "deadline_days", type: "integer", notNull: true, default: 1 },
      { name: "deadline_time", type: "text", notNull: true, default: "16:00" },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "food_id"], table: "food", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "restaurant_id"], ["tenant_id", "meal_times_id"], ["tenant_id", "food_id"]],
  },
  {
    name: "ordering_food",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "plan_id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "order_date", type: "text", notNull: true },
      { name: "quantity", type: "integer", notNull: true, default: 1 },
      { name: "amount", type: "bigint", notNull: false },
      { name: "pay_time", type: "integer", notNull: false },
      { name: "reserve_status", type: "integer", notNull: true, default: 1 },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "paid_at", type: "bigint", notNull: false },
      { name: "reserved_at", type: "bigint", notNull: true },
      { name: "picked_up_at", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "plan_id"], table: "ordering_plan", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "plan_id", "order_date", "reserve_status"], ["tenant_id", "user_info_id"], ["tenant_id", "order_id"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

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
