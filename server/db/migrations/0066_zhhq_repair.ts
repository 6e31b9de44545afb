// Written by `npm run migration:new -- zhhq/repair zhhq/repairDetail zhhq/repairImage` from the declarations (decision 014). Released migrations are not edited.
// Issue 36, decision 074: repairs — the request and its declared steps, the work done, and its pictures.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "repair",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "repair_no", type: "text", notNull: false },
      { name: "place_type", type: "text", notNull: true },
      { name: "dormitory_id", type: "bigint", notNull: false },
      { name: "restaurant_id", type: "bigint", notNull: false },
      { name: "place", type: "text", notNull: false },
      { name: "repair_type", type: "text", notNull: true },
      { name: "content", type: "text", notNull: true },
      { name: "image", type: "text", notNull: false },
      { name: "reporter_name", type: "text", notNull: true },
      { name: "reporter_phone", type: "text", notNull: false },
      { name: "expected_time", type: "bigint", notNull: false },
      { name: "priority", type: "integer", notNull: false },
      { name: "repair_status", type: "integer", notNull: false },
      { name: "worker_name", type: "text", notNull: false },
      { name: "worker_phone", type: "text", notNull: false },
      { name: "accepted_at", type: "bigint", notNull: false },
      { name: "started_at", type: "bigint", notNull: false },
      { name: "finished_at", type: "bigint", notNull: false },
      { name: "accept_minutes", type: "bigint", notNull: false },
      { name: "finish_minutes", type: "bigint", notNull: false },
      { name: "finish_note", type: "text", notNull: false },
      { name: "parts_cost", type: "bigint", notNull: false },
      { name: "rating", type: "bigint", notNull: false },
      { name: "rating_comment", type: "text", notNull: false },
      { name: "reject_reason", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "repair_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "repair_status"], ["tenant_id", "dormitory_id"], ["tenant_id", "restaurant_id"]],
  },
  {
    name: "repair_detail",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "repair_id", type: "bigint", notNull: true },
      { name: "worker_name", type: "text", notNull: false },
      { name: "note", type: "text", notNull: true },
      { name: "hours", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "repair_id"], table: "repair", to: ["tenant_id", "id"], onDelete: "cascade" },
    ],
    indexes: [["tenant_id", "repair_id"]],
  },
  {
    name: "repair_image",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "repair_id", type: "bigint", notNull: true },
      { name: "stage", type: "text", notNull: true },
      { name: "image", type: "text", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "repair_id"], table: "repair", to: ["tenant_id", "id"], onDelete: "cascade" },
    ],
    indexes: [["tenant_id", "repair_id"]],
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
