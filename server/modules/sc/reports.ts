import { sql, type Kysely } from "kysely";
import { scCostExpense, scIncome } from "../../../resources/sc/master";
import { scPurchase } from "../../../resources/sc/purchase";
import { warehouseOut, warehouseOutReturn } from "../../../resources/zhhq/stock";
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

/**
 * A period's stock-outs summed per document day, warehouse and receiver (`d`), then named to a kitchen: what a
 * kitchen took is known from its document, not its lines, so a month's many lines are summed before the warehouse
 * and the receiver are looked up (once a group, not once a line).
 */
function perKitchen(db: AnyDb, tenantId: number, perDocument: ReturnType<AnyDb["selectFrom"]>, placeIds: number[]) {
  return db
    .selectFrom(perDocument.as("d"))
    .innerJoin("warehouse as w", (j) => j.on("w.tenant_id", "=", tenantId).onRef("w.id", "=", "d.warehouse_id"))
    .leftJoin("org as rc", (j) => j.on("rc.tenant_id", "=", tenantId).onRef("rc.id", "=", "d.receiver_org_id"))
    .where(takenBy, "in", placeIds)
    .select(["d.day", takenBy.as("place_id"), sumOf(sql`d.amount`).as("amount")])
    .groupBy(["d.day", takenBy]);
}

/** Stock-outs for use, at the stock cost the ledger charged them, less their returns, per document day and restaurant. */
export async function stockCostByDay(db: AnyDb, tenantId: number, from: string, to: string, placeIds: number[]): Promise<DayAmount[]> {
  if (!placeIds.length) return [];
  const outs = db
    .selectFrom(`${warehouseOut.lines.table} as l`)
    .innerJoin(`${warehouseOut.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "l.tenant_id").onRef("o.id", "=", "l.document_id"))
    .where("l.tenant_id", "=", tenantId)
    .where("o.status", "=", APPROVED)
    .where((eb) => eb.or([eb("o.out_kind", "is", null), eb("o.out_kind", "!=", REPAIR_OUT)]))
    .where("o.doc_date", ">=", from)
    .where("o.doc_date", "<=", to)
    .select(["o.doc_date as day", "o.warehouse_id", "o.receiver_org_id", sumOf(sql`l.amount`).as("amount")])
    .groupBy(["o.doc_date", "o.warehouse_id", "o.receiver_org_id"]);
  const returns = db
    .selectFrom(`${warehouseOutReturn.lines.table} as l`)
    .innerJoin(`${warehouseOutReturn.header.table} as r`, (j) => j.onRef("r.tenant_id", "=", "l.tenant_id").onRef("r.id", "=", "l.document_id"))
    .innerJoin(`${warehouseOut.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "r.tenant_id").onRef("o.id", "=", "r.warehouse_out_id"))
    .where("l.tenant_id", "=", tenantId)
    .where("r.status", "=", APPROVED)
    .where((eb) => eb.or([eb("o.out_kind", "is", null), eb("o.out_kind", "!=", REPAIR_OUT)]))
    .where("r.doc_date", ">=", from)
    .where("r.doc_date", "<=", to)
    .select(["r.doc_date as day", "o.warehouse_id", "o.receiver_org_id", sumOf(sql`l.amount`).as("amount")])
    .groupBy(["r.doc_date", "o.warehouse_id", "o.receiver_org_id"]);
  const [issued, returned] = (await Promise.all([perKitchen(db, tenantId, outs, placeIds).execute(), perKitchen(db, tenantId, returns, placeIds).execute()])) as Row[][];
  return [
    ...issued.map((r) => ({ day: String(r.day), placeId: Number(r.place_id), amount: Number(r.amount) })),
    ...returned.map((r) => ({ day: String(r.day), placeId: Number(r.place_id), amount: -Number(r.amount) })),
  ];
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

export const scReportQueries: Record<string, ReportQuery> = { orderCostCount, profitCount };
