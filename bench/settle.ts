/**
 * Month settlement at scale (`npm run bench`, or alone with BENCH_CASES=settle): DINERS diners with a cash and a
 * subsidy account each and LINES_PER_DINER ledger lines in the month (plus one the month before), then 生成 and
 * 转正式 of that month, timed. Prints one JSON line. Argument: a SQLite file or a postgres:// URL (its own schema).
 */
import { rmSync } from "node:fs";
import pg from "pg";
import { migrateToLatest, newId, openDatabase } from "../server/db";
import { seed } from "../server/modules/seed";
import { generateMonth, makeFormal } from "../server/modules/zhct/monthSettle";
import { monthRange } from "../server/modules/zhct/months";

const DINERS = Number(process.env.BENCH_SETTLE_DINERS ?? 20_000);
const LINES_PER_DINER = Number(process.env.BENCH_SETTLE_LINES ?? 10);
const TENANT = 1;
const MONTH = "2026-03";

let target = process.argv[2] ?? "bench/data/settle.db";
if (target.startsWith("postgres")) {
  const admin = new pg.Client({ connectionString: target });
  await admin.connect();
  await admin.query("drop schema if exists bench_settle cascade");
  await admin.query("create schema bench_settle");
  await admin.end();
  target = `${target}${target.includes("?") ? "&" : "?"}options=-c%20search_path%3Dbench_settle`;
} else {
  rmSync(target, { force: true });
}
const handle = await openDatabase(target);
const { db, dialect } = handle;
await migrateToLatest(db);
await seed(db, { adminPassword: "Bench-Settle-Pass-2026" });

const { start } = monthRange(MONTH);
const before = start - 86_400_000;
const seedStarted = Date.now();
const audit = { created_at: before, created_by: null, updated_at: before, updated_by: null };
// Rows are written directly (balances set to the sum of the lines written): the ledger's own speed is another bench.
for (let from = 0; from < DINERS; from += 500) {
  await db.transaction().execute(async (trx) => {
    const diners: Array<Record<string, unknown>> = [];
    const accounts: Array<Record<string, unknown> & { balance: number }> = [];
    const lines: Array<Record<string, unknown> & { account_id: number; amount: number }> = [];
    for (let i = from; i < Math.min(DINERS, from + 500); i++) {
      const id = newId();
      diners.push({ tenant_id: TENANT, id, user_code: `B${i}`, user_name: `人员${i}`, audit_status: 1, ...audit });
      for (const type of ["cash", "subsidy"]) {
        const accountId = newId();
        let balance = 0;
        const line = (amount: number, busi: number, at: number) => {
          balance += amount;
          lines.push({ tenant_id: TENANT, id: newId(), user_info_id: id, account_id: accountId, account_type: type, busi_type: busi, amount, balance_after: balance, pay_flag: 0, operator_id: null, operator_name: "bench", doc_type: null, doc_id: null, idempotency_key: null, reversal_of: null, remark: null, occurred_at: at, ...audit });
        };
        line(10_000, 0, before);
        for (let n = 0; n < LINES_PER_DINER / 2; n++) line(n % 3 === 0 ? 500 : -300, n % 3 === 0 ? 0 : 2, start + 3600_000 * (n + 1));
        accounts.push({ tenant_id: TENANT, id: accountId, user_info_id: id, account_type: type, balance: 0, ...audit });
        const sum = lines.filter((l) => l.account_id === accountId).reduce((s, l) => s + l.amount, 0);
        accounts[accounts.length - 1].balance = sum;
      }
    }
    await trx.insertInto("user_info").values(diners as never).execute();
    await trx.insertInto("user_account").values(accounts as never).execute();
    for (let i = 0; i < lines.length; i += 1000) await trx.insertInto("user_account_ledger").values(lines.slice(i, i + 1000) as never).execute();
  });
}
const seedMs = Date.now() - seedStarted;
const now = monthRange(MONTH).end + 3600_000;
let t = Date.now();
const generated = await generateMonth(db, dialect, TENANT, MONTH, { now });
const generateMs = Date.now() - t;
t = Date.now();
await makeFormal(db, dialect, TENANT, MONTH, { now });
const formalMs = Date.now() - t;
await handle.close();
console.log(JSON.stringify({ dialect, diners: DINERS, accounts: generated.count, ledgerLines: DINERS * 2 * (1 + Math.floor(LINES_PER_DINER / 2)), seedSeconds: seedMs / 1000, generateSeconds: generateMs / 1000, formalSeconds: formalMs / 1000 }));
