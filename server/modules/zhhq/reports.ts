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
import { STOCK_DAY, STOCK_POSTING_SUM } from "./stockDays";
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

const FIGURE_COLUMNS = ["opening_quantity", "opening_amount", "in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"] as const;
const MOVE_COLUMNS = ["in_quantity", "in_amount", "out_quantity", "out_amount"] as const;

/**
 * 库存月报: a row per month and warehouse × goods that held stock or moved (decision 095). A formal month's rows are
 * its settlement (月末结账 made it formal: `stock_month_settle`, by document date); an open month's are the ledger's
 * days. The answer is the first ROW_LIMIT rows in the report's order (month, warehouse, goods code) with totals and a
 * count over every row, and only the page's rows are made one by one: the totals are sums of what the postings moved
 * (decision 099) and the keys' stock, the count is the keys less those that neither moved nor held stock in a month (see `openMonths`).
 */
async function warehouseMonthReport(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const months = monthsOf(f);
  // Month i is the days bounds[i] ≤ day_no < bounds[i + 1].
  const bounds = [...months.map((m) => chinaDayNo(monthRange(m).start)), chinaDayNo(monthRange(months[months.length - 1]).end)];
  const formal = new Set(
    ((await db.selectFrom("stock_month").select("month").where("tenant_id", "=", tenantId).where("month", "in", months).where("status", "=", MONTH_FORMAL).execute()) as Row[]).map((r) => String(r.month)),
  );
  const open = months.flatMap((m, i) => (formal.has(m) ? [] : [i]));
  const [order, settled, opened] = await Promise.all([
    warehouseOrder(db, tenantId),
    formal.size ? settledMonths(db, tenantId, f, [...formal]) : Promise.resolve(new Map<string, Row>()),
    open.length ? openMonths(db, tenantId, f, bounds) : Promise.resolve(null),
  ]);
  const counts = opened?.rowsByWarehouse;
  // Each month's figures summed over its rows (a key that neither held stock nor moved adds nothing), and its count.
  const perMonth: BalanceRow[] = [];
  const rowCount: number[] = [];
  months.forEach((month, i) => {
    if (formal.has(month)) {
      const s = settled.get(month);
      perMonth.push({ period: month, warehouseId: 0, goodsId: 0, figures: FIGURE_COLUMNS.map((c) => n(s?.[c])) });
      rowCount.push(n(s?.rows));
    } else {
      perMonth.push({ period: month, warehouseId: 0, goodsId: 0, figures: opened!.figuresOf(i) });
      rowCount.push([...counts!.values()].reduce((sum, byMonth) => sum + byMonth[i], 0));
    }
  });
  const rank = (warehouseId: number) => order.get(warehouseId) ?? order.size;
  const page: BalanceRow[] = [];
  for (let i = 0; i < months.length && page.length < ROW_LIMIT; i++) {
    if (!rowCount[i]) continue;
    const needed = ROW_LIMIT - page.length;
    if (formal.has(months[i])) page.push(...(await settledRows(db, tenantId, f, months[i], rank)).slice(0, needed));
    else {
      // The month's rows lie in its warehouses in order: only the first warehouses whose rows fill the page are read.
      const warehouses: number[] = [];
      let rows = 0;
      for (const [warehouseId, byMonth] of [...counts!].sort(([a], [b]) => rank(a) - rank(b))) {
        if (rows >= needed) break;
        if (!byMonth[i]) continue;
        warehouses.push(warehouseId);
        rows += byMonth[i];
      }
      page.push(...(await openMonthRows(db, tenantId, f, months[i], bounds[i], bounds[i + 1], warehouses, rank)).slice(0, needed));
    }
  }
  const count = rowCount.reduce((s, c) => s + c, 0);
  return { rows: await namedBalances(db, tenantId, page, "month"), totals: balanceTotals(monthReport, perMonth), truncated: count - page.length };
}

