import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { ApiError } from "../../server/http/envelope";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { BusiType, checkAccount, deduct, openAccounts, post, reverse, type AccountType } from "../../server/modules/zhct/ledger";
import { generateMonth, makeFormal } from "../../server/modules/zhct/monthSettle";
import { monthOf, monthRange, nextMonth } from "../../server/modules/zhct/months";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

/**
 * Random sequences of top-ups, refunds, reversals, grants, clearings, payments and month closes against the real
 * ledger and settlement code on a real database, next to a model of the balances. After every sequence: each
 * account's lines sum to its balance, which equals the model's and is never negative; every closed month is formal,
 * its closing is the sum of the lines before its end and the next month's opening; a line dated into a closed month
 * is refused.
 */

const DINERS = 3;
type Op =
  | { kind: "topUp"; diner: number; account: AccountType; amount: number }
  | { kind: "refund"; diner: number; account: AccountType; amount: number }
  | { kind: "reverse"; pick: number }
  | { kind: "grant"; diner: number; amount: number }
  | { kind: "clear"; diner: number }
  | { kind: "pay"; diner: number; amount: number }
  | { kind: "late"; diner: number }
  | { kind: "closeMonth" };

const diner = fc.integer({ min: 0, max: DINERS - 1 });
const account = fc.constantFrom<AccountType>("cash", "subsidy");
const amount = fc.integer({ min: 1, max: 50_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("topUp" as const), diner, account, amount }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("refund" as const), diner, account, amount }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("reverse" as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("grant" as const), diner, amount }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("clear" as const), diner }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("pay" as const), diner, amount }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("late" as const), diner }), weight: 1 },
  { arbitrary: fc.constant({ kind: "closeMonth" as const }), weight: 2 },
);

const refused = (error: unknown) => error instanceof ApiError && error.status === 409;

