import type { Db } from "../../db";

/** Helpers of every report query file (kept apart so the query files do not import each other). */

/** Past this, a list report shows the first rows and says so; its totals still count every row. */
export const ROW_LIMIT = 5000;

const CHINA = 8 * 3600_000;
/** An instant as China time, YYYY-MM-DD HH:mm. */
export const minuteOf = (at: number) => new Date(at + CHINA).toISOString().slice(0, 16).replace("T", " ");

export async function orgNames(db: Db, tenantId: number, ids: Array<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom("org").select(["id", "org_name"]).where("tenant_id", "=", tenantId).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, r.org_name]));
}