/** The formal months' settlements summed, by month, with their count of rows. */
async function settledMonths(db: AnyDb, tenantId: number, f: Filters, months: string[]): Promise<Map<string, Row>> {
  let q = db
    .selectFrom("stock_month_settle as l")
    .select(["l.month", sql<number>`count(*)`.as("rows"), ...FIGURE_COLUMNS.map((c) => sumOf(sql.ref(`l.${c}`)).as(c))])
    .where("l.tenant_id", "=", tenantId)
    .where("l.month", "in", months);
  q = whereGoods(db, q, tenantId, f);
  return new Map(((await q.groupBy("l.month").execute()) as Row[]).map((r) => [String(r.month), r]));
}

/** The rows of keys in the report's order: warehouse, goods code, goods. */
async function inKeyOrder(db: AnyDb, tenantId: number, rows: BalanceRow[], rank: (warehouseId: number) => number): Promise<BalanceRow[]> {
  const codes = await goodsCodes(db, tenantId, rows.map((r) => r.goodsId));
  return rows.sort((a, b) => rank(a.warehouseId) - rank(b.warehouseId) || codePointOrder(codes.get(a.goodsId) ?? "", codes.get(b.goodsId) ?? "") || a.goodsId - b.goodsId);
}

/** A formal month's rows: its settlement's, as 月末结账 made them. */
async function settledRows(db: AnyDb, tenantId: number, f: Filters, month: string, rank: (warehouseId: number) => number): Promise<BalanceRow[]> {
  let q = db
    .selectFrom("stock_month_settle as l")
    .select(["l.warehouse_id", "l.goods_id", ...FIGURE_COLUMNS.map((c) => `l.${c}`)])
    .where("l.tenant_id", "=", tenantId)
    .where("l.month", "=", month);
  q = whereGoods(db, q, tenantId, f);
  const rows = ((await q.execute()) as Row[]).map((r) => ({ period: month, warehouseId: n(r.warehouse_id), goodsId: n(r.goods_id), figures: FIGURE_COLUMNS.map((c) => n(r[c])) }));
  return inKeyOrder(db, tenantId, rows, rank);
}

/**
 * An open month's rows in these warehouses, from the ledger's days: each key's opening is the closing of its last
 * day before the month (none: nothing), its in and out the month's days; a key that neither held stock nor moved
 * is not a row.
 */
async function openMonthRows(db: AnyDb, tenantId: number, f: Filters, month: string, from: number, to: number, warehouses: number[], rank: (warehouseId: number) => number): Promise<BalanceRow[]> {
  const lastClosing = (figure: string) =>
    sql<number>`(select d.${sql.ref(figure)} from ${sql.table(STOCK_DAY)} d
      where d.tenant_id = l.tenant_id and d.warehouse_id = l.warehouse_id and d.goods_id = l.goods_id and d.day_no < ${from} order by d.day_no desc limit 1)`;
  let keys = db
    .selectFrom("stock_real as l")
    .select(["l.warehouse_id", "l.goods_id", lastClosing("closing_quantity").as("opening_quantity"), lastClosing("closing_amount").as("opening_amount")])
    .where("l.tenant_id", "=", tenantId)
    .where("l.warehouse_id", "in", warehouses);
  keys = whereGoods(db, keys, tenantId, f);
  let days = db
    .selectFrom(`${STOCK_DAY} as l`)
    .select(["l.warehouse_id", "l.goods_id", ...MOVE_COLUMNS.map((c) => sumOf(sql.ref(`l.${c}`)).as(c))])
    .where("l.tenant_id", "=", tenantId)
    .where("l.warehouse_id", "in", warehouses)
    .where("l.day_no", ">=", from)
    .where("l.day_no", "<", to);
  days = whereGoods(db, days, tenantId, f);
  const [held, moves] = (await Promise.all([keys.execute(), days.groupBy(["l.warehouse_id", "l.goods_id"]).execute()])) as [Row[], Row[]];
  const movesOf = new Map(moves.map((m) => [`${n(m.warehouse_id)}:${n(m.goods_id)}`, m]));
  const rows: BalanceRow[] = [];
  for (const k of held) {
    const m = movesOf.get(`${n(k.warehouse_id)}:${n(k.goods_id)}`);
    const [openingQ, openingA] = [n(k.opening_quantity), n(k.opening_amount)];
    if (!m && openingQ === 0 && openingA === 0) continue;
    const [inQ, inA, outQ, outA] = MOVE_COLUMNS.map((c) => n(m?.[c]));
    rows.push({ period: month, warehouseId: n(k.warehouse_id), goodsId: n(k.goods_id), figures: [openingQ, openingA, inQ, inA, outQ, outA, openingQ + inQ - outQ, openingA + inA - outA] });
  }
  return inKeyOrder(db, tenantId, rows, rank);
}

