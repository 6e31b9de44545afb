// Issue 35, decision 076: a supplier's licences (supplier_qualification, written from the declaration
// zhhq/supplierQualification as `npm run migration:new` writes it) and the stock-in's note of a licence that was not in
// force when the tenant only warns. Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "supplier_qualification",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "supplier_id", type: "bigint", notNull: true },
      { name: "qual_type", type: "integer", notNull: true },
      { name: "qual_no", type: "text", notNull: true },
      { name: "issuer", type: "text", notNull: false },
      { name: "valid_from", type: "text", notNull: false },
      { name: "valid_to", type: "text", notNull: false },
      { name: "file_url", type: "text", notNull: false },
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
    ],
    indexes: [["tenant_id", "supplier_id", "qual_type"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [
  { table: "warehouse_in", columns: [{ name: "qualification_note", type: "text", notNull: false }] },
];

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
