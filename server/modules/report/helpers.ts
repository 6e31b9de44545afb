import { sql } from "kysely";
import type { Db } from "../../db";
import { chinaMinute } from "../../../resources/chinaTime";

/** Helpers of every report query file (kept apart so the query files do not import each other). */

/** Past this, a list report shows the first rows and says so; its totals still count every row. */
export const ROW_LIMIT = 5000;

/**
 * 人员编号 in code-point order: the order the diner pages read from the database on both (decision 041), so every
 * report lists diners alike. A plain comparison; `localeCompare` is the locale's order, not the database's.
 */
export const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Names (restaurants, departments, dishes) in Chinese order: `localeCompare(…, "zh-CN")`'s, with one collator made once, not per comparison. */
export const zhOrder = new Intl.Collator("zh-CN").compare;

/** An instant as China time, YYYY-MM-DD HH:mm. */
export const minuteOf = chinaMinute;

/** A sum that is 0, not null, over no rows (PostgreSQL answers it as text: the callers take Number of it). */
export const sumOf = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(sum(${expression}), 0)`;

/** The names of these orgs (restaurants, stalls, departments) of the tenant, by id. */
export async function orgNames(db: Db, tenantId: number, ids: Array<number | string | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null).map(Number))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom("org").select(["id", "org_name"]).where("tenant_id", "=", tenantId).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [Number(r.id), r.org_name]));
}

export interface DinerName {
  userCode: string;
  userName: string;
  staffType: string | null;
  /** "" when the diner has no department. */
  deptName: string;
}

/** The diners of these ids with their department's name: named after the sums, never joined per order. */
export async function dinersOf(db: Db, tenantId: number, ids: Array<number | string>): Promise<Map<number, DinerName>> {
  const wanted = [...new Set(ids.map(Number))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom("user_info").select(["id", "user_code", "user_name", "dept_id", "staff_type"]).where("tenant_id", "=", tenantId).where("id", "in", wanted).execute();
  const depts = await orgNames(db, tenantId, rows.map((r) => r.dept_id ?? null));
  return new Map(rows.map((r) => [Number(r.id), { userCode: r.user_code, userName: r.user_name, staffType: r.staff_type ?? null, deptName: r.dept_id ? (depts.get(Number(r.dept_id)) ?? "") : "" }]));
}
