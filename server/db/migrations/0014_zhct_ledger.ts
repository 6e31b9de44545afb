// Written by `npm run migration:new -- zhct/userInfo zhct/userAccount zhct/userAccountLedger zhct/userAccountCharge zhct/userIcCard` from the declarations (decision 014). Released migrations are not edited.
// The idempotency keys and the one-normal-card index below the generated tables are written by hand (decision 017).
import { sql, type Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "user_info",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_code", type: "text", notNull: true },
      { name: "user_name", type: "text", notNull: true },
      { name: "sex", type: "integer", notNull: false },
      { name: "phone", type: "text", notNull: false },
      { name: "dept_id", type: "bigint", notNull: false },
      { name: "user_info_role_type", type: "text", notNull: false },
      { name: "staff_type", type: "text", notNull: false },
      { name: "face_image", type: "text", notNull: false },
      { name: "restaurant_ids", type: "text", notNull: false },
      { name: "audit_status", type: "integer", notNull: true, default: 0 },
      { name: "user_status", type: "integer", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "user_code"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dept_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_name"], ["tenant_id", "dept_id"]],
  },
  {
    name: "user_account",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "account_type", type: "text", notNull: true },
      { name: "balance", type: "bigint", notNull: true, default: 0 },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "user_info_id", "account_type"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "user_account_ledger",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "account_id", type: "bigint", notNull: true },
      { name: "account_type", type: "text", notNull: true },
      { name: "busi_type", type: "integer", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "balance_after", type: "bigint", notNull: true },
      { name: "pay_flag", type: "integer", notNull: true },
      { name: "operator_id", type: "bigint", notNull: false },
      { name: "operator_name", type: "text", notNull: false },
      { name: "doc_type", type: "text", notNull: false },
      { name: "doc_id", type: "bigint", notNull: false },
      { name: "idempotency_key", type: "text", notNull: false },
      { name: "reversal_of", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "occurred_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "reversal_of"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "account_id"], table: "user_account", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id", "occurred_at"], ["tenant_id", "occurred_at"], ["tenant_id", "account_id"]],
  },
  {
    name: "user_account_charge",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "charge_no", type: "text", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "account_type", type: "text", notNull: true },
      { name: "busi_type", type: "integer", notNull: true },
      { name: "amount", type: "bigint", notNull: true },
      { name: "balance_after", type: "bigint", notNull: true },
      { name: "pay_flag", type: "integer", notNull: true },
      { name: "ledger_id", type: "bigint", notNull: true },
      { name: "reversal_of", type: "bigint", notNull: false },
      { name: "operator_name", type: "text", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "charged_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "charge_no"], ["tenant_id", "reversal_of"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "ledger_id"], table: "user_account_ledger", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "reversal_of"], table: "user_account_charge", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "charged_at"], ["tenant_id", "user_info_id"], ["tenant_id", "ledger_id"]],
  },
  {
    name: "user_ic_card",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "card_no", type: "text", notNull: true },
      { name: "card_serial", type: "text", notNull: false },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "card_type", type: "integer", notNull: true, default: 1 },
      { name: "card_status", type: "integer", notNull: true, default: 1 },
      { name: "deposit", type: "bigint", notNull: false },
      { name: "replaced_by", type: "bigint", notNull: false },
      { name: "issued_at", type: "bigint", notNull: true },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "card_no"], ["tenant_id", "card_serial"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "replaced_by"], table: "user_ic_card", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id"], ["tenant_id", "replaced_by"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  // At most one normal card (status 1) per diner, also against two issuings racing.
  await db.schema
    .createIndex("user_ic_card_one_normal_uq")
    .on("user_ic_card")
    .columns(["tenant_id", "user_info_id"])
    .unique()
    .where(sql.ref("card_status"), "=", 1)
    .execute();
  // A money-moving request's Idempotency-Key, per tenant: the hash of what was asked and the answer given. Written in
  // the same transaction as the ledger lines, so a key exists exactly when its movement does.
  await db.schema
    .createTable("idempotency_key")
    .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
    .addColumn("idem_key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("response", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_key_pk", ["tenant_id", "idem_key"])
    .execute();
  await db.schema.createIndex("idempotency_key_created_idx").on("idempotency_key").column("created_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("idempotency_key").execute();
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
