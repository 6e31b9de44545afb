// Written by `npm run migration:new -- zhct/mealTicketSetting zhct/mealTicket zhct/mealTicketUse zhct/mealRecovery` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "meal_ticket_setting",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "ticket_type", type: "integer", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "breakfast", type: "integer", notNull: false },
      { name: "lunch", type: "integer", notNull: false },
      { name: "dinner", type: "integer", notNull: false },
      { name: "midnight", type: "integer", notNull: false },
      { name: "approver_role_id", type: "bigint", notNull: false },
      { name: "approver_user_id", type: "bigint", notNull: false },
      { name: "valid_days", type: "integer", notNull: true, default: 1 },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "ticket_type"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "approver_role_id"], table: "role", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "approver_user_id"], table: "user", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "approver_role_id"], ["tenant_id", "approver_user_id"]],
  },
  {
    name: "meal_ticket",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "ticket_type", type: "integer", notNull: true },
      { name: "ticket_count", type: "integer", notNull: true, default: 1 },
      { name: "valid_from", type: "text", notNull: false },
      { name: "valid_to", type: "text", notNull: false },
      { name: "reason", type: "text", notNull: true },
      { name: "applicant_name", type: "text", notNull: false },
      { name: "applicant_id", type: "bigint", notNull: false },
      { name: "approved_status", type: "integer", notNull: true, default: -1 },
      { name: "approver_name", type: "text", notNull: false },
      { name: "approver_id", type: "bigint", notNull: false },
      { name: "approved_at", type: "bigint", notNull: false },
      { name: "approve_remark", type: "text", notNull: false },
      { name: "used_count", type: "integer", notNull: true, default: 0 },
      { name: "used_status", type: "integer", notNull: true, default: 0 },
      { name: "applied_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id", "ticket_type", "approved_status"]],
  },
  {
    name: "meal_ticket_use",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "ticket_id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "order_id", type: "bigint", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "meal_type", type: "text", notNull: false },
      { name: "used_at", type: "bigint", notNull: true },
      { name: "returned_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "order_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "ticket_id"], table: "meal_ticket", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "ticket_id", "used_at"], ["tenant_id", "user_info_id"]],
  },
  {
    name: "meal_recovery",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "order_id", type: "bigint", notNull: true },
      { name: "order_no", type: "text", notNull: false },
      { name: "user_info_id", type: "bigint", notNull: false },
      { name: "bowls_returned", type: "integer", notNull: true, default: 0 },
      { name: "leftover_weight", type: "integer", notNull: true, default: 0 },
      { name: "images", type: "text", notNull: false },
      { name: "recovery_status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "recorded_by", type: "text", notNull: false },
      { name: "recorded_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "order_id"], ["tenant_id", "user_info_id"]],
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
