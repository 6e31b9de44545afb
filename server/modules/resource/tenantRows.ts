import { sql, type Kysely } from "kysely";
import { columnOf, type FieldDef, type ResourceDef } from "../../../resources/define";
import type { DictItem } from "../../../resources/dicts";
import { resources } from "../../../resources/index";

/**
 * What declarations say about each tenant's own rows (decision 064): the rows a tenant starts with (`tenantRows`),
 * and the tables whose rows are a dictionary of the tenant (`dictionary`), read here for the shell, the exports, the
 * reports and the checks of enum fields that name them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const column = (def: ResourceDef, name: string) => columnOf(def.fields.find((f) => f.name === name) as FieldDef);

/** The declarations whose rows are a tenant's dictionary, by its code. */
const dictionaries = new Map(resources.filter((r) => r.dictionary).map((r) => [r.dictionary?.code as string, r]));

export function isTenantDict(code: string): boolean {
  return dictionaries.has(code);
}

/**
 * The tenant's items of its dictionaries (all, or those of `codes`) in the declared order: the rows in use (status 1),
 * what a form offers and a new value must be one of; with `stopped`, every row, to name what old records hold.
 */
export async function tenantDictItems(db: AnyDb, tenantId: number, codes?: readonly string[], stopped = false): Promise<DictItem[]> {
  const items: DictItem[] = [];
  for (const [code, def] of dictionaries) {
    if (codes && !codes.includes(code)) continue;
    const spec = def.dictionary as NonNullable<ResourceDef["dictionary"]>;
    const sort = def.defaultSort ? column(def, def.defaultSort.field) : "id";
    let query = db
      .selectFrom(def.table)
      .select([sql<string>`${sql.ref(column(def, spec.value))}`.as("value"), sql<string>`${sql.ref(column(def, spec.text))}`.as("text")])
      .where("tenant_id", "=", tenantId);
    if (!stopped) query = query.where("status", "=", 1);
    const rows = (await query.orderBy(sort).orderBy("id").execute()) as Array<{ value: string; text: string }>;
    for (const r of rows) items.push({ dictCode: code, itemValue: String(r.value), itemText: r.text });
  }
  return items;
}

/** Every declared row a tenant starts with, written for one tenant (ids 1, 2, … in each table, as the migrations wrote them). */
export async function writeTenantRows(db: AnyDb, tenantId: number, now: number, userId: number | null): Promise<void> {
  for (const def of resources.filter((r) => r.tenantRows?.length)) {
    const rows = (def.tenantRows ?? []).map((row, index) => ({
      tenant_id: tenantId,
      id: index + 1,
      ...Object.fromEntries(Object.entries(row).map(([name, value]) => [column(def, name), value])),
      created_at: now,
      created_by: userId,
      updated_at: now,
      updated_by: userId,
    }));
    await db
      .insertInto(def.table)
      .values(rows)
      .onConflict((oc) => oc.columns(["tenant_id", "id"]).doNothing())
      .execute();
  }
}
