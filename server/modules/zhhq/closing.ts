import { sql, type Kysely } from "kysely";
import { chinaDay } from "../../../resources/chinaTime";
import { apiPath, permissionCode } from "../../../resources/define";
import { documentPath, DOC_VERSION } from "../../../resources/document";
import { quantityToThousandths, thousandthsToQuantity } from "../../../resources/quantity";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { warehouseAccountMonthSettle, warehouseCheck, warehouseTransfer } from "../../../resources/zhhq/closing";
import type { Db } from "../../db";
import { newId } from "../../db";
import { insertRows } from "../../db/bulk";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { idempotent } from "../../kernel/idempotency";
import type { AllocatedPosting, Allocator, DocumentRules } from "../../kernel/transitions";
import { createDocument, documentSchemas, updateDocument } from "../resource/documents";
import { readImportFile } from "../resource/import";
import { countSheetFile, countsFromFile } from "./countSheet";
import { db } from "../resource/engine";
import { lockMonth } from "../zhct/formalMonths";
import type { Row } from "../resource/rows";
import type { Filters, QueryResult } from "../report/query";
import {
  defaultDocDate,
  isPostgres,
  keyOf,
  lineAmount,
  lockStock,
  MONTH_FORMAL,
  STOCK_MONTH_LOCK,
  readBatches,
  setLines,
  shareOf,
  stockLedger,
  stockMessages,
  takeFefo,
  TRANSIT_WAREHOUSE_CODE,
  type Batch,
} from "./stock";

/**
 * Transfers, stocktakes and the month's stock account (issue 41, decision 073), on the stock ledger of decision 068.
 *
 * - In transit is a warehouse of its own (`ZT-IN-TRANSIT`, 调拨在途, one per tenant, made by the first transfer, 无效 so
 *   no picker offers it): a transfer's approval moves each batch it takes (first expiry first) out of the source and
 *   into a batch of the transit warehouse with the same number, dates, price and cost; its receipt moves those transit
 *   batches whole into batches of the destination. The ledger's own check proves every key and batch; source +
 *   transit + destination never changes, in quantity or amount. The ledger's guard refuses any other document there.
 * - A stocktake's sheet holds its warehouse's batches as they stand when it is created (under the warehouse's row on
 *   PostgreSQL, so a stock-out being approved finishes first); while it is open the ledger's guard refuses every other
 *   posting there. Approval posts each batch's difference between the count and its stock (a gain at the batch's price,
 *   a loss at its share of the batch's cost), so the stock equals the count.
 * - A month's account is made from the ledger's lines by their document's date (`stock_line.doc_date`): opening (the
 *   lines dated before the month), in and out (its lines by sign), closing. 生成 replaces the month's rows; 转正式
 *   makes them again and locks the month, which the ledger's guard then holds to.
 */

// The tables are the declarations'; names are known at run time as the resource engine's are.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const closingMessages = {
  sameWarehouse: "调入仓库不能与调出仓库相同",
  transitWarehouse: "不能选择调拨在途仓库",
  bookLines: "盘点明细按账面自动生成，开单时不能填写",
  fixed: "盘点单开单后不能更改仓库和物资类别，请作废后重新开单",
  openSheet: (docNo: string) => `该仓库已有未完成的盘点单 ${docNo}`,
  noLine: (i: number) => `第 ${i + 1} 行盘点明细不存在`,
  month: "月份格式应为 YYYY-MM",
  futureMonth: (month: string) => `${month} 尚未开始，不能生成`,
  notEnded: (month: string) => `${month} 尚未结束，不能转正式`,
  earlierOpen: (month: string) => `${month} 尚未结账，请先将其转正式`,
};

const today = (ctx: SessionContext) => chinaDay(ctx.now);

// ---- In transit ---------------------------------------------------------------------------------------------------

/** The tenant's transit warehouse, made the first time a transfer needs it. */
export async function transitWarehouse(trx: AnyDb, tenantId: number, now: number): Promise<number> {
  const find = async () =>
    (await trx.selectFrom("warehouse").select("id").where("tenant_id", "=", tenantId).where("warehouse_code", "=", TRANSIT_WAREHOUSE_CODE).executeTakeFirst()) as Row | undefined;
  const found = await find();
  if (found) return Number(found.id);
  await trx
    .insertInto("warehouse")
    .values({
      tenant_id: tenantId,
      id: newId(),
      warehouse_code: TRANSIT_WAREHOUSE_CODE,
      name: "调拨在途",
      status: 0,
      remark: "系统仓库：已调出、尚未收货的调拨物资，只能由调拨单收货",
      created_at: now,
      created_by: null,
      updated_at: now,
      updated_by: null,
    })
    .onConflict((oc) => oc.columns(["tenant_id", "warehouse_code"]).doNothing())
    .execute();
  return Number((await find())?.id);
}

