import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { splitByShares } from "../../server/modules/report/queries-settlement";
import { dayOf, monthOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
type Answer = { filters: Record<string, string>; rows: Row[]; totals: Row };

const Z = "/api/v1/zhct";
const R = "/api/v1/report";

/** Decision 032: the settlement reports over a data set made through the real services, on SQLite and PostgreSQL. */
for (const dialect of dialects) {
  describe(`${dialect}: settlement reports (decision 032)`, () => {
    let app: TestApp;
    let superToken: string;
    let t: TenantFixture;
    const today = dayOf(Date.now());
    const month = monthOf(Date.now());
    const ids = { a: 0, b: 0, c: 0, ra: 0, d1: 0, d2: 0 };
    const codes = { a: "", b: "", c: "" };
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
      const body = await get(`${R}/${name}`, query, as);
      expect(body.status, JSON.stringify(body)).toBe(200);
      return body.data as Answer;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `rs${dialect}`);
      const org = async (orgName: string, orgType: string) => (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName, orgType, status: "1" })).id as number;
      ids.d1 = await org("教务处", "department");
      ids.d2 = await org("后勤处", "department");
      ids.ra = await org("一号餐厅", "restaurant");
      const diner = async (key: keyof typeof codes, deptId: number, staffType: string) => {
        codes[key] = `S${uid()}`;
        ids[key] = (await ok(`${Z}/userInfo/create`, { userCode: codes[key], userName: `人员${key}`, deptId, staffType })).id as number;
      };
      await diner("a", ids.d1, "教师");
      await diner("b", ids.d1, "教师");
      await diner("c", ids.d2, "职工");
      // Points: 2 per yuan.
      await ok(`${Z}/integralStrategy/create`, { strategyName: "默认", pointsPerYuan: 2, expiryMonths: 12, status: "1" });
      const topUp = (userInfoId: number, amount: number, accountType = "cash") => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType });
      await topUp(ids.a, 10000);
      await topUp(ids.a, 3000, "subsidy");
      await topUp(ids.b, 5000);
      await topUp(ids.c, 2000);

      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      const mealTime = await ok(`${Z}/mealTimes/create`, { restaurantId: ids.ra, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
      const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: `午餐${uid()}`, restaurantId: ids.ra, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
      const menu = await ok(`${Z}/foodMenu/create`, { menuDate: today, foodMenuTypeId: menuType.id, status: "0" });
      const food = await ok(`${Z}/food/create`, { foodName: "套餐", foodTypeId: category, restaurantId: ids.ra, price: 1001, onShelf: "1" });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: food.id, price: 1001, sort: 0 });
      await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });
      const pay = async (body: Row) => {
        const paid = await ok(`${Z}/cashier/pay`, { mealTimesId: mealTime.id, ...body });
        orderNos.push(String(paid.orderNo));
        return paid;
      };
      // a: 2 meals (subsidy 3000 first, then cash); b: 1 meal, cancelled; c: 1 meal.
      await pay({ userInfoId: ids.a, items: [{ foodId: food.id, quantity: 2 }] });
      await pay({ userInfoId: ids.a, items: [{ foodId: food.id, quantity: 1 }] });
      const cancelled = await pay({ userInfoId: ids.b, items: [{ foodId: food.id, quantity: 1 }] });
      await ok(`${Z}/mealOrder/cancel`, { id: cancelled.orderId, reason: "测试取消" });
      await pay({ userInfoId: ids.c, items: [{ foodId: food.id, quantity: 1 }] });

      // Meal tickets: 加班 at 15.00; c applies for 2 (approved), b for 1 (left pending); c pays one meal by ticket.
      await ok(`${Z}/mealTicketSetting/create`, { ticketType: "1", amount: 1500, status: "1", breakfast: 1, lunch: 1, dinner: 1, midnight: 1, approverRoleId: t.adminRoleId, validDays: 3 });
      const ticket = await ok(`${Z}/mealTicket/create`, { userInfoId: ids.c, ticketType: "1", ticketCount: 2, reason: "加班" });
      await ok(`${Z}/mealTicket/create`, { userInfoId: ids.b, ticketType: "1", ticketCount: 1, reason: "加班" });
      // The approval flow (decision 024) needs a second user; its result is this row.
      await app.database.db.updateTable("meal_ticket").set({ approved_status: 1 }).where("tenant_id", "=", t.tenantId).where("id", "=", ticket.id as number).execute();
      await pay({ userInfoId: ids.c, items: [{ foodId: food.id, quantity: 1 }], payFlag: 3 });

      // Merchants: 60 % and 30 % of 一号餐厅; 10 % unassigned.
      const merchant = async (merchantCode: string, merchantName: string) => (await ok("/api/v1/sys/merchant/create", { merchantCode, merchantName, status: "1" })).id;
      const m1 = await merchant(`M1${serial}`, "甲商户");
      const m2 = await merchant(`M2${serial}`, "乙商户");
      await ok(`${Z}/merchantDivide/create`, { restaurantId: ids.ra, merchantId: m1, sharePercent: 60 });
      await ok(`${Z}/merchantDivide/create`, { restaurantId: ids.ra, merchantId: m2, sharePercent: 30 });
      // Points: a adjusted by +5.
      await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: ids.a, points: 5, reason: "奖励" });
    }, 120_000);
    afterAll(async () => {
      await app.close();
    });

    test("splitByShares: whole fen, largest remainders first, always the sales", () => {
      // 2402.4, 1201.2, 400.4: the one fen left goes to the larger of the two equal remainders (.4) by share.
      expect(splitByShares(4004, [60, 30, 10])).toEqual([2403, 1201, 400]);
      expect(splitByShares(1, [50, 50])).toEqual([1, 0]);
      expect(splitByShares(100, [33, 33, 34])).toEqual([33, 33, 34]);
      expect(splitByShares(7, [33, 33, 34])).toEqual([2, 2, 3]);
      for (const sales of [0, 1, 99, 12345, 999999]) expect(splitByShares(sales, [17, 29, 54]).reduce((s, p) => s + p, 0)).toBe(sales);
    });

    test("月度结算-人员: paid split by account and ticket, refunds, net", async () => {
      const r = await report("monthlySettlementUser");
      expect(r.filters).toEqual({ fromMonth: month, toMonth: month });
      const byCode = Object.fromEntries(r.rows.map((x) => [x.userCode, [x.deptName, x.orders, x.paid, x.cash, x.subsidy, x.ticket, x.other, x.refunded, x.net]]));
      expect(byCode).toEqual({
        [codes.a]: ["教务处", 2, 3003, 3, 3000, 0, 0, 0, 3003],
        [codes.b]: ["教务处", 0, 1001, 1001, 0, 0, 0, 1001, 0],
        [codes.c]: ["后勤处", 2, 2002, 1001, 0, 1001, 0, 0, 2002],
      });
      expect(r.totals).toEqual({ userCode: "合计", orders: 4, paid: 6006, cash: 2005, subsidy: 3000, ticket: 1001, other: 0, refunded: 1001, net: 5005 });
      expect((await report("monthlySettlementUser", { deptId: ids.d2 })).rows.map((x) => x.userCode)).toEqual([codes.c]);
    });

    test("月度结算-商户: the restaurant's 实收 split by shares sums to it exactly", async () => {
      const r = await report("monthlySettlementMerchant");
      expect(r.rows.map((x) => [x.merchantName, x.restaurantName, x.sharePercent, x.orders, x.sales, x.amount])).toEqual([
        ["甲商户", "一号餐厅", 60, 4, 5005, 3003],
        ["乙商户", "一号餐厅", 30, 4, 5005, 1502],
        ["未分配", "一号餐厅", 10, 4, 5005, 500],
      ]);
      expect(r.totals).toEqual({ merchantName: "合计", amount: 5005 });
    });

    test("餐券使用汇总 and 明细: applied, approved, left, used", async () => {
      const s = await report("mealTicketSummary", { from: today, to: today });
      expect(s.rows).toEqual([
        { ticketType: "1", deptId: String(ids.d2), deptName: "后勤处", applied: 2, approved: 2, expired: 0, unused: 1, used: 1, usedAmount: 1001, returned: 0 },
        { ticketType: "1", deptId: String(ids.d1), deptName: "教务处", applied: 1, approved: 0, expired: 0, unused: 0, used: 0, usedAmount: 0, returned: 0 },
      ].sort((x, y) => x.deptName.localeCompare(y.deptName, "zh-CN")));
      expect(s.totals).toEqual({ ticketType: "合计", applied: 3, approved: 2, expired: 0, unused: 1, used: 1, usedAmount: 1001, returned: 0 });
      const d = await report("mealTicketDetail", { from: today, to: today });
      expect(d.rows.map((x) => [x.orderNo, x.userCode, x.deptName, x.ticketType, x.day, x.mealType, x.amount])).toEqual([[orderNos[4], codes.c, "后勤处", "1", today, "lunch", 1001]]);
      expect(d.totals).toEqual({ orderNo: "合计", uses: 1, amount: 1001 });
      expect((await report("mealTicketDetail", { from: today, to: today, deptId: ids.d1 })).rows).toEqual([]);
    });

    test("教师补贴: a teacher's subsidy opening, movements and closing", async () => {
      const r = await report("teacherSubsidy", { staffType: "教师" });
      expect(r.rows.map((x) => [x.userCode, x.staffType, x.opening, x.grants, x.granted, x.used, x.cleared, x.other, x.closing])).toEqual([[codes.a, "教师", 0, 0, 0, 3000, 0, 3000, 0]]);
      expect((await report("teacherSubsidy")).rows).toHaveLength(1);
      expect((await get(`${R}/teacherSubsidy`, { staffType: "教师" })).data).toMatchObject({ options: { staffType: [{ value: "教师" }, { value: "职工" }] } });
    });

    test("员工积分月结 and 积分订单统计: points per diner and month, and per day of the orders that earned them", async () => {
      const r = await report("staffPointsMonthly");
      const byCode = Object.fromEntries(r.rows.map((x) => [x.userCode, [x.month, x.opening, x.earned, x.takenBack, x.expired, x.adjusted, x.closing]]));
      // ⌊paid fen × 2 / 100⌋: a 40 + 20, +5; b 20 taken back; c 20 (the ticket meal earns nothing).
      expect(byCode).toEqual({
        [codes.a]: [month, 0, 60, 0, 0, 5, 65],
        [codes.b]: [month, 0, 20, 20, 0, 0, 0],
        [codes.c]: [month, 0, 20, 0, 0, 0, 20],
      });
      expect(r.totals).toEqual({ month: "合计", opening: 0, earned: 100, takenBack: 20, expired: 0, adjusted: 5, closing: 85 });
      const balances = await app.database.db.selectFrom("user_integral_account").select("balance").where("tenant_id", "=", t.tenantId).execute();
      expect(balances.reduce((s, b) => s + Number(b.balance), 0)).toBe(85);
      const p = await report("pointsOrderStats", { from: today, to: today });
      expect(p.rows).toEqual([{ day: today, restaurantId: String(ids.ra), restaurantName: "一号餐厅", orders: 4, paid: 5005, earned: 100, takenBack: 20, net: 80 }]);
    });

    test("bad filters are a 400 in Chinese naming the field", async () => {
      expectField(await get(`${R}/monthlySettlementUser`, { fromMonth: "2026-13" }), "fromMonth", "月份格式应为 2026-05");
      expectField(await get(`${R}/monthlySettlementUser`, { toMonth: "abc" }), "toMonth", "月份格式应为 2026-05");
      expectField(await get(`${R}/monthlySettlementUser`, { fromMonth: "2026-05", toMonth: "2026-04" }), "fromMonth", "开始月份不能晚于结束月份");
      expectField(await get(`${R}/monthlySettlementMerchant`, { fromMonth: "2024-01", toMonth: "2025-01" }), "fromMonth", "月份范围最多 12 个月");
      expectField(await get(`${R}/teacherSubsidy`, { staffType: "校长" }), "staffType", "所选人员类别不存在");
      expectField(await get(`${R}/mealTicketSummary`, { ticketType: "9" }), "ticketType", "餐券类型不是可选的值");
      expect((await get(`${R}/monthlySettlementUser`, { from: today })).status).toBe(400);
    });

    test("another tenant sees none of it", async () => {
      for (const name of ["monthlySettlementUser", "monthlySettlementMerchant", "teacherSubsidy", "staffPointsMonthly", "mealTicketDetail", "pointsOrderStats"]) {
        const other = await report(name, {}, superToken);
        expect(JSON.stringify(other.rows), name).not.toContain(codes.a);
        expect(JSON.stringify(other.rows), name).not.toContain("一号餐厅");
      }
      expectField(await get(`${R}/teacherSubsidy`, { staffType: "教师" }, superToken), "staffType", "所选人员类别不存在");
    });

    test("URL round trip and export = screen", async () => {
      for (const [name, query] of [["monthlySettlementUser", { deptId: ids.d1 }], ["monthlySettlementMerchant", {}], ["staffPointsMonthly", {}]] as const) {
        const first = await report(name, query);
        const again = await report(name, first.filters);
        expect(again.rows).toEqual(first.rows);
        const response = await app.api.handle(new Request(`http://canteen.test${R}/${name}/export?${new URLSearchParams(first.filters)}`, { headers: { Authorization: `Bearer ${t.token}` } }), "127.0.0.1");
        expect(response.status).toBe(200);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await response.arrayBuffer()) as never);
        const sheet = workbook.worksheets[0];
        const { reports } = await import("../../resources/report/index");
        const def = reports.find((r) => r.entity === name)!;
        expect((sheet.getRow(3).values as unknown[]).slice(1)).toEqual(def.columns.map((c) => c.label));
        expect(String((sheet.getRow(2).values as unknown[])[1])).toContain(`${month} 至 ${month}`);
        const shown = [...first.rows, first.totals].map((row) => def.columns.map((c) => (row[c.key] === null || row[c.key] === undefined || row[c.key] === "" ? undefined : c.kind === "money" ? Number(row[c.key]) / 100 : row[c.key])));
        expect(sheet.rowCount).toBe(3 + shown.length);
        shown.forEach((cells, i) => expect(def.columns.map((_c, j) => (sheet.getRow(4 + i).values as unknown[])[j + 1] ?? undefined)).toEqual(cells));
      }
    });
  });
}
