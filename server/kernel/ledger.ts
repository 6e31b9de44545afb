import { PostgresAdapter, sql, type Kysely } from "kysely";
import { newId } from "../db";
import { anyKey, insertRows, orChunksOf, updateFromValues, type ValueType } from "../db/bulk";
import { insertRow, runPrepared } from "../db/prepared";
import { inTransaction } from "../db/transaction";
import { ApiError, Status } from "../http/envelope";

/**
 * A ledger declared as data (decision 059): a balance table, a line table, the key of a balance beside tenant_id,
 * one or two signed integer measures, a floor, locked periods, the ledger's own line columns and its projections.
 * Money, points and (issue 34's logistics) stock are instances. Every change of a balance is `post`: one line and a
 * conditional update of the balance row in the caller's write transaction (inWriteTransaction); lines are never
 * edited or deleted, a mistake is undone by a line of the opposite sign (`reverse`).
 *
 * Table and column names come from the declaration, not from the schema's types: a ledger's tables are its own.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

/** One posting. `quantity` is the first measure (money: fen; points: points; stock: thousandths), signed. */
export interface LedgerEntry {
  tenantId: number;
  /** The balance's key, by the declaration's key names: `{ userInfoId: 7, accountType: "cash" }`. */
  key: Record<string, string | number>;
  quantity: number;
  /** The second measure, for a ledger that declares one (stock: fen); signed like `quantity`. */
  amount?: number;
  /** The document the line belongs to (written when the ledger has the column). */
  docType: string | null;
  docId: number | null;
  docLineId?: number | null;
  /** When the movement counts (its period); now unless given. */
  occurredAt?: number;
  operatorId?: number | null;
  operatorName?: string | null;
  remark?: string | null;
  idempotencyKey?: string | null;
  /** The line this one undoes (`reverse` sets it). */
  reversalOf?: number | null;
  /** How far below zero a rule lets this posting go (≥ 0), for a ledger whose floor reads it (money's pay limits). */
  creditLimit?: number;
  /** The ledger's own line columns, by the declaration's names. */
  extra?: Record<string, unknown>;
}

/** A line as posted: the entry with its id, moment and the balance after it. */
export interface PostedLine extends LedgerEntry {
  id: number;
  occurredAt: number;
  balanceAfter: number;
  amountAfter?: number;
  /** The balance row's id, for a ledger whose balances have one. */
  balanceId?: number;
}

/** A figure kept from the lines (a day or month roll-up): counted in each posting's transaction, recounted from the lines. */
export interface Projection {
  name: string;
  apply(trx: AnyDb, line: PostedLine): Promise<void>;
  /** The lines of one `postMany` at once (a document's), in a bounded number of statements; `apply` for each unless given. */
  applyMany?(trx: AnyDb, lines: PostedLine[]): Promise<void>;
  /** Counts afresh from the lines, one tenant's or all. */
  recount(db: AnyDb, tenantId?: number): Promise<void>;
  /**
   * The kept rows that differ from their lines, for a projection that must always agree with them (stock's batches,
   * decision 068): the ledger's `check` adds them to its own.
   */
  check?(db: AnyDb, tenantId?: number): Promise<LedgerDrift[]>;
}

/** A measure's column in the balance table and in the line table (and the line's "after" column, if kept). */
export interface Measure {
  balance: string;
  line: string;
  after?: string;
}

/** Line columns the entry fills, by entry field; a field whose column is not declared is not written. */
type LineColumn = "docType" | "docId" | "docLineId" | "operatorId" | "operatorName" | "remark" | "idempotencyKey" | "reversalOf" | "balanceId";

