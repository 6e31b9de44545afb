import { sql, type Kysely } from "kysely";
import { chinaDayNo, chinaDayStart, chinaMonth } from "../../../resources/chinaTime";
import { warehouseCheck } from "../../../resources/zhhq/closing";
import { purchse } from "../../../resources/zhhq/purchase";
import { warehouseDailyReport as dailyReport, warehouseMonthReport as monthReport } from "../../../resources/zhhq/reports";
import type { ReportDef } from "../../../resources/report/index";
import { warehouseIn, warehouseInReturn, warehouseOut, warehouseOutReturn } from "../../../resources/zhhq/stock";
import type { Db } from "../../db";
import { codePointOrder, orgNames, ROW_LIMIT, sumOf, zhOrder } from "../report/helpers";
import type { Filters, QueryResult, ReportQueries, Row } from "../report/query";
import { dayOfNo } from "../zhct/ledgerDays";
import { monthRange, nextMonth } from "../zhct/months";
import { MONTH_FORMAL } from "./stock";
import { STOCK_DAY } from "./stockDays";
import { expiringLicences, QUAL_TYPE_NAMES } from "./supplierQualification";
import { batchTrace, namesOf, restaurantTrace } from "./trace";

/**
 * 智慧后勤's report queries (issue 35, decision 076), each from the stock ledger's movement lines (`stock_line`) or
 * what the ledger keeps from them: a line's day is the China day it was posted; a positive line is stock in (a
 * stock-in, a return to the store), a negative one stock out (a stock-out, a return to the supplier). 库存日报 and 月报
 * read the ledger's days (`stock_day`, decision 090), which the ledger check holds equal to the lines, so a period
 * reads its own days. Sums come first; names are read for the keys found.
 */

// The stock tables are the ledger's and the declarations' (decision 068).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
const any = (db: Db) => db as unknown as AnyDb;

const n = (value: unknown) => Number(value ?? 0);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LineQuery = any;

/** The line filters every report shares: warehouse, goods, goods type. */
function whereGoods(db: AnyDb, q: LineQuery, tenantId: number, f: Filters): LineQuery {
  if (f.warehouseId !== undefined) q = q.where("l.warehouse_id", "=", f.warehouseId);
  if (f.goodsId !== undefined) q = q.where("l.goods_id", "=", f.goodsId);
  if (f.goodsTypeId !== undefined)
    q = q.where("l.goods_id", "in", db.selectFrom("goods").select("id").where("tenant_id", "=", tenantId).where("goods_type_id", "=", f.goodsTypeId));
  return q;
}

interface GoodsName {
  goodsCode: string;
  goodsName: string;
  unitName: string;
  goodsTypeName: string;
}

