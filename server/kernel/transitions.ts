import { sql, type Kysely } from "kysely";
import { chinaWallClock } from "../../resources/chinaTime";
import {
  DOC_NO,
  DOC_STATUS,
  DOC_VERSION,
  documentNumber,
  LINE_DOCUMENT,
  LINE_NO,
  narrowedLineFields,
  postedStatuses,
  postingsOf,
  SEQUENCE_TABLE,
  STATUS_HISTORY_TABLE,
  statusLabel,
  type DocumentDef,
  type PostingEntry,
  type TransitionDef,
} from "../../resources/document";
import { columnOf, type FieldDef, type ResourceDef } from "../../resources/define";
import { builtInDicts } from "../../resources/dicts";
import { refusalText, resourceTransition } from "../../resources/workflow";
import { newId } from "../db";
import { insertRow } from "../db/prepared";
import type { SessionContext } from "../http/endpoint";
import { ApiError, Status } from "../http/envelope";
import { requireReason } from "../http/reason";
import { recordOperation } from "../modules/resource/operationLog";
import { toRecord, type Row } from "../modules/resource/rows";
import { idempotent } from "./idempotency";
import type { Ledger } from "./ledger";

/**
 * The one transition service of every declared document (issue 34 item 3, decision 060): it loads the document in
 * the caller's tenant, checks the from-status, the reason and the guard, moves the status with a conditional update
 * (`id`, `status` and `version` as read: a second caller that read the same row updates nothing and hears 409), and
 * runs the effect, the postings, the status history and the operation log in the same write transaction — the
 * kernel's, which on SQLite is the group commit money uses — under the request's Idempotency-Key.
 */

// Documents are declared, so their tables are known only at run time, as the resource engine's are.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const documentMessages = {
  notFound: (doc: DocumentDef) => `${doc.title}不存在或已被删除`,
  wrongStatus: (doc: DocumentDef, status: unknown, action: string) => `当前状态为「${statusLabel(doc, status)}」，不能${action}`,
  stale: "数据已被他人修改，请刷新后重试",
};

/** What a document's postings use of a ledger declared with `defineLedger`. */
export type DocumentLedger = Pick<Ledger, "postMany" | "reverseDocument">;

/** What a guard and an effect see: the document as it was read, its lines, the step and the caller's input. */
export interface TransitionRun {
  ctx: SessionContext;
  doc: DocumentDef;
  transition: TransitionDef;
  header: Row;
  lines: Row[];
  input: Row;
  reason: string | null;
}

/** Refuses a step by throwing an ApiError (400 or 409 with a Chinese message); runs in the step's transaction. */
export type Guard = (run: TransitionRun, trx: AnyDb) => Promise<void> | void;
/** Work of the step in its transaction, after the status moved (a row of another table, a message). */
export type Effect = (run: TransitionRun, trx: AnyDb) => Promise<void>;

/** One ledger line an allocator makes of a posting's entry: the entry's key completed or changed, its own measures. */
export interface AllocatedPosting {
  key: Record<string, string | number>;
  quantity: number;
  amount?: number;
  /** The ledger's own line columns (stock: the batch). */
  extra?: Record<string, unknown>;
  /** The document line it belongs to (the entry's, unless the allocator says another). */
  lineId: number;
}

/** The entries a step posts with one allocator, each with its document line, in the lines' order. */
export type AllocationInput = Array<PostingEntry & { line: Readonly<Row> }>;

/**
 * Turns a document's entries for one posting into the ledger lines it makes (decision 068: stock's FEFO, its
 * batches): all the document's entries at once, so it can take its locks in one order and count what earlier lines
 * of the same document consumed. Runs in the step's transaction, before anything is posted; refuses by throwing.
 */
export type Allocator = (run: TransitionRun, trx: AnyDb, entries: AllocationInput) => Promise<AllocatedPosting[]>;

