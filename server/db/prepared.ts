import type { Compilable, CompiledQuery, Kysely } from "kysely";

/** Stands for the query's n-th argument while it is built; its places among the compiled parameters are remembered. */
class Placeholder {
  constructor(readonly index: number) {}
}

type Slot = { index: number } | { value: unknown };
type Prepared = { query: CompiledQuery; slots: Slot[] };

const SHAPES_KEPT = 500;
// Keyed by the database's adapter, not by the Kysely instance: a transaction's (or a connection's) Kysely is a new
// instance each time, and compiles the same SQL as its database's.
const cache = new WeakMap<object, Map<string, Prepared>>();

/**
 * Runs a query built and compiled by Kysely once per shape: `key` names the shape (the tables, conditions and order
 * that `build` puts together), and `args` are the values that differ between runs. `build` gets placeholders for
 * them and must hand each to Kysely as a value, unchanged (no `String(arg)`, no `arg.length`).
 *
 * For the queries every request makes (the session lookup, a list's page and total): on SQLite, building and
 * compiling them cost about as much as running them. The compiled text is also the same string every time, so the
 * statement cache finds it without hashing a fresh one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function runPrepared<Row>(db: Kysely<any>, key: string, args: unknown[], build: (args: unknown[]) => Compilable<Row>): Promise<Row[]> {
  const adapter = db.getExecutor().adapter;
  let shapes = cache.get(adapter);
  if (!shapes) cache.set(adapter, (shapes = new Map()));
  let prepared = shapes.get(key);
  if (prepared) {
    shapes.delete(key); // kept in order of use: the least recently used shape goes first
  } else {
    const query = build(args.map((_, index) => new Placeholder(index))).compile();
    const slots = query.parameters.map((value): Slot => (value instanceof Placeholder ? { index: value.index } : { value }));
    if (new Set(slots.flatMap((slot) => ("index" in slot ? [slot.index] : []))).size !== args.length) {
      throw new Error(`runPrepared(${key}): the query does not use each of its ${args.length} arguments as a value`);
    }
    prepared = { query, slots };
    if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value as string);
  }
  shapes.set(key, prepared);
  const parameters = prepared.slots.map((slot) => ("index" in slot ? args[slot.index] : slot.value));
  return (await db.executeQuery<Row>({ ...(prepared.query as CompiledQuery<Row>), parameters })).rows;
}

/** A query of one shape, as a function of its arguments (see `runPrepared`). */
export function preparedQuery<DB, Args extends unknown[], Row>(name: string, build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>) {
  return (db: Kysely<DB>, ...args: Args): Promise<Row[]> => runPrepared(db, name, args, (placeholders) => build(db, ...(placeholders as Args)));
}

/**
 * Inserts one row, compiled once per table and list of columns (see `runPrepared`): the money path writes several
 * rows per movement (the ledger line, its document, the operation log), and building each was a cost of its own.
 * An undefined value is written as null, so a row's columns are always the same list.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertRow(db: Kysely<any>, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row);
  await runPrepared(db, `insert ${table} (${columns.join(", ")})`, columns.map((c) => row[c] ?? null), (args) =>
    db.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, args[i]]))),
  );
}
