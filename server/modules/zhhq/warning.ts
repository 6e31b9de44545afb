import { sql, type Kysely } from "kysely";
import { chinaDay, chinaDayStart, DAY_MS } from "../../../resources/chinaTime";
import { permissionCode } from "../../../resources/define";
import { thousandthsToQuantity } from "../../../resources/quantity";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { datedWarning, WARNING_KINDS, warehouseWarning, type WarningKind } from "../../../resources/zhhq/closing";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import type { Row } from "../resource/rows";
import { TRANSIT_WAREHOUSE_CODE } from "./stock";

/**
 * 库存预警 (issue 41, decision 073): what a keeper must act on, read from the stock as it stands — goods under their
 * lower threshold or over their upper one (库存上下限, per warehouse × goods), and batches with stock that expire
 * within the tenant's `zhhq.expiry.warnDays` (参数设置; 7 unless set) or already have. The transit warehouse is left
 * out: what is on the road is the transfer's, not a keeper's. A kind declared `dated` (a car's insurance and annual
 * inspection, decision 083) is read from its table's date by one query for all such kinds; it belongs to no warehouse.
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

export interface Warning {
  kind: WarningKind;
  kindLabel: string;
  /** A dated kind's row (a plate) and its list; null for the stock's kinds. */
  subject: string | null;
  link: string | null;
  warehouseId: number | null;
  warehouseName: string | null;
  goodsId: number | null;
  goodsName: string | null;
  goodsCode: string | null;
  unitName: string | null;
  /** The stock (a threshold warning) or the batch's (an expiry warning), in the goods' unit. */
  quantity: number;
  lowerQuantity: number | null;
  upperQuantity: number | null;
  batchNo: string | null;
  expiryDate: string | null;
  /** Days from today to the expiry: negative once expired. */
  days: number | null;
}

const label = (kind: WarningKind) => WARNING_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** Every warning of the tenant (of one warehouse), expired first, then expiring, then under and over the thresholds. */
export async function warnings(db: AnyDb, tenantId: number, now: number, warehouseId?: number): Promise<{ records: Warning[]; counts: Record<WarningKind, number>; warnDays: number }> {
  const days = await warnDays(db, tenantId);
  const today = chinaDay(now);
  const horizon = chinaDay(chinaDayStart(today) + days * DAY_MS);
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
  const common = (r: Row) => ({
    subject: null,
    link: null,
    warehouseId: Number(r.warehouse_id),
    warehouseName: String(r.warehouse_name ?? ""),
    goodsId: Number(r.goods_id),
    goodsName: String(r.goods_name ?? ""),
    goodsCode: String(r.goods_code ?? ""),
    unitName: (r.unit_name as string | null) ?? null,
  });
  const expiry: Warning[] = ((await batches.orderBy("b.expiry_date").orderBy("g.goods_code").execute()) as Row[]).map((r) => {
    const left = Math.round((chinaDayStart(String(r.expiry_date)) - chinaDayStart(today)) / DAY_MS);
    const kind: WarningKind = left < 0 ? "expired" : "expiring";
    return { kind, kindLabel: label(kind), ...common(r), quantity: thousandthsToQuantity(Number(r.quantity)), lowerQuantity: null, upperQuantity: null, batchNo: String(r.batch_no), expiryDate: String(r.expiry_date), days: left };
  });
  const limits: Warning[] = ((await thresholds.orderBy("g.goods_code").execute()) as Row[]).map((r) => {
    const quantity = Number(r.quantity);
    const kind: WarningKind = r.lower_quantity !== null && quantity < Number(r.lower_quantity) ? "low" : "high";
    const q = (v: unknown) => (v === null || v === undefined ? null : thousandthsToQuantity(Number(v)));
    return { kind, kindLabel: label(kind), ...common(r), quantity: thousandthsToQuantity(quantity), lowerQuantity: q(r.lower_quantity), upperQuantity: q(r.upper_quantity), batchNo: null, expiryDate: null, days: null };
  });
  const dated = warehouseId === undefined ? await datedWarnings(db, tenantId, today) : [];
  const order = WARNING_KINDS.map((k) => k.value as WarningKind);
  const records = [...expiry, ...limits, ...dated].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const counts = Object.fromEntries(order.map((k) => [k, records.filter((r) => r.kind === k).length])) as Record<WarningKind, number>;
  return { records, counts, warnDays: days };
}

/** The dated kinds' rows due within their days or past, soonest first; a retired row is left out. */
async function datedWarnings(db: AnyDb, tenantId: number, today: string): Promise<Warning[]> {
  const found: Warning[] = [];
  for (const kind of WARNING_KINDS) {
    const dated = datedWarning(kind);
    if (!dated) continue;
    let rows = db
      .selectFrom(dated.table)
      .select([`${dated.subject} as subject`, `${dated.date} as day`])
      .where("tenant_id", "=", tenantId)
      .where(dated.date, "is not", null)
      .where(dated.date, "<=", chinaDay(chinaDayStart(today) + dated.days * DAY_MS));
    if (dated.retired) rows = rows.where(dated.retired.column, "!=", dated.retired.value);
    for (const r of (await rows.orderBy(dated.date).orderBy(dated.subject).execute()) as Row[]) {
      const subject = String(r.subject);
      const days = Math.round((chinaDayStart(String(r.day)) - chinaDayStart(today)) / DAY_MS);
      found.push({ kind: kind.value, kindLabel: kind.label, subject, link: dated.link.replace("{subject}", encodeURIComponent(subject)), warehouseId: null, warehouseName: null, goodsId: null, goodsName: null, goodsCode: null, unitName: null, quantity: 0, lowerQuantity: null, upperQuantity: null, batchNo: null, expiryDate: String(r.day), days });
    }
  }
  return found;
}

const query = z.object({
  warehouseId: z.preprocess((v) => (v === "" ? undefined : v), recordId("仓库").optional()),
  kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(WARNING_KINDS.map((k) => k.value) as [WarningKind, ...WarningKind[]], { error: "预警类型不是可选的值" }).optional()),
});

export const warningEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/zhhq/warehouseWarning/findPage",
    summary: `库存预警：{ records, counts: { expired, expiring, low, high, insurance, inspection }, warnDays }。已过期与 warnDays 天内到期（租户参数 ${WARN_DAYS_CODE}，默认 7）的有库存批次，低于下限、高于上限的仓库物资，各带数量；车辆保险、年检 30 天内到期或已过期（subject 为车牌号，不属于仓库，按 warehouseId 筛选时不列出）；可按 warehouseId、kind 筛选，counts 不受 kind 影响`,
    access: permission(permissionCode(warehouseWarning, "view")),
    query,
    handle: async (ctx, { query: q }) => {
      const session = ctx as SessionContext;
      const found = await warnings(ctx.services.db as AnyDb, session.session.tenantId, ctx.now, q.warehouseId as number | undefined);
      return { ...found, records: q.kind ? found.records.filter((r) => r.kind === q.kind) : found.records };
    },
  }),
];
