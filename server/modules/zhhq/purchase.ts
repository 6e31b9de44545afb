import { PostgresAdapter, sql, type Kysely } from "kysely";
import { chinaDay } from "../../../resources/chinaTime";
import { permissionCode } from "../../../resources/define";
import { DOC_NO, DOC_STATUS, DOC_VERSION, findTransition, LINE_NO, statusLabel, transitionPermission, type DocumentDef } from "../../../resources/document";
import { quantityToThousandths, thousandthsToQuantity } from "../../../resources/quantity";
import { createSchema, fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { ORDER_RECEIVABLE, purchse, purchseDemand, purchsePriceAudit, purchseReceive, purchseShare } from "../../../resources/zhhq/purchase";
import { warehouseIn } from "../../../resources/zhhq/stock";
import { newId } from "../../db";
import { insertRows, updateFromValues } from "../../db/bulk";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { reasonField } from "../../http/reason";
import { idempotent } from "../../kernel/idempotency";
import { documentMessages, loadHeader, loadLines, runResourceStep, stepDocument, writeHistory, type DocumentRules, type Guard } from "../../kernel/transitions";
import { createDocument, insertDocument } from "../resource/documents";
import { checkRelations, db } from "../resource/engine";
import type { Row } from "../resource/rows";
import { defaultDocDate, goodsWords, lineAmount, stockDocumentRules } from "./stock";

/**
 * Purchasing's rules (issue 41, decision 072): requests, orders at the contract price, receipts that post their
 * stock-in through the stock documents' own approval (so every rule of the stock ledger's posting path holds for
 * them), price audits, the confirmation for payment and the cost shares.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Tenant parameter (sys/parameterConfig): how far above the contract or last price a received price may be, in %. */
export const PRICE_TOLERANCE_CODE = "zhhq.purchase.priceTolerancePercent";
const DEFAULT_TOLERANCE = 5;

export const purchaseMessages = {
  noPrice: (line: number, goods: string) => `第 ${line} 行（${goods}）没有填写单价，该供应商在订单日期也没有有效的合同价`,
  noLines: "请至少填写 1 行采购明细，或选择已审核的采购申请",
  demandNotApproved: (no: string) => `采购申请 ${no} 尚未审核，不能下单`,
  demandOrdered: (no: string, orderNo: string) => `采购申请 ${no} 已下单（${orderNo}）`,
  demandMissing: "采购申请不存在",
  demandOtherWarehouse: (no: string) => `采购申请 ${no} 不是本采购单仓库的申请`,
  notReceivable: (status: string) => `采购单当前为「${status}」，不能收货`,
  notOfOrder: "该明细不属于所选采购单",
  overOrdered: (line: number, goods: string, left: number, unit: string) => `第 ${line} 行（${goods}）收货数量超过未到数量 ${thousandthsToQuantity(left)}${unit}`,
  pricesPending: (n: number) => `该采购单有 ${n} 行价格待审核，审核后才能确认`,
  notArrived: "采购单尚未到货，不能分摊",
  sharePartyMissing: "请选择餐厅/档口或商户（二选一）",
  sharePartyBoth: "餐厅/档口与商户只能选一个",
  percentMissing: "按比例分摊时请填写比例",
  percentTotal: (total: number) => `比例合计应为 100，现为 ${thousandthsToQuantity(total)}`,
  amountMissing: "按金额分摊时请填写金额",
  amountTotal: (total: number, given: number) => `金额合计应为 ${yuan(total)} 元，现为 ${yuan(given)} 元`,
  shareMoved: (total: number) => `采购单到货金额已变为 ${yuan(total)} 元，请重新分摊`,
  demandLineMissing: (i: number) => `第 ${i} 行申请明细不存在`,
};

const yuan = (fen: number) => (fen / 100).toFixed(2);
const isPostgres = (trx: AnyDb) => trx.getExecutor().adapter instanceof PostgresAdapter;
const session = (ctx: unknown) => ctx as SessionContext;

/** The tenant's tolerance in percent (a non-negative number), or 5 when it has none or an unreadable one. */
export async function priceTolerance(db: AnyDb, tenantId: number): Promise<number> {
  const row = (await db.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", PRICE_TOLERANCE_CODE).executeTakeFirst()) as Row | undefined;
  const text = String(row?.param_value ?? "").trim();
  const value = Number(text);
  return text && Number.isFinite(value) && value >= 0 ? value : DEFAULT_TOLERANCE;
}

/** The supplier's contract price for the goods valid on `day` (the latest period starting by then), in fen. */
export async function contractPrice(db: AnyDb, tenantId: number, supplierId: number, goodsId: number, day: string): Promise<number | null> {
  const row = (await db
    .selectFrom("supplier_goods")
    .select("price")
    .where("tenant_id", "=", tenantId)
    .where("supplier_id", "=", supplierId)
    .where("goods_id", "=", goodsId)
    .where("valid_from", "<=", day)
    .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">=", day)]))
    .orderBy("valid_from", "desc")
    .executeTakeFirst()) as Row | undefined;
  return row ? Number(row.price) : null;
}

