import * as http from "node:http";
import { expect, test } from "@playwright/test";
import { processDatabase, type ProcessDatabase } from "./support/databases";
import { adminSession, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer, type ServerProcess } from "./support/processes";

/*
 * The ledger's races over real HTTP. tests/server/zhct.ledger.test.ts runs the same bursts in-process, where on SQLite
 * the group commit (decision 037) takes the whole burst into one transaction and nothing races. Here the requests come
 * over sockets, all at once, and on SQLite also through two processes on one file, which no group spans: their
 * transactions meet only in SQLite's write lock (busy_timeout), and one Idempotency-Key only in its look-up under that
 * lock and its unique index (decision 052).
 */

const Z = "/api/v1/zhct";
/** ledger.ts's BusiType. */
const TOP_UP = 0;
const CONSUME = 2;

/** `count` requests at once, the i-th to `ports[i % ports.length]`, each on a socket of its own. */
async function burst(count: number, ports: number[], request: (port: number, agent: http.Agent, i: number) => Promise<Answer>): Promise<Answer[]> {
  // Node's default agent would queue them behind a few sockets; one socket each puts them all in the servers' hands together.
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  try {
    return await Promise.all(Array.from({ length: count }, (_, i) => request(ports[i % ports.length], agent, i)));
  } finally {
    agent.destroy();
  }
}

async function createDiner(port: number, token: string, userCode: string, funds: { subsidy?: number; cash?: number } = {}): Promise<number> {
  const created = await send(port, "POST", `${Z}/userInfo/create`, { token, body: { userCode, userName: "并发测试" } });
  expect(created.body?.status, JSON.stringify(created.body)).toBe(200);
  const userInfoId = (created.body?.data as { id: number }).id;
  for (const [accountType, amount] of Object.entries(funds)) {
    const topUp = await send(port, "POST", `${Z}/userAccountCharge/create`, { token, body: { userInfoId, amount, accountType } });
    expect(topUp.body?.status, JSON.stringify(topUp.body)).toBe(200);
  }
  return userInfoId;
}

const balances = async (database: ProcessDatabase, userInfoId: number) =>
  Object.fromEntries((await database.rows<{ account_type: string; balance: number }>("select account_type, balance from user_account where user_info_id = ?", [userInfoId])).map((a) => [a.account_type, a.balance]));

/**
 * 100 payments of 1.00 at the counter against 50.00 (20.00 subsidy, 30.00 cash, so no payment spans both accounts):
 * 50 are paid, 50 refused, and the database holds 50 payments' lines and orders and nothing of the refused ones.
 */
async function paymentsPastTheBalance(ports: number[], token: string, database: ProcessDatabase, userCode: string) {
  const userInfoId = await createDiner(ports[0], token, userCode, { subsidy: 2000, cash: 3000 });
  // Each with a key of its own, as a terminal sends them: a refused payment must leave its key unused.
  const answers = await burst(100, ports, (port, agent, i) =>
    send(port, "POST", `${Z}/cashier/pay`, { token, agent, body: { userInfoId, amount: 100 }, headers: { "Idempotency-Key": `${userCode}-${i}` } }),
  );
  const paid = answers.filter((a) => a.status === 200 && a.body?.status === 200);
  const refused = answers.filter((a) => a.status === 409);
  expect(answers.filter((a) => !paid.includes(a) && !refused.includes(a)).map((a) => [a.status, a.body?.message])).toEqual([]);
  expect(paid.length, "payments paid").toBe(50);
  // The balance each refusal names is read under the same lock as the deduction: it is 0.00, never a stale figure.
  expect(refused.map((a) => a.body?.message)).toEqual(Array(50).fill("余额不足（余额 0.00 元）"));
  // Every payment saw the one before it: the totals they answered are 49.00 down to 0.00, each once.
  expect(paid.map((a) => (a.body?.data as { balance: number }).balance).sort((x, y) => y - x)).toEqual(Array.from({ length: 50 }, (_, i) => 4900 - 100 * i));

  expect(await balances(database, userInfoId)).toEqual({ cash: 0, subsidy: 0 });
  const lines = await database.rows<{ account_type: string; n: number; total: number }>(
    "select account_type, count(*) as n, sum(amount) as total from user_account_ledger where user_info_id = ? and busi_type = ? group by account_type order by account_type",
    [userInfoId, CONSUME],
  );
  expect(lines).toEqual([
    { account_type: "cash", n: 30, total: -3000 },
    { account_type: "subsidy", n: 20, total: -2000 },
  ]);
  const [orders] = await database.rows<{ n: number; total: number }>("select count(*) as n, coalesce(sum(paid_amount), 0) as total from meal_order where user_info_id = ?", [userInfoId]);
  expect(orders).toEqual({ n: 50, total: 5000 });
  const [keys] = await database.rows<{ n: number }>("select count(*) as n from idempotency_key where idem_key like ?", [`${userCode}-%`]);
  expect(keys.n).toBe(50);
}