/**
 * The open months' figures and rows, per warehouse. Figures: a month's in and out are what its postings moved (their
 * sums per warehouse and day, decision 099; for some goods, their kept days); its opening is the
 * keys' stock now (`stock_real`) less what every day from the month on moved. Rows: a warehouse's keys less, each
 * month, those that neither moved in it nor held stock at its start: such a month lies wholly in a stretch without
 * days where the key's stock was nothing. Two kinds of stretch: after a day of the range that closed at nothing
 * (quantity and amount), until the key's next day; and from the range's start, for a key that held nothing then,
 * until its first day in it (or for good). The days that closed at nothing are few (a partial index holds them,
 * migration 0090); a key's next day after one opened at nothing, and those days are few too (another partial index,
 * migration 0091: each key's first day and the days after those), so both are read as a range and paired here. The others are counted without a question per key: a key
 * empty at the start has as its first day in the range a day that opened at nothing and followed no day of the
 * range that closed at it, so each month holds as many first days as such days; and a key empty at the start with
 * no day since is empty now, its last day (if any) before the range: the keys empty now less those whose last day
 * of the range closed at nothing.
 * A stretch is counted by the months of its two ends (−1: before the range; n: after it; n + 1: no next day) and
 * holds the months between.
 */
async function openMonths(db: AnyDb, tenantId: number, f: Filters, bounds: number[]) {
  const months = bounds.length - 1;
  let real = db
    .selectFrom("stock_real as l")
    .select([
      "l.warehouse_id",
      sql<number>`count(*)`.as("keys"),
      sql<number>`sum(case when l.quantity <> 0 or l.amount <> 0 then 1 else 0 end)`.as("held"),
      sumOf(sql.ref("l.quantity")).as("quantity"),
      sumOf(sql.ref("l.amount")).as("amount"),
    ])
    .where("l.tenant_id", "=", tenantId);
  real = whereGoods(db, real, tenantId, f);
  // What each warehouse moved each day from the range's start: the postings' sums (decision 099), or, for some goods,
  // their kept days.
  const byGoods = f.goodsId !== undefined || f.goodsTypeId !== undefined;
  let moved = db
    .selectFrom(`${byGoods ? STOCK_DAY : STOCK_POSTING_SUM} as l`)
    .select(["l.day_no", "l.warehouse_id", ...MOVE_COLUMNS.map((c) => sumOf(sql.ref(`l.${c}`)).as(c))])
    .where("l.tenant_id", "=", tenantId)
    .where("l.day_no", ">=", bounds[0]);
  moved = whereGoods(db, moved, tenantId, f);
  // The days of the range that closed, and that opened, at nothing (quantity and amount): each a partial index's
  // (migrations 0090 and 0091), chosen for the literal zeros and the very expressions it was made with.
  const emptyDays = (closed: boolean) => {
    const zero = closed
      ? [sql<boolean>`l.closing_quantity = ${sql.lit(0)}`, sql<boolean>`l.closing_amount = ${sql.lit(0)}`]
      : [sql<boolean>`l.closing_quantity - l.in_quantity + l.out_quantity = ${sql.lit(0)}`, sql<boolean>`l.closing_amount - l.in_amount + l.out_amount = ${sql.lit(0)}`];
    let q = db
      .selectFrom(`${STOCK_DAY} as l`)
      .select(["l.warehouse_id", "l.goods_id", "l.day_no"])
      .where("l.tenant_id", "=", tenantId)
      .where(zero[0])
      .where(zero[1])
      .where("l.day_no", ">=", bounds[0]);
    q = whereGoods(db, q, tenantId, f);
    return q.orderBy("l.day_no").execute() as Promise<Row[]>;
  };
  const [stock, perDay, closedEmpty, openedEmpty] = (await Promise.all([real.groupBy("l.warehouse_id").execute(), moved.groupBy(["l.day_no", "l.warehouse_id"]).execute(), emptyDays(true), emptyDays(false)])) as Row[][];
  const monthIndex = (day: unknown) => {
    if (day === null || day === undefined) return months + 1;
    let i = -1;
    while (i < months && n(day) >= bounds[i + 1]) i++;
    return i;
  };

  // Per warehouse and month (the last: every day after the range): in and out, the days that opened at nothing.
  type Warehouse = { keys: number; held: number; stock: number[]; moves: number[][]; openedEmpty: number[]; emptyNow: number; rows: number[] };
  const warehouses = new Map<number, Warehouse>();
  const of = (warehouseId: number) =>
    warehouses.get(warehouseId) ??
    warehouses
      .set(warehouseId, { keys: 0, held: 0, stock: [0, 0], moves: bounds.map(() => [0, 0, 0, 0]), openedEmpty: bounds.map(() => 0), emptyNow: 0, rows: Array<number>(months).fill(0) })
      .get(warehouseId)!;
  for (const r of stock) Object.assign(of(n(r.warehouse_id)), { keys: n(r.keys), held: n(r.held), stock: [n(r.quantity), n(r.amount)] });
  for (const d of perDay) {
    const w = of(n(d.warehouse_id));
    const i = monthIndex(d.day_no);
    MOVE_COLUMNS.forEach((c, j) => (w.moves[i][j] += n(d[c])));
  }
  // A key's day after one that closed at nothing opens at nothing: walked in day order (a day's opening before its
  // closing), each day that opened so ends the stretch its key's last day that closed so began.
  const stretches: { warehouseId: number; lo: number; hi: number }[] = [];
  const pending = new Map<number, Map<number, number>>();
  const endStretch = (warehouseId: number, goodsId: number, dayNo: number | undefined) => {
    const began = pending.get(warehouseId)?.get(goodsId);
    if (began === undefined) return;
    stretches.push({ warehouseId, lo: monthIndex(began), hi: monthIndex(dayNo) });
    pending.get(warehouseId)!.delete(goodsId);
  };
  for (let o = 0, c = 0; o < openedEmpty.length || c < closedEmpty.length; ) {
    if (o < openedEmpty.length && (c === closedEmpty.length || n(openedEmpty[o].day_no) <= n(closedEmpty[c].day_no))) {
      const d = openedEmpty[o++];
      const [warehouseId, dayNo] = [n(d.warehouse_id), n(d.day_no)];
      of(warehouseId).openedEmpty[monthIndex(dayNo)] += 1;
      endStretch(warehouseId, n(d.goods_id), dayNo);
    } else {
      const e = closedEmpty[c++];
      const warehouseId = n(e.warehouse_id);
      (pending.get(warehouseId) ?? pending.set(warehouseId, new Map()).get(warehouseId)!).set(n(e.goods_id), n(e.day_no));
    }
  }
  for (const [warehouseId, goods] of pending) for (const goodsId of [...goods.keys()]) endStretch(warehouseId, goodsId, undefined);
  // What remains of the days that opened at nothing are the first days in the range of keys empty at its start.
  for (const s of stretches) {
    if (s.hi <= months) of(s.warehouseId).openedEmpty[s.hi] -= 1;
    else of(s.warehouseId).emptyNow += 1;
  }
  for (const w of warehouses.values()) {
    // Empty now without a day that emptied them in the range: empty since before it, and no day since.
    const emptyThroughout = w.keys - w.held - w.emptyNow;
    for (let i = 0; i < months; i++) {
      // Empty at the start and without a day up to month i's end: empty all through it.
      const firstDayLater = w.openedEmpty.slice(i + 1).reduce((sum, c) => sum + c, 0);
      w.rows[i] = w.keys - emptyThroughout - firstDayLater;
    }
  }
  for (const s of stretches) for (let i = s.lo + 1; i < Math.min(months, s.hi); i++) of(s.warehouseId).rows[i] -= 1;

  // The figures of month i summed over every key: its opening is the stock less the net of the month and every one after.
  const figuresOf = (i: number) => {
    const sum = (pick: (w: Warehouse) => number) => [...warehouses.values()].reduce((s, w) => s + pick(w), 0);
    const [inQ, inA, outQ, outA] = [0, 1, 2, 3].map((j) => sum((w) => w.moves[i][j]));
    const net = (j: number) => sum((w) => w.moves.slice(i).reduce((s, m) => s + m[j] - m[j + 2], 0));
    const [openingQ, openingA] = [sum((w) => w.stock[0]) - net(0), sum((w) => w.stock[1]) - net(1)];
    return [openingQ, openingA, inQ, inA, outQ, outA, openingQ + inQ - outQ, openingA + inA - outA];
  };
  return { figuresOf, rowsByWarehouse: new Map([...warehouses].map(([id, w]) => [id, w.rows])) };
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
  // The month as a number (202611): PostgreSQL sorts the year's lines by it to group them, and text sorts by collation.
  const month = sql<number>`cast(substr(h.doc_date, 1, 4) as integer) * 100 + cast(substr(h.doc_date, 6, 2) as integer)`;
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
  // The rows' order (month, supplier by its Chinese name, goods code) is made from ranks and codes, and only the page's
  // rows are named: a year of a busy kitchen's orders is tens of thousands of rows. The answer is the first ROW_LIMIT
  // rows with totals over all, as 库存日报's (decision 090).
  const [codes, suppliers] = await Promise.all([goodsCodes(db, tenantId, sums.map((r) => n(r.goods_id))), namesOf(db, tenantId, "supplier", "supplier_name", sums.map((r) => r.supplier_id))]);
  const supplierRank = new Map([...suppliers].sort(([a, x], [b, y]) => zhOrder(x, y) || a - b).map(([id], i) => [id, i]));
  const rank = (r: Row) => supplierRank.get(n(r.supplier_id)) ?? -1;
  sums.sort((a, b) => n(a.month) - n(b.month) || rank(a) - rank(b) || String(codes.get(n(a.goods_id)) ?? "").localeCompare(String(codes.get(n(b.goods_id)) ?? "")) || n(a.goods_id) - n(b.goods_id));
  const page = sums.slice(0, ROW_LIMIT);
  const goods = await goodsNames(db, tenantId, page.map((r) => n(r.goods_id)));
  const monthText = (r: Row) => `${Math.floor(n(r.month) / 100)}-${String(n(r.month) % 100).padStart(2, "0")}`;
  const rows: Row[] = page.map((r) => ({
    month: monthText(r),
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
  // One order of several goods is one order: the total counts orders, not rows.
  const counted = (await db
    .selectFrom(`${purchse.header.table} as o`)
    .select(sql<number>`count(*)`.as("n"))
    .where("o.tenant_id", "=", tenantId)
    .where("o.id", "in", q.clearSelect().clearGroupBy().select("h.id"))
    .executeTakeFirst()) as Row | undefined;
  const sum = (column: string) => sums.reduce((total, r) => total + n(r[column]), 0);
  // The price trend is drawn from every row: each month's amounts and quantities.
  const byMonth = new Map<string, { month: string; orderAmount: number; orderQuantity: number }>();
  for (const r of sums) {
    const month = monthText(r);
    const m = byMonth.get(month) ?? { month, orderAmount: 0, orderQuantity: 0 };
    byMonth.set(month, m);
    m.orderAmount += n(r.a);
    m.orderQuantity += n(r.q);
  }
  return {
    rows,
    totals: { orderAmount: sum("a"), receivedAmount: sum("ra"), confirmedAmount: sum("ca"), orderCount: n(counted?.n) },
    truncated: sums.length - page.length,
    ...(sums.length > page.length ? { chartRows: [...byMonth.values()] } : {}),
  };
}

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
