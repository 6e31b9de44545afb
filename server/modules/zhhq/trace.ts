import { sql, type Kysely } from "kysely";
import { chinaDay, chinaDayStart, DAY_MS } from "../../../resources/chinaTime";
import { warehouseIn, warehouseOut, stockDocuments } from "../../../resources/zhhq/stock";
import type { Db } from "../../db";
import { orgNames, zhOrder } from "../report/helpers";
import type { Filters, QueryResult, Row } from "../report/query";
import { inForce, licencesOf, QUAL_TYPE_NAMES } from "./supplierQualification";

/**
 * Traceability (issue 35, decision 076): a delivery's batches forward to the meals they could have fed, and a
 * restaurant's meal days back to the batches its kitchen received. A stock-out goes to the kitchen that took it: its
 * 领用餐厅 (`receiverOrgId`) when that is a restaurant, the restaurant of a stall, else (a department, or none named)
 * its warehouse's restaurant (服务餐厅), as 收支 counts its cost; its day is the stock-out's document date. A batch
 * could have fed a restaurant's meals from its first stock-out there through the day after its last; the meals are
 * that restaurant's served orders (paid or partly refunded, not cancelled) of those days.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
const any = (db: Db) => db as unknown as AnyDb;
const n = (value: unknown) => Number(value ?? 0);

/**
 * The restaurant whose kitchen a stock-out (`o`, its warehouse `w`, its receiver `rc`) fed: a restaurant that took
 * it, a stall's restaurant (orders are the restaurant's), else the warehouse's.
 */
const kitchenOf = sql<number>`case when rc.org_type = 'restaurant' then rc.id when rc.org_type = 'stall' then rc.parent_id else w.restaurant_id end`;

/** At most this many batches per answer (a supplier of years): the rest are counted, not traced. */
export const TRACE_BATCHES = 200;
/** Served orders: 已支付 and 部分退款 (dictionary mealOrderStatus). */
const SERVED = [1, 3];

const nextDay = (day: string) => chinaDay(chinaDayStart(day) + DAY_MS);
const yuan = (fen: number) => (fen / 100).toFixed(2);

interface Batch {
  id: number;
  warehouseId: number;
  goodsId: number;
  batchNo: string;
  price: number;
  expiryDate: string | null;
  inLineId: number;
}

async function batchesOf(db: AnyDb, tenantId: number, f: Filters): Promise<{ batches: Batch[]; more: boolean }> {
  let q = db
    .selectFrom("stock_batch as b")
    .select(["b.id", "b.warehouse_id", "b.goods_id", "b.batch_no", "b.price", "b.expiry_date", "b.in_line_id"])
    .where("b.tenant_id", "=", tenantId);
  if (f.keyword !== undefined) q = q.where("b.batch_no", "=", f.keyword);
  else q = q.where("b.received_at", ">=", f.start).where("b.received_at", "<", f.end);
  if (f.supplierId !== undefined)
    q = q.where(
      "b.in_line_id",
      "in",
      db
        .selectFrom(`${warehouseIn.lines.table} as il`)
        .innerJoin(`${warehouseIn.header.table} as i`, (j) => j.onRef("i.tenant_id", "=", "il.tenant_id").onRef("i.id", "=", "il.document_id"))
        .select("il.id")
        .where("il.tenant_id", "=", tenantId)
        .where("i.supplier_id", "=", f.supplierId),
    );
  const rows = await q.orderBy("b.received_at").orderBy("b.id").limit(TRACE_BATCHES + 1).execute();
  return {
    more: rows.length > TRACE_BATCHES,
    batches: rows.slice(0, TRACE_BATCHES).map((r) => ({
      id: n(r.id),
      warehouseId: n(r.warehouse_id),
      goodsId: n(r.goods_id),
      batchNo: String(r.batch_no),
      price: n(r.price),
      expiryDate: r.expiry_date ?? null,
      inLineId: n(r.in_line_id),
    })),
  };
}

