import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { createUser, publishedMenu } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
type Answer = { filters: Record<string, string>; rows: Row[]; totals: Row; truncated: number; options: Record<string, Array<{ value: string; label: string }>> };

const Z = "/api/v1/zhct";
const R = "/api/v1/report";

/**
 * Issue 15: every figure of every report against a data set made through the real services (top-ups, the cashier's
 * pay, a cancel) in a tenant of its own, on SQLite and PostgreSQL; the totals against the ledger and the balances.
 */
for (const dialect of dialects) {
  describe(`${dialect}: reports (decision 030)`, () => {
    let app: TestApp;
    let superToken: string;
    let t: TenantFixture;
    const today = dayOf(Date.now());
    const tomorrow = dayOf(dayStart(today) + 86_400_000);
    const ids = { a: 0, b: 0, c: 0, e: 0, ra: 0, rb: 0, d1: 0, d2: 0 };
    const codes = { a: "", b: "", c: "", e: "" };
    const orderNos: string[] = [];
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = t.token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope;
    async function ok(path: string, body: Row, as = t.token): Promise<Row> {
      const result = await app.call<unknown>("POST", path, { token: as, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function report(name: string, query: Row = {}, as = t.token): Promise<Answer> {
      const body = await get(`${R}/${name}`, { from: today, to: today, ...query }, as);
      expect(body.status, JSON.stringify(body)).toBe(200);
      return body.data as Answer;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `rp${dialect}`);
      const org = async (orgName: string, orgType: string) => (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName, orgType, status: "1" })).id as number;
      ids.d1 = await org("研发部", "department");
      ids.d2 = await org("财务部", "department");
      ids.ra = await org("一号餐厅", "restaurant");
      ids.rb = await org("二号餐厅", "restaurant");
      const diner = async (key: keyof typeof codes, deptId?: number) => {
        codes[key] = `U${uid()}`;
        ids[key] = (await ok(`${Z}/userInfo/create`, { userCode: codes[key], userName: `人员${key}`, ...(deptId ? { deptId } : {}) })).id as number;
      };
      await diner("a", ids.d1);
      await diner("b", ids.d1);
      await diner("c", ids.d2);
      await diner("e");
      const topUp = (userInfoId: number, amount: number, accountType = "cash") => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType });
      await topUp(ids.a, 10000);
      await topUp(ids.b, 5000);
      await topUp(ids.b, 2000, "subsidy");
      await topUp(ids.c, 3000);
      await topUp(ids.e, 1000);

      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      // A restaurant per meal (meal times of one restaurant may not overlap), each with today's published menu.
      const canteen = (restaurantId: number, mealType: string, dishes: Array<[string, number]>) =>
        publishedMenu(ok, { restaurantId, mealType, day: today, foodTypeId: category, dishes, menuTypeName: `${mealType}${uid()}` });
      const lunch = await canteen(ids.ra, "lunch", [["红烧肉", 1200], ["米饭", 300]]);
      const dinner = await canteen(ids.rb, "dinner", [["水饺", 800]]);
      const pay = async (body: Row) => {
        const paid = await ok(`${Z}/cashier/pay`, body);
        orderNos.push(String(paid.orderNo));
        return paid;
      };
      await pay({ userInfoId: ids.a, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }, { foodId: lunch.foods[1], quantity: 2 }] });
      await pay({ userInfoId: ids.b, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }] });
      await pay({ userInfoId: ids.b, mealTimesId: dinner.mealTimesId, items: [{ foodId: dinner.foods[0], quantity: 2 }] });
      const cancelled = await pay({ userInfoId: ids.c, mealTimesId: dinner.mealTimesId, items: [{ foodId: dinner.foods[0], quantity: 1 }] });
      await ok(`${Z}/mealOrder/cancel`, { id: cancelled.orderId, reason: "测试取消" });
      await pay({ userInfoId: ids.e, amount: 350, payFlag: 2 });
    });
    afterAll(async () => {
      await app.close();
    });

    test("订单日汇总: orders, cancels, paid, refunded and 实收 per day and meal; each filter narrows exactly", async () => {
      const all = await report("dailyOrderSummary");
      expect(all.rows).toEqual([
        { day: today, orders: 5, cancelled: 1, paid: 5750, refunded: 800, net: 4950, net_breakfast: 0, net_lunch: 3000, net_dinner: 1600, net_midnight: 0, net_none: 350 },
      ]);
      expect(all.totals).toEqual({ day: "合计", orders: 5, cancelled: 1, paid: 5750, refunded: 800, net: 4950, net_breakfast: 0, net_lunch: 3000, net_dinner: 1600, net_midnight: 0, net_none: 350 });
      expect(all.filters).toEqual({ from: today, to: today });
      expect((await report("dailyOrderSummary", { restaurantId: ids.ra })).totals).toMatchObject({ orders: 2, net: 3000, net_lunch: 3000 });
      expect((await report("dailyOrderSummary", { mealType: "dinner" })).totals).toMatchObject({ orders: 2, cancelled: 1, paid: 2400, refunded: 800, net: 1600 });
      expect((await report("dailyOrderSummary", { payFlag: "2" })).totals).toMatchObject({ orders: 1, net: 350, net_none: 350 });
      // The default period is the 30 days to today; a period with no orders has no rows and zero totals.
      expect((await get(`${R}/dailyOrderSummary`)).data).toMatchObject({ filters: { from: dayOf(dayStart(today) - 29 * 86_400_000), to: today } });
      expect(await report("dailyOrderSummary", { from: tomorrow, to: tomorrow })).toMatchObject({ rows: [], totals: { orders: 0, net: 0 } });
      // The restaurants to choose from are the tenant's.
      expect(all.options.restaurantId.map((o) => o.label).sort()).toEqual(["一号餐厅", "二号餐厅"].sort());
    });

    test("订单日明细: every order of the day, and 实收 equals what the ledger took for them", async () => {
      const detail = await report("dailyOrderDetail");
      expect(detail.rows.map((r) => r.orderNo)).toEqual(orderNos);
      expect(detail.rows.map((r) => [r.userCode, r.restaurantName, r.mealType, r.payFlag, r.orderStatus, r.paid, r.refunded, r.net])).toEqual([
        [codes.a, "一号餐厅", "lunch", "0", "1", 1800, 0, 1800],
        [codes.b, "一号餐厅", "lunch", "0", "1", 1200, 0, 1200],
        [codes.b, "二号餐厅", "dinner", "0", "1", 1600, 0, 1600],
        [codes.c, "二号餐厅", "dinner", "0", "2", 800, 800, 0],
        [codes.e, "", null, "2", "1", 350, 0, 350],
      ]);
      expect(detail.totals).toEqual({ orderNo: "合计", orders: 5, paid: 5750, refunded: 800, net: 4950 });
      const ledger = await app.database.db
        .selectFrom("user_account_ledger")
        .select((eb) => eb.fn.sum<number>("amount").as("s"))
        .where("tenant_id", "=", t.tenantId)
        .where("doc_type", "=", "mealOrder")
        .executeTakeFirstOrThrow();
      expect(-Number(ledger.s)).toBe(detail.totals.net);
      const ofB = await report("dailyOrderDetail", { userCode: codes.b });
      expect(ofB.rows.map((r) => r.orderNo)).toEqual(orderNos.slice(1, 3));
    });

    test("菜品销量统计: portions and amounts per day, restaurant, meal and dish; a cancelled order sold nothing", async () => {
      const foods = await report("foodCount");
      expect(foods.rows).toEqual([
        // Restaurants in pinyin order (二 èr before 一 yī), then meal, then best sellers.
        { day: today, restaurantName: "二号餐厅", mealType: "dinner", foodName: "水饺", quantity: 2, amount: 1600 },
        { day: today, restaurantName: "一号餐厅", mealType: "lunch", foodName: "红烧肉", quantity: 2, amount: 2400 },
        { day: today, restaurantName: "一号餐厅", mealType: "lunch", foodName: "米饭", quantity: 2, amount: 600 },
      ]);
      expect(foods.totals).toEqual({ day: "合计", quantity: 6, amount: 4600 });
      expect((await report("foodCount", { mealType: "dinner" })).totals).toMatchObject({ quantity: 2, amount: 1600 });
    });

    test("个人消费统计 and 部门就餐统计: per diner and department; cash + subsidy equals 实收", async () => {
      const users = await report("userConsumption");
      const byCode = Object.fromEntries(users.rows.map((r) => [r.userCode, [r.deptName, r.orders, r.net, r.cash, r.subsidy]]));
      expect(byCode).toEqual({
        [codes.a]: ["研发部", 1, 1800, 1800, 0],
        [codes.b]: ["研发部", 2, 2800, 800, 2000],
        [codes.c]: ["财务部", 0, 0, 0, 0],
        [codes.e]: ["", 1, 350, 350, 0],
      });
      expect(users.totals).toEqual({ userCode: "合计", orders: 4, net: 4950, cash: 2950, subsidy: 2000 });
      expect((await report("userConsumption", { deptId: ids.d1 })).rows.map((r) => r.userCode)).toEqual([codes.a, codes.b].sort());

      const depts = await report("deptDining");
      expect(depts.rows).toEqual([
        { deptId: String(ids.d2), deptName: "财务部", diners: 0, orders: 0, net: 0 },
        { deptId: String(ids.d1), deptName: "研发部", diners: 2, orders: 3, net: 4600 },
        { deptId: null, deptName: "未分配部门", diners: 1, orders: 1, net: 350 },
      ]);
      expect(depts.totals).toEqual({ deptName: "合计", diners: 3, orders: 4, net: 4950 });
    });

    test("个人账户流水: opening, every line, closing; closing equals the balances", async () => {
      const ledger = await report("personalLedger", { userCode: codes.b });
      expect(ledger.rows[0]).toMatchObject({ remark: "期初余额", balance: 0 });
      expect(ledger.rows.slice(1, -1).map((r) => [r.accountType, r.busiType, r.income, r.expense])).toEqual([
        ["cash", "0", 5000, null],
        ["subsidy", "0", 2000, null],
        ["subsidy", "2", null, 1200],
        ["subsidy", "2", null, 800],
        ["cash", "2", null, 800],
      ]);
      expect(ledger.rows.at(-1)).toMatchObject({ remark: "期末余额", balance: 4200 });
      expect(ledger.totals).toEqual({ occurredAt: "合计", income: 7000, expense: 2800 });
      const accounts = await app.database.db.selectFrom("user_account").select("balance").where("tenant_id", "=", t.tenantId).where("user_info_id", "=", ids.b).execute();
      expect(accounts.reduce((s, a) => s + Number(a.balance), 0)).toBe(4200);
      // A later period opens with what this one closed with; one account alone.
      expect((await report("personalLedger", { userCode: codes.b, from: tomorrow, to: tomorrow })).rows).toEqual([
        { occurredAt: tomorrow, remark: "期初余额", balance: 4200 },
        { occurredAt: tomorrow, remark: "期末余额", balance: 4200 },
      ]);
      const subsidy = await report("personalLedger", { userCode: codes.b, accountType: "subsidy" });
      expect(subsidy.totals).toMatchObject({ income: 2000, expense: 2000 });
      expect(subsidy.rows.at(-1)).toMatchObject({ balance: 0 });
    });

    test("充值日报 and 账户类型日统计: top-ups and each account's movements; net change equals the balances", async () => {
      const charges = await report("chargeDailyReport");
      expect(charges.totals).toEqual({ day: "合计", topUpCount: 5, topUp: 21000, refundCount: 0, refund: 0, reversal: 0, net: 21000 });
      const types = await report("accountTypeDaily");
      expect(types.rows).toEqual([
        { day: today, accountType: "cash", topUp: 19000, grant: 0, consume: -2950, refund: 0, other: 0, dormFee: 0, net: 16050 },
        { day: today, accountType: "subsidy", topUp: 2000, grant: 0, consume: -2000, refund: 0, other: 0, dormFee: 0, net: 0 },
      ]);
      const balances = await app.database.db.selectFrom("user_account").select("balance").where("tenant_id", "=", t.tenantId).execute();
      expect(types.totals.net).toBe(balances.reduce((s, a) => s + Number(a.balance), 0));
      expect((await report("accountTypeDaily", { accountType: "subsidy" })).rows).toHaveLength(1);
    });

    test("a filtered answer names its filters: asked again with them it gives the same rows", async () => {
      const first = await report("userConsumption", { deptId: ids.d1, restaurantId: ids.ra });
      expect(first.filters).toEqual({ from: today, to: today, deptId: String(ids.d1), restaurantId: String(ids.ra) });
      const again = (await get(`${R}/userConsumption`, first.filters)).data as Answer;
      expect(again.rows).toEqual(first.rows);
      expect(again.totals).toEqual(first.totals);
    });

    test("bad filters are a 400 naming the field, on every report, and write nothing", async () => {
      const refused = await get(`${R}/dailyOrderSummary`, { from: "2026-02-30", restaurantId: ids.ra });
      expectField(refused, "from", "日期格式应为 2026-05-01");
      // The form that was refused keeps its choices, so the restaurant chosen stays chosen.
      expect((refused.data as Answer).options.restaurantId.map((o) => o.value).sort()).toEqual([String(ids.ra), String(ids.rb)].sort());
      expectField(await get(`${R}/dailyOrderSummary`, { from: today, to: "2000-01-01" }), "from", "开始日期不能晚于结束日期");
      expectField(await get(`${R}/foodCount`, { from: "2020-01-01", to: "2026-01-01" }), "from", "日期范围最多 366 天");
      expectField(await get(`${R}/dailyOrderSummary`, { mealType: "brunch" }), "mealType", "餐别不是可选的值");
      expectField(await get(`${R}/dailyOrderDetail`, { payFlag: "99" }), "payFlag", "支付方式不是可选的值");
      expectField(await get(`${R}/dailyOrderSummary`, { restaurantId: "abc" }), "restaurantId", /餐厅/);
      expectField(await get(`${R}/dailyOrderSummary`, { restaurantId: "99999999999999999999" }), "restaurantId", /餐厅/);
      // A department is not a restaurant.
      expectField(await get(`${R}/dailyOrderSummary`, { restaurantId: ids.d1 }), "restaurantId", "所选餐厅不存在");
      expectField(await get(`${R}/userConsumption`, { userCode: "a\u0000b" }), "userCode", "无法保存的字符");
      expectField(await get(`${R}/userConsumption`, { userCode: "nobody" }), "userCode", "该人员编号不存在");
      expectField(await get(`${R}/personalLedger`, {}), "userCode", "请输入人员编号");
      expectField(await get(`${R}/accountTypeDaily`, { accountType: "gold" }), "accountType", "账户类型不是可选的值");
      expect((await get(`${R}/foodCount`, { foo: "1" })).status).toBe(400);
      expect((await get(`${R}/foodCount/export`, { from: "x" })).status).toBe(400);
    });

    test("tenant isolation and permissions: another tenant sees none of it and cannot name its rows", async () => {
      const other = await report("dailyOrderDetail", {}, superToken);
      expect(other.rows.filter((r) => orderNos.includes(String(r.orderNo)))).toEqual([]);
      expectField(await get(`${R}/dailyOrderSummary`, { restaurantId: ids.ra }, superToken), "restaurantId", "所选餐厅不存在");
      expectField(await get(`${R}/personalLedger`, { userCode: codes.b }, superToken), "userCode", "该人员编号不存在");
      const dash = (await get(`${R}/dashboard`, {}, superToken)).data as Row;
      expect(dash).toMatchObject({ orders: 0, net: 0 });
      await createUser(app, { userName: "report.none", password: "Report-None-1", roleIds: [] });
      const none = await loginAs(app, "report.none", "Report-None-1");
      for (const path of [`${R}/dailyOrderSummary`, `${R}/dailyOrderSummary/export`, `${R}/dashboard`]) {
        const refused = await app.call("GET", path, { token: none });
        expect(refused.http, path).toBe(403);
      }
    });

    test("the XLSX holds exactly what the screen shows: headers, rows, totals, yuan as numbers", async () => {
      for (const [name, query] of [["dailyOrderSummary", {}], ["personalLedger", { userCode: codes.b }], ["deptDining", {}]] as const) {
        const answer = await report(name, query);
        const params = new URLSearchParams({ from: today, to: today, ...query });
        const response = await app.api.handle(new Request(`http://canteen.test${R}/${name}/export?${params}`, { headers: { Authorization: `Bearer ${t.token}` } }), "127.0.0.1");
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Disposition")).toContain("filename*=UTF-8''");
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await response.arrayBuffer()) as never);
        const sheet = workbook.worksheets[0];
        const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
        expect(String(values(2)[0])).toContain(`${today} 至 ${today}`);
        const header = values(3);
        expect(header[0]).toMatch(/[\u4e00-\u9fa5]/);
        const { reports } = await import("../../resources/report/index");
        const def = reports.find((r) => r.entity === name)!;
        expect(header).toEqual(def.columns.map((c) => c.label));
        const shown = [...answer.rows, answer.totals].map((row) =>
          def.columns.map((c) => {
            const v = row[c.key];
            if (v === null || v === undefined || v === "") return undefined;
            if (c.kind === "money") return Number(v) / 100;
            if (c.kind === "enum") return { lunch: "午餐", dinner: "晚餐", cash: "现金账户", subsidy: "补贴账户", "0": c.dict === "busiType" ? "充值" : "IC卡", "2": c.dict === "busiType" ? "就餐消费" : "扫码" }[String(v)] ?? v;
            return v;
          }),
        );
        expect(sheet.rowCount).toBe(3 + shown.length);
        const written = shown.map((_, i) => {
          const cells = values(4 + i);
          return def.columns.map((_c, j) => cells[j] ?? undefined);
        });
        expect(written).toEqual(shown);
        def.columns.forEach((c, j) => {
          if (c.kind === "money") expect(sheet.getColumn(j + 1).numFmt).toBe("#,##0.00");
        });
      }
    });
  });
}
