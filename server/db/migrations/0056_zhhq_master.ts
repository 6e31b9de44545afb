// Issue 40, the warehouse's master data (decision 067). The new tables were written by `npm run migration:new -- zhhq/warehouseType zhhq/unit zhhq/goodsType zhhq/goods zhhq/goodsThreshold zhhq/supplierType zhhq/supplier zhhq/supplierGoods zhhq/outUseType` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "warehouse_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "type_name", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
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
    name: "goods_unit",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "unit_name", type: "text", notNull: true },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "unit_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
  {
    name: "goods_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "parent_id", type: "bigint", notNull: false },
      { name: "type_name", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
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
      { columns: ["tenant_id", "parent_id"], table: "goods_type", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "parent_id"]],
  },
  {
    name: "goods",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "goods_code", type: "text", notNull: true },
      { name: "goods_name", type: "text", notNull: true },
      { name: "spec", type: "text", notNull: false },
      { name: "unit_id", type: "bigint", notNull: false },
      { name: "goods_type_id", type: "bigint", notNull: false },
      { name: "warehouse_id", type: "bigint", notNull: false },
      { name: "shelf_life_days", type: "integer", notNull: false },
      { name: "reference_price", type: "bigint", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "goods_code"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "unit_id"], table: "goods_unit", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "goods_type_id"], table: "goods_type", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "warehouse_id"], table: "warehouse", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "unit_id"], ["tenant_id", "goods_type_id"], ["tenant_id", "warehouse_id"]],
  },
  {
    name: "goods_threshold",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "warehouse_id", type: "bigint", notNull: true },
      { name: "goods_id", type: "bigint", notNull: true },
      { name: "lower_quantity", type: "bigint", notNull: false },
      { name: "upper_quantity", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "warehouse_id", "goods_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "warehouse_id"], table: "warehouse", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "goods_id"], table: "goods", to: ["tenant_id", "id"], onDelete: "cascade" },
    ],
    indexes: [["tenant_id", "goods_id"]],
  },
  {
    name: "supplier_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "type_name", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
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
    name: "supplier",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "supplier_name", type: "text", notNull: true },
      { name: "supplier_type_id", type: "bigint", notNull: false },
      { name: "contact_name", type: "text", notNull: false },
      { name: "phone", type: "text", notNull: false },
      { name: "address", type: "text", notNull: false },
      { name: "credit_code", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "supplier_name"], ["tenant_id", "credit_code"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "supplier_type_id"], table: "supplier_type", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "supplier_type_id"]],
  },
  {
    name: "supplier_goods",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "supplier_id", type: "bigint", notNull: true },
      { name: "goods_id", type: "bigint", notNull: true },
      { name: "price", type: "bigint", notNull: true },
      { name: "valid_from", type: "text", notNull: true },
      { name: "valid_to", type: "text", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "supplier_id"], table: "supplier", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "goods_id"], table: "goods", to: ["tenant_id", "id"], onDelete: "cascade" },
    ],
    indexes: [["tenant_id", "supplier_id", "goods_id", "valid_from"], ["tenant_id", "goods_id"]],
  },
  {
    name: "out_use_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "type_name", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
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
];

/**
 * Written by hand: the warehouse table predates the declarations (0005). Its new references are checked by the
 * server (the generic engine's relation check, and 0056's services on delete): SQLite adds no foreign key to a table
 * it has, and both databases should hold the same keys.
 */
export const added: Array<{ table: string; columns: ColumnSpec[] }> = [
  {
    table: "warehouse",
    columns: [
      { name: "warehouse_code", type: "text", notNull: false },
      { name: "warehouse_type_id", type: "bigint", notNull: false },
      { name: "restaurant_id", type: "bigint", notNull: false },
      { name: "address", type: "text", notNull: false },
      { name: "keepers", type: "text", notNull: false },
    ],
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  await db.schema.createIndex("warehouse_warehouse_code_uq").unique().on("warehouse").columns(["tenant_id", "warehouse_code"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("warehouse_warehouse_code_uq").execute();
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
