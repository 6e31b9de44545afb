// Issue 41, decision 073: transfers, stocktakes, the month's stock account (its months and rows), and each stock
// movement's document date (the month it counts in), filled for the movements before it from their documents.
// Written by `npm run migration:new -- zhhq/warehouseTransfer zhhq/warehouseTransferLine zhhq/warehouseCheck zhhq/warehouseCheckLine zhhq/warehouseAccountMonth zhhq/warehouseAccountMonthSettle zhhq/warehouseLedger` from the declarations (decision 014). Released migrations are not edited.
import { sql, type Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "warehouse_transfer",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "doc_no", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: true, default: 0 },
      { name: "from_warehouse_id", type: "bigint", notNull: true },
      { name: "to_warehouse_id", type: "bigint", notNull: true },
      { name: "doc_date", type: "text", notNull: false },
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
      { columns: ["tenant_id", "from_warehouse_id"], table: "warehouse", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "to_warehouse_id"], table: "warehouse", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "status"], ["tenant_id", "from_warehouse_id"], ["tenant_id", "to_warehouse_id"]],
  },
  {
    name: "warehouse_transfer_line",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "document_id", type: "bigint", notNull: true },
      { name: "line_no", type: "integer", notNull: true },
      { name: "goods_id", type: "bigint", notNull: true },
      { name: "quantity", type: "bigint", notNull: true },
      { name: "sent_quantity", type: "bigint", notNull: false },
      { name: "transit_quantity", type: "bigint", notNull: false },
      { name: "received_quantity", type: "bigint", notNull: false },
      { name: "amount", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "document_id"], table: "warehouse_transfer", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "goods_id"], table: "goods", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "document_id"], ["tenant_id", "goods_id"]],
  },
  {
    name: "warehouse_check",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "doc_no", type: "text", notNull: false },
      { name: "status", type: "integer", notNull: true, default: 0 },
      { name: "warehouse_id", type: "bigint", notNull: true },
      { name: "goods_type_id", type: "bigint", notNull: false },
      { name: "doc_date", type: "text", notNull: false },
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
      { columns: ["tenant_id", "warehouse_id"], table: "warehouse", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "goods_type_id"], table: "goods_type", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "status"], ["tenant_id", "warehouse_id"], ["tenant_id", "goods_type_id"]],
  },
  {
    name: "warehouse_check_line",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "document_id", type: "bigint", notNull: true },
      { name: "line_no", type: "integer", notNull: true },
      { name: "goods_id", type: "bigint", notNull: true },
      { name: "batch_id", type: "bigint", notNull: false },
      { name: "batch_no", type: "text", notNull: false },
      { name: "expiry_date", type: "text", notNull: false },
      { name: "book_quantity", type: "bigint", notNull: false },
      { name: "counted_quantity", type: "bigint", notNull: false },
      { name: "diff_quantity", type: "bigint", notNull: false },
      { name: "diff_amount", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "document_id"], table: "warehouse_check", to: ["tenant_id", "id"], onDelete: "cascade" },
      { columns: ["tenant_id", "goods_id"], table: "goods", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "batch_id"], table: "stock_batch", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "document_id"], ["tenant_id", "goods_id"], ["tenant_id", "batch_id"]],
  },
  {
    name: "stock_month",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "status", type: "integer", notNull: true },
      { name: "row_count", type: "bigint", notNull: false },
      { name: "generated_at", type: "bigint", notNull: false },
      { name: "confirmed_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "month"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
  {
    name: "stock_month_settle",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "warehouse_id", type: "bigint", notNull: true },
      { name: "goods_id", type: "bigint", notNull: true },
      { name: "opening_quantity", type: "bigint", notNull: true },
      { name: "opening_amount", type: "bigint", notNull: true },
      { name: "in_quantity", type: "bigint", notNull: true },
      { name: "in_amount", type: "bigint", notNull: true },
      { name: "out_quantity", type: "bigint", notNull: true },
      { name: "out_amount", type: "bigint", notNull: true },
      { name: "closing_quantity", type: "bigint", notNull: true },
      { name: "closing_amount", type: "bigint", notNull: true },
      { name: "status", type: "integer", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "month", "warehouse_id", "goods_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "warehouse_id"], table: "warehouse", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "goods_id"], table: "goods", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "warehouse_id"], ["tenant_id", "goods_id"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [
  { table: "stock_line", columns: [
    { name: "doc_date", type: "text", notNull: false },
  ] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  await db.schema.createIndex("stock_line_doc_date_idx").on("stock_line").columns(["tenant_id", "doc_date"]).execute();
  for (const [docType, table] of [
    ["zhhq/warehouseIn", "warehouse_in"],
    ["zhhq/warehouseOut", "warehouse_out"],
    ["zhhq/warehouseInReturn", "warehouse_in_return"],
    ["zhhq/warehouseOutReturn", "warehouse_out_return"],
  ]) {
    await sql`update stock_line set doc_date = (select d.doc_date from ${sql.table(table)} d where d.tenant_id = stock_line.tenant_id and d.id = stock_line.doc_id)
      where doc_type = ${docType} and doc_date is null`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("stock_line_doc_date_idx").execute();
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