/** Each stock document's number and date by id (the documents the lines name). */
async function documentsOf(db: AnyDb, tenantId: number, lines: Row[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const doc of stockDocuments) {
    const ids = [...new Set(lines.filter((l) => l.doc_type === doc.docType).map((l) => n(l.doc_id)))];
    if (!ids.length) continue;
    const columns = ["id", "doc_no", "doc_date", ...(doc === warehouseOut ? ["out_use_type_id", "receiver_org_id"] : []), ...(doc === warehouseIn ? ["supplier_id"] : [])];
    for (const r of (await db.selectFrom(doc.header.table).select(columns).where("tenant_id", "=", tenantId).where("id", "in", ids).execute()) as Row[])
      out.set(`${doc.docType}:${r.id}`, r);
  }
  return out;
}

/** Names of rows of a warehouse master table (goods, supplier, warehouse, out_use_type) by id. */
export async function namesOf(db: AnyDb, tenantId: number, table: string, column: string, ids: unknown[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null && id !== undefined).map(Number))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom(table).select(["id", `${column} as name`]).where("tenant_id", "=", tenantId).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}

/** The restaurant whose kitchen each of these stock-outs fed (`kitchenOf`), by the stock-out's id; none is left out. */
async function kitchensOf(db: AnyDb, tenantId: number, outIds: number[]): Promise<Map<number, number>> {
  if (!outIds.length) return new Map();
  const rows = (await db
    .selectFrom(`${warehouseOut.header.table} as o`)
    .innerJoin("warehouse as w", (j) => j.onRef("w.tenant_id", "=", "o.tenant_id").onRef("w.id", "=", "o.warehouse_id"))
    .leftJoin("org as rc", (j) => j.onRef("rc.tenant_id", "=", "o.tenant_id").onRef("rc.id", "=", "o.receiver_org_id"))
    .select(["o.id", kitchenOf.as("restaurant_id")])
    .where("o.tenant_id", "=", tenantId)
    .where("o.id", "in", outIds)
    .execute()) as Row[];
  return new Map(rows.filter((r) => r.restaurant_id !== null).map((r) => [n(r.id), n(r.restaurant_id)]));
}

/** A restaurant's served orders per day and meal type over days (inclusive). */
async function mealsOf(db: AnyDb, tenantId: number, restaurantId: number, from: string, to: string): Promise<Row[]> {
  return (await db
    .selectFrom("meal_order")
    .select(["order_date", "meal_type", sql<number>`count(*)`.as("orders"), sql<number>`count(distinct user_info_id)`.as("diners")])
    .where("tenant_id", "=", tenantId)
    .where("restaurant_id", "=", restaurantId)
    .where("order_date", ">=", from)
    .where("order_date", "<=", to)
    .where("order_status", "in", SERVED)
    .groupBy(["order_date", "meal_type"])
    .orderBy("order_date")
    .orderBy("meal_type")
    .execute()) as Row[];
}

