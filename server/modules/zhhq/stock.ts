import { PostgresAdapter, sql, type Kysely } from "kysely";
import { chinaDay, chinaDayStart, DAY_MS } from "../../../resources/chinaTime";
import { DOC_NO, LINE_NO, type DocumentDef } from "../../../resources/document";
import { quantityToThousandths, thousandthsToQuantity } from "../../../resources/quantity";
import { findResource } from "../../../resources/index";
import { OPEN_CHECK_STATUSES, warehouseCheck, warehouseTransfer } from "../../../resources/zhhq/closing";
import { warehouseIn, warehouseInReturn, warehouseOut, warehouseOutReturn } from "../../../resources/zhhq/stock";
import { newId } from "../../db";
import { anyKey, chunksOf, insertRows, orChunksOf, updateFromValues, type ValueType } from "../../db/bulk";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { defineLedger, type LedgerDrift, type LedgerEntry, type PostedLine, type Projection } from "../../kernel/ledger";
import type { AllocatedPosting, AllocationInput, Allocator, DocumentRules, Guard, LineOptions } from "../../kernel/transitions";
import type { Row } from "../resource/rows";
import { lockMonth } from "../zhct/formalMonths";
import { stockDays, stockPostingSums } from "./stockDays";
import { requireSupplierQualified } from "./supplierQualification";

/**
 * The stock ledger and the rules of the stock documents (issue 40, decision 068). The ledger's balances are the
 * stock per warehouse × goods (`stock_real`, the 库存查询 screen), its lines the movements (`stock_line`, each naming
 * its batch), and the batches (`stock_batch`) a projection counted in the same transaction with a floor of their own
 * (its `check` joins the ledger's, so `npm run ledger:check` covers the batches too).
 * What a document posts is its declaration's (resources/zhhq/stock.ts); which batches a line moves is decided by the
 * allocators here, under the stock rows' locks, before anything is posted.
 */

// The ledger's tables are its own, named by its declaration.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** A source document a return names must be 已审核 (its lines then never change). */
const APPROVED = warehouseIn.status["2"];

export const stockMessages = {
  insufficient: (goods: string, quantity: number, unit: string) => `库存不足：${goods} 仓库现有 ${formatQuantity(quantity)}${unit}`,
  batchShort: "批次库存不足",
  zero: "数量不能为 0",
  expired: (batchNo: string, expiryDate: string) => `批次 ${batchNo} 已于 ${expiryDate} 过期，过期物资不能出库`,
  inReturnOver: (line: number, left: number, unit: string, pending = 0) => `第 ${line} 行退货数量超过可退数量 ${formatQuantity(left)}${unit}${pendingWords(pending, unit, "退货")}`,
  outReturnOver: (line: number, left: number, unit: string, pending = 0) => `第 ${line} 行退库数量超过可退数量 ${formatQuantity(left)}${unit}${pendingWords(pending, unit, "退库")}`,
  notApproved: (title: string) => `${title}尚未审核，不能退`,
  notOfDocument: (title: string) => `该明细不属于所选${title}`,
  futureDate: "单据日期不能晚于今天",
  monthClosed: (month: string) => `${month} 已结账`,
  frozen: (docNo: string) => `仓库正在盘点（盘点单 ${docNo}），盘点结束前不能出入库`,
  transitOnly: "调拨在途仓库的物资只能由调拨单调出、收货",
};

/** `（另有待审核的退货 5.5kg）`: what other submitted returns of the line claim, when they claim any. */
function pendingWords(pending: number, unit: string, kind: string): string {
  return pending > 0 ? `（另有待审核的${kind} ${formatQuantity(pending)}${unit}）` : "";
}

/** Thousandths as the screens write a quantity: 12.5, 3. */
export function formatQuantity(thousandths: number): string {
  return String(thousandthsToQuantity(thousandths));
}

/** Batches: a posting's batch moves with it, never below zero in quantity or amount (decision 068). */
const batchProjection: Projection = {
  name: "stockBatches",
  async apply(trx: AnyDb, line: PostedLine) {
    const batchId = line.extra?.batchId;
    const moved = await trx
      .updateTable("stock_batch")
      .set({
        quantity: sql`quantity + ${line.quantity}`,
        amount: sql`amount + ${line.amount ?? 0}`,
        updated_at: line.occurredAt,
        updated_by: line.operatorId ?? null,
      })
      .where("tenant_id", "=", line.tenantId)
      .where("id", "=", batchId)
      .where(sql<boolean>`quantity + ${line.quantity} >= 0 and amount + ${line.amount ?? 0} >= 0`)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, stockMessages.batchShort);
  },
  /** A document's lines: each batch moved once by their sum, under the same floor. */
  async applyMany(trx: AnyDb, lines: PostedLine[]) {
    const moves = new Map<number, { batch_id: number; quantity: number; amount: number; at: number; by: number | null }>();
    for (const line of lines) {
      const batchId = Number(line.extra?.batchId);
      const move = moves.get(batchId) ?? { batch_id: batchId, quantity: 0, amount: 0, at: line.occurredAt, by: line.operatorId ?? null };
      move.quantity += line.quantity;
      move.amount += line.amount ?? 0;
      moves.set(batchId, move);
    }
    const moved = await updateFromValues(trx, {
      table: "stock_batch",
      tenantId: lines[0].tenantId,
      columns: { batch_id: "bigint", quantity: "bigint", amount: "bigint", at: "bigint", by: "bigint" },
      match: [],
      rows: [...moves.values()],
      set: (v) => ({ quantity: sql`stock_batch.quantity + ${v("quantity")}`, amount: sql`stock_batch.amount + ${v("amount")}`, updated_at: v("at"), updated_by: v("by") }),
      where: (v) => sql`stock_batch.id = ${v("batch_id")} and stock_batch.quantity + ${v("quantity")} >= 0 and stock_batch.amount + ${v("amount")} >= 0`,
    });
    if (moved !== moves.size) throw new ApiError(Status.CONFLICT, stockMessages.batchShort);
  },
  /** The batches whose quantity or amount differs from the sum of their movements. */
  async check(db: AnyDb, tenantId?: number): Promise<LedgerDrift[]> {
    let q = db
      .selectFrom("stock_batch as b")
      .leftJoin(
        db.selectFrom("stock_line").select(["tenant_id", "batch_id", sql<number>`sum(quantity)`.as("q"), sql<number>`sum(amount)`.as("a")]).groupBy(["tenant_id", "batch_id"]).as("l"),
        (join) => join.onRef("l.tenant_id", "=", "b.tenant_id").onRef("l.batch_id", "=", "b.id"),
      )
      .select(["b.tenant_id", "b.id", "b.quantity", "b.amount", "l.q", "l.a"])
      .where((eb) => eb.or([eb("b.quantity", "!=", eb.fn.coalesce("l.q", sql.lit(0))), eb("b.amount", "!=", eb.fn.coalesce("l.a", sql.lit(0)))]));
    if (tenantId !== undefined) q = q.where("b.tenant_id", "=", tenantId);
    return ((await q.execute()) as Row[]).flatMap((r) => {
      const drift = (measure: "quantity" | "amount", balance: unknown, lines: unknown): LedgerDrift[] =>
        Number(balance) === Number(lines ?? 0) ? [] : [{ tenantId: Number(r.tenant_id), key: { batchId: Number(r.id) }, measure, balance: Number(balance), lines: Number(lines ?? 0) }];
      return [...drift("quantity", r.quantity, r.q), ...drift("amount", r.amount, r.a)];
    });
  },
  async recount(db: AnyDb, tenantId?: number) {
    const ofTenant = tenantId === undefined ? sql`1 = 1` : sql`b.tenant_id = ${tenantId}`;
    await sql`update stock_batch set
        quantity = (select coalesce(sum(l.quantity), 0) from stock_line l where l.tenant_id = stock_batch.tenant_id and l.batch_id = stock_batch.id),
        amount = (select coalesce(sum(l.amount), 0) from stock_line l where l.tenant_id = stock_batch.tenant_id and l.batch_id = stock_batch.id)
      where id in (select b.id from stock_batch b where ${ofTenant})`.execute(db);
  },
};

