// Written by `npm run migration:new -- sc/scMerchantFinance sc/scCostExpense` from the declarations (decision 014). Released migrations are not edited.
// Issue 37, decision 084: 商户结算 (a month per restaurant/stall, 暂存 → 已确认), and where a cost row came from (rows
// typed in before this are 手工录入).
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "sc_merchant_finance",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "income", type: "bigint", notNull: true },
      { name: "direct_cost", type: "bigint", notNull: true },
      { name: "expenses", type: "bigint", notNull: true },
      { name: "margin", type: "bigint", notNull: true },
      { name: "status", type: "integer", notNull: true },
      { name: "generated_at", type: "bigint", notNull: false },
      { name: "confirmed_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "month", "restaurant_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "restaurant_id"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [
  { table: "sc_cost_expense", columns: [
    { name: "source_kind", type: "integer", notNull: false },
    { name: "source", type: "text", notNull: false },
  ] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  await db.updateTable("sc_cost_expense").set({ source_kind: 1 }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