/**
 * Splits `total` fen by `weights` (any non-negative integers, not all zero) with the largest-remainder rule: each
 * share is its exact part rounded down, and the fen left go one each to the largest remainders (the earlier line
 * first on a tie), so the shares add up to `total` exactly.
 */
export function largestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const big = BigInt(total);
  const parts = weights.map((w, i) => {
    const exact = big * BigInt(w);
    return { i, share: Number(exact / BigInt(sum)), rest: exact % BigInt(sum) };
  });
  let left = total - parts.reduce((a, p) => a + p.share, 0);
  for (const p of [...parts].sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i))) {
    if (left <= 0) break;
    p.share += 1;
    left -= 1;
  }
  return parts.map((p) => p.share);
}

// ---- Requests --------------------------------------------------------------------------------------------------

async function fillDemand(ctx: SessionContext, _db: AnyDb, header: Row, _lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
}

/** Approval fixes each line's approved quantity: what the approver set, else what was asked. */
const approveDemand = async (run: { ctx: SessionContext; header: Row }, trx: AnyDb) => {
  await trx
    .updateTable(purchseDemand.lines.table)
    .set({ approved_quantity: sql`coalesce(approved_quantity, quantity)` })
    .where("tenant_id", "=", run.ctx.session.tenantId)
    .where("document_id", "=", run.header.id as number)
    .execute();
};

const adjustSchema = z.object({
  id: recordId(),
  reason: reasonField("审核说明"),
  lines: z
    .array(z.object({ id: recordId("申请明细 id"), approvedQuantity: fieldSchema({ name: "approvedQuantity", label: "核定数量", type: "quantity", required: true }, false) }), { error: "lines 应为列表" })
    .min(1, "请至少核定 1 行")
    .max(500, "申请明细不能超过 500 行"),
});

/** 审核 with changed quantities: the approved quantities set and the request approved in one transaction. */
async function approveAdjusted(ctx: SessionContext, body: z.output<typeof adjustSchema>, raw: unknown): Promise<Row> {
  return idempotent(ctx, raw, async (trx: AnyDb) => {
    const tenantId = ctx.session.tenantId;
    const header = await loadHeader(trx, purchseDemand, tenantId, body.id);
    const approve = findTransition(purchseDemand, "approve");
    if (!approve) throw new Error("purchseDemand: no approve");
    if (!(approve.from as readonly string[]).includes(String(header.status))) throw new ApiError(Status.CONFLICT, documentMessages.wrongStatus(purchseDemand, header.status, approve.label));
    const ids = new Set((await loadLines(trx, purchseDemand, tenantId, body.id)).map((l) => Number(l.id)));
    for (const [i, line] of body.lines.entries()) {
      if (!ids.has(line.id)) throw fieldError(`lines.${i}.id`, purchaseMessages.demandLineMissing(i + 1));
      await trx
        .updateTable(purchseDemand.lines.table)
        .set({ approved_quantity: quantityToThousandths(Number(line.approvedQuantity)) })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", line.id)
        .execute();
    }
    return stepDocument(trx, ctx, purchseDemand, purchaseDocumentRules[purchseDemand.docType] as DocumentRules, approve, { id: body.id, reason: body.reason });
  });
}

// ---- Orders ----------------------------------------------------------------------------------------------------

/** An order line's price: given, or the supplier's contract price on the order date (400 naming the line if none). */
async function fillOrder(ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
  const tenantId = ctx.session.tenantId;
  const supplierId = header.supplierId ?? current?.supplier_id;
  const day = String(header.docDate ?? current?.doc_date ?? chinaDay(ctx.now));
  for (const [i, line] of lines.entries()) {
    if (line.goodsId === undefined || line.goodsId === null) continue;
    const contract = supplierId === undefined || supplierId === null ? null : await contractPrice(db, tenantId, Number(supplierId), Number(line.goodsId), day);
    if (line.id === undefined) Object.assign(line, { contractPrice: contract, receivedQuantity: 0, receivedAmount: 0 });
    if (line.price === undefined || line.price === null) {
      if (line.id !== undefined) continue; // A kept line keeps its price.
      if (contract === null) throw fieldError(`lines.${i}.price`, purchaseMessages.noPrice(i + 1, (await goodsWords(db, tenantId, Number(line.goodsId))).name));
      line.price = contract;
    }
    if (typeof line.quantity === "number") line.amount = lineAmount(quantityToThousandths(line.quantity), Number(line.price));
  }
}

const orderCreateSchema = createSchema(purchse.header).extend({
  demandIds: z.array(recordId("采购申请"), { error: "demandIds 应为采购申请 id 的列表" }).max(50, "一次最多 50 张采购申请").optional(),
  lines: z.array(z.unknown(), { error: "采购明细应为列表" }).max(500, "采购明细不能超过 500 行").pipe(z.array(createSchema(purchse.lines))),
});

