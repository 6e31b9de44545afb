// Issue 38, top-up channels (decision 064). The table and the columns were written by `npm run migration:new --
// zhct/topUpChannel zhct/userAccountCharge zhct/userAccountLedger` from the declarations (decision 014); the rows every
// tenant starts with and the backfill by hand. Released migrations are not edited.
import { sql, type Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "top_up_channel",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "channel_name", type: "text", notNull: true },
      { name: "channel_code", type: "text", notNull: true },
      { name: "sort", type: "integer", notNull: false },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "channel_name"], ["tenant_id", "channel_code"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [
  { table: "user_account_charge", columns: [
    { name: "channel", type: "text", notNull: false },
  ] },
  { table: "user_account_ledger", columns: [
    { name: "channel", type: "text", notNull: false },
  ] },
];

/** The six every tenant starts with, ids 1–6 in each (as the seed writes them), copied here as they were released. */
const CHANNELS: Array<[id: number, code: string, name: string]> = [
  [1, "cash", "现金"],
  [2, "pos", "银行卡/POS"],
  [3, "wechat", "微信"],
  [4, "alipay", "支付宝"],
  [5, "transfer", "银行转账"],
  [6, "other", "其他"],
];

/**
 * A top-up recorded before channels existed carries only a payment flag (`userAccountFlag`, a consumption method).
 * Where it tells how money came in, it gives the channel: 0 IC卡 was the counter form's and the API's default, the
 * cash desk (现金), as is any method a tenant named with 现金; 100 社交应用支付 is 微信 and 101 钱包应用支付 is 支付宝.
 * Everything else is 其他. The same rule maps `payFlag` for clients that still send only it (server/modules/zhct/accounts.ts).
 */
const CHANNEL_OF_FLAG = sql`case
  when pay_flag = 0 or cast(pay_flag as text) in (select item_value from dict_item where dict_code = 'userAccountFlag' and item_text like '%现金%') then 'cash'
  when pay_flag = 100 then 'wechat'
  when pay_flag = 101 then 'alipay'
  else 'other' end`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  const now = Date.now();
  const tenants = await sql<{ id: number }>`select id from tenant`.execute(db);
  for (const { id: tenantId } of tenants.rows) {
    for (const [id, code, name] of CHANNELS) {
      await sql`insert into top_up_channel (tenant_id, id, channel_name, channel_code, sort, status, created_at, updated_at)
        values (${tenantId}, ${id}, ${name}, ${code}, ${id}, 1, ${now}, ${now})`.execute(db);
    }
  }
  // The documents (top-ups, refunds, reversals) and their ledger lines.
  await sql`update user_account_charge set channel = ${CHANNEL_OF_FLAG} where channel is null`.execute(db);
  await sql`update user_account_ledger set channel = ${CHANNEL_OF_FLAG} where channel is null and doc_type = 'charge'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