/** The goods of these ids, with their unit's and type's names. */
async function goodsNames(db: AnyDb, tenantId: number, ids: number[]): Promise<Map<number, GoodsName>> {
  const wanted = [...new Set(ids)];
  const out = new Map<number, GoodsName>();
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = await db
      .selectFrom("goods as g")
      .leftJoin("goods_unit as u", (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
      .leftJoin("goods_type as t", (j) => j.onRef("t.tenant_id", "=", "g.tenant_id").onRef("t.id", "=", "g.goods_type_id"))
      .select(["g.id", "g.goods_code", "g.goods_name", "u.unit_name", "t.type_name"])
      .where("g.tenant_id", "=", tenantId)
      .where("g.id", "in", wanted.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(Number(r.id), { goodsCode: r.goods_code, goodsName: r.goods_name, unitName: r.unit_name ?? "", goodsTypeName: r.type_name ?? "" });
  }
  return out;
}

/** A row's goods named: code, name and unit. */
const goodsCells = (g: GoodsName | undefined) => ({ goodsCode: g?.goodsCode ?? "", goodsName: g?.goodsName ?? "", unitName: g?.unitName ?? "" });

/** Each warehouse's place in the reports' order: by name, as Chinese sorts. */
async function warehouseOrder(db: AnyDb, tenantId: number): Promise<Map<number, number>> {
  const warehouses = (await db.selectFrom("warehouse").select(["id", "name"]).where("tenant_id", "=", tenantId).execute()) as Row[];
  warehouses.sort((a, b) => zhOrder(String(a.name), String(b.name)) || n(a.id) - n(b.id));
  return new Map(warehouses.map((w, i) => [n(w.id), i]));
}

/** `case warehouse_id when … then 0 … end`: the warehouses' order in SQL, so a page of rows is cut in the database. */
const rankOf = (order: Map<number, number>) => sql<number>`case l.warehouse_id ${sql.join([...order].map(([id, at]) => sql`when ${sql.lit(id)} then ${sql.lit(at)}`), sql` `)} else ${sql.lit(order.size)} end`;

const BALANCE_FIGURES = ["openingQuantity", "openingAmount", "inQuantity", "inAmount", "outQuantity", "outAmount", "closingQuantity", "closingAmount"] as const;

interface BalanceRow {
  period: string;
  warehouseId: number;
  goodsId: number;
  /** BALANCE_FIGURES, in that order. */
  figures: number[];
}

/** Balance rows named, in the reports' shape. */
async function namedBalances(db: AnyDb, tenantId: number, raw: BalanceRow[], periodKey: "day" | "month"): Promise<Row[]> {
  const [goods, warehouses] = await Promise.all([goodsNames(db, tenantId, raw.map((r) => r.goodsId)), namesOf(db, tenantId, "warehouse", "name", raw.map((r) => r.warehouseId))]);
  return raw.map((r) => ({
    [periodKey]: r.period,
    warehouseName: warehouses.get(r.warehouseId) ?? "",
    ...goodsCells(goods.get(r.goodsId)),
    ...Object.fromEntries(BALANCE_FIGURES.map((f, i) => [f, r.figures[i]])),
  }));
}

/** The report's totals row over all its rows: the columns it declares summable (amounts; goods' quantities are not). */
const balanceTotals = (def: ReportDef, raw: BalanceRow[]): Row =>
  Object.fromEntries(BALANCE_FIGURES.flatMap((f, i) => (def.columns.some((c) => c.key === f && c.total) ? [[f, raw.reduce((s, r) => s + r.figures[i], 0)]] : [])));

/**
 * 库存日报 from the ledger's days (`stock_day`, decision 090): a row per day and warehouse × goods that moved, opening
 * = closing − in + out. The answer is the first ROW_LIMIT rows in the report's order (day, warehouse, goods code),
 * cut in the database; the totals, the count and the chart's days cover every row.
 */
async function warehouseDailyReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const period = () =>
    whereGoods(db, db.selectFrom(`${STOCK_DAY} as l`).where("l.tenant_id", "=", tenantId).where("l.day_no", ">=", chinaDayNo(f.start)).where("l.day_no", "<", chinaDayNo(f.end)), tenantId, f);
  // One warehouse's rows need no order of warehouses.
  const order = f.warehouseId === undefined ? await warehouseOrder(db, tenantId) : null;
  let rows = period()
    .innerJoin("goods as g", (j: LineQuery) => j.onRef("g.tenant_id", "=", "l.tenant_id").onRef("g.id", "=", "l.goods_id"))
    .select(["l.day_no", "l.warehouse_id", "l.goods_id", "l.in_quantity", "l.in_amount", "l.out_quantity", "l.out_amount", "l.closing_quantity", "l.closing_amount"])
    .orderBy("l.day_no");
  if (order?.size) rows = rows.orderBy(rankOf(order));
  const [page, days] = await Promise.all([
    rows
      .orderBy("g.goods_code")
      .orderBy("l.goods_id")
      .limit(ROW_LIMIT)
      .execute() as Promise<Row[]>,
    period()
      .select([
        "l.day_no",
        sql<number>`count(*)`.as("rows"),
        ...["in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"].map((c) => sumOf(sql.ref(`l.${c}`)).as(c)),
      ])
      .groupBy("l.day_no")
      .orderBy("l.day_no")
      .execute() as Promise<Row[]>,
  ]);
  const figuresOf = (r: Row) => {
    const [inQ, inA, outQ, outA, closingQ, closingA] = ["in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"].map((c) => n(r[c]));
    return [closingQ - inQ + outQ, closingA - inA + outA, inQ, inA, outQ, outA, closingQ, closingA];
  };
  const raw = page.map((r) => ({ period: dayOfNo(n(r.day_no)), warehouseId: n(r.warehouse_id), goodsId: n(r.goods_id), figures: figuresOf(r) }));
  const perDay = days.map((d) => ({ period: dayOfNo(n(d.day_no)), warehouseId: 0, goodsId: 0, figures: figuresOf(d) }));
  const count = days.reduce((s, d) => s + n(d.rows), 0);
  return {
    rows: await namedBalances(db, tenantId, raw, "day"),
    totals: balanceTotals(dailyReport, perDay),
    truncated: count - raw.length,
    chartRows: perDay.map((d) => ({ day: d.period, ...Object.fromEntries(BALANCE_FIGURES.map((k, i) => [k, d.figures[i]])) })),
  };
}

/** The months of a month range, YYYY-MM. */
function monthsOf(f: Filters): string[] {
  const out: string[] = [];
  for (let month = String(f.fromMonth); month <= String(f.toMonth); month = nextMonth(month)) out.push(month);
  return out;
}

/**
 * 库存月报: a row per month and warehouse × goods that held stock or moved. A formal month's rows are its settlement
 * (月末结账 made it formal: `stock_month_settle`, by document date); an open month's are the ledger's days: each
 * key's stock now (`stock_real`) less what its days after the month moved is its closing, and walking back through
 * the months each opening is the closing less the month's in plus its out. The answer is the first ROW_LIMIT rows in
 * the report's order (month, warehouse, goods code); the totals and the count cover every row.
 */
async function warehouseMonthReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const months = monthsOf(f);
  const formal = new Set(
    ((await db.selectFrom("stock_month").select("month").where("tenant_id", "=", tenantId).where("month", "in", months).where("status", "=", MONTH_FORMAL).execute()) as Row[]).map((r) => String(r.month)),
  );
  // Each month's rows, filled in the report's order: the keys are walked in it, so no month is sorted whole.
  const byMonth = months.map((): BalanceRow[] => []);
  const settled: Row[] = [];
  if (formal.size) {
    let q = db
      .selectFrom("stock_month_settle as l")
      .select(["l.month", "l.warehouse_id", "l.goods_id", "l.opening_quantity", "l.opening_amount", "l.in_quantity", "l.in_amount", "l.out_quantity", "l.out_amount", "l.closing_quantity", "l.closing_amount"])
      .where("l.tenant_id", "=", tenantId)
      .where("l.month", "in", [...formal]);
    q = whereGoods(db, q, tenantId, f);
    settled.push(...((await q.execute()) as Row[]));
  }
  let moves: Row[] = [];
  let balances: Row[] = [];
  if (formal.size < months.length) {
    // The days from the first month on, per key and month; the last bucket is everything after the range.
    const bounds = months.map((m) => chinaDayNo(monthRange(m).end));
    const bucket = sql<number>`case ${sql.join(bounds.map((b, i) => sql`when l.day_no < ${sql.lit(b)} then ${sql.lit(i)}`), sql` `)} else ${sql.lit(months.length)} end`;
    let moved = db
      .selectFrom(`${STOCK_DAY} as l`)
      .select(["l.warehouse_id", "l.goods_id", bucket.as("bucket"), ...["in_quantity", "in_amount", "out_quantity", "out_amount"].map((c) => sumOf(sql.ref(`l.${c}`)).as(c))])
      .where("l.tenant_id", "=", tenantId)
      .where("l.day_no", ">=", chinaDayNo(monthRange(months[0]).start));
    moved = whereGoods(db, moved, tenantId, f);
    let real = db.selectFrom("stock_real as l").select(["l.warehouse_id", "l.goods_id", "l.quantity", "l.amount"]).where("l.tenant_id", "=", tenantId);
    real = whereGoods(db, real, tenantId, f);
    [moves, balances] = await Promise.all([moved.groupBy(["l.warehouse_id", "l.goods_id", bucket]).execute() as Promise<Row[]>, real.execute() as Promise<Row[]>]);
  }
  const [order, codes] = await Promise.all([warehouseOrder(db, tenantId), goodsCodes(db, tenantId, [...balances, ...settled].map((r) => n(r.goods_id)))]);
  const inOrder = (a: Row, b: Row) =>
    (order.get(n(a.warehouse_id)) ?? 0) - (order.get(n(b.warehouse_id)) ?? 0) || codePointOrder(codes.get(n(a.goods_id)) ?? "", codes.get(n(b.goods_id)) ?? "") || n(a.goods_id) - n(b.goods_id);
  for (const r of settled.sort(inOrder))
    byMonth[months.indexOf(String(r.month))].push({
      period: String(r.month),
      warehouseId: n(r.warehouse_id),
      goodsId: n(r.goods_id),
      figures: ["opening_quantity", "opening_amount", "in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"].map((c) => n(r[c])),
    });
  const byKey = new Map<string, Map<number, Row>>();
  for (const m of moves) {
    const k = `${n(m.warehouse_id)}:${n(m.goods_id)}`;
    const buckets = byKey.get(k) ?? new Map<number, Row>();
    byKey.set(k, buckets.set(n(m.bucket), m));
  }
  for (const b of balances.sort(inOrder)) {
    const warehouseId = n(b.warehouse_id);
    const goodsId = n(b.goods_id);
    const buckets = byKey.get(`${warehouseId}:${goodsId}`) ?? new Map<number, Row>();
    const after = buckets.get(months.length);
    let quantity = n(b.quantity) - n(after?.in_quantity) + n(after?.out_quantity);
    let amount = n(b.amount) - n(after?.in_amount) + n(after?.out_amount);
    for (let i = months.length - 1; i >= 0; i--) {
      const m = buckets.get(i);
      const [inQ, inA, outQ, outA] = [n(m?.in_quantity), n(m?.in_amount), n(m?.out_quantity), n(m?.out_amount)];
      const openingQ = quantity - inQ + outQ;
      const openingA = amount - inA + outA;
      // A month with neither stock nor movement is not a row; a formal month's rows are its settlement's.
      if ((m || openingQ !== 0 || openingA !== 0) && !formal.has(months[i])) byMonth[i].push({ period: months[i], warehouseId, goodsId, figures: [openingQ, openingA, inQ, inA, outQ, outA, quantity, amount] });
      quantity = openingQ;
      amount = openingA;
    }
  }
  const raw = byMonth.flat();
  const page = raw.slice(0, ROW_LIMIT);
  return { rows: await namedBalances(db, tenantId, page, "month"), totals: balanceTotals(monthReport, raw), truncated: raw.length - page.length };
}

