import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as repair from "../../server/db/migrations/0042_order_restaurant_repair";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;

const Z = "/api/v1/zhct";
const PAY = `${Z}/cashier/pay`;
const DAY = 86_400_000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/**
 * Issue 38: every channel that makes an order records the restaurant (and the stall, where it has one) it was sold at,
 * as 订单管理 and the reports by restaurant read it back — a sale by amount at the counter lost it.
 */
for (const dialect of dialects) {
  describe(`${dialect}: the restaurant and stall an order was sold at, from every channel`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const today = () => dayOf(Date.now());

    const call = (path: string, body: unknown, as = tenant.token) => app.call<unknown>("POST", path, { token: as, body, headers: { "Idempotency-Key": `place-${uid()}` } });
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    /** The order as 订单管理's detail shows it. */
    const order = async (orderId: unknown) => (await app.call<Row>("GET", `${Z}/mealOrder/getInfo?id=${orderId}`, { token: tenant.token })).body.data as Row;
    async function org(name: string, orgType: "restaurant" | "stall", parentId: number | null = null, as = tenant.token) {
      return (await ok("/api/v1/auth/org/create", { orgName: name, orgType, parentId, sort: 0, status: "1" }, as)).id as number;
    }
    const mealTime = async (restaurantId: number) =>
      (await ok(`${Z}/mealTimes/create`, { restaurantId, mealTimeName: `餐次${uid()}`, mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" })).id as number;
    async function diner(cash = 50_000) {
      const d = await ok(`${Z}/userInfo/create`, { userCode: `P${uid()}`, userName: "王收银", deptId: tenant.rootOrgId });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: cash, accountType: "cash" });
      return d.id as number;
    }

    let one: number;
    let two: number;
    let stall: number;
    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `op${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `opo${dialect}`);
      one = await org("一号餐厅", "restaurant");
      two = await org("二号餐厅", "restaurant");
      stall = await org("面档", "stall", one);
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("收银台: a sale by amount keeps the counter's restaurant (list and detail show it); a place the tenant does not have is refused naming the field", async () => {
      const d = await diner();
      const paid = await ok(PAY, { userInfoId: d, amount: 1200, restaurantId: one });
      expect(await order(paid.orderId)).toMatchObject({ restaurantId: one, restaurantName: "一号餐厅", stallId: null, amount: 1200 });
      const list = (await app.call<{ records: Row[] }>("GET", `${Z}/mealOrder/findPage?orderNo=${paid.orderNo as string}`, { token: tenant.token })).body.data;
      expect(list.records).toEqual([expect.objectContaining({ restaurantId: one, restaurantIdLabel: "一号餐厅" })]);
      // A stall of the restaurant is kept with it.
      const atStall = await ok(PAY, { userInfoId: d, amount: 300, restaurantId: one, stallId: stall });
      expect(await order(atStall.orderId)).toMatchObject({ restaurantId: one, stallId: stall });

      const otherRestaurant = await org("别家餐厅", "restaurant", null, other.token);
      expectField((await call(PAY, { userInfoId: d, amount: 100, restaurantId: otherRestaurant })).body, "restaurantId", "所选餐厅不存在");
      expectField((await call(PAY, { userInfoId: d, amount: 100, restaurantId: stall })).body, "restaurantId", "所选餐厅不存在");
      expectField((await call(PAY, { userInfoId: d, amount: 100, restaurantId: two, stallId: stall })).body, "stallId", "所选档口不存在或不属于该餐厅");
      // A meal time names its own restaurant: another one named with it is a mistake, not a choice.
      const lunch = await mealTime(one);
      expectField((await call(PAY, { userInfoId: d, amount: 100, mealTimesId: lunch, restaurantId: two })).body, "restaurantId", "所选餐厅与餐次所属餐厅不一致");
      const byMeal = await ok(PAY, { userInfoId: d, amount: 100, mealTimesId: lunch, restaurantId: one });
      expect(await order(byMeal.orderId)).toMatchObject({ restaurantId: one, mealTimesId: lunch });
    });

    test("终端: a device's sale is its 所属餐厅's, a device at a stall sells for the stall's restaurant; an unknown device names none", async () => {
      const d = await diner();
      const [byRestaurant, byStall] = [`POS-R-${uid()}`, `POS-S-${uid()}`];
      await ok("/api/v1/sys/device/create", { deviceCode: byRestaurant, deviceName: "二号餐厅结算台", deviceType: "box", orgId: two, status: "1" });
      await ok("/api/v1/sys/device/create", { deviceCode: byStall, deviceName: "面档结算台", deviceType: "box", orgId: stall, status: "1" });
      const atRestaurant = await ok(PAY, { userInfoId: d, amount: 800, deviceCode: byRestaurant });
      expect(await order(atRestaurant.orderId)).toMatchObject({ restaurantId: two, restaurantName: "二号餐厅", stallId: null, deviceCode: byRestaurant });
      const atStall = await ok(PAY, { userInfoId: d, amount: 900, deviceCode: byStall });
      expect(await order(atStall.orderId)).toMatchObject({ restaurantId: one, restaurantName: "一号餐厅", stallId: stall });
      const unknown = await ok(PAY, { userInfoId: d, amount: 100, deviceCode: "NO-SUCH-DEVICE" });
      expect(await order(unknown.orderId)).toMatchObject({ restaurantId: null, stallId: null });
    });

    test("订餐 (special dishes): paid at reservation or at pick-up, the order is the plan's restaurant's", async () => {
      const d = await diner();
      const three = await org("三号餐厅", "restaurant");
      const lunch = await mealTime(three);
      const category = await ok(`${Z}/foodType/create`, { typeName: `特色${uid()}`, sort: 0, status: "1" });
      const food = await ok(`${Z}/food/create`, { foodName: `烤鸭${uid()}`, foodTypeId: category.id, restaurantId: three, price: 6800, onShelf: "1" });
      const plan = (payTime: string) =>
        ok(`${Z}/orderingPlan/create`, { planName: `烤鸭预订${uid()}`, restaurantId: three, mealTimesId: lunch, foodId: food.id, beginDate: today(), endDate: dayOf(Date.now() + 3 * DAY), price: 6800, dailyQuota: 5, payTime, deadlineDays: 0, deadlineTime: "23:59", status: "1" });
      const atReservation = await ok(`${Z}/orderingFood/create`, { planId: (await plan("1")).id, userInfoId: d, orderDate: today(), quantity: 1 });
      expect(await order(atReservation.orderId)).toMatchObject({ restaurantId: three, restaurantName: "三号餐厅", orderType: "2" });
      const atPickUp = await ok(`${Z}/orderingFood/create`, { planId: (await plan("2")).id, userInfoId: d, orderDate: today(), quantity: 1 });
      expect(atPickUp.orderId).toBeNull();
      const picked = await ok(`${Z}/orderingFood/pickUp`, { id: atPickUp.id });
      expect(await order(picked.orderId)).toMatchObject({ restaurantId: three });
    });

    test("默认订餐 and 外卖: made for a meal time, the order is its restaurant's", async () => {
      const d = await diner();
      const four = await org("四号餐厅", "restaurant");
      const lunch = await mealTime(four);
      const date = dayOf(Date.now() + DAY);
      await ok(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId: four, mealType: "lunch", amount: 1200, quantity: 1, ...Object.fromEntries(WEEKDAYS.map((w) => [w, 1])), status: "1" });
      await ok(`${Z}/userOrderDefaultGenerate/generate`, { orderDate: date });
      const made = await app.database.db.selectFrom("meal_order").select("id").where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", d).where("order_date", "=", date).execute();
      expect(made).toHaveLength(1);
      expect(await order(made[0].id)).toMatchObject({ restaurantId: four, mealTimesId: lunch, orderSource: "default" });

      const point = await ok(`${Z}/deliveryPoint/create`, { restaurantId: four, pointName: `三号楼${uid()}`, pointType: "2", sort: 0, status: "1" });
      const slot = await ok(`${Z}/deliveryTime/create`, { mealTimesId: lunch, slotName: "午餐送达", beginTime: "11:30", endTime: "12:00", capacity: 10, status: "1" });
      const takeaway = await ok(`${Z}/mealOrder/place`, { userInfoId: d, amount: 1500, mealTimesId: lunch, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id });
      expect(await order(takeaway.orderId)).toMatchObject({ restaurantId: four, orderType: "3" });
    });

    test("migration 0042 repairs the orders written without a restaurant where the meal time or the device tells, leaves the rest unknown, and recounts the kept days", async () => {
      const d = await diner();
      const five = await org("五号餐厅", "restaurant");
      const lunch = await mealTime(five);
      const noodles = await org("粉档", "stall", five);
      const [atFive, atNoodles] = [`POS-F-${uid()}`, `POS-N-${uid()}`];
      await ok("/api/v1/sys/device/create", { deviceCode: atFive, deviceName: "五号餐厅结算台", deviceType: "box", orgId: five, status: "1" });
      await ok("/api/v1/sys/device/create", { deviceCode: atNoodles, deviceName: "粉档结算台", deviceType: "box", orgId: noodles, status: "1" });
      const byMeal = await ok(PAY, { userInfoId: d, amount: 100, mealTimesId: lunch });
      const byDevice = await ok(PAY, { userInfoId: d, amount: 200, deviceCode: atFive });
      const byStallDevice = await ok(PAY, { userInfoId: d, amount: 400, deviceCode: atNoodles });
      const byCounter = await ok(PAY, { userInfoId: d, amount: 800, restaurantId: five });
      const ids = [byMeal, byDevice, byStallDevice, byCounter].map((o) => o.orderId as number);
      const db = app.database.db;
      // As the orders were written before issue 38: no restaurant, no stall.
      await db.updateTable("meal_order").set({ restaurant_id: null, stall_id: null }).where("tenant_id", "=", tenant.tenantId).where("id", "in", ids).execute();
      const unknown = async () => Number((await db.selectFrom("meal_order").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", d).where("restaurant_id", "is", null).executeTakeFirstOrThrow()).n);
      const before = await unknown();
      expect(before).toBe(4);

      await repair.up(db);
      const rows = await db.selectFrom("meal_order").select(["id", "restaurant_id", "stall_id"]).where("id", "in", ids).execute();
      const placeOf = (id: number) => rows.find((r) => r.id === id);
      expect([ids.map((id) => placeOf(id)?.restaurant_id), ids.map((id) => placeOf(id)?.stall_id)]).toEqual([
        [five, five, five, null],
        [null, null, noodles, null],
      ]);
      // Three repaired; the counter's sale names nothing that tells where it was sold.
      expect(before - (await unknown())).toBe(3);
      expect(await unknown()).toBe(1);
      expect(await order(byStallDevice.orderId)).toMatchObject({ restaurantName: "五号餐厅", stallId: noodles });
      // The kept days count the repaired orders at their restaurant (订单日汇总 reads them), the unknown ones under 0.
      const kept = await db.selectFrom("order_day").select(["restaurant_id", (eb) => eb.fn.sum<number>("paid").as("paid")]).where("tenant_id", "=", tenant.tenantId).where("restaurant_id", "in", [0, five]).groupBy("restaurant_id").execute();
      const unplaced = await db.selectFrom("meal_order").select((eb) => eb.fn.sum<number>("paid_amount").as("paid")).where("tenant_id", "=", tenant.tenantId).where("restaurant_id", "is", null).executeTakeFirstOrThrow();
      expect(Object.fromEntries(kept.map((k) => [Number(k.restaurant_id), Number(k.paid)]))).toEqual({ 0: Number(unplaced.paid), [five]: 700 });
      const places = await db.selectFrom("diner_place_month").select(["restaurant_id", "stall_id", "amount"]).where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", d).orderBy("amount").execute();
      expect(places.map((p) => [Number(p.restaurant_id), Number(p.stall_id), Number(p.amount)])).toEqual([
        [five, 0, 100],
        [five, 0, 200],
        [five, noodles, 400],
        [0, 0, 800],
      ]);
      // A second run finds nothing more to repair.
      await repair.up(db);
      expect(await unknown()).toBe(1);
    });
  });
}
