import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { IDEMPOTENCY_KEY_DAYS, pruneIdempotencyKeys } from "../../server/kernel/idempotency";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { checkAccount, deduct, post, BusiType } from "../../server/modules/zhct/ledger";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { makeMonthFormal } from "../helpers/settle";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: diners, accounts, the ledger, top-ups and IC cards`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body;
    const post$ = (path: string, body: unknown, as = token, headers: Record<string, string> = {}) => app.call<unknown>("POST", path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = token, headers: Record<string, string> = {}): Promise<Row> {
      const result = await post$(path, body, as, headers);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const diner = async (as = token) => ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: "张三" }, as);
    const accounts = async (userInfoId: unknown, as = token) => ((await get(`${Z}/userAccount/findPage`, { userInfoId }, as)).data as Page).records;
    const balanceOf = async (userInfoId: unknown, type = "cash") => (await accounts(userInfoId)).find((a) => a.accountType === type)?.balance;
    const ledger = async (userInfoId: unknown, as = token) => ((await get(`${Z}/userAccountLedger/findPage`, { userInfoId, pageSize: 100 }, as)).data as Page).records;
    /** Every account of the database: its balance is the sum of its lines and never negative. */
    async function expectLedgerEqualsBalances() {
      const rows = await app.database.db.selectFrom("user_account").select(["tenant_id", "id"]).execute();
      for (const row of rows) {
        const { balance, ledger: sum } = await checkAccount(app.database.db, row.tenant_id, row.id);
        expect(sum).toBe(balance);
        expect(balance).toBeGreaterThanOrEqual(0);
      }
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `lg${dialect}`);
    });
    afterAll(async () => {
      await expectLedgerEqualsBalances();
      await app.close();
    });

    test("a diner created with just a code and a name opens a cash and a subsidy account at zero", async () => {
      const d = await diner();
      expect(d).toMatchObject({ userName: "张三", userStatus: "1", userInfoRoleType: "user", auditStatus: "0" });
      const list = await accounts(d.id);
      expect(list.map((a) => [a.accountType, a.balance]).sort()).toEqual([["cash", 0], ["subsidy", 0]]);
      const dup = await post$(`${Z}/userInfo/create`, { userCode: d.userCode, userName: "李四" });
      expectField(dup.body, "userCode", "人员编号已存在");
    });

    test("top-up and refund move the balance through ledger lines; past the balance is 409 余额不足", async () => {
      const d = await diner();
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 10000 })).toMatchObject({ balance: 10000 });
      expect(await ok(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 2000, remark: "退现金" })).toMatchObject({ balance: 8000 });
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 500, accountType: "subsidy", payFlag: 2 })).toMatchObject({ balance: 500 });
      const over = await post$(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 8001 });
      expect(over.http).toBe(409);
      expect(over.body.message).toBe("余额不足");
      expect(await balanceOf(d.id)).toBe(8000);
      expect(await balanceOf(d.id, "subsidy")).toBe(500);
      const lines = await ledger(d.id);
      expect(lines.map((l) => [l.amount, l.balanceAfter, l.busiType, l.payFlag, l.accountType])).toEqual([
        [500, 500, "0", "2", "subsidy"],
        [-2000, 8000, "1", "0", "cash"],
        [10000, 10000, "0", "0", "cash"],
      ]);
      expect(lines[0]).toHaveProperty("idempotencyKey", null);
      expect(typeof lines[0].createdAt).toBe("number");
      const charges = ((await get(`${Z}/userAccountCharge/findPage`, { userInfoId: d.id })).data as Page).records;
      expect(charges.map((c) => [c.busiType, c.amount, c.balanceAfter, c.operatorName])).toEqual([
        ["0", 500, 500, "admin"],
        ["1", 2000, 8000, "admin"],
        ["0", 10000, 10000, "admin"],
      ]);
      expect(String(charges[1].chargeNo)).toMatch(/^TK\d+$/);
    });

    test("amounts: whole fen from 1 to 1,000,000 (a tenant may narrow it), a known account and payment method", async () => {
      const d = await diner();
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1.5 })).body, "amount", "金额必须是以分为单位的整数");
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 0 })).body, "amount", /金额/);
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1_000_001 })).body, "amount", "金额应在 0.01 元到 10000.00 元之间");
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100, payFlag: 42 })).body, "payFlag", "支付方式不是可选的值");
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100, accountType: "points" })).body, "accountType", /账户类型/);
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: 1, amount: 100 })).body, "userInfoId", "人员不存在");
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: "1e400" })).body, "amount", /金额/);
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100, remark: "a\u0000b" })).body, "remark", /无法保存/);
      expect((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100, extra: 1 })).body.status).toBe(400);
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1_000_000 })).toMatchObject({ balance: 1_000_000 });
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhct.charge.maxAmount", paramName: "单笔充值上限（分）", paramValue: "50000" }, other.token);
      const o = await diner(other.token);
      const key = { "Idempotency-Key": `range-${uid()}` };
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: o.id, amount: 50001 }, other.token, key)).body, "amount", "0.01 元到 500.00 元");
      // The refusal kept nothing of the key: the corrected request with it is a new one, not a 409.
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: o.id, amount: 50000 }, other.token, key)).toMatchObject({ balance: 50000 });
    });

    test("Idempotency-Key: a retry returns the first answer and writes nothing; another body with the key is 409", async () => {
      const d = await diner();
      const key = { "Idempotency-Key": `k-${uid()}` };
      const first = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 300 }, token, key);
      const retry = await post$(`${Z}/userAccountCharge/create`, { amount: 300, userInfoId: d.id }, token, key);
      expect(retry.body.data).toEqual(first);
      expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
      const changed = await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 301 }, token, key);
      expect(changed.http).toBe(409);
      expect(changed.body.message).toMatch(/Idempotency-Key 已用于另一笔内容不同的请求/);
      const elsewhere = await post$(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 300 }, token, key);
      expect(elsewhere.http).toBe(409);
      expect(await balanceOf(d.id)).toBe(300);
      const lines = await ledger(d.id);
      expect(lines).toHaveLength(1);
      expect(lines[0].idempotencyKey).toBe(key["Idempotency-Key"]);
      // Keys are per tenant: the other tenant's same key is a new request.
      const o = await diner(other.token);
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: o.id, amount: 700 }, other.token, key)).toMatchObject({ balance: 700 });
      // A refused movement stores nothing: its retry runs again.
      const refuse = { "Idempotency-Key": `r-${uid()}` };
      expect((await post$(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 400 }, token, refuse)).http).toBe(409);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100 }, token);
      expect(await ok(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 400 }, token, refuse)).toMatchObject({ balance: 0 });
      // So does one refused at a field inside the movement (the payment method; the tenant's amount range below).
      const typo = { "Idempotency-Key": `t-${uid()}` };
      expectField((await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 300, payFlag: 42 }, token, typo)).body, "payFlag", "支付方式不是可选的值");
      expect(await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 300 }, token, typo)).toMatchObject({ balance: 300 });
      expect((await ledger(d.id)).filter((l) => l.idempotencyKey === typo["Idempotency-Key"])).toHaveLength(1);
      for (const bad of ["", "a b", "x".repeat(101), "\u00e9t\u00e9"]) {
        const result = await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1 }, token, { "Idempotency-Key": bad });
        expect(result.body, bad).toMatchObject({ status: 400, message: "Idempotency-Key 应为 1–100 个可见 ASCII 字符" });
      }
    });

    test("keys answer their retries for 90 days; the pruning deletes only older keys, and an old key's request then runs anew", async () => {
      const d = await diner();
      const oldKey = { "Idempotency-Key": `old-${uid()}` };
      const freshKey = { "Idempotency-Key": `fresh-${uid()}` };
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100 }, token, oldKey);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 200 }, token, freshKey);
      const now = Date.now();
      const day = 86_400_000;
      // The first key as if written 91 days ago; the second is a day short of the limit.
      const db = app.database.db;
      await db.updateTable("idempotency_key").set({ created_at: now - (IDEMPOTENCY_KEY_DAYS + 1) * day }).where("idem_key", "=", oldKey["Idempotency-Key"]).execute();
      await db.updateTable("idempotency_key").set({ created_at: now - (IDEMPOTENCY_KEY_DAYS - 1) * day }).where("idem_key", "=", freshKey["Idempotency-Key"]).execute();
      const keys = async () => (await db.selectFrom("idempotency_key").select("idem_key").where("idem_key", "in", [oldKey["Idempotency-Key"], freshKey["Idempotency-Key"]]).execute()).map((k) => k.idem_key);
      expect(await pruneIdempotencyKeys(db, now)).toBeGreaterThanOrEqual(1);
      expect(await keys()).toEqual([freshKey["Idempotency-Key"]]);
      expect(await pruneIdempotencyKeys(db, now)).toBe(0);
      // Within its 90 days a key still replays; past them the same request is a new top-up.
      const replay = await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 200 }, token, freshKey);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await balanceOf(d.id)).toBe(300);
      const anew = await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100 }, token, oldKey);
      expect(anew.headers.get("Idempotent-Replayed")).toBeNull();
      expect(await balanceOf(d.id)).toBe(400);
      await expectLedgerEqualsBalances();
    });

    test("concurrency: 10 top-ups with one Idempotency-Key write one line; 100 refunds of 1.00 against 50.00 → 50 succeed", async () => {
      const d = await diner();
      const key = { "Idempotency-Key": `c-${uid()}` };
      const tops = await Promise.all(Array.from({ length: 10 }, () => post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 5000 }, token, key)));
      expect(tops.map((t) => t.body.status)).toEqual(Array(10).fill(200));
      expect(new Set(tops.map((t) => JSON.stringify(t.body.data))).size).toBe(1);
      expect(await ledger(d.id)).toHaveLength(1);
      expect(await balanceOf(d.id)).toBe(5000);
      const refunds = await Promise.all(Array.from({ length: 100 }, () => post$(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 100 })));
      expect(refunds.filter((r) => r.body.status === 200)).toHaveLength(50);
      expect(refunds.filter((r) => r.http === 409 && r.body.message === "余额不足")).toHaveLength(50);
      expect(await balanceOf(d.id)).toBe(0);
      expect(await ledger(d.id)).toHaveLength(51);
    });

    test("deduct: subsidy before cash, all or nothing; 100 concurrent deductions of 1.00 against 50.00 → 50 succeed", async () => {
      const d = await diner();
      const id = d.id as number;
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 300, accountType: "subsidy" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 1000 });
      const { db, dialect: dia } = app.database;
      const lines = await inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: id, amount: 500, payFlag: 0, docType: "order", docId: 1 }));
      expect(lines.map((l) => [l.accountType, l.amount, l.balanceAfter])).toEqual([["subsidy", -300, 0], ["cash", -200, 800]]);
      // Cash first when the tenant says so.
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 100, accountType: "subsidy" });
      const cashFirst = await inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: id, amount: 850, payFlag: 0, subsidyFirst: false }));
      expect(cashFirst.map((l) => [l.accountType, l.amount])).toEqual([["cash", -800], ["subsidy", -50]]);
      // Not enough in all accounts: nothing is taken.
      await expect(inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: id, amount: 51, payFlag: 0 }))).rejects.toMatchObject({ status: 409, message: "余额不足" });
      expect(await balanceOf(id, "subsidy")).toBe(50);
      // Credit only when a rule passes a limit.
      const credit = await inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: id, amount: 150, payFlag: 0, creditLimit: 100 }));
      expect(credit.map((l) => [l.accountType, l.amount, l.balanceAfter])).toEqual([["subsidy", -50, 0], ["cash", -100, -100]]);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 100 });

      const e = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: e.id, amount: 2000, accountType: "subsidy" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: e.id, amount: 3000 });
      const results = await Promise.allSettled(
        Array.from({ length: 100 }, () => inWriteTransaction(db, dia, (trx) => deduct(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: e.id as number, amount: 100, payFlag: 0 }))),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(50);
      expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason.message === "余额不足")).toBe(true);
      expect(await balanceOf(e.id)).toBe(0);
      expect(await balanceOf(e.id, "subsidy")).toBe(0);
    });

    test("a top-up is undone by a reversal line naming it, once, and only while the money is there", async () => {
      const d = await diner();
      const top = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1000 });
      // A reversal says why (decision 055): none is 400 on the field reason and nothing moves.
      expectField((await post$(`${Z}/userAccountCharge/reverse`, { id: top.id })).body, "reason", "请输入冲正原因");
      expect(await balanceOf(d.id, "cash")).toBe(1000);
      const undo = await ok(`${Z}/userAccountCharge/reverse`, { id: top.id, reason: "输错金额" });
      expect(undo).toMatchObject({ balance: 0 });
      const again = await post$(`${Z}/userAccountCharge/reverse`, { id: top.id, reason: "测试冲正" });
      expect(again.http).toBe(409);
      expect(again.body.message).toBe("该充值已冲正");
      const lines = await ledger(d.id);
      expect(lines.map((l) => [l.busiType, l.amount])).toEqual([["3", -1000], ["0", 1000]]);
      expect(lines[0].reversalOf).toBe(lines[1].id);
      expect(lines[0].remark).toBe("输错金额");
      const spent = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1000 });
      await ok(`${Z}/userAccountCharge/refund`, { userInfoId: d.id, amount: 600 });
      const refused = await post$(`${Z}/userAccountCharge/reverse`, { id: spent.id, reason: "测试冲正" });
      expect(refused.http).toBe(409);
      expect(refused.body.message).toMatch(/余额不足/);
      const refund = ((await get(`${Z}/userAccountCharge/findPage`, { userInfoId: d.id, busiType: 1 })).data as Page).records[0];
      expect((await post$(`${Z}/userAccountCharge/reverse`, { id: refund.id })).body.message).toBe("只有充值可以冲正");
    });

    test("a formal month refuses lines dated into it (the money ledger's locked periods)", async () => {
      const d = await diner();
      // The request's moment falls in a month made formal (only the clock is faked: timers run as ever).
      const unlock = await makeMonthFormal(app.database.db, DEFAULT_TENANT_ID, "2026-01", d.id as number);
      vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 15, 4) });
      try {
        const refused = await post$(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100 });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("2026-01 已正式结算，不能再记入该月的流水");
      } finally {
        vi.useRealTimers();
        await unlock();
      }
      expect(await ledger(d.id)).toHaveLength(0);
      await expect(
        inWriteTransaction(app.database.db, app.database.dialect, (trx) => post(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: d.id as number, accountType: "cash", amount: 0, busiType: BusiType.GRANT, payFlag: 500 })),
      ).rejects.toMatchObject({ status: 400 });
    });

    test("IC cards: issue (one normal card per diner), report lost, unlock, reissue (old card invalid, account stays), cancel", async () => {
      const d = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1234 });
      const card = await ok(`${Z}/userIcCard/create`, { userInfoId: d.id, cardNo: `C${uid()}`, cardType: "1", cardSerial: "a1b2c3d4" });
      expect(card).toMatchObject({ cardStatus: "1", cardSerial: "A1B2C3D4" });
      expectField((await post$(`${Z}/userIcCard/create`, { userInfoId: d.id, cardNo: `C${uid()}`, cardType: "2" })).body, "userInfoId", "该人员已有正常使用的卡");
      expectField((await post$(`${Z}/userIcCard/create`, { userInfoId: (await diner()).id, cardNo: card.cardNo, cardType: "1" })).body, "cardNo", "卡号已存在");
      expect(await ok(`${Z}/userIcCard/reportLoss`, { id: card.id })).toMatchObject({ cardStatus: "2" });
      const twice = await post$(`${Z}/userIcCard/reportLoss`, { id: card.id });
      expect(twice.http).toBe(409);
      expect(twice.body.message).toBe("该卡当前为「挂失」，不能挂失");
      expect(await ok(`${Z}/userIcCard/unlock`, { id: card.id })).toMatchObject({ cardStatus: "1" });
      const newNo = `N${uid()}`;
      const fresh = await ok(`${Z}/userIcCard/reissue`, { id: card.id, cardNo: newNo });
      const cards = ((await get(`${Z}/userIcCard/findPage`, { userInfoId: d.id })).data as Page).records;
      expect(cards.map((c) => [c.cardNo, c.cardStatus]).sort()).toEqual([[card.cardNo, "0"], [newNo, "1"]].sort());
      expect(cards.find((c) => c.id === card.id)?.replacedBy).toBe(fresh.id);
      expect(await balanceOf(d.id)).toBe(1234);
      expect((await post$(`${Z}/userIcCard/unlock`, { id: card.id })).body.message).toBe("该卡当前为「无效」，不能解挂");
      expectField((await post$(`${Z}/userIcCard/reissue`, { id: fresh.id, cardNo: newNo })).body, "cardNo", "卡号已存在");
      expect(await ok(`${Z}/userIcCard/cancel`, { id: fresh.id })).toMatchObject({ cardStatus: "0" });
      expect((await post$(`${Z}/userIcCard/reportLoss`, { id: "abc" })).body.status).toBe(400);
    });

    test("audit: 1 passes, 2 fails, anything else is refused", async () => {
      const d = await diner();
      expect(await ok(`${Z}/userInfo/audit`, { id: d.id, auditStatus: "1" })).toMatchObject({ auditStatus: "1" });
      expect(((await get(`${Z}/userInfo/getInfo`, { id: d.id })).data as Row).auditStatus).toBe("1");
      expect((await post$(`${Z}/userInfo/audit`, { id: d.id, auditStatus: "9" })).body.status).toBe(400);
    });

    test("tenant isolation: another tenant's diner, account, card and charge are never read, charged or changed", async () => {
      const mine = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: mine.id, amount: 900 });
      const card = await ok(`${Z}/userIcCard/create`, { userInfoId: mine.id, cardNo: `T${uid()}`, cardType: "1" });
      const charges = ((await get(`${Z}/userAccountCharge/findPage`, { userInfoId: mine.id })).data as Page).records;
      const as = other.token;
      for (const path of ["create", "refund"]) {
        const result = await post$(`${Z}/userAccountCharge/${path}`, { userInfoId: mine.id, amount: 100 }, as);
        expectField(result.body, "userInfoId", "人员不存在");
      }
      expect((await post$(`${Z}/userAccountCharge/reverse`, { id: charges[0].id }, as)).body.status).toBe(404);
      for (const action of ["reportLoss", "unlock", "cancel"]) expect((await post$(`${Z}/userIcCard/${action}`, { id: card.id }, as)).body.status).toBe(404);
      expect((await post$(`${Z}/userIcCard/reissue`, { id: card.id, cardNo: `X${uid()}` }, as)).body.status).toBe(404);
      expect((await post$(`${Z}/userIcCard/create`, { userInfoId: mine.id, cardNo: `Y${uid()}`, cardType: "1" }, as)).body.status).toBe(400);
      expect((await post$(`${Z}/userInfo/audit`, { id: mine.id, auditStatus: "1" }, as)).body.status).toBe(404);
      expect(await accounts(mine.id, as)).toEqual([]);
      expect(await ledger(mine.id, as)).toEqual([]);
      expect((await get(`${Z}/userAccountCharge/getInfo`, { id: charges[0].id }, as)).status).toBe(404);
      expect((await get(`${Z}/userIcCard/getInfo`, { id: card.id }, as)).status).toBe(404);
      expect(await balanceOf(mine.id)).toBe(900);
      expect(((await get(`${Z}/userIcCard/getInfo`, { id: card.id })).data as Row).cardStatus).toBe("1");
    });
  });
}