/** 10 top-ups of 50.00 at once with one Idempotency-Key: one is written, the other nine get its answer. */
async function topUpsWithOneKey(ports: number[], token: string, database: ProcessDatabase, userCode: string) {
  const userInfoId = await createDiner(ports[0], token, userCode);
  const key = `${userCode}-key`;
  const answers = await burst(10, ports, (port, agent) =>
    send(port, "POST", `${Z}/userAccountCharge/create`, { token, agent, body: { userInfoId, amount: 5000 }, headers: { "Idempotency-Key": key } }),
  );
  expect(answers.filter((a) => a.status !== 200 || a.body?.status !== 200).map((a) => [a.status, a.body?.message])).toEqual([]);
  const first = answers[0].body?.data as { id: number; balance: number };
  expect(first.balance).toBe(5000);
  // The same document (charge id) in every answer, and all but the one that wrote it say they were replayed.
  expect(answers.map((a) => a.body?.data)).toEqual(Array(10).fill(first));
  expect(answers.filter((a) => a.headers["idempotent-replayed"] === "true")).toHaveLength(9);

  const lines = await database.rows<{ id: number; busi_type: number; amount: number; idempotency_key: string }>(
    "select id, busi_type, amount, idempotency_key from user_account_ledger where user_info_id = ?",
    [userInfoId],
  );
  expect(lines.map(({ busi_type, amount, idempotency_key }) => ({ busi_type, amount, idempotency_key }))).toEqual([{ busi_type: TOP_UP, amount: 5000, idempotency_key: key }]);
  const charges = await database.rows<{ id: number; ledger_id: number }>("select id, ledger_id from user_account_charge where user_info_id = ?", [userInfoId]);
  expect(charges).toEqual([{ id: first.id, ledger_id: lines[0].id }]);
  expect(await balances(database, userInfoId)).toEqual({ cash: 5000, subsidy: 0 });
}

/** What no race may break, over the whole database: balance = sum of lines, never below zero, and the kept days agree with the lines. */
async function expectLedgerConsistent(database: ProcessDatabase) {
  for (const a of await database.accounts()) {
    expect(a.ledger).toBe(a.balance);
    expect(a.balance).toBeGreaterThanOrEqual(0);
  }
  const lines = await database.rows<{ account_type: string; busi_type: number; n: number; total: number }>(
    "select account_type, busi_type, count(*) as n, sum(amount) as total from user_account_ledger group by account_type, busi_type",
  );
  const [kept] = await database.rows<Record<string, number>>(
    "select coalesce(sum(cash_lines), 0) as cash_lines, coalesce(sum(subsidy_lines), 0) as subsidy_lines, coalesce(sum(cash_top_up), 0) as cash_top_up, coalesce(sum(subsidy_top_up), 0) as subsidy_top_up, coalesce(sum(cash_consume), 0) as cash_consume, coalesce(sum(subsidy_consume), 0) as subsidy_consume from ledger_day",
  );
  const of = (account: string, busiType?: number, figure: "n" | "total" = "total") =>
    lines.filter((l) => l.account_type === account && (busiType === undefined || l.busi_type === busiType)).reduce((sum, l) => sum + l[figure], 0);
  expect(kept).toEqual({
    cash_lines: of("cash", undefined, "n"),
    subsidy_lines: of("subsidy", undefined, "n"),
    cash_top_up: of("cash", TOP_UP),
    subsidy_top_up: of("subsidy", TOP_UP),
    cash_consume: of("cash", CONSUME),
    subsidy_consume: of("subsidy", CONSUME),
  });
}

/** A lock the server waited out is fine; one it gave up on (SQLITE_BUSY) failed a cashier's request and is logged. */
const expectNoBusyFault = (servers: ServerProcess[]) => {
  for (const s of servers) expect(s.output()).not.toMatch(/SQLITE_BUSY|database is locked/);
};

for (const dialect of ["sqlite", "postgres"] as const) {
  test.describe(`concurrent money over HTTP on ${dialect}`, () => {
    test.skip(dialect === "postgres" && !postgresUrl, "TEST_DATABASE_URL is not set");
    test.setTimeout(90_000);

    test("one server: 100 payments of 1.00 against 50.00 pay exactly 50; 10 top-ups with one Idempotency-Key write one line", async () => {
      const database = await processDatabase(dialect, "canteen-concurrency-");
      const server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);
        await test.step("100 payments against 50.00", () => paymentsPastTheBalance([server.port], token, database, "PAY-ONE"));
        await test.step("10 top-ups with one key", () => topUpsWithOneKey([server.port], token, database, "TOP-ONE"));
        await expectLedgerConsistent(database);
        expectNoBusyFault([server]);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });
  });
}

test.describe("two server processes on one SQLite file", () => {
  test.setTimeout(90_000);

  test("started together they take turns to migrate; the same bursts split across both: 50 of 100 payments paid, one line for 10 top-ups with one key", async () => {
    const database = await processDatabase("sqlite", "canteen-concurrency-two-");
    // Started together on a new file: they take turns to migrate and seed (the start-up lock, server/db/index.ts).
    const servers = [spawnServer(processPorts.a, { DATABASE_URL: database.url }), spawnServer(processPorts.b, { DATABASE_URL: database.url })];
    const ports = servers.map((s) => s.port);
    try {
      await Promise.all(servers.map((s) => waitHealthy(s)));
      // The session is in the shared file: one sign-in serves both.
      const token = await adminSession(ports[0]);
      // Each leased an instance number of its own, which its ids carry: the two never make the same id.
      const numbers = servers.map((s) => Number(s.output().match(/实例编号 (\d+)/)?.[1]));
      expect([...numbers].sort()).toEqual([0, 1]);
      const diners = await Promise.all(ports.map((port, i) => createDiner(port, token, `INSTANCE-${i}`)));
      expect(diners.map((id) => Math.floor(id / 64) % 64)).toEqual(numbers);
      await test.step("100 payments against 50.00, 50 to each process", () => paymentsPastTheBalance(ports, token, database, "PAY-TWO"));
      await test.step("10 top-ups with one key, 5 to each process", () => topUpsWithOneKey(ports, token, database, "TOP-TWO"));
      await expectLedgerConsistent(database);
      expectNoBusyFault(servers);
    } finally {
      await Promise.all(servers.map(stopServer));
      await database.dispose();
    }
  });
});
