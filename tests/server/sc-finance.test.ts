import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaMonthRange } from "../../resources/chinaTime";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { publishedMenu } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const Z = "/api/v1/zhct";
const S = "/api/v1/sc";

/**
 * 商户结算 (issue 37, decision 084) through its API on both databases: a month's figures per place recomputed here
 * from the income, purchases and expenses; 生成 twice gives the same figures; 确认 locks the place's month against
 * every write dated into it (income, purchase, expense, and generating income from the orders), and a back-dated
 * expense racing 确认 is either counted in the confirmed figures or refused — never lost between them.
 */
for (const dialect of dialects) {
  describe(`${dialect}: 商户结算 generate, confirm and the closed month`, () => {
    let app: TestApp;
    let t: TenantFixture;
    let other: TenantFixture;
    let db: AnyDb;
    const today = dayOf(Date.now());
    const month = today.slice(0, 7);
    const ids = { ra: 0, rb: 0, stall: 0, supplier: 0, goods: 0, diner: 0 };
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const call = async (method: "GET" | "POST", path: string, body: Row = {}, as = t.token) => {
      if (method === "GET") {
        const query = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
        return (await app.call<unknown>("GET", `${path}?${query}`, { token: as })).body as Envelope;
      }
      return (await app.call<unknown>("POST", path, { token: as, body })).body as Envelope;
    };
    async function ok(path: string, body: Row, as = t.token): Promise<Row> {
      const answer = await call("POST", path, body, as);
      expect(answer, `${path} ${JSON.stringify(answer)}`).toMatchObject({ status: 200 });
      return answer.data as Row;
    }
    /** The kept rows as a client reads them: place → [income, directCost, expenses, margin, status]. */
    const kept = async (as = t.token) => {
      const answer = await call("GET", `${S}/scMerchantFinance/findPage`, { pageSize: 100, month }, as);
      expect(answer.status).toBe(200);
      return Object.fromEntries((answer.data as { records: Row[] }).records.map((r) => [Number(r.restaurantId), [r.income, r.directCost, r.expenses, r.margin, r.status]]));
    };
    /** One place's month counted here straight from the tables. */
    async function byHand(placeId: number) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      type Query = any;
      const sum = async (table: string, column: string, where: (q: Query) => Query) =>
        Number(((await where(db.selectFrom(table).select((eb) => eb.fn.sum<number>(column).as("s")).where("tenant_id", "=", t.tenantId).where("restaurant_id", "=", placeId)).executeTakeFirst()) as Row)?.s ?? 0);
      const income = await sum("sc_income", "amount", (q) => q.where("income_date", "like", `${month}-%`));
      const food = await sum("sc_purchase", "total_amount", (q) => q.where("purchase_date", "like", `${month}-%`).where("cost_kind", "=", 1));
      const bought = await sum("sc_purchase", "total_amount", (q) => q.where("purchase_date", "like", `${month}-%`).where("cost_kind", "=", 2));
      const costs = await sum("sc_cost_expense", "amount", (q) => q.where("month", "=", month));
      return [income, food, costs + bought, income - food - costs - bought];
    }
    const purchase = (placeId: number, costKind: string, price: number, purchaseDate = today) =>
      call("POST", `${S}/scPurchase/create`, { supplierId: ids.supplier, restaurantId: placeId, purchaseDate, costKind, lines: [{ productId: ids.goods, quantity: 2, price }] });

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `scf${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `scfo${dialect}`);
      const org = async (orgName: string, orgType: string, parentId = t.rootOrgId) => (await ok("/api/v1/auth/org/create", { parentId, orgName, orgType, status: "1" })).id as number;
      ids.ra = await org("一号餐厅", "restaurant");
      ids.rb = await org("二号餐厅", "restaurant");
      ids.stall = await org("面食档口", "stall", ids.ra);
      ids.supplier = (await ok(`${S}/scSupplier/create`, { supplierName: `菜市场${uid()}` })).id as number;
      ids.goods = (await ok(`${S}/scProduct/create`, { productName: `青菜${uid()}` })).id as number;
      ids.diner = (await ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: "人员甲" })).id as number;
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: ids.diner, amount: 10000, accountType: "cash" });
      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      const lunch = await publishedMenu(ok, { restaurantId: ids.ra, mealType: "lunch", day: today, foodTypeId: category, dishes: [["红烧肉", 1200]] });
      await ok(`${Z}/cashier/pay`, { userInfoId: ids.diner, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 2 }] });
      await ok(`${S}/scIncome/generate`, { from: today, to: today });
      await ok(`${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.stall, source: "档口租金", amount: 50000 });
      await ok(`${S}/scCostExpense/create`, { month, restaurantId: ids.ra, category: "2", amount: 80000 });
      await ok(`${S}/scCostExpense/create`, { month, restaurantId: ids.stall, category: "4", amount: 12345 });
      expect((await purchase(ids.ra, "1", 1050)).status).toBe(200);
      expect((await purchase(ids.ra, "2", 333)).status).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
    });

    test("生成 keeps each place's income, direct cost, expenses and margin as counted by hand; twice gives the same figures", async () => {
      const first = await ok(`${S}/scMerchantFinance/generate`, { month });
      expect(first).toMatchObject({ month, places: 2, status: 0 });
      const figures = await kept();
      expect(figures).toEqual({ [ids.ra]: [...(await byHand(ids.ra)), "0"], [ids.stall]: [...(await byHand(ids.stall)), "0"] });
      expect(figures[ids.ra]).toEqual([2400, 2100, 80666, 2400 - 2100 - 80666, "0"]);
      expect(figures[ids.stall]).toEqual([50000, 0, 12345, 50000 - 12345, "0"]);
      expect(await ok(`${S}/scMerchantFinance/generate`, { month })).toEqual(first);
      expect(await kept()).toEqual(figures);
      // The same figures 经营毛利 reports for the month.
      const profit = (await call("GET", `${S}/profitCount`, { fromMonth: month, toMonth: month })).data as { rows: Row[] };
      expect(profit.rows.map((r) => [r.placeName, r.income, r.directCost, r.expenses, r.margin])).toEqual([
        ["面食档口", 50000, 0, 12345, 37655],
        ["一号餐厅", 2400, 2100, 80666, -80366],
      ]);
    });

    test("确认 locks one place's month: income, purchases, expenses and income generation dated into it are 409 已结账; the other places still take writes", async () => {
      const income = await ok(`${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.ra, source: "活动包餐", amount: 1000 });
      const expense = await ok(`${S}/scCostExpense/create`, { month, restaurantId: ids.ra, category: "6", amount: 100 });
      expect(await ok(`${S}/scMerchantFinance/confirm`, { month, restaurantId: ids.ra })).toMatchObject({ month, places: 1, status: 1, income: 3400, margin: 3400 - 2100 - 80766 });
      const closed = { status: 409, message: `${month} 已结账` };
      expect(await call("POST", `${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.ra, amount: 1 })).toMatchObject(closed);
      expect(await call("POST", `${S}/scIncome/update`, { id: income.id, amount: 2 })).toMatchObject(closed);
      expect(await call("POST", `${S}/scIncome/deleteBatch`, { ids: [income.id] })).toMatchObject(closed);
      expect(await call("POST", `${S}/scCostExpense/create`, { month, restaurantId: ids.ra, category: "6", amount: 1 })).toMatchObject(closed);
      expect(await call("POST", `${S}/scCostExpense/update`, { id: expense.id, amount: 2 })).toMatchObject(closed);
      expect(await call("POST", `${S}/scCostExpense/deleteBatch`, { ids: [expense.id] })).toMatchObject(closed);
      expect(await purchase(ids.ra, "1", 1)).toMatchObject(closed);
      expect(await call("POST", `${S}/scIncome/generate`, { from: today, to: today })).toMatchObject(closed);
      // Moving a row of another month into the closed one is refused too; the other places are open.
      const lastYear = `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`;
      const old = await ok(`${S}/scCostExpense/create`, { month: lastYear, restaurantId: ids.ra, category: "6", amount: 5 });
      expect(await call("POST", `${S}/scCostExpense/update`, { id: old.id, month })).toMatchObject(closed);
      expect((await call("POST", `${S}/scCostExpense/create`, { month, restaurantId: ids.stall, category: "6", amount: 7 })).status).toBe(200);
      expect((await purchase(ids.rb, "1", 1)).status).toBe(200);
      // The confirmed place keeps its figures when the month is generated again; 确认 it again is 409.
      const before = (await kept())[ids.ra];
      await ok(`${S}/scMerchantFinance/generate`, { month });
      expect((await kept())[ids.ra]).toEqual(before);
      expect(await call("POST", `${S}/scMerchantFinance/confirm`, { month, restaurantId: ids.ra })).toMatchObject(closed);
      expect(await call("POST", `${S}/scMerchantFinance/generate`, { month, restaurantId: ids.ra })).toMatchObject(closed);
    });

    test("a back-dated expense racing 确认 is counted in the confirmed figures or refused, never lost", async () => {
      const writes = Array.from({ length: 12 }, (_, i) => call("POST", `${S}/scCostExpense/create`, { month, restaurantId: ids.rb, category: "6", amount: 100 + i }));
      const confirm = call("POST", `${S}/scMerchantFinance/confirm`, { month, restaurantId: ids.rb });
      const answers = await Promise.all([...writes, confirm]);
      const confirmed = answers.pop() as Envelope;
      expect(confirmed.status).toBe(200);
      for (const a of answers) expect([200, 409]).toContain(a.status);
      // What the table holds for 二号餐厅's month is exactly what 确认 kept.
      expect((await kept())[ids.rb]).toEqual([...(await byHand(ids.rb)), "1"]);
      expect(await call("POST", `${S}/scCostExpense/create`, { month, restaurantId: ids.rb, category: "6", amount: 1 })).toMatchObject({ status: 409 });
    });

    test("取水电与维修: the month's dormitory water and electricity and its finished repairs' parts become 成本费用 rows saying where they came from; twice gives the same rows", async () => {
      const H = "/api/v1/zhhq";
      const takeMonth = "2026-05";
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhhq.dorm.waterPrice", paramName: "水费单价（元/吨）", paramValue: "3.5" });
      await ok(`/api/v1/sys/parameterConfig/create`, { paramCode: "zhhq.dorm.electricPrice", paramName: "电费单价（元/度）", paramValue: "0.62" });
      const room = await ok(`${H}/dormitory/create`, { building: `${uid()}号楼`, roomNo: "301", beds: 2 });
      await ok(`${H}/meterReading/create`, { dormitoryId: room.id, meterType: "water", month: "2026-04", currentReading: 10 });
      await ok(`${H}/meterReading/create`, { dormitoryId: room.id, meterType: "water", month: takeMonth, currentReading: 20.5 });
      await ok(`${H}/meterReading/create`, { dormitoryId: room.id, meterType: "electric", month: takeMonth, currentReading: 100 });
      const bill = await ok(`${H}/waterElectricMonth/create`, { dormitoryId: room.id, month: takeMonth });
      expect(bill).toMatchObject({ waterAmount: 3675, electricAmount: 6200 });
      // Two repairs finished: one in 一号餐厅, one elsewhere (to the default place). Their parts cost is what a 维修出库
      // would have charged; set here directly (the stock-out path is the repairs' own test).
      const finished: Row[] = [];
      for (const body of [{ placeType: "restaurant", restaurantId: ids.ra }, { placeType: "other", place: "二楼洗手间" }]) {
        const r = await ok(`${H}/repair/create`, { ...body, repairType: "water_electric", content: "水龙头漏水", reporterName: "王师傅" });
        await ok(`${H}/repair/accept`, { id: r.id, workerName: "张电工" });
        await ok(`${H}/repair/start`, { id: r.id });
        await ok(`${H}/repair/finish`, { id: r.id, finishNote: "换了阀门" });
        finished.push(r);
      }
      const { start } = chinaMonthRange(takeMonth);
      await db.updateTable("repair").set({ parts_cost: 1234, finished_at: start + 86_400_000 }).where("id", "=", finished[0].id).execute();
      await db.updateTable("repair").set({ parts_cost: 500, finished_at: start + 2 * 86_400_000 }).where("id", "=", finished[1].id).execute();

      const take = () => call("POST", `${S}/scCostExpense/generate`, { month: takeMonth, restaurantId: ids.rb });
      const first = await take();
      expect(first).toMatchObject({ status: 200, data: { month: takeMonth, rows: 3, removed: 0, utilities: 9875, repairs: 1734 } });
      const taken = async () =>
        ((await call("GET", `${S}/scCostExpense/findPage`, { pageSize: 100, month: takeMonth })).data as { records: Row[] }).records
          .map((r) => [r.restaurantId, r.category, r.amount, r.sourceKind, r.source])
          .sort((a, b) => String(a).localeCompare(String(b)));
      const rowsBefore = await taken();
      expect(rowsBefore).toEqual(
        [
          [ids.rb, "3", 9875, "2", `${takeMonth} 宿舍水电账单 1 张（水费与电费）`],
          [ids.ra, "5", 1234, "3", `报修单配件成本：${finished[0].repairNo}`],
          [ids.rb, "5", 500, "3", `报修单配件成本：${finished[1].repairNo}`],
        ].sort((a, b) => String(a).localeCompare(String(b))),
      );
      expect(await take()).toMatchObject({ status: 200, data: { rows: 3, removed: 3 } });
      expect(await taken()).toEqual(rowsBefore);
      // A taken row is changed only by taking again; a typed-in one is the user's.
      const [one] = ((await call("GET", `${S}/scCostExpense/findPage`, { pageSize: 10, month: takeMonth, sourceKind: "2" })).data as { records: Row[] }).records;
      expect(await call("POST", `${S}/scCostExpense/update`, { id: one.id, amount: 1 })).toMatchObject({ status: 409, message: "取自宿舍水电账单或报修单的费用不能修改或删除，请重新「取水电与维修」" });
      expect((await call("POST", `${S}/scCostExpense/deleteBatch`, { ids: [one.id] })).status).toBe(409);
      expect(await ok(`${S}/scCostExpense/create`, { month: takeMonth, restaurantId: ids.ra, category: "3", amount: 1, sourceKind: "2", source: "伪造" })).toMatchObject({ sourceKind: "1", source: null });
      expectField(await call("POST", `${S}/scCostExpense/generate`, { month: takeMonth }), "restaurantId", "请选择默认餐厅/商户");
      expectField(await call("POST", `${S}/scCostExpense/generate`, { month: "2026-5", restaurantId: ids.rb }), "month", "所属月份格式应为 2026-05");
      expectField(await call("POST", `${S}/scCostExpense/generate`, { month: takeMonth, restaurantId: ids.stall }, other.token), "restaurantId", "默认餐厅/商户不存在");
      // Into a confirmed month of one of its places: 409, and nothing changed.
      await ok(`${S}/scMerchantFinance/confirm`, { month: takeMonth, restaurantId: ids.ra });
      expect(await take()).toMatchObject({ status: 409, message: `${takeMonth} 已结账` });
      expect(await taken()).toEqual([...rowsBefore, [ids.ra, "3", 1, "1", null]].sort((a, b) => String(a).localeCompare(String(b))));
    });

    test("bad input is a 400 naming the field; another tenant neither sees the rows nor names these places", async () => {
      expectField(await call("POST", `${S}/scMerchantFinance/generate`, { month: "2026-13" }), "month", "月份格式应为 YYYY-MM");
      expectField(await call("POST", `${S}/scMerchantFinance/generate`, { month: "2999-01" }), "month", "2999-01 还没有到，不能结算");
      expectField(await call("POST", `${S}/scMerchantFinance/confirm`, { month, restaurantId: t.rootOrgId }), "restaurantId", "餐厅/商户不存在");
      expect((await call("POST", `${S}/scMerchantFinance/confirm`, { month, restaurantId: "x" })).status).toBe(400);
      expect((await call("POST", `${S}/scMerchantFinance/confirm`, { month, extra: 1 })).status).toBe(400);
      expect(await kept(other.token)).toEqual({});
      expectField(await call("POST", `${S}/scMerchantFinance/confirm`, { month, restaurantId: ids.stall }, other.token), "restaurantId", "餐厅/商户不存在");
      // Confirming every place closes the stall too, with what it holds.
      expect(await ok(`${S}/scMerchantFinance/confirm`, { month })).toMatchObject({ status: 1 });
      expect((await kept())[ids.stall]).toEqual([...(await byHand(ids.stall)), "1"]);
      expect((await call("POST", `${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.stall, amount: 1 })).status).toBe(409);
    });
  });
}
