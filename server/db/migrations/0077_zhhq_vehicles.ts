// Written by `npm run migration:new -- zhhq/vehicles zhhq/travelRequests zhhq/message` from the declarations (decision 014). Released migrations are not edited.
// Issue 36, decision 083: vehicles, travel requests (a car and a driver dispatched by declared steps) and notices to residents.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "vehicle",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "plate_no", type: "text", notNull: true },
      { name: "brand", type: "text", notNull: true },
      { name: "model", type: "text", notNull: true },
      { name: "seats", type: "integer", notNull: true },
      { name: "fuel_type", type: "text", notNull: true },
      { name: "odometer", type: "integer", notNull: false },
      { name: "driver_id", type: "bigint", notNull: false },
      { name: "insurance_expiry", type: "text", notNull: true },
      { name: "inspection_expiry", type: "text", notNull: true },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "plate_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "driver_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "driver_id"]],
  },
  {
    name: "travel_request",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "request_no", type: "text", notNull: false },
      { name: "applicant", type: "text", notNull: true },
      { name: "applicant_phone", type: "text", notNull: false },
      { name: "purpose", type: "text", notNull: true },
      { name: "from_place", type: "text", notNull: true },
      { name: "to_place", type: "text", notNull: true },
      { name: "passengers", type: "integer", notNull: true },
      { name: "start_time", type: "bigint", notNull: true },
      { name: "end_time", type: "bigint", notNull: true },
      { name: "request_status", type: "integer", notNull: false },
      { name: "vehicle_id", type: "bigint", notNull: false },
      { name: "driver_id", type: "bigint", notNull: false },
      { name: "odometer_out", type: "bigint", notNull: false },
      { name: "odometer_in", type: "bigint", notNull: false },
      { name: "distance", type: "bigint", notNull: false },
      { name: "dispatched_at", type: "bigint", notNull: false },
      { name: "departed_at", type: "bigint", notNull: false },
      { name: "returned_at", type: "bigint", notNull: false },
      { name: "reject_reason", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "request_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "vehicle_id"], table: "vehicle", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "driver_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "vehicle_id", "request_status"], ["tenant_id", "driver_id", "request_status"]],
  },
  {
    name: "resident_message",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "target_type", type: "text", notNull: true },
      { name: "building", type: "text", notNull: false },
      { name: "dormitory_id", type: "bigint", notNull: false },
      { name: "content", type: "text", notNull: true },
      { name: "recipient_count", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dormitory_id"], table: "dormitory", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "dormitory_id"]],
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
