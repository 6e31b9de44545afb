import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defaultOrderKey, runDueGenerations } from "../../server/modules/zhct/defaultOrders";
import { checkAccount } from "../../server/modules/zhct/ledger";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, openAnotherInstance, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;

const Z = "/api/v1/zhct";
const DAY = 86_400_000;
const GENERATE = `${Z}/userOrderDefaultGenerate/generate`;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const everyDay = Object.fromEntries(WEEKDAYS.map((d) => [d, 1]));

for (const dialect of dialects) {
  describe(`${dialect}: default orders, leave, generation runs, accompanied meals, delivery points and slots`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const dayFrom = (days: number) => dayOf(Date.now() + days * DAY);

    const call = (path: string, body: unknown, as = tenant.token, headers: Record<string, string> = {}) => app.call<unknown>("POST", path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }

    let restaurantId: number;
    let lunchId: number;
    let category: number;
    const diner = async (cash = 0, extra: Row = {}, as = tenant.token) => {
      const d = await ok(`${Z}/userInfo/create`, { userCode: `D${uid()}`, userName: `默认${serial}`, deptId: tenant.rootOrgId, ...extra }, as);
      if (cash) await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: cash, accountType: "cash" }, as);
      return d.id as number;
    };
    const onDefault = (userInfoId: number, body: Row = {}) => ok(`${Z}/userOrderDefault/create`, { userInfoId, restaurantId, mealType: "lunch", amount: 1200, quantity: 1, ...everyDay, status: "1", ...body });
    async function balance(userInfoId: number) {
      const rows = await app.database.db.selectFrom("user_account").select(["id", "balance"]).where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", userInfoId).execute();
      for (const r of rows) {
        const check = await checkAccount(app.database.db, tenant.tenantId, r.id);
        expect(check.balance).toBe(check.ledger);
      }
      return rows.reduce((sum, r) => sum + Number(r.balance), 0);
    }
    const ordersOf = (userInfoId: number, date: string) =>
      app.database.db.selectFrom("meal_order").selectAll().where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", userInfoId).where("order_date", "=", date).execute();
    const detailsOf = (runId: unknown) =>
      app.database.db.selectFrom("user_order_default_generate_detail").selectAll().where("tenant_id", "=", tenant.tenantId).where("run_id", "=", runId as number).orderBy("id").execute();
    const runRow = (runId: unknown) => app.database.db.selectFrom("user_order_default_generate").selectAll().where("tenant_id", "=", tenant.tenantId).where("id", "=", runId as number).executeTakeFirstOrThrow();
    async function restaurant(name: string, as = tenant.token) {
      return (await ok("/api/v1/auth/org/create", { orgName: name, orgType: "restaurant", parentId: null, sort: 0, status: "1" }, as)).id as number;
    }
    async function mealTime(restaurant: number, mealType = "lunch", as = tenant.token) {
      return (await ok(`${Z}/mealTimes/create`, { restaurantId: restaurant, mealTimeName: `餐次${uid()}`, mealType, beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" }, as)).id as number;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `df${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `dfo${dialect}`);
      restaurantId = await restaurant("一食堂");
      lunchId = await mealTime(restaurantId);
      category = (await ok(`${Z}/foodType/create`, { typeName: "套餐", sort: 1, status: "1" })).id as number;
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("a default names a concrete meal, an amount or a dish (not both), a weekday; one per diner and meal type; leave ends after it begins", async () => {
      const d = await diner();
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "lunch", ...everyDay, quantity: 1, status: "1" })).body, "amount", "请填写每餐金额或选择默认菜品（二选一）");
      const food = await ok(`${Z}/food/create`, { foodName: `套餐${uid()}`, foodTypeId: category, restaurantId, price: 1500, onShelf: "1" });
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "lunch", amount: 1000, foodId: food.id, ...everyDay, quantity: 1, status: "1" })).body, "amount", "二选一");
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "all", amount: 1000, ...everyDay, quantity: 1, status: "1" })).body, "mealType", "请选择具体餐别");
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "lunch", amount: 1000, ...Object.fromEntries(WEEKDAYS.map((w) => [w, 0])), quantity: 1, status: "1" })).body, "monday", "至少选择一天");
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "brunch", amount: 1000, ...everyDay, quantity: 1, status: "1" })).body, "mealType", /不是可选的值/);
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "lunch", amount: 1e20, ...everyDay, quantity: 1, status: "1" })).body, "amount", /./);
      const made = await onDefault(d);
      expect(made).toMatchObject({ mealType: "lunch", amount: 1200, quantity: 1, monday: 1, sunday: 1 });
      expectField((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "lunch", amount: 900, ...everyDay, quantity: 1, status: "1" })).body, "userInfoId", "该人员此餐别已设置默认订餐");
      // An edit that drops the amount without a dish is refused; switching to a dish is fine.
      expectField((await call(`${Z}/userOrderDefault/update`, { id: made.id, amount: null, updatedAt: made.updatedAt })).body, "amount", "二选一");
      expect(await ok(`${Z}/userOrderDefault/update`, { id: made.id, amount: null, foodId: food.id, updatedAt: made.updatedAt })).toMatchObject({ foodId: food.id, amount: null });
      // The other tenant cannot name this tenant's diner.
      expect((await call(`${Z}/userOrderDefault/create`, { userInfoId: d, restaurantId, mealType: "dinner", amount: 1000, ...everyDay, quantity: 1, status: "1" }, other.token)).body.status).toBe(400);

      expectField((await call(`${Z}/userOrderDefaultLeave/create`, { userInfoId: d, beginDate: dayFrom(3), endDate: dayFrom(2) })).body, "endDate", "结束日期不能早于开始日期");
      expectField((await call(`${Z}/userOrderDefaultLeave/create`, { userInfoId: d, beginDate: dayFrom(1), endDate: dayFrom(400) })).body, "endDate", "请假时间最长 366 天");
      await ok(`${Z}/userOrderDefaultLeave/create`, { userInfoId: d, beginDate: dayFrom(1), endDate: dayFrom(1), reason: "出差" });
      // Off default again, so the runs below list only their own diners.
      expect((await app.call("GET", `${Z}/userOrderDefault/delete?id=${made.id}`, { token: tenant.token })).body.status).toBe(200);
    });

    test("a run makes tomorrow's orders through the ledger, respects leave and existing orders, lists who could not pay; a second run makes nothing", async () => {
      const date = dayFrom(1);
      // A dish priced from tomorrow's published menu of the lunch.
      const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: `午餐${uid()}`, restaurantId, mealType: "lunch", menuMode: "2", mealTimeId: lunchId, sort: 0, status: "1" });
      const menu = await ok(`${Z}/foodMenu/create`, { menuDate: date, foodMenuTypeId: menuType.id, status: "0" });
      const food = await ok(`${Z}/food/create`, { foodName: `红烧肉${uid()}`, foodTypeId: category, restaurantId, price: 1800, onShelf: "1" });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: food.id, price: 1600, sort: 0 });
      await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });

      const byAmount = await diner(5000);
      const byDish = await diner(5000);
      const onLeave = await diner(5000);
      const poor = await diner(500);
      const leaveLunchOnly = await diner(5000);
      const offMenu = await diner(5000);
      const notOffered = await ok(`${Z}/food/create`, { foodName: `鱼香肉丝${uid()}`, foodTypeId: category, restaurantId, price: 1500, onShelf: "1" });
      await onDefault(offMenu, { amount: null, foodId: notOffered.id, quantity: 1 });
      await onDefault(byAmount);
      await onDefault(byDish, { amount: null, foodId: food.id, quantity: 2 });
      await onDefault(onLeave);
      await onDefault(poor);
      await onDefault(leaveLunchOnly);
      await onDefault(leaveLunchOnly, { mealType: "dinner" }); // no dinner meal time at this restaurant
      await ok(`${Z}/userOrderDefaultLeave/create`, { userInfoId: onLeave, beginDate: dayFrom(0), endDate: dayFrom(3), reason: "休假" });
      await ok(`${Z}/userOrderDefaultLeave/create`, { userInfoId: leaveLunchOnly, beginDate: date, endDate: date, mealType: "lunch" });

      const run = await ok(GENERATE, { orderDate: date });
      expect(run).toMatchObject({ orderDate: date, created: 2, skipped: 2, failed: 3, amount: 1200 + 3200 });
      expect(await runRow(run.runId)).toMatchObject({ trigger_type: "手动", created_count: 2, skipped_count: 2, failed_count: 3 });
      const details = await detailsOf(run.runId);
      const outcome = (userInfoId: number, meal = "lunch") => details.find((d) => d.user_info_id === userInfoId && String(d.meal_type) === meal);
      expect(outcome(byAmount)).toMatchObject({ result: 1, amount: 1200 });
      expect(outcome(byDish)).toMatchObject({ result: 1, amount: 3200 });
      expect(outcome(onLeave)).toMatchObject({ result: 2, reason: "请假" });
      expect(outcome(leaveLunchOnly)).toMatchObject({ result: 2, reason: "请假" });
      expect(outcome(poor)).toMatchObject({ result: 3, reason: "余额不足（余额 5.00 元）", order_no: null });
      // Made the day before, a refusal names the day it is for, not 今日.
      expect(outcome(offMenu)).toMatchObject({ result: 3, reason: `菜品（${notOffered.id}）不在本餐次 ${date} 当天已发布的菜单中` });
      expect(outcome(leaveLunchOnly, "dinner")).toMatchObject({ result: 3, reason: "餐厅「一食堂」没有启用的晚餐餐次" });

      const [order] = await ordersOf(byAmount, date);
      expect(order).toMatchObject({ order_type: 1, order_source: "default", pay_flag: 500, amount: 1200, meal_times_id: lunchId, order_status: 1 });
      expect(outcome(byAmount)?.order_no).toBe(order.order_no);
      const [dishOrder] = await ordersOf(byDish, date);
      const items = await app.database.db.selectFrom("meal_order_item").selectAll().where("meal_order_id", "=", dishOrder.id).execute();
      expect(items).toMatchObject([{ food_id: food.id, price: 1600, quantity: 2, subtotal: 3200 }]);
      expect(await balance(byAmount)).toBe(3800);
      expect(await balance(byDish)).toBe(1800);
      expect(await balance(poor)).toBe(500);
      expect(await ordersOf(poor, date)).toHaveLength(0);
      expect(await ordersOf(onLeave, date)).toHaveLength(0);

      // Again: the orders are there, nobody is charged twice; the diner short of money is listed again.
      const again = await ok(GENERATE, { orderDate: date });
      expect(again).toMatchObject({ created: 0, skipped: 4, failed: 3, amount: 0 });
      expect((await detailsOf(again.runId)).find((d) => d.user_info_id === byAmount)).toMatchObject({ result: 2, reason: "当天此餐别已有订单" });
      expect(await balance(byAmount)).toBe(3800);

      // A cancelled default order is not made again (its key is spent), and the refund stands.
      expect((await call(`${Z}/mealOrder/cancel`, { id: order.id, reason: "测试取消" })).body.status).toBe(200);
      const third = await ok(GENERATE, { orderDate: date });
      expect((await detailsOf(third.runId)).find((d) => d.user_info_id === byAmount)).toMatchObject({ result: 2, reason: "已生成过（订单取消后不再重复生成）" });
      expect(await balance(byAmount)).toBe(5000);
      expect((await ordersOf(byAmount, date)).filter((o) => Number(o.order_status) === 1)).toHaveLength(0);

      // The diner tops up: the next run pays for them.
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: poor, amount: 1000, accountType: "cash" });
      const fourth = await ok(GENERATE, { orderDate: date });
      expect(fourth).toMatchObject({ created: 1 });
      expect(await balance(poor)).toBe(300);
    });

    test(`runs at the same moment make each order once (立即生成 three times, ${dialect === "postgres" ? "on two instances of one database" : "on one instance"})`, async () => {
      const date = dayFrom(2);
      const early = await restaurant("早餐店");
      await mealTime(early, "breakfast");
      const diners: number[] = [];
      for (let i = 0; i < 6; i++) {
        const d = await diner(3000);
        await onDefault(d, { restaurantId: early, mealType: "breakfast" });
        diners.push(d);
      }
      // Instances share PostgreSQL; one process serves a SQLite file (decision 013), and two connections of one
      // process to it would block the thread waiting for each other's lock, which no deployment does.
      const second = dialect === "postgres" ? await openAnotherInstance(app) : app;
      let runs: Row[];
      try {
        const results = await Promise.all([app, second, app].map((instance) => instance.call<Row>("POST", GENERATE, { token: tenant.token, body: { orderDate: date } })));
        for (const r of results) expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 200 });
        runs = results.map((r) => r.body.data);
      } finally {
        if (second !== app) await second.close();
      }
      for (const d of diners) {
        const orders = (await ordersOf(d, date)).filter((o) => String(o.meal_type) === "breakfast");
        expect(orders).toHaveLength(1);
        expect(await balance(d)).toBe(1800);
      }
      // Each diner's outcome in each run: exactly one 已生成 among the runs.
      for (const d of diners) {
        const results = (await Promise.all(runs.map((r) => detailsOf(r.runId)))).flat().filter((x) => x.user_info_id === d && String(x.meal_type) === "breakfast");
        expect(results.filter((x) => x.result === 1)).toHaveLength(1);
      }
    });

    test("立即生成 takes a day from tomorrow on; another tenant's run touches nothing here; the key is per diner, day and meal", async () => {
      expectField((await call(GENERATE, { orderDate: dayFrom(0) })).body, "orderDate", "只能为明天起 30 天内的日期生成");
      expectField((await call(GENERATE, { orderDate: dayFrom(31) })).body, "orderDate", "只能为明天起 30 天内的日期生成");
      expectField((await call(GENERATE, { orderDate: "2026-02-30" })).body, "orderDate", /不是有效的日期/);
      expectField((await call(GENERATE, { orderDate: "2026-01-01\u0000" })).body, "orderDate", /./);
      expect((await call(GENERATE, { orderDate: dayFrom(1), tenantId: tenant.tenantId })).body.status).toBe(400);
      const before = await app.database.db.selectFrom("meal_order").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenant.tenantId).executeTakeFirstOrThrow();
      const theirs = await ok(GENERATE, { orderDate: dayFrom(5) }, other.token);
      expect(theirs).toMatchObject({ created: 0, skipped: 0, failed: 0 });
      const after = await app.database.db.selectFrom("meal_order").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenant.tenantId).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      expect(defaultOrderKey(12, "2026-05-01", "lunch")).toBe("dflt:2026-05-01:12:lunch");
    });

    test("the daily job runs each tenant from its hour, once a day", async () => {
      const d = await diner(4000);
      await onDefault(d, { mealType: "lunch", amount: 1000 });
      // 10:00 China time today: the tenant's hour is 11 → not yet; then 9 → tomorrow's orders, once.
      const now = dayStart(dayOf(Date.now())) + 10 * 3600_000;
      const tomorrow = dayOf(now + DAY);
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhct.defaultOrder.generateHour", paramName: "默认订餐生成时间（时）", paramValue: "11" });
      const services = { db: app.database.db, dialect: app.database.dialect, config: app.config };
      const mineOf = (results: Awaited<ReturnType<typeof runDueGenerations>>) =>
        app.database.db.selectFrom("user_order_default_generate").selectAll().where("tenant_id", "=", tenant.tenantId).where("order_date", "=", tomorrow).where("trigger_type", "=", "自动").execute().then((rows) => rows.filter((r) => results.some((x) => x.runId === r.id)));
      expect(await mineOf(await runDueGenerations(services, now))).toHaveLength(0);
      await app.database.db.updateTable("parameter_config").set({ param_value: "9" }).where("tenant_id", "=", tenant.tenantId).where("param_code", "=", "zhct.defaultOrder.generateHour").execute();
      const first = await mineOf(await runDueGenerations(services, now));
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ operator_name: "系统" });
      expect((await ordersOf(d, tomorrow)).filter((o) => String(o.meal_type) === "lunch")).toHaveLength(1);
      expect(await mineOf(await runDueGenerations(services, now + 60_000))).toHaveLength(0);
      expect(await balance(d)).toBe(3000);
    });

    test("accompanied meals: the diner's cash pays guests × price through the ledger, or the department is recorded; cancel gives it back once", async () => {
      const d = await diner(3000);
      const date = dayFrom(1);
      const personal = await ok(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: date, restaurantId, mealType: "lunch", guestCount: 3, unitPrice: 800, payBy: "1", reason: "接待来访客户", amount: 1, pcStatus: "2" });
      expect(personal).toMatchObject({ amount: 2400, pcStatus: "1", deptId: tenant.rootOrgId });
      expect(await balance(d)).toBe(600);
      const lines = await app.database.db.selectFrom("user_account_ledger").selectAll().where("tenant_id", "=", tenant.tenantId).where("doc_type", "=", "userOrderDefaultPc").where("doc_id", "=", personal.id as number).execute();
      expect(lines).toMatchObject([{ amount: -2400, account_type: "cash", busi_type: 2 }]);
      // Short of money: refused, nothing written.
      const count = async () => Number((await app.database.db.selectFrom("user_order_default_pc").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenant.tenantId).executeTakeFirstOrThrow()).n);
      const rows = await count();
      const short = await call(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: date, restaurantId, mealType: "dinner", guestCount: 1, unitPrice: 700, payBy: "1", reason: "加班陪餐" });
      expect(short.body).toMatchObject({ status: 409, message: "余额不足" });
      expect(await count()).toBe(rows);
      expect(await balance(d)).toBe(600);
      // The department pays: no ledger line, the diner's department recorded.
      const dept = await ok(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: date, restaurantId, mealType: "dinner", guestCount: 10, unitPrice: 2500, payBy: "2", reason: "部门接待" });
      expect(dept).toMatchObject({ amount: 25000, payBy: "2", deptId: tenant.rootOrgId });
      expect(await balance(d)).toBe(600);
      const noDept = await diner(0, { deptId: null });
      expectField((await call(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: dayFrom(-1), restaurantId, mealType: "lunch", guestCount: 1, unitPrice: 100, payBy: "1", reason: "补记" })).body, "orderDate", "就餐日期不能早于今天");
      expectField((await call(`${Z}/userOrderDefaultPc/create`, { userInfoId: noDept, orderDate: date, restaurantId, mealType: "dinner", guestCount: 1, unitPrice: 100, payBy: "2", reason: "x" })).body, "payBy", "订餐人没有所属部门");
      expectField((await call(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: date, restaurantId, mealType: "dinner", guestCount: 51, unitPrice: 100, payBy: "2", reason: "x" })).body, "guestCount", /./);

      const cancelled = await ok(`${Z}/userOrderDefaultPc/cancel`, { id: personal.id });
      expect(cancelled).toMatchObject({ pcStatus: "2", refunded: 2400 });
      expect(await balance(d)).toBe(3000);
      expect((await call(`${Z}/userOrderDefaultPc/cancel`, { id: personal.id })).body).toMatchObject({ status: 409, message: "该陪餐订单已取消" });
      expect((await call(`${Z}/userOrderDefaultPc/cancel`, { id: dept.id }, other.token)).body.status).toBe(404);
      expect(await ok(`${Z}/userOrderDefaultPc/cancel`, { id: dept.id })).toMatchObject({ refunded: 0 });
      // Two cancels racing: one wins.
      const again = await ok(`${Z}/userOrderDefaultPc/create`, { userInfoId: d, orderDate: date, restaurantId, mealType: "lunch", guestCount: 1, unitPrice: 1000, payBy: "1", reason: "陪餐" });
      const raced = await Promise.all([1, 2, 3].map(() => call(`${Z}/userOrderDefaultPc/cancel`, { id: again.id })));
      expect(raced.map((r) => r.body.status).sort()).toEqual([200, 409, 409]);
      expect(await balance(d)).toBe(3000);
    });

    test("delivery: a slot ends after it begins; a takeaway order names a point of its restaurant and a slot of its meal time", async () => {
      expectField((await call(`${Z}/deliveryTime/create`, { mealTimesId: lunchId, slotName: "倒挂", beginTime: "12:00", endTime: "11:30", capacity: 5, status: "1" })).body, "endTime", "结束时间应晚于开始时间");
      const point = await ok(`${Z}/deliveryPoint/create`, { restaurantId, pointName: `A座大堂${uid()}`, pointType: "1", sort: 0, status: "1" });
      expectField((await call(`${Z}/deliveryPoint/create`, { restaurantId, pointName: point.pointName, pointType: "1", sort: 0, status: "1" })).body, "restaurantId", "该餐厅已有同名配送点");
      const slot = await ok(`${Z}/deliveryTime/create`, { mealTimesId: lunchId, slotName: "11:30 送达", beginTime: "11:30", endTime: "12:00", capacity: 5, status: "1" });
      const elsewhere = await restaurant("二食堂");
      const otherLunch = await mealTime(elsewhere);
      const farPoint = await ok(`${Z}/deliveryPoint/create`, { restaurantId: elsewhere, pointName: "B座", pointType: "2", sort: 0, status: "1" });
      const farSlot = await ok(`${Z}/deliveryTime/create`, { mealTimesId: otherLunch, slotName: "12:00", beginTime: "12:00", endTime: "12:30", capacity: 5, status: "1" });
      const d = await diner(10_000);
      const takeaway = (body: Row) => call(`${Z}/cashier/pay`, { userInfoId: d, amount: 1000, mealTimesId: lunchId, orderType: "3", ...body });
      expectField((await takeaway({ deliveryTimeId: slot.id })).body, "deliveryPointId", "外卖订单请选择配送点");
      expectField((await takeaway({ deliveryPointId: point.id })).body, "deliveryTimeId", "外卖订单请选择配送时段");
      expectField((await takeaway({ deliveryPointId: farPoint.id, deliveryTimeId: slot.id })).body, "deliveryPointId", "所选配送点不属于本餐次的餐厅");
      expectField((await takeaway({ deliveryPointId: point.id, deliveryTimeId: farSlot.id })).body, "deliveryTimeId", "所选配送时段不属于本餐次");
      expectField((await takeaway({ orderType: "9", deliveryPointId: point.id, deliveryTimeId: slot.id })).body, "orderType", "订单类型不是可选的值");
      expectField((await call(`${Z}/cashier/pay`, { userInfoId: d, amount: 1000, mealTimesId: lunchId, deliveryPointId: point.id, deliveryTimeId: slot.id })).body, "deliveryPointId", "只有外卖订单需要配送点和配送时段");
      expectField((await call(`${Z}/cashier/pay`, { userInfoId: d, amount: 1000, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id })).body, "mealTimesId", "外卖订单请选择餐次");
      expect(await balance(d)).toBe(10_000);
      const paid = (await takeaway({ deliveryPointId: point.id, deliveryTimeId: slot.id })).body;
      expect(paid.status, JSON.stringify(paid)).toBe(200);
      const orderId = (paid.data as Row).orderId as number;
      const [order] = await app.database.db.selectFrom("meal_order").selectAll().where("id", "=", orderId).execute();
      expect(order).toMatchObject({ order_type: 3 });
      const delivery = await app.database.db.selectFrom("meal_order_delivery").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
      expect(delivery).toMatchObject({ delivery_point_id: point.id, delivery_time_id: slot.id, delivery_date: dayFrom(0), order_no: order.order_no, cancelled_at: null });
      // A slot in use cannot be deleted.
      expect((await app.call("GET", `${Z}/deliveryTime/delete?id=${slot.id}`, { token: tenant.token })).body.status).toBe(409);
    });

    test("N takeaway orders at once for a slot of capacity k: exactly k are paid; a cancel frees a place", async () => {
      const point = await ok(`${Z}/deliveryPoint/create`, { restaurantId, pointName: `自提柜${uid()}`, pointType: "1", sort: 1, status: "1" });
      const slot = await ok(`${Z}/deliveryTime/create`, { mealTimesId: lunchId, slotName: `紧俏${uid()}`, beginTime: "12:30", endTime: "13:00", capacity: 3, status: "1" });
      const diners: number[] = [];
      for (let i = 0; i < 8; i++) diners.push(await diner(5000));
      const results = await Promise.all(diners.map((d) => call(`${Z}/cashier/pay`, { userInfoId: d, amount: 900, mealTimesId: lunchId, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id })));
      const statuses = results.map((r) => r.body.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(results.filter((r) => r.body.status === 409).map((r) => r.body.message)).toEqual(Array(5).fill("该配送时段已约满（每日 3 份）"));
      const booked = await app.database.db.selectFrom("meal_order_delivery").select("order_id").where("tenant_id", "=", tenant.tenantId).where("delivery_time_id", "=", slot.id as number).execute();
      expect(booked).toHaveLength(3);
      const charged = await Promise.all(diners.map((d) => balance(d)));
      expect(charged.filter((b) => b === 4100)).toHaveLength(3);
      expect(charged.filter((b) => b === 5000)).toHaveLength(5);

      const winner = (results.find((r) => r.body.status === 200)?.body.data as Row).orderId;
      expect((await call(`${Z}/mealOrder/cancel`, { id: winner, reason: "测试取消" })).body.status).toBe(200);
      const late = diners[statuses.indexOf(409)];
      expect((await call(`${Z}/cashier/pay`, { userInfoId: late, amount: 900, mealTimesId: lunchId, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id })).body.status).toBe(200);
      expect((await call(`${Z}/cashier/pay`, { userInfoId: late, amount: 900, mealTimesId: lunchId, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id })).body.message).toBe("该配送时段已约满（每日 3 份）");
    });
  });
}
