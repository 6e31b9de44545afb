import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { enabledPayTypes, isPayTypeEnabled, payTypeMessages, refuseDisabledPayType } from "../../server/modules/zhct/payTypes";
import { addMonths, earnPointsForOrder, expirePoints, PointsChange, pointsToExpire, takeBackPointsForOrder } from "../../server/modules/zhct/points";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";
import { ApiError } from "../../server/http/envelope";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const Z = "/api/v1/zhct";
const DAY = 86_400_000;

describe("pointsToExpire: the replay of a diner's lines", () => {
  const earn = (points: number, expiresAt: number | null, occurredAt: number) => ({ points, changeType: PointsChange.EARN, expiresAt, occurredAt });
  const spend = (points: number, occurredAt: number) => ({ points: -points, changeType: PointsChange.ADJUST, expiresAt: null, occurredAt });
  const expire = (points: number, occurredAt: number) => ({ points: -points, changeType: PointsChange.EXPIRE, expiresAt: null, occurredAt });

  test("what is left of the lots due by now expires; spending takes the soonest-expiring lots first", () => {
    expect(pointsToExpire([earn(100, 10, 0), earn(50, 20, 1)], 15)).toBe(100);
    expect(pointsToExpire([earn(100, 10, 0), earn(50, 20, 1), spend(30, 2)], 15)).toBe(70);
    expect(pointsToExpire([earn(100, 10, 0), earn(50, 20, 1), spend(120, 2)], 25)).toBe(30);
    expect(pointsToExpire([earn(100, null, 0), earn(50, 20, 1), spend(40, 2)], 25)).toBe(10);
  });

  test("a spending takes only the lots that existed: points earned later expire whole", () => {
    expect(pointsToExpire([earn(5, null, 0), spend(5, 1), earn(10, 20, 2)], 25)).toBe(10);
  });

  test("a written expiry consumes its lots, so a rerun finds nothing", () => {
    const lines = [earn(100, 10, 0), earn(50, 20, 1), spend(30, 2)];
    expect(pointsToExpire([...lines, expire(70, 15)], 15)).toBe(0);
    expect(pointsToExpire([...lines, expire(70, 15)], 25)).toBe(50);
  });

  test("expiry dates are whole months later in China time, the 31st clamped", () => {
    const jan31 = Date.parse("2026-01-31T10:00:00+08:00");
    expect(new Date(addMonths(jan31, 1)).toISOString()).toBe(new Date(Date.parse("2026-02-28T10:00:00+08:00")).toISOString());
    expect(addMonths(jan31, 12)).toBe(Date.parse("2027-01-31T10:00:00+08:00"));
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: pay types and points`, () => {
    let app: TestApp;
    let token: string;
    let tenantId: number;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope;
    const call = (path: string, body: unknown, as = token, headers?: Record<string, string>) => app.call<unknown>("POST", path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const diner = async (as = token) => ok(`${Z}/userInfo/create`, { userCode: `P${uid()}`, userName: "积分测试" }, as);
    const topUp = (userInfoId: unknown, amount: number, as = token) => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount }, as);
    const restaurant = async (as = token) => (await ok("/api/v1/auth/org/create", { orgName: `餐厅${uid()}`, orgType: "restaurant", status: "1" }, as)).id as number;
    const lines = async (userInfoId: unknown, as = token) => ((await get(`${Z}/userAccountIntegralDetail/findPage`, { userInfoId, pageSize: 100 }, as)).data as { records: Row[] }).records;
    const balance = async (userInfoId: unknown, as = token) => ((await get(`${Z}/userIntegralAccount/findPage`, { userInfoId }, as)).data as { records: Row[] }).records[0]?.balance ?? 0;
    const counts = async () => ({
      points: Number((await app.database.db.selectFrom("user_account_integral_detail").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
      money: Number((await app.database.db.selectFrom("user_account_ledger").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
    });

    /** A sale of an amount through the payment service (POST cashier/pay): its hooks earn the points. */
    async function pay(userInfoId: unknown, amount: number, payFlag = 0, headers?: Record<string, string>) {
      const result = await call(`${Z}/cashier/pay`, { userInfoId, amount, payFlag }, token, headers);
      return result.body as Envelope & { data: { orderId: number; orderNo: string } };
    }
    /** Points earned at a moment of our choosing (the expiry's tests): the afterPay hook's work, without the money. */
    const earnAt = (userInfoId: unknown, paidFen: number, now: number) =>
      inWriteTransaction(app.database.db, app.database.dialect, (trx) => earnPointsForOrder(trx, { tenantId, id: newId(), orderNo: `DD${uid()}`, userInfoId: userInfoId as number, paidFen, payFlag: 0 }, now));
    const orderCount = async () => Number((await app.database.db.selectFrom("meal_order").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

    async function expectLinesEqualBalances() {
      const accounts = await app.database.db.selectFrom("user_integral_account").select(["tenant_id", "user_info_id", "balance"]).execute();
      expect(accounts.length).toBeGreaterThan(0);
      for (const a of accounts) {
        const rows = await app.database.db.selectFrom("user_account_integral_detail").select(["points", "balance_after"]).where("tenant_id", "=", a.tenant_id).where("user_info_id", "=", a.user_info_id).orderBy("occurred_at").orderBy("id").execute();
        const sum = rows.reduce((s, r) => s + Number(r.points), 0);
        expect(sum).toBe(Number(a.balance));
        expect(Number(a.balance)).toBeGreaterThanOrEqual(0);
        expect(rows.every((r) => Number(r.balance_after) >= 0)).toBe(true);
      }
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      tenantId = Number(((await get("/api/v1/auth/user/info")).data as Row).tenantId);
      other = await createTenantWithAdmin(app, token, `pt${dialect}`);
      await ok(`${Z}/integralStrategy/create`, { strategyName: "每元十分", pointsPerYuan: 10, expiryMonths: 1, status: "1" });
    });
    afterAll(async () => {
      await expectLinesEqualBalances();
      await app.close();
    });

    test("with nothing configured every method is accepted; a tenant-wide row and a restaurant's row decide, the restaurant's first", async () => {
      const r1 = await restaurant();
      const r2 = await restaurant();
      const all = await enabledPayTypes(app.database.db, tenantId, r1);
      expect(all.map((p) => p.payFlag)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 100, 101, 500]);
      expect(all[0]).toEqual({ payFlag: 0, name: "IC卡", sort: 0 });

      await ok(`${Z}/payType/create`, { payFlag: "2", enabled: "0", sort: 0 });
      await ok(`${Z}/payType/create`, { payFlag: "2", restaurantId: r1, enabled: "1", displayName: "扫码付", sort: 1 });
      await ok(`${Z}/payType/create`, { payFlag: "1", displayName: "刷脸支付", enabled: "1", sort: 0 });
      expect(await isPayTypeEnabled(app.database.db, tenantId, r2, 2)).toBe(false);
      expect(await isPayTypeEnabled(app.database.db, tenantId, null, 2)).toBe(false);
      expect(await isPayTypeEnabled(app.database.db, tenantId, r1, 2)).toBe(true);
      const atR1 = await enabledPayTypes(app.database.db, tenantId, r1);
      expect(atR1.slice(0, 3)).toEqual([
        { payFlag: 0, name: "IC卡", sort: 0 },
        { payFlag: 1, name: "刷脸支付", sort: 0 },
        { payFlag: 3, name: "加班餐券", sort: 0 },
      ]);
      expect(atR1.find((p) => p.payFlag === 2)).toEqual({ payFlag: 2, name: "扫码付", sort: 1 });
      expect((await enabledPayTypes(app.database.db, tenantId, r2)).some((p) => p.payFlag === 2)).toBe(false);
      // Another tenant is not touched by this one's settings.
      expect(await isPayTypeEnabled(app.database.db, other.tenantId, null, 2)).toBe(true);

      const twice = await call(`${Z}/payType/create`, { payFlag: "2", enabled: "1", sort: 0 });
      expectField(twice.body as Envelope, "payFlag", payTypeMessages.tenantWideTaken);
      const twiceAtR1 = await call(`${Z}/payType/create`, { payFlag: "2", restaurantId: r1, enabled: "0", sort: 0 });
      expect((twiceAtR1.body as Envelope).status).toBe(400);
      expect((twiceAtR1.body as Envelope).message).toMatch("该餐厅已配置此支付方式");
      const outside = await call(`${Z}/payType/create`, { payFlag: "9999", enabled: "1", sort: 0 });
      expectField(outside.body as Envelope, "payFlag", /支付方式/);
      const departmentAsRestaurant = await call(`${Z}/payType/create`, { payFlag: "5", restaurantId: (await ok("/api/v1/auth/org/create", { orgName: `部门${uid()}`, orgType: "department", status: "1" })).id, enabled: "1", sort: 0 });
      expect((departmentAsRestaurant.body as Envelope).status).toBe(400);
    });

    test("a disabled method refuses the payment with 409 该支付方式未启用 and nothing is written", async () => {
      await ok(`${Z}/payType/create`, { payFlag: "101", enabled: "0", sort: 0 });
      const d = await diner();
      await topUp(d.id, 5000);
      const before = { ...(await counts()), orders: await orderCount() };
      const refused = await pay(d.id, 1200, 101);
      expect(refused).toMatchObject({ status: 409, message: "该支付方式未启用" });
      expect({ ...(await counts()), orders: await orderCount() }).toEqual(before);
      expect(((await get(`${Z}/userAccount/findPage`, { userInfoId: d.id })).data as { records: Row[] }).records.find((a) => a.accountType === "cash")?.balance).toBe(5000);
      expect(await balance(d.id)).toBe(0);
      // Another method is accepted; at a restaurant that enables 101 for itself, 101 is too.
      expect((await pay(d.id, 1200, 0)).status).toBe(200);
      const r = await restaurant();
      await ok(`${Z}/payType/create`, { payFlag: "101", restaurantId: r, enabled: "1", sort: 0 });
      await inWriteTransaction(app.database.db, app.database.dialect, (trx) => refuseDisabledPayType(trx, { tenantId, restaurantId: r, payFlag: 101 }));
      const elsewhere = await inWriteTransaction(app.database.db, app.database.dialect, (trx) => refuseDisabledPayType(trx, { tenantId, restaurantId: null, payFlag: "101" })).catch((e: unknown) => e);
      expect(elsewhere).toBeInstanceOf(ApiError);
      expect(elsewhere).toMatchObject({ status: 409, message: payTypeMessages.disabled });
    });

    test("a paid order earns ⌊yuan × points per yuan⌋ once; vouchers and tenants without a strategy earn nothing", async () => {
      const d = await diner();
      await topUp(d.id, 10_000);
      const before = Date.now();
      const key = `pay-${uid()}`;
      const paid = await pay(d.id, 1234, 0, { "Idempotency-Key": key });
      expect(paid.status, JSON.stringify(paid)).toBe(200);
      expect(await balance(d.id)).toBe(123);
      const [line] = await lines(d.id);
      expect(line).toMatchObject({ changeType: String(PointsChange.EARN), points: 123, balanceAfter: 123, amount: 1234, orderNo: paid.data.orderNo, orderId: paid.data.orderId });
      expect(Number(line.expiresAt)).toBeGreaterThanOrEqual(addMonths(before, 1));
      expect(Number(line.expiresAt)).toBeLessThanOrEqual(addMonths(Date.now(), 1));
      // A retried payment (same key) and the hook run again for the same order earn nothing more.
      expect(await pay(d.id, 1234, 0, { "Idempotency-Key": key })).toEqual(paid);
      const again = await inWriteTransaction(app.database.db, app.database.dialect, (trx) =>
        earnPointsForOrder(trx, { tenantId, id: paid.data.orderId, orderNo: paid.data.orderNo, userInfoId: d.id as number, paidFen: 1234, payFlag: 0 }),
      );
      expect(again).toBeNull();
      // A birthday voucher (6) is not yuan spent; less than a point's worth earns nothing.
      expect((await pay(d.id, 1500, 6)).status).toBe(200);
      expect((await pay(d.id, 9, 0)).status).toBe(200);
      expect(await balance(d.id)).toBe(123);

      const od = await diner(other.token);
      await topUp(od.id, 1000, other.token);
      expect((await call(`${Z}/cashier/pay`, { userInfoId: od.id, amount: 1000, payFlag: 0 }, other.token)).body.status).toBe(200);
      expect(await balance(od.id, other.token)).toBe(0);
    });

    test("cancelling takes back what the refunded part earned; spent points are not taken below zero", async () => {
      const d = await diner();
      await topUp(d.id, 100_000);
      const first = await pay(d.id, 10_000);
      expect(await balance(d.id)).toBe(1000);
      const order = { tenantId, id: first.data.orderId, orderNo: first.data.orderNo };
      // A part refund of 25 % takes 250 (the hook's rule: the order keeps ⌊earned × (paid − refunded) / paid⌋).
      const part = await inWriteTransaction(app.database.db, app.database.dialect, (trx) => takeBackPointsForOrder(trx, order, 2500));
      expect(part).toMatchObject({ points: -250 });
      expect(await balance(d.id)).toBe(750);
      // Cancelling the order takes the rest.
      await ok(`${Z}/mealOrder/cancel`, { id: first.data.orderId, reason: "测试取消" });
      expect(await balance(d.id)).toBe(0);
      expect((await lines(d.id)).filter((l) => l.changeType === String(PointsChange.CANCEL)).map((l) => [l.points, l.amount])).toEqual([[-750, 7500], [-250, 2500]]);

      const second = await pay(d.id, 5000);
      await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: -400, reason: "兑换礼品" });
      expect(await balance(d.id)).toBe(100);
      await ok(`${Z}/mealOrder/cancel`, { id: second.data.orderId, reason: "测试取消" });
      expect(await balance(d.id)).toBe(0);
      const last = (await lines(d.id))[0];
      expect(last).toMatchObject({ changeType: String(PointsChange.CANCEL), points: -100, balanceAfter: 0, orderNo: second.data.orderNo });
      expect(String(last.reason)).toMatch("应扣回 500 积分，积分余额不足，实扣 100");
    });

    test("a complaint upheld with a part refund takes back what that part earned, at once", async () => {
      const d = await diner();
      await topUp(d.id, 20_000);
      const paid = await pay(d.id, 10_000);
      expect(await balance(d.id)).toBe(1000);
      const complaint = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: paid.data.orderNo, orderId: paid.data.orderId, content: "菜凉了" });
      await ok(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "退一半", refundAmount: 5000 });
      expect(await balance(d.id)).toBe(500);
      expect((await lines(d.id))[0]).toMatchObject({ changeType: String(PointsChange.CANCEL), points: -500, amount: 5000, orderId: paid.data.orderId });
      // Cancelling the rest takes the rest, counted from the order's refunds.
      await ok(`${Z}/mealOrder/cancel`, { id: paid.data.orderId, reason: "测试取消" });
      expect(await balance(d.id)).toBe(0);
    });

    test("the expiry writes off what is due once, however often and however many run it", async () => {
      const d = await diner();
      const t0 = Date.now() - 40 * DAY;
      await earnAt(d.id, 10_000, t0);
      await earnAt(d.id, 3_000, t0 + 20 * DAY);
      await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: -300, reason: "兑换" });
      expect(await balance(d.id)).toBe(1000);
      const firstDue = addMonths(t0, 1);
      // Before anything is due: nothing.
      await expirePoints(app.database.db, app.database.dialect, firstDue - 1);
      expect(await balance(d.id)).toBe(1000);
      // Due: the first lot's 1000 less the 300 spent from it; run twice, then two at once.
      await expirePoints(app.database.db, app.database.dialect, firstDue + 1);
      await expirePoints(app.database.db, app.database.dialect, firstDue + 2);
      await Promise.all([expirePoints(app.database.db, app.database.dialect, firstDue + 3), expirePoints(app.database.db, app.database.dialect, firstDue + 3)]);
      const expired = (await lines(d.id)).filter((l) => l.changeType === String(PointsChange.EXPIRE));
      expect(expired.map((l) => l.points)).toEqual([-700]);
      expect(await balance(d.id)).toBe(300);
      // The second lot's turn (one adjustment added by hand expires with the strategy's rule too, a month on).
      await expirePoints(app.database.db, app.database.dialect, addMonths(t0 + 20 * DAY, 1) + 1);
      expect(await balance(d.id)).toBe(0);
      expect((await lines(d.id)).filter((l) => l.changeType === String(PointsChange.EXPIRE)).map((l) => l.points)).toEqual([-300, -700]);
    });

    test("staff adjust a diner's points with a reason; refusals write nothing", async () => {
      const d = await diner();
      const added = await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 50, reason: "活动奖励" });
      expect(added).toMatchObject({ balance: 50 });
      const [line] = await lines(d.id);
      expect(line).toMatchObject({ changeType: String(PointsChange.ADJUST), points: 50, balanceAfter: 50, reason: "活动奖励", operatorName: "admin" });
      const before = await counts();

      const tooMuch = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: -51, reason: "扣减" });
      expect(tooMuch.body).toMatchObject({ status: 409, message: "积分不足" });
      expectField((await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 5 })).body as Envelope, "reason", "请输入调整原因");
      expectField((await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 5, reason: "   " })).body as Envelope, "reason", "请输入调整原因");
      expectField((await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 0, reason: "零" })).body as Envelope, "points", /不能为 0/);
      for (const points of [1.5, "1e99", 2 ** 63, true, [5], "abc", 1_000_001, -1_000_001]) {
        const bad = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points, reason: "坏值" });
        expect((bad.body as Envelope).status, JSON.stringify(points)).toBe(400);
        expect((bad.body as Envelope).message).toMatch(/调整积分/);
      }
      const nul = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 5, reason: "a\u0000b" });
      expect((nul.body as Envelope).status).toBe(400);
      const extra = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 5, reason: "x", balance: 999 });
      expect((extra.body as Envelope).status).toBe(400);
      const missing = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: 123456789, points: 5, reason: "无此人" });
      expectField(missing.body as Envelope, "userInfoId", "人员不存在");
      // Another tenant's diner is no diner here, and its admin cannot touch ours.
      const theirs = await diner(other.token);
      expectField((await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: theirs.id, points: 5, reason: "跨租户" })).body as Envelope, "userInfoId", "人员不存在");
      expectField((await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 5, reason: "跨租户" }, other.token)).body as Envelope, "userInfoId", "人员不存在");
      expect(await counts()).toEqual(before);
      expect(await lines(d.id, other.token)).toEqual([]);

      // Idempotency-Key: a retry answers the first result and writes nothing; another body with it is refused.
      const key = `adj-${uid()}`;
      const first = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 7, reason: "重试" }, token, { "Idempotency-Key": key });
      const retry = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 7, reason: "重试" }, token, { "Idempotency-Key": key });
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
      const reused = await call(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 8, reason: "重试" }, token, { "Idempotency-Key": key });
      expect((reused.body as Envelope).status).toBe(409);
      expect(await balance(d.id)).toBe(57);
    });

    test("the points ledger is read-only through the API and filters by diner, type and time", async () => {
      const d = await diner();
      await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: d.id, points: 20, reason: "筛选" });
      const page = (await get(`${Z}/userAccountIntegralDetail/findPage`, { userInfoId: d.id, changeType: "3" })).data as { records: Row[]; total: number };
      expect(page.total).toBe(1);
      expect(page.records[0]).toMatchObject({ userInfoId: d.id, points: 20, balanceAfter: 20 });
      expect((await get(`${Z}/userAccountIntegralDetail/findPage`, { userInfoId: d.id, changeType: "1" })).data).toMatchObject({ total: 0 });
      for (const action of ["create", "update"]) {
        const refused = await call(`${Z}/userAccountIntegralDetail/${action}`, { userInfoId: d.id, changeType: "3", points: 1000, balanceAfter: 1000, occurredAt: Date.now() });
        expect((refused.body as Envelope).status).not.toBe(200);
      }
      expect((await get(`${Z}/userAccountIntegralDetail/delete`, { id: page.records[0].id })).status).not.toBe(200);
      expect(await balance(d.id)).toBe(20);
    });
  });
}