/** The codes of these goods (the rows' order), read once for all. */
async function goodsCodes(db: AnyDb, tenantId: number, goodsIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(goodsIds)];
  if (!ids.length) return new Map();
  let q = db.selectFrom("goods").select(["id", "goods_code"]).where("tenant_id", "=", tenantId);
  // Beyond a thousand goods, every goods of the tenant in one read rather than a list of ids.
  if (ids.length <= 1000) q = q.where("id", "in", ids);
  return new Map(((await q.execute()) as Row[]).map((r) => [n(r.id), String(r.goods_code)]));
}

/** Stock-ins and returns to the supplier per supplier, warehouse and goods. */
async function warehouseInReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const IN = warehouseIn.docType;
  const RETURN = warehouseInReturn.docType;
  const supplier = sql<number>`coalesce(i.supplier_id, r.supplier_id)`;
  let q = db
    .selectFrom("stock_line as l")
    .leftJoin(`${warehouseIn.header.table} as i`, (j) => j.onRef("i.tenant_id", "=", "l.tenant_id").onRef("i.id", "=", "l.doc_id").on("l.doc_type", "=", IN))
    .leftJoin(`${warehouseInReturn.header.table} as r`, (j) => j.onRef("r.tenant_id", "=", "l.tenant_id").onRef("r.id", "=", "l.doc_id").on("l.doc_type", "=", RETURN))
    .select([
      supplier.as("supplier_id"),
      "l.warehouse_id",
      "l.goods_id",
      sumOf(sql`case when l.doc_type = ${IN} then 1 else 0 end`).as("in_count"),
      sumOf(sql`case when l.doc_type = ${IN} then l.quantity else 0 end`).as("in_q"),
      sumOf(sql`case when l.doc_type = ${IN} then l.amount else 0 end`).as("in_a"),
      sumOf(sql`case when l.doc_type = ${RETURN} then -l.quantity else 0 end`).as("ret_q"),
      sumOf(sql`case when l.doc_type = ${RETURN} then -l.amount else 0 end`).as("ret_a"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_type", "in", [IN, RETURN])
    .where("l.occurred_at", ">=", f.start)
    .where("l.occurred_at", "<", f.end);
  q = whereGoods(db, q, tenantId, f);
  if (f.supplierId !== undefined) q = q.where(supplier, "=", f.supplierId);
  const sums = (await q.groupBy([supplier, "l.warehouse_id", "l.goods_id"]).execute()) as Row[];
  const [goods, warehouses, suppliers] = await Promise.all([
    goodsNames(db, tenantId, sums.map((r) => n(r.goods_id))),
    namesOf(db, tenantId, "warehouse", "name", sums.map((r) => n(r.warehouse_id))),
    namesOf(db, tenantId, "supplier", "supplier_name", sums.map((r) => (r.supplier_id === null ? null : n(r.supplier_id)))),
  ]);
  const rows: Row[] = sums.map((r) => {
    const g = goods.get(n(r.goods_id));
    return {
      supplierName: r.supplier_id === null ? "（未指定供应商）" : (suppliers.get(n(r.supplier_id)) ?? ""),
      warehouseName: warehouses.get(n(r.warehouse_id)) ?? "",
      goodsTypeName: g?.goodsTypeName ?? "",
      goodsCode: g?.goodsCode ?? "",
      goodsName: g?.goodsName ?? "",
      unitName: g?.unitName ?? "",
      inCount: n(r.in_count),
      inQuantity: n(r.in_q),
      inAmount: n(r.in_a),
      returnQuantity: n(r.ret_q),
      returnAmount: n(r.ret_a),
      netAmount: n(r.in_a) - n(r.ret_a),
    };
  });
  rows.sort((a, b) => zhOrder(String(a.supplierName), String(b.supplierName)) || zhOrder(String(a.warehouseName), String(b.warehouseName)) || String(a.goodsCode).localeCompare(String(b.goodsCode)));
  return { rows };
}

/**
 * Stock-outs and returns to the store per use type, receiver (领用餐厅/部门; the warehouse's restaurant for a stock-out
 * without one — a return is its stock-out's), warehouse and goods, at cost.
 */
async function warehouseOutReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const OUT = warehouseOut.docType;
  const RETURN = warehouseOutReturn.docType;
  const useType = sql<number>`coalesce(o.out_use_type_id, src.out_use_type_id)`;
  const receiver = sql<number>`coalesce(o.receiver_org_id, src.receiver_org_id, w.restaurant_id)`;
  let q = db
    .selectFrom("stock_line as l")
    .leftJoin(`${warehouseOut.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "l.tenant_id").onRef("o.id", "=", "l.doc_id").on("l.doc_type", "=", OUT))
    .leftJoin(`${warehouseOutReturn.header.table} as r`, (j) => j.onRef("r.tenant_id", "=", "l.tenant_id").onRef("r.id", "=", "l.doc_id").on("l.doc_type", "=", RETURN))
    .leftJoin(`${warehouseOut.header.table} as src`, (j) => j.onRef("src.tenant_id", "=", "r.tenant_id").onRef("src.id", "=", "r.warehouse_out_id"))
    .innerJoin("warehouse as w", (j) => j.onRef("w.tenant_id", "=", "l.tenant_id").onRef("w.id", "=", "l.warehouse_id"))
    .select([
      useType.as("use_type_id"),
      receiver.as("receiver_id"),
      "l.warehouse_id",
      "l.goods_id",
      sql<number>`count(distinct case when l.doc_type = ${OUT} then l.doc_line_id end)`.as("out_count"),
      sumOf(sql`case when l.doc_type = ${OUT} then -l.quantity else 0 end`).as("out_q"),
      sumOf(sql`case when l.doc_type = ${OUT} then -l.amount else 0 end`).as("out_a"),
      sumOf(sql`case when l.doc_type = ${RETURN} then l.quantity else 0 end`).as("ret_q"),
      sumOf(sql`case when l.doc_type = ${RETURN} then l.amount else 0 end`).as("ret_a"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_type", "in", [OUT, RETURN])
    .where("l.occurred_at", ">=", f.start)
    .where("l.occurred_at", "<", f.end);
  q = whereGoods(db, q, tenantId, f);
  if (f.outUseTypeId !== undefined) q = q.where(useType, "=", f.outUseTypeId);
  if (f.receiverOrgId !== undefined) q = q.where(receiver, "=", f.receiverOrgId);
  const sums = (await q.groupBy([useType, receiver, "l.warehouse_id", "l.goods_id"]).execute()) as Row[];
  const [goods, warehouses, useTypes, receivers] = await Promise.all([
    goodsNames(db, tenantId, sums.map((r) => n(r.goods_id))),
    namesOf(db, tenantId, "warehouse", "name", sums.map((r) => n(r.warehouse_id))),
    namesOf(db, tenantId, "out_use_type", "type_name", sums.map((r) => (r.use_type_id === null ? null : n(r.use_type_id)))),
    orgNames(dbIn, tenantId, sums.map((r) => (r.receiver_id === null ? null : n(r.receiver_id)))),
  ]);
  const rows: Row[] = sums.map((r) => {
    const g = goods.get(n(r.goods_id));
    return {
      useTypeName: r.use_type_id === null ? "（未指定用途）" : (useTypes.get(n(r.use_type_id)) ?? ""),
      receiverName: r.receiver_id === null ? "" : (receivers.get(n(r.receiver_id)) ?? ""),
      warehouseName: warehouses.get(n(r.warehouse_id)) ?? "",
      goodsCode: g?.goodsCode ?? "",
      goodsName: g?.goodsName ?? "",
      unitName: g?.unitName ?? "",
      outCount: n(r.out_count),
      outQuantity: n(r.out_q),
      outAmount: n(r.out_a),
      returnQuantity: n(r.ret_q),
      returnAmount: n(r.ret_a),
      netAmount: n(r.out_a) - n(r.ret_a),
    };
  });
  rows.sort((a, b) => zhOrder(String(a.useTypeName), String(b.useTypeName)) || zhOrder(String(a.receiverName), String(b.receiverName)) || zhOrder(String(a.warehouseName), String(b.warehouseName)) || String(a.goodsCode).localeCompare(String(b.goodsCode)));
  return { rows };
}

/**
 * 采购统计 per order month × supplier × goods, from the order lines: approved orders (已审核, 部分到货, 已到货) and closed
 * ones that were confirmed (one closed unconfirmed was closed before anything arrived). 已确认金额 is what arrived on
 * confirmed orders, the amount payment is made on.
 */
/** 已审核, 部分到货, 已到货 (the order's status is text, its dictionary's value). */
const COUNTED_ORDER_STATUSES = ["2", "3", "4"];

async function purchaseReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const month = sql<string>`substr(h.doc_date, 1, 7)`;
  let q = db
    .selectFrom(`${purchse.lines.table} as l`)
    .innerJoin(`${purchse.header.table} as h`, (j) => j.onRef("h.tenant_id", "=", "l.tenant_id").onRef("h.id", "=", "l.document_id"))
    .select([
      month.as("month"),
      "h.supplier_id",
      "l.goods_id",
      sql<number>`count(distinct h.id)`.as("orders"),
      sumOf(sql`l.quantity`).as("q"),
      sumOf(sql`l.amount`).as("a"),
      sumOf(sql`l.received_quantity`).as("rq"),
      sumOf(sql`l.received_amount`).as("ra"),
      sumOf(sql`case when h.confirmed_at is not null then l.received_amount else 0 end`).as("ca"),
    ])
    .where("h.tenant_id", "=", tenantId)
    .where("h.doc_date", ">=", f.from)
    .where("h.doc_date", "<=", f.to)
    .where((eb) => eb.or([eb("h.status", "in", COUNTED_ORDER_STATUSES), eb("h.confirmed_at", "is not", null)]));
  if (f.supplierId !== undefined) q = q.where("h.supplier_id", "=", f.supplierId);
  if (f.warehouseId !== undefined) q = q.where("h.warehouse_id", "=", f.warehouseId);
  if (f.goodsId !== undefined) q = q.where("l.goods_id", "=", f.goodsId);
  if (f.goodsTypeId !== undefined)
    q = q.where("l.goods_id", "in", db.selectFrom("goods").select("id").where("tenant_id", "=", tenantId).where("goods_type_id", "=", f.goodsTypeId));
  const sums = (await q.groupBy([month, "h.supplier_id", "l.goods_id"]).execute()) as Row[];
  const [goods, suppliers] = await Promise.all([goodsNames(db, tenantId, sums.map((r) => n(r.goods_id))), namesOf(db, tenantId, "supplier", "supplier_name", sums.map((r) => r.supplier_id))]);
  const rows: Row[] = sums.map((r) => ({
    month: String(r.month),
    supplierName: suppliers.get(n(r.supplier_id)) ?? "",
    ...goodsCells(goods.get(n(r.goods_id))),
    orderCount: n(r.orders),
    orderQuantity: n(r.q),
    orderAmount: n(r.a),
    // Fen per unit: the quantity is in thousandths.
    avgPrice: n(r.q) ? Math.round((n(r.a) * 1000) / n(r.q)) : null,
    receivedQuantity: n(r.rq),
    receivedAmount: n(r.ra),
    confirmedAmount: n(r.ca),
  }));
  rows.sort((a, b) => String(a.month).localeCompare(String(b.month)) || zhOrder(String(a.supplierName), String(b.supplierName)) || String(a.goodsCode).localeCompare(String(b.goodsCode)));
  // One order of several goods is one order: the total counts orders, not rows.
  const counted = (await db
    .selectFrom(`${purchse.header.table} as o`)
    .select(sql<number>`count(*)`.as("n"))
    .where("o.tenant_id", "=", tenantId)
    .where("o.id", "in", q.clearSelect().clearGroupBy().select("h.id"))
    .executeTakeFirst()) as Row | undefined;
  return { rows, totals: { ...totalsOf(rows, ["orderAmount", "receivedAmount", "confirmedAmount"]), orderCount: n(counted?.n) } };
}

/** The named columns summed over the rows. */
const totalsOf = (rows: Row[], keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + n(r[k]), 0)]));

/** 盘点统计: each approved stocktake's ledger lines per sheet × goods, gains (positive) and losses (negative) apart. */
async function warehouseCheckReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  let q = db
    .selectFrom("stock_line as l")
    .select([
      "l.doc_id",
      "l.warehouse_id",
      "l.goods_id",
      sumOf(sql`case when l.quantity > 0 then l.quantity else 0 end`).as("gain_q"),
      sumOf(sql`case when l.quantity > 0 then l.amount else 0 end`).as("gain_a"),
      sumOf(sql`case when l.quantity < 0 then -l.quantity else 0 end`).as("loss_q"),
      sumOf(sql`case when l.quantity < 0 then -l.amount else 0 end`).as("loss_a"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_type", "=", warehouseCheck.docType)
    .where("l.occurred_at", ">=", f.start)
    .where("l.occurred_at", "<", f.end);
  q = whereGoods(db, q, tenantId, f);
  const sums = (await q.groupBy(["l.doc_id", "l.warehouse_id", "l.goods_id"]).execute()) as Row[];
  const docIds = [...new Set(sums.map((r) => n(r.doc_id)))];
  const [goods, warehouses, sheets] = await Promise.all([
    goodsNames(db, tenantId, sums.map((r) => n(r.goods_id))),
    namesOf(db, tenantId, "warehouse", "name", sums.map((r) => n(r.warehouse_id))),
    docIds.length
      ? (db.selectFrom(warehouseCheck.header.table).select(["id", "doc_no", "doc_date"]).where("tenant_id", "=", tenantId).where("id", "in", docIds).execute() as Promise<Row[]>)
      : Promise.resolve([] as Row[]),
  ]);
  const sheetOf = new Map(sheets.map((s) => [n(s.id), s]));
  const rows: Row[] = sums.map((r) => {
    const sheet = sheetOf.get(n(r.doc_id));
    return {
      docNo: String(sheet?.doc_no ?? ""),
      docDate: String(sheet?.doc_date ?? ""),
      warehouseName: warehouses.get(n(r.warehouse_id)) ?? "",
      ...goodsCells(goods.get(n(r.goods_id))),
      gainQuantity: n(r.gain_q),
      gainAmount: n(r.gain_a),
      lossQuantity: n(r.loss_q),
      lossAmount: n(r.loss_a),
      netAmount: n(r.gain_a) - n(r.loss_a),
    };
  });
  rows.sort((a, b) => String(a.docDate).localeCompare(String(b.docDate)) || String(a.docNo).localeCompare(String(b.docNo)) || String(a.goodsCode).localeCompare(String(b.goodsCode)));
  return { rows };
}

const REJECTED = 9;

/**
 * 维修统计 per report month × type × place type × worker, from the repairs reported in the months and the hours of
 * their work records. Averages are over the repairs that have the figure (accepted, finished, rated); the totals
 * row's are the period's own.
 */
async function repairDetailReport(dbIn: Db, tenantId: number, f: Filters & { repairType?: string; placeType?: string }): Promise<QueryResult> {
  const db = any(dbIn);
  const hours = db.selectFrom("repair_detail").select(["repair_id", sumOf(sql`hours`).as("hours")]).where("tenant_id", "=", tenantId).groupBy("repair_id").as("d");
  let q = db
    .selectFrom("repair as r")
    .leftJoin(hours, (j) => j.onRef("d.repair_id", "=", "r.id"))
    .select(["r.created_at", "r.repair_type", "r.place_type", "r.worker_name", "r.repair_status", "r.finished_at", "r.parts_cost", "r.accept_minutes", "r.finish_minutes", "r.rating", "d.hours"])
    .where("r.tenant_id", "=", tenantId)
    .where("r.created_at", ">=", f.start)
    .where("r.created_at", "<", f.end);
  if (f.repairType !== undefined) q = q.where("r.repair_type", "=", f.repairType);
  if (f.placeType !== undefined) q = q.where("r.place_type", "=", f.placeType);
  if (f.keyword !== undefined) q = q.where("r.worker_name", "=", f.keyword);
  const repairs = (await q.execute()) as Row[];
  type Acc = { row: Row; accept: number[]; finish: number[]; rating: number[] };
  const groups = new Map<string, Acc>();
  const all: Acc = { row: { repairs: 0, finished: 0, rejected: 0, partsCost: 0, hours: 0, ratings: 0 }, accept: [], finish: [], rating: [] };
  for (const r of repairs) {
    const month = chinaMonth(n(r.created_at));
    const worker = r.worker_name ? String(r.worker_name) : "（未受理）";
    const k = [month, r.repair_type, r.place_type, worker].join("\u0000");
    const acc = groups.get(k) ?? { row: { month, repairType: String(r.repair_type), placeType: String(r.place_type), workerName: worker, repairs: 0, finished: 0, rejected: 0, partsCost: 0, hours: 0, ratings: 0 }, accept: [], finish: [], rating: [] };
    groups.set(k, acc);
    for (const into of [acc, all]) {
      const row = into.row as Record<string, number>;
      row.repairs += 1;
      if (r.finished_at !== null) row.finished += 1;
      if (n(r.repair_status) === REJECTED) row.rejected += 1;
      row.partsCost += n(r.parts_cost);
      row.hours += n(r.hours);
      if (r.rating !== null) row.ratings += 1;
      if (r.accept_minutes !== null) into.accept.push(n(r.accept_minutes));
      if (r.finish_minutes !== null) into.finish.push(n(r.finish_minutes));
      if (r.rating !== null) into.rating.push(n(r.rating));
    }
  }
  const mean = (values: number[], scale = 1) => (values.length ? Math.round((values.reduce((s, v) => s + v, 0) * scale) / values.length) : null);
  // A rating is shown to the thousandth (a quantity column): 4.5 is 4500.
  const figures = (a: Acc): Row => ({ ...a.row, avgAcceptMinutes: mean(a.accept), avgFinishMinutes: mean(a.finish), avgRating: mean(a.rating, 1000) });
  const rows = [...groups.values()].map(figures);
  rows.sort((a, b) => String(a.month).localeCompare(String(b.month)) || String(a.repairType).localeCompare(String(b.repairType)) || String(a.placeType).localeCompare(String(b.placeType)) || zhOrder(String(a.workerName), String(b.workerName)));
  return { rows, totals: figures(all) };
}

/** 资质预警: licences lapsed or lapsing (supplierQualification.ts's list). */
async function supplierQualificationWarning(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  // The report declares no period: the engine's default ends today, which is the day this is as of.
  const licences = (await expiringLicences(db, tenantId, chinaDayStart(f.to))).filter((l) => f.supplierId === undefined || l.supplierId === f.supplierId);
  const rows: Row[] = licences.map((l) => ({
    kind: l.daysLeft < 0 ? "资质已过期" : "资质即将到期",
    subject: l.supplierName,
    detail: `${QUAL_TYPE_NAMES[l.qualType] ?? ""} ${l.qualNo}`,
    validTo: l.validTo,
    daysLeft: l.daysLeft,
    items: 1,
  }));
  return { rows };
}

export const zhhqReportQueries: ReportQueries = {
  warehouseDailyReport,
  warehouseMonthReport,
  purchaseReport,
  warehouseInReport,
  warehouseOutReport,
  repairDetailReport,
  warehouseCheckReport,
  batchTrace,
  restaurantTrace,
  supplierQualificationWarning,
};
