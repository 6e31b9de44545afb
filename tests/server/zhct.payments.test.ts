import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { up as complainantFromOrder } from "../../server/db/migrations/0044_complaint_complainant_from_order";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import type { SessionContext } from "../../server/http/endpoint";
import { ApiError, Status } from "../../server/http/envelope";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { checkAccount, openAccountsOf, post as postLine, BusiType } from "../../server/modules/zhct/ledger";
import { dayOf } from "../../server/modules/zhct/months";
import { serverModules } from "../../server/modules/index";
import type { ServerModule } from "../../server/modules/manifest";
import { refundPart } from "../../server/modules/zhct/payments";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { createUser } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;

const Z = "/api/v1/zhct";
const PAY = `${Z}/cashier/pay`;

/** HH:mm, China time, `minutes` from now (clamped to the day). */
function clock(minutes: number) {
  const at = new Date(Date.now() + 8 * 3600_000 + minutes * 60_000).toISOString().slice(11, 16);
  return at;
}

// A test module's hooks, run after the canteen's: they act only on payments that name their test devices.
const hookLog: string[] = [];
const testHooks: ServerModule = {
  declaration: { name: "test", resources: [], reports: [], menuGroups: [], screens: [] },
  services: {},
  endpoints: [],
  documentRules: {},
  ledgers: [],
  paymentHooks: [
    {
      async beforePay(_trx, facts) {
        if (facts.deviceCode === "HOOK-BLOCK") throw new ApiError(Status.CONFLICT, "该支付方式未启用");
      },
      async payOther(_trx, facts) {
        if (facts.deviceCode !== "HOOK-TICKET" || facts.payFlag !== 3) return null;
        hookLog.push(`ticket ${facts.orderNo} ${facts.amount}`);
        return { paid: true, docType: "mealTicket", docId: 4242 };
      },
      async afterPay(_trx, order) {
        if (order.paidBy.kind === "other") hookLog.push(`after ${order.orderNo}`);
      },
      async afterCancel(_trx, order, refundFen) {
        if (order.payFlag === 3) hookLog.push(`cancel ${order.orderNo} ${refundFen}`);
      },
    },
  ],
};