async function isTransit(database: AnyDb, tenantId: number, warehouseId: unknown): Promise<boolean> {
  if (warehouseId === undefined || warehouseId === null) return false;
  const row = (await database.selectFrom("warehouse").select("warehouse_code").where("tenant_id", "=", tenantId).where("id", "=", Number(warehouseId)).executeTakeFirst()) as Row | undefined;
  return row?.warehouse_code === TRANSIT_WAREHOUSE_CODE;
}

/**
 * A batch of `warehouseId` made of another's: the same number, dates, price and source line, empty until posted.
 * Pushed onto `into`, which the allocator writes in one statement (decision 085); answers its id.
 */
function copyBatch(ctx: SessionContext, from: Row, warehouseId: number, into: Row[]): number {
  const id = newId();
  into.push({
    tenant_id: ctx.session.tenantId,
    id,
    warehouse_id: warehouseId,
    goods_id: from.goods_id,
    batch_no: from.batch_no,
    production_date: from.production_date ?? null,
    expiry_date: from.expiry_date ?? null,
    price: from.price,
    quantity: 0,
    amount: 0,
    // Its place in first-expiry-first is the original receipt's.
    received_at: from.received_at,
    in_line_id: from.in_line_id,
    created_at: ctx.now,
    created_by: ctx.session.userId,
    updated_at: ctx.now,
    updated_by: ctx.session.userId,
  });
  return id;
}

const docDateOf = (run: { header: Row; ctx: SessionContext }) => String(run.header.docDate ?? today(run.ctx));

/** Transfer out: first expiry first out of the source, each batch part into a transit batch like it, at its cost. */
const transferOut: Allocator = async (run, trx, entries) => {
  const { ctx } = run;
  const tenantId = ctx.session.tenantId;
  const transit = await transitWarehouse(trx, tenantId, ctx.now);
  const from = Number(run.header.fromWarehouseId);
  const goods = entries.map((e) => keyOf(e).goodsId);
  await lockStock(trx, tenantId, [...goods.map((goodsId) => ({ warehouseId: from, goodsId })), ...goods.map((goodsId) => ({ warehouseId: transit, goodsId }))], ctx.now);
  const held = new Map<string, Batch[]>();
  await readBatches(trx, tenantId, goods.map((goodsId) => ({ warehouseId: from, goodsId })), held);
  const docDate = docDateOf(run);
  const out: AllocatedPosting[] = [];
  const copies: Row[] = [];
  const written: Row[] = [];
  for (const entry of entries) {
    const goodsId = keyOf(entry).goodsId;
    const need = quantityToThousandths(Number(entry.line.quantity));
    const lineId = entry.line.id as number;
    const taken = await takeFefo(trx, tenantId, { warehouseId: from, goodsId }, need, held, today(ctx));
    for (const { holding, take, amount } of taken) {
      const transitBatch = copyBatch(ctx, holding.row as Row, transit, copies);
      out.push({ key: { warehouseId: from, goodsId }, quantity: -take, amount: -amount, extra: { batchId: holding.batchId, batchNo: holding.batchNo, docDate }, lineId });
      out.push({ key: { warehouseId: transit, goodsId }, quantity: take, amount, extra: { batchId: transitBatch, batchNo: holding.batchNo, docDate }, lineId });
    }
    const amount = taken.reduce((sum, t) => sum + t.amount, 0);
    written.push({ id: lineId, sent_quantity: need, transit_quantity: need, received_quantity: 0, amount });
  }
  await insertRows(trx, "stock_batch", copies);
  await setLines(trx, run.doc, tenantId, { sent_quantity: "bigint", transit_quantity: "bigint", received_quantity: "bigint", amount: "bigint" }, written);
  return out;
};