/** The server side of a document: its named guards, effects and allocators, and the ledgers its postings name. */
export interface DocumentRules {
  guards?: Record<string, Guard>;
  effects?: Record<string, Effect>;
  allocators?: Record<string, Allocator>;
  ledgers?: Record<string, DocumentLedger>;
  /**
   * Fills what a create or an update derives from what it was given (a line's amount, a return line's goods), on
   * the values the schema read, before they are checked and written; `current` is the stored header of an update.
   * It reads; it may refuse with a field's 400.
   */
  fill?: (ctx: SessionContext, db: AnyDb, header: Row, lines: Row[], current?: Row) => Promise<void>;
  /**
   * Lines the server makes itself when a document is created, after those given, in the create's write transaction
   * (a stocktake's book: every batch of the warehouse as it stands once the sheet holds the warehouse). It may refuse.
   */
  createLines?: (ctx: SessionContext, trx: AnyDb, header: Row) => Promise<Row[]>;
  /**
   * Runs first in a create's or an update's write transaction: the header's values as given and, on an update, the
   * stored header (columns). It may refuse (a purchase dated into a month its place has closed, decision 084).
   */
  guardWrite?: (ctx: SessionContext, trx: AnyDb, values: Row, current?: Row) => Promise<void>;
  /** Adds to `getInfo`'s answer what the tables of the document do not hold (a stock-out line's allocations). */
  describe?: (ctx: SessionContext, db: AnyDb, document: Row) => Promise<void>;
  /**
   * The choices of each line relation narrowed by a header field (`narrowedBy`, decision 071), by line field: the
   * rows belonging to the header's value (a return's source document), each `{ id, label }` and what choosing it fills.
   */
  lineOptions?: Record<string, LineOptions>;
}

/** One line relation's choices under the header's value (`headerValue`, the caller's tenant's), searched by `keyword`. */
export type LineOptions = (ctx: SessionContext, db: AnyDb, headerValue: number, keyword: string | undefined) => Promise<Row[]>;

/** A declaration whose names the server cannot resolve stops the start, not the first request that needs one. */
export function checkDocumentRules(doc: DocumentDef, rules: DocumentRules): void {
  const missing = [
    ...doc.workflow.transitions.flatMap((t) => [
      ...(t.guard && !rules.guards?.[t.guard] ? [`guard ${t.guard}`] : []),
      ...(t.effect && !rules.effects?.[t.effect] ? [`effect ${t.effect}`] : []),
    ]),
    ...(doc.postings ?? []).filter((p) => !rules.ledgers?.[p.ledger]).map((p) => `ledger ${p.ledger}`),
    ...(doc.postings ?? []).filter((p) => p.allocate && !rules.allocators?.[p.allocate]).map((p) => `allocator ${p.allocate}`),
    ...narrowedLineFields(doc).filter((f) => !rules.lineOptions?.[f.name]).map((f) => `lineOptions ${f.name}`),
  ];
  if (missing.length) throw new Error(`${doc.docType}: ${missing.join(", ")} not provided`);
}

export async function loadHeader(db: AnyDb, doc: DocumentDef, tenantId: number, id: number): Promise<Row> {
  const row = await db.selectFrom(doc.header.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND, documentMessages.notFound(doc));
  return row as Row;
}

export async function loadLines(db: AnyDb, doc: DocumentDef, tenantId: number, id: number): Promise<Row[]> {
  return (await db
    .selectFrom(doc.lines.table)
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where(column(doc.lines.fields, LINE_DOCUMENT), "=", id)
    .orderBy(column(doc.lines.fields, LINE_NO))
    .execute()) as Row[];
}

export function column(fields: readonly FieldDef[], name: string): string {
  return columnOf(fields.find((f) => f.name === name) as FieldDef);
}

/**
 * Counts the sums a header keeps of its lines (`lines.keptTotals`, decision 094) from the lines as they now stand, in
 * the caller's write transaction: every write of a document's lines (create, update, a step whose allocator sets
 * their amounts) ends here, so a header never holds a total its lines do not. Answers them by header field.
 */