/** The order (its number) that already holds a line of this request, if any. */
async function orderOfDemand(q: AnyDb, tenantId: number, demandId: number): Promise<string | undefined> {
  const ordered = (await q
    .selectFrom(`${purchse.lines.table} as l`)
    .innerJoin(`${purchse.header.table} as o`, (j) => j.onRef("o.tenant_id", "=", "l.tenant_id").onRef("o.id", "=", "l.document_id"))
    .select("o.doc_no")
    .where("l.tenant_id", "=", tenantId)
    .where("l.demand_id", "=", demandId)
    .executeTakeFirst()) as Row | undefined;
  return ordered ? String(ordered.doc_no) : undefined;
}

/**
 * In the create's write transaction: each request's row is locked (an update) before it is looked for on another
 * order, so two orders built from one request at once cannot both pass — the second waits for the first and finds
 * it (SQLite's write transactions are serial; on PostgreSQL the row lock orders them).
 */
const claimDemands =
  (demands: Array<{ id: number; docNo: string }>) =>
  async (ctx: SessionContext, trx: AnyDb): Promise<Row[]> => {
    const tenantId = ctx.session.tenantId;
    for (const demand of demands) {
      await trx.updateTable(purchseDemand.header.table).set({ updated_at: sql`updated_at` }).where("tenant_id", "=", tenantId).where("id", "=", demand.id).execute();
      const orderNo = await orderOfDemand(trx, tenantId, demand.id);
      if (orderNo) throw fieldError("demandIds", purchaseMessages.demandOrdered(demand.docNo, orderNo));
    }
    return [];
  };

/** `purchse/create`: by hand, from approved requests of the order's warehouse (their approved quantities), or both. */
async function createOrder(ctx: SessionContext, body: Row, raw: unknown): Promise<Row> {
  const { demandIds, lines: given, ...header } = body as Row & { demandIds?: number[]; lines: Row[] };
  const tenantId = ctx.session.tenantId;
  const lines = [...given];
  const claimed: Array<{ id: number; docNo: string }> = [];
  for (const demandId of [...new Set(demandIds ?? [])]) {
    const demand = (await db(ctx).selectFrom(purchseDemand.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", demandId).executeTakeFirst()) as Row | undefined;
    if (!demand) throw fieldError("demandIds", purchaseMessages.demandMissing);
    const docNo = String(demand.doc_no);
    if (String(demand.status) !== purchseDemand.status["2"]) throw fieldError("demandIds", purchaseMessages.demandNotApproved(docNo));
    if (Number(demand.warehouse_id) !== Number(header.warehouseId)) throw fieldError("demandIds", purchaseMessages.demandOtherWarehouse(docNo));
    const orderNo = await orderOfDemand(db(ctx), tenantId, demandId);
    if (orderNo) throw fieldError("demandIds", purchaseMessages.demandOrdered(docNo, orderNo));
    claimed.push({ id: demandId, docNo });
    for (const line of await loadLines(db(ctx), purchseDemand, tenantId, demandId)) {
      const quantity = Number(line.approved_quantity ?? line.quantity);
      if (quantity > 0) lines.push({ goodsId: Number(line.goods_id), quantity: thousandthsToQuantity(quantity), demandId });
    }
  }
  if (!lines.length) throw fieldError("lines", purchaseMessages.noLines);
  const rules = purchaseDocumentRules[purchse.docType] as DocumentRules;
  return createDocument(ctx, purchse, { ...header, lines }, raw, claimed.length ? { ...rules, createLines: claimDemands(claimed) } : rules);
}

/**
 * The approved requests of a warehouse that no order holds yet, newest first, each with its lines at their approved
 * quantities: what an order may be built from (`purchse/create`'s `demandIds`, which checks the same again).
 */
async function orderableDemands(ctx: SessionContext, warehouseId: number): Promise<Row[]> {
  const q = db(ctx);
  const tenantId = ctx.session.tenantId;
  const headers = (await q
    .selectFrom(`${purchseDemand.header.table} as d`)
    .leftJoin("org as r", (j) => j.onRef("r.tenant_id", "=", "d.tenant_id").onRef("r.id", "=", "d.restaurant_id"))
    .select(["d.id", "d.doc_no", "d.need_date", "d.doc_date", "d.remark", "r.org_name"])
    .where("d.tenant_id", "=", tenantId)
    .where("d.warehouse_id", "=", warehouseId)
    .where("d.status", "=", Number(purchseDemand.status["2"]))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom(`${purchse.lines.table} as l`).select("l.id").where("l.tenant_id", "=", tenantId).whereRef("l.demand_id", "=", "d.id"))),
    )
    .orderBy("d.doc_no", "desc")
    .limit(100)
    .execute()) as Row[];
  if (!headers.length) return [];
  const lines = (await q
    .selectFrom(`${purchseDemand.lines.table} as l`)
    .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "l.tenant_id").onRef("g.id", "=", "l.goods_id"))
    .leftJoin("goods_unit as u", (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
    .select(["l.document_id", "l.line_no", "l.goods_id", "g.goods_code", "g.goods_name", "u.unit_name", "l.quantity", "l.approved_quantity"])
    .where("l.tenant_id", "=", tenantId)
    .where("l.document_id", "in", headers.map((h) => Number(h.id)))
    .orderBy("l.document_id")
    .orderBy("l.line_no")
    .execute()) as Row[];
  return headers.map((h) => ({
    id: Number(h.id),
    docNo: String(h.doc_no),
    needDate: h.need_date ?? null,
    docDate: h.doc_date ?? null,
    restaurantName: h.org_name ?? null,
    remark: h.remark ?? null,
    lines: lines
      .filter((l) => Number(l.document_id) === Number(h.id))
      .map((l) => ({
        goodsId: Number(l.goods_id),
        goodsCode: String(l.goods_code),
        goodsName: String(l.goods_name),
        unitName: l.unit_name ?? "",
        quantity: thousandthsToQuantity(Number(l.quantity)),
        approvedQuantity: thousandthsToQuantity(Number(l.approved_quantity ?? l.quantity)),
      })),
  }));
}