/** Transfer in: each transit batch the transfer made moves whole into a batch of the destination, at its cost. */
const transferIn: Allocator = async (run, trx, entries) => {
  const { ctx } = run;
  const tenantId = ctx.session.tenantId;
  const transit = await transitWarehouse(trx, tenantId, ctx.now);
  const to = Number(run.header.toWarehouseId);
  const goods = entries.map((e) => keyOf(e).goodsId);
  await lockStock(trx, tenantId, [...goods.map((goodsId) => ({ warehouseId: to, goodsId })), ...goods.map((goodsId) => ({ warehouseId: transit, goodsId }))], ctx.now);
  const batches = (await trx
    .selectFrom("stock_line as l")
    .innerJoin("stock_batch as b", (j) => j.onRef("b.tenant_id", "=", "l.tenant_id").onRef("b.id", "=", "l.batch_id"))
    .selectAll("b")
    .select("l.doc_line_id")
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_type", "=", warehouseTransfer.docType)
    .where("l.doc_id", "=", run.header.id as number)
    .where("l.warehouse_id", "=", transit)
    .where("l.quantity", ">", 0)
    .orderBy("l.id")
    .execute()) as Row[];
  const docDate = docDateOf(run);
  const out: AllocatedPosting[] = [];
  const copies: Row[] = [];
  const written: Row[] = [];
  for (const entry of entries) {
    const goodsId = keyOf(entry).goodsId;
    const lineId = entry.line.id as number;
    let received = 0;
    for (const batch of batches.filter((b) => Number(b.doc_line_id) === lineId)) {
      const quantity = Number(batch.quantity);
      const amount = Number(batch.amount);
      if (quantity === 0 && amount === 0) continue;
      const arrived = copyBatch(ctx, batch, to, copies);
      out.push({ key: { warehouseId: transit, goodsId }, quantity: -quantity, amount: -amount, extra: { batchId: Number(batch.id), batchNo: batch.batch_no, docDate }, lineId });
      out.push({ key: { warehouseId: to, goodsId }, quantity, amount, extra: { batchId: arrived, batchNo: batch.batch_no, docDate }, lineId });
      received += quantity;
    }
    written.push({ id: lineId, received_quantity: received, transit_quantity: 0 });
  }
  await insertRows(trx, "stock_batch", copies);
  await setLines(trx, run.doc, tenantId, { received_quantity: "bigint", transit_quantity: "bigint" }, written);
  return out;
};

/** A transfer's warehouses: two different ones, neither the transit warehouse; its date today unless given. */
async function fillTransfer(ctx: SessionContext, database: AnyDb, header: Row, _lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
  const from = header.fromWarehouseId ?? current?.from_warehouse_id;
  const to = header.toWarehouseId ?? current?.to_warehouse_id;
  const tenantId = ctx.session.tenantId;
  if (await isTransit(database, tenantId, header.fromWarehouseId)) throw fieldError("fromWarehouseId", closingMessages.transitWarehouse);
  if (await isTransit(database, tenantId, header.toWarehouseId)) throw fieldError("toWarehouseId", closingMessages.transitWarehouse);
  if (from !== undefined && from !== null && to !== undefined && to !== null && Number(from) === Number(to)) throw fieldError("toWarehouseId", closingMessages.sameWarehouse);
}

// ---- Stocktaking --------------------------------------------------------------------------------------------------

/**
 * A new sheet's lines: every batch of the warehouse with stock (of the goods type, when one is chosen), its book
 * quantity as it stands. On PostgreSQL the sheet first takes its warehouse's row, which every posting there holds
 * shared (the ledger's guard): postings under way finish first and are in the book, later ones see the open sheet.
 */
async function stocktakeLines(ctx: SessionContext, trx: AnyDb, header: Row): Promise<Row[]> {
  const tenantId = ctx.session.tenantId;
  const warehouseId = Number(header.warehouseId);
  if (isPostgres(trx)) await trx.selectFrom("warehouse").select("id").where("tenant_id", "=", tenantId).where("id", "=", warehouseId).forUpdate().execute();
  const open = (await trx
    .selectFrom(warehouseCheck.header.table)
    .select("doc_no")
    .where("tenant_id", "=", tenantId)
    .where("warehouse_id", "=", warehouseId)
    .where("status", "in", [0, 1])
    .where("id", "!=", header.id as number)
    .executeTakeFirst()) as Row | undefined;
  if (open) throw new ApiError(Status.CONFLICT, closingMessages.openSheet(String(open.doc_no)));
  let q = trx
    .selectFrom("stock_batch as b")
    .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "b.tenant_id").onRef("g.id", "=", "b.goods_id"))
    .select(["b.id", "b.goods_id", "b.batch_no", "b.expiry_date", "b.quantity"])
    .where("b.tenant_id", "=", tenantId)
    .where("b.warehouse_id", "=", warehouseId)
    .where("b.quantity", ">", 0);
  if (header.goodsTypeId !== undefined && header.goodsTypeId !== null) q = q.where("g.goods_type_id", "=", Number(header.goodsTypeId));
  const rows = (await q.orderBy("g.goods_code").orderBy("b.expiry_date").orderBy("b.id").execute()) as Row[];
  return rows.map((r) => ({
    goodsId: Number(r.goods_id),
    batchId: Number(r.id),
    batchNo: r.batch_no,
    expiryDate: r.expiry_date ?? null,
    bookQuantity: thousandthsToQuantity(Number(r.quantity)),
  }));
}

