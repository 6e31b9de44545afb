import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recountFoodSales } from "../../server/modules/zhct/foodSales";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { publishedMenu } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
const Z = "/api/v1/zhct";

/**
 * Decision 038: 菜品销量统计 reads the day's dish totals the orders keep in their own transactions. Whatever the orders
 * go through — paid, cancelled, refunded in part or in full by complaints, a cancel after a full refund, a cancel racing
 * a full refund — the kept totals are the sums of the orders that count, and the report shows exactly those.
 */
for (const dialect of dialects) {
  describe(`${dialect}: the day's dish sales kept by the orders (decision 038)`, () => {
    let app: TestApp;
    let t: TenantFixture;
    const today = dayOf(Date.now());
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    let lunch: { mealTimesId: number; foods: number[] };
    let snack: { mealTimesId: number; foods: number[] };

    const call = (path: string, body: Row) => app.call<unknown>("POST", path, { token: t.token, body });
    async function ok(path: string, body: Row): Promise<Row> {
      const result = await call(path, body);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const diner = async () => {
      const d = await ok(`${Z}/userInfo/create`, { userCode: `F${uid()}`, userName: "销量" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 100_000 });
      return d.id as number;
    };
    const complaintRefund = async (order: Row, refundAmount: number) => {
      const complaint = await ok(`${Z}/mealOrderComplaints/create`, { orderNo: order.orderNo, orderId: order.orderId, content: "份量不足" });
      return call(`${Z}/mealOrderComplaints/process`, { id: complaint.id, result: "processed", reply: "属实", refundAmount });
    };

    /** The kept rows that count, and what the orders themselves add up to, in the same shape. */
    async function keptAndCounted() {
      const kept = await app.database.db
        .selectFrom("food_sales_day")
        .select(["order_date", "restaurant_id", "meal_type", "food_id", "food_name", "quantity", "amount"])
        .where("tenant_id", "=", t.tenantId)
        .where("quantity", "!=", 0)
        .execute();
      const counted = await sql<Row>`
        select o.order_date, coalesce(o.restaurant_id, 0) as restaurant_id, coalesce(o.meal_type, '') as meal_type, i.food_id, i.food_name,
               sum(i.quantity) as quantity, sum(i.subtotal) as amount
        from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id
        where o.tenant_id = ${t.tenantId} and o.order_status not in (2, 4)
        group by o.order_date, coalesce(o.restaurant_id, 0), coalesce(o.meal_type, ''), i.food_id, i.food_name`.execute(app.database.db);
      const shape = (rows: Row[]) =>
        rows
          .map((r) => [r.order_date, Number(r.restaurant_id), r.meal_type, Number(r.food_id), r.food_name, Number(r.quantity), Number(r.amount)])
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      return { kept: shape(kept as Row[]), counted: shape(counted.rows) };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      t = await createTenantWithAdmin(app, await adminToken(app), `fs${dialect}`);
      const restaurant = async (orgName: string) => (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName, orgType: "restaurant", status: "1" })).id as number;
      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      // A restaurant per meal (meal times of one restaurant may not overlap), open all day.
      const canteen = (restaurantId: number, mealType: string, dishes: Array<[string, number]>) =>
        publishedMenu(ok, { restaurantId, mealType, day: today, foodTypeId: category, dishes, menuTypeName: `${mealType}${uid()}` });
      lunch = await canteen(await restaurant("一号餐厅"), "lunch", [["宫保鸡丁", 1500], ["米饭", 200], ["例汤", 300]]);
      snack = await canteen(await restaurant("二号餐厅"), "midnight", [["馄饨", 900]]);
    });
    afterAll(async () => {
      await app.close();
    });

    test("paid, cancelled, refunded in part and in full: the report shows the dishes of the orders that count", async () => {
      const a = await diner();
      const [chicken, rice, soup] = lunch.foods;
      const pay = (items: Array<[number, number]>, mealTimesId = lunch.mealTimesId) => ok(`${Z}/cashier/pay`, { userInfoId: a, mealTimesId, items: items.map(([foodId, quantity]) => ({ foodId, quantity })) });
      await pay([[chicken, 1], [rice, 2]]);
      const partly = await pay([[chicken, 2], [soup, 1]]);
      const cancelled = await pay([[rice, 5]]);
      const fully = await pay([[soup, 3]]);
      const refundedThenCancelled = await pay([[chicken, 1]]);
      await pay([[snack.foods[0], 4]], snack.mealTimesId);
      await ok(`${Z}/mealOrder/cancel`, { id: cancelled.orderId, reason: "测试取消" });
      // A part refund keeps the order's dishes sold; a full refund takes them out; a cancel after one takes nothing more.
      expect((await complaintRefund(partly, 1000)).body).toMatchObject({ status: 200 });
      expect((await complaintRefund(fully, 900)).body).toMatchObject({ status: 200 });
      expect((await complaintRefund(refundedThenCancelled, 1500)).body).toMatchObject({ status: 200 });
      await ok(`${Z}/mealOrder/cancel`, { id: refundedThenCancelled.orderId, reason: "测试取消" });
      // A cancel refused (already cancelled) changes nothing either.
      expect((await call(`${Z}/mealOrder/cancel`, { id: cancelled.orderId })).body).toMatchObject({ status: 409 });

      const answer = await app.call<{ rows: Row[]; totals: Row }>("GET", `/api/v1/report/foodCount?from=${today}&to=${today}`, { token: t.token });
      expect(answer.body.status).toBe(200);
      // Sorted by restaurant as Chinese readers sort (二 èr before 一 yī), then by meal and by what sold most.
      expect(answer.body.data.rows.map((r) => [r.restaurantName, r.mealType, r.foodName, r.quantity, r.amount])).toEqual([
        ["二号餐厅", "midnight", "馄饨", 4, 3600],
        ["一号餐厅", "lunch", "宫保鸡丁", 3, 4500],
        ["一号餐厅", "lunch", "米饭", 2, 400],
        ["一号餐厅", "lunch", "例汤", 1, 300],
      ]);
      expect(answer.body.data.totals).toMatchObject({ quantity: 10, amount: 8800 });
      const midnightOnly = await app.call<{ totals: Row }>("GET", `/api/v1/report/foodCount?from=${today}&to=${today}&mealType=midnight`, { token: t.token });
      expect(midnightOnly.body.data.totals).toMatchObject({ quantity: 4, amount: 3600 });
      const { kept, counted } = await keptAndCounted();
      expect(kept).toEqual(counted);
    });

    test("cancels racing full refunds on the same orders: each order leaves the totals exactly once", async () => {
      const b = await diner();
      const [chicken, rice] = lunch.foods;
      const orders = [];
      for (let n = 0; n < 6; n++) orders.push(await ok(`${Z}/cashier/pay`, { userInfoId: b, mealTimesId: lunch.mealTimesId, items: [{ foodId: chicken, quantity: 1 }, { foodId: rice, quantity: 1 }] }));
      const complaints = await Promise.all(orders.map((o) => ok(`${Z}/mealOrderComplaints/create`, { orderNo: o.orderNo, orderId: o.orderId, content: "重复扣款" })));
      const answers = await Promise.all(
        orders.flatMap((o, n) => [
          call(`${Z}/mealOrder/cancel`, { id: o.orderId, reason: "测试取消" }),
          call(`${Z}/mealOrderComplaints/process`, { id: complaints[n].id, result: "processed", reply: "全退", refundAmount: 1700 }),
        ]),
      );
      for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.body.status);
      const { kept, counted } = await keptAndCounted();
      expect(kept).toEqual(counted);
      // Whichever came first, none of the six counts now.
      const ofThese = await app.database.db.selectFrom("meal_order").select("order_status").where("tenant_id", "=", t.tenantId).where("id", "in", orders.map((o) => o.orderId as number)).execute();
      expect(ofThese.map((o) => Number(o.order_status)).every((s) => s === 2 || s === 4)).toBe(true);
    });

    test("a recount from the orders (the demo generator's, the migration's) gives the totals the orders kept", async () => {
      const before = await keptAndCounted();
      await recountFoodSales(app.database.db, t.tenantId, today, today);
      const after = await keptAndCounted();
      expect(after.kept).toEqual(before.kept);
      expect(after.kept).toEqual(after.counted);
    });
  });
}
