import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { BusiType, checkAccount, post } from "../../server/modules/zhct/ledger";
import { takeJobLease } from "../../server/kernel/leasedJob";
import { runDueSettings } from "../../server/modules/zhct/autoCharge";
import { dayOf, monthOf, monthRange, previousMonth } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, openAnotherInstance, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: subsidy grants, month settlement, daily report, diners by department`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope;
    const call = (path: string, body: unknown, as = token) => app.call<unknown>("POST", path, { token: as, body });
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const diner = async (extra: Row = {}, as = token) => ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: "张三", ...extra }, as);
    const balanceOf = async (userInfoId: unknown, type = "cash", as = token) =>
      ((await get(`${Z}/userAccount/findPage`, { userInfoId }, as)).data as { records: Row[] }).records.find((a) => a.accountType === type)?.balance;
    const ledger = async (userInfoId: unknown) => ((await get(`${Z}/userAccountLedger/findPage`, { userInfoId, pageSize: 100 })).data as { records: Row[] }).records;
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
      other = await createTenantWithAdmin(app, token, `st${dialect}`);
    });
    afterAll(async () => {
      await expectLedgerEqualsBalances();
      await app.close();
    });

    test("a grant setting names a staff type or a department; amounts are checked at the field", async () => {
      const none = await call(`${Z}/autoChargeSetting/create`, { settingName: `无对象${uid()}`, amount: 10000, dayOfMonth: 1 });
      expectField(none.body, "staffType", "请填写人员类别或选择部门");
      const big = await call(`${Z}/autoChargeSetting/create`, { settingName: `超额${uid()}`, staffType: "正式", amount: 1_000_001, dayOfMonth: 1 });
      expect(big.body.status).toBe(400);
      const day = await call(`${Z}/autoChargeSetting/create`, { settingName: `日期${uid()}`, staffType: "正式", amount: 100, dayOfMonth: 29 });
      expectField(day.body, "dayOfMonth", /28/);
    });

    test("立即执行 grants each diner of the staff type once per month: a second run and racing runs grant nothing twice", async () => {
      const staffType = `S${uid()}`;
      const a = await diner({ staffType });
      const b = await diner({ staffType });
      const outsider = await diner({ staffType: "其他" });
      const setting = await ok(`${Z}/autoChargeSetting/create`, { settingName: `补贴${uid()}`, staffType, amount: 30000, dayOfMonth: 1, enabled: true });
      const first = await ok(`${Z}/autoChargeSetting/run`, { id: setting.id });
      expect(first).toMatchObject({ month: monthOf(Date.now()), granted: 2, skipped: 0, failed: 0 });
      const again = await ok(`${Z}/autoChargeSetting/run`, { id: setting.id });
      expect(again).toMatchObject({ granted: 0, skipped: 2, failed: 0 });
      const racing = await Promise.all([1, 2, 3].map(() => call(`${Z}/autoChargeSetting/run`, { id: setting.id })));
      expect(racing.reduce((s, r) => s + Number((r.body.data as Row).granted), 0)).toBe(0);
      expect(await balanceOf(a.id, "subsidy")).toBe(30000);
      expect(await balanceOf(b.id, "subsidy")).toBe(30000);
      expect(await balanceOf(outsider.id, "subsidy")).toBe(0);
      const lines = await ledger(a.id);
      expect(lines.filter((l) => l.busiType === String(BusiType.GRANT)).map((l) => [l.amount, l.accountType, l.payFlag])).toEqual([[30000, "subsidy", "500"]]);
      const runs = (await get(`${Z}/autoChargeRun/findPage`, { settingId: setting.id })).data as { records: Row[] };
      expect(runs.records.length).toBe(5);
      expect(runs.records.map((r) => r.granted).reduce((s, n) => Number(s) + Number(n), 0)).toBe(2);
      expect(runs.records.every((r) => r.triggerType === "手动" && r.finishedAt)).toBe(true);
      const grants = (await get(`${Z}/autoChargeGrant/findPage`, { settingId: setting.id })).data as { total: number };
      expect(grants.total).toBe(2);
      const shown = (await get(`${Z}/autoChargeSetting/findPage`, { settingName: setting.settingName })).data as { records: Row[] };
      expect(shown.records[0]).toMatchObject({ lastRunMonth: monthOf(Date.now()) });
    });

    test(`racing runs of a new setting (${dialect === "postgres" ? "two instances, one database" : "one instance"}) grant each diner exactly once`, async () => {
      const staffType = `R${uid()}`;
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push((await diner({ staffType })).id);
      const setting = await ok(`${Z}/autoChargeSetting/create`, { settingName: `并发${uid()}`, staffType, amount: 1000, dayOfMonth: 1 });
      // Instances share PostgreSQL; one process serves a SQLite file (decision 013), and two connections of one
      // process to it would block the thread waiting for each other's lock, which no deployment does.
      const second = dialect === "postgres" ? await openAnotherInstance(app) : app;
      try {
        const results = await Promise.all([app, second, app, second].map((instance) => instance.call<Row>("POST", `${Z}/autoChargeSetting/run`, { token, body: { id: setting.id } })));
        for (const r of results) expect(r.body.status, JSON.stringify(r.body)).toBe(200);
        expect(results.reduce((s, r) => s + Number(r.body.data.granted), 0)).toBe(4);
      } finally {
        if (second !== app) await second.close();
      }
      for (const id of ids) expect(await balanceOf(id, "subsidy")).toBe(1000);
    });

    test("月末清零 clears the unused subsidy with a clearing line before the new grant", async () => {
      const staffType = `C${uid()}`;
      const d = await diner({ staffType });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 700, accountType: "subsidy" });
      const setting = await ok(`${Z}/autoChargeSetting/create`, { settingName: `清零${uid()}`, staffType, amount: 20000, dayOfMonth: 1, clearUnused: true });
      expect(await ok(`${Z}/autoChargeSetting/run`, { id: setting.id })).toMatchObject({ granted: 1 });
      expect(await balanceOf(d.id, "subsidy")).toBe(20000);
      const lines = await ledger(d.id);
      expect(lines.map((l) => [l.busiType, l.amount]).sort()).toEqual([["0", 700], ["4", 20000], ["5", -700]].sort());
    });

    test("a disabled setting does not run; another tenant cannot run or see a setting", async () => {
      const setting = await ok(`${Z}/autoChargeSetting/create`, { settingName: `停用${uid()}`, staffType: "x", amount: 100, dayOfMonth: 1, enabled: false });
      const refused = await call(`${Z}/autoChargeSetting/run`, { id: setting.id });
      expect(refused.http).toBe(409);
      expect(refused.body.message).toBe("该设置已停用，请先启用");
      const foreign = await call(`${Z}/autoChargeSetting/run`, { id: setting.id }, other.token);
      expect(foreign.http).toBe(404);
      const seen = (await get(`${Z}/autoChargeSetting/findPage`, {}, other.token)).data as { total: number };
      expect(seen.total).toBe(0);
      const bad = await call(`${Z}/autoChargeSetting/run`, { id: "1\u0000" });
      expect(bad.body.status).toBe(400);
    });

    test("the scheduler runs the settings whose day has come once a month, under a lease only one holder gets", async () => {
      const staffType = `D${uid()}`;
      const d = await diner({ staffType });
      const setting = await ok(`${Z}/autoChargeSetting/create`, { settingName: `定时${uid()}`, staffType, amount: 500, dayOfMonth: 1 });
      const now = Date.now();
      const results = await runDueSettings(app.database.db, app.database.dialect, now);
      expect(results.find((r) => r.runId && r.granted === 1)).toBeDefined();
      expect(await runDueSettings(app.database.db, app.database.dialect, now)).toEqual([]);
      expect(await balanceOf(d.id, "subsidy")).toBe(500);
      const runs = (await get(`${Z}/autoChargeRun/findPage`, { settingId: setting.id })).data as { records: Row[] };
      expect(runs.records.map((r) => r.triggerType)).toEqual(["自动"]);

      expect(await takeJobLease(app.database.db, "test.job", "a", now, 1000)).toBe(true);
      expect(await takeJobLease(app.database.db, "test.job", "b", now + 10, 1000)).toBe(false);
      expect(await takeJobLease(app.database.db, "test.job", "a", now + 20, 1000)).toBe(true);
      expect(await takeJobLease(app.database.db, "test.job", "b", now + 5000, 1000)).toBe(true);
    });

    test("生成 recomputes a month from the ledger; 转正式 locks it: a top-up into it is refused and it cannot be regenerated", async () => {
      // A tenant of its own: its month ends locked, and a locked month refuses every later top-up of the tenant.
      const settling = await createTenantWithAdmin(app, token, `sm${dialect}`);
      const t = settling.token;
      const d = await diner({}, t);
      const tenantId = settling.tenantId;
      const db = app.database.db;
      const month = monthOf(Date.now());
      const prev = previousMonth(month);
      const inPrev = monthRange(prev).start + 3600_000;
      // A line of last month, written as the ledger would have then.
      await inWriteTransaction(db, dialect, (trx) => post(trx, { tenantId, userInfoId: d.id as number, accountType: "cash", amount: 5000, busiType: BusiType.TOP_UP, payFlag: 0, occurredAt: inPrev }));
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 10000 }, t);
      await ok(`${Z}/userAccountCharge/refund`, { reason: "退回现金", userInfoId: d.id, amount: 2000 }, t);

      const early = await call(`${Z}/userAccountMonthSettle/formal`, { month }, t);
      expect(early.http).toBe(409);
      expect(early.body.message).toBe(`${month} 还没有生成结算，请先生成`);
      expect(await ok(`${Z}/userAccountMonthSettle/generate`, { month: prev }, t)).toMatchObject({ month: prev, count: 2, closing: 5000 });
      expect(await ok(`${Z}/userAccountMonthSettle/generate`, { month }, t)).toMatchObject({ month, count: 2, opening: 5000, closing: 13000, settleStatus: "0" });
      const rows = ((await get(`${Z}/userAccountMonthSettle/findPage`, { month, userInfoId: d.id }, t)).data as { records: Row[] }).records;
      expect(rows.find((r) => r.accountType === "cash")).toMatchObject({ opening: 5000, topUp: 10000, refund: -2000, consume: 0, closing: 13000, settleStatus: "0" });

      // A line slipped into last month after it was generated breaks the chain until last month is regenerated.
      await inWriteTransaction(db, dialect, (trx) => post(trx, { tenantId, userInfoId: d.id as number, accountType: "cash", amount: 100, busiType: BusiType.TOP_UP, payFlag: 0, occurredAt: inPrev + 1 }));
      const broken = await call(`${Z}/userAccountMonthSettle/generate`, { month }, t);
      expect(broken.http).toBe(409);
      expect(broken.body.message).toBe(`${prev} 的期末余额与 ${month} 的期初不一致，请先重新生成 ${prev}`);
      await ok(`${Z}/userAccountMonthSettle/generate`, { month: prev }, t);
      const notFormal = await call(`${Z}/userAccountMonthSettle/formal`, { month }, t);
      expect(notFormal.body.message).toBe(`${month} 的流水在生成后有变化，请重新生成后再转正式`);
      await ok(`${Z}/userAccountMonthSettle/generate`, { month }, t);
      const order = await call(`${Z}/userAccountMonthSettle/formal`, { month }, t);
      expect(order.http).toBe(409);
      expect(order.body.message).toBe(`请先将 ${prev} 转正式`);
      expect(await ok(`${Z}/userAccountMonthSettle/formal`, { month: prev }, t)).toMatchObject({ settleStatus: "1" });
      expect(await ok(`${Z}/userAccountMonthSettle/formal`, { month }, t)).toMatchObject({ settleStatus: "1", closing: 13100 });

      const locked = await call(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100 }, t);
      expect(locked.http).toBe(409);
      expect(locked.body.message).toBe(`${month} 已正式结算，不能再记入该月的流水`);
      const again = await call(`${Z}/userAccountMonthSettle/generate`, { month }, t);
      expect(again.body.message).toBe(`${month} 已正式结算，不能重新生成`);
      const months = (await get(`${Z}/userAccountMonthSettle/months`, {}, t)).data as Row[];
      expect(months.slice(0, 2)).toMatchObject([{ month, settleStatus: "1", count: 2, closing: 13100 }, { month: prev, settleStatus: "1" }]);
      // The default tenant's month is not locked by another tenant's: its top-up lands, and neither tenant's money
      // moves the other's.
      const mine = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: mine.id, amount: 100 });
      expect(await balanceOf(mine.id)).toBe(100);
      expect(await balanceOf(d.id, "cash", t)).toBe(13100);
      expect(await balanceOf(mine.id, "cash", t)).toBeUndefined();
    });

    test("bad months are refused at the field", async () => {
      expect((await call(`${Z}/userAccountMonthSettle/generate`, { month: "2026-05\u0000" })).body.status).toBe(400);
      for (const month of ["2026-13", "2026-5", "abc"]) expectField((await call(`${Z}/userAccountMonthSettle/generate`, { month })).body, "month", "月份格式应为 2026-05");
      expect((await call(`${Z}/userAccountMonthSettle/generate`, { month: 202605 })).body.status).toBe(400);
      expectField((await call(`${Z}/userAccountMonthSettle/generate`, { month: "2999-01" })).body, "month", "不能结算未来的月份");
    });

    test("the daily report's totals equal the ledger's top-ups, refunds and reversals of the range, each tenant's its own", async () => {
      const today = dayOf(Date.now());
      const totalsOf = async (tenantId: number) => {
        const lines = await app.database.db
          .selectFrom("user_account_ledger")
          .select(["amount", "busi_type"])
          .where("tenant_id", "=", tenantId)
          .where("busi_type", "in", [0, 1, 3])
          .where("occurred_at", ">=", Date.parse(`${today}T00:00:00+08:00`))
          .execute();
        const sum = (type: number) => lines.filter((l) => Number(l.busi_type) === type).reduce((s, l) => s + Number(l.amount), 0);
        return { topUp: sum(0), refund: sum(1), reversal: sum(3), net: sum(0) + sum(1) + sum(3) };
      };
      const reportOf = async (as = token) => (await get(`${Z}/chargeDailyReport/findPage`, { from: today, to: today }, as)).data as { records: Row[]; totals: Row };
      const before = (await reportOf()).totals;
      const foreignBefore = (await reportOf(other.token)).totals;
      const d = await diner();
      const top = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 12345, payFlag: 2 });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 1000 });
      await ok(`${Z}/userAccountCharge/refund`, { reason: "退回现金", userInfoId: d.id, amount: 300 });
      await ok(`${Z}/userAccountCharge/reverse`, { id: top.id, reason: "测试冲正" });
      const report = await reportOf();
      expect(report.totals).toMatchObject(await totalsOf(DEFAULT_TENANT_ID));
      const plus = (totals: Row, add: Record<string, number>) => Object.fromEntries(Object.entries(add).map(([k, v]) => [k, Number(totals[k]) + v]));
      expect(report.totals).toMatchObject(plus(before, { topUp: 13345, refund: -300, reversal: -12345, net: 700 }));
      expect(report.records.every((r) => r.day === today)).toBe(true);
      expect(report.records.find((r) => r.channel === "other")).toMatchObject({ topUpCount: expect.any(Number) });
      expectField((await get(`${Z}/chargeDailyReport/findPage`, { from: "2026-02-30" })), "from", "日期格式应为 2026-05-01");
      expectField((await get(`${Z}/chargeDailyReport/findPage`, { from: today, to: "2000-01-01" })), "from", "开始日期不能晚于结束日期");

      // This tenant's movements are not in another tenant's report, and a top-up there is in that report alone.
      expect((await reportOf(other.token)).totals).toEqual(foreignBefore);
      const theirs = await diner({}, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: theirs.id, amount: 4321 }, other.token);
      const foreign = (await reportOf(other.token)).totals;
      expect(foreign).toMatchObject(await totalsOf(other.tenantId));
      expect(foreign).toMatchObject(plus(foreignBefore, { topUp: 4321, refund: 0, reversal: 0, net: 4321 }));
      expect((await reportOf()).totals).toEqual(report.totals);
    });

    test("diners by department: counts and balances per department, the ones without one apart", async () => {
      const orgs = ((await get("/api/v1/auth/org/findPage", {}, other.token)).data as { records: Row[] }).records;
      const dept = await ok("/api/v1/auth/org/create", { orgName: `食堂部${uid()}`, parentId: orgs[0].id, orgType: "department", status: "1" }, other.token);
      const deptId = dept.id as number;
      const byDept = async () => (await get(`${Z}/userInfoDept/findPage`, {}, other.token)).data as { records: Row[]; totals: Row };
      const withoutDept = (await byDept()).records.find((r) => r.deptId === null) ?? { diners: 0, balance: 0 };
      const a = await diner({ deptId }, other.token);
      await diner({ deptId }, other.token);
      const loose = await diner({}, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: a.id, amount: 800 }, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: a.id, amount: 150, accountType: "subsidy" }, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: loose.id, amount: 60 }, other.token);
      const report = await byDept();
      expect(report.records.find((r) => r.deptId === deptId)).toEqual({ deptId, deptName: dept.orgName, diners: 2, cash: 800, subsidy: 150, balance: 950 });
      expect(report.records.at(-1)).toMatchObject({ deptId: null, deptName: "未分配部门", diners: Number(withoutDept.diners) + 1, balance: Number(withoutDept.balance) + 60 });
      const users = await app.database.db.selectFrom("user_account").select(["balance"]).where("tenant_id", "=", other.tenantId).execute();
      expect(report.totals.balance).toBe(users.reduce((s, u) => s + Number(u.balance), 0));
      const mine = (await get(`${Z}/userInfoDept/findPage`)).data as { records: Row[] };
      expect(mine.records.find((r) => r.deptId === deptId)).toBeUndefined();
      const noPermission = await app.call("GET", `${Z}/userInfoDept/findPage`, {});
      expect(noPermission.body.status).toBe(401);
    });
  });
}
