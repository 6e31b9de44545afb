import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { clockOf } from "../../server/modules/zhct/cashier";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
type Counter = {
  date: string;
  restaurants: Array<{ id: number; name: string }>;
  restaurantId: number | null;
  mealTimes: Array<{ id: number; name: string }>;
  mealTimesId: number;
  openMealTimesId: number | null;
  dishes: Array<{ foodId: number; foodName: string; price: number; quota: number | null; soldCount: number }>;
  payFlags: Array<{ value: string; label: string }>;
};

const Z = "/api/v1/zhct";

/** `HH:mm` shifted by some minutes, kept within the day (a meal time cannot cross midnight). */
function clockPlus(minutes: number) {
  const [h, m] = clockOf(Date.now()).split(":").map(Number) as [number, number];
  const total = Math.min(23 * 60 + 58, (((h * 60 + m + minutes) % 1440) + 1440) % 1440);
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

for (const dialect of dialects) {
  describe(`${dialect}: the cashier's counter and diner lookup`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, as ? { token: as } : {})).body as Envelope;
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await app.call<unknown>("POST", path, { token: as, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function org(tenantId: number, name: string, type = "restaurant", sort = 0): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: tenantId, id, parent_id: null, org_name: name, org_code: null, org_type: type, sort, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }

    let restaurant: number;
    let quiet: number;
    let allDay: Row;
    let later: Row;
    let braised: Row;
    let greens: Row;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `cs${dialect}`);
      // Sorted first: the counter opens at this restaurant when none is chosen.
      restaurant = await org(1, `收银餐厅${uid()}`, "restaurant", -10);
      quiet = await org(1, `小卖部${uid()}`, "restaurant", -9);
      allDay = await ok(`${Z}/mealTimes/create`, { restaurantId: restaurant, mealTimeName: "全天", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
      // At the other restaurant a meal time twelve hours away: none is open now.
      later = await ok(`${Z}/mealTimes/create`, { restaurantId: quiet, mealTimeName: "夜宵", mealType: "midnight", beginTime: clockPlus(720), endTime: clockPlus(721), orderDaysAhead: 0, standardPrice: "0", status: "1" });
      const category = await ok(`${Z}/foodType/create`, { typeName: `类${uid()}`, sort: 0, status: "1" });
      braised = await ok(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: category.id, restaurantId: restaurant, price: 1200, onShelf: "1" });
      greens = await ok(`${Z}/food/create`, { foodName: "清炒时蔬", foodTypeId: category.id, restaurantId: restaurant, price: 600, onShelf: "1" });
      const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: `午餐${uid()}`, restaurantId: restaurant, mealType: "lunch", menuMode: "2", mealTimeId: allDay.id, sort: 0, status: "1" });
      const today = dayOf(Date.now());
      const menu = await ok(`${Z}/foodMenu/create`, { menuDate: today, foodMenuTypeId: menuType.id, status: "0" });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: braised.id, quota: 50, sort: 0 });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: greens.id, price: 550, sort: 1 });
      await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });
      // An unpublished menu of the same meal time sells nothing.
      const draftType = await ok(`${Z}/foodMenuType/create`, { typeName: `草稿${uid()}`, restaurantId: restaurant, mealType: "lunch", menuMode: "2", mealTimeId: allDay.id, sort: 1, status: "1" });
      const draft = await ok(`${Z}/foodMenu/create`, { menuDate: today, foodMenuTypeId: draftType.id, status: "0" });
      const hidden = await ok(`${Z}/food/create`, { foodName: "未发布菜", foodTypeId: category.id, restaurantId: restaurant, price: 100, onShelf: "1" });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: draft.id, foodId: hidden.id, sort: 0 });
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("the counter opens at the first restaurant, at the meal time open now, with today's published dishes in menu order", async () => {
      const body = await get(`${Z}/cashier/counter`);
      expect(body.status, JSON.stringify(body)).toBe(200);
      const counter = body.data as Counter;
      expect(counter.date).toBe(dayOf(Date.now()));
      expect(counter.restaurantId).toBe(restaurant);
      expect(counter.restaurants.map((r) => r.id).slice(0, 2)).toEqual([restaurant, quiet]);
      expect(counter.mealTimesId).toBe(allDay.id);
      expect(counter.openMealTimesId).toBe(allDay.id);
      expect(counter.dishes.map((d) => [d.foodName, d.price, d.quota, d.soldCount])).toEqual([
        ["红烧肉", 1200, 50, 0],
        ["清炒时蔬", 550, null, 0],
      ]);
      expect(counter.payFlags.map((p) => p.label)).toEqual(["IC卡", "扫码", "刷脸"]);
    });

    test("the counter offers the pay types enabled at its restaurant, under their configured names", async () => {
      const disabled = await ok(`${Z}/payType/create`, { payFlag: "2", restaurantId: restaurant, enabled: "0", sort: 0 });
      const renamed = await ok(`${Z}/payType/create`, { payFlag: "1", enabled: "1", displayName: "人脸支付", sort: 0 });
      try {
        const counter = (await get(`${Z}/cashier/counter`, { restaurantId: restaurant })).data as Counter;
        expect(counter.payFlags).toEqual([{ value: "0", label: "IC卡" }, { value: "1", label: "人脸支付" }]);
        const elsewhere = (await get(`${Z}/cashier/counter`, { restaurantId: quiet })).data as Counter;
        expect(elsewhere.payFlags.map((p) => p.label)).toEqual(["IC卡", "扫码", "人脸支付"]);
      } finally {
        await ok(`${Z}/payType/deleteBatch`, { ids: [disabled.id, renamed.id] });
      }
    });

    test("a chosen restaurant with no meal time open has none chosen; 0 chooses none; a meal time of another restaurant is not taken", async () => {
      const atQuiet = (await get(`${Z}/cashier/counter`, { restaurantId: quiet })).data as Counter;
      expect(atQuiet).toMatchObject({ restaurantId: quiet, mealTimesId: 0, openMealTimesId: null, dishes: [] });
      expect(atQuiet.mealTimes.map((m) => m.id)).toEqual([later.id]);
      const chosen = (await get(`${Z}/cashier/counter`, { restaurantId: quiet, mealTimesId: later.id })).data as Counter;
      expect(chosen.mealTimesId).toBe(later.id);
      const none = (await get(`${Z}/cashier/counter`, { restaurantId: restaurant, mealTimesId: 0 })).data as Counter;
      expect(none).toMatchObject({ mealTimesId: 0, openMealTimesId: allDay.id, dishes: [] });
      const foreign = (await get(`${Z}/cashier/counter`, { restaurantId: restaurant, mealTimesId: later.id })).data as Counter;
      expect(foreign.mealTimesId).toBe(allDay.id);
      const bad = await get(`${Z}/cashier/counter`, { restaurantId: "abc" });
      expect(bad.status).toBe(400);
      expect(bad.message).toMatch(/餐厅/);
    });

    test("lookup: a card no first, then a diner code; name, department, card and balances; a lost card is refused at once", async () => {
      const dept = await org(1, "后勤部", "department");
      const diner = await ok(`${Z}/userInfo/create`, { userCode: `C${uid()}`, userName: "李收银", deptId: dept, staffType: "正式员工" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 5000 });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 1230, accountType: "subsidy" });
      const cardNo = `K${uid()}`.toUpperCase();
      const card = await ok(`${Z}/userIcCard/create`, { cardNo, userInfoId: diner.id, cardType: "1" });

      const byCard = await get(`${Z}/cashier/lookup`, { code: ` ${cardNo} ` });
      expect(byCard.data).toEqual({
        userInfoId: diner.id,
        userCode: diner.userCode,
        userName: "李收银",
        deptName: "后勤部",
        staffType: "正式员工",
        faceImage: null,
        userStatus: "1",
        matched: "card",
        card: { cardNo, cardStatus: "1" },
        cash: 5000,
        subsidy: 1230,
        balance: 6230,
      });
      const byCode = await get(`${Z}/cashier/lookup`, { code: diner.userCode as string });
      expect(byCode.data).toMatchObject({ userInfoId: diner.id, matched: "code", card: { cardNo, cardStatus: "1" }, balance: 6230 });

      await ok(`${Z}/userIcCard/reportLoss`, { id: card.id });
      const lost = await app.call<unknown>("GET", `${Z}/cashier/lookup?code=${cardNo}`, { token });
      expect(lost.http).toBe(409);
      expect(lost.body).toMatchObject({ status: 409, message: "卡已挂失" });
      // The diner's own code still finds the diner, showing the lost card.
      expect((await get(`${Z}/cashier/lookup`, { code: diner.userCode as string })).data).toMatchObject({ card: { cardNo, cardStatus: "2" } });
      await ok(`${Z}/userIcCard/cancel`, { id: card.id, reason: "卡已损坏" });
      expect(await get(`${Z}/cashier/lookup`, { code: cardNo })).toMatchObject({ status: 409, message: "卡已注销/无效" });
      // A new card after the old one: the diner's code shows the one that pays.
      const newCard = `N${uid()}`.toUpperCase();
      await ok(`${Z}/userIcCard/create`, { cardNo: newCard, userInfoId: diner.id, cardType: "1" });
      expect((await get(`${Z}/cashier/lookup`, { code: diner.userCode as string })).data).toMatchObject({ matched: "code", card: { cardNo: newCard, cardStatus: "1" } });
    });

    test("lookup refuses what is not there or not a code, and another tenant's cards and diners are not there", async () => {
      const missing = await app.call<unknown>("GET", `${Z}/cashier/lookup?code=NOPE404`, { token });
      expect(missing.http).toBe(404);
      expect(missing.body.message).toBe("未找到卡号或人员编号「NOPE404」");
      expect((await get(`${Z}/cashier/lookup`, {})).status).toBe(400);
      expect((await get(`${Z}/cashier/lookup`, { code: "a\u0000b" })).status).toBe(400);
      expect((await get(`${Z}/cashier/lookup`, { code: "x".repeat(65) })).status).toBe(400);

      const theirs = await ok(`${Z}/userInfo/create`, { userCode: `O${uid()}`, userName: "外租户" }, other.token);
      const theirCard = `T${uid()}`.toUpperCase();
      await ok(`${Z}/userIcCard/create`, { cardNo: theirCard, userInfoId: theirs.id, cardType: "1" }, other.token);
      expect((await get(`${Z}/cashier/lookup`, { code: theirCard }, other.token)).data).toMatchObject({ userName: "外租户" });
      expect((await get(`${Z}/cashier/lookup`, { code: theirCard })).status).toBe(404);
      expect((await get(`${Z}/cashier/lookup`, { code: theirs.userCode as string })).status).toBe(404);
      // Their counter holds none of our restaurants.
      const theirCounter = (await get(`${Z}/cashier/counter`, {}, other.token)).data as Counter;
      expect(theirCounter.restaurants.map((r) => r.id)).not.toContain(restaurant);
      expect((await get(`${Z}/cashier/counter`, { restaurantId: restaurant }, other.token)).data).not.toMatchObject({ restaurantId: restaurant });
      expect((await get(`${Z}/cashier/lookup`, { code: theirCard }, "")).status).toBe(401);
    });

    test("the print summary's totals, by payment method and by meal time, equal the sums of the counter's orders; filters and bad times", async () => {
      const diner = await ok(`${Z}/userInfo/create`, { userCode: `S${uid()}`, userName: "汇总" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 100_000 });
      const cardNo = `S${uid()}`.toUpperCase();
      await ok(`${Z}/userIcCard/create`, { cardNo, userInfoId: diner.id, cardType: "1" });
      const pay = async (body: Row) => {
        const result = await app.call<unknown>("POST", `${Z}/cashier/pay`, { token, body, headers: { "Idempotency-Key": `p-${uid()}` } });
        expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
        return result.body.data as { orderId: number; amount: number };
      };
      const first = await pay({ cardNo, items: [{ foodId: braised.id, quantity: 2 }], mealTimesId: allDay.id });
      await pay({ userInfoId: diner.id, items: [{ foodId: greens.id, quantity: 1 }], mealTimesId: allDay.id, payFlag: 1 });
      await pay({ cardNo, amount: 350, payFlag: 2 });
      await pay({ cardNo, amount: 120 });
      await ok(`${Z}/mealOrder/cancel`, { id: first.orderId, reason: "点错" });

      type Summary = { totals: Row; byPayFlag: Row[]; byMealTime: Row[]; cashiers: Array<{ id: number; name: string }>; from: string; to: string };
      const summary = (await get(`${Z}/cashierPrint/summary`)).data as Summary;
      const today = dayOf(Date.now());
      expect(summary.from).toBe(`${today}T00:00`);
      // The same figures straight from the orders.
      const orders = await app.database.db.selectFrom("meal_order").select(["pay_flag", "meal_times_id", "paid_amount", "refunded_amount", "cashier_id"]).where("tenant_id", "=", 1).where("order_source", "=", "cashier").execute();
      const sum = (rows: typeof orders) => {
        const amount = rows.reduce((s, o) => s + Number(o.paid_amount), 0);
        const refunded = rows.reduce((s, o) => s + Number(o.refunded_amount), 0);
        return { count: rows.length, amount, refundCount: rows.filter((o) => Number(o.refunded_amount) > 0).length, refunded, net: amount - refunded };
      };
      expect(summary.totals).toEqual(sum(orders));
      expect(summary.totals).toEqual({ count: 4, amount: 2400 + 550 + 350 + 120, refundCount: 1, refunded: 2400, net: 550 + 350 + 120 });
      expect(summary.byPayFlag).toEqual(["0", "1", "2"].map((flag) => ({ payFlag: flag, ...sum(orders.filter((o) => String(o.pay_flag) === flag)) })));
      expect(summary.byMealTime.map((r) => [r.name, r.count, r.amount, r.refunded, r.net])).toEqual([
        ["全天", 2, 2950, 2400, 550],
        ["不限餐次", 2, 470, 0, 470],
      ]);
      const admin = summary.cashiers.find((c) => c.name === "admin");
      expect(admin).toBeDefined();

      const field = async (query: Row, name: string, message: string) => {
        const body = await get(`${Z}/cashierPrint/summary`, query);
        expect(body.status, JSON.stringify(body)).toBe(400);
        expect((body.data as { fieldErrors: Record<string, string[]> }).fieldErrors[name]?.join()).toContain(message);
      };
      const mine = (await get(`${Z}/cashierPrint/summary`, { cashierId: admin?.id ?? 0 })).data as Summary;
      expect(mine.totals).toEqual(summary.totals);
      await field({ cashierId: 123 }, "cashierId", "所选收银员不存在");
      await field({ restaurantId: 123 }, "restaurantId", "所选餐厅不存在");
      // Another tenant's user is no cashier here.
      await field({ cashierId: other.adminUserId }, "cashierId", "所选收银员不存在");
      const atRestaurant = (await get(`${Z}/cashierPrint/summary`, { restaurantId: restaurant })).data as Summary & { restaurantName: string };
      const restaurantOrders = await app.database.db.selectFrom("meal_order").select(["pay_flag", "meal_times_id", "paid_amount", "refunded_amount", "cashier_id"]).where("tenant_id", "=", 1).where("order_source", "=", "cashier").where("restaurant_id", "=", restaurant).execute();
      expect(atRestaurant.totals).toEqual(sum(restaurantOrders));
      expect(atRestaurant.totals.count).toBeGreaterThanOrEqual(2);
      // A period before the sales holds none of them; another tenant sees none of ours.
      expect(((await get(`${Z}/cashierPrint/summary`, { from: "2020-01-01T00:00", to: "2020-01-01T08:00" })).data as Summary).totals).toMatchObject({ count: 0 });
      expect(((await get(`${Z}/cashierPrint/summary`, {}, other.token)).data as Summary).totals).toMatchObject({ count: 0, amount: 0 });

      await field({ from: "2026-02-30T08:00" }, "from", "时间格式应为 2026-05-01T08:00");
      await field({ to: "tomorrow" }, "to", "时间格式应为");
      await field({ from: `${today}T12:00`, to: `${today}T08:00` }, "from", "开始时间应早于结束时间");
      await field({ from: "2026-01-01T00:00", to: "2026-03-01T00:00" }, "from", "时间范围最多 31 天");
      expect((await get(`${Z}/cashierPrint/summary`, { cashierId: "1e400" })).status).toBe(400);
    });
  });
}
