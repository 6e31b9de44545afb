// Top-ups per second through the API against a bare handler running the same transaction (issue 12, decision 017),
// with BENCH_DINERS diners (default 20,000) and BENCH_LEDGER_ROWS ledger lines (default 3,000,000) seeded.
import Database from "better-sqlite3";
import pg from "pg";
import { BARE_PORT, BASE, TENANT, env, loadRound, log, padded, serveBare, series } from "../lib.mjs";

const DINERS = Number(env.BENCH_DINERS ?? 20_000);
const LEDGER_ROWS = Number(env.BENCH_LEDGER_ROWS ?? 3_000_000);
const DINER_BASE = 500_000_000;
const ACCOUNT_BASE = 600_000_000;
const LINE_BASE = 700_000_000;

/**
 * Diners with a cash and a subsidy account; line i belongs to diner (i % DINERS) + 1, 1.00 each, so a cash balance
 * is 1.00 × its lines and each line's balance_after is 1.00 × its place among them.
 */
function ledgerSql(dialect) {
  const now = Date.now();
  const s = (n) => series(dialect, n);
  return [
    `insert into user_info (tenant_id, id, user_code, user_name, user_info_role_type, audit_status, user_status, created_at, updated_at)
       select ${TENANT}, ${DINER_BASE} + i, ${padded(dialect, "D", 6)}, ${padded(dialect, "食客", 6)}, 'user', 1, 1, ${now}, ${now} from (${s(DINERS)}) as s`,
    `insert into user_account (tenant_id, id, user_info_id, account_type, balance, created_at, updated_at)
       select ${TENANT}, ${ACCOUNT_BASE} + i, ${DINER_BASE} + i, 'cash',
              100 * (case when i = 1 then ${Math.floor(LEDGER_ROWS / DINERS)} when i - 1 > ${LEDGER_ROWS} then 0 else (${LEDGER_ROWS} - (i - 1)) / ${DINERS} + 1 end),
              ${now}, ${now} from (${s(DINERS)}) as s`,
    `insert into user_account (tenant_id, id, user_info_id, account_type, balance, created_at, updated_at)
       select ${TENANT}, ${ACCOUNT_BASE} + ${DINERS} + i, ${DINER_BASE} + i, 'subsidy', 0, ${now}, ${now} from (${s(DINERS)}) as s`,
    `insert into user_account_ledger (tenant_id, id, user_info_id, account_id, account_type, busi_type, amount, balance_after, pay_flag, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${LINE_BASE} + i, ${DINER_BASE} + (i % ${DINERS}) + 1, ${ACCOUNT_BASE} + (i % ${DINERS}) + 1, 'cash', 0, 100,
              100 * ((i - 1) / ${DINERS} + 1), 0, 'bench', ${now} - (${LEDGER_ROWS} - i) * 10, ${now} - (${LEDGER_ROWS} - i) * 10, ${now}
       from (${s(LEDGER_ROWS)}) as s`,
  ];
}

const topUpBody = () => ({ userInfoId: DINER_BASE + 1 + Math.floor(Math.random() * DINERS), amount: 100 });

const LINE = "insert into user_account_ledger (tenant_id, id, user_info_id, account_id, account_type, busi_type, amount, balance_after, pay_flag, operator_name, doc_type, doc_id, occurred_at, created_at, updated_at)";
const DOC = "insert into user_account_charge (tenant_id, id, charge_no, user_info_id, account_type, busi_type, amount, balance_after, pay_flag, ledger_id, operator_name, charged_at, created_at, updated_at)";
// The diner's month of ledger lines (decision 040), as `post` writes it.
const MONTH = `insert into diner_month_ledger (tenant_id, account_type, month, user_info_id, busi_type, amount, lines) values ($1, 'cash', $2, $3, 0, $4, 1)
  on conflict (tenant_id, user_info_id, account_type, month, busi_type) do update set amount = diner_month_ledger.amount + excluded.amount, lines = diner_month_ledger.lines + 1`;
// The ledger's day (decision 044): one row per day and shard of the diners, the top-up's column and the lines.
const DAY = `insert into ledger_day (tenant_id, day_no, shard, cash_top_up, cash_lines) values ($1, $2, $3, $4, 1)
  on conflict (tenant_id, day_no, shard) do update set cash_top_up = ledger_day.cash_top_up + excluded.cash_top_up, cash_lines = ledger_day.cash_lines + 1`;
