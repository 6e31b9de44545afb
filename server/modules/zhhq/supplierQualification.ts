import type { Kysely } from "kysely";
import { chinaDay, chinaDayStart, DAY_MS } from "../../../resources/chinaTime";
import { ApiError, Status } from "../../http/envelope";

/**
 * A supplier's licences and the rule a delivery from it must pass (issue 35, decision 076). One function,
 * `requireSupplierQualified`, is what a stock-in's approval calls (server/modules/zhhq/stock.ts, receiveBatches) and
 * what a purchase receipt calls the same way: a supplier may deliver food only with a business licence (营业执照) and a
 * food operating or production licence (食品经营许可证 or 食品生产许可证) in force on the document's date. The tenant
 * parameter `zhhq.supplier.qualificationCheck` decides what a failure does: `refuse` (the default) is a 409 naming the
 * licence; `warn` lets the document post with the problem written on it; `off` checks nothing.
 */

// The licences live in a declared table (zhhq/supplierQualification); callers pass their transaction or the database.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const QUALIFICATION_CHECK_PARAM = "zhhq.supplier.qualificationCheck";
export type QualificationCheckMode = "refuse" | "warn" | "off";

/** Licence types (dictionary supplierQualType). */
export const QualType = { BUSINESS: 1, FOOD_TRADE: 2, FOOD_PRODUCTION: 3, INSPECTION: 4, OTHER: 9 } as const;
export const QUAL_TYPE_NAMES: Record<number, string> = { 1: "营业执照", 2: "食品经营许可证", 3: "食品生产许可证", 4: "检验检疫证明", 9: "其他资质" };

/** What a supplier must hold: each entry is satisfied by any one of its types. */
export const REQUIRED_QUALIFICATIONS: ReadonlyArray<readonly number[]> = [[QualType.BUSINESS], [QualType.FOOD_TRADE, QualType.FOOD_PRODUCTION]];

/** Licences expiring within this many days are listed as warnings (预警). */
export const EXPIRING_DAYS = 30;

export const qualificationMessages = {
  refused: (supplier: string, problems: string[]) => `供应商「${supplier}」资质不符，不能入库：${problems.join("；")}`,
  missing: (types: readonly number[]) => `缺少${types.map((t) => QUAL_TYPE_NAMES[t]).join("或")}`,
  expired: (type: number, no: string, validTo: string) => `${QUAL_TYPE_NAMES[type]}（编号 ${no}）已于 ${validTo} 到期`,
  notYet: (type: number, no: string, validFrom: string) => `${QUAL_TYPE_NAMES[type]}（编号 ${no}）自 ${validFrom} 起才生效`,
  note: (problems: string[]) => `资质预警：${problems.join("；")}`,
};

export interface Licence {
  id: number;
  qualType: number;
  qualNo: string;
  validFrom: string | null;
  validTo: string | null;
}

/** Whether a licence is in force on a China day (valid from and to inclusive; no end date is open-ended). */
export const inForce = (l: Pick<Licence, "validFrom" | "validTo">, day: string) => (!l.validFrom || l.validFrom <= day) && (!l.validTo || l.validTo >= day);

/** A supplier's licences, by type (营业执照 first) and number. */
export async function licencesOf(db: AnyDb, tenantId: number, supplierId: number): Promise<Licence[]> {
  const rows = await db
    .selectFrom("supplier_qualification")
    .select(["id", "qual_type", "qual_no", "valid_from", "valid_to"])
    .where("tenant_id", "=", tenantId)
    .where("supplier_id", "=", supplierId)
    .orderBy("qual_type")
    .orderBy("qual_no")
    .execute();
  return rows.map((r) => ({ id: Number(r.id), qualType: Number(r.qual_type), qualNo: String(r.qual_no), validFrom: r.valid_from ?? null, validTo: r.valid_to ?? null }));
}

/**
 * What keeps a supplier from delivering on a day: for each required licence none of whose types is in force, the
 * closest reason (one that has lapsed, one not yet in force, or none at all). Empty when it may deliver.
 */