export async function keepLineTotals(trx: AnyDb, doc: DocumentDef, tenantId: number, id: number): Promise<Row> {
  if (!doc.keptTotals.length) return {};
  const documentColumn = column(doc.lines.fields, LINE_DOCUMENT);
  const kept = await trx
    .updateTable(doc.header.table)
    .set(
      Object.fromEntries(
        doc.keptTotals.map(({ line, header }) => [
          columnOf(header),
          trx.selectFrom(doc.lines.table).select(sql`coalesce(sum(${sql.ref(columnOf(line))}), 0)`.as("total")).where("tenant_id", "=", tenantId).where(documentColumn, "=", id),
        ]),
      ),
    )
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .returning(doc.keptTotals.map(({ header }) => columnOf(header)))
    .executeTakeFirstOrThrow();
  return Object.fromEntries(doc.keptTotals.map(({ header }) => [header.name, Number((kept as Row)[columnOf(header)])]));
}

/** A header whose kept sum (`field`, a header field) is not its lines' sum. */
export interface KeptTotalDrift {
  tenantId: number;
  id: number;
  field: string;
  kept: number;
  lines: number;
}

/**
 * The headers whose kept sums (`lines.keptTotals`) differ from their lines' (what `npm run ledger:check` reports with
 * the ledgers' drifts), over every tenant or one.
 */
export async function keptTotalDrifts(db: AnyDb, doc: DocumentDef, tenantId?: number): Promise<KeptTotalDrift[]> {
  const drifts: KeptTotalDrift[] = [];
  const documentColumn = column(doc.lines.fields, LINE_DOCUMENT);
  for (const { line, header } of doc.keptTotals) {
    const sums = db
      .selectFrom(doc.lines.table)
      .select(["tenant_id", `${documentColumn} as document_id`, sql`sum(${sql.ref(columnOf(line))})`.as("total")])
      .groupBy(["tenant_id", documentColumn]);
    let q = db
      .selectFrom(`${doc.header.table} as h`)
      .leftJoin(sums.as("l"), (j) => j.onRef("l.tenant_id", "=", "h.tenant_id").onRef("l.document_id", "=", "h.id"))
      .select(["h.tenant_id", "h.id", `h.${columnOf(header)} as kept`, sql`coalesce(l.total, 0)`.as("lines")])
      .where(sql.ref(`h.${columnOf(header)}`), "!=", sql`coalesce(l.total, 0)`);
    if (tenantId !== undefined) q = q.where("h.tenant_id", "=", tenantId);
    for (const r of (await q.execute()) as Row[]) drifts.push({ tenantId: Number(r.tenant_id), id: Number(r.id), field: header.name, kept: Number(r.kept), lines: Number(r.lines) });
  }
  return drifts;
}

/**
 * The next number of a document type in the tenant on the China day of `now`, counted in the caller's transaction. A
 * resource numbered the same way (a travel request) passes its own `docType` (its key) and `numbering`.
 */
export async function nextDocumentNumber(trx: AnyDb, doc: Pick<DocumentDef, "docType" | "numbering">, tenantId: number, now: number): Promise<string> {
  const day = chinaWallClock(now).slice(0, 10);
  // One statement on both databases: the row's lock (PostgreSQL) or the write lock (SQLite) orders concurrent creates.
  const { rows } = await sql<{ last_value: number }>`
    insert into ${sql.table(SEQUENCE_TABLE)} (tenant_id, doc_type, day, last_value) values (${tenantId}, ${doc.docType}, ${day}, 1)
    on conflict (tenant_id, doc_type, day) do update set last_value = ${sql.table(SEQUENCE_TABLE)}.last_value + 1
    returning last_value`.execute(trx);
  return documentNumber(doc, day, Number(rows[0]?.last_value));
}

export async function writeHistory(
  trx: AnyDb,
  ctx: SessionContext,
  doc: DocumentDef,
  docId: number,
  action: string,
  from: string | null,
  to: string,
  reason: string | null,
): Promise<void> {
  await insertRow(trx, STATUS_HISTORY_TABLE, {
    tenant_id: ctx.session.tenantId,
    id: newId(),
    doc_type: doc.docType,
    doc_id: docId,
    action,
    from_status: from,
    to_status: to,
    reason,
    operator_id: ctx.session.userId,
    operator_name: ctx.session.userName,
    created_at: ctx.now,
  });
}