/** A warehouse × goods's average cost, in fen per unit (half up), from its amount and quantity as they stand. */
const AVERAGE = sql`case when quantity > 0 then (amount * 1000 + quantity / 2) / quantity else 0 end`;

const averagePrice: Projection = {
  name: "stockAveragePrice",
  async apply(trx: AnyDb, line: PostedLine) {
    await trx
      .updateTable("stock_real")
      .set({ average_price: AVERAGE })
      .where("tenant_id", "=", line.tenantId)
      .where("warehouse_id", "=", line.key.warehouseId)
      .where("goods_id", "=", line.key.goodsId)
      .execute();
  },
  async applyMany(trx: AnyDb, lines: PostedLine[]) {
    const ids = [...new Set(lines.map((l) => Number(l.balanceId)))];
    for (const chunk of chunksOf(ids, 1)) await trx.updateTable("stock_real").set({ average_price: AVERAGE }).where("tenant_id", "=", lines[0].tenantId).where("id", "in", chunk).execute();
  },
  async recount(db: AnyDb, tenantId?: number) {
    let q = db.updateTable("stock_real").set({ average_price: AVERAGE });
    if (tenantId !== undefined) q = q.where("tenant_id", "=", tenantId);
    await q.execute();
  },
};

/** The stock ledger: thousandths of the goods' unit and fen, per warehouse × goods, never below zero. */
export const stockLedger = defineLedger({
  name: "stock",
  balances: { table: "stock_real", id: "id", opens: true },
  lines: {
    table: "stock_line",
    columns: { docType: "doc_type", docId: "doc_id", docLineId: "doc_line_id", operatorId: "operator_id", operatorName: "operator_name", remark: "remark" },
  },
  key: { warehouseId: "warehouse_id", goodsId: "goods_id" },
  quantity: { balance: "quantity", line: "quantity", after: "quantity_after" },
  amount: { balance: "amount", line: "amount", after: "amount_after" },
  extra: { batchId: "batch_id", batchNo: "batch_no", docDate: "doc_date" },
  projections: [batchProjection, averagePrice, stockDays, stockPostingSums],
  // Every posting of every stock document passes here first: the closed months and the frozen warehouses (decision 073).
  lockFirst: (trx, entry) => guardPosting(trx, entry),
  // The allocators refuse a shortage first, naming the goods and what is there; this is the last guard.
  messages: { insufficient: "库存不足", zero: stockMessages.zero },
});

export const isPostgres = (trx: AnyDb) => trx.getExecutor().adapter instanceof PostgresAdapter;

/** The warehouse that holds what is in transit between two warehouses (one per tenant, made by the first transfer). */
export const TRANSIT_WAREHOUSE_CODE = "ZT-IN-TRANSIT";

/** What one transaction has already checked, so a document of many lines asks once per month and warehouse. */
const checked = new WeakMap<object, Map<string, unknown>>();

async function once<T>(trx: AnyDb, key: string, work: () => Promise<T>): Promise<T> {
  let seen = checked.get(trx);
  if (!seen) checked.set(trx, (seen = new Map()));
  if (!seen.has(key)) seen.set(key, await work());
  return seen.get(key) as T;
}

/** A posting's document date: the allocator's, else its document's header's, else the day it posts (China). */
async function documentDate(trx: AnyDb, entry: LedgerEntry): Promise<string> {
  const given = entry.extra?.docDate;
  if (typeof given === "string" && given) return given;
  const header = entry.docType ? findResource(entry.docType) : undefined;
  const field = header?.fields.find((f) => f.name === "docDate");
  const fromHeader =
    header && field && entry.docId !== null
      ? await once(trx, `docDate:${entry.docType}:${entry.docId}`, async () => {
          const row = (await trx.selectFrom(header.table).select(sql.ref(field.column ?? "doc_date").as("d")).where("tenant_id", "=", entry.tenantId).where("id", "=", entry.docId).executeTakeFirst()) as Row | undefined;
          return row?.d ? String(row.d) : null;
        })
      : null;
  return fromHeader ?? chinaDay(entry.occurredAt ?? Date.now());
}

/**
 * The stock ledger's guard (decision 073), before any posting reads or writes: no document may be dated into a month
 * made formal (409 `YYYY-MM 已结账`); while a warehouse has an open stocktake every other posting there is refused,
 * naming the sheet; the transit warehouse moves only by transfers. On PostgreSQL the posting holds its warehouse's
 * row (shared) and its month's, so a stocktake opening there (which takes the warehouse's row) or a month being made
 * formal waits for it, and a posting after them sees them.
 */
