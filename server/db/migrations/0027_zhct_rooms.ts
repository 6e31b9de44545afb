// Written by `npm run migration:new -- zhct/room zhct/roomReservation zhct/userAccountTable zhct/userPlate` from the declarations (decision 014). Released migrations are not edited.
import { sql, type Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "room",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "room_name", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "capacity", type: "integer", notNull: true },
      { name: "equipment", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "room_name", "restaurant_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "restaurant_id"]],
  },
  {
    name: "room_reservation",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "room_id", type: "bigint", notNull: true },
      { name: "reserve_date", type: "text", notNull: true },
      { name: "begin_time", type: "text", notNull: true },
      { name: "end_time", type: "text", notNull: true },
      { name: "organizer", type: "text", notNull: true },
      { name: "phone", type: "text", notNull: false },
      { name: "attendees", type: "integer", notNull: true },
      { name: "standard_per_head", type: "bigint", notNull: true, default: 0 },
      { name: "reserve_status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "room_id"], table: "room", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "room_id", "reserve_date"]],
  },
  {
    name: "user_account_table",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "table_no", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "bind_date", type: "text", notNull: true },
      { name: "bound_at", type: "bigint", notNull: true },
      { name: "released_at", type: "bigint", notNull: false },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "bind_status", type: "integer", notNull: true, default: 1 },
      { name: "device_code", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "restaurant_id", "table_no", "bind_status"], ["tenant_id", "bind_date"], ["tenant_id", "user_info_id"], ["tenant_id", "order_id"]],
  },
  {
    name: "user_plate",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "plate_no", type: "text", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "bind_date", type: "text", notNull: true },
      { name: "meal_times_id", type: "bigint", notNull: false },
      { name: "bound_at", type: "bigint", notNull: true },
      { name: "released_at", type: "bigint", notNull: false },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "bind_status", type: "integer", notNull: true, default: 1 },
      { name: "device_code", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "meal_times_id"], table: "meal_times", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "order_id"], table: "meal_order", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "plate_no", "bind_status"], ["tenant_id", "bind_date"], ["tenant_id", "user_info_id"], ["tenant_id", "meal_times_id"], ["tenant_id", "order_id"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  // Written by hand (decision 028): a plate is held by one diner at a time, and a diner sits at one table at a time,
  // also against two devices binding at once.
  await db.schema.createIndex("user_plate_one_holder_uq").on("user_plate").columns(["tenant_id", "plate_no"]).unique().where(sql.ref("bind_status"), "=", 1).execute();
  await db.schema.createIndex("user_account_table_one_seat_uq").on("user_account_table").columns(["tenant_id", "user_info_id"]).unique().where(sql.ref("bind_status"), "=", 1).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