/** A confirmation waits for every flagged price of the order to be decided. */
const pricesAudited: Guard = async (run, trx) => {
  const row = (await trx
    .selectFrom("purchase_price_audit")
    .select(sql<number>`count(*)`.as("n"))
    .where("tenant_id", "=", run.ctx.session.tenantId)
    .where("purchse_id", "=", run.header.id as number)
    .where("status", "=", 0)
    .executeTakeFirstOrThrow()) as Row;
  if (Number(row.n) > 0) throw new ApiError(Status.CONFLICT, purchaseMessages.pricesPending(Number(row.n)));
};

const confirmOrder = async (run: { ctx: SessionContext; header: Row }, trx: AnyDb) => {
  await trx
    .updateTable(purchse.header.table)
    .set({ confirmed_at: run.ctx.now, confirmed_by: run.ctx.session.userName })
    .where("tenant_id", "=", run.ctx.session.tenantId)
    .where("id", "=", run.header.id as number)
    .execute();
};

// ---- Receipts --------------------------------------------------------------------------------------------------

/** A receipt copies its order's supplier and warehouse, each line its order line's goods and (unless given) price. */
async function fillReceipt(ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
  const given = header.purchseId ?? current?.purchse_id;
  if (given === undefined || given === null) return;
  const tenantId = ctx.session.tenantId;
  const order = (await db.selectFrom(purchse.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", Number(given)).executeTakeFirst()) as Row | undefined;
  if (!order) return; // The relation check names the field.
  if (!ORDER_RECEIVABLE.includes(String(order.status) as never)) throw fieldError("purchseId", purchaseMessages.notReceivable(statusLabel(purchse, order.status)));
  header.supplierId = Number(order.supplier_id);
  header.warehouseId = Number(order.warehouse_id);
  for (const [i, line] of lines.entries()) {
    if (line.purchseLineId === undefined) continue;
    const orderLine = (await db
      .selectFrom(purchse.lines.table)
      .select(["goods_id", "price"])
      .where("tenant_id", "=", tenantId)
      .where("id", "=", Number(line.purchseLineId))
      .where("document_id", "=", Number(order.id))
      .executeTakeFirst()) as Row | undefined;
    if (!orderLine) throw fieldError(`lines.${i}.purchseLineId`, purchaseMessages.notOfOrder);
    line.goodsId = Number(orderLine.goods_id);
    if (line.price === undefined || line.price === null) line.price = Number(orderLine.price);
    if (typeof line.quantity === "number") line.amount = lineAmount(quantityToThousandths(line.quantity), Number(line.price));
  }
}

/**
 * Each goods' last received price from the supplier, before this receipt (the latest received receipt's line, the
 * latest line on a tie), for all the receipt's goods in one statement.
 */
async function lastPrices(trx: AnyDb, tenantId: number, supplierId: number, goodsIds: number[], receiptId: number): Promise<Map<number, number>> {
  const ranked = trx
    .selectFrom(`${purchseReceive.lines.table} as l`)
    .innerJoin(`${purchseReceive.header.table} as r`, (j) => j.onRef("r.tenant_id", "=", "l.tenant_id").onRef("r.id", "=", "l.document_id"))
    .select(["l.goods_id", "l.price", sql<number>`row_number() over (partition by l.goods_id order by r.updated_at desc, l.id desc)`.as("nth")])
    .where("l.tenant_id", "=", tenantId)
    .where("r.supplier_id", "=", supplierId)
    .where("l.goods_id", "in", [...new Set(goodsIds)])
    .where("r.status", "=", purchseReceive.status["1"])
    .where("r.id", "!=", receiptId);
  const rows = (await trx.selectFrom(ranked.as("p")).select(["p.goods_id", "p.price"]).where("p.nth", "=", 1).execute()) as Row[];
  return new Map(rows.map((r) => [Number(r.goods_id), Number(r.price)]));
}

/** How far `price` is above `reference`, in thousandths of a percent (rounded up), or 0. */
function overBy(price: number, reference: number | null): number {
  if (reference === null || price <= reference) return 0;
  if (reference === 0) return Number.MAX_SAFE_INTEGER;
  return Math.ceil(((price - reference) * 100_000) / reference);
}

/**
 * A receipt went past what was ordered (or named a line of another order): the first of its lines to do so, in the
 * receipt's order, is refused by name. Read after the conditional update held a line back, so what it reads is what
 * that update saw.
 */
async function refuseOverReceipt(trx: AnyDb, tenantId: number, orderId: number, lines: Row[]): Promise<never> {
  const ids = [...new Set(lines.map((line) => Number(line.purchseLineId)))];
  const orderLines = new Map(
    ((await trx.selectFrom(purchse.lines.table).select(["id", "quantity", "received_quantity", "goods_id"]).where("tenant_id", "=", tenantId).where("document_id", "=", orderId).where("id", "in", ids).execute()) as Row[]).map((r) => [Number(r.id), r]),
  );
  for (const line of lines) {
    const lineNo = Number(line[LINE_NO]);
    const orderLine = orderLines.get(Number(line.purchseLineId));
    if (!orderLine) throw fieldError(`lines.${lineNo - 1}.purchseLineId`, purchaseMessages.notOfOrder);
  }
  // Walked in the receipt's order, each order line's running total: the line that takes it past what is left.
  const taken = new Map<number, number>();
  for (const line of lines) {
    const orderLine = orderLines.get(Number(line.purchseLineId)) as Row;
    const left = Number(orderLine.quantity) - Number(orderLine.received_quantity);
    const before = taken.get(Number(orderLine.id)) ?? 0;
    const quantity = quantityToThousandths(Number(line.quantity));
    taken.set(Number(orderLine.id), before + quantity);
    if (before + quantity <= left) continue;
    const goods = await goodsWords(trx, tenantId, Number(orderLine.goods_id));
    throw new ApiError(Status.CONFLICT, purchaseMessages.overOrdered(Number(line[LINE_NO]), goods.name, left - before, goods.unit));
  }
  throw new ApiError(Status.CONFLICT, documentMessages.stale);
}

/**
 * 收货: the receipt's lines are added to their order lines' received quantities — never past what was ordered (the
 * conditional update holds even against a receipt racing for the same line: 409) — a stock-in is written and
 * approved through the stock documents' own approval (its batches, the ledger and every rule of that path), the order
 * becomes 部分到货 or 已到货, and each line priced above its contract or last price beyond the tolerance is flagged.
 */
const postReceipt = async (run: { ctx: SessionContext; header: Row; lines: Row[] }, trx: AnyDb) => {
  const { ctx, header } = run;
  const tenantId = ctx.session.tenantId;
  const orderId = Number(header.purchseId);
  let orderQuery = trx.selectFrom(purchse.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", orderId);
  if (isPostgres(trx)) orderQuery = orderQuery.forUpdate();
  const order = (await orderQuery.executeTakeFirst()) as Row | undefined;
  if (!order) throw new ApiError(Status.NOT_FOUND, documentMessages.notFound(purchse));
  if (!ORDER_RECEIVABLE.includes(String(order.status) as never)) throw new ApiError(Status.CONFLICT, purchaseMessages.notReceivable(statusLabel(purchse, order.status)));
  // What this receipt adds to each order line (a line may be named twice), in one statement a chunk whose floor holds
  // against a receipt racing for the same line; when it held one back, the first line over is named.
  const adds = new Map<number, { quantity: number; amount: number }>();
  for (const line of run.lines) {
    const quantity = quantityToThousandths(Number(line.quantity));
    const add = adds.get(Number(line.purchseLineId)) ?? { quantity: 0, amount: 0 };
    add.quantity += quantity;
    add.amount += lineAmount(quantity, Number(line.price));
    adds.set(Number(line.purchseLineId), add);
  }
  const moved = await updateFromValues(trx, {
    table: purchse.lines.table,
    tenantId,
    columns: { id: "bigint", document_id: "bigint", quantity: "bigint", amount: "bigint", at: "bigint", by: "bigint" },
    match: ["id", "document_id"],
    rows: [...adds].map(([id, add]) => ({ id, document_id: orderId, ...add, at: ctx.now, by: ctx.session.userId })),
    set: (v) => ({ received_quantity: sql`received_quantity + ${v("quantity")}`, received_amount: sql`received_amount + ${v("amount")}`, updated_at: v("at"), updated_by: v("by") }),
    where: (v) => sql`received_quantity + ${v("quantity")} <= quantity`,
  });
  if (moved !== adds.size) await refuseOverReceipt(trx, tenantId, orderId, run.lines);
  const stockLines: Row[] = run.lines.map((line) => ({
    goodsId: Number(line.goodsId),
    quantity: Number(line.quantity),
    price: Number(line.price),
    ...(line.batchNo ? { batchNo: line.batchNo } : {}),
    ...(line.productionDate ? { productionDate: line.productionDate } : {}),
    ...(line.expiryDate ? { expiryDate: line.expiryDate } : {}),
  }));
  // The stock-in, through the stock documents' own create and approval: its batches and ledger lines are theirs.
  const inRules = stockDocumentRules[warehouseIn.docType] as DocumentRules;
  const inHeader: Row = {
    warehouseId: Number(order.warehouse_id),
    supplierId: Number(order.supplier_id),
    docDate: header.docDate,
    remark: `采购收货 ${String(header[DOC_NO])}（采购单 ${String(order.doc_no)}）`,
  };
  await inRules.fill?.(ctx, trx, inHeader, stockLines);
  const stockIn = await insertDocument(trx, ctx, warehouseIn, inHeader, stockLines);
  for (const name of ["submit", "approve"]) {
    await stepDocument(trx, ctx, warehouseIn, inRules, findTransition(warehouseIn, name) as NonNullable<ReturnType<typeof findTransition>>, { id: Number(stockIn.id) });
  }
  await trx.updateTable(purchseReceive.header.table).set({ warehouse_in_id: stockIn.id }).where("tenant_id", "=", tenantId).where("id", "=", header.id as number).execute();
  // The order's status follows what has arrived.
  const left = (await trx
    .selectFrom(purchse.lines.table)
    .select(sql<number>`count(*)`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where("document_id", "=", orderId)
    .where(sql<boolean>`received_quantity < quantity`)
    .executeTakeFirstOrThrow()) as Row;
  const to = Number(left.n) === 0 ? purchse.status["4"] : purchse.status["3"];
  if (to !== String(order.status)) {
    await trx
      .updateTable(purchse.header.table)
      .set({ [DOC_STATUS]: to, [DOC_VERSION]: Number(order.version) + 1, updated_at: Math.max(ctx.now, Number(order.updated_at) + 1), updated_by: ctx.session.userId })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", orderId)
      .execute();
    // The history names the step in words: receiving is not one of the order's own transitions.
    await writeHistory(trx, ctx, purchse, orderId, "收货", String(order.status), to, null);
  }
  await flagPrices(trx, ctx, order, header, run.lines);
};

/** Writes a price audit for each received line dearer than its contract or last price by more than the tolerance. */
async function flagPrices(trx: AnyDb, ctx: SessionContext, order: Row, receipt: Row, lines: Row[]) {
  const tenantId = ctx.session.tenantId;
  const supplierId = Number(order.supplier_id);
  const [tolerancePercent, orderLines, last] = await Promise.all([
    priceTolerance(trx, tenantId),
    trx.selectFrom(purchse.lines.table).select(["id", "contract_price"]).where("tenant_id", "=", tenantId).where("document_id", "=", Number(order.id)).execute() as Promise<Row[]>,
    lastPrices(trx, tenantId, supplierId, lines.map((line) => Number(line.goodsId)), Number(receipt.id)),
  ]);
  const tolerance = Math.round(tolerancePercent * 1000);
  const contracts = new Map(orderLines.map((r) => [Number(r.id), r.contract_price == null ? null : Number(r.contract_price)]));
  const audits: Row[] = [];
  for (const line of lines) {
    const price = Number(line.price);
    const goodsId = Number(line.goodsId);
    // An order line without one (priced by hand) is held to the contract in force on the order's day, if any.
    const contract = contracts.get(Number(line.purchseLineId)) ?? (await contractPrice(trx, tenantId, supplierId, goodsId, String(order.doc_date ?? chinaDay(ctx.now))));
    const lastPrice = last.get(goodsId) ?? null;
    const over = Math.max(overBy(price, contract), overBy(price, lastPrice));
    if (over <= tolerance) continue;
    audits.push({
      tenant_id: tenantId,
      id: newId(),
      purchse_id: Number(order.id),
      supplier_id: supplierId,
      goods_id: goodsId,
      receive_line_id: Number(line.id),
      price,
      contract_price: contract,
      last_price: lastPrice,
      over_percent: Math.min(over, 1_000_000_000),
      status: 0,
      reason: null,
      created_at: ctx.now,
      created_by: ctx.session.userId,
      updated_at: ctx.now,
      updated_by: ctx.session.userId,
    });
  }
  await insertRows(trx, "purchase_price_audit", audits);
}

const receiveSchema = z.object({
  id: recordId("采购单"),
  docDate: fieldSchema(purchseReceive.header.fields.find((f) => f.name === "docDate") as never, true),
  remark: fieldSchema(purchseReceive.header.fields.find((f) => f.name === "remark") as never, true),
  lines: z
    .array(z.unknown(), { error: "收货明细应为列表" })
    .min(1, "请至少填写 1 行收货明细")
    .max(500, "收货明细不能超过 500 行")
    .pipe(z.array(createSchema(purchseReceive.lines))),
});

/** `purchse/receive`: a receipt written and received in one transaction; answers the stock-in it posted. */
export async function receive(ctx: SessionContext, body: z.output<typeof receiveSchema>, raw: unknown): Promise<Row> {
  const rules = purchaseDocumentRules[purchseReceive.docType] as DocumentRules;
  const { id, lines: given, ...rest } = body as Row & { id: number; lines: Row[] };
  const order = await loadHeader(db(ctx), purchse, ctx.session.tenantId, id);
  if (!ORDER_RECEIVABLE.includes(String(order.status) as never)) throw new ApiError(Status.CONFLICT, purchaseMessages.notReceivable(statusLabel(purchse, order.status)));
  const header: Row = { ...rest, purchseId: id };
  const lines = given.map((line) => ({ ...line }));
  await rules.fill?.(ctx, db(ctx), header, lines);
  return idempotent(ctx, raw, async (trx: AnyDb) => {
    const receipt = await insertDocument(trx, ctx, purchseReceive, header, lines);
    await stepDocument(trx, ctx, purchseReceive, rules, findTransition(purchseReceive, "receive") as NonNullable<ReturnType<typeof findTransition>>, { id: Number(receipt.id) });
    const stored = (await loadHeader(trx, purchseReceive, ctx.session.tenantId, Number(receipt.id))) as Row;
    return { id: receipt.id, docNo: receipt[DOC_NO], warehouseInId: stored.warehouse_in_id };
  });
}

/**
 * A receipt's order lines as a keeper recognises them: `大米（G001）· 采购 10 · 已到 4 · 未到 6`, searched by goods
 * name or code; choosing one fills the goods and the order's price.
 */
async function orderLineOptions(ctx: SessionContext, db: AnyDb, orderId: number, keyword: string | undefined): Promise<Row[]> {
  const rows = (await db
    .selectFrom(`${purchse.lines.table} as l`)
    .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "l.tenant_id").onRef("g.id", "=", "l.goods_id"))
    .select(["l.id", "l.goods_id", "l.quantity", "l.received_quantity", "l.price", "g.goods_name", "g.goods_code"])
    .where("l.tenant_id", "=", ctx.session.tenantId)
    .where("l.document_id", "=", orderId)
    .orderBy("l.line_no")
    .execute()) as Row[];
  const text = keyword?.toLowerCase();
  return rows
    .filter((r) => !text || String(r.goods_name).toLowerCase().includes(text) || String(r.goods_code).toLowerCase().includes(text))
    .slice(0, 50)
    .map((r) => {
      const goods = `${String(r.goods_name)}（${String(r.goods_code)}）`;
      const left = Number(r.quantity) - Number(r.received_quantity);
      const label = `${goods}· 采购 ${thousandthsToQuantity(Number(r.quantity))} · 已到 ${thousandthsToQuantity(Number(r.received_quantity))} · 未到 ${thousandthsToQuantity(left)}`;
      return { id: Number(r.id), label, goodsId: Number(r.goods_id), goodsIdLabel: goods, price: Number(r.price), quantity: thousandthsToQuantity(left) };
    });
}

// ---- Price audits ----------------------------------------------------------------------------------------------

const auditSchema = (label: string) => z.object({ id: recordId("价格审核记录"), reason: reasonField(`${label}原因`) });

function auditStep(name: "approve" | "reject") {
  return async (ctx: SessionContext, body: { id: number; reason?: unknown }, raw: unknown) =>
    idempotent(ctx, raw, async (trx: AnyDb) => {
      const { changes } = await runResourceStep(trx, ctx, purchsePriceAudit, name, {
        id: body.id,
        reason: body.reason,
        set: name === "reject" ? { reason: typeof body.reason === "string" ? body.reason.trim() : null } : {},
      });
      return { id: body.id, status: (changes.status as string[])[1] };
    });
}

// ---- Cost shares -----------------------------------------------------------------------------------------------

/** What an order's cost share divides: what has arrived, in fen. */
async function receivedTotal(db: AnyDb, tenantId: number, orderId: number): Promise<number> {
  const row = (await db
    .selectFrom(purchse.lines.table)
    .select(sql<number>`coalesce(sum(received_amount), 0)`.as("a"))
    .where("tenant_id", "=", tenantId)
    .where("document_id", "=", orderId)
    .executeTakeFirstOrThrow()) as Row;
  return Number(row.a);
}

/**
 * A share's lines: each names a restaurant or a merchant; by percentage they total 100 and their amounts are the
 * received total split by the largest remainder; by amount they total it exactly.
 */
async function fillShare(ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) {
  const orderId = header.purchseId ?? current?.purchse_id;
  if (orderId === undefined || orderId === null) return;
  const tenantId = ctx.session.tenantId;
  const order = (await db.selectFrom(purchse.header.table).select("status").where("tenant_id", "=", tenantId).where("id", "=", Number(orderId)).executeTakeFirst()) as Row | undefined;
  if (!order) return;
  if (!["3", "4", "5"].includes(String(order.status))) throw fieldError("purchseId", purchaseMessages.notArrived);
  const total = await receivedTotal(db, tenantId, Number(orderId));
  header.totalAmount = total;
  if (!lines.length) return;
  const method = String(header.method ?? current?.method ?? "1");
  for (const [i, line] of lines.entries()) {
    const hasRestaurant = line.restaurantId !== undefined && line.restaurantId !== null;
    const hasMerchant = line.merchantId !== undefined && line.merchantId !== null;
    if (!hasRestaurant && !hasMerchant) throw fieldError(`lines.${i}.restaurantId`, purchaseMessages.sharePartyMissing);
    if (hasRestaurant && hasMerchant) throw fieldError(`lines.${i}.merchantId`, purchaseMessages.sharePartyBoth);
  }
  if (method === "1") {
    const percents = lines.map((line, i) => {
      if (typeof line.percent !== "number") throw fieldError(`lines.${i}.percent`, purchaseMessages.percentMissing);
      return quantityToThousandths(line.percent);
    });
    const sum = percents.reduce((a, b) => a + b, 0);
    if (sum !== 100_000) throw fieldError("lines", purchaseMessages.percentTotal(sum));
    largestRemainder(total, percents).forEach((amount, i) => ((lines[i] as Row).amount = amount));
  } else {
    const amounts = lines.map((line, i) => {
      if (typeof line.amount !== "number") throw fieldError(`lines.${i}.amount`, purchaseMessages.amountMissing);
      line.percent = null;
      return line.amount;
    });
    const sum = amounts.reduce((a, b) => a + b, 0);
    if (sum !== total) throw fieldError("lines", purchaseMessages.amountTotal(total, sum));
  }
}

/** Submitting and approving hold the share to the order as it now is (a later receipt changes the total). */
const shareTotals: Guard = async (run, trx) => {
  const total = await receivedTotal(trx, run.ctx.session.tenantId, Number(run.header.purchseId));
  const sum = run.lines.reduce((a, l) => a + Number(l.amount ?? 0), 0);
  if (sum !== total || Number(run.header.totalAmount) !== total) throw new ApiError(Status.CONFLICT, purchaseMessages.shareMoved(total));
};

// ---- Rules and endpoints ---------------------------------------------------------------------------------------

export const purchaseDocumentRules: Record<string, DocumentRules> = {
  [purchseDemand.docType]: { fill: fillDemand, effects: { approveDemand } },
  [purchse.docType]: { fill: fillOrder, guards: { pricesAudited }, effects: { confirmOrder } },
  [purchseReceive.docType]: { fill: fillReceipt, effects: { postReceipt }, lineOptions: { purchseLineId: orderLineOptions } },
  [purchseShare.docType]: { fill: fillShare, guards: { shareTotals } },
};

/** The same checks a generated create makes of the header's relations, for the hand-written create. */
async function checkedOrder(ctx: SessionContext, body: Row, raw: unknown) {
  await checkRelations(ctx, purchse.header, body);
  return createOrder(ctx, body, raw);
}

const transitionAccess = (doc: DocumentDef, name: string) => permission(transitionPermission(doc, { name }));

export const purchaseEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhhq/purchse/create",
    replacesGenerated: true,
    resource: "zhhq/purchse",
    summary: "新增采购单：{ supplierId, warehouseId, demandIds?, lines: [{ goodsId, quantity, price? }] }；不填单价取合同价，没有合同价为 400（指明行）；demandIds 的已审核申请按核定数量加入明细（支持 Idempotency-Key）",
    access: permission(permissionCode(purchse.header, "create")),
    body: orderCreateSchema,
    handle: (ctx, { body }) => checkedOrder(session(ctx), body as Row, body),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhhq/purchseDemand/orderable",
    resource: "zhhq/purchseDemand",
    summary: "可下单的采购申请：warehouseId 仓库已审核、尚未下单的申请（最近 100 张），各带明细的核定数量，供采购单按申请生成（purchse/create 的 demandIds）",
    access: permission(permissionCode(purchse.header, "create")),
    query: z.object({ warehouseId: recordId("仓库") }),
    handle: (ctx, { query }) => orderableDemands(session(ctx), Number(query.warehouseId)),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhhq/purchse/receive",
    resource: "zhhq/purchseReceive",
    summary: "采购收货：{ id, lines: [{ purchseLineId, quantity, price?, batchNo?, productionDate?, expiryDate? }] } → { warehouseInId }；同一事务内生成并审核入库单；超过未到数量为 409（支持 Idempotency-Key）",
    access: transitionAccess(purchseReceive, "receive"),
    body: receiveSchema,
    handle: (ctx, { body }) => receive(session(ctx), body, body),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhhq/purchseDemand/approveAdjusted",
    resource: "zhhq/purchseDemand",
    summary: "按核定数量审核采购申请：{ id, lines: [{ id, approvedQuantity }] }（未列出的行按申请数量；0 表示不批；支持 Idempotency-Key）",
    access: transitionAccess(purchseDemand, "approve"),
    body: adjustSchema,
    handle: (ctx, { body }) => approveAdjusted(session(ctx), body, body),
  }),
  ...(["approve", "reject"] as const).map((name) =>
    endpoint({
      method: "POST",
      path: `/api/v1/zhhq/purchsePriceAudit/${name}`,
      resource: "zhhq/purchsePriceAudit",
      summary: name === "approve" ? "价格审核通过：{ id }（支持 Idempotency-Key）" : "价格审核驳回：{ id, reason }（支持 Idempotency-Key）",
      access: permission(permissionCode(purchsePriceAudit, name)),
      body: auditSchema(name === "approve" ? "通过" : "驳回"),
      handle: (ctx, { body }) => auditStep(name)(session(ctx), body, body),
    }),
  ),
];

