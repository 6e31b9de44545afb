import ExcelJS from "exceljs";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { publishedMenu } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { stockClient, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
type Answer = { filters: Record<string, string>; rows: Row[]; totals: Row };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const Z = "/api/v1/zhct";
const S = "/api/v1/sc";

/**
 * 收支管理 (issue 37, decision 075) through its API on both databases: income generated from the canteen's orders
 * equals what they kept (paid − refunded, per day, restaurant and payment method) and what the ledger took, and
 * generating again gives the same rows; a purchase's total and payments; the direct cost share and the margin
 * recomputed here from the orders, stock-outs, purchases and expenses; tenants kept apart.
 */
for (const dialect of dialects) {
  describe(`${dialect}: 收支管理 income, purchases and margins`, () => {
    let app: TestApp;
    let t: TenantFixture;
    let other: TenantFixture;
    let stock: StockClient;
    let db: AnyDb;
    const today = dayOf(Date.now());
    const month = today.slice(0, 7);
    const ids = { ra: 0, rb: 0, stall: 0, a: 0, b: 0, c: 0, supplier: 0, rice: 0, veg: 0 };
    const orders = { a: 0, b: 0, c: 0 };
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const call = async (method: "GET" | "POST", path: string, body: Row = {}, as = t.token, headers?: Record<string, string>) => {
      if (method === "GET") {
        const query = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
        return (await app.call<unknown>("GET", `${path}?${query}`, { token: as })).body as Envelope;
      }
      return (await app.call<unknown>("POST", path, { token: as, body, headers })).body as Envelope;
    };
    async function ok(path: string, body: Row, as = t.token): Promise<Row> {
      const answer = await call("POST", path, body, as);
      expect(answer, `${path} ${JSON.stringify(answer)}`).toMatchObject({ status: 200 });
      return answer.data as Row;
    }
    async function rows(entity: string, query: Row = {}, as = t.token): Promise<Row[]> {
      const answer = await call("GET", `${S}/${entity}/findPage`, { pageSize: 100, ...query }, as);
      expect(answer, entity).toMatchObject({ status: 200 });
      return (answer.data as { records: Row[] }).records;
    }
    async function report(name: string, query: Row, as = t.token): Promise<Answer> {
      const answer = await call("GET", `${S}/${name}`, query, as);
      expect(answer.status, JSON.stringify(answer)).toBe(200);
      return answer.data as Answer;
    }
    const generate = (from = today, to = today, as = t.token) => call("POST", `${S}/scIncome/generate`, { from, to }, as);
    /** The generated rows as a client compares them: restaurant, payment, meals, amount. */
    const generated = async () =>
      (await rows("scIncome", { sourceKind: "1", incomeDateBegin: today, incomeDateEnd: today }))
        .map((r) => [r.incomeDate, r.restaurantId, r.payFlag, r.meals, r.amount])
        .sort((x, y) => String(x).localeCompare(String(y)));
    /** What the orders kept, straight from meal_order: per restaurant and payment, paid − refunded and the orders still counted. */
    const fromOrders = async () =>
      (
        await db
          .selectFrom("meal_order")
          .where("tenant_id", "=", t.tenantId)
          .where("order_date", "=", today)
          .select([
            "restaurant_id",
            "pay_flag",
            (eb) => eb.fn.sum<number>(eb("paid_amount", "-", eb.ref("refunded_amount"))).as("net"),
            (eb) => eb.fn.sum<number>(eb.case().when("order_status", "in", [2, 4]).then(0).else(1).end()).as("meals"),
          ])
          .groupBy(["restaurant_id", "pay_flag"])
          .execute()
      )
        .map((r) => [today, Number(r.restaurant_id), String(r.pay_flag), Number(r.meals), Number(r.net)])
        .sort((x, y) => String(x).localeCompare(String(y)));

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `sc${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `sco${dialect}`);
      stock = stockClient(app, () => t.token);
      const org = async (orgName: string, orgType: string, parentId = t.rootOrgId) => (await ok("/api/v1/auth/org/create", { parentId, orgName, orgType, status: "1" })).id as number;
      ids.ra = await org("一号餐厅", "restaurant");
      ids.rb = await org("二号餐厅", "restaurant");
      ids.stall = await org("面食档口", "stall", ids.ra);
      for (const key of ["a", "b", "c"] as const) {
        ids[key] = (await ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: `人员${key}` })).id as number;
        await ok(`${Z}/userAccountCharge/create`, { userInfoId: ids[key], amount: 10000, accountType: "cash" });
      }
      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      const lunch = await publishedMenu(ok, { restaurantId: ids.ra, mealType: "lunch", day: today, foodTypeId: category, dishes: [["红烧肉", 1200], ["米饭", 300]] });
      orders.a = (await ok(`${Z}/cashier/pay`, { userInfoId: ids.a, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }, { foodId: lunch.foods[1], quantity: 2 }] })).orderId as number;
      orders.b = (await ok(`${Z}/cashier/pay`, { userInfoId: ids.b, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }] })).orderId as number;
      // Sold by amount at 二号餐厅's counter, paid by scan.
      orders.c = (await ok(`${Z}/cashier/pay`, { userInfoId: ids.c, amount: 350, payFlag: 2, restaurantId: ids.rb })).orderId as number;
    }, 120_000);
    afterAll(async () => {
      await app?.close();
    });

    test("income generated for a day is the orders' paid − refunds per restaurant and payment, to the fen; generating twice changes nothing; a later cancel changes the day", async () => {
      const first = await generate();
      expect(first).toMatchObject({ status: 200, data: { from: today, to: today, rows: 2, removed: 0, meals: 3, amount: 1800 + 1200 + 350 } });
      expect(await generated()).toEqual(await fromOrders());
      expect(await generated()).toEqual(
        [
          [today, ids.ra, "0", 2, 3000],
          [today, ids.rb, "2", 1, 350],
        ].sort((x, y) => String(x).localeCompare(String(y))),
      );
      // What the ledger took for these orders is the income generated.
      const ledger = await db.selectFrom("user_account_ledger").select((eb) => eb.fn.sum<number>("amount").as("s")).where("tenant_id", "=", t.tenantId).where("doc_type", "=", "mealOrder").executeTakeFirstOrThrow();
      expect(-Number(ledger.s)).toBe(3350);

      const before = await generated();
      expect(await generate()).toMatchObject({ status: 200, data: { rows: 2, removed: 2, amount: 3350 } });
      expect(await generated()).toEqual(before);

      // A cancel made since: the order's day loses it when generated again.
      await ok(`${Z}/mealOrder/cancel`, { id: orders.b, reason: "测试取消" });
      expect(await generate()).toMatchObject({ status: 200, data: { rows: 2, removed: 2, meals: 2, amount: 2150 } });
      expect(await generated()).toEqual(await fromOrders());
      expect((await generated()).find((r) => r[1] === ids.ra)).toEqual([today, ids.ra, "0", 1, 1800]);
    });

    test("manual income keeps its source; a generated row is only changed by generating again (409); bad periods are 400s naming the field", async () => {
      const manual = await ok(`${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.stall, source: "档口租金", amount: 50000 });
      expect(manual).toMatchObject({ sourceKind: "2", source: "档口租金", amount: 50000 });
      // Generating leaves the manual row alone.
      await generate();
      expect((await rows("scIncome", { sourceKind: "2" })).map((r) => r.id)).toEqual([manual.id]);
      const [auto] = await rows("scIncome", { sourceKind: "1" });
      const refused = await call("POST", `${S}/scIncome/update`, { id: auto.id, amount: 1 });
      expect(refused).toMatchObject({ status: 409, message: "订单生成的收入不能修改或删除，请重新生成该日期" });
      expect(await call("POST", `${S}/scIncome/deleteBatch`, { ids: [auto.id] })).toMatchObject({ status: 409 });
      // A place must be a restaurant or a stall of the tenant.
      expect((await call("POST", `${S}/scIncome/create`, { incomeDate: today, restaurantId: t.rootOrgId, amount: 1 })).status).toBe(400);
      expectField(await call("POST", `${S}/scIncome/generate`, { from: "2026-13-01", to: today }), "from", /日期/);
      expectField(await call("POST", `${S}/scIncome/generate`, { from: today, to: "2025-01-01" }), "from", /不能晚于/);
      expect((await call("POST", `${S}/scIncome/generate`, { from: today, to: today, extra: 1 })).status).toBe(400);
      expect((await call("POST", `${S}/scIncome/generate`, { from: `${today}\u0000`, to: today })).status).toBe(400);
      // Sent twice with one Idempotency-Key, a generation runs once; the key with another body is refused.
      const key = { "Idempotency-Key": `gen-${uid()}` };
      const once = await call("POST", `${S}/scIncome/generate`, { from: today, to: today }, t.token, key);
      expect(once.status).toBe(200);
      expect(await call("POST", `${S}/scIncome/generate`, { from: today, to: today }, t.token, key)).toEqual(once);
      expect((await call("POST", `${S}/scIncome/generate`, { from: today, to: today }, other.token, key)).status).toBe(200);
      expect((await call("POST", `${S}/scIncome/generate`, { from: dayOf(Date.now() - 86_400_000), to: today }, t.token, key)).status).toBe(409);
    });

    test("a purchase: amount = quantity × price per line, total = Σ lines; 未付款 → 部分付款 → 已付款 by its payments; paid it cannot change", async () => {
      ids.supplier = (await ok(`${S}/scSupplier/create`, { supplierName: `菜市场${uid()}` })).id as number;
      const category = (await ok(`${S}/scProductCategory/create`, { categoryName: `蔬菜${uid()}` })).id;
      await ok(`${S}/scProductCategory/create`, { categoryName: `叶菜${uid()}`, parentId: category });
      ids.veg = (await ok(`${S}/scProduct/create`, { productName: `青菜${uid()}`, categoryId: category, unitName: "千克", referencePrice: 450 })).id as number;
      const created = await ok(`${S}/scPurchase/create`, {
        supplierId: ids.supplier,
        restaurantId: ids.ra,
        purchaseDate: today,
        costKind: "1",
        lines: [
          { productId: ids.veg, quantity: 2.5, price: 1234 },
          { productId: ids.veg, quantity: 1.333, price: 999 },
        ],
      });
      expect(created).toMatchObject({ docNo: expect.stringMatching(/^CG\d{8}-\d{4}$/), status: "0", totalAmount: 3085 + 1332, paidAmount: 0 });
      const info = (await call("GET", `${S}/scPurchase/getInfo`, { id: created.id })).data as Row & { lines: Row[] };
      expect(info.lines.map((l) => [l.quantity, l.price, l.amount])).toEqual([
        [2.5, 1234, 3085],
        [1.333, 999, 1332],
      ]);
      expectField(await call("POST", `${S}/scPurchase/pay`, { id: created.id, payAmount: 4417 }), "payAmount", "本次付款应小于未付金额 44.17 元；全额付款请用「付清」");
      expect(await call("POST", `${S}/scPurchase/pay`, { id: created.id, payAmount: 1000 })).toMatchObject({ status: 200, data: { status: "1" } });
      expect((await call("GET", `${S}/scPurchase/getInfo`, { id: created.id })).data).toMatchObject({ status: "1", paidAmount: 1000, totalAmount: 4417 });
      expect(await call("POST", `${S}/scPurchase/payOff`, { id: created.id })).toMatchObject({ status: 200, data: { status: "2" } });
      expect((await call("GET", `${S}/scPurchase/getInfo`, { id: created.id })).data).toMatchObject({ status: "2", paidAmount: 4417 });
      expect((await call("POST", `${S}/scPurchase/update`, { id: created.id, version: 3, remark: "改" })).status).toBe(409);
      expect((await call("POST", `${S}/scPurchase/pay`, { id: created.id, payAmount: 1 })).status).toBe(409);
      // Without a supplier of either list, and with a quantity of four places, the fields are named.
      expectField(await call("POST", `${S}/scPurchase/create`, { restaurantId: ids.ra, purchaseDate: today, costKind: "1", lines: [{ productId: ids.veg, quantity: 1, price: 1 }] }), "supplierId", "请选择供应商或仓库供应商");
      expect((await call("POST", `${S}/scPurchase/create`, { supplierId: ids.supplier, restaurantId: ids.ra, purchaseDate: today, costKind: "1", lines: [{ productId: ids.veg, quantity: 1.0001, price: 1 }] })).status).toBe(400);
      // An expense purchase for the same restaurant: counted with the expenses, not the food cost.
      await ok(`${S}/scPurchase/create`, { supplierId: ids.supplier, restaurantId: ids.ra, purchaseDate: today, costKind: "2", lines: [{ productId: ids.veg, quantity: 1, price: 3000 }] });
    });

    test("直接成本分摊 and 经营毛利 recomputed from the orders, the stock-outs to the restaurant, the purchases and the expenses", async () => {
      const warehouseId = (await stock.ok<{ id: number }>("warehouse/create", { warehouseName: `一号厨房库${uid()}`, restaurantId: ids.ra })).id;
      ids.rice = await stock.goods();
      await stock.approved("warehouseIn", { warehouseId, docDate: today, lines: [{ goodsId: ids.rice, quantity: 10, price: 500 }] });
      const out = await stock.approved("warehouseOut", { warehouseId, docDate: today, lines: [{ goodsId: ids.rice, quantity: 4.2 }] });
      const outInfo = await stock.info("warehouseOut", out);
      await stock.approved("warehouseOutReturn", { warehouseOutId: out, docDate: today, lines: [{ outLineId: outInfo.lines[0].id, quantity: 1 }] });
      // A repair's stock-out is not food.
      await stock.approved("warehouseOut", { warehouseId, docDate: today, outKind: "2", lines: [{ goodsId: ids.rice, quantity: 1 }] });
      await ok(`${S}/scCostExpense/create`, { month, restaurantId: ids.ra, category: "3", amount: 20000, payee: "电力公司" });
      await ok(`${S}/scCostExpense/create`, { month, restaurantId: ids.rb, category: "4", amount: 100 });

      // By hand: what the orders kept at 一号餐厅 today, what left the kitchen's warehouse, the food purchases.
      const kept = await db
        .selectFrom("meal_order")
        .where("tenant_id", "=", t.tenantId)
        .where("restaurant_id", "=", ids.ra)
        .where("order_date", "=", today)
        .select([(eb) => eb.fn.sum<number>(eb("paid_amount", "-", eb.ref("refunded_amount"))).as("net"), (eb) => eb.fn.sum<number>(eb.case().when("order_status", "in", [2, 4]).then(0).else(1).end()).as("meals")])
        .executeTakeFirstOrThrow();
      const meals = Number(kept.meals);
      const sales = Number(kept.net);
      const stockCost = Number(outInfo.lines[0].amount) - 500;
      expect(stockCost).toBe(2100 - 500);
      const purchaseCost = 4417;
      const directCost = stockCost + purchaseCost;
      const cost = await report("orderCostCount", { from: today, to: today, restaurantId: ids.ra });
      expect(cost.rows).toEqual([
        {
          day: today,
          placeName: "一号餐厅",
          meals,
          sales,
          stockCost,
          purchaseCost,
          directCost,
          costPerMeal: Math.round(directCost / meals),
          costPerYuan: Math.round((directCost * 100) / sales),
        },
      ]);
      expect(cost.totals).toMatchObject({ day: "合计", meals, sales, directCost, costPerMeal: Math.round(directCost / meals) });
      // Over all places: 二号餐厅 sold and spent nothing on food; its row has no cost per meal to speak of.
      const all = await report("orderCostCount", { from: today, to: today });
      expect(all.rows.map((r) => [r.placeName, r.meals, r.directCost, r.costPerMeal])).toEqual([
        ["二号餐厅", 1, 0, 0],
        ["一号餐厅", meals, directCost, Math.round(directCost / meals)],
      ]);

      const income = (await rows("scIncome", { incomeDateBegin: today, incomeDateEnd: today })).filter((r) => r.restaurantId === ids.ra).reduce((s, r) => s + Number(r.amount), 0);
      const expenses = 20000 + 3000;
      const margin = income - directCost - expenses;
      const profit = await report("profitCount", { fromMonth: month, toMonth: month, restaurantId: ids.ra });
      expect(profit.rows).toEqual([
        // Places in pinyin order (面 miàn before 一 yī). The stall's rent is income of the stall (manual, 500.00 元).
        { month, placeName: "面食档口", income: 50000, directCost: 0, expenses: 0, margin: 50000, marginRate: "100.00%" },
        { month, placeName: "一号餐厅", income, directCost, expenses, margin, marginRate: `${((Math.sign(margin) * Math.round(Math.abs(margin * 10000) / income)) / 100).toFixed(2)}%` },
      ]);
      // The restaurant spent more than it took in: a loss, a negative rate.
      expect(margin).toBeLessThan(0);
      expect(profit.totals).toMatchObject({ month: "合计", income: income + 50000, directCost, expenses, margin: margin + 50000 });
      const everywhere = await report("profitCount", { fromMonth: month, toMonth: month });
      expect(everywhere.totals).toMatchObject({ income: income + 50000 + 350, expenses: expenses + 100 });

      // The export is the same rows and totals, in yuan.
      const sheet = await app.api.handle(new Request(`http://canteen.test${S}/profitCount/export?fromMonth=${month}&toMonth=${month}&restaurantId=${ids.ra}`, { headers: { Authorization: `Bearer ${t.token}` } }), "127.0.0.1");
      expect(sheet.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await sheet.arrayBuffer()) as never);
      const ws = workbook.worksheets[0];
      expect(ws.getRow(3).values).toEqual([undefined, "月份", "餐厅/商户", "收入", "直接成本", "费用", "毛利", "毛利率"]);
      expect(ws.getRow(5).getCell(6).value).toBe(margin / 100);
      expect(ws.getRow(6).values).toEqual([undefined, "合计", null, (income + 50000) / 100, directCost / 100, expenses / 100, (margin + 50000) / 100, profit.totals.marginRate].map((v) => (v === null ? undefined : v)));
    });

    test("a central warehouse serving two kitchens: each stock-out counts at the kitchen that took it (领用餐厅/部门), a department's at the warehouse's restaurant", async () => {
      // Yesterday, which the test above did not touch; a central store that serves 一号餐厅.
      const day = dayOf(Date.now() - 86_400_000);
      const dayMonth = day.slice(0, 7);
      const warehouseId = (await stock.ok<{ id: number }>("warehouse/create", { warehouseName: `中心库${uid()}`, restaurantId: ids.ra })).id;
      const office = (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName: `后勤部${uid()}`, orgType: "department", status: "1" })).id as number;
      const flour = await stock.goods();
      await stock.approved("warehouseIn", { warehouseId, docDate: day, lines: [{ goodsId: flour, quantity: 100, price: 300 }] });
      const costOf = async (body: Record<string, unknown>) => Number((await stock.info("warehouseOut", await stock.approved("warehouseOut", { warehouseId, docDate: day, ...body }))).lines[0].amount);
      const toB = await costOf({ receiverOrgId: ids.rb, lines: [{ goodsId: flour, quantity: 7 }] });
      const toStall = await costOf({ receiverOrgId: ids.stall, lines: [{ goodsId: flour, quantity: 2.5 }] });
      const toOffice = await costOf({ receiverOrgId: office, lines: [{ goodsId: flour, quantity: 1 }] });
      const unnamed = await costOf({ lines: [{ goodsId: flour, quantity: 0.4 }] });
      expect([toB, toStall, toOffice, unnamed]).toEqual([2100, 750, 300, 120]);
      // What came back from 二号餐厅's stock-out is taken off 二号餐厅's cost.
      const outB = (await stock.records("warehouseOut", { receiverOrgId: ids.rb }))[0];
      const lineB = (await stock.info("warehouseOut", outB.id)).lines[0];
      await stock.approved("warehouseOutReturn", { warehouseOutId: outB.id, docDate: day, lines: [{ outLineId: lineB.id, quantity: 1 }] });

      const cost = await report("orderCostCount", { from: day, to: day });
      const stockCostOf = (name: string) => cost.rows.find((r) => r.placeName === name)?.stockCost;
      expect(stockCostOf("二号餐厅")).toBe(2100 - 300);
      expect(stockCostOf("面食档口")).toBe(750);
      expect(stockCostOf("一号餐厅")).toBe(300 + 120);
      expect(cost.totals).toMatchObject({ directCost: 2100 - 300 + 750 + 300 + 120 });
      // 经营毛利 of 二号餐厅 carries the same direct cost, only its own.
      const profit = await report("profitCount", { fromMonth: dayMonth, toMonth: dayMonth, restaurantId: ids.rb });
      const rb = profit.rows.find((r) => r.placeName === "二号餐厅");
      expect(rb?.directCost).toBe(2100 - 300);
    });

    test("tenants are apart: another tenant sees none of it, generates only its own, and cannot name this tenant's restaurant", async () => {
      expect(await rows("scIncome", {}, other.token)).toEqual([]);
      expect(await rows("scPurchase", {}, other.token)).toEqual([]);
      expect(await generate(today, today, other.token)).toMatchObject({ status: 200, data: { rows: 0, removed: 0 } });
      expect((await rows("scIncome", { sourceKind: "1" })).length).toBe(2);
      expectField(await call("GET", `${S}/orderCostCount`, { from: today, to: today, restaurantId: ids.ra }, other.token), "restaurantId", "所选餐厅不存在");
      expect((await call("POST", `${S}/scIncome/create`, { incomeDate: today, restaurantId: ids.ra, amount: 1 }, other.token)).status).toBe(400);
      expect((await call("POST", `${S}/scPurchase/pay`, { id: (await rows("scPurchase"))[0].id, payAmount: 1 }, other.token)).status).toBe(404);
      expect((await report("profitCount", { fromMonth: month, toMonth: month }, other.token)).rows).toEqual([]);
    });
  });
}
