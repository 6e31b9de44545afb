import { sql, type Kysely } from "kysely";
import { columnOf } from "../../../resources/define";
import { scCostExpense, scIncome } from "../../../resources/sc/master";
import { scPurchase } from "../../../resources/sc/purchase";
import { food, foodRecipe } from "../../../resources/zhct/catalogue";
import { goods, unit } from "../../../resources/zhhq/master";
import { warehouseIn, warehouseOut, warehouseOutReturn } from "../../../resources/zhhq/stock";
import type { Db } from "../../db";
import { codePointOrder, sumOf, zhOrder } from "../report/helpers";
import type { Filters, QueryResult, ReportQuery, Row } from "../report/query";
import { orderTakings } from "./income";

/**
 * 直接成本分摊 and 经营毛利 (issue 37, decision 075), run by the report engine (decision 030). A place is a restaurant
 * or a stall (商户); the canteen's orders are kept by restaurant, so a stall's takings are its restaurant's.
 * - Direct food cost = the warehouse's stock-outs for use (领用出库, not 维修出库) taken by the place (领用餐厅/部门
 *   when it is a restaurant or stall, else the restaurant the warehouse serves), at stock cost, less what was returned
 *   from them (出库退库), both approved, by document date; plus the purchases of 收支 marked 直接食材成本, by purchase
 *   date.
 * - Expenses = 成本费用 of the month plus the purchases marked 费用.
 * - Meals and takings are the orders' (`orderTakings`, what income is generated from): 订单数 − 取消数, 实付 − 退款.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const APPROVED = Number(warehouseOut.status["2"]);
/** Whose food a stock-out (its warehouse `w`, its receiver `rc`) is: a kitchen that took it, else the warehouse's. */
const takenBy = sql<number>`case when rc.org_type in ('restaurant', 'stall') then rc.id else w.restaurant_id end`;
/** 出库类型 维修出库 (dictionary warehouseOutKind) is not food. */
const REPAIR_OUT = 2;
const DIRECT_FOOD = 1;
const EXPENSE = 2;

interface Place {
  id: number;
  name: string;
}

/** The places a report covers: every restaurant and stall of the tenant, or the chosen restaurant and its stalls. */
export async function placesOf(db: AnyDb, tenantId: number, restaurantId: number | undefined): Promise<Map<number, Place>> {
  let q = db.selectFrom("org").select(["id", "org_name", "parent_id"]).where("tenant_id", "=", tenantId).where("org_type", "in", ["restaurant", "stall"]);
  if (restaurantId !== undefined) q = q.where((eb) => eb.or([eb("id", "=", restaurantId), eb.and([eb("org_type", "=", "stall"), eb("parent_id", "=", restaurantId)])]));
  const rows = (await q.execute()) as Row[];
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), name: String(r.org_name) }]));
}

interface DayAmount {
  day: string;
  placeId: number;
  amount: number;
}

interface Issued {
  /** The document day, or the goods' id, as asked. */
  key: string;
  placeId: number;
  quantity: number;
  amount: number;
}

/**
 * Stock-outs for use at the stock cost the ledger charged them, less their returns (negative), by document day or by
 * goods and the place that took them: what 直接成本分摊 and 理论与实际成本 both call issued to a kitchen. What a
 * kitchen took is known from its document, not its lines: by day, each document's cost is the lines' total its
 * header keeps (`lines.keptTotals`, decision 094), so a month is read from its ≈ 33,000 headers, not its ≈ 670,000
 * lines; by goods, the period's lines are summed per goods, warehouse and receiver. Either way the warehouse and the
 * receiver are looked up once a group, not once a line.
 */