/** The status history of a document, oldest first (the detail page's 审批记录). */
export async function statusHistory(db: AnyDb, doc: DocumentDef, tenantId: number, docId: number): Promise<Row[]> {
  const rows = await db
    .selectFrom(STATUS_HISTORY_TABLE)
    .select(["id", "action", "from_status", "to_status", "reason", "operator_id", "operator_name", "created_at"])
    .where("tenant_id", "=", tenantId)
    .where("doc_type", "=", doc.docType)
    .where("doc_id", "=", docId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r: Row) => ({
    id: r.id,
    action: r.action,
    actionLabel: r.action === "create" ? "新建" : (doc.workflow.transitions.find((t) => t.name === r.action)?.label ?? r.action),
    fromStatus: r.from_status,
    fromStatusLabel: r.from_status === null ? null : statusLabel(doc, r.from_status),
    toStatus: r.to_status,
    toStatusLabel: statusLabel(doc, r.to_status),
    reason: r.reason,
    operatorId: r.operator_id,
    operatorName: r.operator_name,
    createdAt: r.created_at,
  }));
}

/**
 * Moves the document `id` by `transition`. `input` is the body as its schema read it (`reason`, the step's own
 * fields, and optionally the `version` the caller saw). Answers the header as it is after the step.
 */
export async function runTransition(
  ctx: SessionContext,
  doc: DocumentDef,
  rules: DocumentRules,
  transition: TransitionDef,
  input: Row & { id: number; version?: number; reason?: unknown },
  body: unknown,
): Promise<Row> {
  // Everything is checked inside the transaction: a retry of a step that was taken finds its key's answer before
  // any check, and what is checked is what the conditional update then holds to.
  return idempotent(ctx, body, (trx: AnyDb) => stepDocument(trx, ctx, doc, rules, transition, input));
}

/**
 * The step itself in the caller's write transaction: what `runTransition` runs under its key, and what a module runs
 * when one change of its own takes another document's step with it (a purchase receipt approves its stock-in).
 */
export async function stepDocument(
  trx: AnyDb,
  ctx: SessionContext,
  doc: DocumentDef,
  rules: DocumentRules,
  transition: TransitionDef,
  input: Row & { id: number; version?: number; reason?: unknown },
): Promise<Row> {
  const tenantId = ctx.session.tenantId;
  const statusColumn = column(doc.header.fields, DOC_STATUS);
  const versionColumn = column(doc.header.fields, DOC_VERSION);
  const refuseFrom = (status: unknown) => {
    if (!(transition.from as readonly string[]).includes(String(status))) {
      throw new ApiError(Status.CONFLICT, documentMessages.wrongStatus(doc, status, transition.label));
    }
  };
  const header = await loadHeader(trx, doc, tenantId, input.id);
  refuseFrom(header[statusColumn]);
  const reason = transition.reasonRequired ? requireReason(input.reason, `${transition.label}原因`) : textOrNull(input.reason);
  if (input.version !== undefined && input.version !== header[versionColumn]) throw new ApiError(Status.CONFLICT, documentMessages.stale);
  const lineRows = await loadLines(trx, doc, tenantId, input.id);
  const run: TransitionRun = {
    ctx,
    doc,
    transition,
    header: toRecord(doc.header, header),
    lines: lineRows.map((row) => toRecord(doc.lines, row)),
    input,
    reason,
  };
  if (transition.guard) await rules.guards?.[transition.guard]?.(run, trx);
  const from = String(header[statusColumn]);
  const version = Number(header[versionColumn]);
  const now = Math.max(ctx.now, Number(header.updated_at) + 1);
  const moved = await moveStatus(trx, {
    table: doc.header.table,
    tenantId,
    id: input.id,
    column: statusColumn,
    from: [from],
    set: { [statusColumn]: transition.to, [versionColumn]: version + 1, updated_at: now, updated_by: ctx.session.userId },
    where: { [versionColumn]: version },
  });
  if (!moved) {
    // Another step moved it after the read above (PostgreSQL; SQLite runs one write transaction at a time).
    refuseFrom((await loadHeader(trx, doc, tenantId, input.id))[statusColumn]);
    throw new ApiError(Status.CONFLICT, documentMessages.stale);
  }
  if (transition.effect) await rules.effects?.[transition.effect]?.(run, trx);
  await post(trx, ctx, doc, rules, run, from);
  // An allocator or an effect may have set the lines' amounts (a stock-out's FEFO cost).
  const kept = await keepLineTotals(trx, doc, tenantId, input.id);
  await writeHistory(trx, ctx, doc, input.id, transition.name, from, transition.to, reason);
  await recordOperation(trx, ctx, doc.header, input.id, transition.name, {
    [DOC_NO]: run.header[DOC_NO],
    [DOC_STATUS]: [from, transition.to],
    ...(reason !== null ? { reason } : {}),
    ...Object.fromEntries((transition.input ?? []).map((f) => [f.name, input[f.name]])),
  });
  return { ...run.header, ...kept, [DOC_STATUS]: transition.to, [DOC_VERSION]: version + 1, updatedAt: now };
}

