import { columnOf, permissionCode, resourceKey, type FieldDef, type ResourceDef } from "../../../resources/define";
import {
  DOC_NO,
  DOC_STATUS,
  DOC_VERSION,
  documentPath,
  isEditable,
  LINE_DOCUMENT,
  LINE_NO,
  LINE_OPTIONS,
  narrowedLineFields,
  PRINT,
  printOf,
  transitionPermission,
  type DocumentDef,
  type TransitionDef,
} from "../../../resources/document";
import { findResource } from "../../../resources/index";
import { createSchema, fieldSchema, findPageSchema, recordId, integer } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { reasonField } from "../../http/reason";
import {
  checkDocumentRules,
  column,
  documentMessages,
  keepLineTotals,
  loadHeader,
  loadLines,
  nextDocumentNumber,
  runTransition,
  statusHistory,
  writeHistory,
  type DocumentRules,
} from "../../kernel/transitions";
import { idempotent } from "../../kernel/idempotency";
import { receiptTitle } from "../sys/receiptTitle";
import { checkDictionaries, checkRelations, checkUnique, db, findPage, getInfo, withRelationLabels } from "./engine";
import { resourceEndpoints } from "./endpoints";
import { recordOperation } from "./operationLog";
import { toColumns, toRecord, type Row } from "./rows";

