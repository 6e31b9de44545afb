import { builtInDicts } from "../../resources/dicts";
import { columnOf, type FieldDef, type FieldType, type ResourceDef } from "../../resources/define";
import { findResource } from "../../resources/index";
import type { ColumnSpec, ColumnType, ForeignKeySpec, TableSpec } from "./tables";

/**
 * The table a declaration implies (decision 014): its columns, keys and references, and its row type. A new
 * entity's migration is written from this (`npm run migration:new`), and tests/server/declared-schema.test.ts fails
 * when a migrated database and a declaration disagree.
 */
const INT4_MAX = 2_147_483_647;

/** Enum columns hold integers when every value of the dictionary is one, text otherwise. */
function enumColumnType(dict: string | undefined): ColumnType {
  const options = dict ? builtInDicts[dict]?.options : undefined;
  return options?.length && options.every((o) => /^-?\d+$/.test(o.value)) ? "integer" : "text";
}

export function columnType(field: FieldDef): ColumnType {
  switch (field.type) {
    case "money":
    case "quantity":
    case "relation":
    case "treeParent":
    case "datetime":
      return "bigint";
    case "number":
      return field.max !== undefined && field.max <= INT4_MAX && (field.min ?? 0) >= -INT4_MAX ? "integer" : "bigint";
    case "boolean":
      return "integer";
    case "enum":
      return enumColumnType(field.dict);
    default:
      return "text";
  }
}

function columnDefault(field: FieldDef, type: ColumnType): string | number | undefined {
  if (!field.required || field.defaultValue === undefined) return undefined;
  if (type === "text") return String(field.defaultValue);
  return typeof field.defaultValue === "boolean" ? Number(field.defaultValue) : Number(field.defaultValue);
}

const audit: ColumnSpec[] = [
  { name: "created_at", type: "bigint", notNull: true },
  { name: "created_by", type: "bigint", notNull: false },
  { name: "updated_at", type: "bigint", notNull: true },
  { name: "updated_by", type: "bigint", notNull: false },
];

/** `find` finds the declarations relations name (the declared entities; a test adds its own documents). */
export function declaredTable(def: ResourceDef, find: (key: string) => ResourceDef | undefined = findResource): TableSpec {
  const tenant = def.scope === "tenant";
  const scoped = (columns: string[]) => (tenant ? ["tenant_id", ...columns] : columns);
  const columns: ColumnSpec[] = [
    ...(tenant ? [{ name: "tenant_id", type: "bigint" as const, notNull: true }] : []),
    { name: "id", type: "bigint", notNull: true },
  ];
  for (const field of def.fields) {
    const type = columnType(field);
    const value = columnDefault(field, type);
    columns.push({ name: columnOf(field), type, notNull: field.required === true, ...(value !== undefined ? { default: value } : {}) });
  }
  columns.push(...audit);
  // `id` may end an index, as the tiebreak of a list's order (findPage sorts by a field, then id).
  const byName = (name: string) => (name === "id" ? "id" : columnOf(def.fields.find((f) => f.name === name) as FieldDef));
  const unique = [
    ...def.fields.filter((f) => f.unique).map((f) => scoped([columnOf(f)])),
    ...(def.uniqueKeys ?? []).map((key) => scoped(key.fields.map(byName))),
  ];
  const foreignKeys: ForeignKeySpec[] = tenant ? [{ columns: ["tenant_id"], table: "tenant", to: ["id"] }] : [];
  const indexes: string[][] = (def.indexes ?? []).map((fields) => scoped(fields.map(byName)));
  for (const field of def.fields.filter((f) => RELATIONS.has(f.type) && f.relation)) {
    const target = find(field.relation as string);
    if (!target) throw new Error(`${def.table}.${columnOf(field)}: relation ${field.relation} is not declared`);
    const targetTenant = target.scope === "tenant";
    foreignKeys.push({
      columns: targetTenant ? scoped([columnOf(field)]) : [columnOf(field)],
      table: target.table,
      to: targetTenant ? ["tenant_id", "id"] : ["id"],
      ...(field.onDelete ? { onDelete: field.onDelete } : {}),
    });
    const lookup = scoped([columnOf(field)]);
    if (![...unique, ...indexes].some((key) => lookup.every((c, i) => key[i] === c))) indexes.push(lookup);
  }
  return { name: def.table, tenant, columns, unique, foreignKeys, indexes };
}

const RELATIONS = new Set<FieldType>(["relation", "treeParent"]);

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;
type ColumnName<F extends FieldDef> = F extends { column: infer C extends string } ? C : Snake<F["name"]>;
type ValueOf<F extends FieldDef> = F["type"] extends "money" | "quantity" | "number" | "relation" | "treeParent" | "datetime" | "boolean"
  ? number
  : F["type"] extends "enum"
    ? string | number
    : string;

/** A declared table's row, as Kysely types it (server/db/schema.ts lists the declared tables through this). */
export type DeclaredRow<D extends ResourceDef> = {
  [F in D["fields"][number] as ColumnName<F>]: F extends { required: true } ? ValueOf<F> : ValueOf<F> | null;
} & (D["scope"] extends "tenant" ? { tenant_id: number } : unknown) & {
  id: number;
  created_at: number;
  created_by: number | null;
  updated_at: number;
  updated_by: number | null;
};

export type DeclaredTables<R extends readonly ResourceDef[]> = { [D in R[number] as D["table"]]: DeclaredRow<D> };