/** The postings this step makes (through their allocators, when they name one), and the reversals it takes back. */
async function post(trx: AnyDb, ctx: SessionContext, doc: DocumentDef, rules: DocumentRules, run: TransitionRun, from: string) {
  const by = { operatorId: ctx.session.userId, operatorName: ctx.session.userName };
  const entries = postingsOf(doc, run.transition.name, run.header, run.lines);
  // Entries of one posting declaration share its ledger and allocator: group them, keeping the declarations' order.
  const groups = new Map<string, AllocationInput>();
  for (const entry of entries) {
    const group = `${entry.ledger}\u0000${entry.allocate ?? ""}`;
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  for (const group of groups.values()) {
    const { ledger, allocate } = group[0] as PostingEntry;
    const lines: AllocatedPosting[] = allocate
      ? await (rules.allocators?.[allocate] as Allocator)(run, trx, group)
      : group.map((entry) => ({
          key: entry.key as Record<string, string | number>,
          quantity: entry.quantity,
          ...(entry.amount !== undefined ? { amount: entry.amount } : {}),
          lineId: entry.line.id as number,
        }));
    // A document's lines post together (decision 085): a bounded number of statements however many lines it has.
    await (rules.ledgers?.[ledger] as DocumentLedger).postMany(
      trx,
      lines.map((line) => ({
        tenantId: ctx.session.tenantId,
        key: line.key,
        quantity: line.quantity,
        ...(line.amount !== undefined ? { amount: line.amount } : {}),
        ...(line.extra ? { extra: line.extra } : {}),
        docType: doc.docType,
        docId: run.header.id as number,
        docLineId: line.lineId,
        occurredAt: ctx.now,
        ...by,
        remark: run.reason,
      })),
    );
  }
  for (const posting of doc.postings ?? []) {
    if (posting.reversedBy !== run.transition.name || !postedStatuses(doc, posting).has(from)) continue;
    await (rules.ledgers?.[posting.ledger] as DocumentLedger).reverseDocument(trx, ctx.session.tenantId, doc.docType, run.header.id as number, {
      occurredAt: ctx.now,
      ...by,
      remark: run.reason,
    });
  }
}

function textOrNull(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/**
 * The one conditional status update of every workflow step, a document's or a resource's: the row moves only if it
 * still holds a from-status (and the other values read, such as a version), so of two callers that read the same
 * row one moves it and the other learns it did not (false).
 */
async function moveStatus(
  trx: AnyDb,
  move: { table: string; tenantId: number; id: number; column: string; from: readonly unknown[]; set: Row; where?: Row },
): Promise<boolean> {
  let update = trx.updateTable(move.table).set(move.set).where("tenant_id", "=", move.tenantId).where("id", "=", move.id).where(move.column, "in", move.from);
  for (const [column, value] of Object.entries(move.where ?? {})) update = update.where(column, "=", value);
  const moved = await update.executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** What a resource's step is given besides its name (decision 070). */
export interface ResourceStep {
  id: number;
  /** The body's reason: required when the step says so (after not found and the status's 409, as decision 055). */
  reason?: unknown;
  /** Columns set with the status (when it was released, when it is sent next), or made from the row as read, after the guard. */
  set?: Row | ((row: Row) => Row);
  /** A rule of the step beyond its from-statuses, on the row as stored; it refuses by throwing. */
  guard?: (row: Row) => Promise<void> | void;
  /** Work of the step after the status moved, in the same transaction; what it answers joins the operation log. */
  effect?: (row: Row, reason: string | null) => Promise<Row | void>;
  /** The operation log's action when the API names the step otherwise (处理 upholding or dismissing: `process`). */
  logAs?: string | ((row: Row) => string);
}

/** A resource's status by its Chinese name, as its dictionary says it (正常, 挂失). */
function resourceStatusLabel(def: ResourceDef, stored: unknown): string {
  const field = def.fields.find((f) => f.name === def.workflow?.field);
  return builtInDicts[field?.dict ?? ""]?.options.find((o) => o.value === String(stored))?.label ?? String(stored ?? "");
}

/**
 * The workflow's 409 when the row (as stored) holds a status the step does not start from. The step checks it
 * itself; a module calls it first when the step has refusals of its own that must come after it (a pick-up's day).
 */
export function assertStepFrom(def: ResourceDef, name: string, row: Row): void {
  const transition = resourceTransition(def, name);
  if (!def.workflow || !transition) throw new Error(`${def.module}/${def.entity}: no step ${name} declared`);
  const stored = row[column(def.fields, def.workflow.field)];
  if (!(transition.from as readonly string[]).includes(String(stored))) throw new ApiError(Status.CONFLICT, refusalText(def.workflow, resourceStatusLabel(def, stored), transition));
}

/**
 * Takes a declared step of a resource's workflow (decision 070) in the caller's transaction: loads the row in the
 * caller's tenant (the workflow's 404), refuses a status the step does not start from (the workflow's 409, naming the
 * status), requires the reason, runs the guard, moves the status with the one conditional update (0 rows: the row
 * moved meanwhile, refused by its status now), runs the effect and writes the operation log with the status change,
 * what the effect answered and the reason. Answers the row as it was read, and the reason.
 */
export async function runResourceStep(trx: AnyDb, ctx: SessionContext, def: ResourceDef, name: string, step: ResourceStep): Promise<{ row: Row; reason: string | null; changes: Row }> {
  const workflow = def.workflow;
  const transition = resourceTransition(def, name);
  if (!workflow || !transition) throw new Error(`${def.module}/${def.entity}: no step ${name} declared`);
  const tenantId = ctx.session.tenantId;
  const statusColumn = column(def.fields, workflow.field);
  const read = async () => (await trx.selectFrom(def.table).selectAll().where("tenant_id", "=", tenantId).where("id", "=", step.id).executeTakeFirst()) as Row | undefined;
  const refusal = (row: Row | undefined) =>
    row ? new ApiError(Status.CONFLICT, refusalText(workflow, resourceStatusLabel(def, row[statusColumn]), transition)) : new ApiError(Status.NOT_FOUND, workflow.notFound);
  const row = await read();
  if (!row) throw refusal(row);
  const from = row[statusColumn];
  assertStepFrom(def, name, row);
  const reason = transition.reasonRequired ? requireReason(step.reason, `${transition.label}原因`) : textOrNull(step.reason);
  await step.guard?.(row);
  // The column's values as it stores them (a number for a numeric dictionary), so both databases compare alike.
  const stored = (value: string) => (typeof from === "number" ? Number(value) : value);
  const moved = await moveStatus(trx, {
    table: def.table,
    tenantId,
    id: step.id,
    column: statusColumn,
    from: transition.from.map(stored),
    set: { ...(typeof step.set === "function" ? step.set(row) : step.set), [statusColumn]: stored(transition.to), updated_at: Math.max(ctx.now, Number(row.updated_at) + 1), updated_by: ctx.session.userId },
  });
  if (!moved) throw refusal(await read());
  const more = (await step.effect?.(row, reason)) ?? {};
  const changes = { [workflow.field]: [String(from), transition.to], ...more, ...(reason !== null ? { reason } : {}) };
  await recordOperation(trx, ctx, def, step.id, (typeof step.logAs === "function" ? step.logAs(row) : step.logAs) ?? name, changes);
  return { row, reason, changes };
}
