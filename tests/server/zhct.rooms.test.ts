import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { expectNoInternals } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const Z = "/api/v1/zhct";
const DAY = 86_400_000;

for (const dialect of dialects) {
  describe(`${dialect}: rooms and reservations, table and plate bindings`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let restaurantId: number;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const dayFrom = (days: number) => dayOf(Date.now() + days * DAY);

    const call = (method: "GET" | "POST", path: string, body: unknown, as = tenant.token) => app.call<unknown>(method, path, { token: as, body });
    const post = async (path: string, body: unknown, as = tenant.token) => (await call("POST", path, body, as)).body as Envelope;
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call("POST", path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function page(entity: string, query: Row, as = tenant.token) {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const result = await call("GET", `${Z}/${entity}/findPage?${params}`, undefined, as);
      expect(result.body.status, JSON.stringify(result.body)).toBe(200);
      return (result.body.data as { records: Row[] }).records;
    }
    const restaurant = async (name: string, as = tenant.token) => (await ok("/api/v1/auth/org/create", { orgName: name, orgType: "restaurant", sort: 0, status: "1" }, as)).id as number;
    const newRoom = (body: Row = {}, as = tenant.token) => ok(`${Z}/room/create`, { roomName: `牡丹厅${uid()}`, restaurantId, capacity: 12, equipment: "投影仪、音响", status: "1", ...body }, as);
    const reserve = (roomId: unknown, body: Row = {}) => post(`${Z}/roomReservation/create`, { roomId, reserveDate: dayFrom(3), beginTime: "11:30", endTime: "13:00", organizer: "张经理", attendees: 8, standardPerHead: 8800, reserveStatus: "1", ...body });
    const diner = async (name = "李就餐", as = tenant.token) => ok(`${Z}/userInfo/create`, { userCode: `R${uid()}`, userName: name }, as);
    const card = async (userInfoId: unknown) => ok(`${Z}/userIcCard/create`, { cardNo: `C${uid()}`.slice(0, 20), userInfoId, cardType: "1" });
    const topUp = (userInfoId: unknown, amount: number) => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType: "cash" });
    const bindPlate = (body: Row, as = tenant.token) => post(`${Z}/userPlate/bind`, body, as);
    const plateRow = async (id: unknown) => (await call("GET", `${Z}/userPlate/getInfo?id=${id}`, undefined)).body.data as Row;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rm${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rmo${dialect}`);
      restaurantId = await restaurant("东区餐厅");
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("a room belongs to a restaurant of the tenant, with a capacity; names are unique per restaurant", async () => {
      const created = await newRoom({ roomName: "牡丹厅" });
      expect(created).toMatchObject({ roomName: "牡丹厅", capacity: 12, equipment: "投影仪、音响", status: "1" });
      expectField(await post(`${Z}/room/create`, { roomName: "牡丹厅", restaurantId, capacity: 10, status: "1" }), "roomName", "该餐厅已有同名包间");
      expectField(await post(`${Z}/room/create`, { roomName: "兰花厅", restaurantId: tenant.rootOrgId, capacity: 10, status: "1" }), "restaurantId", /不是餐厅/);
      expectField(await post(`${Z}/room/create`, { roomName: "兰花厅", restaurantId, capacity: 0, status: "1" }), "capacity", "容纳人数不能小于 1");
      expectField(await post(`${Z}/room/create`, { roomName: "兰花厅", restaurantId, capacity: 1e20, status: "1" }), "capacity", /不能大于/);
      expectField(await post(`${Z}/room/create`, { roomName: "兰\u0000花厅", restaurantId, capacity: 10, status: "1" }), "roomName", "包间名称含有无法保存的字符");
      expectField(await post(`${Z}/room/create`, { roomName: "兰花厅", restaurantId, capacity: 10, status: "7" }), "status", "状态不是可选的值");
      // Another tenant sees none of it and cannot name this tenant's restaurant.
      expectField(await post(`${Z}/room/create`, { roomName: "兰花厅", restaurantId, capacity: 10, status: "1" }, other.token), "restaurantId", "所选所属餐厅不存在");
      expect(await page("room", {}, other.token)).toEqual([]);
    });

    test("a reservation: end after begin, attendees within the room's capacity, not in the past, an enabled room", async () => {
      const room = await newRoom({ capacity: 10 });
      expectField(await reserve(room.id, { beginTime: "13:00", endTime: "11:30" }), "endTime", "结束时间必须晚于开始时间");
      expectField(await reserve(room.id, { beginTime: "13:00", endTime: "13:00" }), "endTime", "结束时间必须晚于开始时间");
      expectField(await reserve(room.id, { attendees: 11 }), "attendees", `就餐人数 11 人超过包间「${room.roomName}」的容纳人数 10 人`);
      expectField(await reserve(room.id, { reserveDate: dayFrom(-1) }), "reserveDate", "预约日期不能早于今天");
      expectField(await reserve(room.id, { beginTime: "25:00" }), "beginTime", "开始时间格式应为 HH:mm");
      expectField(await reserve(room.id, { reserveStatus: "9" }), "reserveStatus", "预约状态不是可选的值");
      expectField(await reserve(room.id, { standardPerHead: -1 }), "standardPerHead", "不能为负数");
      const disabled = await newRoom({ status: "0" });
      expectField(await reserve(disabled.id), "roomId", `包间「${disabled.roomName}」已停用，不能预约`);
      // Another tenant's room is not there to book.
      expectField(await post(`${Z}/roomReservation/create`, { roomId: room.id, reserveDate: dayFrom(3), beginTime: "11:30", endTime: "13:00", organizer: "外人", attendees: 2, standardPerHead: 0, reserveStatus: "1" }, other.token), "roomId", "所选包间不存在");
      expect(await page("roomReservation", { roomId: room.id })).toEqual([]);
      const done = await reserve(room.id, { attendees: 10 });
      expect(done.data).toMatchObject({ attendees: 10, reserveStatus: "1", standardPerHead: 8800, organizer: "张经理" });
    });

    test("a room's capacity cannot fall below a reservation still to come; a cancelled one does not hold it", async () => {
      const room = await newRoom({ capacity: 20 });
      const big = await reserve(room.id, { attendees: 16, organizer: "王主任", reserveDate: dayFrom(5) });
      expect(big.status).toBe(200);
      await reserve(room.id, { attendees: 12, reserveDate: dayFrom(6) });
      const cancelled = await reserve(room.id, { attendees: 18, reserveDate: dayFrom(7) });
      await ok(`${Z}/roomReservation/update`, { id: (cancelled.data as Row).id, reserveStatus: "0", updatedAt: (cancelled.data as Row).updatedAt });
      const update = async (capacity: number) => {
        const current = (await call("GET", `${Z}/room/getInfo?id=${room.id}`, undefined)).body.data as Row;
        return post(`${Z}/room/update`, { id: room.id, capacity, updatedAt: current.updatedAt });
      };
      expectField(await update(15), "capacity", `${dayFrom(5)}「王主任」的预约有 16 人，容纳人数不能少于 16 人（请先调整或取消该预约）`);
      expect(((await call("GET", `${Z}/room/getInfo?id=${room.id}`, undefined)).body.data as Row).capacity).toBe(20);
      expect((await update(16)).status).toBe(200);
      // Raising it again is never refused.
      expect((await update(30)).status).toBe(200);
    });

    test("two reservations of one room never overlap on a date; the refusal names the other; cancelling frees the time; edits re-check", async () => {
      const room = await newRoom();
      const date = dayFrom(5);
      const first = (await reserve(room.id, { reserveDate: date, organizer: "王主任", beginTime: "11:30", endTime: "13:30" })).data as Row;
      const conflict = `包间「${room.roomName}」${date} 11:30–13:30 已被「王主任」预约，与所选时段冲突`;
      expectField(await reserve(room.id, { reserveDate: date, beginTime: "12:00", endTime: "12:30" }), "beginTime", conflict);
      expectField(await reserve(room.id, { reserveDate: date, beginTime: "10:00", endTime: "14:00" }), "beginTime", conflict);
      expectField(await reserve(room.id, { reserveDate: date, beginTime: "13:29", endTime: "15:00" }), "beginTime", conflict);
      // Back to back is not an overlap; another date, another room or another tenant is free.
      const after = (await reserve(room.id, { reserveDate: date, organizer: "赵科长", beginTime: "13:30", endTime: "15:00" })).data as Row;
      expect((await reserve(room.id, { reserveDate: date, organizer: "早茶", beginTime: "09:00", endTime: "11:30" })).status).toBe(200);
      expect((await reserve(room.id, { reserveDate: dayFrom(6), beginTime: "12:00", endTime: "12:30" })).status).toBe(200);
      expect((await reserve((await newRoom()).id, { reserveDate: date, beginTime: "12:00", endTime: "12:30" })).status).toBe(200);

      // An edit moving a reservation onto another is refused, naming it; an edit of other fields passes.
      expectField(await post(`${Z}/roomReservation/update`, { id: after.id, beginTime: "13:00" }), "beginTime", conflict);
      expect(await ok(`${Z}/roomReservation/update`, { id: after.id, phone: "138-0000-0000", remark: "靠窗" })).toMatchObject({ beginTime: "13:30", phone: "138-0000-0000" });
      expectField(await post(`${Z}/roomReservation/update`, { id: after.id, attendees: 13 }), "attendees", /超过包间/);

      // Cancelling the first frees 11:30–13:30: the edit that was refused now passes, and a new one may take the rest.
      await ok(`${Z}/roomReservation/update`, { id: first.id, reserveStatus: "0" });
      expect(await ok(`${Z}/roomReservation/update`, { id: after.id, beginTime: "13:00" })).toMatchObject({ beginTime: "13:00", endTime: "15:00" });
      const taken = (await reserve(room.id, { reserveDate: date, organizer: "孙处长", beginTime: "11:30", endTime: "13:00" })).data as Row;
      // The cancelled one cannot come back over them: reviving re-checks.
      expectField(await post(`${Z}/roomReservation/update`, { id: first.id, reserveStatus: "1" }), "beginTime", `已被「孙处长」预约`);
      // A completed reservation still holds its time.
      await ok(`${Z}/roomReservation/update`, { id: taken.id, reserveStatus: "2" });
      expectField(await reserve(room.id, { reserveDate: date, beginTime: "12:00", endTime: "12:10" }), "beginTime", "已被「孙处长」预约");
      const rows = await page("roomReservation", { roomId: room.id, reserveDateBegin: date, reserveDateEnd: date, reserveStatus: "1" });
      expect(rows.map((r) => r.organizer).sort()).toEqual(["早茶", "赵科长"]);
      expect(rows[0].roomIdLabel).toBe(room.roomName);
    });

    test("concurrent overlapping reservations of one room: exactly one is taken, the rest are refused naming it", async () => {
      const room = await newRoom({ capacity: 20 });
      const date = dayFrom(7);
      const n = 10;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => reserve(room.id, { reserveDate: date, organizer: `预订人${i}`, beginTime: `1${i % 2}:${i % 2 ? "15" : "45"}`, endTime: "12:30" })),
      );
      const won = results.filter((r) => r.status === 200);
      expect(won, JSON.stringify(results.map((r) => r.message))).toHaveLength(1);
      const winner = won[0].data as Row;
      for (const lost of results.filter((r) => r.status !== 200)) {
        expectField(lost, "beginTime", `已被「${winner.organizer}」预约`);
        expectNoInternals(lost);
      }
      const held = await app.database.db.selectFrom("room_reservation").select("id").where("tenant_id", "=", tenant.tenantId).where("room_id", "=", room.id as number).execute();
      expect(held).toHaveLength(1);

      // Two edits racing onto one free slot: one moves, the other is refused.
      const a = (await reserve(room.id, { reserveDate: date, organizer: "甲", beginTime: "17:00", endTime: "18:00" })).data as Row;
      const b = (await reserve(room.id, { reserveDate: date, organizer: "乙", beginTime: "19:00", endTime: "20:00" })).data as Row;
      const moves = await Promise.all([a, b].map((r) => post(`${Z}/roomReservation/update`, { id: r.id, beginTime: "14:00", endTime: "15:00" })));
      expect(moves.map((m) => m.status).sort()).toEqual([200, 400]);
      const slots = await page("roomReservation", { roomId: room.id, reserveDateBegin: date, reserveDateEnd: date });
      expect(slots.filter((r) => r.beginTime === "14:00")).toHaveLength(1);
    });

    test("a room with reservations is not deleted; an empty one is", async () => {
      const room = await newRoom();
      await reserve(room.id);
      expect((await call("GET", `${Z}/room/delete?id=${room.id}`, undefined)).body).toMatchObject({ status: 409, message: "该包间仍被其他数据引用，不能删除" });
      const empty = await newRoom();
      const removed = await call("GET", `${Z}/room/delete?id=${empty.id}`, undefined);
      expect(removed.body.status).toBe(200);
    });

    test("a plate is bound to one diner at a time: a bound plate is refused naming its holder, a retry by the holder is the same binding", async () => {
      const holder = await diner("周持盘");
      const next = await diner("吴等待");
      const c = await card(holder.id);
      const bound = await bindPlate({ plateNo: "e200a1", cardNo: c.cardNo, deviceCode: "GATE-1" });
      expect(bound, JSON.stringify(bound)).toMatchObject({ status: 200, data: { plateNo: "E200A1", userInfoId: holder.id, userInfoIdLabel: "周持盘", bindStatus: "1", bindDate: dayOf(Date.now()), releasedAt: null } });
      const id = (bound.data as Row).id;
      expect(await bindPlate({ plateNo: "E200A1", userInfoId: holder.id })).toMatchObject({ status: 200, data: { id } });
      expect(await bindPlate({ plateNo: "E200A1", userInfoId: next.id })).toMatchObject({ status: 409, message: `餐盘 E200A1 已绑定给「周持盘」（${holder.userCode}），请先解绑` });
      // Released, it may be bound again; a second release is refused.
      expect(await post(`${Z}/userPlate/release`, { plateNo: "E200A1" })).toMatchObject({ status: 200, data: { bindStatus: "0" } });
      expect(await post(`${Z}/userPlate/release`, { id })).toMatchObject({ status: 409, message: "该绑定已解绑" });
      expect(await post(`${Z}/userPlate/release`, { plateNo: "E200A1" })).toMatchObject({ status: 409, message: "餐盘 E200A1 当前没有绑定" });
      expect(await bindPlate({ plateNo: "E200A1", userInfoId: next.id })).toMatchObject({ status: 200, data: { userInfoIdLabel: "吴等待" } });
      // The other tenant's plates are its own: the same number is free there, and this tenant's binding is not its to release.
      const stranger = await diner("外租户", other.token);
      expect(await bindPlate({ plateNo: "E200A1", userInfoId: stranger.id }, other.token)).toMatchObject({ status: 200 });
      expect(await post(`${Z}/userPlate/release`, { id }, other.token)).toMatchObject({ status: 404 });
      expectField(await bindPlate({ plateNo: "E2", userInfoId: holder.id }, other.token), "userInfoId", /不存在/);
      // Bad input is a 400 naming the field.
      expectField(await bindPlate({ plateNo: "E2\u0000", userInfoId: holder.id }), "plateNo", /餐盘号/);
      expectField(await bindPlate({ plateNo: "盘子", userInfoId: holder.id }), "plateNo", "餐盘号只能包含字母、数字和 -");
      expectField(await bindPlate({ plateNo: "E3", userInfoId: 1e30 }), "userInfoId", /不能大于/);
      expectField(await bindPlate({ plateNo: "E3" }), "cardNo", "请刷卡或选择就餐人员");
      expectField(await bindPlate({ userInfoId: holder.id }), "plateNo", "请输入餐盘号");
      expect(await bindPlate({ plateNo: "E3", cardNo: "NO-SUCH" })).toMatchObject({ status: 409, message: "卡号不存在" });
    });

    test("concurrent binds of one plate by different diners: exactly one holds it, the others are told who", async () => {
      const diners = await Promise.all(Array.from({ length: 8 }, (_, i) => diner(`抢盘${i}`)));
      const results = await Promise.all(diners.map((d) => bindPlate({ plateNo: "RACE-1", userInfoId: d.id })));
      const won = results.filter((r) => r.status === 200);
      expect(won, JSON.stringify(results.map((r) => r.message))).toHaveLength(1);
      const winner = (won[0].data as Row).userInfoIdLabel;
      for (const lost of results.filter((r) => r.status !== 200)) expect(lost).toMatchObject({ status: 409, message: expect.stringContaining(`已绑定给「${winner}」`) });
      const bound = await app.database.db.selectFrom("user_plate").select("id").where("tenant_id", "=", tenant.tenantId).where("plate_no", "=", "RACE-1").where("bind_status", "=", 1).execute();
      expect(bound).toHaveLength(1);
    });

    test("paying the meal releases the diner's plates for it and names the order; a refused payment releases nothing", async () => {
      const d = await diner("郑结算");
      const poor = await diner("钱不足");
      await topUp(d.id, 5000);
      const plate = (await bindPlate({ plateNo: "PAY-1", userInfoId: d.id })).data as Row;
      const unpaid = (await bindPlate({ plateNo: "PAY-2", userInfoId: poor.id })).data as Row;
      // Another diner's plate stays bound.
      const bystander = (await bindPlate({ plateNo: "PAY-3", userInfoId: (await diner("旁人")).id })).data as Row;
      expect(await post(`${Z}/cashier/pay`, { userInfoId: poor.id, amount: 1200 })).toMatchObject({ status: 409 });
      expect(await plateRow(unpaid.id)).toMatchObject({ bindStatus: "1", orderId: null });
      const paid = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 1200 });
      const released = await plateRow(plate.id);
      expect(released).toMatchObject({ bindStatus: "0", orderId: paid.orderId, orderIdLabel: paid.orderNo });
      expect(released.releasedAt).toBeTypeOf("number");
      expect(await plateRow(bystander.id)).toMatchObject({ bindStatus: "1" });
      // The plate is free again.
      expect((await bindPlate({ plateNo: "PAY-1", userInfoId: poor.id })).status).toBe(200);
    });

    test("a plate bound for a meal time is settled by that meal's order, not by an amount-only sale", async () => {
      const restaurant2 = await restaurant(`西区餐厅${uid()}`);
      const mealTime = await ok(`${Z}/mealTimes/create`, { restaurantId: restaurant2, mealTimeName: "全天", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
      const category = await ok(`${Z}/foodType/create`, { typeName: `热菜${uid()}`, sort: 0, status: "1" });
      const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: `午餐${uid()}`, restaurantId: restaurant2, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
      const menu = await ok(`${Z}/foodMenu/create`, { menuDate: dayOf(Date.now()), foodMenuTypeId: menuType.id, status: "0" });
      const food = await ok(`${Z}/food/create`, { foodName: `红烧肉${uid()}`, foodTypeId: category.id, restaurantId: restaurant2, price: 1800, onShelf: "1" });
      await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: food.id, price: 1800, sort: 0 });
      await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });
      const d = await diner("冯午餐");
      await topUp(d.id, 10_000);
      const plate = (await bindPlate({ plateNo: "MEAL-1", userInfoId: d.id, mealTimesId: mealTime.id })).data as Row;
      expect(plate).toMatchObject({ mealTimesId: mealTime.id, mealTimesIdLabel: "全天" });
      await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 300 });
      expect(await plateRow(plate.id)).toMatchObject({ bindStatus: "1" });
      const paid = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, mealTimesId: mealTime.id, items: [{ foodId: food.id, quantity: 1 }] });
      expect(await plateRow(plate.id)).toMatchObject({ bindStatus: "0", orderId: paid.orderId });
      expectField(await bindPlate({ plateNo: "MEAL-2", userInfoId: d.id, mealTimesId: 123 }), "mealTimesId", "所选餐次不存在");
    });

    test("a diner sits at one table at a time: moving releases the old seat, the order paid while seated is noted, devices clear tables", async () => {
      const d = await diner("陈入座");
      const e = await diner("林同桌");
      await topUp(d.id, 5000);
      const c = await card(d.id);
      const seat = await ok(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "A01", cardNo: c.cardNo, deviceCode: "TABLE-A01" });
      expect(seat).toMatchObject({ tableNo: "A01", restaurantIdLabel: "东区餐厅", userInfoIdLabel: "陈入座", bindStatus: "1", orderId: null });
      expect(await ok(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "A01", userInfoId: d.id })).toMatchObject({ id: seat.id });
      const moved = await ok(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "A02", userInfoId: d.id });
      const old = (await call("GET", `${Z}/userAccountTable/getInfo?id=${seat.id}`, undefined)).body.data as Row;
      expect(old).toMatchObject({ bindStatus: "0" });
      expect(old.releasedAt).toBeTypeOf("number");
      await ok(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "A02", userInfoId: e.id });
      const paid = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 1500 });
      expect((await call("GET", `${Z}/userAccountTable/getInfo?id=${moved.id}`, undefined)).body.data).toMatchObject({ orderId: paid.orderId, orderIdLabel: paid.orderNo, bindStatus: "1" });

      // The query: by table, by diner, by date range.
      const today = dayOf(Date.now());
      expect((await page("userAccountTable", { tableNo: "A02" })).map((r) => r.userInfoIdLabel).sort()).toEqual(["林同桌", "陈入座"]);
      expect((await page("userAccountTable", { userInfoId: d.id })).map((r) => r.tableNo)).toEqual(["A02", "A01"]);
      expect(await page("userAccountTable", { userInfoId: d.id, bindDateBegin: dayFrom(1), bindDateEnd: dayFrom(2) })).toEqual([]);
      expect(await page("userAccountTable", { userInfoId: d.id, bindDateBegin: today, bindDateEnd: today })).toHaveLength(2);
      expect(await page("userAccountTable", {}, other.token)).toEqual([]);

      // One diner leaves; then the device clears the table; a table with nobody is refused.
      expect(await ok(`${Z}/userAccountTable/release`, { restaurantId, tableNo: "A02", userInfoId: e.id })).toMatchObject({ released: [{ userInfoIdLabel: "林同桌", bindStatus: "0" }] });
      expect(await ok(`${Z}/userAccountTable/release`, { restaurantId, tableNo: "A02" })).toMatchObject({ released: [{ userInfoIdLabel: "陈入座" }] });
      expect(await post(`${Z}/userAccountTable/release`, { restaurantId, tableNo: "A02" })).toMatchObject({ status: 409, message: "餐桌 A02 当前没有绑定中的就餐人员" });
      expectField(await post(`${Z}/userAccountTable/release`, {}), "tableNo", "请指定要解绑的绑定记录（id）或餐盘号/桌号");
      expectField(await post(`${Z}/userAccountTable/release`, { id: moved.id, restaurantId, tableNo: "A02" }), "id", "按绑定记录（id）解绑时不要同时指定餐盘、餐桌或人员");
      expectField(await post(`${Z}/userAccountTable/bind`, { restaurantId: tenant.rootOrgId, tableNo: "A03", userInfoId: d.id }), "restaurantId", /不是餐厅/);
      expectField(await post(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "", userInfoId: d.id }), "tableNo", "请输入桌号");
      expectField(await post(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "A".repeat(21), userInfoId: d.id }), "tableNo", "桌号不能超过 20 个字符");
      expectField(await post(`${Z}/userAccountTable/bind`, { restaurantId: "x", tableNo: "A1", userInfoId: d.id }), "restaurantId", /必须是数字/);
    });

    test("concurrent binds of one diner at several tables leave exactly one seat, the rest released", async () => {
      const d = await diner("赵多桌");
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: `B0${i}`, userInfoId: d.id })));
      // Each bind moves the diner: they run one after the other, so every one succeeds and the last one holds.
      for (const r of results) expect(r.status, JSON.stringify(r)).toBe(200);
      const open = await app.database.db.selectFrom("user_account_table").select("id").where("tenant_id", "=", tenant.tenantId).where("user_info_id", "=", d.id as number).where("bind_status", "=", 1).execute();
      expect(open).toHaveLength(1);
    });

    test("binding and releasing need their permission codes", async () => {
      const roleId = (await ok("/api/v1/auth/role/create", { roleCode: `viewer${uid()}`, roleName: "只读", roleType: "user", status: "1" })).id as number;
      const userName = `rm.${uid()}`;
      await ok("/api/v1/auth/user/create", { user: { userName, realName: "只读员", orgId: tenant.rootOrgId, status: "1", password: "Initial-Room-1" }, roleIds: [roleId] });
      const token = await loginAs(app, userName, "Initial-Room-1");
      await ok("/api/v1/auth/user/modifyPasswd", { oldPassword: "Initial-Room-1", newPassword: "Changed-Room-2" }, token);
      const d = await diner("权限测试");
      expect(await bindPlate({ plateNo: "PERM-1", userInfoId: d.id }, token)).toMatchObject({ status: 403 });
      expect(await post(`${Z}/userAccountTable/bind`, { restaurantId, tableNo: "P1", userInfoId: d.id }, token)).toMatchObject({ status: 403 });
      expect(await post(`${Z}/userPlate/release`, { plateNo: "PERM-1" }, token)).toMatchObject({ status: 403 });
      expect(await post(`${Z}/roomReservation/create`, {}, token)).toMatchObject({ status: 403 });
    });
  });
}