/** 批次追溯: each batch's source, its movements and the meals it could have fed, in that order. */
export async function batchTrace(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const { batches, more } = await batchesOf(db, tenantId, f);
  if (!batches.length) return { rows: [] };
  const batchIds = batches.map((b) => b.id);
  const lines = (await db
    .selectFrom("stock_line")
    .select(["batch_id", "doc_type", "doc_id", "doc_line_id", "quantity", "amount", "operator_name", "occurred_at"])
    .where("tenant_id", "=", tenantId)
    .where("batch_id", "in", batchIds)
    .orderBy("occurred_at")
    .orderBy("id")
    .execute()) as Row[];
  const docs = await documentsOf(db, tenantId, lines);
  const kitchens = await kitchensOf(db, tenantId, [...docs.keys()].filter((k) => k.startsWith(`${warehouseOut.docType}:`)).map((k) => n(docs.get(k)?.id)));
  const inDocs = [...docs.entries()].filter(([k]) => k.startsWith(`${warehouseIn.docType}:`)).map(([, r]) => r);
  const [goods, warehouseOf, suppliers, useTypes] = await Promise.all([
    namesOf(db, tenantId, "goods", "goods_name", batches.map((b) => b.goodsId)),
    namesOf(db, tenantId, "warehouse", "name", batches.map((b) => b.warehouseId)),
    namesOf(db, tenantId, "supplier", "supplier_name", inDocs.map((d) => d.supplier_id)),
    namesOf(db, tenantId, "out_use_type", "type_name", [...docs.values()].map((d) => d.out_use_type_id)),
  ]);
  const restaurants = await orgNames(dbIn, tenantId, [...kitchens.values()]);
  const titles = new Map<string, string>(stockDocuments.map((d) => [d.docType, d.title]));
  const dayOf = (line: Row) => String(docs.get(`${line.doc_type}:${line.doc_id}`)?.doc_date ?? chinaDay(n(line.occurred_at)));

  const rows: Row[] = [];
  for (const batch of batches) {
    const goodsName = goods.get(batch.goodsId) ?? "";
    const warehouse = warehouseOf.get(batch.warehouseId);
    const own = lines.filter((l) => n(l.batch_id) === batch.id);
    const base = { batchNo: batch.batchNo, goodsName, mealType: null, orders: null, diners: null };
    for (const line of own) {
      const doc = docs.get(`${line.doc_type}:${line.doc_id}`);
      const receipt = line.doc_type === warehouseIn.docType;
      if (receipt) {
        const supplierId = doc?.supplier_id === null || doc?.supplier_id === undefined ? null : n(doc.supplier_id);
        const day = dayOf(line);
        const licences = supplierId === null ? [] : (await licencesOf(db, tenantId, supplierId)).filter((l) => inForce(l, day));
        const licenceWords = supplierId === null ? "" : licences.length ? licences.map((l) => `${QUAL_TYPE_NAMES[l.qualType] ?? ""} ${l.qualNo}`).join("、") : "无有效资质";
        rows.push({
          ...base,
          stage: "来源",
          day,
          docTitle: titles.get(String(line.doc_type)) ?? String(line.doc_type),
          docNo: String(doc?.doc_no ?? ""),
          party: supplierId === null ? "（未指定供应商）" : (suppliers.get(supplierId) ?? ""),
          quantity: n(line.quantity),
          amount: n(line.amount),
          note: [`仓库 ${warehouse ?? ""}`, `单价 ${yuan(batch.price)} 元`, `仓管 ${line.operator_name ?? ""}`, batch.expiryDate ? `到期 ${batch.expiryDate}` : "", licenceWords ? `当日资质：${licenceWords}` : ""]
            .filter(Boolean)
            .join("；"),
        });
        continue;
      }
      const out = line.doc_type === warehouseOut.docType;
      const kitchen = out ? kitchens.get(n(line.doc_id)) : undefined;
      const restaurant = kitchen ? (restaurants.get(kitchen) ?? "") : "";
      const useType = out && doc?.out_use_type_id !== null && doc?.out_use_type_id !== undefined ? (useTypes.get(n(doc.out_use_type_id)) ?? "") : "";
      rows.push({
        ...base,
        stage: "去向",
        day: dayOf(line),
        docTitle: titles.get(String(line.doc_type)) ?? String(line.doc_type),
        docNo: String(doc?.doc_no ?? ""),
        party: out ? [useType, restaurant].filter(Boolean).join(" · ") || "—" : "",
        quantity: n(line.quantity),
        amount: n(line.amount),
        note: `经办 ${line.operator_name ?? ""}`,
      });
    }
    // The meals: each restaurant the stock-outs went to, from its first stock-out's day through the last one's + 1.
    const outDays = new Map<number, string[]>();
    for (const line of own.filter((l) => l.doc_type === warehouseOut.docType)) {
      const kitchen = kitchens.get(n(line.doc_id));
      if (kitchen) outDays.set(kitchen, [...(outDays.get(kitchen) ?? []), dayOf(line)].sort());
    }
    for (const [kitchen, days] of outDays) {
      const restaurant = restaurants.get(kitchen) ?? "";
      for (const meal of await mealsOf(db, tenantId, kitchen, days[0], nextDay(days[days.length - 1])))
        rows.push({
          ...base,
          stage: "供餐",
          day: String(meal.order_date),
          docTitle: "",
          docNo: "",
          party: restaurant,
          quantity: null,
          amount: null,
          mealType: meal.meal_type === null ? null : String(meal.meal_type),
          orders: n(meal.orders),
          diners: n(meal.diners),
          note: "",
        });
    }
  }
  return { rows, more };
}