async function stockIssued(db: AnyDb, tenantId: number, from: string, to: string, placeIds: number[], by: "day" | "goods"): Promise<Issued[]> {
  if (!placeIds.length) return [];
  const read = async (doc: typeof warehouseOut | typeof warehouseOutReturn, sign: 1 | -1) => {
    const returns = doc === warehouseOutReturn;
    // A return counts against the stock-out it names: that one's warehouse and receiver say whose it was.
    const o = returns ? "o" : "d";
    const documents = db
      .selectFrom(`${doc.header.table} as d`)
      .$if(returns, (q) => q.innerJoin(`${warehouseOut.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "d.tenant_id").onRef("o.id", "=", "d.warehouse_out_id")))
      .$if(by === "goods", (q) => q.innerJoin(`${doc.lines.table} as l`, (j) => j.onRef("l.tenant_id", "=", "d.tenant_id").onRef("l.document_id", "=", "d.id")))
      .where("d.tenant_id", "=", tenantId)
      .where("d.status", "=", APPROVED)
      .where((eb) => eb.or([eb(`${o}.out_kind`, "is", null), eb(`${o}.out_kind`, "!=", REPAIR_OUT)]))
      .where("d.doc_date", ">=", from)
      .where("d.doc_date", "<=", to);
    // By day no quantity: a document's goods are many, and their units differ.
    const perDocument =
      by === "day"
        ? documents
            .select(["d.doc_date as key", `${o}.warehouse_id`, `${o}.receiver_org_id`, sql<number>`0`.as("quantity"), sumOf(sql.ref(`d.${keptAmount(doc)}`)).as("amount")])
            .groupBy(["d.doc_date", `${o}.warehouse_id`, `${o}.receiver_org_id`])
        : documents
            .select(["l.goods_id as key", `${o}.warehouse_id`, `${o}.receiver_org_id`, sumOf(sql`l.quantity`).as("quantity"), sumOf(sql`l.amount`).as("amount")])
            .groupBy(["l.goods_id", `${o}.warehouse_id`, `${o}.receiver_org_id`]);
    const rows = (await db
      .selectFrom(perDocument.as("g"))
      .innerJoin("warehouse as w", (j) => j.on("w.tenant_id", "=", tenantId).onRef("w.id", "=", "g.warehouse_id"))
      .leftJoin("org as rc", (j) => j.on("rc.tenant_id", "=", tenantId).onRef("rc.id", "=", "g.receiver_org_id"))
      .where(takenBy, "in", placeIds)
      .select(["g.key", takenBy.as("place_id"), sumOf(sql`g.quantity`).as("quantity"), sumOf(sql`g.amount`).as("amount")])
      .groupBy(["g.key", takenBy])
      .execute()) as Row[];
    return rows.map((r) => ({ key: String(r.key), placeId: Number(r.place_id), quantity: sign * Number(r.quantity), amount: sign * Number(r.amount) }));
  };
  const [issued, returned] = await Promise.all([read(warehouseOut, 1), read(warehouseOutReturn, -1)]);
  return [...issued, ...returned];
}

/** The header column keeping a stock document's lines' amount (`lines.keptTotals`). */
function keptAmount(doc: typeof warehouseOut | typeof warehouseOutReturn): string {
  const kept = doc.keptTotals.find((k) => k.line.name === "amount");
  if (!kept) throw new Error(`${doc.docType}: its header keeps no amount total (lines.keptTotals)`);
  return columnOf(kept.header);
}

/** Stock-outs for use, at the stock cost the ledger charged them, less their returns, per document day and restaurant. */
export async function stockCostByDay(db: AnyDb, tenantId: number, from: string, to: string, placeIds: number[]): Promise<DayAmount[]> {
  return (await stockIssued(db, tenantId, from, to, placeIds, "day")).map((r) => ({ day: r.key, placeId: r.placeId, amount: r.amount }));
}

/** Purchases of one kind (直接食材成本 or 费用), their totals per purchase day and place. */
export async function purchasesByDay(db: AnyDb, tenantId: number, from: string, to: string, placeIds: number[], costKind: number): Promise<DayAmount[]> {
  if (!placeIds.length) return [];
  const rows = (await db
    .selectFrom(scPurchase.header.table)
    .where("tenant_id", "=", tenantId)
    .where("cost_kind", "=", costKind)
    .where("purchase_date", ">=", from)
    .where("purchase_date", "<=", to)
    .where("restaurant_id", "in", placeIds)
    .select(["purchase_date as day", "restaurant_id as place_id", sumOf(sql`total_amount`).as("amount")])
    .groupBy(["purchase_date", "restaurant_id"])
    .execute()) as Row[];
  return rows.map((r) => ({ day: String(r.day), placeId: Number(r.place_id), amount: Number(r.amount) }));
}

/** n / d rounded half up (both non-negative integers), or null without a divisor. */
export function ratio(n: number, d: number): number | null {
  if (d <= 0) return null;
  const sign = n < 0 ? -1 : 1;
  return sign * Math.floor((2 * Math.abs(n) + d) / (2 * d));
}

/** A margin's share of its income as a percentage with two places (half up), `—` without income. */
export function percent(margin: number, income: number): string {
  const basis = ratio(margin * 10000, income);
  if (basis === null) return "—";
  const sign = basis < 0 ? "-" : "";
  const abs = Math.abs(basis);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}%`;
}

/** Sums amounts into a map keyed by `${period}|${placeId}`. */
function addInto(map: Map<string, Row>, key: string, base: Row, field: string, amount: number) {
  const row = map.get(key) ?? { ...base };
  row[field] = Number(row[field] ?? 0) + amount;
  map.set(key, row);
}

const orderCostCount: ReportQuery = async (db: Db, tenantId: number, f: Filters): Promise<QueryResult> => {
  const any = db as unknown as AnyDb;
  const places = await placesOf(any, tenantId, f.restaurantId);
  const ids = [...places.keys()];
  const cells = new Map<string, Row>();
  const base = (day: string, placeId: number): Row => ({ day, placeId, meals: 0, sales: 0, stockCost: 0, purchaseCost: 0 });
  for (const t of await orderTakings(any, tenantId, f.from, f.to, ids)) {
    addInto(cells, `${t.day}|${t.restaurantId}`, base(t.day, t.restaurantId), "meals", t.meals);
    addInto(cells, `${t.day}|${t.restaurantId}`, base(t.day, t.restaurantId), "sales", t.amount);
  }
  for (const s of await stockCostByDay(any, tenantId, f.from, f.to, ids)) addInto(cells, `${s.day}|${s.placeId}`, base(s.day, s.placeId), "stockCost", s.amount);
  for (const p of await purchasesByDay(any, tenantId, f.from, f.to, ids, DIRECT_FOOD)) addInto(cells, `${p.day}|${p.placeId}`, base(p.day, p.placeId), "purchaseCost", p.amount);
  const figures = (r: Row) => {
    const directCost = Number(r.stockCost) + Number(r.purchaseCost);
    return { directCost, costPerMeal: ratio(directCost, Number(r.meals)), costPerYuan: ratio(directCost * 100, Number(r.sales)) };
  };
  const rows = [...cells.values()]
    .filter((r) => r.meals !== 0 || r.sales !== 0 || r.stockCost !== 0 || r.purchaseCost !== 0)
    .map((r) => {
      const { placeId, ...rest } = r;
      return { ...rest, placeName: places.get(Number(placeId))?.name ?? "", ...figures(r) } as Row & { placeName: string };
    })
    .sort((a, b) => codePointOrder(String(a.day), String(b.day)) || zhOrder(a.placeName, b.placeName));
  const sum = (key: string) => rows.reduce((s, r) => s + Number((r as Row)[key] ?? 0), 0);
  const totals: Row = { meals: sum("meals"), sales: sum("sales"), stockCost: sum("stockCost"), purchaseCost: sum("purchaseCost") };
  return { rows, totals: { ...totals, ...figures(totals) } };
};

const monthOf = (day: string) => day.slice(0, 7);

/**
 * 经营毛利's figures per month × place over `from`–`to` (days): income (generated and manual), direct cost (stock-outs
 * and food purchases), expenses (成本费用 of the month and purchases marked 费用). What the report shows and what 商户结算
 * keeps (server/modules/sc/finance.ts): one count.
 */
export async function marginCells(any: AnyDb, tenantId: number, from: string, to: string, ids: number[]): Promise<Row[]> {
  const cells = new Map<string, Row>();
  const base = (month: string, placeId: number): Row => ({ month, placeId, income: 0, directCost: 0, expenses: 0 });
  const add = (day: string, placeId: number, field: string, amount: number) => addInto(cells, `${monthOf(day)}|${placeId}`, base(monthOf(day), placeId), field, amount);
  if (ids.length) {
    const income = (await any
      .selectFrom(scIncome.table)
      .where("tenant_id", "=", tenantId)
      .where("income_date", ">=", from)
      .where("income_date", "<=", to)
      .where("restaurant_id", "in", ids)
      .select(["income_date as day", "restaurant_id as place_id", sumOf(sql`amount`).as("amount")])
      .groupBy(["income_date", "restaurant_id"])
      .execute()) as Row[];
    for (const r of income) add(String(r.day), Number(r.place_id), "income", Number(r.amount));
    const expenses = (await any
      .selectFrom(scCostExpense.table)
      .where("tenant_id", "=", tenantId)
      .where("month", ">=", monthOf(from))
      .where("month", "<=", monthOf(to))
      .where("restaurant_id", "in", ids)
      .select(["month", "restaurant_id as place_id", sumOf(sql`amount`).as("amount")])
      .groupBy(["month", "restaurant_id"])
      .execute()) as Row[];
    for (const r of expenses) add(`${r.month}-01`, Number(r.place_id), "expenses", Number(r.amount));
  }
  for (const s of await stockCostByDay(any, tenantId, from, to, ids)) add(s.day, s.placeId, "directCost", s.amount);
  for (const p of await purchasesByDay(any, tenantId, from, to, ids, DIRECT_FOOD)) add(p.day, p.placeId, "directCost", p.amount);
  for (const p of await purchasesByDay(any, tenantId, from, to, ids, EXPENSE)) add(p.day, p.placeId, "expenses", p.amount);
  return [...cells.values()].filter((r) => r.income !== 0 || r.directCost !== 0 || r.expenses !== 0);
}

const profitCount: ReportQuery = async (db: Db, tenantId: number, f: Filters): Promise<QueryResult> => {
  const any = db as unknown as AnyDb;
  const places = await placesOf(any, tenantId, f.restaurantId);
  const cells = await marginCells(any, tenantId, f.from, f.to, [...places.keys()]);
  const figures = (r: Row) => {
    const margin = Number(r.income) - Number(r.directCost) - Number(r.expenses);
    return { margin, marginRate: percent(margin, Number(r.income)) };
  };
  const rows = cells
    .map((r) => {
      const { placeId, ...rest } = r;
      return { ...rest, placeName: places.get(Number(placeId))?.name ?? "", ...figures(r) } as Row & { placeName: string };
    })
    .sort((a, b) => codePointOrder(String(a.month), String(b.month)) || zhOrder(a.placeName, b.placeName));
  const sum = (key: string) => rows.reduce((s, r) => s + Number((r as Row)[key] ?? 0), 0);
  const totals: Row = { income: sum("income"), directCost: sum("directCost"), expenses: sum("expenses") };
  return { rows, totals: { ...totals, ...figures(totals) } };
};

/** `a × b ÷ c` rounded half up, exact for any size (thousandths × fen overflow a double's integers). */
function mulDiv(a: number, b: number, c: number): number {
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  const half = (2n * (n < 0n ? -n : n) + d) / (2n * d);
  return Number(n < 0n ? -half : half);
}

/**
 * Each goods' average stock cost over a period (decision 088): Σ amount ÷ Σ quantity of what stock-ins (入库单) brought
 * into any of the tenant's warehouses within the period; for goods none brought in then, of every stock-in up to the
 * period's end. Answered as the two sums, so a cost counts from them exactly.
 */
async function averageCosts(db: AnyDb, tenantId: number, from: string, to: string, goodsIds: number[]): Promise<Map<number, { quantity: number; amount: number }>> {
  const costs = new Map<number, { quantity: number; amount: number }>();
  if (!goodsIds.length) return costs;
  const sums = async (since: string | null, ids: number[]) => {
    let q = db
      .selectFrom("stock_line")
      .where("tenant_id", "=", tenantId)
      .where("doc_type", "=", warehouseIn.docType)
      .where("quantity", ">", 0)
      .where("doc_date", "<=", to)
      .where("goods_id", "in", ids);
    if (since) q = q.where("doc_date", ">=", since);
    return (await q.select(["goods_id", sumOf(sql`quantity`).as("quantity"), sumOf(sql`amount`).as("amount")]).groupBy("goods_id").execute()) as Row[];
  };
  for (const r of await sums(from, goodsIds)) costs.set(Number(r.goods_id), { quantity: Number(r.quantity), amount: Number(r.amount) });
  const left = goodsIds.filter((id) => !costs.has(id));
  if (left.length) for (const r of await sums(null, left)) costs.set(Number(r.goods_id), { quantity: Number(r.quantity), amount: Number(r.amount) });
  return costs;
}

const GOODS_ROW = "物资";
const NO_COST_ROW = "物资（无入库成本）";
const NO_RECIPE_ROW = "未配用料菜品";

/**
 * 理论与实际成本 (issue 37, decision 088) for a period and restaurant (or every one): the dishes sold (菜品销量's kept
 * days, food_sales_day: orders cancelled or refunded in full taken back) × their recipes' quantities per portion give
 * each goods' theoretical quantity, × its average stock cost its theoretical cost; actual = issued to the restaurant and
 * its stalls (`stockIssued`), as 直接成本分摊 counts it. One row per goods, largest absolute variance first, then one
 * row per dish sold without a recipe (its portions, no cost). Totals are the rows' sums.
 */
const foodCostVariance: ReportQuery = async (db: Db, tenantId: number, f: Filters): Promise<QueryResult> => {
  const any = db as unknown as AnyDb;
  const places = await placesOf(any, tenantId, f.restaurantId);
  let sold = any
    .selectFrom("food_sales_day")
    .where("tenant_id", "=", tenantId)
    .where("order_date", ">=", f.from)
    .where("order_date", "<=", f.to)
    .select(["food_id", sumOf(sql`quantity`).as("portions")])
    .groupBy("food_id");
  if (f.restaurantId !== undefined) sold = sold.where("restaurant_id", "=", f.restaurantId);
  const portions = new Map(((await sold.execute()) as Row[]).filter((r) => Number(r.portions) > 0).map((r) => [Number(r.food_id), Number(r.portions)]));
  const foodIds = [...portions.keys()];
  const recipes = foodIds.length
    ? ((await any.selectFrom(foodRecipe.table).select(["food_id", "goods_id", "quantity"]).where("tenant_id", "=", tenantId).where("food_id", "in", foodIds).execute()) as Row[])
    : [];
  const theoretical = new Map<number, number>();
  for (const r of recipes) theoretical.set(Number(r.goods_id), (theoretical.get(Number(r.goods_id)) ?? 0) + (portions.get(Number(r.food_id)) ?? 0) * Number(r.quantity));
  const actual = new Map<number, { quantity: number; amount: number }>();
  for (const r of await stockIssued(any, tenantId, f.from, f.to, [...places.keys()], "goods")) {
    const at = actual.get(Number(r.key)) ?? { quantity: 0, amount: 0 };
    actual.set(Number(r.key), { quantity: at.quantity + r.quantity, amount: at.amount + r.amount });
  }
  const goodsIds = [...new Set([...theoretical.keys(), ...actual.keys()])];
  const costs = await averageCosts(any, tenantId, f.from, f.to, goodsIds);
  const names = goodsIds.length
    ? new Map(
        ((await any
          .selectFrom(`${goods.table} as g`)
          .leftJoin(`${unit.table} as u`, (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
          .select(["g.id", "g.goods_code", "g.goods_name", "u.unit_name"])
          .where("g.tenant_id", "=", tenantId)
          .where("g.id", "in", goodsIds)
          .execute()) as Row[]).map((g) => [Number(g.id), g]),
      )
    : new Map<number, Row>();
  const goodsRows = goodsIds
    .map((id): Row => {
      const g = names.get(id);
      const cost = costs.get(id);
      const theoreticalQuantity = theoretical.get(id) ?? 0;
      const priced = cost !== undefined && cost.quantity > 0;
      const theoreticalCost = priced ? mulDiv(theoreticalQuantity, cost.amount, cost.quantity) : 0;
      const actualCost = actual.get(id)?.amount ?? 0;
      const variance = actualCost - theoreticalCost;
      return {
        kind: priced || theoreticalQuantity === 0 ? GOODS_ROW : NO_COST_ROW,
        goodsCode: String(g?.goods_code ?? ""),
        name: String(g?.goods_name ?? ""),
        unitName: String(g?.unit_name ?? ""),
        portions: null,
        averageCost: priced ? mulDiv(1000, cost.amount, cost.quantity) : null,
        theoreticalQuantity,
        theoreticalCost,
        actualQuantity: actual.get(id)?.quantity ?? 0,
        actualCost,
        variance,
        varianceRate: percent(variance, theoreticalCost),
      };
    })
    .sort((a, b) => Math.abs(Number(b.variance)) - Math.abs(Number(a.variance)) || codePointOrder(String(a.goodsCode), String(b.goodsCode)));
  const withRecipe = new Set(recipes.map((r) => Number(r.food_id)));
  const missing = foodIds.filter((id) => !withRecipe.has(id));
  const dishNames = missing.length
    ? new Map(((await any.selectFrom(food.table).select(["id", "food_name"]).where("tenant_id", "=", tenantId).where("id", "in", missing).execute()) as Row[]).map((d) => [Number(d.id), String(d.food_name)]))
    : new Map<number, string>();
  const dishRows = missing
    .map((id): Row => ({ kind: NO_RECIPE_ROW, goodsCode: "", name: dishNames.get(id) ?? String(id), unitName: "份", portions: portions.get(id) ?? 0, averageCost: null, theoreticalQuantity: null, theoreticalCost: null, actualQuantity: null, actualCost: null, variance: null, varianceRate: "" }))
    .sort((a, b) => Number(b.portions) - Number(a.portions) || zhOrder(String(a.name), String(b.name)));
  const rows = [...goodsRows, ...dishRows];
  const sum = (key: string) => rows.reduce((s, r) => s + Number(r[key] ?? 0), 0);
  const totals: Row = { portions: sum("portions"), theoreticalCost: sum("theoreticalCost"), actualCost: sum("actualCost"), variance: sum("variance") };
  return { rows, totals: { ...totals, varianceRate: percent(Number(totals.variance), Number(totals.theoreticalCost)) } };
};

export const scReportQueries: Record<string, ReportQuery> = { orderCostCount, profitCount, foodCostVariance };
