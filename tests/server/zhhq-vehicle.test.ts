import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, chinaDayStart, DAY_MS } from "../../resources/chinaTime";
import { drainOutbox, logSender } from "../../server/modules/zhct/outbox";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

/**
 * Vehicles and notices to residents as the office runs them (issue 36, decision 083): a travel request dispatched,
 * out and back with its distance; no car or driver in two overlapping trips, also when two dispatches race; a car out
 * of service or uninsured for the trip refused; the odometer only forward; insurance and inspection on the warnings;
 * a notice to a building reaching each resident through the outbox, with its delivery state; tenants apart.
 */
const H = "/api/v1/zhhq";
const Z = "/api/v1/zhct";
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`${dialect}: 车辆与住宿通知`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    // Trips start from a fixed day well ahead, each test on its own days.
    const base = chinaDayStart(chinaDay(Date.now())) + 40 * DAY_MS;
    const day = (n: number) => chinaDay(base + n * DAY_MS);
    let plates = 0;
    const plate = () => `京A${String(10000 + (++plates % 90000) + (dialect === "postgres" ? 50000 : 0)).slice(-5)}`;

    const call = (path: string, body: unknown, as = tenant.token) => app.call<unknown>("POST", path, { token: as, body });
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return (result.body as Envelope<Row>).data;
    }
    const get = async (path: string, query: Row = {}, as = tenant.token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope<Row & { records: Row[] }>;
    const info = async (entity: string, id: unknown, as = tenant.token) => (await get(`${H}/${entity}/getInfo`, { id }, as)).data;
    const diner = (name: string, as = tenant.token) => ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: name, phone: "13800000000" }, as);
    const vehicle = (body: Row = {}, as = tenant.token) =>
      ok(`${H}/vehicles/create`, { plateNo: plate(), brand: "丰田", model: "考斯特", seats: 7, fuelType: "gasoline", odometer: 1000, insuranceExpiry: day(400), inspectionExpiry: day(400), ...body }, as);
    /** A request from day n, hour h, for `hours`. */
    const request = (n: number, h: number, hours: number, body: Row = {}, as = tenant.token) =>
      ok(`${H}/travelRequests/create`, { applicant: "王主任", purpose: "接待", fromPlace: "本部", toPlace: "机场", passengers: 3, startTime: base + n * DAY_MS + h * HOUR, endTime: base + n * DAY_MS + (h + hours) * HOUR, ...body }, as);
    const dispatch = (id: unknown, vehicleId: unknown, driverId?: unknown, as = tenant.token) => call(`${H}/travelRequests/dispatch`, { id, vehicleId, ...(driverId ? { driverId } : {}) }, as);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `vh${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `vho${dialect}`);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("a request dispatched, out and back: the distance is in − out and the car's odometer advances", async () => {
      const driver = await diner("李师傅");
      const car = await vehicle({ driverId: driver.id, odometer: 12_000 });
      const trip = await request(1, 8, 4);
      expect(trip).toMatchObject({ requestStatus: "0", vehicleId: null });
      expect(String(trip.requestNo)).toMatch(/^YC\d{8}-\d{3}$/);
      // No driver named: the car's own.
      const sent = (await dispatch(trip.id, car.id)).body as Envelope<Row>;
      expect(sent).toMatchObject({ status: 200, data: { requestStatus: "1", vehicleIdLabel: car.plateNo, driverIdLabel: "李师傅" } });
      expect(await info("travelRequests", trip.id)).toMatchObject({ requestStatus: "1", vehicleId: car.id, driverId: driver.id, vehicleIdLabel: car.plateNo });
      // Out: not below the car's odometer.
      expectField((await call(`${H}/travelRequests/depart`, { id: trip.id, odometerOut: 11_999 })).body, "odometerOut", "出车里程不能小于车辆当前里程 12000 公里");
      expect(await ok(`${H}/travelRequests/depart`, { id: trip.id, odometerOut: 12_010 })).toMatchObject({ requestStatus: "2", odometerOut: 12_010 });
      // Back: never below out, so the distance is never negative.
      expectField((await call(`${H}/travelRequests/return`, { id: trip.id, odometerIn: 12_009 })).body, "odometerIn", "还车里程不能小于出车里程 12010 公里");
      expect((await info("travelRequests", trip.id)).requestStatus).toBe("2");
      expect(await ok(`${H}/travelRequests/return`, { id: trip.id, odometerIn: 12_096 })).toMatchObject({ requestStatus: "3", odometerIn: 12_096, distance: 86 });
      expect(await info("vehicles", car.id)).toMatchObject({ odometer: 12_096 });
      // A returned trip takes no more steps.
      const again = await call(`${H}/travelRequests/return`, { id: trip.id, odometerIn: 13_000 });
      expect(again.http).toBe(409);
      expect((again.body as Envelope).message).toBe("该用车申请当前为「已还车」，不能还车");
      // Bad input: 400 naming the field.
      expectField((await call(`${H}/travelRequests/create`, { applicant: "王", purpose: "x", fromPlace: "a", toPlace: "b", passengers: 1, startTime: base + 10 * HOUR, endTime: base + 9 * HOUR })).body, "endTime", "结束时间应晚于开始时间");
      expectField((await call(`${H}/vehicles/create`, { plateNo: "ABC", brand: "a", model: "b", seats: 5, fuelType: "gasoline", insuranceExpiry: day(1), inspectionExpiry: day(1) })).body, "plateNo", /车牌号格式/);
      expectField((await call(`${H}/vehicles/create`, { plateNo: car.plateNo, brand: "a", model: "b", seats: 5, fuelType: "gasoline", insuranceExpiry: day(1), inspectionExpiry: day(1) })).body, "plateNo", /已存在/);
    });

    test("a car or a driver is never in two overlapping trips (409 naming the other); rejected and cancelled ones free them", async () => {
      const [d1, d2] = [await diner("赵师傅"), await diner("钱师傅")];
      const car = await vehicle({ driverId: d1.id });
      const car2 = await vehicle();
      const first = await request(2, 8, 4);
      await ok(`${H}/travelRequests/dispatch`, { id: first.id, vehicleId: car.id });
      const overlap = await request(2, 11, 3);
      const busy = await dispatch(overlap.id, car.id, d2.id);
      expect(busy.http).toBe(409);
      expect((busy.body as Envelope).message).toMatch(new RegExp(`^车辆 ${car.plateNo} 已派给用车申请 ${first.requestNo}（.+ 08:00–.+ 12:00），时间重叠$`));
      // The driver too, in another car.
      const driverBusy = await dispatch(overlap.id, car2.id, d1.id);
      expect(driverBusy.http).toBe(409);
      expect((driverBusy.body as Envelope).message).toMatch(new RegExp(`^驾驶员 赵师傅 已派给用车申请 ${first.requestNo}`));
      expect((await info("travelRequests", overlap.id)).requestStatus).toBe("0");
      // Back to back is not an overlap.
      const after = await request(2, 12, 2);
      await ok(`${H}/travelRequests/dispatch`, { id: after.id, vehicleId: car.id });
      // A cancelled trip frees the car; a rejected request needs its reason.
      await ok(`${H}/travelRequests/cancel`, { id: first.id });
      const stillBusy = await dispatch(overlap.id, car.id, d2.id);
      expect((stillBusy.body as Envelope).message).toMatch(new RegExp(`已派给用车申请 ${after.requestNo}`));
      await ok(`${H}/travelRequests/cancel`, { id: after.id });
      expect((await dispatch(overlap.id, car.id, d1.id)).http).toBe(200);
      const refused = await request(3, 8, 1);
      expect((await call(`${H}/travelRequests/reject`, { id: refused.id })).body).toMatchObject({ status: 400 });
      expect(await ok(`${H}/travelRequests/reject`, { id: refused.id, reason: "会议取消" })).toMatchObject({ requestStatus: "8", rejectReason: "会议取消" });
      expect(await info("travelRequests", refused.id)).toMatchObject({ rejectReason: "会议取消" });
    });

    test("two dispatches of one car racing for overlapping trips: exactly one wins", async () => {
      for (let round = 0; round < 3; round++) {
        const driver = await diner(`孙师傅${round}`);
        const car = await vehicle({ driverId: driver.id });
        const trips = await Promise.all([request(5 + round, 8, 4), request(5 + round, 9, 4), request(5 + round, 10, 4)]);
        const answers = await Promise.all(trips.map((t) => dispatch(t.id, car.id)));
        expect(answers.map((a) => a.http).sort()).toEqual([200, 409, 409]);
        expect((await get(`${H}/travelRequests/findPage`, { vehicleId: car.id, requestStatus: "1" })).data.records.length).toBe(1);
      }
      // One driver in two cars at once.
      const driver = await diner("周师傅");
      const [a, b] = [await vehicle(), await vehicle()];
      const trips = await Promise.all([request(9, 8, 4), request(9, 9, 4)]);
      const answers = await Promise.all([dispatch(trips[0].id, a.id, driver.id), dispatch(trips[1].id, b.id, driver.id)]);
      expect(answers.map((x) => x.http).sort()).toEqual([200, 409]);
    });

    test("a car out of service, uninsured or uninspected for the trip's dates, or too small, is not dispatched", async () => {
      const driver = await diner("吴师傅");
      const trip = await request(20, 8, 30); // ends on day 21
      const repairing = await vehicle({ driverId: driver.id, status: "2" });
      const r1 = await dispatch(trip.id, repairing.id);
      expect(r1.http).toBe(409);
      expect((r1.body as Envelope).message).toBe(`车辆 ${repairing.plateNo} 当前为「维修中」，不能派车`);
      const lapsing = await vehicle({ driverId: driver.id, insuranceExpiry: day(20) });
      const r2 = await dispatch(trip.id, lapsing.id);
      expect(r2.http).toBe(409);
      expect((r2.body as Envelope).message).toBe(`车辆 ${lapsing.plateNo} 的保险 ${day(20)} 到期，用车至 ${day(21)}，不能派车`);
      const uninspected = await vehicle({ driverId: driver.id, inspectionExpiry: day(-3) });
      expect(((await dispatch(trip.id, uninspected.id)).body as Envelope).message).toBe(`车辆 ${uninspected.plateNo} 的年检 ${day(-3)} 到期，用车至 ${day(21)}，不能派车`);
      const small = await vehicle({ driverId: driver.id, seats: 2 });
      expectField((await dispatch(trip.id, small.id)).body, "vehicleId", "该车辆 2 个座位，少于乘车人数 3");
      const noDriver = await vehicle();
      expectField((await dispatch(trip.id, noDriver.id)).body, "driverId", "该车辆没有默认驾驶员，请选择驾驶员");
      expect((await info("travelRequests", trip.id)).requestStatus).toBe("0");
      // Insured through the last day: dispatched.
      const fine = await vehicle({ driverId: driver.id, insuranceExpiry: day(21) });
      expect((await dispatch(trip.id, fine.id)).http).toBe(200);
    });

    test("insurance and inspection lapsing within 30 days, or lapsed, are on the warnings", async () => {
      const today = chinaDay(Date.now());
      const plus = (n: number) => chinaDay(chinaDayStart(today) + n * DAY_MS);
      const soon = await vehicle({ insuranceExpiry: plus(10), inspectionExpiry: plus(200) });
      const lapsed = await vehicle({ insuranceExpiry: plus(200), inspectionExpiry: plus(-2) });
      await vehicle({ insuranceExpiry: plus(31), inspectionExpiry: plus(31) });
      await vehicle({ insuranceExpiry: plus(-5), inspectionExpiry: plus(-5), status: "0" }); // retired: no warning
      const answer = (await get(`${H}/warehouseWarning/findPage`)).data as unknown as { records: Row[]; counts: Record<string, number> };
      expect(answer.counts).toMatchObject({ insurance: 1, inspection: 1 });
      expect(answer.records.filter((r) => r.kind === "insurance")).toEqual([expect.objectContaining({ subject: soon.plateNo, expiryDate: plus(10), days: 10, kindLabel: "保险到期", link: `/zhhq/vehicles/index?plateNo=${encodeURIComponent(String(soon.plateNo))}` })]);
      expect(answer.records.filter((r) => r.kind === "inspection")).toEqual([expect.objectContaining({ subject: lapsed.plateNo, expiryDate: plus(-2), days: -2 })]);
      const only = (await get(`${H}/warehouseWarning/findPage`, { kind: "insurance" })).data as unknown as { records: Row[] };
      expect(only.records.map((r) => r.kind)).toEqual(["insurance"]);
      // Another tenant's cars are not on this tenant's warnings.
      const theirs = (await get(`${H}/warehouseWarning/findPage`, {}, other.token)).data as unknown as { counts: Record<string, number> };
      expect(theirs.counts).toMatchObject({ insurance: 0, inspection: 0 });
    });

    test("a notice to a building reaches each resident living there through the outbox, with its delivery state", async () => {
      const building = `${uid()}号楼`;
      const [r1, r2, elsewhere] = [
        await ok(`${H}/dormitory/create`, { building, roomNo: "101", beds: 2 }),
        await ok(`${H}/dormitory/create`, { building, roomNo: "102", beds: 2 }),
        await ok(`${H}/dormitory/create`, { building: `${uid()}号楼`, roomNo: "101", beds: 2 }),
      ];
      const [a, b, c, left] = [await diner("甲"), await diner("乙"), await diner("丙"), await diner("丁")];
      await ok(`${H}/userDormitory/create`, { dormitoryId: r1.id, bedNo: 1, userInfoId: a.id, checkInDate: "2026-01-01" });
      await ok(`${H}/userDormitory/create`, { dormitoryId: r2.id, bedNo: 1, userInfoId: b.id, checkInDate: "2026-01-01" });
      await ok(`${H}/userDormitory/create`, { dormitoryId: elsewhere.id, bedNo: 1, userInfoId: c.id, checkInDate: "2026-01-01" });
      const stay = await ok(`${H}/userDormitory/create`, { dormitoryId: r2.id, bedNo: 2, userInfoId: left.id, checkInDate: "2026-01-01" });
      await ok(`${H}/userDormitory/checkOut`, { id: stay.id, checkOutDate: "2026-02-01" });

      expectField((await call(`${H}/message/create`, { targetType: "building", content: "停水通知" })).body, "building", "发送范围为楼栋时请输入楼栋");
      expectField((await call(`${H}/message/create`, { targetType: "building", building: "无人楼", content: "停水通知" })).body, "building", "无人楼 没有在住人员，通知未发送");
      const before = await app.database.db.selectFrom("user_info_send_message").select((eb) => eb.fn.countAll().as("n")).where("tenant_id", "=", tenant.tenantId).executeTakeFirst();
      expect(Number(before?.n)).toBe(0);

      const notice = await ok(`${H}/message/create`, { targetType: "building", building, content: "明天 9:00–12:00 停水" });
      expect(await info("message", notice.id)).toMatchObject({ recipientCount: 2, targetType: "building", building });
      const query = { relatedEntity: "zhhq/message", relatedId: notice.id, pageSize: 100 };
      const queued = (await get(`${Z}/userInfoSendMessage/findPage`, query)).data.records;
      expect(queued.map((m) => [m.recipientName, m.state, m.content]).sort()).toEqual([
        ["乙", "0", "【住宿通知】明天 9:00–12:00 停水"],
        ["甲", "0", "【住宿通知】明天 9:00–12:00 停水"],
      ]);
      await drainOutbox(app.database.db, logSender, { holder: "test" });
      expect((await get(`${Z}/userInfoSendMessage/findPage`, query)).data.records.map((m) => m.state)).toEqual(["1", "1"]);

      // A room; everyone living in the dormitory.
      expect(await ok(`${H}/message/create`, { targetType: "room", dormitoryId: elsewhere.id, content: "查寝" })).toMatchObject({});
      const all = await ok(`${H}/message/create`, { targetType: "all", content: "全体住宿人员注意" });
      expect((await info("message", all.id)).recipientCount).toBeGreaterThanOrEqual(3);
      // Another tenant sees none of it, and cannot send to this tenant's room.
      expect((await get(`${H}/message/getInfo`, { id: notice.id }, other.token)).status).toBe(404);
      expect((await get(`${Z}/userInfoSendMessage/findPage`, query, other.token)).data.records).toEqual([]);
      expect((await call(`${H}/message/create`, { targetType: "room", dormitoryId: r1.id, content: "x" }, other.token)).body).toMatchObject({ status: 400 });
    });

    test("tenants apart: another tenant's request, car and driver are not found", async () => {
      const driver = await diner("郑师傅");
      const car = await vehicle({ driverId: driver.id });
      const trip = await request(30, 8, 2);
      const theirTrip = await request(30, 8, 2, {}, other.token);
      expect((await get(`${H}/vehicles/getInfo`, { id: car.id }, other.token)).status).toBe(404);
      expect((await dispatch(trip.id, car.id, undefined, other.token)).http).toBe(404);
      expectField((await dispatch(theirTrip.id, car.id, undefined, other.token)).body, "vehicleId", "车辆不存在");
      const theirCar = await vehicle({}, other.token);
      expectField((await dispatch(theirTrip.id, theirCar.id, driver.id, other.token)).body, "driverId", "驾驶员不存在");
      // The same plate may be another tenant's.
      await vehicle({ plateNo: car.plateNo }, other.token);
    });
  });
}
