// Written by `npm run migration:new -- zhct/autoChargeSetting zhct/autoChargeRun zhct/autoChargeGrant zhct/userAccountMonthSettle` from the declarations (decision 014). Released migrations are not edited.
// The job lease below the generated tables is written by hand (decision 022).
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "auto_charge_setting",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "setting_name", type: "text", notNull: true },
      { name: "staff_type", type: "text", notNull: false },
      { name: "dept_id", type: "bigint", notNull: false },
      { name: "amount", type: "bigint", notNull: true },
      { name: "day_of_month", type: "integer", notNull: true, default: 1 },
      { name: "clear_unused", type: "integer", notNull: false },
      { name: "enabled", type: "integer", notNull: false },
      { name: "last_run_month", type: "text", notNull: false },
      { name: "last_run_at", type: "bigint", notNull: false },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "setting_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "dept_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "dept_id"]],
  },
  {
    name: "auto_charge_run",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "setting_id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "trigger_type", type: "text", notNull: true },
      { name: "granted", type: "bigint", notNull: true, default: 0 },
      { name: "skipped", type: "bigint", notNull: true, default: 0 },
      { name: "failed", type: "bigint", notNull: true, default: 0 },
      { name: "message", type: "text", notNull: false },
      { name: "operator_name", type: "text", notNull: false },
      { name: "started_at", type: "bigint", notNull: true },
      { name: "finished_at", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "setting_id"], table: "auto_charge_setting", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "setting_id", "started_at"]],
  },
  {
    name: "auto_charge_grant",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "setting_id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "run_id", type: "bigint", notNull: false },
      { name: "amount", type: "bigint", notNull: true },
      { name: "cleared", type: "bigint", notNull: true, default: 0 },
      { name: "granted_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "setting_id", "month", "user_info_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "setting_id"], table: "auto_charge_setting", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "run_id"], table: "auto_charge_run", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "user_info_id"], ["tenant_id", "run_id"]],
  },
  {
    name: "user_account_month_settle",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "month", type: "text", notNull: true },
      { name: "user_info_id", type: "bigint", notNull: true },
      { name: "account_type", type: "text", notNull: true },
      { name: "opening", type: "bigint", notNull: true },
      { name: "top_up", type: "bigint", notNull: true },
      { name: "refund", type: "bigint", notNull: true },
      { name: "reversal", type: "bigint", notNull: true },
      { name: "subsidy_grant", type: "bigint", notNull: true },
      { name: "subsidy_clear", type: "bigint", notNull: true },
      { name: "consume", type: "bigint", notNull: true },
      { name: "closing", type: "bigint", notNull: true },
      { name: "settle_status", type: "integer", notNull: true },
      { name: "generated_at", type: "bigint", notNull: true },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "month", "user_info_id", "account_type"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "user_info_id"], table: "user_info", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "month", "settle_status"], ["tenant_id", "user_info_id", "month"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  // A lease per background job (the monthly grants): the instance holding it runs the job, the others skip a turn.
  await db.schema
    .createTable("job_lease")
    .addColumn("job", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_lease").execute();
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
