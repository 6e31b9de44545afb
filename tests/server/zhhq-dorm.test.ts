import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkAccount } from "../../server/modules/zhct/ledger";
import { daysLived, splitByLargestRemainder } from "../../server/modules/zhhq/dorm";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

/**
 * The dormitory as the office runs it (issue 36, decision 074): beds, rooms and the gender rule on check-in, two
 * check-ins racing for the last bed, check-out and history, meter readings, the month's bill split by days lived to
 * the fen, and paying it from the residents' canteen accounts (short balances, retries, never twice).
 */
const H = "/api/v1/zhhq";
const Z = "/api/v1/zhct";

describe("the bill's split", () => {
  test("largest remainder: the parts add up to the total, each within a fen of its exact share, more days never less", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(fc.integer({ min: 0, max: 31 }), { minLength: 1, maxLength: 8 }), (total, days) => {
        const parts = splitByLargestRemainder(total, days);
        const sum = days.reduce((a, b) => a + b, 0);
        if (sum === 0) {
          expect(parts.every((p) => p === 0)).toBe(true);
          return;
        }
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        parts.forEach((part, i) => {
          expect(Number.isInteger(part)).toBe(true);
          expect(Math.abs(part - (total * days[i]) / sum)).toBeLessThan(1);
          if (days[i] === 0) expect(part).toBe(0);
        });
        for (let i = 0; i < days.length; i++) for (let j = 0; j < days.length; j++) if (days[i] > days[j]) expect(parts[i]).toBeGreaterThanOrEqual(parts[j]);
      }),
    );
  });

  test("days lived: from check-in, the check-out day not counted, clipped to the month", () => {
    expect(daysLived("2026-02", "2026-01-15", null)).toBe(28);
    expect(daysLived("2026-03", "2026-03-10", "2026-03-20")).toBe(10);
    expect(daysLived("2026-03", "2026-02-10", "2026-03-01")).toBe(0);
    expect(daysLived("2026-03", "2026-04-01", null)).toBe(0);
    expect(daysLived("2024-02", "2024-02-01", null)).toBe(29);
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: 宿舍`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const call = (path: string, body: unknown, as = tenant.token, headers: Record<string, string> = {}) => app.call<unknown>("POST", path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = tenant.token, headers: Record<string, string> = {}): Promise<Row> {
      const result = await call(path, body, as, headers);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return (result.body as Envelope<Row>).data;
    }
    const get = async (path: string, query: Row = {}, as = tenant.token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope<Row & { records: Row[] }>;
    const info = async (entity: string, id: unknown, as = tenant.token) => (await get(`${H}/${entity}/getInfo`, { id }, as)).data;
    const page = async (path: string, query: Row) => (await get(path, { pageSize: 100, ...query })).data.records;
    const diner = (sex: "0" | "1" | null, name = "张三") => ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: name, ...(sex === null ? {} : { sex }) });
    const topUp = (userInfoId: unknown, amount: number) => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount });
    const room = async (body: Row = {}) => ok(`${H}/dormitory/create`, { building: `${uid()}号楼`, roomNo: "301", beds: 2, ...body });
    const checkIn = (body: Row) => call(`${H}/userDormitory/create`, body);
    const remove = async (entity: string, id: unknown) => (await app.call<unknown>("GET", `${H}/${entity}/delete?id=${id}`, { token: tenant.token })).body as Envelope;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `dm${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `dmo${dialect}`);
    }, 60_000);
    afterAll(async () => {
      // Every account's balance is the sum of its lines, never below zero.
      for (const row of await app.database.db.selectFrom("user_account").select(["tenant_id", "id"]).execute()) {
        const { balance, ledger } = await checkAccount(app.database.db, row.tenant_id, row.id);
        expect(ledger).toBe(balance);
        expect(balance).toBeGreaterThanOrEqual(0);
      }
      await app?.close();
    });

    test("a bed holds one person, a room no more than its beds, a man never in a women's room; check-out keeps the history", async () => {
      const type = await ok(`${H}/roomType/create`, { typeName: `女生双人间${uid()}`, beds: 2, monthlyRent: 30_000, genderRule: "female" });
      const r = await room({ roomTypeId: type.id, beds: undefined });
      expect(await info("dormitory", r.id)).toMatchObject({ beds: null, roomTypeIdLabel: type.typeName, status: "1" });
      const [a, b, c, man, unknown] = [await diner("0", "王芳"), await diner("0", "李娜"), await diner("0", "赵敏"), await diner("1", "张伟"), await diner(null, "未登记")];

      const first = (await checkIn({ dormitoryId: r.id, bedNo: 1, userInfoId: a.id, checkInDate: "2026-03-01" })).body as Envelope<Row>;
      expect(first.data).toMatchObject({ liveStatus: "1", checkOutDate: null });
      expect(await info("userDormitory", first.data.id)).toMatchObject({ liveStatus: "1", dormitoryIdLabel: "301", userInfoIdLabel: "王芳", bedNo: 1 });
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 1, userInfoId: b.id, checkInDate: "2026-03-02" })).body, "bedNo", "该床位已有人员入住（王芳），请先办理退宿");
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 3, userInfoId: b.id, checkInDate: "2026-03-02" })).body, "bedNo", "床位号不能大于房间的床位数 2");
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 2, userInfoId: man.id, checkInDate: "2026-03-02" })).body, "userInfoId", "该房间限女性入住，人员性别不符");
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 2, userInfoId: unknown.id, checkInDate: "2026-03-02" })).body, "userInfoId", "该房间限女性入住，请先在人员资料中登记性别");
      // The same person cannot hold two beds.
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 2, userInfoId: a.id, checkInDate: "2026-03-02" })).body, "userInfoId", `该人员已在 ${r.building} 301 入住，请先办理退宿`);
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 2, userInfoId: b.id, checkInDate: "2026-03-02" });
      // A room's own gender overrides its type's: a men's room of the same type takes the man.
      const mens = await room({ roomTypeId: type.id, gender: "male" });
      await ok(`${H}/userDormitory/create`, { dormitoryId: mens.id, bedNo: 1, userInfoId: man.id, checkInDate: "2026-03-02" });
      // Beds may not drop below a bed someone lives in.
      expectField((await call(`${H}/dormitory/update`, { id: r.id, beds: 1 })).body, "beds", "该房间 2 号床有人在住，床位数不能小于 2");
      // A closed room takes nobody.
      const closed = await room({ status: "0" });
      expectField((await checkIn({ dormitoryId: closed.id, bedNo: 1, userInfoId: c.id, checkInDate: "2026-03-02" })).body, "dormitoryId", "该房间已停用，不能入住");

      // Check-out: a dated step; from 已退宿 it is 409; the date not before check-in; the bed is free again.
      expectField((await call(`${H}/userDormitory/checkOut`, { id: first.data.id, checkOutDate: "2026-02-28" })).body, "checkOutDate", "退宿日期不能早于入住日期 2026-03-01");
      expect(await ok(`${H}/userDormitory/checkOut`, { id: first.data.id, checkOutDate: "2026-03-15" })).toMatchObject({ liveStatus: "2", checkOutDate: "2026-03-15" });
      const again = await call(`${H}/userDormitory/checkOut`, { id: first.data.id, checkOutDate: "2026-03-16" });
      expect(again.http).toBe(409);
      expect((again.body as Envelope).message).toBe("该住宿登记当前为「已退宿」，不能退宿");
      expectField((await checkIn({ dormitoryId: r.id, bedNo: 1, userInfoId: c.id, checkInDate: "2026-03-14" })).body, "checkInDate", "该床位上一位人员 2026-03-15 退宿，入住日期不能早于该日期");
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 1, userInfoId: c.id, checkInDate: "2026-03-15" });
      const history = await page(`${H}/userDormitory/findPage`, { dormitoryId: r.id });
      expect(history.map((h) => [h.userInfoIdLabel, h.bedNo, h.checkInDate, h.checkOutDate, h.liveStatus]).sort()).toEqual([
        ["李娜", 2, "2026-03-02", null, "1"],
        ["王芳", 1, "2026-03-01", "2026-03-15", "2"],
        ["赵敏", 1, "2026-03-15", null, "1"],
      ]);
      // Rows are history: no update or delete endpoint; a room with history is not deleted.
      expect((await call(`${H}/userDormitory/update`, { id: first.data.id, bedNo: 2 })).http).toBe(404);
      expect((await remove("dormitory", r.id)).status).toBe(409);
    });

    test("two check-ins racing for the last bed: exactly one wins", async () => {
      for (let round = 0; round < 3; round++) {
        const r = await room({ beds: 1 });
        const people = await Promise.all([diner("1", "甲"), diner("1", "乙"), diner("1", "丙")]);
        const answers = await Promise.all(people.map((p) => checkIn({ dormitoryId: r.id, bedNo: 1, userInfoId: p.id, checkInDate: "2026-04-01" })));
        expect(answers.map((a) => a.http).sort()).toEqual([200, 400, 400]);
        expect((await page(`${H}/userDormitory/findPage`, { dormitoryId: r.id, liveStatus: "1" })).length).toBe(1);
      }
    });

    test("meter readings: the previous is the last one, a lower reading is refused, a meter change is accepted", async () => {
      const r = await room();
      const first = await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-01", currentReading: 100.5 });
      expect(first).toMatchObject({ previousReading: 0, currentReading: 100.5, used: 100.5, meterChanged: 0 });
      const second = await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-02", currentReading: 112.25 });
      expect(second).toMatchObject({ previousReading: 100.5, used: 11.75 });
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-03", currentReading: 50 })).body, "currentReading", "本次读数不能小于上次读数 112.25；如已换表，请勾选“换表”并填写新表起始读数");
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-03", currentReading: 50, meterChanged: true })).body, "startReading", "换表时请输入新表起始读数");
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-03", currentReading: 50, meterChanged: true, startReading: 60 })).body, "startReading", "新表起始读数不能大于本次读数");
      const changed = await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-03", currentReading: 50, meterChanged: true, startReading: 2 });
      expect(changed).toMatchObject({ previousReading: 112.25, startReading: 2, used: 48 });
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-03", currentReading: 60 })).body, "dormitoryId", "该房间本月已录入此表的读数");
      // The electricity meter is its own; an earlier month than the last is refused; only the last reading may go.
      expect(await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "electric", month: "2026-03", currentReading: 7 })).toMatchObject({ previousReading: 0, used: 7 });
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2025-12", currentReading: 1 })).body, "month", "该表之后的月份已有读数，只能删除最近一次读数");
      expect((await remove("meterReading", second.id)).status).toBe(409);
      expect((await remove("meterReading", changed.id)).status).toBe(200);
      expectField((await call(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-04", currentReading: "abc" })).body, "currentReading", /.+/);
    });

    test("the month's bill: used × unit prices + rent, split by days lived to the fen; paid from canteen accounts once, a short balance fails that resident only", async () => {
      const type = await ok(`${H}/roomType/create`, { typeName: `三人间${uid()}`, beds: 3, monthlyRent: 10_000 });
      const r = await room({ roomTypeId: type.id, beds: 3 });
      const month = "2026-05";
      await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month: "2026-04", currentReading: 10 });
      await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month, currentReading: 20.5 });
      // Without the tenant's unit prices the bill cannot be made.
      await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "electric", month, currentReading: 100 });
      const noPrice = await call(`${H}/waterElectricMonth/create`, { dormitoryId: r.id, month });
      expect(noPrice.http).toBe(409);
      expect((noPrice.body as Envelope).message).toBe("请先在 系统参数 中设置 zhhq.dorm.waterPrice（水费单价，元）");
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhhq.dorm.waterPrice", paramName: "水费单价（元/吨）", paramValue: "3.5" });
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhhq.dorm.electricPrice", paramName: "电费单价（元/度）", paramValue: "0.62" });

      const [x, y, z] = [await diner("1", "钱一"), await diner("1", "孙二"), await diner("1", "周三")];
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 1, userInfoId: x.id, checkInDate: "2026-04-20" });
      const ys = await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 2, userInfoId: y.id, checkInDate: "2026-05-01" });
      await ok(`${H}/userDormitory/checkOut`, { id: ys.id, checkOutDate: "2026-05-11" });
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 3, userInfoId: z.id, checkInDate: "2026-05-21" });

      const bill = await ok(`${H}/waterElectricMonth/create`, { dormitoryId: r.id, month });
      // water 10.5 × 3.50 = 36.75; electricity 100 × 0.62 = 62.00; rent 100.00 → 198.75, over 31 + 10 + 11 = 52 days.
      expect(bill).toMatchObject({ waterUsed: 10.5, electricUsed: 100, waterPrice: 350, electricPrice: 62, waterAmount: 3675, electricAmount: 6200, rentAmount: 10_000, totalAmount: 19_875, residentDays: 52, payStatus: "0" });
      const shares = await page(`${H}/waterElectricShare/findPage`, { billId: bill.id });
      const byName = Object.fromEntries(shares.map((s) => [s.userInfoIdLabel, [s.days, s.amount, s.shareStatus]]));
      // 19875 × 31/52 = 11848.56, × 10/52 = 3822.11, × 11/52 = 4204.33: floors 11848 + 3822 + 4204 = 19874, the fen to the largest remainder.
      expect(byName).toEqual({ 钱一: [31, 11_849, "0"], 孙二: [10, 3822, "0"], 周三: [11, 4204, "0"] });
      expectField((await call(`${H}/waterElectricMonth/create`, { dormitoryId: r.id, month })).body, "dormitoryId", "该房间本月的账单已生成");

      await topUp(x.id, 20_000);
      await topUp(y.id, 3822);
      await topUp(z.id, 1000);
      const key = { "Idempotency-Key": `pay-${uid()}` };
      const paid = await ok(`${H}/waterElectricMonth/pay`, { id: bill.id }, tenant.token, key);
      expect(paid).toMatchObject({ payStatus: "0", paidCount: 2, failedCount: 1 });
      expect(paid.failed).toEqual([expect.objectContaining({ userName: "周三", amount: 4204, reason: "余额不足（现金账户余额 10.00 元，应缴 42.04 元）" })]);
      // The same key again: the first answer, nothing taken twice.
      const replay = await call(`${H}/waterElectricMonth/pay`, { id: bill.id }, tenant.token, key);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect((replay.body as Envelope).data).toEqual(paid);
      const cash = async (id: unknown) => (await page(`${Z}/userAccount/findPage`, { userInfoId: id })).find((a) => a.accountType === "cash")?.balance;
      expect([await cash(x.id), await cash(y.id), await cash(z.id)]).toEqual([20_000 - 11_849, 0, 1000]);
      const after = await page(`${H}/waterElectricShare/findPage`, { billId: bill.id });
      expect(Object.fromEntries(after.map((s) => [s.userInfoIdLabel, [s.shareStatus, s.failReason]]))).toEqual({
        钱一: ["1", null],
        孙二: ["1", null],
        周三: ["2", "余额不足（现金账户余额 10.00 元，应缴 42.04 元）"],
      });
      // The line is in the diner's ledger under its own business type, naming the bill.
      const lines = await page(`${Z}/userAccountLedger/findPage`, { userInfoId: x.id, busiType: "7" });
      expect(lines).toEqual([expect.objectContaining({ amount: -11_849, busiType: "7", docType: "waterElectricMonth", docId: bill.id, remark: "2026-05 宿舍水电费" })]);
      // A paid-in-part bill is not deleted.
      expect((await remove("waterElectricMonth", bill.id)).status).toBe(409);

      // Topped up, pressed again (another key): only 周三 pays; the bill is 已缴; a third press is 409.
      await topUp(z.id, 5000);
      const rest = await ok(`${H}/waterElectricMonth/pay`, { id: bill.id }, tenant.token, { "Idempotency-Key": `pay-${uid()}` });
      expect(rest).toMatchObject({ payStatus: "1", paidCount: 1, failedCount: 0, paidBefore: 2 });
      expect((await info("waterElectricMonth", bill.id)).payStatus).toBe("1");
      const third = await call(`${H}/waterElectricMonth/pay`, { id: bill.id }, tenant.token, { "Idempotency-Key": `pay-${uid()}` });
      expect(third.http).toBe(409);
      expect((third.body as Envelope).message).toBe("该账单当前为「已缴」，不能从餐卡扣费");
      expect([await cash(x.id), await cash(y.id), await cash(z.id)]).toEqual([20_000 - 11_849, 0, 6000 - 4204]);
      const all = await app.database.db.selectFrom("user_account_ledger").select("amount").where("doc_type", "=", "waterElectricMonth").where("doc_id", "=", bill.id as number).execute();
      expect(all.map((l) => Number(l.amount)).sort((a, b) => a - b)).toEqual([-11_849, -4204, -3822]);
    });

    test("two presses at once pay each share once", async () => {
      const r = await room({ beds: 2 });
      const month = "2026-06";
      await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "water", month, currentReading: 3 });
      await ok(`${H}/meterReading/create`, { dormitoryId: r.id, meterType: "electric", month, currentReading: 10 });
      const [x, y] = [await diner("1", "吴四"), await diner("1", "郑五")];
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 1, userInfoId: x.id, checkInDate: "2026-06-01" });
      await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 2, userInfoId: y.id, checkInDate: "2026-06-01" });
      const bill = await ok(`${H}/waterElectricMonth/create`, { dormitoryId: r.id, month });
      await topUp(x.id, 10_000);
      await topUp(y.id, 10_000);
      const answers = await Promise.all([1, 2, 3].map((n) => call(`${H}/waterElectricMonth/pay`, { id: bill.id }, tenant.token, { "Idempotency-Key": `race-${uid()}-${n}` })));
      expect(answers.map((a) => a.http).sort()).toEqual([200, 409, 409]);
      const lines = await app.database.db.selectFrom("user_account_ledger").select("amount").where("doc_type", "=", "waterElectricMonth").where("doc_id", "=", bill.id as number).execute();
      expect(lines.length).toBe(2);
      expect(lines.reduce((a, l) => a + Number(l.amount), 0)).toBe(-Number(bill.totalAmount));
    });

    test("tenants apart: another tenant's room, stay and bill are not found", async () => {
      const r = await room();
      const d = await diner("1");
      const stay = await ok(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 1, userInfoId: d.id, checkInDate: "2026-07-01" });
      expect((await get(`${H}/dormitory/getInfo`, { id: r.id }, other.token)).status).toBe(404);
      expect((await call(`${H}/userDormitory/checkOut`, { id: stay.id, checkOutDate: "2026-07-02" }, other.token)).http).toBe(404);
      const theirs = await call(`${H}/userDormitory/create`, { dormitoryId: r.id, bedNo: 2, userInfoId: d.id, checkInDate: "2026-07-01" }, other.token);
      expect(theirs.http).toBe(400);
      expect((await call(`${H}/waterElectricMonth/pay`, { id: r.id }, other.token)).http).toBe(404);
    });
  });
}