export interface LedgerDeclaration {
  /** Names the ledger's prepared statements. */
  name: string;
  balances: {
    table: string;
    /** The balance row's id column, if it has one (money's lines name it: account_id). */
    id?: string;
    /** Whether the first posting of a key opens its balance at zero; otherwise a missing balance is refused. */
    opens: boolean;
  };
  lines: { table: string; columns: Partial<Record<LineColumn, string>> };
  /** Key name → column, the same column name in both tables. */
  key: Record<string, string>;
  quantity: Measure;
  amount?: Measure;
  /** Extra name → line column. */
  extra?: Record<string, string>;
  /** The lowest the first measure may reach after a posting; 0 unless given. */
  floor?: (entry: LedgerEntry) => number;
  /** Whether a posting of 0 is allowed (points: a take-back that found nothing left still records its refund). */
  allowsZero?: (entry: LedgerEntry) => boolean;
  /** The locked period a moment falls in (its name, shown in the refusal), or null. Runs in the posting's transaction. */
  lockedPeriod?: (trx: AnyDb, tenantId: number, occurredAt: number) => Promise<string | null>;
  /** What a posting takes before it reads or writes anything (money: the diner's row, on PostgreSQL). */
  lockFirst?: (trx: AnyDb, entry: LedgerEntry) => Promise<void>;
  /** The extra columns of a reversal, from those of the line it undoes (money: busiType 冲正). */
  reversalExtra?: (extra: Record<string, unknown>) => Record<string, unknown>;
  projections?: readonly Projection[];
  messages: {
    insufficient: string;
    zero: string;
    /** A key without a balance, for a ledger that does not open them. */
    missing?: string;
    locked?: (period: string) => string;
    reversed?: string;
    reversalOfReversal?: string;
    lineMissing?: string;
  };
}

/** A key whose balance differs from the sum of its lines. */
export interface LedgerDrift {
  tenantId: number;
  key: Record<string, string | number>;
  measure: "quantity" | "amount";
  balance: number;
  lines: number;
}

export interface Ledger {
  readonly declaration: LedgerDeclaration;
  post(trx: AnyDb, entry: LedgerEntry): Promise<PostedLine>;
  /**
   * Posts many entries as `post` would one after the other (the same lines, "after" figures, refusals and
   * projections), in a bounded number of statements: a document's lines (decision 085).
   */
  postMany(trx: AnyDb, entries: LedgerEntry[]): Promise<PostedLine[]>;
  reverse(trx: AnyDb, tenantId: number, lineId: number, by?: ReversalBy): Promise<PostedLine>;
  reverseDocument(trx: AnyDb, tenantId: number, docType: string, docId: number, by?: ReversalBy): Promise<PostedLine[]>;
  /** The keys whose balance differs from the sum of their lines, and the projections' rows that do: empty when all hold. */
  check(db: AnyDb, tenantId?: number): Promise<LedgerDrift[]>;
  /** One key's balance and the sum of its lines (first measure). */
  compare(db: AnyDb, tenantId: number, key: Record<string, string | number>): Promise<{ balance: number; ledger: number }>;
  /** Counts every projection afresh from the lines. */
  recount(db: AnyDb, tenantId?: number): Promise<void>;
}

/** What a reversal takes from its caller: who, when, why, and the document it belongs to. */
export type ReversalBy = Partial<Pick<LedgerEntry, "docType" | "docId" | "docLineId" | "occurredAt" | "operatorId" | "operatorName" | "remark" | "idempotencyKey" | "creditLimit">>;

const ref = (name: string) => sql.ref(name);

