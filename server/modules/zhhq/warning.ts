import { sql, type Kysely } from "kysely";
import { chinaDay, chinaDayStart, DAY_MS } from "../../../resources/chinaTime";
import { permissionCode } from "../../../resources/define";
import { thousandthsToQuantity } from "../../../resources/quantity";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { warehouseWarning } from "../../../resources/zhhq/closing";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import type { Row } from "../resource/rows";
import { TRANSIT_WAREHOUSE_CODE } from "./stock";
import { EXPIRING_DAYS, expiringLicences, QUAL_TYPE_NAMES } from "./supplierQualification";

/**
 * 库存预警 (issue 41, decision 073; decision 081): what a keeper must act on, read as things stand — goods under their
 * lower threshold or over their upper one (库存上下限, per warehouse × goods), batches with stock that expire within
 * the tenant's `zhhq.expiry.warnDays` (参数设置; 7 unless set) or already have, and supplier licences lapsing within
 * 30 days or lapsed. The transit warehouse is left out: what is on the road is the transfer's, not a keeper's. Each
 * kind comes from one source in `WARNING_SOURCES`; the screen and the home page draw whatever kinds it answers.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const WARN_DAYS_CODE = "zhhq.expiry.warnDays";
const DEFAULT_WARN_DAYS = 7;

/** The tenant's days of warning before an expiry: its parameter when a whole number 0–3650, else 7. */
export async function warnDays(db: AnyDb, tenantId: number): Promise<number> {
  const row = (await db.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", WARN_DAYS_CODE).executeTakeFirst()) as Row | undefined;
  const value = Number(String(row?.param_value ?? "").trim());
  return row && Number.isInteger(value) && value >= 0 && value <= 3650 ? value : DEFAULT_WARN_DAYS;
}

/** A kind of warning as the screen and the home page show it; `note` says its window (7 天内). */
export interface WarningKind {
  value: string;
  label: string;
  color: string;
  note?: string;
}

export interface Warning {
  kind: string;
  kindLabel: string;
  /** What it is about (仓库 · 物资, or a supplier), where to act on it, and what is wrong (a batch, a licence). */
  subject: string;
  link: string | null;
  detail: string;
  /** The batch's or the licence's last day, and days from today to it: negative once past. */
  expiryDate: string | null;
  days: number | null;
  /** Stock warnings' own: the stock (a threshold) or the batch's (an expiry), in the goods' unit. */
  warehouseId: number | null;
  warehouseName: string | null;
  goodsId: number | null;
  goodsName: string | null;
  goodsCode: string | null;
  unitName: string | null;
  quantity: number | null;
  lowerQuantity: number | null;
  upperQuantity: number | null;
  batchNo: string | null;
}

interface WarningContext {
  tenantId: number;
  today: string;
  /** The screen's warehouse filter; a source that is not per warehouse is then left out. */
  warehouseId?: number;
}

/**
 * One source of warnings: its kinds (in the order the screen shows them) and how to read them. 库存预警 and the home
 * page show every source's kinds; a new kind of warning is one source in `WARNING_SOURCES`.
 */
export interface WarningSource {
  kinds: readonly WarningKind[];
  /** A kind's note that depends on the tenant's parameters (临期: its warning days). */
  notes?: (db: AnyDb, tenantId: number) => Promise<Record<string, string>>;
  /** Whether the warehouse filter narrows it (stock does; a supplier's licence belongs to no warehouse). */
  perWarehouse: boolean;
  read: (db: AnyDb, ctx: WarningContext) => Promise<Array<Omit<Warning, "kindLabel">>>;
}

const none = { warehouseId: null, warehouseName: null, goodsId: null, goodsName: null, goodsCode: null, unitName: null, quantity: null, lowerQuantity: null, upperQuantity: null, batchNo: null } as const;
const daysUntil = (day: string, today: string) => Math.round((chinaDayStart(day) - chinaDayStart(today)) / DAY_MS);

function stockCells(r: Row) {
  const goodsName = String(r.goods_name ?? "");
  const goodsCode = String(r.goods_code ?? "");
  return {
    subject: `${String(r.warehouse_name ?? "")} · ${goodsName}（${goodsCode}）`,
    link: `/zhhq/warehouserealdetail/index?warehouseId=${r.warehouse_id}&goodsId=${r.goods_id}`,
    warehouseId: Number(r.warehouse_id),
    warehouseName: String(r.warehouse_name ?? ""),
    goodsId: Number(r.goods_id),
    goodsName,
    goodsCode,
    unitName: (r.unit_name as string | null) ?? null,
  };
}

/** Batches with stock that expire within the tenant's `zhhq.expiry.warnDays`, or already have. */
const batchExpiry: WarningSource = {
  kinds: [
    { value: "expired", label: "已过期", color: "red" },
    { value: "expiring", label: "临期", color: "orange" },
  ],
  notes: async (db, tenantId) => ({ expiring: `${await warnDays(db, tenantId)} 天内` }),
  perWarehouse: true,
  read: async (db, { tenantId, today, warehouseId }) => {
    const horizon = chinaDay(chinaDayStart(today) + (await warnDays(db, tenantId)) * DAY_MS);
    let batches = db
      .selectFrom("stock_batch as b")
      .innerJoin("warehouse as w", (j) => j.onRef("w.tenant_id", "=", "b.tenant_id").onRef("w.id", "=", "b.warehouse_id"))
      .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "b.tenant_id").onRef("g.id", "=", "b.goods_id"))
      .leftJoin("goods_unit as u", (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
      .select(["b.warehouse_id", "w.name as warehouse_name", "b.goods_id", "g.goods_name", "g.goods_code", "u.unit_name", "b.batch_no", "b.expiry_date", "b.quantity"])
      .where("b.tenant_id", "=", tenantId)
      .where("b.quantity", ">", 0)
      .where("b.expiry_date", "is not", null)
      .where("b.expiry_date", "<=", horizon)
      .where((eb) => eb.or([eb("w.warehouse_code", "is", null), eb("w.warehouse_code", "!=", TRANSIT_WAREHOUSE_CODE)]));
    if (warehouseId !== undefined) batches = batches.where("b.warehouse_id", "=", warehouseId);
    return ((await batches.orderBy("b.expiry_date").orderBy("g.goods_code").execute()) as Row[]).map((r) => {
      const left = daysUntil(String(r.expiry_date), today);
      const expired = left < 0;
      return {
        ...none,
        kind: expired ? "expired" : "expiring",
        ...stockCells(r),
        detail: `批次 ${r.batch_no}`,
        quantity: thousandthsToQuantity(Number(r.quantity)),
        batchNo: String(r.batch_no),
        expiryDate: String(r.expiry_date),
        days: left,
      };
    });
  },
};

/** Goods under their lower threshold or over their upper one (库存上下限, per warehouse × goods). */
const stockThresholds: WarningSource = {
  kinds: [
    { value: "low", label: "低于下限", color: "yellow" },
    { value: "high", label: "高于上限", color: "blue" },
  ],
  perWarehouse: true,
  read: async (db, { tenantId, warehouseId }) => {
    let thresholds = db
      .selectFrom("goods_threshold as t")
      .innerJoin("warehouse as w", (j) => j.onRef("w.tenant_id", "=", "t.tenant_id").onRef("w.id", "=", "t.warehouse_id"))
      .innerJoin("goods as g", (j) => j.onRef("g.tenant_id", "=", "t.tenant_id").onRef("g.id", "=", "t.goods_id"))
      .leftJoin("goods_unit as u", (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
      .leftJoin("stock_real as s", (j) => j.onRef("s.tenant_id", "=", "t.tenant_id").onRef("s.warehouse_id", "=", "t.warehouse_id").onRef("s.goods_id", "=", "t.goods_id"))
      .select(["t.warehouse_id", "w.name as warehouse_name", "t.goods_id", "g.goods_name", "g.goods_code", "u.unit_name", "t.lower_quantity", "t.upper_quantity", sql<number>`coalesce(s.quantity, 0)`.as("quantity")])
      .where("t.tenant_id", "=", tenantId)
      .where((eb) =>
        eb.or([
          eb.and([eb("t.lower_quantity", "is not", null), eb(sql`coalesce(s.quantity, 0)`, "<", eb.ref("t.lower_quantity"))]),
          eb.and([eb("t.upper_quantity", "is not", null), eb(sql`coalesce(s.quantity, 0)`, ">", eb.ref("t.upper_quantity"))]),
        ]),
      );
    if (warehouseId !== undefined) thresholds = thresholds.where("t.warehouse_id", "=", warehouseId);
    const q = (v: unknown) => (v === null || v === undefined ? null : thousandthsToQuantity(Number(v)));
    return ((await thresholds.orderBy("g.goods_code").execute()) as Row[]).map((r) => {
      const quantity = Number(r.quantity);
      const low = r.lower_quantity !== null && quantity < Number(r.lower_quantity);
      return {
        ...none,
        kind: low ? "low" : "high",
        ...stockCells(r),
        detail: low ? `下限 ${q(r.lower_quantity)}` : `上限 ${q(r.upper_quantity)}`,
        quantity: thousandthsToQuantity(quantity),
        lowerQuantity: q(r.lower_quantity),
        upperQuantity: q(r.upper_quantity),
        expiryDate: null,
        days: null,
      };
    });
  },
};

/** Supplier licences lapsed or lapsing within 30 days and not renewed (the list 资质预警 shows, decision 076). */
const supplierLicences: WarningSource = {
  kinds: [{ value: "licence", label: "资质到期", color: "grape", note: `${EXPIRING_DAYS} 天内` }],
  perWarehouse: false,
  read: async (db, { tenantId, today }) =>
    (await expiringLicences(db, tenantId, chinaDayStart(today))).map((l) => ({
      ...none,
      kind: "licence",
      subject: l.supplierName,
      link: `/zhhq/supplierqualification/index?supplierId=${l.supplierId}`,
      detail: `${QUAL_TYPE_NAMES[l.qualType] ?? ""} ${l.qualNo}`,
      expiryDate: l.validTo,
      days: l.daysLeft,
    })),
};

/** Days before a car's insurance or annual inspection ends that it is listed (issue 36), and after, until renewed. */
const VEHICLE_WARN_DAYS = 30;

/** Cars (not 停用) whose insurance or annual inspection ends within 30 days or has ended: the dispatch refuses them once past. */
const vehicleDates: WarningSource = {
  kinds: [
    { value: "insurance", label: "保险到期", color: "grape", note: `${VEHICLE_WARN_DAYS} 天内` },
    { value: "inspection", label: "年检到期", color: "violet", note: `${VEHICLE_WARN_DAYS} 天内` },
  ],
  perWarehouse: false,
  read: async (db, { tenantId, today }) => {
    const horizon = chinaDay(chinaDayStart(today) + VEHICLE_WARN_DAYS * DAY_MS);
    const due = async (kind: "insurance" | "inspection", column: "insurance_expiry" | "inspection_expiry", what: string) =>
      ((await db
        .selectFrom("vehicle")
        .select(["plate_no", `${column} as day`])
        .where("tenant_id", "=", tenantId)
        .where("status", "!=", 0)
        .where(column, "is not", null)
        .where(column, "<=", horizon)
        .orderBy(column)
        .orderBy("plate_no")
        .execute()) as Row[]).map((r) => ({
        ...none,
        kind,
        subject: String(r.plate_no),
        link: `/zhhq/vehicles/index?plateNo=${encodeURIComponent(String(r.plate_no))}`,
        detail: `车辆${what}`,
        expiryDate: String(r.day),
        days: daysUntil(String(r.day), today),
      }));
    return [...(await due("insurance", "insurance_expiry", "保险")), ...(await due("inspection", "inspection_expiry", "年检"))];
  },
};

/** Every kind of warning 库存预警 and the home page show, in order: one source a line. */
export const WARNING_SOURCES: readonly WarningSource[] = [batchExpiry, stockThresholds, supplierLicences, vehicleDates];

const KIND_VALUES = WARNING_SOURCES.flatMap((s) => s.kinds.map((k) => k.value));

/** The kinds of every source, in order, with the tenant's notes. */
async function warningKinds(db: AnyDb, tenantId: number): Promise<WarningKind[]> {
  const notes = Object.assign({}, ...(await Promise.all(WARNING_SOURCES.map((s) => s.notes?.(db, tenantId) ?? {})))) as Record<string, string>;
  return WARNING_SOURCES.flatMap((s) => s.kinds.map((k) => (notes[k.value] ? { ...k, note: notes[k.value] } : k)));
}

/** Every warning of the tenant (of one warehouse: the sources per warehouse), in the kinds' order. */
export async function warnings(db: AnyDb, tenantId: number, now: number, warehouseId?: number): Promise<{ records: Warning[]; kinds: Array<WarningKind & { count: number }>; counts: Record<string, number>; warnDays: number }> {
  const ctx = { tenantId, today: chinaDay(now), warehouseId };
  const sources = WARNING_SOURCES.filter((s) => warehouseId === undefined || s.perWarehouse);
  const [found, kinds, days] = await Promise.all([Promise.all(sources.map((s) => s.read(db, ctx))), warningKinds(db, tenantId), warnDays(db, tenantId)]);
  const order = kinds.map((k) => k.value);
  const records = found
    .flat()
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((r) => ({ ...r, kindLabel: kinds.find((k) => k.value === r.kind)?.label ?? r.kind }));
  const counts = Object.fromEntries(order.map((k) => [k, records.filter((r) => r.kind === k).length]));
  return { records, kinds: kinds.map((k) => ({ ...k, count: counts[k.value] })), counts, warnDays: days };
}

const query = z.object({
  warehouseId: z.preprocess((v) => (v === "" ? undefined : v), recordId("仓库").optional()),
  kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(KIND_VALUES as [string, ...string[]], { error: "预警类型不是可选的值" }).optional()),
});

export const warningEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/zhhq/warehouseWarning/findPage",
    summary: `库存预警：{ records, kinds: [{ value, label, color, note, count }], counts: { ${KIND_VALUES.join(", ")} }, warnDays }。已过期与 warnDays 天内到期（租户参数 ${WARN_DAYS_CODE}，默认 7）的有库存批次，低于下限、高于上限的仓库物资，各带数量；${EXPIRING_DAYS} 天内到期或已过期的供应商资质（licence，不分仓库：按仓库查询时不列）；可按 warehouseId、kind（${KIND_VALUES.join("、")}）筛选，counts 不受 kind 影响`,
    access: permission(permissionCode(warehouseWarning, "view")),
    query,
    handle: async (ctx, { query: q }) => {
      const session = ctx as SessionContext;
      const found = await warnings(ctx.services.db as AnyDb, session.session.tenantId, ctx.now, q.warehouseId as number | undefined);
      return { ...found, records: q.kind ? found.records.filter((r) => r.kind === q.kind) : found.records };
    },
  }),
];
