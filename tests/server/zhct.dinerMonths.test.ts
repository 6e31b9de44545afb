import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recountDinerMonths, recountDinerPlaceMonths } from "../../server/modules/zhct/dinerMonths";
import { LEDGER_DAY_FIGURES, recountLedgerDays, shardOf } from "../../server/modules/zhct/ledgerDays";
import { recountOrderDays } from "../../server/modules/zhct/orderDays";
import { recountPointsOrderDays } from "../../server/modules/zhct/pointsOrderDays";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { BusiType, post } from "../../server/modules/zhct/ledger";
import { dayOf, dayStart, monthOf, monthRange, previousMonth } from "../../server/modules/zhct/months";
import { TICKET_PAY_FLAGS } from "../../server/modules/zhct/payments";
import { requestRecount } from "../../server/db/migrations/recounts";
import { runRequestedRecounts } from "../../server/modules/projections";
import { PointsChange, postPoints } from "../../server/modules/zhct/points";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { publishedMenu } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
const ORDER_FIGURES = ["placed", "orders", "paid", "ticket", "refunded", "cash", "subsidy", "cash_back", "subsidy_back", "meals_breakfast", "meals_lunch", "meals_dinner", "meals_midnight", "meals_none", "swipes"];
const Z = "/api/v1/zhct";
const R = "/api/v1/report";

/**
 * Decision 040: each diner's month of ledger lines, points lines and orders is kept in the transaction of the line
 * or order it counts, and 月度个人结算, 教师补贴 and 员工积分月结 read those totals; the orders' points per day and
 * restaurant likewise, for 积分订单统计. Whatever the money goes through —
 * top-ups, refunds, payments from both accounts, cancels, refunds by complaints in part and in full, cancels racing
 * full refunds, points earned, taken back and adjusted, lines of an earlier month — the kept totals are what a count
 * of the lines and orders gives, and the reports' openings are the sums of the lines before.
 */