for (const dialect of dialects) {
  describe(`${dialect}: the ledger and month settlement under random sequences`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database.close();
    });

    test("ledger sum == balance == model, nothing negative, closings chain, closed months refuse lines", async () => {
      const { db } = database;
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
          // A tenant of its own per sequence: months close per tenant.
          const tenantId = newId();
          const t0 = Date.UTC(2024, 0, 3);
          await db.insertInto("tenant").values({ id: tenantId, tenant_name: `性质${++run}`, tenant_code: `prop${tenantId}`, status: 1, contact_name: null, contact_phone: null, address: null, expire_date: null, remark: null, created_at: t0, created_by: null, updated_at: t0, updated_by: null }).execute();
          const diners: number[] = [];
          for (let i = 0; i < DINERS; i++) {
            const id = newId();
            await db.insertInto("user_info").values({ tenant_id: tenantId, id, user_code: `P${i}`, user_name: `人${i}`, audit_status: 0, created_at: t0, created_by: null, updated_at: t0, updated_by: null } as never).execute();
            await inWriteTransaction(db, dialect, (trx) => openAccounts(trx, tenantId, id, t0));
            diners.push(id);
          }
          const model = new Map<string, number>();
          const key = (d: number, a: AccountType) => `${d}:${a}`;
          const bal = (d: number, a: AccountType) => model.get(key(d, a)) ?? 0;
          const add = (d: number, a: AccountType, n: number) => model.set(key(d, a), bal(d, a) + n);
          const topUps: Array<{ id: number; diner: number; account: AccountType; amount: number; reversed: boolean }> = [];
          const closed: string[] = [];
          let now = t0;
          const ledger = (work: Parameters<typeof inWriteTransaction>[2]) => inWriteTransaction(db, dialect, work);

          for (const o of ops) {
            now += 3 * 3600_000;
            if (o.kind === "topUp") {
              const line = await ledger((trx) => post(trx, { tenantId, userInfoId: diners[o.diner], accountType: o.account, amount: o.amount, busiType: BusiType.TOP_UP, payFlag: 0, occurredAt: now }));
              add(o.diner, o.account, o.amount);
              topUps.push({ id: (line as { id: number }).id, diner: o.diner, account: o.account, amount: o.amount, reversed: false });
            } else if (o.kind === "refund" || o.kind === "pay") {
              const accounts: AccountType[] = o.kind === "refund" ? [o.account] : ["subsidy", "cash"];
              const total = accounts.reduce((s, a) => s + bal(o.diner, a), 0);
              const work = o.kind === "refund"
                ? ledger((trx) => post(trx, { tenantId, userInfoId: diners[o.diner], accountType: o.account, amount: -o.amount, busiType: BusiType.REFUND, payFlag: 0, occurredAt: now }))
                : ledger((trx) => deduct(trx, { tenantId, userInfoId: diners[o.diner], amount: o.amount, payFlag: 0, occurredAt: now }));
              const outcome = await work.then(() => "ok", (e: unknown) => (refused(e) ? "refused" : Promise.reject(e)));
              expect(outcome).toBe(total >= o.amount ? "ok" : "refused");
              if (outcome === "ok") {
                let left = o.amount;
                for (const a of accounts) {
                  const take = Math.min(left, bal(o.diner, a));
                  add(o.diner, a, -take);
                  left -= take;
                }
              }
            } else if (o.kind === "reverse") {
              const open = topUps.filter((x) => !x.reversed);
              if (!open.length) continue;
              const target = open[o.pick % open.length];
              const outcome = await ledger((trx) => reverse(trx, tenantId, target.id, { occurredAt: now })).then(() => "ok", (e: unknown) => (refused(e) ? "refused" : Promise.reject(e)));
              expect(outcome).toBe(bal(target.diner, target.account) >= target.amount ? "ok" : "refused");
              if (outcome === "ok") {
                add(target.diner, target.account, -target.amount);
                target.reversed = true;
              }
            } else if (o.kind === "grant") {
              await ledger((trx) => post(trx, { tenantId, userInfoId: diners[o.diner], accountType: "subsidy", amount: o.amount, busiType: BusiType.GRANT, payFlag: 500, occurredAt: now }));
              add(o.diner, "subsidy", o.amount);
            } else if (o.kind === "clear") {
              const left = bal(o.diner, "subsidy");
              if (left <= 0) continue;
              await ledger((trx) => post(trx, { tenantId, userInfoId: diners[o.diner], accountType: "subsidy", amount: -left, busiType: BusiType.CLEAR, payFlag: 500, occurredAt: now }));
              add(o.diner, "subsidy", -left);
            } else if (o.kind === "late") {
              const month = closed.at(-1);
              if (!month) continue;
              const late = ledger((trx) => post(trx, { tenantId, userInfoId: diners[o.diner], accountType: "cash", amount: 1, busiType: BusiType.TOP_UP, payFlag: 0, occurredAt: monthRange(month).end - 1 }));
              await expect(late).rejects.toThrow(`${month} 已正式结算，不能再记入该月的流水`);
            } else {
              const month = monthOf(now);
              await generateMonth(db, dialect, tenantId, month, { now });
              await makeFormal(db, dialect, tenantId, month, { now });
              const rows = await db.selectFrom("user_account_month_settle").selectAll().where("tenant_id", "=", tenantId).where("month", "=", month).execute();
              for (const r of rows) expect(Number(r.closing)).toBe(bal(diners.indexOf(r.user_info_id), r.account_type as AccountType));
              closed.push(month);
              now = monthRange(nextMonth(month)).start + 3600_000;
            }
          }

          const accounts = await db.selectFrom("user_account").select(["id", "user_info_id", "account_type"]).where("tenant_id", "=", tenantId).execute();
          for (const a of accounts) {
            const { balance, ledger: sum } = await checkAccount(db, tenantId, a.id);
            expect(sum).toBe(balance);
            expect(balance).toBe(bal(diners.indexOf(a.user_info_id), a.account_type as AccountType));
            expect(balance).toBeGreaterThanOrEqual(0);
          }
          const settled = await db.selectFrom("user_account_month_settle").selectAll().where("tenant_id", "=", tenantId).orderBy("month").execute();
          for (const r of settled) {
            expect(Number(r.settle_status)).toBe(1);
            const movements = ["top_up", "refund", "reversal", "subsidy_grant", "subsidy_clear", "consume"] as const;
            expect(Number(r.opening) + movements.reduce((s, k) => s + Number(r[k]), 0)).toBe(Number(r.closing));
            const upToEnd = await db
              .selectFrom("user_account_ledger")
              .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("s"))
              .where("tenant_id", "=", tenantId)
              .where("user_info_id", "=", r.user_info_id)
              .where("account_type", "=", r.account_type)
              .where("occurred_at", "<", monthRange(r.month).end)
              .executeTakeFirstOrThrow();
            expect(Number(upToEnd.s)).toBe(Number(r.closing));
            const following = settled.find((n) => n.month === nextMonth(r.month) && n.user_info_id === r.user_info_id && n.account_type === r.account_type);
            if (following) expect(Number(following.opening)).toBe(Number(r.closing));
          }
        }),
        { numRuns: dialect === "postgres" ? 15 : 30 },
      );
    }, 240_000);
  });
}