/**
 * The generated API of a declared document (issue 34 item 3, decision 060): `create` and `update` take the header
 * with its `lines`, `findPage` lists headers (a status filter among the declared ones), `getInfo` answers the header
 * with its lines and status history, and each transition is `POST …/{transition}` with `{ id, ...input }`. Header and
 * lines are checked, converted and logged by the resource engine's functions, as any entity's are.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = any;

const VERSION = integer("version", { min: 1, max: Number.MAX_SAFE_INTEGER }, "数字", "缺少 version（读取时的版本）");

function lineCount(doc: DocumentDef) {
  const message = doc.minLines > 0 ? `请至少填写 ${doc.minLines} 行${doc.linesTitle}` : `${doc.linesTitle}应为列表`;
  return z
    .array(z.unknown(), { error: `${doc.linesTitle}应为列表` })
    .min(doc.minLines, message)
    .max(doc.maxLines, `${doc.linesTitle}不能超过 ${doc.maxLines} 行`);
}

/** A line of an update: with an `id`, the fields it gives change that line; without one, it is a new line. */
function updatedLine(doc: DocumentDef) {
  const added = createSchema(doc.lines);
  const kept = z.object({ id: recordId(`${doc.linesTitle} id`) }).extend(
    Object.fromEntries(doc.lines.fields.filter((f) => !f.hidden && !f.readOnly).map((f) => [f.name, fieldSchema(f, true)])),
  );
  return z.unknown().transform((value, ctx) => {
    const hasId = typeof value === "object" && value !== null && "id" in value && (value as Row).id !== undefined && (value as Row).id !== null;
    const parsed = (hasId ? kept : added).safeParse(value);
    if (parsed.success) return parsed.data as Row;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
}

export function documentSchemas(doc: DocumentDef) {
  const headerFields = doc.header.fields.filter((f) => !f.hidden && !f.readOnly);
  const statuses = doc.workflow.statuses.map((s) => s.value) as [string, ...string[]];
  return {
    create: createSchema(doc.header).extend({ lines: lineCount(doc).pipe(z.array(createSchema(doc.lines))) }),
    update: z.object({
      id: recordId(),
      version: VERSION,
      ...Object.fromEntries(headerFields.map((f) => [f.name, fieldSchema(f, true)])),
      lines: lineCount(doc).pipe(z.array(updatedLine(doc))).optional(),
    }),
    findPage: findPageSchema(doc.header).extend({
      [DOC_STATUS]: z.preprocess((v) => (v === "" ? undefined : v), z.enum(statuses, { error: "状态不是可选的值" }).optional()),
    }),
    transition: (t: TransitionDef) =>
      z.object({
        id: recordId(),
        version: VERSION.optional(),
        reason: reasonField(`${t.label}原因`),
        ...Object.fromEntries((t.input ?? []).map((f) => [f.name, fieldSchema(f, false)])),
      }),
  };
}

/** Declarations a document's pages and checks look up: its own header and lines, then every declared entity. */
export function documentLookup(doc: DocumentDef) {
  return (key: string): ResourceDef | undefined =>
    key === resourceKey(doc.header) ? doc.header : key === resourceKey(doc.lines) ? doc.lines : findResource(key);
}

async function checkLines(ctx: SessionContext, doc: DocumentDef, lines: Row[]) {
  for (const line of lines) {
    await checkRelations(ctx, doc.lines, line);
    await checkDictionaries(ctx, doc.lines, line);
  }
}

function lineRow(ctx: SessionContext, doc: DocumentDef, docId: number, lineNo: number, values: Row, now: number): Row {
  return {
    tenant_id: ctx.session.tenantId,
    id: newId(),
    ...toColumns(doc.lines, values),
    [column(doc.lines.fields, LINE_DOCUMENT)]: docId,
    [column(doc.lines.fields, LINE_NO)]: lineNo,
    created_at: now,
    created_by: ctx.session.userId,
    updated_at: now,
    updated_by: ctx.session.userId,
  };
}

export async function createDocument(ctx: SessionContext, doc: DocumentDef, body: Row & { lines: Row[] }, raw: unknown, rules: DocumentRules = {}): Promise<Row> {
  const { lines: given, ...values } = body;
  // Filled on copies: the body as sent is what the Idempotency-Key's hash compares.
  const lines = given.map((line) => ({ ...line }));
  await rules.fill?.(ctx, db(ctx), values, lines);
  await checkRelations(ctx, doc.header, values);
  await checkDictionaries(ctx, doc.header, values);
  await checkLines(ctx, doc, lines);
  await checkUnique(ctx, doc.header, values);
  return idempotent(ctx, raw, (trx: AnyDb) => insertDocument(trx, ctx, doc, values, lines, rules));
}

/**
 * Writes a new document (its number, header, lines, history and log) in the caller's write transaction, from values
 * already filled and checked: what `createDocument` runs under its key, and what a module runs when one change of its
 * own makes another document (a purchase receipt's stock-in).
 */
export async function insertDocument(trx: AnyDb, ctx: SessionContext, doc: DocumentDef, values: Row, lines: Row[], rules: DocumentRules = {}): Promise<Row> {
  await rules.guardWrite?.(ctx, trx, values);
  const id = newId();
  const now = ctx.now;
  const status = doc.workflow.initial;
  const row: Row = {
    tenant_id: ctx.session.tenantId,
    id,
    ...toColumns(doc.header, values),
    [column(doc.header.fields, DOC_NO)]: await nextDocumentNumber(trx, doc, ctx.session.tenantId, now),
    [column(doc.header.fields, DOC_STATUS)]: status,
    [column(doc.header.fields, DOC_VERSION)]: 1,
    created_at: now,
    created_by: ctx.session.userId,
    updated_at: now,
    updated_by: ctx.session.userId,
  };
  await trx.insertInto(doc.header.table).values(row).execute();
  const made = rules.createLines ? await rules.createLines(ctx, trx, { ...values, id }) : [];
  const lineRows = [...lines, ...made].map((line, i) => lineRow(ctx, doc, id, i + 1, line, now));
  // In parts: a statement's parameters are bounded (SQLite 32,766, PostgreSQL 65,535), a stocktake's lines are not.
  for (let at = 0; at < lineRows.length; at += 500) await trx.insertInto(doc.lines.table).values(lineRows.slice(at, at + 500)).execute();
  const kept = await keepLineTotals(trx, doc, ctx.session.tenantId, id);
  await writeHistory(trx, ctx, doc, id, "create", null, status, null);
  await recordOperation(trx, ctx, doc.header, id, "create", { ...values, [DOC_NO]: row[column(doc.header.fields, DOC_NO)], lines: lines.length });
  return { ...toRecord(doc.header, row), ...kept, lines: lineRows.map((r) => toRecord(doc.lines, r)) };
}

export async function updateDocument(
  ctx: SessionContext,
  doc: DocumentDef,
  body: Row & { id: number; version: number; lines?: Row[] },
  raw: unknown,
  rules: DocumentRules = {},
): Promise<Row> {
  const { id, version, lines: given, ...values } = body;
  const lines = given?.map((line) => ({ ...line }));
  if (rules.fill) await rules.fill(ctx, db(ctx), values, lines ?? [], await loadHeader(db(ctx), doc, ctx.session.tenantId, id));
  const tenantId = ctx.session.tenantId;
  const statusColumn = column(doc.header.fields, DOC_STATUS);
  const versionColumn = column(doc.header.fields, DOC_VERSION);
  // What does not depend on the document's state is checked first, outside the write transaction (these reads go
  // through the connection the transaction would hold).
  await checkRelations(ctx, doc.header, values);
  await checkDictionaries(ctx, doc.header, values);
  await checkUnique(ctx, doc.header, values, id);
  if (lines) await checkLines(ctx, doc, lines);
  return idempotent(ctx, raw, async (trx: AnyDb) => {
    const current = await loadHeader(trx, doc, tenantId, id);
    if (!isEditable(doc, current[statusColumn])) throw new ApiError(Status.CONFLICT, documentMessages.wrongStatus(doc, current[statusColumn], "修改"));
    if (version !== current[versionColumn]) throw new ApiError(Status.CONFLICT, documentMessages.stale);
    await rules.guardWrite?.(ctx, trx, values, current);
    // The lines given are the whole new set: one with an id keeps what it does not give, one without is added.
    const existing = lines ? new Set((await loadLines(trx, doc, tenantId, id)).map((row) => row.id as number)) : new Set<number>();
    const kept = new Set<number>();
    (lines ?? []).forEach((line, i) => {
      if (line.id === undefined) return;
      if (!existing.has(line.id as number) || kept.has(line.id as number)) throw fieldError(`lines.${i}.id`, `第 ${i + 1} 行${doc.linesTitle}不存在或重复`);
      kept.add(line.id as number);
    });
    const now = Math.max(ctx.now, Number(current.updated_at) + 1);
    const moved = await trx
      .updateTable(doc.header.table)
      .set({ ...toColumns(doc.header, values), [versionColumn]: version + 1, updated_at: now, updated_by: ctx.session.userId })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .where(statusColumn, "=", current[statusColumn])
      .where(versionColumn, "=", version)
      .executeTakeFirst();
    // Within the transaction the row read above cannot change on SQLite; on PostgreSQL a concurrent step may have
    // moved it between the read and this update.
    if (Number(moved.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, documentMessages.stale);
    const changes: Row = { ...values };
    if (lines) {
      const documentColumn = column(doc.lines.fields, LINE_DOCUMENT);
      const lineNoColumn = column(doc.lines.fields, LINE_NO);
      const removed = [...existing].filter((lineId) => !kept.has(lineId));
      if (removed.length) {
        await trx.deleteFrom(doc.lines.table).where("tenant_id", "=", tenantId).where(documentColumn, "=", id).where("id", "in", removed).execute();
      }
      const added: Row[] = [];
      for (const [i, line] of lines.entries()) {
        if (line.id === undefined) {
          added.push(lineRow(ctx, doc, id, i + 1, line, now));
          continue;
        }
        const { id: lineId, ...given } = line;
        await trx
          .updateTable(doc.lines.table)
          .set({ ...toColumns(doc.lines, given), [lineNoColumn]: i + 1, updated_at: now, updated_by: ctx.session.userId })
          .where("tenant_id", "=", tenantId)
          .where(documentColumn, "=", id)
          .where("id", "=", lineId)
          .execute();
      }
      if (added.length) await trx.insertInto(doc.lines.table).values(added).execute();
      await keepLineTotals(trx, doc, tenantId, id);
      changes.lines = { kept: kept.size, added: added.length, removed: removed.length };
    }
    await recordOperation(trx, ctx, doc.header, id, "update", changes);
    const header = await loadHeader(trx, doc, tenantId, id);
    return { ...toRecord(doc.header, header), lines: (await loadLines(trx, doc, tenantId, id)).map((row) => toRecord(doc.lines, row)) };
  });
}

/** The header with its relations' labels, its lines (with theirs) and its status history. */
export async function getDocument(ctx: SessionContext, doc: DocumentDef, id: number, rules: DocumentRules = {}): Promise<Row> {
  const lookup = documentLookup(doc);
  const header = await getInfo(ctx, doc.header, id, lookup);
  const lines = (await loadLines(db(ctx), doc, ctx.session.tenantId, id)).map((row) => toRecord(doc.lines, row));
  await withRelationLabels(ctx, doc.lines, lines, lookup);
  const document = { ...header, lines, history: await statusHistory(db(ctx), doc, ctx.session.tenantId, id) };
  await rules.describe?.(ctx, db(ctx), document);
  return document;
}

/**
 * What the print view shows (decision 082): the document as `getInfo` answers it, the title its sheet is printed for
 * (the tenant's receipt title, else its name) and, when the print declares a unit, each line's `unit` (the goods'
 * 千克) for its quantities.
 */
export async function printDocument(ctx: SessionContext, doc: DocumentDef, id: number, rules: DocumentRules = {}): Promise<Row> {
  const document = await getDocument(ctx, doc, id, rules);
  const unit = printOf(doc).unit;
  if (unit) {
    const lines = document.lines as Row[];
    const target = findResource(doc.lines.fields.find((f) => f.name === unit.relation)?.relation as string) as ResourceDef;
    const unitField = target.fields.find((f) => f.name === unit.field) as FieldDef;
    const ids = [...new Set(lines.map((l) => l[unit.relation]).filter((v): v is number => typeof v === "number"))];
    const rows: Row[] = ids.length
      ? await db(ctx).selectFrom(target.table).select(["id", `${columnOf(unitField)} as unit`]).where("tenant_id", "=", ctx.session.tenantId).where("id", "in", ids).execute()
      : [];
    const records = rows.map((r) => ({ id: r.id, [unitField.name]: r.unit }));
    await withRelationLabels(ctx, { ...target, fields: [unitField] }, records, findResource);
    const units = new Map(records.map((r) => [r.id, (r[`${unitField.name}Label`] as string | null) ?? null]));
    for (const line of lines) line.unit = units.get(line[unit.relation]) ?? null;
  }
  return { ...document, title: await receiptTitle(ctx.services.db, ctx.session.tenantId) };
}

/**
 * `GET …/lineOptions?field=&<header field>=&keyword=`: the choices of a line relation narrowed by a header field
 * (decision 071), for whoever may write the document. No header value yet, or one not of the caller's tenant: none.
 */
function lineOptionsEndpoints(doc: DocumentDef, rules: DocumentRules): Endpoint[] {
  const narrowed = narrowedLineFields(doc);
  if (!narrowed.length) return [];
  const headerFields = [...new Set(narrowed.map((f) => f.narrowedBy as string))];
  const query = z.object({
    field: z.enum(narrowed.map((f) => f.name) as [string, ...string[]], { error: `field 应为${narrowed.map((f) => f.name).join("、")}之一` }),
    keyword: fieldSchema({ name: "keyword", label: "关键字", type: "text", max: 50 }, true),
    ...Object.fromEntries(headerFields.map((name) => [name, z.preprocess((v) => (v === "" ? undefined : v), recordId(doc.header.fields.find((f) => f.name === name)?.label ?? name).optional())])),
  });
  return [
    endpoint({
      method: "GET",
      path: documentPath(doc, LINE_OPTIONS),
      summary: `${doc.title}明细的可选项（按表头所选单据筛选，可按关键字搜索）`,
      access: permission(permissionCode(doc.header, "create")),
      query,
      handle: async (ctx, { query: q }) => {
        const values = q as Row & { field: string; keyword?: string };
        const field = narrowed.find((f) => f.name === values.field) as (typeof narrowed)[number];
        const headerValue = values[field.narrowedBy as string];
        if (headerValue === undefined || headerValue === null) return { records: [] };
        const keyword = typeof values.keyword === "string" && values.keyword.trim() ? values.keyword.trim() : undefined;
        const records = await (rules.lineOptions?.[field.name] as NonNullable<DocumentRules["lineOptions"]>[string])(ctx as SessionContext, db(ctx as SessionContext), Number(headerValue), keyword);
        return { records };
      },
    }),
  ];
}

/** Every endpoint of one document. `rules` must name every guard, effect and ledger the declaration does. */
export function documentEndpoints(doc: DocumentDef, rules: DocumentRules = {}): Endpoint[] {
  checkDocumentRules(doc, rules);
  const schemas = documentSchemas(doc);
  const session = (ctx: unknown) => ctx as SessionContext;
  const lookup = documentLookup(doc);
  const view = permission(permissionCode(doc.header, "view"));
  const list: Endpoint[] = [
    endpoint({
      method: "GET",
      path: documentPath(doc, "findPage"),
      summary: `${doc.title}分页查询（可按状态筛选）`,
      access: view,
      query: schemas.findPage,
      handle: (ctx, { query }) => findPage(session(ctx), doc.header, query as Parameters<typeof findPage>[2], lookup),
    }),
    endpoint({
      method: "GET",
      path: documentPath(doc, "getInfo"),
      summary: `${doc.title}详情：表头、${doc.linesTitle}与审批记录`,
      access: view,
      query: z.object({ id: recordId() }),
      handle: (ctx, { query }) => getDocument(session(ctx), doc, query.id, rules),
    }),
    endpoint({
      method: "GET",
      path: documentPath(doc, PRINT),
      summary: `${doc.title}打印：详情，加 title（打印抬头：租户参数 zhct.receipt.title，未设为租户名称）与每行数量的单位 unit`,
      access: view,
      query: z.object({ id: recordId() }),
      handle: (ctx, { query }) => printDocument(session(ctx), doc, query.id, rules),
    }),
    endpoint({
      method: "POST",
      path: documentPath(doc, "create"),
      summary: `新增${doc.title}（表头与 lines，编号自动生成；支持 Idempotency-Key）`,
      access: permission(permissionCode(doc.header, "create")),
      body: schemas.create,
      handle: (ctx, { body }) => createDocument(session(ctx), doc, body as Row & { lines: Row[] }, body, rules),
    }),
    endpoint({
      method: "POST",
      path: documentPath(doc, "update"),
      summary: `修改${doc.title}（仅可编辑的状态；带读取时的 version；lines 为完整的新明细）`,
      access: permission(permissionCode(doc.header, "update")),
      body: schemas.update,
      handle: (ctx, { body }) => updateDocument(session(ctx), doc, body as Row & { id: number; version: number; lines?: Row[] }, body, rules),
    }),
    ...doc.workflow.transitions.map((t) =>
      endpoint({
        method: "POST",
        path: documentPath(doc, t.name),
        summary: `${t.label}${doc.title}${t.reasonRequired ? `（须填写${t.label}原因）` : ""}（支持 Idempotency-Key）`,
        access: permission(transitionPermission(doc, t)),
        body: schemas.transition(t),
        handle: (ctx, { body }) => runTransition(session(ctx), doc, rules, t, body as Row & { id: number }, body),
      }),
    ),
    ...lineOptionsEndpoints(doc, rules),
    // The export is the resource engine's, over the headers.
    ...resourceEndpoints({ ...doc.header, actions: ["export"] }, lookup).filter((e) => e.path === documentPath(doc, "export")),
  ];
  return list.map((e) => ({ ...e, resource: resourceKey(doc.header) }));
}