/**
 * A sheet's create ignores lines (the server makes them from the book); an update's counted quantities give each
 * line's difference against its book quantity, so the keeper sees gains and losses before approval.
 */
async function fillCheck(ctx: SessionContext, database: AnyDb, header: Row, lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
  if (!current) {
    lines.length = 0;
    if (await isTransit(database, ctx.session.tenantId, header.warehouseId)) throw fieldError("warehouseId", closingMessages.transitWarehouse);
    return;
  }
  const ids = lines.filter((l) => l.id !== undefined).map((l) => Number(l.id));
  if (!ids.length) return;
  const book = new Map<number, number>();
  for (let at = 0; at < ids.length; at += 500) {
    const rows = (await database
      .selectFrom(warehouseCheck.lines.table)
      .select(["id", "book_quantity"])
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("document_id", "=", Number(current.id))
      .where("id", "in", ids.slice(at, at + 500))
      .execute()) as Row[];
    for (const r of rows) book.set(Number(r.id), Number(r.book_quantity ?? 0));
  }
  for (const line of lines) {
    if (line.id === undefined || !book.has(Number(line.id)) || !("countedQuantity" in line)) continue;
    const counted = line.countedQuantity;
    line.diffQuantity = counted === null || counted === undefined ? null : thousandthsToQuantity(quantityToThousandths(Number(counted)) - (book.get(Number(line.id)) as number));
  }
}

/**
 * Approval: each batch moves by its count less its stock now (the book, since the sheet froze the warehouse) — a gain
 * at the batch's price, a loss at its share of the batch's cost — so the stock equals the count. A line not counted
 * keeps its book quantity.
 */
const countDifference: Allocator = async (run, trx, entries) => {
  const { ctx } = run;
  const tenantId = ctx.session.tenantId;
  await lockStock(trx, tenantId, entries.map(keyOf), ctx.now);
  const batchRows = new Map<number, Row>();
  const batchIds = [...new Set(entries.map((e) => Number(e.line.batchId)).filter((id) => Number.isSafeInteger(id) && id > 0))];
  for (let at = 0; at < batchIds.length; at += 500) {
    const rows = (await trx
      .selectFrom("stock_batch")
      .select(["id", "batch_no", "price", "quantity", "amount"])
      .where("tenant_id", "=", tenantId)
      .where("id", "in", batchIds.slice(at, at + 500))
      .execute()) as Row[];
    for (const r of rows) batchRows.set(Number(r.id), r);
  }
  const docDate = docDateOf(run);
  const out: AllocatedPosting[] = [];
  const written: Row[] = [];
  for (const entry of entries) {
    const batch = batchRows.get(Number(entry.line.batchId));
    if (!batch) continue;
    const stock = Number(batch.quantity);
    const book = entry.line.bookQuantity === null || entry.line.bookQuantity === undefined ? stock : quantityToThousandths(Number(entry.line.bookQuantity));
    const counted = entry.line.countedQuantity === null || entry.line.countedQuantity === undefined ? stock : quantityToThousandths(Number(entry.line.countedQuantity));
    const diff = counted - stock;
    const amount = diff === 0 ? 0 : diff > 0 ? lineAmount(diff, Number(batch.price)) : -shareOf(-diff, stock, Number(batch.amount));
    if (diff !== 0 || book !== stock || entry.line.diffQuantity === null) {
      written.push({ id: entry.line.id, book_quantity: stock, counted_quantity: counted, diff_quantity: diff, diff_amount: amount });
    }
    if (diff === 0) continue;
    out.push({ key: keyOf(entry), quantity: diff, amount, extra: { batchId: Number(batch.id), batchNo: batch.batch_no, docDate }, lineId: entry.line.id as number });
  }
  await setLines(trx, run.doc, tenantId, { book_quantity: "bigint", counted_quantity: "bigint", diff_quantity: "bigint", diff_amount: "bigint" }, written);
  return out;
};

/**
 * `create` of a sheet: the document's header (the warehouse, optionally a goods type); its lines are the server's (the
 * book), so a create that brings lines is refused on them.
 */
const checkCreateBody = documentSchemas(warehouseCheck).create.extend({
  lines: documentSchemas(warehouseCheck).create.shape.lines.optional(),
});

