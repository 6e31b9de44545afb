import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { deadlineOf, markNoShows, mealEndOf } from "../../server/modules/zhct/bookings";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const Z = "/api/v1/zhct";
const DAY = 86_400_000;

for (const dialect of dialects) {
  describe(`${dialect}: bookings — periods, capacity, deadlines, the meal's order, no-shows; special dishes`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const today = () => dayOf(Date.now());
    const dayFrom = (days: number) => dayOf(Date.now() + days * DAY);

    const call = (path: string, body: unknown, as = tenant.token, headers: Record<string, string> = {}) => app.call<unknown>("POST", path, { token: as, body, headers }).then((r) => r.body as Envelope);
    async function ok(path: string, body: Row, as = tenant.token, headers: Record<string, string> = {}): Promise<Row> {
      const result = await call(path, body, as, headers);
      expect(result, JSON.stringify(result)).toMatchObject({ status: 200 });
      return result.data as Row;
    }
    const get = async (entity: string, id: unknown, as = tenant.token) => (await app.call<Row>("GET", `${Z}/${entity}/getInfo?id=${id}`, { token: as })).body.data as Row;

    async function restaurant(tenantId = tenant.tenantId): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: tenantId, id, parent_id: null, org_name: `餐厅${uid()}`, org_code: null, org_type: "restaurant", sort: 0, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }
    /** A meal time open all day (a payment needs its meal time open now) in a restaurant of its own. */
    async function mealTime(as = tenant) {
      const restaurantId = await restaurant(as.tenantId);
      const meal = await ok(`${Z}/mealTimes/create`, { restaurantId, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" }, as.token);
      return { restaurantId, mealTimesId: meal.id as number };
    }
    /** A period open from today for a week; booking closes at 23:59 of the meal's own day unless told otherwise. */
    async function period(capacity: number, extra: Row = {}) {
      const meal = await mealTime();
      const row = await ok(`${Z}/appointmentPeriod/create`, { periodName: `午餐预约${uid()}`, ...meal, beginDate: today(), endDate: dayFrom(7), capacity, deadlineDays: 0, deadlineTime: "23:59", status: "1", ...extra });
      return { ...meal, periodId: row.id as number };
    }
    const diner = async (as = tenant.token) => ok(`${Z}/userInfo/create`, { userCode: `B${uid()}`, userName: "李预约" }, as);
    const topUp = (userInfoId: unknown, amount: number) => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType: "cash" });
    const book = (userInfoId: unknown, mealTimesId: unknown, appointmentDate = today(), as = tenant.token) => call(`${Z}/appointmentDetail/create`, { userInfoId, mealTimesId, appointmentDate }, as);
    async function balance(userInfoId: unknown): Promise<number> {
      const rows = await app.database.db.selectFrom("user_account").select("balance").where("user_info_id", "=", userInfoId as number).execute();
      return rows.reduce((sum, r) => sum + Number(r.balance), 0);
    }
    async function ledgerEqualsBalance(userInfoId: unknown) {
      const lines = await app.database.db.selectFrom("user_account_ledger").select("amount").where("user_info_id", "=", userInfoId as number).execute();
      expect(lines.reduce((sum, l) => sum + Number(l.amount), 0)).toBe(await balance(userInfoId));
    }
    const count = async (table: "appointment_detail" | "appointment_detail_for_order" | "ordering_food" | "meal_order", where: Row) => {
      let q = app.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenant.tenantId);
      for (const [column, value] of Object.entries(where)) q = q.where(column as never, "=", value as never);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `bk${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `bko${dialect}`);
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("deadlines and meal ends are China time; a meal past midnight ends the next day", () => {
      expect(deadlineOf("2026-05-31", 1, "16:00")).toBe(dayStart("2026-05-30") + 16 * 3_600_000);
      expect(deadlineOf("2026-05-31", 0, "09:30")).toBe(dayStart("2026-05-31") + 9.5 * 3_600_000);
      expect(mealEndOf("2026-05-31", "11:00", "13:00")).toBe(dayStart("2026-05-31") + 13 * 3_600_000);
      expect(mealEndOf("2026-05-31", "22:00", "02:00")).toBe(dayStart("2026-06-01") + 2 * 3_600_000);
    });

    test("a period: a meal time of its restaurant, dates in order, no two enabled periods of a meal sharing a day", async () => {
      const meal = await mealTime();
      const elsewhere = await restaurant();
      const base = { periodName: "午餐", ...meal, beginDate: today(), endDate: dayFrom(3), capacity: 10, deadlineDays: 1, deadlineTime: "16:00", status: "1" };
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, restaurantId: elsewhere }), "mealTimesId", "所选餐次不属于该餐厅");
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, endDate: dayFrom(-1) }), "endDate", "结束日期不能早于开始日期");
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, deadlineTime: "25:00" }), "deadlineTime", /./);
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, capacity: 0 }), "capacity", /./);
      const first = await ok(`${Z}/appointmentPeriod/create`, base);
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, beginDate: dayFrom(3), endDate: dayFrom(5) }), "beginDate", "该餐次在此日期范围内已有启用的预约时段");
      await ok(`${Z}/appointmentPeriod/create`, { ...base, beginDate: dayFrom(4), endDate: dayFrom(5) });
      expectField(await call(`${Z}/appointmentPeriod/update`, { id: first.id, endDate: dayFrom(4) }), "beginDate", "已有启用的预约时段");
      // Another tenant cannot name this tenant's meal time.
      expectField(await call(`${Z}/appointmentPeriod/create`, { ...base, restaurantId: await restaurant(other.tenantId) }, other.token), "mealTimesId", /./);
    });

    test("a booking needs an open period and a deadline not passed; one per diner, day and meal; states are the server's", async () => {
      const { mealTimesId } = await period(5);
      const d = await diner();
      expectField(await book(d.id, mealTimesId, dayFrom(9)), "appointmentDate", "该日期此餐次未开放预约");
      const booking = await ok(`${Z}/appointmentDetail/create`, { userInfoId: d.id, mealTimesId, appointmentDate: dayFrom(1), appointmentStatus: "2" });
      expect(booking).toMatchObject({ appointmentStatus: "1", orderAppointmentStatus: null });
      expect(booking.bookedAt).toBeTypeOf("number");
      expectField(await book(d.id, mealTimesId, dayFrom(1)), "userInfoId", "该人员当天此餐次已有预约");
      expectField(await call(`${Z}/appointmentDetail/update`, { id: booking.id, appointmentStatus: "2" }), "appointmentStatus", "不能手工设置");

      // Booking closed at 00:00 of the meal's day: today's meal is refused, and the refusal writes nothing.
      const closed = await period(5, { deadlineTime: "00:00" });
      const before = await count("appointment_detail", {});
      const late = await book(d.id, closed.mealTimesId);
      expect(late.status).toBe(409);
      expect(late.message).toBe(`已过预约截止时间（${today()} 00:00）`);
      expect(await count("appointment_detail", {})).toBe(before);
      // Tomorrow's stays open (and cancellable) until tomorrow 00:00.
      const tomorrow = await ok(`${Z}/appointmentDetail/create`, { userInfoId: d.id, mealTimesId: closed.mealTimesId, appointmentDate: dayFrom(1) });
      expect(await ok(`${Z}/appointmentDetail/update`, { id: tomorrow.id, appointmentStatus: "0" })).toMatchObject({ appointmentStatus: "0" });

      // Hostile input is a 400 naming the field.
      expectField(await call(`${Z}/appointmentDetail/create`, { userInfoId: d.id, mealTimesId, appointmentDate: "2026-13-45" }), "appointmentDate", /./);
      expectField(await call(`${Z}/appointmentDetail/create`, { userInfoId: d.id, mealTimesId, appointmentDate: dayFrom(2), remark: "a\u0000b" }), "remark", /./);
      expectField(await call(`${Z}/appointmentDetail/create`, { userInfoId: 1e300, mealTimesId, appointmentDate: dayFrom(2) }), "userInfoId", /./);
      // Another tenant's diner cannot book this tenant's meal.
      expectField(await book((await diner(other.token)).id, mealTimesId, dayFrom(2), other.token), "mealTimesId", /./);
    });

    test("50 diners racing for the last 10 places: exactly 10 are booked, the others hear the remaining count", async () => {
      const { mealTimesId } = await period(12);
      const early = [await diner(), await diner()];
      for (const d of early) expect((await book(d.id, mealTimesId)).status).toBe(200);
      const diners: Row[] = [];
      for (let i = 0; i < 50; i++) diners.push(await diner());
      const results = await Promise.all(diners.map((d) => book(d.id, mealTimesId)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(10);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(40);
      for (const r of refused) expect(r).toMatchObject({ status: 409, message: "该餐次预约已满：每日可预约 12 人，剩余 0 个名额" });
      expect(await count("appointment_detail", { meal_times_id: mealTimesId, appointment_status: 1 })).toBe(12);

      // A cancelled booking frees its place; putting it back takes one again, refused when the meal is full.
      const booked = await app.database.db.selectFrom("appointment_detail").select(["id", "user_info_id"]).where("meal_times_id", "=", mealTimesId).execute();
      await ok(`${Z}/appointmentDetail/update`, { id: booked[0].id, appointmentStatus: "0" });
      const late = diners.find((d) => !booked.some((b) => b.user_info_id === d.id)) as Row;
      expect((await book(late.id, mealTimesId)).status).toBe(200);
      const back = await call(`${Z}/appointmentDetail/update`, { id: booked[0].id, appointmentStatus: "1" });
      expect(back).toMatchObject({ status: 409, message: "该餐次预约已满：每日可预约 12 人，剩余 0 个名额" });
      expect((await get("appointmentDetail", booked[0].id)).appointmentStatus).toBe("0");
    }, 120_000);

    test("paying for the meal completes the booking and the order records 已预约; others record 未预约 or 超出预约时间", async () => {
      const { mealTimesId } = await period(10, { beginDate: dayFrom(-3), endDate: dayFrom(3) });
      const booked = await diner();
      const walkIn = await diner();
      await topUp(booked.id, 5000);
      await topUp(walkIn.id, 5000);
      const booking = await ok(`${Z}/appointmentDetail/create`, { userInfoId: booked.id, mealTimesId, appointmentDate: today() });
      const paid = await ok(`${Z}/cashier/pay`, { userInfoId: booked.id, amount: 1200, mealTimesId });
      expect(await get("appointmentDetail", booking.id)).toMatchObject({ appointmentStatus: "2", orderAppointmentStatus: "2", orderId: paid.orderId });
      expect(await get("mealOrder", paid.orderId)).toMatchObject({ orderAppointmentStatus: "2" });
      const records = await app.database.db.selectFrom("appointment_detail_for_order").selectAll().where("order_id", "=", paid.orderId as number).execute();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ appointment_detail_id: booking.id, user_info_id: booked.id, appointment_date: today(), order_appointment_status: 2, order_no: paid.orderNo });
      // A completed booking is not edited.
      expect(await call(`${Z}/appointmentDetail/update`, { id: booking.id, appointmentStatus: "0" })).toMatchObject({ status: 409, message: "该预约已就餐完成，不能修改" });

      const unbooked = await ok(`${Z}/cashier/pay`, { userInfoId: walkIn.id, amount: 800, mealTimesId });
      expect((await get("mealOrder", unbooked.orderId)).orderAppointmentStatus).toBe("1");
      expect(await count("appointment_detail_for_order", { order_id: unbooked.orderId, order_appointment_status: 1 })).toBe(1);

      // A meal time that takes bookings, but not today: 超出预约时间, no record. One that never took any: nothing.
      const later = await period(10, { beginDate: dayFrom(2), endDate: dayFrom(3) });
      const outside = await ok(`${Z}/cashier/pay`, { userInfoId: walkIn.id, amount: 500, mealTimesId: later.mealTimesId });
      expect((await get("mealOrder", outside.orderId)).orderAppointmentStatus).toBe("3");
      expect(await count("appointment_detail_for_order", { order_id: outside.orderId })).toBe(0);
      const plain = await mealTime();
      const none = await ok(`${Z}/cashier/pay`, { userInfoId: walkIn.id, amount: 500, mealTimesId: plain.mealTimesId });
      expect((await get("mealOrder", none.orderId)).orderAppointmentStatus).toBeNull();
      await ledgerEqualsBalance(booked.id);

      // Entered by hand: an order already recorded is refused; an amount-only order has no meal to book.
      expectField(await call(`${Z}/appointmentDetailForOrder/create`, { orderId: paid.orderId }), "orderId", "该订单已有就餐记录");
      const snack = await ok(`${Z}/cashier/pay`, { userInfoId: walkIn.id, amount: 300 });
      expectField(await call(`${Z}/appointmentDetailForOrder/create`, { orderId: snack.orderId }), "orderId", "按金额收款");
      expectField(await call(`${Z}/appointmentDetailForOrder/create`, { orderId: none.orderId }), "orderId", "未开放过预约");
      expectField(await call(`${Z}/appointmentDetailForOrder/create`, {}), "orderId", "请选择订单");
    });

    test("an order paid before the booking was linked is recorded by hand, completing the booking", async () => {
      const { mealTimesId } = await period(10);
      const d = await diner();
      await topUp(d.id, 2000);
      // The order first (the meal time took no booking of this diner yet): 未预约.
      const paid = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 1000, mealTimesId });
      await app.database.db.deleteFrom("appointment_detail_for_order").where("order_id", "=", paid.orderId as number).execute();
      const booking = await ok(`${Z}/appointmentDetail/create`, { userInfoId: d.id, mealTimesId, appointmentDate: today() });
      const record = await ok(`${Z}/appointmentDetailForOrder/create`, { orderId: paid.orderId, orderAppointmentStatus: "4" });
      expect(record).toMatchObject({ appointmentDetailId: booking.id, orderAppointmentStatus: "2", userInfoId: d.id, orderNo: paid.orderNo });
      expect(await get("appointmentDetail", booking.id)).toMatchObject({ appointmentStatus: "2", orderAppointmentStatus: "2" });
      expect((await get("mealOrder", paid.orderId)).orderAppointmentStatus).toBe("2");
      expectField(await call(`${Z}/appointmentDetailForOrder/update`, { id: record.id, orderId: (await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 100, mealTimesId })).orderId }), "orderId", "登记后不能更换订单");
      expect(await ok(`${Z}/appointmentDetailForOrder/update`, { id: record.id, remark: "补登记" })).toMatchObject({ remark: "补登记" });
    });

    test("the no-show run marks bookings whose meal ended unpaid, once, however many runs race", async () => {
      const { mealTimesId } = await period(10);
      const eats = await diner();
      const skips = await diner();
      const cancels = await diner();
      await topUp(eats.id, 2000);
      const a = await ok(`${Z}/appointmentDetail/create`, { userInfoId: eats.id, mealTimesId, appointmentDate: today() });
      const b = await ok(`${Z}/appointmentDetail/create`, { userInfoId: skips.id, mealTimesId, appointmentDate: today() });
      const c = await ok(`${Z}/appointmentDetail/create`, { userInfoId: cancels.id, mealTimesId, appointmentDate: today() });
      const future = await ok(`${Z}/appointmentDetail/create`, { userInfoId: skips.id, mealTimesId, appointmentDate: dayFrom(1) });
      await ok(`${Z}/appointmentDetail/update`, { id: c.id, appointmentStatus: "0" });
      await ok(`${Z}/cashier/pay`, { userInfoId: eats.id, amount: 1000, mealTimesId });

      // Before the meal ends nothing is marked.
      expect(await markNoShows(app.database.db, app.database.dialect, dayStart(today()) + 12 * 3_600_000)).toBe(0);
      const after = dayStart(today()) + 23 * 3_600_000 + 59 * 60_000;
      const runs = await Promise.all([1, 2, 3, 4].map(() => markNoShows(app.database.db, app.database.dialect, after)));
      expect(runs.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
      expect(await markNoShows(app.database.db, app.database.dialect, after + DAY / 2)).toBe(0);
      expect(await get("appointmentDetail", b.id)).toMatchObject({ appointmentStatus: "1", orderAppointmentStatus: "4" });
      expect(await get("appointmentDetail", a.id)).toMatchObject({ appointmentStatus: "2", orderAppointmentStatus: "2" });
      expect(await get("appointmentDetail", c.id)).toMatchObject({ appointmentStatus: "0", orderAppointmentStatus: null });
      expect((await get("appointmentDetail", future.id)).orderAppointmentStatus).toBeNull();
      expect(await count("appointment_detail_for_order", { appointment_detail_id: b.id, order_appointment_status: 4 })).toBe(1);
      expect(await count("appointment_detail_for_order", { meal_times_id: mealTimesId, order_appointment_status: 4 })).toBe(1);
    });

    describe("special dishes", () => {
      async function plan(extra: Row = {}) {
        const meal = await mealTime();
        const category = await ok(`${Z}/foodType/create`, { typeName: `特色${uid()}`, sort: 0, status: "1" });
        const food = await ok(`${Z}/food/create`, { foodName: `烤鸭${uid()}`, foodTypeId: category.id, restaurantId: meal.restaurantId, price: 6800, onShelf: "1" });
        return ok(`${Z}/orderingPlan/create`, { planName: `烤鸭预订${uid()}`, ...meal, foodId: food.id, beginDate: today(), endDate: dayFrom(3), price: 6800, dailyQuota: 5, payTime: "1", deadlineDays: 0, deadlineTime: "23:59", status: "1", ...extra });
      }
      const reserve = (body: Row, headers: Record<string, string> = {}) => call(`${Z}/orderingFood/create`, { orderDate: today(), quantity: 1, ...body }, tenant.token, headers);

      test("paid at reservation: charged once through the ledger (a retried key changes nothing), refunded on cancel", async () => {
        const p = await plan();
        const d = await diner();
        await topUp(d.id, 20_000);
        const key = { "Idempotency-Key": `reserve-${uid()}` };
        const first = await reserve({ planId: p.id, userInfoId: d.id, quantity: 2, reserveStatus: "2", amount: 1 }, key);
        expect(first, JSON.stringify(first)).toMatchObject({ status: 200, data: { amount: 13_600, reserveStatus: "1", payTime: "1", quantity: 2 } });
        const again = await reserve({ planId: p.id, userInfoId: d.id, quantity: 2, reserveStatus: "2", amount: 1 }, key);
        expect(again).toMatchObject({ status: 200, data: { id: (first.data as Row).id } });
        expect(await balance(d.id)).toBe(20_000 - 13_600);
        const reservation = first.data as Row;
        const order = await get("mealOrder", reservation.orderId);
        expect(order).toMatchObject({ amount: 13_600, orderType: "2", orderStatus: "1" });
        expectField(await reserve({ planId: p.id, userInfoId: d.id }), "userInfoId", "该人员当天已预订此菜品");
        // Only the remark changes after reserving.
        expect(await call(`${Z}/orderingFood/update`, { id: reservation.id, quantity: 1 })).toMatchObject({ status: 409, message: /只能修改备注/ });
        expect(await ok(`${Z}/orderingFood/update`, { id: reservation.id, remark: "少辣" })).toMatchObject({ remark: "少辣" });

        const cancelled = await ok(`${Z}/orderingFood/cancel`, { id: reservation.id });
        expect(cancelled).toMatchObject({ reserveStatus: "0" });
        expect(await balance(d.id)).toBe(20_000);
        expect((await get("mealOrder", reservation.orderId)).orderStatus).toBe("2");
        expect(await call(`${Z}/orderingFood/cancel`, { id: reservation.id })).toMatchObject({ status: 409, message: "该预订当前为「已取消」，不能取消" });
        await ledgerEqualsBalance(d.id);
        // Cancelled, the diner may reserve that dish and day again.
        expect(await reserve({ planId: p.id, userInfoId: d.id })).toMatchObject({ status: 200, data: { amount: 6800 } });

        // Not enough money: refused, nothing written.
        const poor = await diner();
        await topUp(poor.id, 100);
        const before = await count("ordering_food", {});
        expect(await reserve({ planId: p.id, userInfoId: poor.id })).toMatchObject({ status: 409, message: "余额不足（余额 1.00 元）" });
        expect(await count("ordering_food", {})).toBe(before);
      });

      test("the quota holds when 20 diners race for 5 portions; a cancel frees its portion", async () => {
        const p = await plan({ dailyQuota: 5 });
        const diners: Row[] = [];
        for (let i = 0; i < 20; i++) {
          const d = await diner();
          await topUp(d.id, 10_000);
          diners.push(d);
        }
        const results = await Promise.all(diners.map((d, i) => reserve({ planId: p.id, userInfoId: d.id }, { "Idempotency-Key": `race-${uid()}-${i}` })));
        const won = results.filter((r) => r.status === 200);
        expect(won).toHaveLength(5);
        for (const r of results.filter((x) => x.status !== 200)) expect(r).toMatchObject({ status: 409, message: "该菜品当日已约满：每日限量 5 份，剩余 0 份" });
        expect(await count("ordering_food", { plan_id: p.id, reserve_status: 1 })).toBe(5);
        // Only the winners were charged.
        const charged = await Promise.all(diners.map((d) => balance(d.id)));
        expect(charged.filter((b) => b === 10_000 - 6800)).toHaveLength(5);
        expect(charged.filter((b) => b === 10_000)).toHaveLength(15);

        await ok(`${Z}/orderingFood/cancel`, { id: (won[0].data as Row).id });
        const loser = diners[results.findIndex((r) => r.status !== 200)];
        expect((await reserve({ planId: p.id, userInfoId: loser.id, quantity: 2 })).message).toBe("该菜品当日已约满：每日限量 5 份，剩余 1 份");
        expect((await reserve({ planId: p.id, userInfoId: loser.id })).status).toBe(200);
      }, 120_000);

      test("paid at pick-up: nothing charged until the dish is handed over on its day", async () => {
        const p = await plan({ payTime: "2" });
        const d = await diner();
        await topUp(d.id, 10_000);
        const reservation = await ok(`${Z}/orderingFood/create`, { planId: p.id, userInfoId: d.id, orderDate: today(), quantity: 1 });
        expect(reservation).toMatchObject({ payTime: "2", orderId: null, reserveStatus: "1" });
        expect(await balance(d.id)).toBe(10_000);
        const tomorrow = await ok(`${Z}/orderingFood/create`, { planId: p.id, userInfoId: d.id, orderDate: dayFrom(1), quantity: 1 });
        expect(await call(`${Z}/orderingFood/pickUp`, { id: tomorrow.id })).toMatchObject({ status: 409, message: `取餐日期为 ${dayFrom(1)}，今天不能取餐` });
        const key = { "Idempotency-Key": `pick-${uid()}` };
        const picked = await ok(`${Z}/orderingFood/pickUp`, { id: reservation.id }, tenant.token, key);
        expect(picked).toMatchObject({ reserveStatus: "2" });
        expect(picked.orderId).toBeTypeOf("number");
        // A retry with the key answers as the first pick-up did; without it, or with a new key, it is refused; none charges again.
        expect(await ok(`${Z}/orderingFood/pickUp`, { id: reservation.id }, tenant.token, key)).toEqual(picked);
        expect(await call(`${Z}/orderingFood/pickUp`, { id: reservation.id })).toMatchObject({ status: 409, message: "该预订当前为「已完成」，不能取餐" });
        expect(await call(`${Z}/orderingFood/pickUp`, { id: reservation.id }, tenant.token, { "Idempotency-Key": `pick-${uid()}` })).toMatchObject({
          status: 409,
          message: "该预订当前为「已完成」，不能取餐",
        });
        // The key names this pick-up: used for another reservation's pick-up it is refused.
        const other = await ok(`${Z}/orderingFood/create`, { planId: p.id, userInfoId: (await diner()).id, orderDate: today(), quantity: 1 });
        expect(await call(`${Z}/orderingFood/pickUp`, { id: other.id }, tenant.token, key)).toMatchObject({
          status: 409,
          message: "该 Idempotency-Key 已用于另一笔内容不同的请求，请为新的请求使用新的 Idempotency-Key",
        });
        expect(await ok(`${Z}/orderingFood/cancel`, { id: other.id })).toMatchObject({ reserveStatus: "0" });
        expect(await balance(d.id)).toBe(10_000 - 6800);
        // An unpaid reservation is cancelled without touching money.
        expect(await ok(`${Z}/orderingFood/cancel`, { id: tomorrow.id })).toMatchObject({ reserveStatus: "0" });
        expect(await balance(d.id)).toBe(10_000 - 6800);
        await ledgerEqualsBalance(d.id);

        // A dish paid at reservation is handed over once too: the key's retry answers as the first hand-over did.
        const d2 = await diner();
        await topUp(d2.id, 10_000);
        const prepaid = await ok(`${Z}/orderingFood/create`, { planId: (await plan()).id, userInfoId: d2.id, orderDate: today(), quantity: 1 });
        const handKey = { "Idempotency-Key": `hand-${uid()}` };
        const handed = await ok(`${Z}/orderingFood/pickUp`, { id: prepaid.id }, tenant.token, handKey);
        expect(handed).toMatchObject({ reserveStatus: "2", orderId: prepaid.orderId });
        expect(await ok(`${Z}/orderingFood/pickUp`, { id: prepaid.id }, tenant.token, handKey)).toEqual(handed);
        expect(await balance(d2.id)).toBe(10_000 - 6800);
      });

      test("deadline, dates, a disabled plan and hostile input are refused, writing nothing", async () => {
        const closed = await plan({ deadlineTime: "00:00" });
        const d = await diner();
        await topUp(d.id, 10_000);
        expect(await reserve({ planId: closed.id, userInfoId: d.id })).toMatchObject({ status: 409, message: `已过预约截止时间（${today()} 00:00）` });
        const open = await ok(`${Z}/orderingFood/create`, { planId: closed.id, userInfoId: d.id, orderDate: dayFrom(1), quantity: 1 });
        expectField(await reserve({ planId: closed.id, userInfoId: d.id, orderDate: dayFrom(5) }), "orderDate", `取餐日期不在计划的日期范围内（${today()} 至 ${dayFrom(3)}）`);
        const off = await plan({ status: "0" });
        expectField(await reserve({ planId: off.id, userInfoId: d.id }), "planId", "该订餐计划已停用");
        expectField(await reserve({ planId: closed.id, userInfoId: d.id, orderDate: dayFrom(2), quantity: 1e9 }), "quantity", /./);
        expectField(await reserve({ planId: closed.id, userInfoId: d.id, orderDate: dayFrom(2), remark: "\u0000" }), "remark", /./);
        expectField(await reserve({ planId: "x", userInfoId: d.id }), "planId", /./);
        expectField(await call(`${Z}/orderingFood/create`, { planId: closed.id, userInfoId: (await diner(other.token)).id, orderDate: dayFrom(2), quantity: 1 }, other.token), "planId", /./);
        expect(await balance(d.id)).toBe(10_000 - 6800);
        expect(open).toMatchObject({ reserveStatus: "1" });
        expect(await count("ordering_food", { user_info_id: d.id })).toBe(1);
      });
    });
  });
}