async function guardPosting(trx: AnyDb, entry: LedgerEntry): Promise<void> {
  const tenantId = entry.tenantId;
  const docDate = await documentDate(trx, entry);
  entry.extra = { ...entry.extra, docDate };
  const month = docDate.slice(0, 7);
  const closed = await once(trx, `month:${tenantId}:${month}`, async () => {
    // The month's lock, shared, before its row is read: a month with no row yet cannot be made formal (which takes it
    // exclusively) while this posting is in flight, nor this posting pass once it is (decision 085).
    await lockMonth(trx, tenantId, month, "shared", STOCK_MONTH_LOCK);
    let q = trx.selectFrom("stock_month").select("status").where("tenant_id", "=", tenantId).where("month", "=", month);
    if (isPostgres(trx)) q = q.forShare();
    const row = (await q.executeTakeFirst()) as Row | undefined;
    return row !== undefined && Number(row.status) === MONTH_FORMAL;
  });
  if (closed) throw new ApiError(Status.CONFLICT, stockMessages.monthClosed(month));
  const warehouseId = Number(entry.key.warehouseId);
  const refusal = await once(trx, `warehouse:${tenantId}:${warehouseId}:${entry.docType}:${entry.docId}`, async () => {
    let q = trx.selectFrom("warehouse").select("warehouse_code").where("tenant_id", "=", tenantId).where("id", "=", warehouseId);
    if (isPostgres(trx)) q = q.forShare();
    const warehouse = (await q.executeTakeFirst()) as Row | undefined;
    if (warehouse?.warehouse_code === TRANSIT_WAREHOUSE_CODE && entry.docType !== warehouseTransfer.docType) return stockMessages.transitOnly;
    let open = trx
      .selectFrom(warehouseCheck.header.table)
      .select(["id", "doc_no"])
      .where("tenant_id", "=", tenantId)
      .where("warehouse_id", "=", warehouseId)
      .where("status", "in", OPEN_CHECK_STATUSES.map(Number));
    if (entry.docType === warehouseCheck.docType && entry.docId !== null) open = open.where("id", "!=", entry.docId);
    const sheet = (await open.executeTakeFirst()) as Row | undefined;
    return sheet ? stockMessages.frozen(String(sheet.doc_no)) : null;
  });
  if (refusal) throw new ApiError(Status.CONFLICT, refusal);
}

/** A month of the stock account once 转正式 (dictionary monthSettleStatus). */
export const MONTH_FORMAL = 1;

/** The stock account's months' advisory locks (`lockMonth`), apart from the money ledger's. */
export const STOCK_MONTH_LOCK = 73;

/** A stock key's columns, in the order `anyKey` is given its values. */
const STOCK_KEY = ["warehouse_id", "goods_id"] as const;

/**
 * Takes the stock rows of these warehouse × goods, in one order (PostgreSQL; SQLite's writer holds the database):
 * every stock posting of a key queues here, so an allocator's reads of its batches are what it then posts against,
 * and two documents that share goods cannot each hold one and wait for the other.
 */
export async function lockStock(trx: AnyDb, tenantId: number, keys: Array<{ warehouseId: number; goodsId: number }>, now: number) {
  if (!isPostgres(trx)) return;
  const unique = [...new Map(keys.map((k) => [`${k.warehouseId}:${k.goodsId}`, k])).values()].sort((a, b) => a.warehouseId - b.warehouseId || a.goodsId - b.goodsId);
  const opening = unique.map(({ warehouseId, goodsId }) => ({ tenant_id: tenantId, id: newId(), warehouse_id: warehouseId, goods_id: goodsId, quantity: 0, amount: 0, created_at: now, created_by: null, updated_at: now, updated_by: null }));
  await insertRows(trx, "stock_real", opening, ["tenant_id", "warehouse_id", "goods_id"]);
  // One statement a chunk, the rows locked in the order of the key (the sort under the lock), as one at a time would.
  for (const chunk of orChunksOf(unique, 3)) {
    await trx
      .selectFrom("stock_real")
      .select("id")
      .where((eb) => anyKey(eb, tenantId, STOCK_KEY, chunk.map((k) => [k.warehouseId, k.goodsId])))
      .orderBy("warehouse_id")
      .orderBy("goods_id")
      .forUpdate()
      .execute();
  }
}

export const keyOf = (entry: AllocationInput[number]) => ({ warehouseId: Number(entry.key.warehouseId), goodsId: Number(entry.key.goodsId) });

/** The goods' name and unit's name, for the messages. */
export async function goodsWords(trx: AnyDb, tenantId: number, goodsId: number): Promise<GoodsWords> {
  return (await goodsOf(trx, tenantId, [goodsId])).get(goodsId) ?? { name: String(goodsId), unit: "", shelfLifeDays: null };
}

interface GoodsWords {
  name: string;
  unit: string;
  shelfLifeDays: number | null;
}

