import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { ApiError } from "../../server/http/envelope";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { BusiType, checkAccount, deduct, openAccounts, post, reverse, type AccountType } from "../../server/modules/zhct/ledger";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

type Op =
  | { kind: "topUp"; account: AccountType; amount: number }
  | { kind: "refund"; account: AccountType; amount: number }
  | { kind: "reverse"; pick: number }
  | { kind: "deduct"; amount: number; subsidyFirst: boolean }
  | { kind: "grant"; amount: number };

const account = fc.constantFrom<AccountType>("cash", "subsidy");
const amount = fc.integer({ min: 1, max: 20_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("topUp" as const), account, amount }),
  fc.record({ kind: fc.constant("refund" as const), account, amount }),
  fc.record({ kind: fc.constant("reverse" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("deduct" as const), amount, subsidyFirst: fc.boolean() }),
  fc.record({ kind: fc.constant("grant" as const), amount }),
);

for (const dialect of dialects) {
  describe(`${dialect}: the ledger under random sequences (fast-check)`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const now = Date.now();
      await database.db.insertInto("tenant").values({ id: DEFAULT_TENANT_ID, tenant_name: "默认租户", tenant_code: "default", status: 1, created_at: now, created_by: null, updated_at: now, updated_by: null }).execute();
    });
    afterAll(() => database.destroy());

    async function newDiner(): Promise<number> {
      const id = newId();
      const now = Date.now();
      await database.db
        .insertInto("user_info")
        .values({ tenant_id: DEFAULT_TENANT_ID, id, user_code: `P${id}`, user_name: "性质", sex: null, phone: null, dept_id: null, user_info_role_type: "user", staff_type: null, face_image: null, restaurant_ids: null, audit_status: 0, user_status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      await inWriteTransaction(database.db, database.dialect, (trx) => openAccounts(trx, DEFAULT_TENANT_ID, id, now));
      return id;
    }

    test("top-ups, refunds, reversals, grants and deductions: the ledger sums to the balance, no balance below zero, the model agrees", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          const diner = await newDiner();
          const model: Record<AccountType, number> = { cash: 0, subsidy: 0 };
          const topUps: Array<{ id: number; account: AccountType; amount: number; reversed: boolean }> = [];
          const run = <T>(work: Parameters<typeof inWriteTransaction<T>>[2]) => inWriteTransaction(database.db, database.dialect, work);
          const base = { tenantId: DEFAULT_TENANT_ID, userInfoId: diner, payFlag: 0 };
          for (const o of ops) {
            try {
              if (o.kind === "topUp" || o.kind === "grant") {
                const type = o.kind === "grant" ? "subsidy" : o.account;
                const line = await run((trx) => post(trx, { ...base, accountType: type, amount: o.amount, busiType: o.kind === "grant" ? BusiType.GRANT : BusiType.TOP_UP }));
                model[type] += o.amount;
                if (o.kind === "topUp") topUps.push({ id: line.id, account: type, amount: o.amount, reversed: false });
              } else if (o.kind === "refund") {
                await run((trx) => post(trx, { ...base, accountType: o.account, amount: -o.amount, busiType: BusiType.REFUND }));
                expect(model[o.account]).toBeGreaterThanOrEqual(o.amount);
                model[o.account] -= o.amount;
              } else if (o.kind === "reverse") {
                if (!topUps.length) continue;
                const target = topUps[o.pick % topUps.length];
                await run((trx) => reverse(trx, DEFAULT_TENANT_ID, target.id));
                expect(target.reversed).toBe(false);
                expect(model[target.account]).toBeGreaterThanOrEqual(target.amount);
                target.reversed = true;
                model[target.account] -= target.amount;
              } else {
                const lines = await run((trx) => deduct(trx, { ...base, amount: o.amount, subsidyFirst: o.subsidyFirst }));
                expect(model.cash + model.subsidy).toBeGreaterThanOrEqual(o.amount);
                const first: AccountType = o.subsidyFirst ? "subsidy" : "cash";
                // The first account gives what it has before the second gives anything.
                const fromFirst = Math.min(model[first], o.amount);
                for (const line of lines) model[line.accountType] += line.amount;
                expect(lines.reduce((sum, l) => sum + l.amount, 0)).toBe(-o.amount);
                expect((lines.find((l) => l.accountType === first)?.amount ?? 0) + 0).toBe(0 - fromFirst + 0);
              }
            } catch (error) {
              if (!(error instanceof ApiError) || error.status !== 409) throw error;
              // Refused: it must have been impossible in the model, and nothing was written.
              if (o.kind === "refund") expect(model[o.account]).toBeLessThan(o.amount);
              else if (o.kind === "deduct") expect(model.cash + model.subsidy).toBeLessThan(o.amount);
              else if (o.kind === "reverse") {
                const target = topUps[o.pick % topUps.length];
                expect(target.reversed || model[target.account] < target.amount).toBe(true);
              } else throw error;
            }
          }
          const accounts = await database.db.selectFrom("user_account").select(["id", "account_type"]).where("tenant_id", "=", DEFAULT_TENANT_ID).where("user_info_id", "=", diner).execute();
          for (const a of accounts) {
            const { balance, ledger } = await checkAccount(database.db, DEFAULT_TENANT_ID, a.id);
            expect(ledger).toBe(balance);
            expect(balance).toBeGreaterThanOrEqual(0);
            expect(balance).toBe(model[a.account_type as AccountType]);
          }
        }),
        { numRuns: dialect === "postgres" ? 40 : 100 },
      );
    }, 120_000);
  });
}