for (const dialect of dialects) {
  describe(`${dialect}: the diners' months kept by the ledger and the orders (decision 040)`, () => {
    let app: TestApp;
    let t: TenantFixture;
    const today = dayOf(Date.now());
    const month = monthOf(Date.now());
    const lastMonth = previousMonth(month);
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    let lunch: { mealTimesId: number; foods: number[] };

    const call = (path: string, body: Row) => app.call<unknown>("POST", path, { token: t.token, body });
    async function ok(path: string, body: Row): Promise<Row> {
      const result = await call(path, body);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function report(name: string, query: Row): Promise<{ rows: Row[]; totals: Row }> {
      const answer = await app.call<{ rows: Row[]; totals: Row }>("GET", `${R}/${name}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: t.token });
      expect(answer.body.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    }
    const codes = new Map<number, string>();
    const diner = async (staffType = "教师") => {
      const userCode = `M${uid()}`;
      const id = (await ok(`${Z}/userInfo/create`, { userCode, userName: "月度", staffType })).id as number;
      codes.set(id, userCode);
      return id;
    };
    const pay = (userInfoId: number, quantity: number) => ok(`${Z}/cashier/pay`, { userInfoId, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity }] });
    const complaintRefund = async (order: Row, refundAmount: number) => {
      const complaint = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: order.orderNo, orderId: order.orderId, content: "份量不足" });
      return call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实", refundAmount });
    };

    /** The tenant's kept month rows, in one comparable shape (rows whose figures are all 0 count as none). */
    async function kept() {
      const db = app.database.db;
      const shape = (rows: Row[], keys: string[]) =>
        rows
          .map((r) => keys.map((k) => (typeof r[k] === "string" ? r[k] : Number(r[k]))))
          .filter((r) => r.some((v) => typeof v === "number" && v !== 0 && !Number.isNaN(v)))
          .map((r) => JSON.stringify(r))
          .sort();
      return {
        ledger: shape(await db.selectFrom("diner_month_ledger").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["account_type", "month", "user_info_id", "busi_type", "amount", "lines"]),
        points: shape(await db.selectFrom("diner_month_points").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["month", "user_info_id", "change_type", "points", "lines"]),
        orders: shape(await db.selectFrom("diner_month_order").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["month", "user_info_id", ...ORDER_FIGURES, "days"]),
        orderDays: shape(await db.selectFrom("order_day").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["order_date", "restaurant_id", "meal_type", "pay_flag", "placed", "cancelled", "paid", "refunded"]),
        swipeDays: shape(await db.selectFrom("swipe_day").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["order_date", "restaurant_id", "meal_type", "swipes", "card_swipes", "amount", "diners"]),
        places: shape(await db.selectFrom("diner_place_month").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["month", "restaurant_id", "stall_id", "meal_type", "user_info_id", "meals", "amount"]),
        days: shape(await db.selectFrom("diner_day_order").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["order_date", "user_info_id", ...ORDER_FIGURES]),
        ledgerDays: shape(await db.selectFrom("ledger_day").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["day_no", "shard", ...LEDGER_DAY_FIGURES]),
        pointsOrders: shape(await db.selectFrom("points_order_day").selectAll().where("tenant_id", "=", t.tenantId).execute(), ["order_date", "restaurant_id", "orders", "paid", "earned", "taken_back"]),
      };
    }
    async function expectKeptEqualsRecount() {
      const before = await kept();
      await recountDinerMonths(app.database.db, TICKET_PAY_FLAGS, t.tenantId);
      await recountDinerPlaceMonths(app.database.db, t.tenantId);
      await recountPointsOrderDays(app.database.db, t.tenantId);
      await recountOrderDays(app.database.db, t.tenantId);
      await recountLedgerDays(app.database.db, t.tenantId);
      expect(await kept()).toEqual(before);
      return before;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      t = await createTenantWithAdmin(app, await adminToken(app), `dm${dialect}`);
      const restaurant = (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName: "一号餐厅", orgType: "restaurant", status: "1" })).id as number;
      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      lunch = await publishedMenu(ok, { restaurantId: restaurant, mealType: "lunch", day: today, foodTypeId: category, dishes: [["套餐", 1200]], menuTypeName: `午餐${uid()}` });
      await ok(`${Z}/integralStrategy/create`, { strategyName: "默认", pointsPerYuan: 1, expiryMonths: 12, status: "1" });
    });
    afterAll(async () => {
      await app.close();
    });

    test("pays from both accounts, cancels, refunds in part and in full: the months are the lines' and the orders' sums", async () => {
      const a = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: a, amount: 1000, accountType: "subsidy" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: a, amount: 20_000 });
      const refund = await ok(`${Z}/userAccountCharge/refund`, { reason: "退回现金", userInfoId: a, amount: 500 });
      expect(refund.balance).toBe(19_500);
      // 2,400: 1,000 from the subsidy (spent first), 1,400 from cash.
      await pay(a, 2);
      const partly = await pay(a, 1);
      const cancelled = await pay(a, 1);
      const fully = await pay(a, 1);
      await ok(`${Z}/mealOrder/cancel`, { id: cancelled.orderId, reason: "测试取消" });
      expect((await complaintRefund(partly, 200)).body).toMatchObject({ status: 200 });
      expect((await complaintRefund(fully, 1200)).body).toMatchObject({ status: 200 });
      // A cancel after a full refund gives nothing more back and does not count the meal out twice.
      await ok(`${Z}/mealOrder/cancel`, { id: fully.orderId, reason: "测试取消" });
      await ok(`${Z}/userAccountIntegralDetail/adjust`, { userInfoId: a, points: 7, reason: "奖励" });

      await expectKeptEqualsRecount();
      const settled = await report("monthlySettlementUser", { fromMonth: month, toMonth: month });
      const mine = settled.rows.find((r) => r.userCode === codes.get(a));
      // Five orders of 6,000 paid; two still count; 1,200 + 200 + 1,200 given back.
      expect(mine).toMatchObject({ orders: 2, paid: 6000, subsidy: 1000, cash: 5000, ticket: 0, other: 0, refunded: 2600, net: 3400 });
      const subsidy = await report("teacherSubsidy", { fromMonth: month, toMonth: month, userCode: codes.get(a) });
      // The subsidy top-up (其他) and what the meals took of it; the full refund of an order gave back to cash first.
      expect(subsidy.rows).toEqual([expect.objectContaining({ opening: 0, grants: 0, granted: 0, used: 1000, cleared: 0, other: 1000, closing: 0 })]);
      const points = await report("staffPointsMonthly", { fromMonth: month, toMonth: month, userCode: codes.get(a) });
      // 1 point per yuan: 24 + 12 + 12 + 12 earned; taken back with the money: 12 (cancel) + 2 (2.00 yuan refunded)
      // + 12 (the full refund; its cancel after it takes none); 7 added.
      expect(points.rows).toEqual([expect.objectContaining({ month, opening: 0, earned: 60, takenBack: 26, expired: 0, adjusted: 7, closing: 41 })]);
      // The day's figures (decision 041): two meals of one day kept; cash less the 2,600 given back to it.
      const consumed = await report("userConsumption", { from: today, to: today, userCode: codes.get(a) });
      expect(consumed.rows).toEqual([expect.objectContaining({ orders: 2, net: 3400, subsidy: 1000, cash: 2400 })]);
      const dined = await report("personalDining", { from: today, to: today, userCode: codes.get(a) });
      expect(dined.rows).toEqual([expect.objectContaining({ meals_lunch: 2, meals_none: 0, meals: 2, days: 1, amount: 3400 })]);
      // 积分订单统计: the four orders earned on their day; the adjustment is no order's.
      const byDay = await report("pointsOrderStats", { from: today, to: today });
      expect(byDay.rows).toEqual([expect.objectContaining({ day: today, restaurantName: "一号餐厅", orders: 4, paid: 6000, earned: 60, takenBack: 26, net: 34 })]);
    });

    test("lines of an earlier month: its closing is the next month's opening, read from the balance", async () => {
      const b = await diner();
      const { start } = monthRange(lastMonth);
      // A grant and a points adjustment dated into last month (as a grant run for its day writes them).
      await inWriteTransaction(app.database.db, app.database.dialect, async (trx) => {
        await post(trx, { tenantId: t.tenantId, userInfoId: b, accountType: "subsidy", amount: 3000, busiType: BusiType.GRANT, payFlag: 500, occurredAt: start + 86_400_000 });
        await postPoints(trx, { tenantId: t.tenantId, userInfoId: b, changeType: PointsChange.ADJUST, points: 40, reason: "上月", occurredAt: start + 86_400_000 });
      });
      await pay(b, 1);

      await expectKeptEqualsRecount();
      const previous = await report("teacherSubsidy", { fromMonth: lastMonth, toMonth: lastMonth, userCode: codes.get(b) });
      expect(previous.rows).toEqual([expect.objectContaining({ opening: 0, grants: 1, granted: 3000, used: 0, closing: 3000 })]);
      const current = await report("teacherSubsidy", { fromMonth: month, toMonth: month, userCode: codes.get(b) });
      expect(current.rows).toEqual([expect.objectContaining({ opening: 3000, grants: 0, used: 1200, closing: 1800 })]);
      const both = await report("teacherSubsidy", { fromMonth: lastMonth, toMonth: month, userCode: codes.get(b) });
      expect(both.rows).toEqual([expect.objectContaining({ opening: 0, grants: 1, granted: 3000, used: 1200, closing: 1800 })]);

      const points = await report("staffPointsMonthly", { fromMonth: lastMonth, toMonth: month, userCode: codes.get(b) });
      expect(points.rows.map((r) => [r.month, r.opening, r.earned, r.adjusted, r.closing])).toEqual([
        [lastMonth, 0, 0, 40, 40],
        [month, 40, 12, 0, 52],
      ]);
      expect(points.totals).toMatchObject({ opening: 0, earned: 12, adjusted: 40, closing: 52 });
      // Last month's orders: none (the order is this month's), so the diner is not in its settlement.
      expect((await report("monthlySettlementUser", { fromMonth: lastMonth, toMonth: lastMonth })).rows.some((r) => r.userName === "月度")).toBe(false);
    });

    test("cancels racing full refunds of one diner's orders: every month counts each exactly once", async () => {
      const c = await diner("职工");
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: c, amount: 50_000 });
      const orders = [];
      for (let n = 0; n < 6; n++) orders.push(await pay(c, 1));
      const complaints = await Promise.all(orders.map((o) => ok(`${Z}/mealOrderComplaints/create`, { orderNo: o.orderNo, orderId: o.orderId, content: "重复扣款" })));
      const answers = await Promise.all(
        orders.flatMap((o, n) => [
          call(`${Z}/mealOrder/cancel`, { id: o.orderId, reason: "测试取消" }),
          call(`${Z}/mealOrderComplaints/process`, { id: complaints[n].id, result: "processed", reply: "全退", refundAmount: 1200 }),
        ]),
      );
      for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.body.status);
      await expectKeptEqualsRecount();
      const settled = await report("monthlySettlementUser", { fromMonth: month, toMonth: month, userCode: codes.get(c) });
      expect(settled.rows).toEqual([expect.objectContaining({ orders: 0, paid: 7200, cash: 7200, refunded: 7200, net: 0 })]);
      // No meal left that day: the diner placed orders (个人消费统计 lists them) but dined on no day (个人就餐统计 does not).
      expect((await report("userConsumption", { from: today, to: today, userCode: codes.get(c) })).rows).toEqual([expect.objectContaining({ orders: 0, net: 0, cash: 0, subsidy: 0 })]);
      expect((await report("personalDining", { from: today, to: today, userCode: codes.get(c) })).rows).toEqual([]);
      const [row] = await app.database.db.selectFrom("diner_month_order").select(["days", "placed"]).where("tenant_id", "=", t.tenantId).where("user_info_id", "=", c).execute();
      expect([Number(row.days), Number(row.placed)]).toEqual([0, 6]);
    });

    test("one diner's top-ups, payments from both accounts, cancels and part refunds all at once: each succeeds, the balances are the ledger's sums", async () => {
      const d = await diner("职工");
      const cardNo = `DM${uid()}`.slice(0, 20);
      await ok(`${Z}/userIcCard/create`, { cardNo, userInfoId: d, cardType: "1" });
      // Each meal (12.00) takes the subsidy's 3.00 first, then 9.00 of cash: every payment, cancel and refund moves both accounts.
      const fund = (amount: number, accountType = "cash") => ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount, accountType });
      await fund(100_000);
      const earlier = [];
      for (let n = 0; n < 12; n++) {
        await fund(300, "subsidy");
        earlier.push(await pay(d, 1));
      }
      const complaints = await Promise.all(earlier.slice(6).map((o) => ok(`${Z}/mealOrderComplaints/create`, { orderNo: o.orderNo, orderId: o.orderId, content: "份量不足" })));
      for (let round = 0; round < 3; round++) {
        await fund(900, "subsidy");
        // The money of one diner, moved every way at once: on PostgreSQL these transactions lock the same two accounts
        // (and the diner's day and month) from separate connections.
        const answers = await Promise.all([
          ...[0, 1, 2].map((n) => call(`${Z}/cashier/pay`, { ...(n === 0 ? { cardNo } : { userInfoId: d }), mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }] })),
          ...earlier.slice(round * 2, round * 2 + 2).map((o) => call(`${Z}/mealOrder/cancel`, { id: o.orderId, reason: "测试取消" })),
          ...complaints.slice(round * 2, round * 2 + 2).map((c) => call(`${Z}/mealOrderComplaints/process`, { id: c.id, result: "processed", reply: "属实", refundAmount: 1000 })),
          call(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 500 }),
          call(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, accountType: "subsidy" }),
        ]);
        for (const answer of answers) expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
      }
      const sums = await app.database.db
        .selectFrom("user_account_ledger")
        .select(["account_type", (eb) => eb.fn.sum<number>("amount").as("sum")])
        .where("tenant_id", "=", t.tenantId)
        .where("user_info_id", "=", d)
        .groupBy("account_type")
        .execute();
      const accounts = await app.database.db.selectFrom("user_account").select(["account_type", "balance"]).where("tenant_id", "=", t.tenantId).where("user_info_id", "=", d).execute();
      const balances = Object.fromEntries(accounts.map((a) => [a.account_type, Number(a.balance)]));
      expect(balances).toEqual(Object.fromEntries(sums.map((s) => [s.account_type, Number(s.sum)])));
      // 100,000 + 12 × 300 + 3 × (900 + 500 + 100) of money in; 21 meals of 1,200 out; 6 cancelled and 6 × 1,000 refunded back.
      expect(balances.cash + balances.subsidy).toBe(100_000 + 3600 + 4500 - 21 * 1200 + 6 * 1200 + 6 * 1000);
      await expectKeptEqualsRecount();
    });

    test("diners who share a ledger day's row, each paying, cancelling, refunded and topped up at once: none waits forever, the day is the lines' sum (decision 044)", async () => {
      // Pairs of diners whose lines count in the same row of the day (their shard): on PostgreSQL their transactions
      // wait for each other there, while each holds its own diner's accounts.
      const byShard = new Map<number, number[]>();
      for (let n = 0; n < 40 && [...byShard.values()].filter((ids) => ids.length >= 2).length < 3; n++) {
        const id = await diner("职工");
        byShard.set(shardOf(id), [...(byShard.get(shardOf(id)) ?? []), id]);
      }
      const shared = [...byShard.values()].filter((ids) => ids.length >= 2).flatMap((ids) => ids.slice(0, 2));
      expect(shared.length).toBe(6);
      const prepared = [];
      for (const d of shared) {
        await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 10_000 });
        await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 600, accountType: "subsidy" });
        const [cancelled, refunded] = [await pay(d, 1), await pay(d, 1)];
        const complaint = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: refunded.orderNo, orderId: refunded.orderId, content: "份量不足" });
        prepared.push({ d, cancelled, complaint });
      }
      const answers = await Promise.all(
        prepared.flatMap(({ d, cancelled, complaint }) => [
          call(`${Z}/cashier/pay`, { userInfoId: d, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }] }),
          call(`${Z}/mealOrder/cancel`, { id: cancelled.orderId, reason: "测试取消" }),
          call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实", refundAmount: 1000 }),
          call(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 500 }),
        ]),
      );
      for (const answer of answers) expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
      const kept = await expectKeptEqualsRecount();
      expect(kept.ledgerDays.length).toBeGreaterThan(0);
      // 账户类型日统计 answers from those rows: today's net change of the two accounts is what these diners' lines moved.
      const daily = await report("accountTypeDaily", { from: today, to: today });
      const lines = await app.database.db
        .selectFrom("user_account_ledger")
        .select((eb) => eb.fn.sum<number>("amount").as("sum"))
        .where("tenant_id", "=", t.tenantId)
        .where("occurred_at", ">=", dayStart(today))
        .where("occurred_at", "<", dayStart(today) + 86_400_000)
        .executeTakeFirstOrThrow();
      expect(Number(daily.totals.net)).toBe(Number(lines.sum));
    });

    test("projections a migration asks to have counted are counted after the migrations, each once, by today's code (decision 058)", async () => {
      const a = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: a, amount: 5_000 });
      const order = await pay(a, 1);
      await ok(`${Z}/mealOrder/cancel`, { id: order.orderId, reason: "点错了" });
      await pay(a, 2);
      const before = await kept();
      expect(before.ledgerDays.length).toBeGreaterThan(0);
      // As on a database that had lines before these projections existed: the kept rows are missing.
      const db = app.database.db;
      for (const table of ["diner_month_ledger", "diner_month_points", "diner_month_order", "diner_day_order", "diner_place_month", "order_day", "swipe_day", "ledger_day", "points_order_day"] as const) {
        await db.deleteFrom(table).execute();
      }
      expect((await kept()).ledgerDays).toEqual([]);
      await requestRecount(db, "pointsOrderDays");
      await requestRecount(db, "dinerMonths", "orderDays", "ledgerDays", "dinerPlaceMonths");
      // A second request of one already asked for is one request.
      await requestRecount(db, "ledgerDays");
      // The migrations' own requests on this new database are counted with them (the stock's days and its postings'
      // sums, migrations 0088 and 0091).
      expect((await runRequestedRecounts(db)).sort()).toEqual(["dinerMonths", "dinerPlaceMonths", "ledgerDays", "orderDays", "pointsOrderDays", "stockDays", "stockPostingSums"]);
      expect(await kept()).toEqual(before);
      expect(await db.selectFrom("projection_recount").selectAll().execute()).toEqual([]);
      expect(await runRequestedRecounts(db)).toEqual([]);
      // A name no code keeps stops the start-up and stays asked for.
      await requestRecount(db, "noSuchProjection");
      await expect(runRequestedRecounts(db)).rejects.toThrow("noSuchProjection");
      expect(await db.selectFrom("projection_recount").select("name").execute()).toEqual([{ name: "noSuchProjection" }]);
      await db.deleteFrom("projection_recount").execute();
    });
  });
}
