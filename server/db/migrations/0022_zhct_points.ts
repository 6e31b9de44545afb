// Written by `npm run migration:new -- zhct/payType zhct/userIntegralAccount zhct/userAccountIntegralDetail` from the declarations (decision 014). Released migrations are not edited.
// The partial unique index of tenant-wide pay types is written by hand (decision 025).
import { sql, type Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "pay_type",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "pay_flag", type: "integer", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: false },
      { name: "display_name", type: "text", notNull: false },
      { name: "enabled", type: "integer", notNull: true, default: 1 },
      { name: "sort", type: "integer", notNull: true, default: 0 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "restaurant_id", "pay_flag"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "user_integral_account",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "balance", type: "bigint", notNull: true, default: 0 },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "user_info_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "user_account_integral_detail",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "change_type", type: "integer", notNull: true },
      { name: "points", type: "bigint", notNull: true },
      { name: "balance_after", type: "bigint", notNull: true },
      { name: "amount", type: "bigint", notNull: false },
      { name: "order_id", type: "bigint", notNull: false },
      { name: "order_no", type: "text", notNull: false },
      { name: "expires_at", type: "bigint", notNull: false },
      { name: "operator_name", type: "text", notNull: false },
      { name: "reason", type: "text", notNull: false },
      { name: "occurred_at", type: "bigint", notNull: true },
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
    indexes: [["tenant_id", "user_info_id", "occurred_at"], ["tenant_id", "order_id"], ["tenant_id", "expires_at"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  // The declared key (tenant, restaurant, method) does not see rows without a restaurant (NULLs differ), so the
  // tenant-wide row of a method is kept single here.
  await db.schema
    .createIndex("pay_type_tenant_wide_uq")
    .on("pay_type")
    .columns(["tenant_id", "pay_flag"])
    .unique()
    .where(sql.ref("restaurant_id"), "is", null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