export function defineLedger(def: LedgerDeclaration): Ledger {
  const keyNames = Object.keys(def.key);
  const keyColumns = keyNames.map((k) => def.key[k]);
  const measures = def.amount ? [def.quantity, def.amount] : [def.quantity];
  const columns = def.lines.columns;
  const extraNames = Object.keys(def.extra ?? {});
  const messages = def.messages;
  const projections = def.projections ?? [];

  const keyValues = (entry: Pick<LedgerEntry, "key">) =>
    keyNames.map((k) => {
      const value = entry.key[k];
      if (value === undefined || value === null) throw new Error(`${def.name} ledger: the key has no ${k}`);
      return value;
    });

  // The conditional update, compiled once per ledger (runPrepared): it runs for every posting. Arguments: the
  // measures' deltas, the moment, the operator, the tenant, the key's values, the floor.
  const moveKey = `${def.name} ledger move balance`;
  const returning = [...(def.balances.id ? [def.balances.id] : []), ...measures.map((m) => m.balance)];
  const moveBalance = (trx: AnyDb, args: unknown[]) =>
    runPrepared<Record<string, unknown>>(trx, moveKey, args, (a) => {
      const deltas = a.slice(0, measures.length);
      const [at, operatorId, tenantId] = a.slice(measures.length, measures.length + 3);
      const keys = a.slice(measures.length + 3, measures.length + 3 + keyColumns.length);
      const floor = a[a.length - 1];
      let q = trx
        .updateTable(def.balances.table)
        .set({ ...Object.fromEntries(measures.map((m, i) => [m.balance, sql`${ref(m.balance)} + ${deltas[i]}`])), updated_at: at, updated_by: operatorId })
        .where("tenant_id", "=", tenantId);
      keyColumns.forEach((column, i) => (q = q.where(column, "=", keys[i])));
      return q.where(sql<boolean>`${ref(def.quantity.balance)} + ${deltas[0]} >= ${floor}`).returning(returning);
    });

  // Opens a key's balance at zero (a ledger whose balances open on their first posting), compiled once.
  const openKey = `${def.name} ledger open balance`;
  const openBalance = (trx: AnyDb, args: unknown[]) =>
    runPrepared(trx, openKey, args, (a) => {
      const [tenantId, at, operatorId, ...rest] = a;
      const [id, ...keys] = def.balances.id ? rest : [null, ...rest];
      return trx
        .insertInto(def.balances.table)
        .values({
          tenant_id: tenantId,
          ...(def.balances.id ? { [def.balances.id]: id } : {}),
          ...Object.fromEntries(keyColumns.map((c, i) => [c, keys[i]])),
          ...Object.fromEntries(measures.map((m) => [m.balance, 0])),
          created_at: at,
          created_by: operatorId,
          updated_at: at,
          updated_by: operatorId,
        })
        .onConflict((oc) => oc.columns(["tenant_id", ...keyColumns]).doNothing());
    });

  async function post(trx: AnyDb, entry: LedgerEntry): Promise<PostedLine> {
    const { tenantId, quantity } = entry;
    const amount = def.amount ? (entry.amount ?? 0) : undefined;
    const zeroAllowed = def.allowsZero?.(entry) ?? false;
    if (!Number.isSafeInteger(quantity) || (amount !== undefined && !Number.isSafeInteger(amount)) || (quantity === 0 && !amount && !zeroAllowed)) {
      throw new ApiError(Status.BAD_REQUEST, messages.zero);
    }
    await def.lockFirst?.(trx, entry);
    const occurredAt = entry.occurredAt ?? Date.now();
    const operatorId = entry.operatorId ?? null;
    if (def.lockedPeriod) {
      const locked = await def.lockedPeriod(trx, tenantId, occurredAt);
      if (locked) throw new ApiError(Status.CONFLICT, messages.locked ? messages.locked(locked) : locked);
    }
    const keys = keyValues(entry);
    if (def.balances.opens) await openBalance(trx, [tenantId, occurredAt, operatorId, ...(def.balances.id ? [newId()] : []), ...keys]);
    const deltas = amount === undefined ? [quantity] : [quantity, amount];
    const floor = def.floor?.(entry) ?? 0;
    const [updated] = await moveBalance(trx, [...deltas, occurredAt, operatorId, tenantId, ...keys, floor]);
    if (!updated) {
      if (!def.balances.opens && messages.missing && !(await balanceRow(trx, tenantId, keys))) throw new ApiError(Status.CONFLICT, messages.missing);
      throw new ApiError(Status.CONFLICT, messages.insufficient);
    }
    const balanceAfter = Number(updated[def.quantity.balance]);
    const amountAfter = def.amount ? Number(updated[def.amount.balance]) : undefined;
    const balanceId = def.balances.id ? Number(updated[def.balances.id]) : undefined;
    const line: PostedLine = { ...entry, id: newId(), occurredAt, balanceAfter, amountAfter, balanceId, amount };
    const row = lineRow(line, keys);
    await insertRow(trx, def.lines.table, row);
    for (const projection of projections) await projection.apply(trx, line);
    return line;
  }

  /** The line table's row of a posted line, its columns always the same list (`insertRow`, `insertRows`). */
  function lineRow(line: PostedLine, keys: unknown[]): Record<string, unknown> {
    const operatorId = line.operatorId ?? null;
    const at = line.occurredAt;
    const row: Record<string, unknown> = { tenant_id: line.tenantId, id: line.id };
    keyColumns.forEach((c, i) => (row[c] = keys[i]));
    const fields: Record<LineColumn, unknown> = {
      docType: line.docType,
      docId: line.docId,
      docLineId: line.docLineId,
      operatorId,
      operatorName: line.operatorName,
      remark: line.remark,
      idempotencyKey: line.idempotencyKey,
      reversalOf: line.reversalOf,
      balanceId: line.balanceId,
    };
    for (const [field, column] of Object.entries(columns)) row[column] = fields[field as LineColumn] ?? null;
    row[def.quantity.line] = line.quantity;
    if (def.quantity.after) row[def.quantity.after] = line.balanceAfter;
    if (def.amount) {
      row[def.amount.line] = line.amount;
      if (def.amount.after) row[def.amount.after] = line.amountAfter;
    }
    for (const name of extraNames) row[(def.extra as Record<string, string>)[name]] = line.extra?.[name] ?? null;
    return Object.assign(row, { occurred_at: at, created_at: at, created_by: operatorId, updated_at: at, updated_by: operatorId });
  }

  /** A value list's type for a key's value: ids are integers, names (money's account type) text. */
  const typeOf = (value: unknown): ValueType => (typeof value === "number" ? "bigint" : "text");
  const compareKeys = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      return typeof a[i] === "number" && typeof b[i] === "number" ? (a[i] as number) - (b[i] as number) : String(a[i]) < String(b[i]) ? -1 : 1;
    }
    return 0;
  };

  async function postMany(trx: AnyDb, entries: LedgerEntry[]): Promise<PostedLine[]> {
    if (entries.length <= 1) return entries.length ? [await post(trx, entries[0])] : [];
    const now = Date.now();
    interface Balance {
      tenantId: number;
      keys: Array<string | number>;
      id?: number;
      found: boolean;
      quantity: number;
      amount: number;
      before: number[];
      at: number;
      operatorId: number | null;
    }
    const balances = new Map<string, Balance>();
    const staged: Array<{ entry: LedgerEntry; amount: number | undefined; occurredAt: number; balance: Balance }> = [];
    // What `post` does before it touches a balance, entry by entry and in their order: the zero check, the guard, the locked period.
    for (const entry of entries) {
      const amount = def.amount ? (entry.amount ?? 0) : undefined;
      const zeroAllowed = def.allowsZero?.(entry) ?? false;
      if (!Number.isSafeInteger(entry.quantity) || (amount !== undefined && !Number.isSafeInteger(amount)) || (entry.quantity === 0 && !amount && !zeroAllowed)) {
        throw new ApiError(Status.BAD_REQUEST, messages.zero);
      }
      await def.lockFirst?.(trx, entry);
      const occurredAt = entry.occurredAt ?? now;
      if (def.lockedPeriod) {
        const locked = await def.lockedPeriod(trx, entry.tenantId, occurredAt);
        if (locked) throw new ApiError(Status.CONFLICT, messages.locked ? messages.locked(locked) : locked);
      }
      const keys = keyValues(entry);
      const name = JSON.stringify([entry.tenantId, ...keys]);
      const balance = balances.get(name) ?? { tenantId: entry.tenantId, keys, found: false, quantity: 0, amount: 0, before: [], at: occurredAt, operatorId: null };
      balances.set(name, balance);
      balance.at = occurredAt;
      balance.operatorId = entry.operatorId ?? null;
      staged.push({ entry, amount, occurredAt, balance });
    }
    // The keys in one order (as `lockStock` takes them), so two postings sharing keys cannot each hold one and wait.
    const ordered = [...balances.values()].sort((a, b) => a.tenantId - b.tenantId || compareKeys(a.keys, b.keys));
    if (def.balances.opens) {
      const opening = ordered.map((b) => ({
        tenant_id: b.tenantId,
        ...(def.balances.id ? { [def.balances.id]: newId() } : {}),
        ...Object.fromEntries(keyColumns.map((c, i) => [c, b.keys[i]])),
        ...Object.fromEntries(measures.map((m) => [m.balance, 0])),
        created_at: b.at,
        created_by: b.operatorId,
        updated_at: b.at,
        updated_by: b.operatorId,
      }));
      await insertRows(trx, def.balances.table, opening, ["tenant_id", ...keyColumns]);
    }
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const tenants = [...new Set(ordered.map((b) => b.tenantId))];
    for (const tenantId of tenants) {
      for (const chunk of orChunksOf(
        ordered.filter((b) => b.tenantId === tenantId),
        keyColumns.length + 1,
      )) {
        let q = trx
          .selectFrom(def.balances.table)
          .select([...(def.balances.id ? [def.balances.id] : []), ...keyColumns, ...measures.map((m) => m.balance)])
          .where((eb) => anyKey(eb, tenantId, keyColumns, chunk.map((b) => b.keys)));
        for (const c of keyColumns) q = q.orderBy(c);
        if (postgres) q = q.forUpdate();
        for (const row of (await q.execute()) as Array<Record<string, unknown>>) {
          const balance = balances.get(JSON.stringify([tenantId, ...keyColumns.map((c, i) => (typeof chunk[0].keys[i] === "number" ? Number(row[c]) : String(row[c])))]));
          if (!balance) continue;
          balance.found = true;
          balance.id = def.balances.id ? Number(row[def.balances.id]) : undefined;
          balance.before = measures.map((m) => Number(row[m.balance]));
          balance.quantity = balance.before[0];
          balance.amount = balance.before[1] ?? 0;
        }
      }
    }
    // Each entry against its key's running balance, in order: the figures and refusals `post` gives one at a time.
    const posted: PostedLine[] = [];
    for (const { entry, amount, occurredAt, balance } of staged) {
      if (!balance.found) throw new ApiError(Status.CONFLICT, !def.balances.opens && messages.missing ? messages.missing : messages.insufficient);
      balance.quantity += entry.quantity;
      balance.amount += amount ?? 0;
      if (balance.quantity < (def.floor?.(entry) ?? 0)) throw new ApiError(Status.CONFLICT, messages.insufficient);
      posted.push({ ...entry, id: newId(), occurredAt, balanceAfter: balance.quantity, amountAfter: def.amount ? balance.amount : undefined, balanceId: balance.id, amount });
    }
    // The balances as computed, each only if it still holds what was read (it does, under the locks and SQLite's one writer).
    const valueColumns: Record<string, ValueType> = {
      ...Object.fromEntries(keyColumns.map((c, i) => [c, typeOf(ordered[0].keys[i])])),
      ...Object.fromEntries(measures.flatMap((_, i) => [[`before${i}`, "bigint"], [`after${i}`, "bigint"]])),
      at: "bigint",
      by: "bigint",
    };
    for (const tenantId of tenants) {
      const mine = ordered.filter((b) => b.tenantId === tenantId);
      const rows = mine.map((b) => ({
        ...Object.fromEntries(keyColumns.map((c, i) => [c, b.keys[i]])),
        ...Object.fromEntries(measures.flatMap((_, i) => [[`before${i}`, b.before[i]], [`after${i}`, i === 0 ? b.quantity : b.amount]])),
        at: b.at,
        by: b.operatorId,
      }));
      const changed = await updateFromValues(trx, {
        table: def.balances.table,
        tenantId,
        columns: valueColumns,
        match: keyColumns,
        rows,
        set: (v) => ({ ...Object.fromEntries(measures.map((m, i) => [m.balance, v(`after${i}`)])), updated_at: v("at"), updated_by: v("by") }),
        where: (v) => sql.join(measures.map((m, i) => sql`${sql.ref(`${def.balances.table}.${m.balance}`)} = ${v(`before${i}`)}`), sql` and `),
      });
      if (changed !== mine.length) throw new ApiError(Status.CONFLICT, messages.insufficient);
    }
    await insertRows(trx, def.lines.table, posted.map((line) => lineRow(line, keyValues(line))));
    for (const projection of projections) {
      if (projection.applyMany) await projection.applyMany(trx, posted);
      else for (const line of posted) await projection.apply(trx, line);
    }
    return posted;
  }

  async function balanceRow(db: AnyDb, tenantId: number, keys: unknown[]) {
    let q = db.selectFrom(def.balances.table).select(measures.map((m) => m.balance)).where("tenant_id", "=", tenantId);
    keyColumns.forEach((c, i) => (q = q.where(c, "=", keys[i])));
    return q.executeTakeFirst() as Promise<Record<string, unknown> | undefined>;
  }

  const reversalColumn = () => {
    const column = columns.reversalOf;
    if (!column) throw new Error(`${def.name} ledger: no reversal column declared`);
    return column;
  };

  async function reverse(trx: AnyDb, tenantId: number, lineId: number, by: ReversalBy = {}): Promise<PostedLine> {
    const reversalOf = reversalColumn();
    const extraColumns = extraNames.map((n) => (def.extra as Record<string, string>)[n]);
    const line = (await trx
      .selectFrom(def.lines.table)
      .select([...keyColumns, ...measures.map((m) => m.line), ...extraColumns, reversalOf])
      .where("tenant_id", "=", tenantId)
      .where("id", "=", lineId)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!line) throw new ApiError(Status.NOT_FOUND, messages.lineMissing ?? "流水不存在");
    if (line[reversalOf] !== null) throw new ApiError(Status.CONFLICT, messages.reversalOfReversal ?? "冲正流水不能再冲正");
    // The unique key on the reversal column also stops two reversals racing (the later one's transaction fails).
    const done = await trx.selectFrom(def.lines.table).select("id").where("tenant_id", "=", tenantId).where(reversalOf, "=", lineId).executeTakeFirst();
    if (done) throw new ApiError(Status.CONFLICT, messages.reversed ?? "该流水已冲正");
    const extra = Object.fromEntries(extraNames.map((n, i) => [n, line[extraColumns[i]]]));
    return post(trx, {
      docType: null,
      docId: null,
      ...by,
      tenantId,
      key: Object.fromEntries(keyNames.map((k, i) => [k, line[keyColumns[i]] as string | number])),
      quantity: -Number(line[def.quantity.line]),
      amount: def.amount ? -Number(line[def.amount.line]) : undefined,
      reversalOf: lineId,
      extra: def.reversalExtra ? def.reversalExtra(extra) : extra,
    });
  }

  async function reverseDocument(trx: AnyDb, tenantId: number, docType: string, docId: number, by: ReversalBy = {}): Promise<PostedLine[]> {
    const reversalOf = reversalColumn();
    const { docType: typeColumn, docId: idColumn } = columns;
    if (!idColumn) throw new Error(`${def.name} ledger: no document column declared`);
    let q = trx
      .selectFrom(`${def.lines.table} as l`)
      .select("l.id")
      .where("l.tenant_id", "=", tenantId)
      .where(`l.${idColumn}`, "=", docId)
      .where(`l.${reversalOf}`, "is", null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom(`${def.lines.table} as r`).select("r.id").whereRef("r.tenant_id", "=", "l.tenant_id").whereRef(`r.${reversalOf}`, "=", "l.id"))),
      )
      .orderBy("l.id");
    if (typeColumn) q = q.where(`l.${typeColumn}`, "=", docType);
    const lines = (await q.execute()) as Array<{ id: number | string }>;
    const reversals: PostedLine[] = [];
    for (const { id } of lines) reversals.push(await reverse(trx, tenantId, Number(id), { ...by, docType, docId }));
    return reversals;
  }

  async function check(db: AnyDb, tenantId?: number): Promise<LedgerDrift[]> {
    const drifts: LedgerDrift[] = [];
    for (const [measure, m] of [["quantity", def.quantity], ...(def.amount ? [["amount", def.amount]] : [])] as Array<["quantity" | "amount", Measure]>) {
      const sum = sql<number>`(select coalesce(sum(l.${ref(m.line)}), 0) from ${sql.table(def.lines.table)} l where l.tenant_id = b.tenant_id and ${sql.join(
        keyColumns.map((c) => sql`l.${ref(c)} = b.${ref(c)}`),
        sql` and `,
      )})`;
      let q = db
        .selectFrom(`${def.balances.table} as b`)
        .select([sql<number>`b.tenant_id`.as("tenant_id"), ...keyColumns.map((c) => sql`b.${ref(c)}`.as(c)), sql<number>`b.${ref(m.balance)}`.as("balance"), sum.as("lines")])
        .where(sql<boolean>`b.${ref(m.balance)} <> ${sum}`);
      if (tenantId !== undefined) q = q.where("b.tenant_id", "=", tenantId);
      const rows = (await q.execute()) as Array<Record<string, unknown>>;
      for (const r of rows) {
        drifts.push({
          tenantId: Number(r.tenant_id),
          key: Object.fromEntries(keyNames.map((k, i) => [k, r[keyColumns[i]] as string | number])),
          measure,
          balance: Number(r.balance),
          lines: Number(r.lines),
        });
      }
    }
    for (const projection of projections) if (projection.check) drifts.push(...(await projection.check(db, tenantId)));
    return drifts;
  }

  async function compare(db: AnyDb, tenantId: number, key: Record<string, string | number>): Promise<{ balance: number; ledger: number }> {
    const keys = keyValues({ key });
    const row = await balanceRow(db, tenantId, keys);
    let q = db
      .selectFrom(def.lines.table)
      .select(sql<number>`coalesce(sum(${ref(def.quantity.line)}), 0)`.as("total"))
      .where("tenant_id", "=", tenantId);
    keyColumns.forEach((c, i) => (q = q.where(c, "=", keys[i])));
    const sum = (await q.executeTakeFirstOrThrow()) as { total: number | string };
    return { balance: Number(row?.[def.quantity.balance] ?? 0), ledger: Number(sum.total) };
  }

  async function recount(db: AnyDb, tenantId?: number): Promise<void> {
    await inTransaction(db, async (trx) => {
      for (const projection of projections) await projection.recount(trx, tenantId);
    });
  }

  return { declaration: def, post, postMany, reverse, reverseDocument, check, compare, recount };
}