/** Goods by id: their words for messages and their shelf life, in one read a chunk (a document's lines at once). */
export async function goodsOf(trx: AnyDb, tenantId: number, ids: number[]): Promise<Map<number, GoodsWords>> {
  const out = new Map<number, GoodsWords>();
  for (const chunk of chunksOf([...new Set(ids)], 1)) {
    const rows = (await trx
      .selectFrom("goods as g")
      .leftJoin("goods_unit as u", (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
      .select(["g.id", "g.goods_name", "u.unit_name", "g.shelf_life_days"])
      .where("g.tenant_id", "=", tenantId)
      .where("g.id", "in", chunk)
      .execute()) as Row[];
    for (const row of rows) out.set(Number(row.id), { name: String(row.goods_name), unit: String(row.unit_name ?? ""), shelfLifeDays: row.shelf_life_days == null ? null : Number(row.shelf_life_days) });
  }
  return out;
}

/** Quantity (thousandths) × price (fen per unit) in fen, half up, exact for any size the fields allow. */
export function lineAmount(thousandths: number, price: number): number {
  return Number((BigInt(thousandths) * BigInt(price) + 500n) / 1000n);
}

/** What `take` of a holding of `quantity` and `amount` carries: all of it when it is all, else its share, half up. */
export function shareOf(take: number, quantity: number, amount: number): number {
  if (take >= quantity) return amount;
  return Number((BigInt(amount) * BigInt(take) * 2n + BigInt(quantity)) / (2n * BigInt(quantity)));
}

/** A production (or document) date plus a shelf life, as a date. */
function addDays(day: string, days: number): string {
  return chinaDay(chinaDayStart(day) + days * DAY_MS);
}

/**
 * What an allocator writes back on a document's lines (amounts, batches), all of them in a statement a chunk
 * (decision 085); `columns` types each value written (`id` is the line's).
 */
export async function setLines(trx: AnyDb, doc: DocumentDef, tenantId: number, columns: Record<string, ValueType>, rows: Row[]) {
  if (!rows.length) return;
  await updateFromValues(trx, {
    table: doc.lines.table,
    tenantId,
    columns: { id: "bigint", ...columns },
    match: ["id"],
    rows,
    set: (v) => Object.fromEntries(Object.keys(columns).map((c) => [c, v(c)])),
  });
}

/** Stock-in: each line becomes a batch (its number given or made from the document's), posted at its price × quantity. */
const receiveBatches: Allocator = async (run, trx, entries) => {
  const tenantId = run.ctx.session.tenantId;
  // A delivery needs its supplier's licences in force on the document's day (decision 076): refused, or noted.
  const licenceNote = await requireSupplierQualified(trx, tenantId, run.header.supplierId as number | null, String(run.header.docDate ?? chinaDay(run.ctx.now)));
  if (licenceNote) await trx.updateTable(run.doc.header.table).set({ qualification_note: licenceNote }).where("tenant_id", "=", tenantId).where("id", "=", run.header.id as number).execute();
  await lockStock(trx, tenantId, entries.map(keyOf), run.ctx.now);
  const goods = await goodsOf(
    trx,
    tenantId,
    entries.filter((e) => !e.line.expiryDate).map((e) => Number(e.key.goodsId)),
  );
  const out: AllocatedPosting[] = [];
  const batches: Row[] = [];
  const written: Row[] = [];
  for (const entry of entries) {
    const line = entry.line;
    const quantity = entry.quantity;
    const price = Number(line.price);
    const amount = lineAmount(quantity, price);
    const batchNo = (line.batchNo as string | null) || `${run.header[DOC_NO]}-${line[LINE_NO]}`;
    const shelfLifeDays = goods.get(Number(entry.key.goodsId))?.shelfLifeDays ?? null;
    const expiryDate = (line.expiryDate as string | null) ?? defaultExpiry(shelfLifeDays, line.productionDate as string | null, run.header.docDate as string | null, run.ctx.now);
    const batchId = newId();
    batches.push({
      tenant_id: tenantId,
      id: batchId,
      warehouse_id: entry.key.warehouseId,
      goods_id: entry.key.goodsId,
      batch_no: batchNo,
      production_date: line.productionDate ?? null,
      expiry_date: expiryDate,
      price,
      quantity: 0,
      amount: 0,
      received_at: run.ctx.now,
      in_line_id: line.id,
      created_at: run.ctx.now,
      created_by: run.ctx.session.userId,
      updated_at: run.ctx.now,
      updated_by: run.ctx.session.userId,
    });
    written.push({ id: line.id, batch_no: batchNo, expiry_date: expiryDate, amount });
    out.push({ key: keyOf(entry), quantity, amount, extra: { batchId, batchNo }, lineId: line.id as number });
  }
  await insertRows(trx, "stock_batch", batches);
  await setLines(trx, run.doc, tenantId, { batch_no: "text", expiry_date: "text", amount: "bigint" }, written);
  return out;
};

function defaultExpiry(shelfLifeDays: number | null, productionDate: string | null, docDate: string | null, now: number): string | null {
  if (!shelfLifeDays) return null;
  return addDays(productionDate ?? docDate ?? chinaDay(now), shelfLifeDays);
}

/** What a batch holds for a movement to take from (a batch's stock, or what a stock-out line took from it). */
export interface Holding {
  batchId: number;
  batchNo: string;
  quantity: number;
  amount: number;
}

export interface Batch extends Holding {
  expiryDate: string | null;
  /** The batch's row as read (its dates, price and source line, which a transfer carries to the batch it makes). */
  row?: Row;
}

/**
 * Takes `need` from the holdings in their order, changing them: each part carries its share of the holding's amount,
 * an emptied holding gives up exactly what it has left, so amounts never drift by rounding.
 */
export function takeInOrder<H extends Holding>(holdings: H[], need: number): Array<{ holding: H; take: number; amount: number }> {
  const taken: Array<{ holding: H; take: number; amount: number }> = [];
  for (const holding of holdings) {
    if (need === 0) break;
    if (holding.quantity === 0) continue;
    const take = Math.min(need, holding.quantity);
    const amount = shareOf(take, holding.quantity, holding.amount);
    holding.quantity -= take;
    holding.amount -= amount;
    need -= take;
    taken.push({ holding, take, amount });
  }
  return taken;
}

/**
 * First expiry first (FEFO): `need` thousandths of a warehouse × goods from its batches in the order of their expiry,
 * then of their receipt; a batch without an expiry date comes last. Expired batches are never taken. `held` keeps the
 * batches one document read, so its later lines take what its earlier ones left. A batch emptied gives up exactly its
 * remaining amount, a part its share of it, so the amounts never drift. Each part names its batch's row (`row`).
 */
export async function takeFefo(trx: AnyDb, tenantId: number, key: { warehouseId: number; goodsId: number }, need: number, held: Map<string, Batch[]>, today: string) {
  const group = `${key.warehouseId}:${key.goodsId}`;
  if (!held.has(group)) await readBatches(trx, tenantId, [key], held);
  const batches = held.get(group) as Batch[];
  const usable = batches.filter((b) => b.expiryDate === null || b.expiryDate >= today);
  const available = usable.reduce((sum, b) => sum + b.quantity, 0);
  if (available < need) {
    const total = batches.reduce((sum, b) => sum + b.quantity, 0);
    const expired = batches.find((b) => b.quantity > 0 && b.expiryDate !== null && b.expiryDate < today);
    if (total >= need && expired) throw new ApiError(Status.CONFLICT, stockMessages.expired(expired.batchNo, expired.expiryDate as string));
    const goods = await goodsWords(trx, tenantId, key.goodsId);
    throw new ApiError(Status.CONFLICT, stockMessages.insufficient(goods.name, total, goods.unit));
  }
  return takeInOrder(usable, need);
}

/**
 * The batches with stock of these warehouse × goods, in FEFO order, into `held` (by `warehouse:goods`): one read a
 * chunk for a whole document (decision 085), which `takeFefo` then takes from.
 */
export async function readBatches(trx: AnyDb, tenantId: number, keys: Array<{ warehouseId: number; goodsId: number }>, held: Map<string, Batch[]>) {
  const wanted = keys.filter((k) => !held.has(`${k.warehouseId}:${k.goodsId}`));
  for (const k of wanted) held.set(`${k.warehouseId}:${k.goodsId}`, []);
  for (const chunk of orChunksOf(wanted, 3)) {
    const rows = (await trx
      .selectFrom("stock_batch")
      .selectAll()
      .where((eb) => anyKey(eb, tenantId, STOCK_KEY, chunk.map((k) => [k.warehouseId, k.goodsId])))
      .where("quantity", ">", 0)
      .orderBy(sql`case when expiry_date is null then 1 else 0 end`)
      .orderBy("expiry_date")
      .orderBy("received_at")
      .orderBy("id")
      .execute()) as Row[];
    for (const r of rows) {
      held.get(`${Number(r.warehouse_id)}:${Number(r.goods_id)}`)?.push({ batchId: Number(r.id), batchNo: String(r.batch_no), expiryDate: r.expiry_date as string | null, quantity: Number(r.quantity), amount: Number(r.amount), row: r });
    }
  }
}

/** Stock-out: each line takes from its warehouse × goods's batches first expiry first (`takeFefo`). */
const issueFefo: Allocator = async (run, trx, entries) => {
  const tenantId = run.ctx.session.tenantId;
  await lockStock(trx, tenantId, entries.map(keyOf), run.ctx.now);
  const today = chinaDay(run.ctx.now);
  const batches = new Map<string, Batch[]>();
  await readBatches(trx, tenantId, entries.map(keyOf), batches);
  const out: AllocatedPosting[] = [];
  const amounts: Row[] = [];
  for (const entry of entries) {
    const key = keyOf(entry);
    const taken = await takeFefo(trx, tenantId, key, -entry.quantity, batches, today);
    for (const { holding, take, amount } of taken) {
      out.push({ key, quantity: -take, amount: -amount, extra: { batchId: holding.batchId, batchNo: holding.batchNo }, lineId: entry.line.id as number });
    }
    amounts.push({ id: entry.line.id, amount: taken.reduce((sum, t) => sum + t.amount, 0) });
  }
  await setLines(trx, run.doc, tenantId, { amount: "bigint" }, amounts);
  return out;
};

/**
 * Return to the supplier: from the batch its stock-in line made, at most what that line received less what was
 * returned already, and at most what is left of the batch.
 */
const returnToSupplier: Allocator = async (run, trx, entries) => {
  const tenantId = run.ctx.session.tenantId;
  await lockStock(trx, tenantId, entries.map(keyOf), run.ctx.now);
  await refuseUnapprovedSource(trx, tenantId, warehouseIn, Number(run.header.warehouseInId));
  const taken = new Map<number, { quantity: number; amount: number; left: number }>();
  const out: AllocatedPosting[] = [];
  const amounts: Row[] = [];
  for (const entry of entries) {
    const inLineId = Number(entry.line.inLineId);
    const lineNo = Number(entry.line[LINE_NO]);
    if (!taken.has(inLineId)) {
      const limit = await inReturnLimit(trx, tenantId, Number(run.header.warehouseInId), inLineId);
      if (!limit) throw fieldError(`lines.${lineNo - 1}.inLineId`, stockMessages.notOfDocument(warehouseIn.title));
      taken.set(inLineId, limit);
    }
    const batch = taken.get(inLineId) as NonNullable<Awaited<ReturnType<typeof inReturnLimit>>>;
    const take = -entry.quantity;
    if (take > batch.left) {
      const goods = await goodsWords(trx, tenantId, Number(entry.key.goodsId));
      throw new ApiError(Status.CONFLICT, stockMessages.inReturnOver(lineNo, batch.left, goods.unit));
    }
    const [{ amount }] = takeInOrder([batch], take);
    batch.left -= take;
    out.push({ key: keyOf(entry), quantity: -take, amount: -amount, extra: { batchId: batch.batchId, batchNo: batch.batchNo }, lineId: entry.line.id as number });
    amounts.push({ id: entry.line.id, amount });
  }
  await setLines(trx, run.doc, tenantId, { amount: "bigint" }, amounts);
  return out;
};

/** What a stock-in line may still give back: its batch, what the batch holds, and the least of the two limits. */
async function inReturnLimit(db: AnyDb, tenantId: number, warehouseInId: number, inLineId: number) {
  const row = (await db
    .selectFrom("warehouse_in_line as l")
    .innerJoin("warehouse_in as d", (j) => j.onRef("d.tenant_id", "=", "l.tenant_id").onRef("d.id", "=", "l.document_id"))
    // The batch the line made, in the stock-in's warehouse: a transfer's copies name the same line (decision 073).
    .innerJoin("stock_batch as b", (j) => j.onRef("b.tenant_id", "=", "l.tenant_id").onRef("b.in_line_id", "=", "l.id").onRef("b.warehouse_id", "=", "d.warehouse_id"))
    .select(["l.quantity as received", "b.id", "b.batch_no", "b.quantity", "b.amount"])
    .where("l.tenant_id", "=", tenantId)
    .where("l.id", "=", inLineId)
    .where("l.document_id", "=", warehouseInId)
    .executeTakeFirst()) as Row | undefined;
  if (!row) return null;
  const returned = (await db
    .selectFrom("stock_line")
    .select(sql<number>`coalesce(sum(quantity), 0)`.as("q"))
    .where("tenant_id", "=", tenantId)
    .where("batch_id", "=", row.id as number)
    .where("doc_type", "=", warehouseInReturn.docType)
    .executeTakeFirstOrThrow()) as Row;
  const quantity = Number(row.quantity);
  return {
    batchId: Number(row.id),
    batchNo: String(row.batch_no),
    quantity,
    amount: Number(row.amount),
    left: Math.min(Number(row.received) + Number(returned.q), quantity),
  };
}

async function refuseUnapprovedSource(db: AnyDb, tenantId: number, source: DocumentDef, id: number) {
  const row = (await db.selectFrom(source.header.table).select("status").where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst()) as Row | undefined;
  if (!row || String(row.status) !== APPROVED) {
    throw new ApiError(Status.CONFLICT, stockMessages.notApproved(source.title));
  }
}

/** What a stock-out line issued from a batch less what came back already, positive. */
type Issued = Holding;

/** What a stock-out line issued from each batch, less what returns brought back already, in the order it was issued. */
async function issuedOf(db: AnyDb, tenantId: number, outLineId: number): Promise<Issued[]> {
  const issued = (await db
    .selectFrom("stock_line")
    .select(["batch_id", "batch_no", sql<number>`sum(quantity)`.as("q"), sql<number>`sum(amount)`.as("a"), sql<number>`min(id)`.as("first")])
    .where("tenant_id", "=", tenantId)
    .where("doc_type", "=", warehouseOut.docType)
    .where("doc_line_id", "=", outLineId)
    .groupBy(["batch_id", "batch_no"])
    .execute()) as Row[];
  const back = (await db
    .selectFrom("stock_line as s")
    .innerJoin("warehouse_out_return_line as r", (j) => j.onRef("r.tenant_id", "=", "s.tenant_id").onRef("r.id", "=", "s.doc_line_id"))
    .select(["s.batch_id", sql<number>`sum(s.quantity)`.as("q"), sql<number>`sum(s.amount)`.as("a")])
    .where("s.tenant_id", "=", tenantId)
    .where("s.doc_type", "=", warehouseOutReturn.docType)
    .where("r.out_line_id", "=", outLineId)
    .groupBy("s.batch_id")
    .execute()) as Row[];
  const returned = new Map(back.map((r) => [Number(r.batch_id), { q: Number(r.q), a: Number(r.a) }]));
  return issued
    .sort((a, b) => Number(a.first) - Number(b.first))
    .map((r) => {
      const came = returned.get(Number(r.batch_id)) ?? { q: 0, a: 0 };
      return { batchId: Number(r.batch_id), batchNo: String(r.batch_no), quantity: -Number(r.q) - came.q, amount: -Number(r.a) - came.a };
    });
}

/**
 * Return to the store from a stock-out: at most what its line issued less what came back already, into the batches
 * it came from at their cost — the last batch issued first, so what stays issued is what expires first.
 */
const returnFromIssue: Allocator = async (run, trx, entries) => {
  const tenantId = run.ctx.session.tenantId;
  await lockStock(trx, tenantId, entries.map(keyOf), run.ctx.now);
  await refuseUnapprovedSource(trx, tenantId, warehouseOut, Number(run.header.warehouseOutId));
  const issuedByLine = new Map<number, Issued[]>();
  const out: AllocatedPosting[] = [];
  const amounts: Row[] = [];
  for (const entry of entries) {
    const outLineId = Number(entry.line.outLineId);
    const lineNo = Number(entry.line[LINE_NO]);
    if (!issuedByLine.has(outLineId)) {
      await refuseLineOf(trx, tenantId, warehouseOut, Number(run.header.warehouseOutId), outLineId, `lines.${lineNo - 1}.outLineId`);
      issuedByLine.set(outLineId, (await issuedOf(trx, tenantId, outLineId)).reverse());
    }
    const issued = issuedByLine.get(outLineId) as Issued[];
    const left = issued.reduce((sum, b) => sum + b.quantity, 0);
    if (entry.quantity > left) {
      const goods = await goodsWords(trx, tenantId, Number(entry.key.goodsId));
      throw new ApiError(Status.CONFLICT, stockMessages.outReturnOver(lineNo, left, goods.unit));
    }
    const taken = takeInOrder(issued, entry.quantity);
    for (const { holding, take, amount } of taken) {
      out.push({ key: keyOf(entry), quantity: take, amount, extra: { batchId: holding.batchId, batchNo: holding.batchNo }, lineId: entry.line.id as number });
    }
    amounts.push({ id: entry.line.id, amount: taken.reduce((sum, t) => sum + t.amount, 0) });
  }
  await setLines(trx, run.doc, tenantId, { amount: "bigint" }, amounts);
  return out;
};

async function refuseLineOf(db: AnyDb, tenantId: number, source: DocumentDef, documentId: number, lineId: number, field: string) {
  const row = await db.selectFrom(source.lines.table).select("id").where("tenant_id", "=", tenantId).where("id", "=", lineId).where("document_id", "=", documentId).executeTakeFirst();
  if (!row) throw fieldError(field, stockMessages.notOfDocument(source.title));
}

/** A document's date: today in China when not given; it may be earlier than today (a late entry), never later. */
export function defaultDocDate(ctx: SessionContext, header: Row) {
  const today = chinaDay(ctx.now);
  if (header.docDate === undefined || header.docDate === null || header.docDate === "") header.docDate = today;
  else if (String(header.docDate) > today) throw fieldError("docDate", stockMessages.futureDate);
}

/**
 * A stock-in line's amount and expiry, as far as what it gives lets them be known before approval. An update's kept
 * line may send its quantity or its price alone: the other is the stored one, so a draft's amount (its detail, its
 * list's totals) is right after every update, not only once approval recounts it. The stored lines read here are the
 * ones the update then writes over: the update refuses a version that moved since (409).
 */
async function fillWarehouseIn(ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) {
  if (!current || header.docDate) defaultDocDate(ctx, header);
  const docDate = (header.docDate ?? current?.doc_date ?? null) as string | null;
  const shelfLives = new Map<number, number | null>();
  const partial = lines.filter((l) => l.id !== undefined && l.id !== null && (typeof l.quantity !== "number" || typeof l.price !== "number"));
  const stored = new Map<number, Row>();
  if (current && partial.length) {
    const rows = (await db
      .selectFrom(warehouseIn.lines.table)
      .select(["id", "quantity", "price"])
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("document_id", "=", current.id as number)
      .where("id", "in", partial.map((l) => Number(l.id)))
      .execute()) as Row[];
    for (const row of rows) stored.set(Number(row.id), row);
  }
  for (const line of lines) {
    const before = line.id === undefined || line.id === null ? undefined : stored.get(Number(line.id));
    const quantity = typeof line.quantity === "number" ? quantityToThousandths(line.quantity) : before?.quantity == null ? null : Number(before.quantity);
    const price = typeof line.price === "number" ? line.price : before?.price == null ? null : Number(before.price);
    if (quantity !== null && price !== null) line.amount = lineAmount(quantity, price);
    if (line.expiryDate || line.goodsId === undefined) continue;
    const goodsId = Number(line.goodsId);
    if (!shelfLives.has(goodsId)) shelfLives.set(goodsId, (await goodsWords(db, ctx.session.tenantId, goodsId)).shelfLifeDays);
    const expiry = defaultExpiry(shelfLives.get(goodsId) ?? null, (line.productionDate as string | null) ?? null, docDate, ctx.now);
    if (expiry) line.expiryDate = expiry;
  }
}

/**
 * A return names its source document and that document's lines: the warehouse (and supplier) and each line's goods
 * are the source's. The source must be approved, and each line one of its own.
 */
function fillReturn(source: DocumentDef, sourceField: string, lineField: string, copied: string[]) {
  const sourceColumn = sourceField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return async (ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) => {
    if (!current || header.docDate) defaultDocDate(ctx, header);
    const given = header[sourceField] ?? current?.[sourceColumn];
    if (given === undefined || given === null) return;
    const tenantId = ctx.session.tenantId;
    const sourceId = Number(given);
    const row = (await db.selectFrom(source.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", sourceId).executeTakeFirst()) as Row | undefined;
    if (!row) return; // The relation check names the field.
    if (String(row.status) !== APPROVED) throw fieldError(sourceField, stockMessages.notApproved(source.title));
    for (const name of copied) header[name] = row[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
    for (const [i, line] of lines.entries()) {
      if (line[lineField] === undefined) continue;
      const sourceLine = (await db
        .selectFrom(source.lines.table)
        .select(["goods_id"])
        .where("tenant_id", "=", tenantId)
        .where("id", "=", Number(line[lineField]))
        .where("document_id", "=", sourceId)
        .executeTakeFirst()) as Row | undefined;
      if (!sourceLine) throw fieldError(`lines.${i}.${lineField}`, stockMessages.notOfDocument(source.title));
      line.goodsId = Number(sourceLine.goods_id);
    }
    await refuseOverReturn(db, tenantId, source, sourceId, lineField, lines, current ? Number(current.id) : undefined);
  };
}

/** What a source line can still give back, in thousandths: a stock-in line's (its batch too), a stock-out line's. */
async function returnable(db: AnyDb, tenantId: number, source: DocumentDef, sourceId: number, sourceLineId: number): Promise<number> {
  if (source === warehouseIn) return (await inReturnLimit(db, tenantId, sourceId, sourceLineId))?.left ?? 0;
  return (await issuedOf(db, tenantId, sourceLineId)).reduce((sum, b) => sum + b.quantity, 0);
}

/** The return document that gives back a source's lines: a stock-in's goes to the supplier, a stock-out's to the store. */
const returnOf = (source: DocumentDef): DocumentDef => (source === warehouseIn ? warehouseInReturn : warehouseOutReturn);

/** 待审核: a submitted return, not yet posted, whose quantities are a claim on its source lines (decision 069). */
const SUBMITTED = Number(warehouseInReturn.workflow.transitions.find((t) => t.name === "submit")?.to);

/**
 * What the submitted returns of a source line ask, in thousandths, other than the document `except`: posted nothing
 * yet, but each is a claim on the line's limit that approval will honour, so a second return cannot be submitted
 * into the same room (decision 069).
 */
async function claimed(db: AnyDb, tenantId: number, source: DocumentDef, lineField: string, sourceLineId: number, except?: number): Promise<number> {
  const doc = returnOf(source);
  const sourceColumn = lineField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  let q = db
    .selectFrom(`${doc.lines.table} as l`)
    .innerJoin(`${doc.header.table} as h`, (j) => j.onRef("h.tenant_id", "=", "l.tenant_id").onRef("h.id", "=", "l.document_id"))
    .select(sql<number>`coalesce(sum(l.quantity), 0)`.as("q"))
    .where("l.tenant_id", "=", tenantId)
    .where(`l.${sourceColumn}`, "=", sourceLineId)
    .where("h.status", "=", SUBMITTED);
  if (except !== undefined) q = q.where("h.id", "!=", except);
  return Number(((await q.executeTakeFirst()) as Row | undefined)?.q ?? 0);
}

/**
 * Refuses a return whose lines ask more than their source lines can still give back, at the line's quantity (400),
 * as the approval would (its message): on create, update and submit, so the keeper hears it while typing, not at
 * approval. What is left is what the source line can give less what other submitted returns claim (`except` is the
 * return itself); lines naming the same source line share it. Approval counts again under the stock locks, and is
 * the final word.
 */
async function refuseOverReturn(db: AnyDb, tenantId: number, source: DocumentDef, sourceId: number, lineField: string, lines: Row[], except?: number) {
  const left = new Map<number, { can: number; pending: number }>();
  const over = source === warehouseIn ? stockMessages.inReturnOver : stockMessages.outReturnOver;
  for (const [i, line] of lines.entries()) {
    const sourceLineId = line[lineField];
    if (sourceLineId === undefined || sourceLineId === null || typeof line.quantity !== "number") continue;
    const id = Number(sourceLineId);
    if (!left.has(id)) {
      const pending = await claimed(db, tenantId, source, lineField, id, except);
      left.set(id, { can: Math.max(0, (await returnable(db, tenantId, source, sourceId, id)) - pending), pending });
    }
    const { can, pending } = left.get(id) as { can: number; pending: number };
    const take = quantityToThousandths(line.quantity);
    if (take > can) {
      const goods = await goodsWords(db, tenantId, Number(line.goodsId));
      throw fieldError(`lines.${i}.quantity`, over(i + 1, can, goods.unit, pending));
    }
    left.set(id, { can: can - take, pending });
  }
}

/**
 * The submit step's guard of a return: its stored lines within their limits less what other submitted returns
 * claim. On PostgreSQL the source document's row is taken first, so two returns of one source submit one after the
 * other and the second counts the first's claim (SQLite's writer holds the database already).
 */
function withinReturnLimit(source: DocumentDef, sourceField: string, lineField: string): Guard {
  return async (run, trx) => {
    const tenantId = run.ctx.session.tenantId;
    const sourceId = Number(run.header[sourceField]);
    if (isPostgres(trx)) await trx.selectFrom(source.header.table).select("id").where("tenant_id", "=", tenantId).where("id", "=", sourceId).forUpdate().execute();
    await refuseOverReturn(trx, tenantId, source, sourceId, lineField, run.lines, Number(run.header.id));
  };
}

/**
 * A return's source lines as a keeper recognises them: goods name (code), batch, what the line received or issued
 * and what it can still give back (`大米（G001）· 批次 B20261128-1 · 已收 50 · 可退 42.5`; `· 待审核 5 ·` before it when
 * submitted returns claim some), searched by goods name or code. Choosing one fills the return line's goods (`goodsId`).
 */
function sourceLineOptions(source: DocumentDef, lineField: string): LineOptions {
  const moved = source === warehouseIn ? "已收" : "已发";
  return async (ctx, db, sourceId, keyword) => {
    const tenantId = ctx.session.tenantId;
    const rows = (await db
      .selectFrom(`${source.lines.table} as l`)
      .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "l.tenant_id").onRef("g.id", "=", "l.goods_id"))
      .select(["l.id", "l.goods_id", "l.quantity", "g.goods_name", "g.goods_code"])
      .where("l.tenant_id", "=", tenantId)
      .where("l.document_id", "=", sourceId)
      .orderBy("l.line_no")
      .execute()) as Row[];
    const text = keyword?.toLowerCase();
    const found = text ? rows.filter((r) => String(r.goods_name).toLowerCase().includes(text) || String(r.goods_code).toLowerCase().includes(text)) : rows;
    const out: Row[] = [];
    for (const r of found.slice(0, 50)) {
      const lineId = Number(r.id);
      const batches =
        source === warehouseIn
          ? [...new Set(((await db.selectFrom("stock_batch").select("batch_no").where("tenant_id", "=", tenantId).where("in_line_id", "=", lineId).execute()) as Row[]).map((b) => String(b.batch_no)))]
          : (await issuedOf(db, tenantId, lineId)).map((b) => b.batchNo);
      const pending = await claimed(db, tenantId, source, lineField, lineId);
      const left = Math.max(0, (await returnable(db, tenantId, source, sourceId, lineId)) - pending);
      const goods = `${String(r.goods_name)}（${String(r.goods_code)}）`;
      const details = [
        ...(batches.length ? [`批次 ${batches.join("、")}`] : []),
        `${moved} ${formatQuantity(Number(r.quantity))}`,
        ...(pending > 0 ? [`待审核 ${formatQuantity(pending)}`] : []),
        `可退 ${formatQuantity(left)}`,
      ];
      // `大米（G001）· 批次 …`: no space after the full-width bracket, as the pickers' other labels write it.
      const label = `${goods}· ${details.join(" · ")}`;
      // What choosing it brings into the return's line, for the column beside the picker (`narrowedShows`).
      const shows = batches.length ? `${goods}· 批次 ${batches.join("、")}` : goods;
      out.push({ id: lineId, label, goodsId: Number(r.goods_id), goodsIdLabel: goods, shows, returnable: thousandthsToQuantity(left) });
    }
    return out;
  };
}

/** Each line's movements in the ledger: the batches it issued or returned (`allocations`, once approved). */
async function describeAllocations(ctx: SessionContext, db: AnyDb, document: Row, doc: DocumentDef) {
  const rows = (await db
    .selectFrom("stock_line")
    .select(["doc_line_id", "batch_no", "quantity", "amount"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("doc_type", "=", doc.docType)
    .where("doc_id", "=", document.id as number)
    .orderBy("id")
    .execute()) as Row[];
  const byLine = new Map<number, Row[]>();
  for (const r of rows) {
    const list = byLine.get(Number(r.doc_line_id)) ?? [];
    list.push({ batchNo: r.batch_no, quantity: thousandthsToQuantity(Math.abs(Number(r.quantity))), amount: Math.abs(Number(r.amount)) });
    byLine.set(Number(r.doc_line_id), list);
  }
  for (const line of document.lines as Row[]) line.allocations = byLine.get(Number(line.id)) ?? [];
}

const ledgers = { stock: stockLedger };
const allocators = { receiveBatches, issueFefo, returnToSupplier, returnFromIssue };
const describe = (doc: DocumentDef) => (ctx: SessionContext, db: AnyDb, document: Row) => describeAllocations(ctx, db, document, doc);

/** The server side of the stock documents, by document type (the module's manifest lists them). */
export const stockDocumentRules: Record<string, DocumentRules> = {
  // A stock-in's line is its batch (its number is on the line): it has no allocations to show.
  [warehouseIn.docType]: { ledgers, allocators, fill: fillWarehouseIn },
  [warehouseOut.docType]: {
    ledgers,
    allocators,
    fill: async (ctx, db, header, _lines, current) => {
      if (current) {
        if (header.docDate) defaultDocDate(ctx, header);
        return;
      }
      defaultDocDate(ctx, header);
      // An API client that does not say is taking goods for use (领用出库), as the form's default says.
      if (header.outKind === undefined || header.outKind === null) header.outKind = String(warehouseOut.header.fields.find((f) => f.name === "outKind")?.defaultValue);
      // Who takes it defaults to the kitchen the warehouse serves; a department or another kitchen is chosen.
      if ((header.receiverOrgId === undefined || header.receiverOrgId === null) && typeof header.warehouseId === "number") {
        const served = (await db.selectFrom("warehouse").select("restaurant_id").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", header.warehouseId).executeTakeFirst()) as Row | undefined;
        if (served?.restaurant_id != null) header.receiverOrgId = Number(served.restaurant_id);
      }
    },
    describe: describe(warehouseOut),
  },
  [warehouseInReturn.docType]: {
    ledgers,
    allocators,
    fill: fillReturn(warehouseIn, "warehouseInId", "inLineId", ["warehouseId", "supplierId"]),
    describe: describe(warehouseInReturn),
    guards: { withinReturnLimit: withinReturnLimit(warehouseIn, "warehouseInId", "inLineId") },
    lineOptions: { inLineId: sourceLineOptions(warehouseIn, "inLineId") },
  },
  [warehouseOutReturn.docType]: {
    ledgers,
    allocators,
    fill: fillReturn(warehouseOut, "warehouseOutId", "outLineId", ["warehouseId"]),
    describe: describe(warehouseOutReturn),
    guards: { withinReturnLimit: withinReturnLimit(warehouseOut, "warehouseOutId", "outLineId") },
    lineOptions: { outLineId: sourceLineOptions(warehouseOut, "outLineId") },
  },
};