const dayNo = (at) => Math.floor((at + 8 * 3600_000) / 86_400_000);
const shardOf = (dinerId) => (Math.floor(dinerId / 4096) + (dinerId % 64)) % 16;
const chinaMonth = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 7);
const UPDATE = "update user_account set balance = balance + $1, updated_at = $2 where tenant_id = $3 and user_info_id = $4 and account_type = 'cash' and balance + $1 >= 0 returning id, balance";

/**
 * A top-up as a bare handler: the same transaction as the API's (the account's conditional update, the ledger line,
 * the diner's month and the ledger's day, the charge document; BEGIN IMMEDIATE and synchronous=FULL on SQLite), without authentication,
 * validation, tenant settings, idempotency or the operation log. Returns the listening server and a `close` for it and its database.
 */
async function bareTopUp(dialect, databaseUrl) {
  let id = Date.now() * 4096;
  let transact;
  let closeDb;
  if (dialect === "sqlite") {
    const db = new Database(databaseUrl);
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = FULL");
    const update = db.prepare(UPDATE.replace(/\$\d/g, "?"));
    const line = db.prepare(`${LINE} values (?, ?, ?, ?, 'cash', 0, ?, ?, 0, 'bare', 'charge', ?, ?, ?, ?)`);
    const doc = db.prepare(`${DOC} values (?, ?, ?, ?, 'cash', 0, ?, ?, 0, ?, 'bare', ?, ?, ?)`);
    const month = db.prepare(MONTH.replace(/\$\d/g, "?"));
    const day = db.prepare(DAY.replace(/\$\d/g, "?"));
    const run = db.transaction(({ userInfoId, amount }) => {
      const now = Date.now();
      const account = update.get(amount, now, TENANT, userInfoId, amount);
      const lineId = ++id;
      const docId = ++id;
      line.run(TENANT, lineId, userInfoId, account.id, amount, account.balance, docId, now, now, now);
      month.run(TENANT, chinaMonth(now), userInfoId, amount);
      day.run(TENANT, dayNo(now), shardOf(userInfoId), amount);
      doc.run(TENANT, docId, `CZ${docId}`, userInfoId, amount, account.balance, lineId, now, now, now);
      return { id: docId, balance: account.balance };
    });
    transact = async (body) => run.immediate(body);
    closeDb = async () => db.close();
  } else {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    transact = async ({ userInfoId, amount }) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const now = Date.now();
        const account = (await client.query(UPDATE, [amount, now, TENANT, userInfoId])).rows[0];
        const lineId = ++id;
        const docId = ++id;
        await client.query(`${LINE} values ($1, $2, $3, $4, 'cash', 0, $5, $6, 0, 'bare', 'charge', $7, $8, $8, $8)`, [TENANT, lineId, userInfoId, account.id, amount, account.balance, docId, now]);
        await client.query(MONTH, [TENANT, chinaMonth(now), userInfoId, amount]);
        await client.query(DAY, [TENANT, dayNo(now), shardOf(userInfoId), amount]);
        await client.query(`${DOC} values ($1, $2, $3, $4, 'cash', 0, $5, $6, 0, $7, 'bare', $8, $8, $8)`, [TENANT, docId, `CZ${docId}`, userInfoId, amount, account.balance, lineId, now]);
        await client.query("commit");
        return { id: docId, balance: Number(account.balance) };
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    };
    closeDb = () => pool.end();
  }
  const server = await serveBare(transact);
  return { close: async () => (await new Promise((r) => server.close(r)), await closeDb()) };
}

export default {
  name: "ledger",
  title: "top-ups through the API against a bare transaction",
  sizes: { diners: DINERS, ledgerLines: LEDGER_ROWS },
  seed: (dialect) => {
    log(`${dialect}: ${DINERS} diners and ${LEDGER_ROWS} ledger lines too…`);
    return ledgerSql(dialect);
  },
  async run({ dialect, bareUrl, auth }) {
    const bare = await bareTopUp(dialect, bareUrl);
    try {
      const [topUp, raw] = await loadRound([`${BASE}/api/v1/zhct/userAccountCharge/create`, auth, undefined, topUpBody], [`http://127.0.0.1:${BARE_PORT}/`, {}, undefined, topUpBody]);
      return { topUp, bare: raw, ratio: topUp.rps / raw.rps };
    } finally {
      await bare.close();
    }
  },
  rows: (s) => [
    [`API top-up (${DINERS} diners, ${LEDGER_ROWS} ledger lines)`, s.load("topUp")],
    ["bare handler, same transaction", s.load("bare")],
    ["top-up API / bare", s.percent("ratio")],
  ],
};
