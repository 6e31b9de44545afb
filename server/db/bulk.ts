import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from "kysely";

/**
 * Statements over many rows at once, for a posting of hundreds of lines (decision 085): one statement per chunk
 * instead of one per row, so a document costs a bounded number of round trips on PostgreSQL and of statements on
 * SQLite. A chunk stays under both databases' parameter limits (SQLite 32,766, PostgreSQL 65,535).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const PARAMETERS_PER_STATEMENT = 30_000;

/** Splits `rows` into chunks whose statements stay under the parameter limit at `perRow` parameters a row. */
export function chunksOf<T>(rows: readonly T[], perRow: number, most = Number.POSITIVE_INFINITY): T[][] {
  const size = Math.max(1, Math.min(most, Math.floor(PARAMETERS_PER_STATEMENT / Math.max(1, perRow))));
  const out: T[][] = [];
  for (let at = 0; at < rows.length; at += size) out.push(rows.slice(at, at + size));
  return out;
}

/**
 * SQLite nests `a or b or c …` one level a term and refuses a statement past 1,000 levels ("Expression tree is too
 * large"): a stocktake of 2,000 goods read its balances in one such list and failed with a 500.
 */
const OR_TERMS_PER_STATEMENT = 500;

/** As `chunksOf`, for a statement matching each row by its own `or` term (`anyKey`); `perRow` counts its tenant. */
export function orChunksOf<T>(rows: readonly T[], perRow: number): T[][] {
  return chunksOf(rows, perRow, OR_TERMS_PER_STATEMENT);
}

/**
 * Rows of a tenant with any of these keys (each the values of `columns`), the tenant inside each term: with it outside,
 * SQLite without statistics for the table (ANALYZE never runs in production) reads every row of the tenant through an
 * index led by `tenant_id` and tests the terms on each — 400,000 batches for a 350-line stock-out. Inside, each term
 * is one seek of the (tenant, key…) index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function anyKey(eb: ExpressionBuilder<any, any>, tenantId: number, columns: readonly string[], keys: ReadonlyArray<readonly unknown[]>) {
  return eb.or(keys.map((key) => eb.and([eb("tenant_id", "=", tenantId), ...columns.map((c, i) => eb(c, "=", key[i]))])));
}

/**
 * Inserts rows (each with the same columns) in multi-row statements; with `ignoreOn`, a row whose unique key on
 * those columns exists already is left as it is (opening balances that may be there).
 */
export async function insertRows(db: AnyDb, table: string, rows: Array<Record<string, unknown>>, ignoreOn?: string[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  for (const chunk of chunksOf(rows, columns.length)) {
    const values = chunk.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])));
    let q = db.insertInto(table).values(values);
    if (ignoreOn) q = q.onConflict((oc) => oc.columns(ignoreOn).doNothing());
    await q.execute();
  }
}

/** How a value list's column is typed: PostgreSQL types a parameter in VALUES only by a cast. */
export type ValueType = "bigint" | "text";

export interface UpdateFromValues {
  table: string;
  tenantId: number;
  /** The value list's columns, in order, with their types; `match` names those that find the row (table column = value). */
  columns: Record<string, ValueType>;
  match: string[];
  rows: Array<Record<string, unknown>>;
  /** Column → new value, from the row's columns and the value list's (`v("name")`). */
  set: (v: (name: string) => RawBuilder<unknown>) => Record<string, RawBuilder<unknown>>;
  /** A condition every updated row must meet (a floor): a row that fails it is not updated, and not counted. */
  where?: (v: (name: string) => RawBuilder<unknown>) => RawBuilder<unknown>;
}

/**
 * `update T set … from (values …) v where T.tenant_id = ? and T.k = v.k …`, chunked: many rows, each its own
 * values, in one statement a chunk (SQLite ≥ 3.33 and PostgreSQL both take UPDATE … FROM). The value list's columns
 * are `column1…` on both. Answers how many rows it changed, so a caller can refuse when a floor held one back.
 */
export async function updateFromValues(db: AnyDb, spec: UpdateFromValues): Promise<number> {
  const names = Object.keys(spec.columns);
  const v = (name: string) => {
    const at = names.indexOf(name);
    if (at < 0) throw new Error(`updateFromValues(${spec.table}): no value column ${name}`);
    return sql.raw(`v.column${at + 1}`);
  };
  const table = sql.table(spec.table);
  const assignments = Object.entries(spec.set(v)).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  const matches = spec.match.map((column) => sql`${table}.${sql.ref(column)} = ${v(column)}`);
  let changed = 0;
  for (const chunk of chunksOf(spec.rows, names.length)) {
    const values = chunk.map((row) => sql`(${sql.join(names.map((n) => sql`cast(${row[n] ?? null} as ${sql.raw(spec.columns[n])})`))})`);
    const where = [sql`${table}.tenant_id = ${spec.tenantId}`, ...matches, ...(spec.where ? [spec.where(v)] : [])];
    const result = await sql`update ${table} set ${sql.join(assignments)} from (values ${sql.join(values)}) as v where ${sql.join(where, sql` and `)}`.execute(db);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}