export function qualificationProblems(licences: Licence[], day: string): string[] {
  const problems: string[] = [];
  for (const types of REQUIRED_QUALIFICATIONS) {
    const held = licences.filter((l) => types.includes(l.qualType));
    if (held.some((l) => inForce(l, day))) continue;
    const lapsed = held.filter((l) => l.validTo && l.validTo < day).sort((a, b) => String(b.validTo).localeCompare(String(a.validTo)))[0];
    const early = held.find((l) => l.validFrom && l.validFrom > day);
    problems.push(
      lapsed ? qualificationMessages.expired(lapsed.qualType, lapsed.qualNo, String(lapsed.validTo)) : early ? qualificationMessages.notYet(early.qualType, early.qualNo, String(early.validFrom)) : qualificationMessages.missing(types),
    );
  }
  return problems;
}

/** The tenant's `zhhq.supplier.qualificationCheck`: `refuse` unless it says `warn` or `off`. */
export async function qualificationCheckMode(db: AnyDb, tenantId: number): Promise<QualificationCheckMode> {
  const row = await db.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", QUALIFICATION_CHECK_PARAM).executeTakeFirst();
  const value = String(row?.param_value ?? "").trim();
  return value === "warn" || value === "off" ? value : "refuse";
}

/**
 * The rule of a delivery (a stock-in's approval; a purchase receipt's): a supplier's licences on the document's day.
 * Refuses with 409 naming the licence, or — where the tenant only warns — answers the note the document keeps
 * (null when all is in order, the check is off or the document names no supplier).
 */
export async function requireSupplierQualified(db: AnyDb, tenantId: number, supplierId: number | null | undefined, day: string): Promise<string | null> {
  if (supplierId === null || supplierId === undefined) return null;
  const mode = await qualificationCheckMode(db, tenantId);
  if (mode === "off") return null;
  const problems = qualificationProblems(await licencesOf(db, tenantId, Number(supplierId)), day);
  if (!problems.length) return null;
  if (mode === "warn") return qualificationMessages.note(problems);
  const supplier = await db.selectFrom("supplier").select("supplier_name").where("tenant_id", "=", tenantId).where("id", "=", supplierId).executeTakeFirst();
  throw new ApiError(Status.CONFLICT, qualificationMessages.refused(String(supplier?.supplier_name ?? supplierId), problems));
}

export interface ExpiringLicence {
  supplierId: number;
  supplierName: string;
  qualType: number;
  qualNo: string;
  validTo: string;
  /** Days from today (China) to its last valid day: negative once it has lapsed. */
  daysLeft: number;
}

/**
 * Licences that lapse within `EXPIRING_DAYS` of today or have lapsed (and are not replaced by a licence of the same
 * type that is in force): 资质预警 (a report of its own; 库存预警 is stock and batches, decision 073).
 */
export async function expiringLicences(db: AnyDb, tenantId: number, now: number): Promise<ExpiringLicence[]> {
  const today = chinaDay(now);
  const horizon = chinaDay(chinaDayStart(today) + EXPIRING_DAYS * DAY_MS);
  const rows = await db
    .selectFrom("supplier_qualification as q")
    .innerJoin("supplier as s", (j) => j.onRef("s.tenant_id", "=", "q.tenant_id").onRef("s.id", "=", "q.supplier_id"))
    .select(["q.supplier_id", "s.supplier_name", "q.qual_type", "q.qual_no", "q.valid_from", "q.valid_to"])
    .where("q.tenant_id", "=", tenantId)
    .where("q.valid_to", "is not", null)
    .where("q.valid_to", "<=", horizon)
    .orderBy("q.valid_to")
    .execute();
  // A licence renewed already (another of its type in force past the horizon) is no warning.
  const renewed = await db
    .selectFrom("supplier_qualification")
    .select(["supplier_id", "qual_type"])
    .where("tenant_id", "=", tenantId)
    .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">", horizon)]))
    .where((eb) => eb.or([eb("valid_from", "is", null), eb("valid_from", "<=", today)]))
    .execute();
  const replaced = new Set(renewed.map((r) => `${r.supplier_id}:${r.qual_type}`));
  return rows
    .filter((r) => !replaced.has(`${r.supplier_id}:${r.qual_type}`))
    .map((r) => ({
      supplierId: Number(r.supplier_id),
      supplierName: String(r.supplier_name),
      qualType: Number(r.qual_type),
      qualNo: String(r.qual_no),
      validTo: String(r.valid_to),
      daysLeft: Math.round((chinaDayStart(String(r.valid_to)) - chinaDayStart(today)) / DAY_MS),
    }));
}
