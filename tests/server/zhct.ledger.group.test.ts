import { AsyncLocalStorage } from "node:async_hooks";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { ApiError } from "../../server/http/envelope";
import { GROUP_JOIN_MS, groupCommitStats, inWriteTransaction } from "../../server/kernel/writeTransaction";
import { BusiType, checkAccount, deduct, post, type Posting } from "../../server/modules/zhct/ledger";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { makeMonthFormal } from "../helpers/settle";

// Group commit (decision 037): on SQLite the movements waiting together run each in a savepoint of one transaction
// and commit with one disk sync. A refused movement must undo only itself, and nobody may hear "done" before the
// group's COMMIT has returned. PostgreSQL runs each movement in its own transaction: the same outcomes must hold.

const Z = "/api/v1/zhct";
type Row = Record<string, unknown>;

for (const dialect of dialects) {
  describe(`${dialect}: movements committed together`, () => {
    let app: TestApp;
    let token: string;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}g${++serial}`;

    async function ok(path: string, body: Row, headers: Record<string, string> = {}): Promise<Row> {
      const result = await app.call<Row>("POST", path, { token, body, headers });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data;
    }
    const diner = async () => (await ok(`${Z}/userInfo/create`, { userCode: `G${uid()}`, userName: "李四" })).id as number;
    async function cash(userInfoId: number) {
      const account = await app.database.db.selectFrom("user_account").select(["id", "balance"]).where("tenant_id", "=", DEFAULT_TENANT_ID).where("user_info_id", "=", userInfoId).where("account_type", "=", "cash").executeTakeFirstOrThrow();
      const check = await checkAccount(app.database.db, DEFAULT_TENANT_ID, account.id);
      expect(check.ledger).toBe(check.balance);
      const lines = await app.database.db.selectFrom("user_account_ledger").select("amount").where("tenant_id", "=", DEFAULT_TENANT_ID).where("account_id", "=", account.id).execute();
      return { balance: check.balance, lines: lines.map((l) => l.amount).sort((a, b) => a - b) };
    }
    const topUp = (userInfoId: number, amount: number, extra: Partial<Posting> = {}): Posting => ({ tenantId: DEFAULT_TENANT_ID, userInfoId, accountType: "cash", amount, busiType: BusiType.TOP_UP, payFlag: 0, ...extra });

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
    });
    afterAll(async () => {
      await app.close();
    });

    test("a refused or failing movement among others undoes only itself; each answer comes after the commit", async () => {
      const [a, b, c] = [await diner(), await diner(), await diner()];
      const { db, dialect: dia } = app.database;
      // December 2019 is formal: a line dated into it (China time) is refused.
      await makeMonthFormal(db, DEFAULT_TENANT_ID, "2019-12", a);
      const lockedBefore = Date.UTC(2019, 11, 31, 16);
      const before = groupCommitStats(db);
      // Another connection sees only what is committed: what it reads the moment an answer arrives says whether the
      // answer came before or after the COMMIT.
      const outside = dia === "sqlite" ? new SQLite(app.database.url, { readonly: true }) : null;
      const committedBalance = (userInfoId: number) =>
        (outside?.prepare("select balance from user_account where user_info_id = ? and account_type = 'cash'").get(userInfoId) as { balance: number }).balance;
      let seenOnAnswer: number | undefined;

      // All submitted in one turn of the event loop: on SQLite they make one group.
      const results = await Promise.allSettled([
        inWriteTransaction(db, dia, (trx) => post(trx, topUp(a, 500))).then((line) => ((seenOnAnswer = outside ? committedBalance(a) : undefined), line)),
        inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: b, amount: 100, payFlag: 0 })),
        inWriteTransaction(db, dia, async (trx) => {
          await post(trx, topUp(a, 700));
          throw new Error("fails after its line is written");
        }),
        inWriteTransaction(db, dia, (trx) => post(trx, topUp(c, 900, { occurredAt: lockedBefore - 1 }))),
        inWriteTransaction(db, dia, async (trx) => {
          await post(trx, topUp(b, 50));
          // The same line id twice: the second insert fails on the primary key, after the account moved.
          const line = await post(trx, topUp(b, 60));
          await trx.insertInto("user_account_ledger").values({ ...(await trx.selectFrom("user_account_ledger").selectAll().where("tenant_id", "=", DEFAULT_TENANT_ID).where("id", "=", line.id).executeTakeFirstOrThrow()) }).execute();
        }),
        inWriteTransaction(db, dia, (trx) => post(trx, topUp(c, 300))),
      ]);
      outside?.close();

      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected", "rejected", "fulfilled"]);
      const reason = (i: number) => (results[i] as PromiseRejectedResult).reason as unknown;
      expect(reason(1)).toMatchObject({ status: 409, message: "余额不足" });
      expect(reason(2)).toMatchObject({ message: "fails after its line is written" });
      expect(reason(3)).toBeInstanceOf(ApiError);
      expect(reason(3)).toMatchObject({ status: 409, message: "2019-12 已正式结算，不能再记入该月的流水" });
      expect(await cash(a)).toEqual({ balance: 500, lines: [500] });
      expect(await cash(b)).toEqual({ balance: 0, lines: [] });
      expect(await cash(c)).toEqual({ balance: 300, lines: [300] });
      if (dia === "sqlite") {
        expect(seenOnAnswer).toBe(500);
        const after = groupCommitStats(db);
        expect({ commits: after.commits - before.commits, movements: after.movements - before.movements }).toEqual({ commits: 1, movements: 6 });
      }
    });

    test.skipIf(dialect !== "sqlite")("a COMMIT that fails answers every movement of its group with its error and keeps none; the next group commits", async () => {
      const [a, b] = [await diner(), await diner()];
      const { db, dialect: dia } = app.database;
      const before = groupCommitStats(db);
      const accountOf = async (userInfoId: number) =>
        (await db.selectFrom("user_account").select("id").where("tenant_id", "=", DEFAULT_TENANT_ID).where("user_info_id", "=", userInfoId).where("account_type", "=", "cash").executeTakeFirstOrThrow()).id;
      const bAccount = await accountOf(b);
      const results = await Promise.allSettled([
        inWriteTransaction(db, dia, (trx) => post(trx, topUp(a, 400))),
        inWriteTransaction(db, dia, async (trx) => {
          await post(trx, topUp(b, 100));
          // A foreign key checked only at COMMIT: every statement of the group succeeds, and the COMMIT fails.
          await sql`pragma defer_foreign_keys = on`.execute(trx);
          await trx.updateTable("user_account").set({ user_info_id: 999_999_999 }).where("tenant_id", "=", DEFAULT_TENANT_ID).where("id", "=", bAccount).execute();
        }),
        inWriteTransaction(db, dia, (trx) => post(trx, topUp(a, 600))),
      ]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
      for (const r of results) expect(String((r as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
      expect(await cash(a)).toEqual({ balance: 0, lines: [] });
      expect(await cash(b)).toEqual({ balance: 0, lines: [] });
      expect(await accountOf(b)).toBe(bAccount);
      // The failed transaction was rolled back: the next group begins and commits on the same connection.
      await inWriteTransaction(db, dia, (trx) => post(trx, topUp(a, 250)));
      expect(await cash(a)).toEqual({ balance: 250, lines: [250] });
      expect(groupCommitStats(db).commits - before.commits).toBe(1);
    });

    test("each movement of a group runs in its own request's async context", async () => {
      const request = new AsyncLocalStorage<string>();
      const { db, dialect: dia } = app.database;
      const before = groupCommitStats(db);
      const seen = await Promise.all(["甲", "乙", "丙"].map((name) => request.run(name, () => inWriteTransaction(db, dia, async () => request.getStore()))));
      expect(seen).toEqual(["甲", "乙", "丙"]);
      if (dia === "sqlite") expect(groupCommitStats(db).commits - before.commits).toBe(1);
    });

    // Decision 050: better-sqlite3 never gives the event loop a turn inside a movement, so the group gives one after each;
    // what is submitted then joins the running group while it is younger than GROUP_JOIN_MS.
    test("a movement submitted while a group runs joins it while the group is young, and the next group after", async () => {
      const a = await diner();
      const { db, dialect: dia } = app.database;
      const submitLater = (amount: number) => new Promise<Promise<unknown>>((resolve) => setImmediate(() => resolve(inWriteTransaction(db, dia, (trx) => post(trx, topUp(a, amount))))));
      let joining: Promise<Promise<unknown>> | undefined;
      const before = groupCommitStats(db);
      await inWriteTransaction(db, dia, async (trx) => {
        joining = submitLater(200);
        return post(trx, topUp(a, 100));
      });
      await (await joining);
      const joined = groupCommitStats(db);
      if (dia === "sqlite") expect({ commits: joined.commits - before.commits, movements: joined.movements - before.movements }).toEqual({ commits: 1, movements: 2 });

      let late: Promise<Promise<unknown>> | undefined;
      await inWriteTransaction(db, dia, async (trx) => {
        const line = await post(trx, topUp(a, 300));
        const until = performance.now() + GROUP_JOIN_MS + 5;
        while (performance.now() < until); // a movement slower than the group's joining time
        late = submitLater(400);
        return line;
      });
      await (await late);
      const after = groupCommitStats(db);
      if (dia === "sqlite") expect({ commits: after.commits - joined.commits, movements: after.movements - joined.movements }).toEqual({ commits: 2, movements: 2 });
      expect(await cash(a)).toEqual({ balance: 1000, lines: [100, 200, 300, 400] });
    });

    test.runIf(dialect === "sqlite")("a request signs in and looks up its Idempotency-Key while a group holds the writer, so it can join that group", async () => {
      const d = await diner();
      const { db, dialect: dia } = app.database;
      let answer: Promise<{ http: number; body: { data: Row } }> | undefined;
      let waitingSeen = 0;
      await inWriteTransaction(db, dia, async (trx) => {
        await post(trx, topUp(d, 100));
        answer = app.call<Row>("POST", `${Z}/userAccountCharge/create`, { token, body: { userInfoId: d, amount: 250 }, headers: { "Idempotency-Key": `joins-${uid()}` } });
        // Its session, permissions and key are read on the reader; through the writer it would wait for this COMMIT.
        for (let i = 0; i < 400 && groupCommitStats(db).waiting === 0; i++) await new Promise((r) => setTimeout(r, 5));
        waitingSeen = groupCommitStats(db).waiting;
      });
      expect(waitingSeen).toBe(1);
      const answered = await (answer as NonNullable<typeof answer>);
      expect(answered.http).toBe(200);
      expect(await cash(d)).toEqual({ balance: 350, lines: [100, 250] });
    });

    test("a burst of top-ups, refunds past the balance and key reuse through the API: each gets its own answer", async () => {
      const d = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 1000 });
      const key = { "Idempotency-Key": `burst-${uid()}` };
      const send = (path: string, body: Row, headers: Record<string, string> = {}) => app.call<Row>("POST", `${Z}/userAccountCharge/${path}`, { token, body, headers });
      const answers = await Promise.all([
        send("refund", { userInfoId: d, amount: 500 }),
        send("create", { userInfoId: d, amount: 200 }, key),
        send("refund", { userInfoId: d, amount: 5000 }),
        send("create", { userInfoId: d, amount: 300 }, key),
        send("refund", { userInfoId: d, amount: 500 }),
        send("create", { userInfoId: d, amount: 200 }, key),
        send("refund", { userInfoId: d, amount: 500 }),
      ]);
      // Which of the racing refunds is short depends on the order the database takes them: count, do not place.
      const refunds = [0, 4, 6].map((i) => answers[i]);
      expect(refunds.filter((r) => r.http === 200)).toHaveLength(2);
      expect(refunds.filter((r) => r.http === 409 && r.body.message === "余额不足")).toHaveLength(1);
      expect([answers[2].http, answers[2].body.message]).toEqual([409, "余额不足"]);
      // One body wins the key; a retry of it gets the same answer, the other body 409.
      const keyed = [1, 3, 5].map((i) => ({ amount: i === 3 ? 300 : 200, answer: answers[i] }));
      const won = keyed.filter((k) => k.answer.http === 200);
      const lost = keyed.filter((k) => k.answer.http !== 200);
      expect(new Set(won.map((k) => k.amount)).size).toBe(1);
      expect(new Set(won.map((k) => JSON.stringify(k.answer.body.data))).size).toBe(1);
      expect(won.filter((k) => k.answer.headers.get("Idempotent-Replayed") === "true")).toHaveLength(won.length - 1);
      for (const k of lost) expect([k.answer.http, k.answer.body.message]).toEqual([409, expect.stringMatching(/Idempotency-Key 已用于另一笔内容不同的请求/)]);
      const topUp = won[0].amount;
      expect(await cash(d)).toEqual({ balance: topUp, lines: [-500, -500, topUp, 1000] });
    });
  });
}
