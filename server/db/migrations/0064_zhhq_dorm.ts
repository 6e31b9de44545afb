// Written by `npm run migration:new -- zhhq/roomType zhhq/dormitory zhhq/userDormitory zhhq/meterReading zhhq/waterElectricMonth zhhq/waterElectricShare` from the declarations (decision 014). Released migrations are not edited.
// Issue 36, decision 074: the dormitory — room types, rooms, residents by bed (check-in, check-out), meter readings, the month's bills and each resident's share.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "room_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "type_name", type: "text", notNull: true },
      { name: "beds", type: "integer", notNull: true },
      { name: "monthly_rent", type: "bigint", notNull: false, default: 0 },
      { name: "gender_rule", type: "text", notNull: false, default: "any" },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "type_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
  {
    name: "dormitory",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "building", type: "text", notNull: true },
      { name: "floor", type: "integer", notNull: false },
      { name: "room_no", type: "text", notNull: true },
      { name: "room_type_id", type: "bigint", notNull: false },
      { name: "beds", type: "integer", notNull: false },
      { name: "gender", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "building", "room_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "room_type_id"], table: "room_type", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "room_type_id"]],
  },
  {
    name: "user_dormitory",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "dormitory_id", type: "bigint", notNull: true },
      { name: "bed_no", type: "integer", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "check_in_date", type: "text", notNull: true },
      { name: "check_out_date", type: "text", notNull: false },
      { name: "live_status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "dormitory_id", "live_status"], ["tenant_id", "user_info_id", "live_status"]],
  },
  {
    name: "meter_reading",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "dormitory_id", type: "bigint", notNull: true },
      { name: "meter_type", type: "text", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "previous_reading", type: "bigint", notNull: false },
      { name: "current_reading", type: "bigint", notNull: true },
      { name: "meter_changed", type: "integer", notNull: false },
      { name: "start_reading", type: "bigint", notNull: false },
      { name: "used", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "dormitory_id", "meter_type", "month"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "water_electric_month",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "dormitory_id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "water_used", type: "bigint", notNull: false },
      { name: "electric_used", type: "bigint", notNull: false },
      { name: "water_price", type: "bigint", notNull: false },
      { name: "electric_price", type: "bigint", notNull: false },
      { name: "water_amount", type: "bigint", notNull: false },
      { name: "electric_amount", type: "bigint", notNull: false },
      { name: "rent_amount", type: "bigint", notNull: false },
      { name: "total_amount", type: "bigint", notNull: false },
      { name: "resident_days", type: "bigint", notNull: false },
      { name: "pay_status", type: "integer", notNull: false },
      { name: "paid_at", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "dormitory_id", "month"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "water_electric_share",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "bill_id", type: "bigint", notNull: true },
      { name: "dormitory_id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "days", type: "bigint", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "share_status", type: "integer", notNull: true, default: 0 },
      { name: "fail_reason", type: "text", notNull: false },
      { name: "ledger_id", type: "bigint", notNull: false },
      { name: "paid_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "bill_id"], table: "water_electric_month", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "ledger_id"], table: "user_account_ledger", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "bill_id"], ["tenant_id", "dormitory_id"], ["tenant_id", "user_info_id"], ["tenant_id", "ledger_id"]],
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