/** 餐厅用料追溯: the batches issued to a restaurant's kitchen that could have fed its meals of the period. */
export async function restaurantTrace(dbIn: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const db = any(dbIn);
  const dayBefore = chinaDay(chinaDayStart(f.from) - DAY_MS);
  let q = db
    .selectFrom("stock_line as l")
    .innerJoin(`${warehouseOut.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "l.tenant_id").onRef("o.id", "=", "l.doc_id"))
    .innerJoin("warehouse as w", (j) => j.onRef("w.tenant_id", "=", "l.tenant_id").onRef("w.id", "=", "l.warehouse_id"))
    .leftJoin("org as rc", (j) => j.onRef("rc.tenant_id", "=", "o.tenant_id").onRef("rc.id", "=", "o.receiver_org_id"))
    .select([
      kitchenOf.as("restaurant_id"),
      "l.batch_id",
      sql<string>`min(o.doc_date)`.as("first_issue"),
      sql<string>`max(o.doc_date)`.as("last_issue"),
      sql<number>`coalesce(sum(-l.quantity), 0)`.as("q"),
      sql<number>`coalesce(sum(-l.amount), 0)`.as("a"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_type", "=", warehouseOut.docType)
    .where(kitchenOf, "is not", null)
    .where("o.doc_date", "<=", f.to)
    // Only batches issued since the day before the period: a stock-out posts on or after its date (never dated
    // ahead), so one dated since then was posted since then, and the lines of that time are one range of an index.
    .where(
      "l.batch_id",
      "in",
      db
        .selectFrom("stock_line as r")
        .select("r.batch_id")
        .where("r.tenant_id", "=", tenantId)
        .where("r.occurred_at", ">=", chinaDayStart(dayBefore))
        .where("r.doc_type", "=", warehouseOut.docType),
    );
  if (f.restaurantId !== undefined) q = q.where(kitchenOf, "=", f.restaurantId);
  const sums = ((await q.groupBy([kitchenOf, "l.batch_id"]).having(sql<string>`max(o.doc_date)`, ">=", dayBefore).execute()) as Row[]).slice(0, 5000);
  if (!sums.length) return { rows: [] };
  const batchRows = (await db
    .selectFrom("stock_batch as b")
    .innerJoin(`${warehouseIn.lines.table} as il`, (j) => j.onRef("il.tenant_id", "=", "b.tenant_id").onRef("il.id", "=", "b.in_line_id"))
    .innerJoin(`${warehouseIn.header.table} as i`, (j) => j.onRef("i.tenant_id", "=", "il.tenant_id").onRef("i.id", "=", "il.document_id"))
    .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "b.tenant_id").onRef("g.id", "=", "b.goods_id"))
    .select(["b.id", "b.batch_no", "b.expiry_date", "g.goods_code", "g.goods_name", "i.doc_no", "i.doc_date", "i.supplier_id"])
    .where("b.tenant_id", "=", tenantId)
    .where("b.id", "in", [...new Set(sums.map((s) => n(s.batch_id)))])
    .execute()) as Row[];
  const batchOf = new Map(batchRows.map((b) => [n(b.id), b]));
  if (f.supplierId !== undefined) for (const [id, b] of batchOf) if (n(b.supplier_id) !== f.supplierId) batchOf.delete(id);
  const [restaurants, suppliers] = await Promise.all([
    orgNames(dbIn, tenantId, sums.map((s) => n(s.restaurant_id))),
    namesOf(db, tenantId, "supplier", "supplier_name", batchRows.map((b) => b.supplier_id)),
  ]);
  const rows: Row[] = sums.flatMap((s) => {
    const b = batchOf.get(n(s.batch_id));
    if (!b) return [];
    return [
      {
        restaurantName: restaurants.get(n(s.restaurant_id)) ?? "",
        batchNo: String(b.batch_no),
        goodsCode: String(b.goods_code),
        goodsName: String(b.goods_name),
        supplierName: b.supplier_id === null ? "（未指定供应商）" : (suppliers.get(n(b.supplier_id)) ?? ""),
        inDocNo: String(b.doc_no ?? ""),
        inDay: String(b.doc_date ?? ""),
        expiryDate: b.expiry_date === null ? "" : String(b.expiry_date),
        firstIssue: String(s.first_issue),
        lastIssue: String(s.last_issue),
        issuedQuantity: n(s.q),
        issuedAmount: n(s.a),
      },
    ];
  });
  rows.sort((a, b) => zhOrder(String(a.restaurantName), String(b.restaurantName)) || String(b.lastIssue).localeCompare(String(a.lastIssue)) || String(a.batchNo).localeCompare(String(b.batchNo)));
  return { rows };
}
