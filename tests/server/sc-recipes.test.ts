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
type Answer = { rows: Row[]; totals: Row };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const Z = "/api/v1/zhct";
const S = "/api/v1/sc";

/**
 * A dish's 用料 and 理论与实际成本 (issue 37, decision 088) through the API on both databases: the recipe is saved whole
 * and refused at the line and field it is about; the report's theoretical cost is recomputed here from the orders'
 * items, the recipes and the stock-ins' average cost, its actual cost from the stock-outs and returns to the
 * restaurant, and the dishes sold without a recipe are listed with their portions.
 */
for (const dialect of dialects) {
  describe(`${dialect}: recipes and theoretical against actual food cost`, () => {
    let app: TestApp;
    let t: TenantFixture;
    let other: TenantFixture;
    let stock: StockClient;
    let db: AnyDb;
    const today = dayOf(Date.now());
    const ids = { ra: 0, rb: 0, pork: 0, rice: 0, flour: 0, otherGoods: 0, otherFood: 0 };
    const dishes = { pork: 0, rice: 0, greens: 0, noodles: 0 };
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
    const saveRecipe = (id: number, lines: Row[], as = t.token) => call("POST", `${Z}/food/recipe`, { id, lines }, as);
    async function variance(query: Row = {}): Promise<Answer> {
      const answer = await call("GET", `${S}/foodCostVariance`, { from: today, to: today, ...query });
      expect(answer.status, JSON.stringify(answer)).toBe(200);
      return answer.data as Answer;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `rc${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rco${dialect}`);
      stock = stockClient(app, () => t.token);
      const org = async (orgName: string, orgType: string) => (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName, orgType, status: "1" })).id as number;
      ids.ra = await org("一号餐厅", "restaurant");
      ids.rb = await org("二号餐厅", "restaurant");
      const diners: number[] = [];
      for (const key of ["a", "b", "c", "d"]) {
        const id = (await ok(`${Z}/userInfo/create`, { userCode: `U${uid()}`, userName: `人员${key}` })).id as number;
        await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 10000, accountType: "cash" });
        diners.push(id);
      }
      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      const lunch = await publishedMenu(ok, { restaurantId: ids.ra, mealType: "lunch", day: today, foodTypeId: category, dishes: [["红烧肉", 1200], ["米饭", 300], ["炒青菜", 400]] });
      [dishes.pork, dishes.rice, dishes.greens] = lunch.foods;
      const dinner = await publishedMenu(ok, { restaurantId: ids.rb, mealType: "dinner", day: today, foodTypeId: category, dishes: [["牛肉面", 1500]], menuTypeName: "二号晚餐" });
      [dishes.noodles] = dinner.foods;
      const pay = async (userInfoId: number, mealTimesId: number, items: Array<[number, number]>) =>
        (await ok(`${Z}/cashier/pay`, { userInfoId, mealTimesId, items: items.map(([foodId, quantity]) => ({ foodId, quantity })) })).orderId as number;
      await pay(diners[0], lunch.mealTimesId, [[dishes.pork, 1], [dishes.rice, 2], [dishes.greens, 1]]);
      await pay(diners[1], lunch.mealTimesId, [[dishes.pork, 2]]);
      const cancelled = await pay(diners[2], lunch.mealTimesId, [[dishes.pork, 1]]);
      await ok(`${Z}/mealOrder/cancel`, { id: cancelled, reason: "测试取消" });
      await pay(diners[3], dinner.mealTimesId, [[dishes.noodles, 1]]);

      const warehouseId = (await stock.ok<{ id: number }>("warehouse/create", { warehouseName: `一号厨房库${uid()}`, restaurantId: ids.ra })).id;
      ids.pork = await stock.goods({ goodsName: `猪肉${uid()}` });
      ids.rice = await stock.goods({ goodsName: `大米${uid()}` });
      ids.flour = await stock.goods({ goodsName: `面粉${uid()}` });
      // Two stock-ins of pork at different prices: its average is their weighted mean, not the batch a stock-out took.
      await stock.approved("warehouseIn", { warehouseId, docDate: today, lines: [{ goodsId: ids.pork, quantity: 10, price: 2500 }, { goodsId: ids.rice, quantity: 20, price: 600 }] });
      await stock.approved("warehouseIn", { warehouseId, docDate: today, lines: [{ goodsId: ids.pork, quantity: 5, price: 3100 }, { goodsId: ids.flour, quantity: 10, price: 400 }] });
      const out = await stock.approved("warehouseOut", { warehouseId, docDate: today, lines: [{ goodsId: ids.pork, quantity: 1.2 }, { goodsId: ids.rice, quantity: 0.5 }] });
      const outInfo = await stock.info("warehouseOut", out);
      await stock.approved("warehouseOutReturn", { warehouseOutId: out, docDate: today, lines: [{ outLineId: outInfo.lines[0].id, quantity: 0.2 }] });
      // Issued to 二号餐厅's kitchen: not 一号's.
      await stock.approved("warehouseOut", { warehouseId, docDate: today, receiverOrgId: ids.rb, lines: [{ goodsId: ids.flour, quantity: 0.3 }] });

      const otherStock = stockClient(app, () => other.token);
      ids.otherGoods = await otherStock.goods();
      const otherType = (await ok(`${Z}/foodType/create`, { typeName: "凉菜", sort: 1, status: "1" }, other.token)).id;
      const otherRestaurant = (await ok("/api/v1/auth/org/create", { parentId: other.rootOrgId, orgName: "他家餐厅", orgType: "restaurant", status: "1" }, other.token)).id;
      ids.otherFood = (await ok(`${Z}/food/create`, { foodName: "他家菜", foodTypeId: otherType, restaurantId: otherRestaurant, price: 100, onShelf: "1" }, other.token)).id as number;
    }, 180_000);
    afterAll(async () => {
      await app?.close();
    });

    test("a dish's 用料 is saved whole and read back in the goods' unit; saving again replaces it", async () => {
      const saved = await saveRecipe(dishes.pork, [
        { goodsId: ids.pork, quantity: 0.25 },
        { goodsId: ids.rice, quantity: "0.1" },
      ]);
      expect(saved, JSON.stringify(saved)).toMatchObject({ status: 200 });
      expect((saved.data as { lines: Row[] }).lines.map((l) => [l.goodsId, l.quantity]).sort()).toEqual([[ids.pork, 0.25], [ids.rice, 0.1]].sort());
      expect(await saveRecipe(dishes.pork, [{ goodsId: ids.pork, quantity: 0.25 }])).toMatchObject({ status: 200 });
      expect(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 0.15 }])).toMatchObject({ status: 200 });
      expect(await saveRecipe(dishes.noodles, [{ goodsId: ids.flour, quantity: 0.2 }])).toMatchObject({ status: 200 });
      const read = await call("GET", `${Z}/food/recipe`, { id: dishes.pork });
      expect(read).toMatchObject({ status: 200, data: { id: dishes.pork, foodName: "红烧肉", lines: [{ goodsId: ids.pork, quantity: 0.25 }] } });
      // The list of every dish's lines reads the same.
      const list = await call("GET", `${Z}/foodRecipe/findPage`, { foodId: dishes.pork });
      expect((list.data as { records: Row[] }).records.map((r) => [r.goodsId, r.quantity])).toEqual([[ids.pork, 0.25]]);
      // A goods in a recipe stays: deleting it is refused, not left dangling.
      expect(await call("GET", `/api/v1/zhhq/goods/delete`, { id: ids.pork })).toMatchObject({ status: 409 });
      const stored = await db.selectFrom("food_recipe").select(["goods_id", "quantity"]).where("tenant_id", "=", t.tenantId).where("food_id", "=", dishes.pork).execute();
      expect(stored.map((r) => [Number(r.goods_id), Number(r.quantity)])).toEqual([[ids.pork, 250]]);
    });

    test("bad 用料 is a 400 naming the line's field; another tenant's dish or goods is not found; nothing is half saved", async () => {
      const before = await call("GET", `${Z}/food/recipe`, { id: dishes.rice });
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 0.0001 }]), "lines.0.quantity", /每份用量/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: -1 }]), "lines.0.quantity", /每份用量/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 0 }]), "lines.0.quantity", /每份用量/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: "1e3" }]), "lines.0.quantity", /每份用量/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 10_001 }]), "lines.0.quantity", /每份用量/);
      expectField(await saveRecipe(dishes.rice, [{ quantity: 1 }]), "lines.0.goodsId", /物资/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: "x\u0000", quantity: 1 }]), "lines.0.goodsId", /无法保存|物资/);
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 1 }, { goodsId: ids.otherGoods, quantity: 1 }]), "lines.1.goodsId", "物资不存在");
      expectField(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 1 }, { goodsId: ids.rice, quantity: 2 }]), "lines.1.goodsId", /重复/);
      expectField(await saveRecipe(dishes.rice, Array.from({ length: 101 }, () => ({ goodsId: ids.rice, quantity: 1 }))), "lines", /不能超过 100 行/);
      expectField(await call("POST", `${Z}/food/recipe`, { id: dishes.rice, lines: "all" }), "lines", /列表/);
      expectField(await call("POST", `${Z}/food/recipe`, { id: "1; drop table food", lines: [] }), "id", /菜品/);
      expectField(await call("POST", `${Z}/food/recipe`, { id: dishes.rice, lines: [], tenantId: other.tenantId }), "_", /tenantId/);
      expect(await saveRecipe(ids.otherFood, [{ goodsId: ids.rice, quantity: 1 }])).toMatchObject({ status: 404, message: "菜品不存在" });
      expect(await call("GET", `${Z}/food/recipe`, { id: ids.otherFood })).toMatchObject({ status: 404 });
      expect(await saveRecipe(dishes.rice, [{ goodsId: ids.rice, quantity: 1 }], other.token)).toMatchObject({ status: 404 });
      expect(await call("GET", `${Z}/food/recipe`, { id: dishes.rice })).toEqual(before);
    });

    test("theoretical cost is Σ portions sold × recipe × the stock-ins' average cost, actual what was issued to the kitchen less returns; variance per goods, largest first; dishes without a recipe listed", async () => {
      // By hand, from the rows the API wrote: the portions each dish sold at 一号餐厅 today (cancelled orders not counted).
      const items = await db
        .selectFrom("meal_order_item as i")
        .innerJoin("meal_order as o", (j) => j.onRef("o.tenant_id", "=", "i.tenant_id").onRef("o.id", "=", "i.meal_order_id"))
        .select(["i.food_id", "i.quantity", "o.order_status"])
        .where("o.tenant_id", "=", t.tenantId)
        .where("o.restaurant_id", "=", ids.ra)
        .where("o.order_date", "=", today)
        .execute();
      const portions = new Map<number, number>();
      for (const i of items.filter((i) => ![2, 4].includes(Number(i.order_status)))) portions.set(Number(i.food_id), (portions.get(Number(i.food_id)) ?? 0) + Number(i.quantity));
      expect(Object.fromEntries(portions)).toEqual({ [dishes.pork]: 3, [dishes.rice]: 2, [dishes.greens]: 1 });
      const recipes = await db.selectFrom("food_recipe").select(["food_id", "goods_id", "quantity"]).where("tenant_id", "=", t.tenantId).execute();
      const theoreticalQuantity = new Map<number, number>();
      for (const r of recipes) theoreticalQuantity.set(Number(r.goods_id), (theoreticalQuantity.get(Number(r.goods_id)) ?? 0) + (portions.get(Number(r.food_id)) ?? 0) * Number(r.quantity));
      const ins = await db.selectFrom("warehouse_in_line as l").innerJoin("warehouse_in as d", (j) => j.onRef("d.tenant_id", "=", "l.tenant_id").onRef("d.id", "=", "l.document_id")).select(["l.goods_id", "l.quantity", "l.amount"]).where("d.tenant_id", "=", t.tenantId).execute();
      const average = (goodsId: number) => {
        const mine = ins.filter((l) => Number(l.goods_id) === goodsId);
        return { amount: mine.reduce((s, l) => s + Number(l.amount), 0), quantity: mine.reduce((s, l) => s + Number(l.quantity), 0) };
      };
      const halfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));
      const theoreticalCost = (goodsId: number) => halfUp((theoreticalQuantity.get(goodsId) ?? 0) * average(goodsId).amount, average(goodsId).quantity);
      const outs = await db.selectFrom("warehouse_out_line as l").innerJoin("warehouse_out as d", (j) => j.onRef("d.tenant_id", "=", "l.tenant_id").onRef("d.id", "=", "l.document_id")).select(["l.goods_id", "l.quantity", "l.amount", "d.receiver_org_id"]).where("d.tenant_id", "=", t.tenantId).execute();
      const returns = await db.selectFrom("warehouse_out_return_line").select(["goods_id", "quantity", "amount"]).where("tenant_id", "=", t.tenantId).execute();
      const actual = (goodsId: number) =>
        outs.filter((l) => Number(l.goods_id) === goodsId && Number(l.receiver_org_id) !== ids.rb).reduce((s, l) => s + Number(l.amount), 0) -
        returns.filter((l) => Number(l.goods_id) === goodsId).reduce((s, l) => s + Number(l.amount), 0);

      // Pork: 3 × 0.25 = 0.75 at (10 × 25.00 + 5 × 31.00) ÷ 15 = 27.00 → 20.25; issued 1.2 at 25.00 less 0.2 back → 25.00.
      expect(theoreticalCost(ids.pork)).toBe(2025);
      expect(actual(ids.pork)).toBe(2500);
      // Rice: 2 × 0.15 = 0.3 at 6.00 → 1.80; issued 0.5 → 3.00.
      expect(theoreticalCost(ids.rice)).toBe(180);
      expect(actual(ids.rice)).toBe(300);

      const answer = await variance({ restaurantId: ids.ra });
      const goodsRows = answer.rows.filter((r) => r.kind !== "未配用料菜品");
      expect(goodsRows.map((r) => [r.name, r.theoreticalQuantity, r.theoreticalCost, r.actualQuantity, r.actualCost, r.variance])).toEqual([
        [expect.stringMatching(/^猪肉/), 750, theoreticalCost(ids.pork), 1000, actual(ids.pork), actual(ids.pork) - theoreticalCost(ids.pork)],
        [expect.stringMatching(/^大米/), 300, theoreticalCost(ids.rice), 500, actual(ids.rice), actual(ids.rice) - theoreticalCost(ids.rice)],
      ]);
      expect(goodsRows[0]).toMatchObject({ averageCost: 2700, varianceRate: "23.46%" });
      // 二号餐厅's flour and noodles are not 一号's.
      expect(answer.rows.some((r) => String(r.name).startsWith("面粉") || r.name === "牛肉面")).toBe(false);
      // Sold without a recipe: listed with its portions, not counted as zero cost silently.
      expect(answer.rows.filter((r) => r.kind === "未配用料菜品")).toEqual([expect.objectContaining({ name: "炒青菜", portions: 1, theoreticalCost: null })]);
      // Totals are the rows' sums.
      const sum = (key: string) => answer.rows.reduce((s, r) => s + Number(r[key] ?? 0), 0);
      expect(answer.totals).toMatchObject({ theoreticalCost: sum("theoreticalCost"), actualCost: sum("actualCost"), variance: sum("variance"), portions: 1 });
      expect(answer.totals.theoreticalCost).toBe(2205);
      expect(answer.totals.actualCost).toBe(2800);

      // 二号餐厅: the noodles' flour, 1 × 0.2 at 4.00 = 0.80, against 0.3 issued = 1.20.
      const b = await variance({ restaurantId: ids.rb });
      expect(b.rows.map((r) => [r.theoreticalQuantity, r.theoreticalCost, r.actualCost, r.variance])).toEqual([[200, 80, 120, 40]]);
      // Every restaurant: both.
      const all = await variance();
      expect(all.totals).toMatchObject({ theoreticalCost: 2205 + 80, actualCost: 2800 + 120 });
      // A recipe given afterwards counts at once: the dish leaves the list of those without one.
      expect(await saveRecipe(dishes.greens, [{ goodsId: ids.rice, quantity: 0.05 }])).toMatchObject({ status: 200 });
      const again = await variance({ restaurantId: ids.ra });
      expect(again.rows.some((r) => r.kind === "未配用料菜品")).toBe(false);
      expect(again.rows.find((r) => String(r.name).startsWith("大米"))).toMatchObject({ theoreticalQuantity: 350, theoreticalCost: 210 });
      expect(await saveRecipe(dishes.greens, [])).toMatchObject({ status: 200 });
    });

    test("the report exports as XLSX with the same figures; hostile filters are 400s naming the field; another tenant sees none of it", async () => {
      const response = await app.api.handle(new Request(`http://canteen.test${S}/foodCostVariance/export?from=${today}&to=${today}&restaurantId=${ids.ra}`, { headers: { Authorization: `Bearer ${t.token}` } }), "127.0.0.1");
      expect(response.status).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = book.worksheets[0];
      expect(sheet.getRow(3).values).toEqual([undefined, "类别", "物资编码", "物资/菜品", "单位", "售出份数", "平均成本（元/单位）", "理论用量", "理论成本", "实际用量", "实际成本", "差异（实际−理论）", "差异率"]);
      // The pork row first: 0.75 at 27.00 = 20.25 against 25.00.
      expect(sheet.getRow(4).getCell(8).value).toBe(20.25);
      expect(sheet.getRow(4).getCell(10).value).toBe(25);
      const text = JSON.stringify(sheet.getSheetValues());
      expect(text).toContain("炒青菜");
      expect(text).toContain("未配用料菜品");
      for (const [name, value] of [["from", "2026-13-01"], ["to", "x"], ["restaurantId", "abc"], ["restaurantId", String(Number.MAX_SAFE_INTEGER) + "9"]] as const) {
        const answer = await call("GET", `${S}/foodCostVariance`, { from: today, to: today, [name]: value });
        expect(answer.status, `${name}=${value}`).toBe(400);
        expect(JSON.stringify(answer.data)).toContain(name);
      }
      const theirs = await call("GET", `${S}/foodCostVariance`, { from: today, to: today }, other.token);
      expect(theirs).toMatchObject({ status: 200, data: { rows: [] } });
      const ours = await call("GET", `${S}/foodCostVariance`, { from: today, to: today, restaurantId: ids.ra }, other.token);
      expect(ours.status).toBe(400);
    });
  });
}
