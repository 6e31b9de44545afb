// Written by `npm run migration:new -- sc/scProductCategory sc/scProduct sc/scSupplier sc/scIncome sc/scCostExpense sc/scPurchase sc/scPurchaseLine` from the declarations (decision 014). Released migrations are not edited.
// Issue 37, decision 075: 收支管理 (/sc) — its goods, categories and suppliers, purchases with lines, income and costs/expenses.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "sc_product_category",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "parent_id", type: "bigint", notNull: false },
      { name: "category_name", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "category_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "parent_id"], table: "sc_product_category", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "parent_id"]],
  },
  {
    name: "sc_product",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "product_name", type: "text", notNull: true },
      { name: "category_id", type: "bigint", notNull: false },
      { name: "spec", type: "text", notNull: false },
      { name: "unit_name", type: "text", notNull: false },
      { name: "reference_price", type: "bigint", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "product_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "category_id"], table: "sc_product_category", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "category_id"]],
  },
  {
    name: "sc_supplier",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "supplier_name", type: "text", notNull: true },
      { name: "contact_name", type: "text", notNull: false },
      { name: "phone", type: "text", notNull: false },
      { name: "address", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "supplier_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
  {
    name: "sc_income",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "income_date", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "source_kind", type: "integer", notNull: false },
      { name: "pay_flag", type: "integer", notNull: false },
      { name: "source", type: "text", notNull: false },
      { name: "meals", type: "integer", notNull: false },
      { name: "amount", type: "bigint", notNull: true },
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
    ],
    indexes: [["tenant_id", "income_date"], ["tenant_id", "restaurant_id", "income_date"]],
  },
  {
    name: "sc_cost_expense",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "category", type: "integer", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "payee", type: "text", notNull: false },
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
    ],
    indexes: [["tenant_id", "month"], ["tenant_id", "restaurant_id"]],
  },
  {
    name: "sc_purchase",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "doc_no", type: "text", notNull: false },
      { name: "status", type: "text", notNull: true, default: "0" },
      { name: "supplier_id", type: "bigint", notNull: false },
      { name: "warehouse_supplier_id", type: "bigint", notNull: false },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "purchase_date", type: "text", notNull: true },
      { name: "cost_kind", type: "integer", notNull: true, default: 1 },
      { name: "total_amount", type: "bigint", notNull: false },
      { name: "paid_amount", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "version", type: "bigint", notNull: true, default: 1 },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "doc_no"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "supplier_id"], table: "sc_supplier", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "warehouse_supplier_id"], table: "supplier", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "status"], ["tenant_id", "restaurant_id", "purchase_date"], ["tenant_id", "supplier_id"], ["tenant_id", "warehouse_supplier_id"]],
  },
  {
    name: "sc_purchase_line",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "document_id", type: "bigint", notNull: true },
      { name: "line_no", type: "integer", notNull: true },
      { name: "product_id", type: "bigint", notNull: true },
      { name: "quantity", type: "bigint", notNull: true },
      { name: "price", type: "bigint", notNull: true },
      { name: "amount", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "document_id"], table: "sc_purchase", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "product_id"], table: "sc_product", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "document_id"], ["tenant_id", "product_id"]],
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