/**
 * `update` of a sheet: the counted quantities of the lines given (by id); the others keep theirs. The header's fields
 * are the document's (its remark, its date); its warehouse and goods type are the sheet's from its create on.
 */
const checkUpdateBody = documentSchemas(warehouseCheck).update.extend({
  version: z.number({ error: "version 应为数字" }).int().positive().optional(),
  lines: z
    .array(
      z.object({
        id: recordId("盘点明细", "请选择盘点明细"),
        countedQuantity: fieldSchema(warehouseCheck.lines.fields.find((f) => f.name === "countedQuantity") as never, true),
      }),
      { error: "盘点明细应为列表" },
    )
    .max(warehouseCheck.maxLines, `盘点明细不能超过 ${warehouseCheck.maxLines} 行`),
});

const countSheetQuery = z.object({ id: z.string({ error: "请指定盘点单 id" }).regex(/^\d{1,15}$/, "盘点单 id 应为数字") });

async function updateCounts(ctx: SessionContext, body: z.infer<typeof checkUpdateBody>, raw: unknown) {
  const tenantId = ctx.session.tenantId;
  const header = (await db(ctx).selectFrom(warehouseCheck.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", body.id).executeTakeFirst()) as Row | undefined;
  if (!header) throw new ApiError(Status.NOT_FOUND, `${warehouseCheck.title}不存在或已被删除`);
  const { id, version: given, lines: counts, ...values } = body as Row & { id: number; version?: number; lines: Array<{ id: number; countedQuantity?: unknown }> };
  for (const [field, column] of [["warehouseId", "warehouse_id"], ["goodsTypeId", "goods_type_id"]]) {
    if (values[field] !== undefined && (values[field] ?? null) !== (header[column] === null ? null : Number(header[column]))) throw fieldError(field, closingMessages.fixed);
    delete values[field];
  }
  const stored = (await db(ctx).selectFrom(warehouseCheck.lines.table).select(["id", "line_no"]).where("tenant_id", "=", tenantId).where("document_id", "=", id).orderBy("line_no").execute()) as Row[];
  const known = new Set(stored.map((r) => Number(r.id)));
  const counted = new Map<number, unknown>();
  counts.forEach((line, i) => {
    if (!known.has(line.id) || counted.has(line.id)) throw fieldError(`lines.${i}.id`, closingMessages.noLine(i));
    counted.set(line.id, line.countedQuantity ?? null);
  });
  // Every stored line stays, in its order; those given take their count.
  const lines = stored.map((r) => (counted.has(Number(r.id)) ? { id: Number(r.id), countedQuantity: counted.get(Number(r.id)) } : { id: Number(r.id) }));
  const version = given ?? Number(header[DOC_VERSION]);
  return updateDocument(ctx, warehouseCheck, { id, version, ...values, lines }, raw, closingRules[warehouseCheck.docType]);
}

// ---- The month's stock account ------------------------------------------------------------------------------------

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthBody = z.object({ month: z.string({ error: closingMessages.month }).regex(MONTH, closingMessages.month) });

function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/**
 * The month's rows per warehouse × goods from the ledger's lines by document date: opening (before the month), in
 * (its lines that add), out (its lines that take), closing. Rows with nothing at all are left out.
 */
export async function monthRows(database: AnyDb, tenantId: number, month: string): Promise<Row[]> {
  const start = `${month}-01`;
  const end = `${nextMonth(month)}-01`;
  const before = sql`l.doc_date < ${start}`;
  const within = sql`l.doc_date >= ${start}`;
  const adds = sql`(l.quantity > 0 or (l.quantity = 0 and l.amount > 0))`;
  const rows = (await database
    .selectFrom("stock_line as l")
    .select([
      "l.warehouse_id",
      "l.goods_id",
      sql<number>`coalesce(sum(case when ${before} then l.quantity else 0 end), 0)`.as("opening_quantity"),
      sql<number>`coalesce(sum(case when ${before} then l.amount else 0 end), 0)`.as("opening_amount"),
      sql<number>`coalesce(sum(case when ${within} and ${adds} then l.quantity else 0 end), 0)`.as("in_quantity"),
      sql<number>`coalesce(sum(case when ${within} and ${adds} then l.amount else 0 end), 0)`.as("in_amount"),
      sql<number>`coalesce(sum(case when ${within} and not ${adds} then -l.quantity else 0 end), 0)`.as("out_quantity"),
      sql<number>`coalesce(sum(case when ${within} and not ${adds} then -l.amount else 0 end), 0)`.as("out_amount"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("l.doc_date", "<", end)
    .groupBy(["l.warehouse_id", "l.goods_id"])
    .orderBy("l.warehouse_id")
    .orderBy("l.goods_id")
    .execute()) as Row[];
  return rows
    .map((r) => {
      const n = (k: string) => Number(r[k]);
      return {
        warehouse_id: Number(r.warehouse_id),
        goods_id: Number(r.goods_id),
        opening_quantity: n("opening_quantity"),
        opening_amount: n("opening_amount"),
        in_quantity: n("in_quantity"),
        in_amount: n("in_amount"),
        out_quantity: n("out_quantity"),
        out_amount: n("out_amount"),
        closing_quantity: n("opening_quantity") + n("in_quantity") - n("out_quantity"),
        closing_amount: n("opening_amount") + n("in_amount") - n("out_amount"),
      };
    })
    .filter((r) => r.opening_quantity || r.opening_amount || r.in_quantity || r.in_amount || r.out_quantity || r.out_amount);
}

/** The month's status row, taken for update on PostgreSQL (a month's generate and confirm queue here). */
async function monthRow(trx: AnyDb, ctx: SessionContext, month: string): Promise<Row> {
  const tenantId = ctx.session.tenantId;
  // Postings into the month hold its lock shared (the ledger's guard), also before the month has a row (decision 085).
  await lockMonth(trx, tenantId, month, "exclusive", STOCK_MONTH_LOCK);
  await trx
    .insertInto("stock_month")
    .values({ tenant_id: tenantId, id: newId(), month, status: 0, row_count: 0, generated_at: null, confirmed_at: null, created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId })
    .onConflict((oc) => oc.columns(["tenant_id", "month"]).doNothing())
    .execute();
  let q = trx.selectFrom("stock_month").selectAll().where("tenant_id", "=", tenantId).where("month", "=", month);
  if (isPostgres(trx)) q = q.forUpdate();
  return (await q.executeTakeFirstOrThrow()) as Row;
}

/** 生成: the month's rows again from the ledger (a formal month's are kept: 409). The same ledger gives the same rows. */
async function generateMonth(trx: AnyDb, ctx: SessionContext, month: string, status = 0): Promise<{ month: string; rowCount: number; status: number }> {
  const tenantId = ctx.session.tenantId;
  const row = await monthRow(trx, ctx, month);
  if (Number(row.status) === MONTH_FORMAL) throw new ApiError(Status.CONFLICT, stockMessages.monthClosed(month));
  const rows = await monthRows(trx, tenantId, month);
  await trx.deleteFrom("stock_month_settle").where("tenant_id", "=", tenantId).where("month", "=", month).execute();
  const values = rows.map((r) => ({
    tenant_id: tenantId,
    id: newId(),
    month,
    ...r,
    status,
    created_at: ctx.now,
    created_by: ctx.session.userId,
    updated_at: ctx.now,
    updated_by: ctx.session.userId,
  }));
  for (let at = 0; at < values.length; at += 500) await trx.insertInto("stock_month_settle").values(values.slice(at, at + 500)).execute();
  await trx
    .updateTable("stock_month")
    .set({ status, row_count: rows.length, generated_at: ctx.now, ...(status === MONTH_FORMAL ? { confirmed_at: ctx.now } : {}), updated_at: ctx.now, updated_by: ctx.session.userId })
    .where("tenant_id", "=", tenantId)
    .where("month", "=", month)
    .execute();
  return { month, rowCount: rows.length, status };
}

/** 转正式: only a month that has ended, after every earlier month with movements is formal; made again, then locked. */
async function confirmMonth(trx: AnyDb, ctx: SessionContext, month: string) {
  const tenantId = ctx.session.tenantId;
  if (month >= today(ctx).slice(0, 7)) throw new ApiError(Status.CONFLICT, closingMessages.notEnded(month));
  const moved = (await trx
    .selectFrom("stock_line")
    .select(sql<string>`substr(doc_date, 1, 7)`.as("m"))
    .distinct()
    .where("tenant_id", "=", tenantId)
    .where("doc_date", "<", `${month}-01`)
    .execute()) as Row[];
  const formal = new Set(
    ((await trx.selectFrom("stock_month").select("month").where("tenant_id", "=", tenantId).where("status", "=", MONTH_FORMAL).execute()) as Row[]).map((r) => String(r.month)),
  );
  const open = moved.map((r) => String(r.m)).filter((m) => !formal.has(m)).sort();
  if (open.length) throw new ApiError(Status.CONFLICT, closingMessages.earlierOpen(open[0]));
  return generateMonth(trx, ctx, month, MONTH_FORMAL);
}

function refuseFutureMonth(ctx: SessionContext, month: string) {
  if (month > today(ctx).slice(0, 7)) throw fieldError("month", closingMessages.futureMonth(month));
}

// ---- Rules and endpoints ------------------------------------------------------------------------------------------

const ledgers = { stock: stockLedger };

export const closingRules: Record<string, DocumentRules> = {
  [warehouseTransfer.docType]: { ledgers, allocators: { transferOut, transferIn }, fill: fillTransfer },
  [warehouseCheck.docType]: { ledgers, allocators: { countDifference }, fill: fillCheck, createLines: stocktakeLines },
};

const session = (ctx: unknown) => ctx as SessionContext;

/** A page of 调拨明细 holds at most this many lines; a narrower filter shows the rest. */
const TRANSFER_DETAIL_ROWS = 5000;

/**
 * 调拨明细: each transfer line as its transfer stands — asked, sent (调出), in transit and received (调入) — by the
 * transfer's date; the warehouse filter takes transfers out of it or into it. Quantities are thousandths (the
 * report's quantity columns), the cost fen.
 */
async function warehouseTransferDetail(
  dbIn: Db,
  tenantId: number,
  f: Filters,
): Promise<QueryResult> {
  const q = dbIn as unknown as AnyDb;
  let query = q
    .selectFrom(`${warehouseTransfer.lines.table} as l`)
    .innerJoin(`${warehouseTransfer.header.table} as h`, (j) =>
      j
        .onRef("h.tenant_id", "=", "l.tenant_id")
        .onRef("h.id", "=", "l.document_id"),
    )
    .innerJoin("goods as g", (j) =>
      j
        .onRef("g.tenant_id", "=", "l.tenant_id")
        .onRef("g.id", "=", "l.goods_id"),
    )
    .leftJoin("goods_unit as u", (j) =>
      j
        .onRef("u.tenant_id", "=", "g.tenant_id")
        .onRef("u.id", "=", "g.unit_id"),
    )
    .innerJoin("warehouse as wf", (j) =>
      j
        .onRef("wf.tenant_id", "=", "h.tenant_id")
        .onRef("wf.id", "=", "h.from_warehouse_id"),
    )
    .innerJoin("warehouse as wt", (j) =>
      j
        .onRef("wt.tenant_id", "=", "h.tenant_id")
        .onRef("wt.id", "=", "h.to_warehouse_id"),
    )
    .select([
      "h.doc_no",
      "h.doc_date",
      "h.status",
      "wf.name as from_name",
      "wt.name as to_name",
      "g.goods_code",
      "g.goods_name",
      "u.unit_name",
      "l.quantity",
      "l.sent_quantity",
      "l.transit_quantity",
      "l.received_quantity",
      "l.amount",
    ])
    .where("l.tenant_id", "=", tenantId)
    .where("h.doc_date", ">=", f.from)
    .where("h.doc_date", "<=", f.to);
  if (f.warehouseId !== undefined) {
    const warehouseId = f.warehouseId;
    query = query.where((eb) =>
      eb.or([
        eb("h.from_warehouse_id", "=", warehouseId),
        eb("h.to_warehouse_id", "=", warehouseId),
      ]),
    );
  }
  if (f.goodsId !== undefined)
    query = query.where("l.goods_id", "=", f.goodsId);
  const status = (f as unknown as { status?: string }).status;
  if (status !== undefined)
    query = query.where("h.status", "=", Number(status));
  if (f.keyword !== undefined) query = query.where("h.doc_no", "=", f.keyword);
  const found = (await query
    .orderBy("h.doc_date", "desc")
    .orderBy("h.doc_no", "desc")
    .orderBy("l.line_no")
    .limit(TRANSFER_DETAIL_ROWS + 1)
    .execute()) as Row[];
  const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  const rows = found.slice(0, TRANSFER_DETAIL_ROWS).map((r) => ({
    docNo: String(r.doc_no),
    docDate: String(r.doc_date ?? ""),
    status: String(r.status),
    fromWarehouseName: String(r.from_name ?? ""),
    toWarehouseName: String(r.to_name ?? ""),
    goodsCode: String(r.goods_code),
    goodsName: String(r.goods_name),
    unitName: String(r.unit_name ?? ""),
    quantity: n(r.quantity),
    sentQuantity: n(r.sent_quantity),
    transitQuantity: n(r.transit_quantity),
    receivedQuantity: n(r.received_quantity),
    amount: n(r.amount),
  }));
  return { rows, more: found.length > TRANSFER_DETAIL_ROWS };
}

export const closingReportQueries = { warehouseTransferDetail };

export const closingEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: documentPath(warehouseCheck, "create"),
    summary: "新建盘点单：{ warehouseId, goodsTypeId? } → { id, lines: [{ id, goodsId, batchNo, bookQuantity }] }，明细为该仓库（该类别）每个有库存批次的账面数量；仓库已有未完成的盘点单为 409；开单后该仓库的其他出入库均被拒绝（409），直到审核或作废；支持 Idempotency-Key",
    access: permission(permissionCode(warehouseCheck.header, "create")),
    body: checkCreateBody,
    replacesGenerated: true,
    handle: (ctx, { body }) => {
      const { lines, ...header } = body as Row & { lines?: Row[] };
      if (lines?.length) throw fieldError("lines", closingMessages.bookLines);
      return createDocument(session(ctx), warehouseCheck, { ...header, lines: [] }, body, closingRules[warehouseCheck.docType]);
    },
  }),
  endpoint({
    method: "POST",
    path: documentPath(warehouseCheck, "update"),
    summary: "录入实盘数量：{ id, version?, lines: [{ id, countedQuantity }] }，只改所给的明细，其余不变（仅 盘点中 可改）；支持 Idempotency-Key",
    access: permission(permissionCode(warehouseCheck.header, "update")),
    body: checkUpdateBody,
    replacesGenerated: true,
    handle: (ctx, { body }) => updateCounts(session(ctx), body as z.infer<typeof checkUpdateBody>, body),
  }),
  endpoint({
    method: "GET",
    path: documentPath(warehouseCheck, "countSheet"),
    summary: "下载盘点表（xlsx）：?id= 盘点单的每行明细（明细ID、物资编码、名称、规格、单位、批次号、到期日期、账面数量、已录入的实盘数量）；仅 盘点中 可下载（否则 409）",
    access: permission(permissionCode(warehouseCheck.header, "update")),
    query: countSheetQuery,
    handle: (ctx, { query }) => countSheetFile(session(ctx), Number(query.id)),
  }),
  endpoint({
    method: "POST",
    path: documentPath(warehouseCheck, "importCount"),
    summary:
      "导入实盘数量（xlsx，multipart 字段 file 或请求体本身）：?id= 按「明细ID」列把「实盘数量」列写入该盘点单的明细，空白行不变；任一行有误则 400 并逐行说明，不写入任何数量；经 update 的同一规则在一个事务中写入（仅 盘点中，否则 409）",
    access: permission(permissionCode(warehouseCheck.header, "update")),
    rawBody: true,
    query: countSheetQuery,
    handle: async (ctx, { query }) => {
      const id = Number(query.id);
      const bytes = await readImportFile(ctx.request);
      const lines = await countsFromFile(session(ctx), id, bytes);
      return updateCounts(session(ctx), { id, lines } as z.infer<typeof checkUpdateBody>, { id, lines });
    },
  }),
  endpoint({
    method: "POST",
    path: apiPath(warehouseAccountMonthSettle, "generate"),
    summary: "生成月结：{ month: YYYY-MM } → { month, rowCount, status }，按单据日期从库存流水重算该月每个仓库 × 物资的期初、入库、出库、期末（数量与金额）；可重复生成，结果相同；已结账的月份为 409；支持 Idempotency-Key",
    access: permission(permissionCode(warehouseAccountMonthSettle, "generate")),
    body: monthBody,
    handle: (ctx, { body }) => {
      refuseFutureMonth(session(ctx), body.month);
      return idempotent(session(ctx), body, (trx) => generateMonth(trx as AnyDb, session(ctx), body.month));
    },
  }),
  endpoint({
    method: "POST",
    path: apiPath(warehouseAccountMonthSettle, "confirm"),
    summary: "月结转正式：{ month } → { month, rowCount, status: 1 }，重新生成并锁定该月：此后单据日期不能在该月（409 YYYY-MM 已结账）；该月须已结束，且更早有出入库的月份都已转正式（否则 409）；支持 Idempotency-Key",
    access: permission(permissionCode(warehouseAccountMonthSettle, "confirm")),
    body: monthBody,
    handle: (ctx, { body }) => idempotent(session(ctx), body, (trx) => confirmMonth(trx as AnyDb, session(ctx), body.month)),
  }),
];

/** For tests and the bench: the same work as the endpoints, without HTTP. */
export const closingWork = { generateMonth, confirmMonth, monthRows };