for (const dialect of dialects) {
  describe(`${dialect}: payments, orders, cancel and refunds`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const today = () => dayOf(Date.now());

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body;
    const call = (path: string, body: unknown, as = token, headers: Record<string, string> = {}) => app.call<unknown>("POST", path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = token, headers: Record<string, string> = {}): Promise<Row> {
      const result = await call(path, body, as, headers);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function refused(body: Row, message: string, status = 409, headers: Record<string, string> = {}) {
      const result = await call(PAY, body, token, headers);
      expect(result.http, JSON.stringify(result.body)).toBe(status);
      expect(result.body.message).toBe(message);
    }

    async function org(tenantId: number, name: string): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: tenantId, id, parent_id: null, org_name: name, org_code: null, org_type: "restaurant", sort: 0, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }
    const diner = async (extra: Row = {}, as = token) => ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: "张三", ...extra }, as);
    const topUp = (userInfoId: unknown, amount: number, accountType = "cash") => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType });
    async function balances(userInfoId: unknown): Promise<Record<string, number>> {
      const rows = await app.database.db.selectFrom("user_account").select(["account_type", "balance"]).where("user_info_id", "=", userInfoId as number).execute();
      return Object.fromEntries(rows.map((r) => [r.account_type, Number(r.balance)]));
    }
    const card = async (userInfoId: unknown) => ok(`${Z}/userIcCard/create`, { cardNo: `C${uid()}`.slice(0, 20), userInfoId, cardType: "1" });

    let category: number;
    /** An open meal time of its own restaurant (meal times of one restaurant may not overlap), with today's published menu. */
    async function canteen(dishes: Array<{ price: number; quota?: number }>, times: Partial<{ beginTime: string; endTime: string; cancelDeadline: string }> = {}, mealType = "lunch") {
      const restaurantId = await org(DEFAULT_TENANT_ID, `餐厅${uid()}`);
      const mealTime = await ok(`${Z}/mealTimes/create`, { restaurantId, mealTimeName: "午餐", mealType, beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1", ...times });
      const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: `午餐${uid()}`, restaurantId, mealType, menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
      const menu = await ok(`${Z}/foodMenu/create`, { menuDate: today(), foodMenuTypeId: menuType.id, status: "0" });
      const foods: Row[] = [];
      const items: Row[] = [];
      for (const dish of dishes) {
        const food = await ok(`${Z}/food/create`, { foodName: `菜${uid()}`, foodTypeId: category, restaurantId, price: dish.price, onShelf: "1" });
        foods.push(food);
        items.push(await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: food.id, price: dish.price, ...(dish.quota !== undefined ? { quota: dish.quota } : {}), sort: 0 }));
      }
      await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });
      return { restaurantId, mealTime, menu, foods, items };
    }
    async function sold(itemId: unknown) {
      const row = await app.database.db.selectFrom("food_menu_item").select("sold_count").where("id", "=", itemId as number).executeTakeFirstOrThrow();
      return Number(row.sold_count);
    }
    async function orderCount(tenantId = DEFAULT_TENANT_ID) {
      const row = await app.database.db.selectFrom("meal_order").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow();
      return Number(row.n);
    }
    async function lineCount() {
      const row = await app.database.db.selectFrom("user_account_ledger").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    }
    /** Balances of the diners, orders, ledger lines and sold counts: what a refusal must leave as it was. */
    async function snapshot(dinerIds: unknown[], itemIds: unknown[]) {
      return {
        balances: await Promise.all(dinerIds.map(balances)),
        orders: await orderCount(),
        lines: await lineCount(),
        sold: await Promise.all(itemIds.map(sold)),
      };
    }
    async function expectLedgerEqualsBalances() {
      const rows = await app.database.db.selectFrom("user_account").select(["tenant_id", "id"]).execute();
      for (const row of rows) {
        const { balance, ledger } = await checkAccount(app.database.db, row.tenant_id, row.id);
        expect(ledger).toBe(balance);
      }
    }
    /** Every menu item's sold count is what the live (not cancelled) orders' items hold. */
    async function expectSoldEqualsItems() {
      const items = await app.database.db.selectFrom("food_menu_item").select(["id", "sold_count"]).execute();
      const orderItems = await app.database.db
        .selectFrom("meal_order_item as i")
        .innerJoin("meal_order as o", (j) => j.onRef("o.tenant_id", "=", "i.tenant_id").onRef("o.id", "=", "i.meal_order_id"))
        .select(["i.food_menu_item_id", "i.quantity"])
        .where("o.order_status", "!=", 2)
        .execute();
      const counted = new Map<number, number>();
      for (const i of orderItems) counted.set(Number(i.food_menu_item_id), (counted.get(Number(i.food_menu_item_id)) ?? 0) + Number(i.quantity));
      for (const item of items) expect(Number(item.sold_count), `menu item ${item.id}`).toBe(counted.get(Number(item.id)) ?? 0);
    }

    beforeAll(async () => {
      app = await createTestApp(dialect, {}, [...serverModules, testHooks]);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `pay${dialect}`);
      category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id as number;
    });
    afterAll(async () => {
      await expectLedgerEqualsBalances();
      await expectSoldEqualsItems();
      await app.close();
    });

    test("a card pays for dishes priced from today's menu: subsidy first, the order, its items, sold counts and ledger lines", async () => {
      const { mealTime, foods, items } = await canteen([{ price: 1200 }, { price: 300, quota: 10 }]);
      const d = await diner();
      await topUp(d.id, 500, "subsidy");
      await topUp(d.id, 5000);
      const c = await card(d.id);
      // The client's price is never asked for: items name foods and quantities only.
      const paid = await ok(PAY, { cardNo: c.cardNo, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }, { foodId: foods[1].id, quantity: 2 }, { foodId: foods[1].id, quantity: 1 }], deviceCode: "POS-01" });
      expect(paid).toMatchObject({ amount: 2100, balance: 3400 });
      expect(String(paid.orderNo)).toMatch(new RegExp(`^${today().replaceAll("-", "")}\\d{12}$`));
      expect(await balances(d.id)).toEqual({ cash: 3400, subsidy: 0 });
      expect(await sold(items[1].id)).toBe(3);
      expect(await sold(items[0].id)).toBe(1);
      const info = (await get(`${Z}/mealOrder/getInfo`, { id: paid.orderId })).data as Row & { items: Row[]; payments: Row[] };
      expect(info).toMatchObject({ orderNo: paid.orderNo, userInfoId: d.id, amount: 2100, paidAmount: 2100, refundedAmount: 0, payFlag: "0", orderSource: "cashier", orderStatus: "1", cardNo: c.cardNo, deviceCode: "POS-01", cashierName: "admin", mealTimesId: mealTime.id, mealType: "lunch", orderDate: today() });
      expect(info.items.map((i) => [i.foodId, i.price, i.quantity, i.subtotal])).toEqual([[foods[0].id, 1200, 1, 1200], [foods[1].id, 300, 3, 900]]);
      expect(info.payments.map((p) => [p.accountType, p.busiType, p.amount])).toEqual([["subsidy", "2", -500], ["cash", "2", -1600]]);
      // The list shows it, filterable by source and status.
      const page = (await get(`${Z}/mealOrder/findPage`, { orderSource: "cashier", userInfoId: d.id })).data as { records: Row[] };
      expect(page.records.map((r) => r.orderNo)).toEqual([paid.orderNo]);
    });

    test("an amount-only sale checks the card and the balance: the diner by id, no meal time, no items", async () => {
      const d = await diner();
      await topUp(d.id, 1000);
      const paid = await ok(PAY, { userInfoId: d.id, amount: 350, payFlag: 2 });
      expect(paid).toMatchObject({ amount: 350, balance: 650 });
      const info = (await get(`${Z}/mealOrder/getInfo`, { id: paid.orderId })).data as Row & { items: Row[] };
      expect(info).toMatchObject({ mealTimesId: null, restaurantId: null, payFlag: "2", items: [] });
    });

    describe("every refusal says why and leaves balances, orders, ledger lines and sold counts as they were", () => {
      test("卡已挂失, 卡已注销/无效, an unknown card, a card of another diner", async () => {
        const d = await diner();
        await topUp(d.id, 1000);
        const lost = await card(d.id);
        const before = await snapshot([d.id], []);
        await ok(`${Z}/userIcCard/reportLoss`, { id: lost.id });
        await refused({ cardNo: lost.cardNo, amount: 100 }, "卡已挂失");
        await ok(`${Z}/userIcCard/cancel`, { id: lost.id });
        await refused({ cardNo: lost.cardNo, amount: 100 }, "卡已注销/无效");
        await refused({ cardNo: "NOSUCHCARD", amount: 100 }, "卡号不存在");
        const e = await diner();
        const theirs = await card(e.id);
        await refused({ cardNo: theirs.cardNo, userInfoId: d.id, amount: 100 }, "卡号与人员不符");
        expect(await snapshot([d.id], [])).toEqual(before);
      });

      test("余额不足（余额 12.30 元）: the total of the diner's accounts", async () => {
        const { mealTime, foods, items } = await canteen([{ price: 1500, quota: 5 }]);
        const d = await diner();
        await topUp(d.id, 1000);
        await topUp(d.id, 230, "subsidy");
        const before = await snapshot([d.id], [items[0].id]);
        await refused({ userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] }, "余额不足（余额 12.30 元）");
        await refused({ userInfoId: d.id, amount: 1231 }, "余额不足（余额 12.30 元）");
        expect(await snapshot([d.id], [items[0].id])).toEqual(before);
      });

      test("不在就餐时间: a meal time not open now, or disabled", async () => {
        const now = clock(0);
        const window = now < "12:00" ? { beginTime: "13:00", endTime: "14:00" } : { beginTime: "01:00", endTime: "02:00" };
        const { mealTime, foods, items } = await canteen([{ price: 100 }], window);
        const d = await diner();
        await topUp(d.id, 1000);
        const before = await snapshot([d.id], [items[0].id]);
        await refused({ userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] }, "不在就餐时间");
        await refused({ userInfoId: d.id, mealTimesId: mealTime.id, amount: 100 }, "不在就餐时间");
        expect(await snapshot([d.id], [items[0].id])).toEqual(before);
      });

      test("今日已达就餐次数上限 and 超出本餐次限额 by the staff type's pay limit; 超出今日消费限额 for amount-only sales", async () => {
        const staffType = `限额${uid()}`.slice(0, 20);
        await ok(`${Z}/payLimitConfig/create`, { staffType, mealType: "lunch", maxMealsPerDay: 2, maxAmountPerMeal: 1000, cashAllowed: "1", subsidyAllowed: "1", allowCredit: "0", creditLimit: 0, status: "1" });
        await ok(`${Z}/payLimitConfig/create`, { staffType, mealType: "all", maxAmountPerMeal: 500, cashAllowed: "1", subsidyAllowed: "0", allowCredit: "0", creditLimit: 0, status: "1" });
        const { mealTime, foods, items } = await canteen([{ price: 400 }]);
        const d = await diner({ staffType });
        await topUp(d.id, 5000);
        await topUp(d.id, 300, "subsidy");
        const dish = (quantity: number) => ({ userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity }] });
        await ok(PAY, dish(2));
        let before = await snapshot([d.id], [items[0].id]);
        await refused(dish(1), "超出本餐次限额");
        expect(await snapshot([d.id], [items[0].id])).toEqual(before);
        await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, amount: 200 });
        before = await snapshot([d.id], [items[0].id]);
        await refused({ userInfoId: d.id, mealTimesId: mealTime.id, amount: 1 }, "今日已达就餐次数上限");
        expect(await snapshot([d.id], [items[0].id])).toEqual(before);
        // Amount-only: the whole day's rule (cash only, 5.00 a day).
        const shop = await ok(PAY, { userInfoId: d.id, amount: 300 });
        expect(shop.balance).toBe(5300 - 1000 - 300);
        before = await snapshot([d.id], []);
        await refused({ userInfoId: d.id, amount: 201 }, "超出今日消费限额");
        expect(await snapshot([d.id], [])).toEqual(before);
        // Cash only: the subsidy stays untouched by the shop.
        expect((await balances(d.id)).subsidy).toBe(0);
      });

      test("该菜品已售罄: the quota holds, the whole order is refused", async () => {
        const { mealTime, foods, items } = await canteen([{ price: 100, quota: 2 }, { price: 200 }]);
        const d = await diner();
        await topUp(d.id, 5000);
        await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 2 }] });
        const before = await snapshot([d.id], [items[0].id, items[1].id]);
        await refused({ userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[1].id, quantity: 1 }, { foodId: foods[0].id, quantity: 1 }] }, "该菜品已售罄");
        expect(await snapshot([d.id], [items[0].id, items[1].id])).toEqual(before);
      });

      test("a ticket payment no module pays is 该支付方式未启用; a beforePay hook refuses; a payOther hook pays without the ledger", async () => {
        hookLog.length = 0;
        const { mealTime, foods, items } = await canteen([{ price: 800 }]);
        const d = await diner();
        await topUp(d.id, 5000);
        const dish = { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] };
        const before = await snapshot([d.id], [items[0].id]);
        for (const payFlag of [3, 4, 5, 7]) await refused({ ...dish, payFlag }, "该支付方式未启用");
        await refused({ ...dish, deviceCode: "HOOK-BLOCK" }, "该支付方式未启用");
        expect(await snapshot([d.id], [items[0].id])).toEqual(before);
        const byTicket = await ok(PAY, { ...dish, payFlag: 3, deviceCode: "HOOK-TICKET" });
        expect(byTicket).toMatchObject({ amount: 800, balance: 5000 });
        expect(hookLog).toEqual([`ticket ${byTicket.orderNo} 800`, `after ${byTicket.orderNo}`]);
        const cancelled = await ok(`${Z}/mealOrder/cancel`, { id: byTicket.orderId, reason: "测试取消" });
        expect(cancelled).toMatchObject({ refundAmount: 0, balance: 5000 });
        expect(hookLog.at(-1)).toBe(`cancel ${byTicket.orderNo} 0`);
        expect(await sold(items[0].id)).toBe(0);
      });
    });

    test("a retry with the same Idempotency-Key charges once; another body with the key is 409; a refused payment's retry runs again", async () => {
      const d = await diner();
      await topUp(d.id, 1000);
      const key = { "Idempotency-Key": `pay-${uid()}` };
      const first = await ok(PAY, { userInfoId: d.id, amount: 300 }, token, key);
      const retries = await Promise.all(Array.from({ length: 5 }, () => call(PAY, { amount: 300, userInfoId: d.id }, token, key)));
      for (const retry of retries) expect(retry.body.data).toEqual(first);
      expect(await balances(d.id)).toMatchObject({ cash: 700 });
      const changed = await call(PAY, { userInfoId: d.id, amount: 301 }, token, key);
      expect(changed.http).toBe(409);
      expect(changed.body.message).toMatch(/Idempotency-Key 已用于另一笔内容不同的请求/);
      const orders = (await get(`${Z}/mealOrder/findPage`, { userInfoId: d.id })).data as { records: Row[] };
      expect(orders.records).toHaveLength(1);
      const again = { "Idempotency-Key": `pay-${uid()}` };
      await refused({ userInfoId: d.id, amount: 800 }, "余额不足（余额 7.00 元）", 409, again);
      await topUp(d.id, 100);
      expect(await ok(PAY, { userInfoId: d.id, amount: 800 }, token, again)).toMatchObject({ balance: 0 });
    });

    test("cancel gives back to exactly the accounts that paid, returns the sold counts, once", async () => {
      const { mealTime, foods, items } = await canteen([{ price: 250, quota: 4 }]);
      const d = await diner();
      await topUp(d.id, 300, "subsidy");
      await topUp(d.id, 1000);
      const paid = await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 2 }] });
      expect(await balances(d.id)).toEqual({ cash: 1000 - 200, subsidy: 0 });
      expect(await sold(items[0].id)).toBe(2);
      // A cancel says why (decision 055): none, or only spaces, is 400 on the field reason and nothing moves.
      expectField((await call(`${Z}/mealOrder/cancel`, { id: paid.orderId })).body, "reason", "请输入取消原因");
      expectField((await call(`${Z}/mealOrder/cancel`, { id: paid.orderId, reason: "   " })).body, "reason", "请输入取消原因");
      expect(await balances(d.id)).toEqual({ cash: 1000 - 200, subsidy: 0 });
      expect(await sold(items[0].id)).toBe(2);
      const result = await ok(`${Z}/mealOrder/cancel`, { id: paid.orderId, reason: "点错了" }, token, { "Idempotency-Key": `c-${uid()}` });
      expect(result).toMatchObject({ orderStatus: "2", refundAmount: 500, balance: 1300 });
      expect(await balances(d.id)).toEqual({ cash: 1000, subsidy: 300 });
      expect(await sold(items[0].id)).toBe(0);
      const info = (await get(`${Z}/mealOrder/getInfo`, { id: paid.orderId })).data as Row & { payments: Row[] };
      expect(info).toMatchObject({ orderStatus: "2", refundedAmount: 500, cancelReason: "点错了", cancelledByName: "admin" });
      expect(info.payments.map((p) => [p.accountType, p.busiType, p.amount])).toEqual([["subsidy", "2", -300], ["cash", "2", -200], ["subsidy", "6", 300], ["cash", "6", 200]]);
      expect(info.payments.filter((p) => p.busiType === "6").map((p) => p.remark)).toEqual(["取消订单：点错了", "取消订单：点错了"]);
      const twice = await call(`${Z}/mealOrder/cancel`, { id: paid.orderId });
      expect(twice.http).toBe(409);
      expect(twice.body.message).toBe("该订单已取消");
      // Two cancels racing: one refunds, the other is 409.
      const again = await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] });
      const race = await Promise.all([1, 2, 3].map(() => call(`${Z}/mealOrder/cancel`, { id: again.orderId, reason: "测试取消" })));
      expect(race.filter((r) => r.body.status === 200)).toHaveLength(1);
      expect(race.filter((r) => r.http === 409 && r.body.message === "该订单已取消")).toHaveLength(2);
      expect(await balances(d.id)).toEqual({ cash: 1000, subsidy: 300 });
    });

    test("after the cancel deadline only a manager (cancelLate) cancels, with a reason", async () => {
      const { mealTime, foods } = await canteen([{ price: 100 }], { cancelDeadline: "00:00" });
      const d = await diner();
      await topUp(d.id, 1000);
      const paid = await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] });
      // A clerk with 取消订单 but not 超时取消.
      const role = await ok(`/api/v1/auth/role/create`, { roleName: `收银员${uid()}`, roleCode: `clerk${uid()}`, roleType: "user", status: "1" });
      const menus = await app.database.db.selectFrom("menu").select("id").where("permission", "in", ["zhct:mealOrder:view", "zhct:mealOrder:cancel", "zhct:mealOrder:pay"]).execute();
      await ok(`/api/v1/auth/role/assignMenu`, { roleId: role.id, menuIds: menus.map((m) => m.id) });
      const name = `clerk${uid()}`;
      await createUser(app, { userName: name, password: "Clerk-Pass-2026", roleIds: [role.id as number] });
      const clerk = await loginAs(app, name, "Clerk-Pass-2026");
      const byClerk = await call(`${Z}/mealOrder/cancel`, { id: paid.orderId, reason: "迟到" }, clerk);
      expect(byClerk.http).toBe(409);
      expect(byClerk.body.message).toBe("取消截止时间已过，需要主管填写原因后取消");
      expectField((await call(`${Z}/mealOrder/cancel`, { id: paid.orderId })).body, "reason", "取消截止时间已过，需要主管填写原因后取消");
      expect(await balances(d.id)).toMatchObject({ cash: 900 });
      await ok(`${Z}/mealOrder/cancel`, { id: paid.orderId, reason: "主管同意：系统故障" });
      expect(await balances(d.id)).toMatchObject({ cash: 1000 });
      // The manager's own endpoint: a reason is required; the clerk without 超时取消 is refused.
      const late = await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] });
      expect((await call(`${Z}/mealOrder/cancelLate`, { id: late.orderId, reason: "迟到" }, clerk)).http).toBe(403);
      expectField((await call(`${Z}/mealOrder/cancelLate`, { id: late.orderId })).body, "reason", "请输入取消原因");
      expect(await ok(`${Z}/mealOrder/cancelLate`, { id: late.orderId, reason: "主管：设备故障重复扣款" })).toMatchObject({ refundAmount: 100 });
      // The clerk cashes in, but may not cancel late or see the 超时取消 permission's effect.
      expect((await call(PAY, { userInfoId: d.id, amount: 100 }, clerk)).body.status).toBe(200);
    });

    test("refundPart: part of an order back through the ledger, never more than was paid", async () => {
      const d = await diner();
      await topUp(d.id, 200, "subsidy");
      await topUp(d.id, 1000);
      const paid = await ok(PAY, { userInfoId: d.id, amount: 600 });
      const ctx = { services: { db: app.database.db, dialect: app.database.dialect }, session: { tenantId: DEFAULT_TENANT_ID, homeTenantId: DEFAULT_TENANT_ID, userId: 1, userName: "admin" }, now: Date.now(), ip: "127.0.0.1" } as unknown as SessionContext;
      const run = (amount: number) => inWriteTransaction(app.database.db, app.database.dialect, (trx) => refundPart(trx, ctx, { orderId: paid.orderId as number, amount, reason: "菜品有异物", docType: "mealOrderComplaints", docId: 7 }));
      // The cash paid last (400) comes back first.
      expect(await run(450)).toMatchObject({ refunded: 450, refundedAmount: 450, orderStatus: "3" });
      expect(await balances(d.id)).toEqual({ cash: 1000, subsidy: 50 });
      await expect(run(151)).rejects.toMatchObject({ status: 409, message: "退款金额超过订单可退金额（可退 1.50 元）" });
      expect(await balances(d.id)).toEqual({ cash: 1000, subsidy: 50 });
      expect(await run(150)).toMatchObject({ refundedAmount: 600, orderStatus: "4" });
      await expect(run(1)).rejects.toMatchObject({ status: 409, message: "退款金额超过订单可退金额（可退 0.00 元）" });
      // A cancel after a full refund gives back nothing more.
      expect(await ok(`${Z}/mealOrder/cancel`, { id: paid.orderId, reason: "测试取消" })).toMatchObject({ refundAmount: 0, balance: 1200 });
    });

    test("a complaint upheld with a refund gives part of its order back in the same transaction; never more than was paid", async () => {
      const d = await diner();
      await topUp(d.id, 1000);
      const paid = await ok(PAY, { userInfoId: d.id, amount: 800 });
      const complaint = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: paid.orderNo, orderId: paid.orderId, content: "菜里有头发" });
      // The process page's order: the diner, paid, refunded and what may still be refunded.
      expect((await get(`${Z}/mealOrderComplaints/order`, { id: complaint.id })).data).toMatchObject({ orderId: paid.orderId, orderNo: paid.orderNo, userName: "张三", paidAmount: 800, refundedAmount: 0, refundable: 800 });
      const over = await call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实", refundAmount: 801 });
      expect(over.http).toBe(409);
      expect(over.body.message).toBe("退款金额超过订单可退金额（可退 8.00 元）");
      expect(((await get(`${Z}/mealOrderComplaints/getInfo`, { id: complaint.id })).data as Row).status).toBe("0");
      expectField((await call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "rejected", reply: "不属实", refundAmount: 100 })).body, "refundAmount", "驳回的申诉不能退款");
      expectField((await call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实", refundAmount: "1e400" })).body, "refundAmount", /退款金额/);
      expect(await balances(d.id)).toMatchObject({ cash: 200 });
      const done = await ok(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实，退 3 元", refundAmount: 300 });
      expect(done).toMatchObject({ status: "2", refundAmount: 300, orderId: paid.orderId });
      expect(await balances(d.id)).toMatchObject({ cash: 500 });
      const info = (await get(`${Z}/mealOrder/getInfo`, { id: paid.orderId })).data as Row & { payments: Row[] };
      expect(info).toMatchObject({ refundedAmount: 300, orderStatus: "3" });
      expect(info.payments.map((p) => [p.busiType, p.amount])).toEqual([["2", -800], ["6", 300]]);
      // The ledger line names the complaint in words, not by its code (mealOrderComplaints#id).
      expect(info.payments[1].remark).toBe(`部分退款（订餐申诉 ${complaint.id}）：属实，退 3 元`);
      expect((await get(`${Z}/mealOrderComplaints/order`, { id: complaint.id })).data).toMatchObject({ paidAmount: 800, refundedAmount: 300, refundable: 500 });
      // A complaint named only by its order number finds the order; the rest of the order is refundable once.
      const second = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: paid.orderNo, content: "再次申诉" });
      expect((await call(`${Z}/mealOrderComplaints/process`, { id: second.id, result: "processed", reply: "全退", refundAmount: 501 })).http).toBe(409);
      await ok(`${Z}/mealOrderComplaints/process`, { id: second.id, result: "processed", reply: "全退", refundAmount: 500 });
      expect(await balances(d.id)).toMatchObject({ cash: 1000 });
      expect(((await get(`${Z}/mealOrder/getInfo`, { id: paid.orderId })).data as Row).orderStatus).toBe("4");
      // Five handlers at once, 3.00 each, on an 8.00 order: two refunds fit, the rest are refused, nothing more moves.
      const order2 = await ok(PAY, { userInfoId: d.id, amount: 800 });
      const many = await Promise.all([1, 2, 3, 4, 5].map((n) => ok(`${Z}/mealOrderComplaints/create`, { orderNo: order2.orderNo, orderId: order2.orderId, content: `并发申诉 ${n}` })));
      const results = await Promise.all(many.map((c) => call(`${Z}/mealOrderComplaints/process`, { id: c.id, result: "processed", reply: "属实", refundAmount: 300 })));
      expect(results.filter((r) => r.body.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.http === 409 && /^退款金额超过订单可退金额/.test(r.body.message))).toHaveLength(3);
      expect(((await get(`${Z}/mealOrder/getInfo`, { id: order2.orderId })).data as Row).refundedAmount).toBe(600);
      expect(await balances(d.id)).toMatchObject({ cash: 1000 - 800 + 600 });
      await topUp(d.id, 200);
      // Without a refund a complaint is processed as before.
      const plain = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: "NOORDER", content: "服务态度" });
      expect((await get(`${Z}/mealOrderComplaints/order`, { id: plain.id })).data).toBeNull();
      // Migration 0044: a complaint recorded without a complainant gets its order's diner; one with a name keeps it.
      const nameless = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: order2.orderNo, content: "无申诉人" });
      await app.database.db.updateTable("meal_order_complaints").set({ complainant_name: null }).where("id", "=", nameless.id as number).execute();
      await complainantFromOrder(app.database.db);
      expect(((await get(`${Z}/mealOrderComplaints/getInfo`, { id: nameless.id })).data as Row).complainantName).toBe("张三");
      expect(((await get(`${Z}/mealOrderComplaints/getInfo`, { id: plain.id })).data as Row).complainantName).toBe("系统管理员");
      await ok(`${Z}/mealOrderComplaints/process`, { id: plain.id, result: "processed", reply: "已批评教育" });
    });

    test("hostile input is a 400 naming the field; another tenant's card, diner or meal time is not found", async () => {
      const d = await diner();
      await topUp(d.id, 1000);
      const before = await snapshot([d.id], []);
      expectField((await call(PAY, { cardNo: "a\u0000b", amount: 1 })).body, "cardNo", /无法保存/);
      expectField((await call(PAY, { userInfoId: d.id, amount: "1e400" })).body, "amount", /金额/);
      expectField((await call(PAY, { userInfoId: d.id, amount: 1e300 })).body, "amount", /金额/);
      expectField((await call(PAY, { userInfoId: d.id, amount: "abc" })).body, "amount", /金额必须是以分为单位的整数/);
      expectField((await call(PAY, { userInfoId: d.id, amount: 1.5 })).body, "amount", /以分为单位的整数/);
      expectField((await call(PAY, { userInfoId: d.id, amount: 1_000_001 })).body, "amount", /金额不能大于/);
      expectField((await call(PAY, { userInfoId: "x", amount: 1 })).body, "userInfoId", /人员/);
      expectField((await call(PAY, { userInfoId: d.id, amount: 1, payFlag: 42 })).body, "payFlag", "支付方式不是可选的值");
      expectField((await call(PAY, { userInfoId: d.id, amount: 1, payFlag: "现金" })).body, "payFlag", /支付方式/);
      expectField((await call(PAY, { userInfoId: d.id, amount: 1, payFlag: 500 })).body, "payFlag", "自动扣款不能用于收银");
      expectField((await call(PAY, { userInfoId: d.id, mealTimesId: 1, items: [{ foodId: "1; drop table", quantity: 1 }] })).body, "items.0.foodId", /菜品/);
      expectField((await call(PAY, { userInfoId: d.id, mealTimesId: 1, items: [{ foodId: 1, quantity: 0 }] })).body, "items.0.quantity", /数量/);
      expect((await call(PAY, { userInfoId: d.id, mealTimesId: 1, items: "lots" })).body.status).toBe(400);
      expect((await call(PAY, { userInfoId: d.id, amount: 1, price: 0 })).body.status).toBe(400);
      expectField((await call(PAY, { amount: 1 })).body, "cardNo", "请刷卡或选择人员");
      expectField((await call(PAY, { userInfoId: d.id })).body, "items", "请选择菜品或输入金额");
      expectField((await call(PAY, { userInfoId: d.id, items: [{ foodId: 1, quantity: 1 }] })).body, "mealTimesId", "按菜品收款时请选择餐次");
      expect((await app.call("POST", PAY, { token, rawBody: "{not json" })).body.status).toBe(400);
      // Another tenant's diner, card, meal time.
      const theirs = await diner({}, other.token);
      const theirCard = await ok(`${Z}/userIcCard/create`, { cardNo: `T${uid()}`.slice(0, 20), userInfoId: theirs.id, cardType: "1" }, other.token);
      expectField((await call(PAY, { userInfoId: theirs.id, amount: 1 })).body, "userInfoId", "人员不存在");
      await refused({ cardNo: theirCard.cardNo, amount: 1 }, "卡号不存在");
      const { mealTime, foods } = await canteen([{ price: 100 }]);
      const mine = await ok(PAY, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] });
      expect((await call(PAY, { userInfoId: theirs.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0].id, quantity: 1 }] }, other.token)).body).toMatchObject({ status: 400 });
      expect((await get(`${Z}/mealOrder/getInfo`, { id: mine.orderId }, other.token)).status).toBe(404);
      expect((await call(`${Z}/mealOrder/cancel`, { id: mine.orderId }, other.token)).http).toBe(404);
      expect(await orderCount(other.tenantId)).toBe(0);
      await ok(`${Z}/mealOrder/cancel`, { id: mine.orderId, reason: "测试取消" });
      expect(await snapshot([d.id], [])).toMatchObject({ balances: before.balances });
    });

    test("20 cashiers charging 1,000 diners at once: ledger = balances, sold counts = order items, quotas hold", async () => {
      const { mealTime, foods, items } = await canteen([{ price: 700, quota: 300 }, { price: 500 }]);
      const { db, dialect: dia } = app.database;
      // 1,000 diners and their top-ups, written in bulk (the API's create is tested above).
      const now = Date.now();
      const ids = Array.from({ length: 1000 }, () => newId());
      for (let i = 0; i < ids.length; i += 200) {
        await db
          .insertInto("user_info")
          .values(ids.slice(i, i + 200).map((id, j) => ({ tenant_id: DEFAULT_TENANT_ID, id, user_code: `B${uid()}${j}`, user_name: `食客${i + j}`, audit_status: 1, user_status: 1, created_at: now, created_by: null, updated_at: now, updated_by: null })))
          .execute();
      }
      await inWriteTransaction(db, dia, async (trx) => {
        await openAccountsOf(trx, DEFAULT_TENANT_ID, ids, now);
        // Every tenth diner has too little for the cheaper dish.
        for (const [i, id] of ids.entries()) await postLine(trx, { tenantId: DEFAULT_TENANT_ID, userInfoId: id, accountType: "cash", amount: i % 10 === 0 ? 100 : 1000, busiType: BusiType.TOP_UP, payFlag: 0 });
      });
      const orders0 = await orderCount();
      const queue = ids.map((id, i) => ({ id, i }));
      const results: Array<{ status: number; message: string; i: number }> = [];
      await Promise.all(
        Array.from({ length: 20 }, async (_, cashier) => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            // Odd diners want the dish with a quota of 300 (500 of them ask): the rest sell out.
            const foodId = next.i % 2 ? foods[0].id : foods[1].id;
            const r = await call(PAY, { userInfoId: next.id, mealTimesId: mealTime.id, items: [{ foodId, quantity: 1 }], deviceCode: `POS-${cashier}` }, token, { "Idempotency-Key": `bulk-${next.id}` });
            results.push({ status: r.http, message: r.body.message, i: next.i });
          }
        }),
      );
      const paid = results.filter((r) => r.status === 200);
      expect(results.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
      expect(results.filter((r) => r.status === 409 && r.message.startsWith("余额不足")).map((r) => r.i % 10)).toEqual(Array(100).fill(0));
      expect(await sold(items[0].id)).toBe(300);
      // The poor diners are all even (they want the cheaper dish): 300 of the 500 odd ones get the dish with a quota.
      expect(results.filter((r) => r.message === "该菜品已售罄")).toHaveLength(200);
      expect(await sold(items[1].id)).toBe(400);
      expect(paid).toHaveLength(700);
      expect((await orderCount()) - orders0).toBe(700);
      const spent = await db.selectFrom("user_account_ledger").select((eb) => eb.fn.sum<number>("amount").as("s")).where("user_info_id", "in", ids).where("busi_type", "=", BusiType.CONSUME).executeTakeFirstOrThrow();
      expect(-Number(spent.s)).toBe(300 * 700 + 400 * 500);
      await expectLedgerEqualsBalances();
      await expectSoldEqualsItems();
    }, 180_000);
  });
}
