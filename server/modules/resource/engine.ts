import { sql, type Kysely } from "kysely";
import type { z } from "zod";
import { columnOf, filterFields, type FieldDef, type ResourceDef } from "../../../resources/define";
import { createSchema, findPageSchema } from "../../../resources/schemas";
import { builtInDicts, isNumericDict } from "../../../resources/dicts";
import { findResource } from "../../../resources/index";
import { newId } from "../../db";
import { runPrepared } from "../../db/prepared";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { isSuper } from "../auth/session";
import { assertUploaded } from "../sys/files";
import { recordOperation } from "./operationLog";
import { columnValue, recordValue, toColumns, toRecord, type Row } from "./rows";
import { isUniqueViolation } from "../../db/faults";
import { bumpShellGeneration } from "../auth/shellCache";
import { isTenantDict, tenantDictItems } from "./tenantRows";

// The engine builds queries for any declared table, so it works below Kysely's table typing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const messages = {
  notFound: (def: ResourceDef) => `${def.title}不存在或已被删除`,
  stale: "数据已被他人修改，请刷新后重试",
  referenced: (def: ResourceDef) => `该${def.title}仍被其他数据引用，不能删除`,
  duplicate: (field: FieldDef) => `${field.label}已存在`,
  superOnly: "只有超级管理员可以管理此数据",
  relationMissing: (field: FieldDef) => `所选${field.label}不存在`,
  relationKind: (field: FieldDef, name: string, kinds: string) => `所选${field.label}「${name}」不是${kinds}，请重新选择`,
  notInDict: (field: FieldDef) => `${field.label}不是可选的值`,
};

/** Hooks for entities with rules of their own; the generic handlers call them. */
export interface ResourceService {
  /** Checks and adjusts values before a create; throw ApiError to refuse. */
  beforeCreate?(ctx: SessionContext, values: Row): Promise<void> | void;
  beforeUpdate?(ctx: SessionContext, values: Row, current: Row): Promise<void> | void;
  beforeDelete?(ctx: SessionContext, current: Row): Promise<void> | void;
  /** Runs inside the create's transaction, after the insert (child rows, links). */
  afterCreate?(ctx: SessionContext, trx: AnyDb, record: Row, input: Row): Promise<void>;
  /**
   * Runs inside an import's transaction, after its rows are inserted, with all of them (columns as stored): what
   * afterCreate does, once for the batch. Without it an import calls afterCreate for each row.
   */
  afterImport?(ctx: SessionContext, trx: AnyDb, rows: Row[]): Promise<void>;
  /** Runs inside the update's transaction, after the update (rows kept in step with it). */
  afterUpdate?(ctx: SessionContext, trx: AnyDb, row: Row, current: Row): Promise<void>;
  /** Runs inside the delete's transaction, before each row goes (its own rows; checks that see the batch). */
  onDelete?(ctx: SessionContext, trx: AnyDb, current: Row): Promise<void>;
}

export function db(ctx: SessionContext): AnyDb {
  return ctx.services.db as unknown as AnyDb;
}

export function assertAllowed(ctx: SessionContext, def: ResourceDef) {
  if (def.superOnly && !isSuper(ctx.session)) throw new ApiError(Status.FORBIDDEN, messages.superOnly);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function whereTenant<Q extends { where: (...args: any[]) => Q }>(query: Q, def: ResourceDef, tenantId: unknown): Q {
  return def.scope === "tenant" ? query.where(`${def.table}.tenant_id`, "=", tenantId) : query;
}

/**
 * A tree's row may not move under itself: walks up from the new parent, and meeting the row means the move would
 * close a loop (the org tree, the goods types). The message names the tree's parent field.
 */
export async function assertNoTreeCycle(ctx: SessionContext, def: ResourceDef, id: number, parentId: number, message: string) {
  const parent = def.fields.find((f) => f.type === "treeParent") as FieldDef;
  let current: number | null = parentId;
  for (let depth = 0; current !== null && depth < 1000; depth++) {
    if (current === id) throw fieldError(parent.name, message);
    const row: Row | undefined = await whereTenant(db(ctx).selectFrom(def.table).select(`${columnOf(parent)} as parent`).where("id", "=", current), def, ctx.session.tenantId).executeTakeFirst();
    current = (row?.parent as number | null | undefined) ?? null;
  }
}

/**
 * Locks the row that owns a set of links (a user's roles, a role's menus) for the rest of the transaction, so two
 * requests replacing that set run one after the other instead of both inserting the same links. SQLite runs one
 * writing transaction at a time already.
 */
export async function lockOwner(ctx: SessionContext, trx: AnyDb, table: string, id: number) {
  if (ctx.services.dialect !== "postgres") return;
  await trx.selectFrom(table).select("id").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id).forUpdate().execute();
}

export const COUNT_CAP = 10_000;

export type PageQuery = z.output<ReturnType<typeof findPageSchema>>;

/** One filter of a list query, its value as the column compares it. */
interface Condition {
  column: string;
  op: ">=" | "<=" | "=" | "like";
  value: unknown;
}

/** The list's filters that the query parameters set. */
function filterConditions(def: ResourceDef, params: Record<string, unknown>): Condition[] {
  const conditions: Condition[] = [];
  const fixed = def.fixedFilter && def.fields.find((f) => f.name === def.fixedFilter?.field);
  if (fixed) conditions.push({ column: `${def.table}.${columnOf(fixed)}`, op: "=", value: fixed.type === "enum" ? coerceEnum(fixed, def.fixedFilter?.value) : def.fixedFilter?.value });
  for (const field of filterFields(def)) {
    const column = `${def.table}.${columnOf(field)}`;
    if (field.filter === "range") {
      const begin = params[`${field.name}Begin`];
      const end = params[`${field.name}End`];
      if (begin !== undefined && begin !== null) conditions.push({ column, op: ">=", value: columnValue(field, begin) });
      if (end !== undefined && end !== null) conditions.push({ column, op: "<=", value: columnValue(field, end) });
      continue;
    }
    const value = params[field.name];
    if (value === undefined || value === null || value === "") continue;
    if (field.filter === "like") {
      conditions.push({ column, op: "like", value: containsPattern(String(value)) });
    } else {
      conditions.push({ column, op: "=", value: field.type === "enum" ? coerceEnum(field, value) : columnValue(field, value) });
    }
  }
  return conditions;
}

/** A like pattern for text contained anywhere, its `%`, `_` and `\` taken as typed. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column` matches a `containsPattern`, Latin letters compared without case on both databases. */
export function likeMatch(column: string, pattern: unknown, dialect: string) {
  return sql<boolean>`${sql.ref(column)} ${sql.raw(dialect === "postgres" ? "ilike" : "like")} ${pattern} escape '\\'`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function whereCondition(query: any, { column, op }: Pick<Condition, "column" | "op">, value: unknown, dialect: string) {
  return op === "like" ? query.where(likeMatch(column, value, dialect)) : query.where(column, op, value);
}

/** Enum columns hold numbers or text by dictionary; compare with what the column holds. */
function coerceEnum(field: FieldDef, value: unknown) {
  return field.dict && isNumericDict(field.dict) ? Number(value) : String(value);
}

export function sortOf(def: ResourceDef, sort: string | undefined): { column: string; dir: "asc" | "desc" } {
  const [name, dir] = (sort ?? `${def.defaultSort?.field ?? "createdAt"},${def.defaultSort?.dir ?? "desc"}`).split(",") as [
    string,
    "asc" | "desc",
  ];
  const field = def.fields.find((f) => f.name === name);
  const column = field ? columnOf(field) : name === "updatedAt" ? "updated_at" : "created_at";
  return { column: `${def.table}.${column}`, dir };
}

/** Adds `{field}Label` for relation fields so lists show names, one query per related table. */
export async function withRelationLabels(ctx: SessionContext, def: ResourceDef, records: Row[], lookup: (key: string) => ResourceDef | undefined) {
  for (const field of def.fields.filter((f) => (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const target = lookup(field.relation as string);
    if (!target) continue;
    const ids = [...new Set(records.map((r) => r[field.name]).filter((v): v is number => typeof v === "number"))];
    if (!ids.length) continue;
    const labelColumn = columnOf(target.fields.find((f) => f.name === target.labelField) as FieldDef);
    let query = db(ctx).selectFrom(target.table).select(["id", `${labelColumn} as label`]).where("id", "in", ids);
    if (target.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
    const labels = new Map((await query.execute()).map((r: Row) => [r.id, r.label]));
    for (const record of records) record[`${field.name}Label`] = labels.get(record[field.name]) ?? null;
  }
}

export async function findPage(
  ctx: SessionContext,
  def: ResourceDef,
  params: PageQuery,
  lookup: (key: string) => ResourceDef | undefined,
) {
  assertAllowed(ctx, def);
  const conditions = filterConditions(def, params);
  const { column, dir } = sortOf(def, params.sort);
  // The values that change between requests are arguments; the rest is the query's shape, compiled once.
  const shape = `${def.table} ${def.scope} ${conditions.map((c) => `${c.column} ${c.op}`).join(",")}`;
  const scoped = def.scope === "tenant";
  const values = [...(scoped ? [ctx.session.tenantId] : []), ...conditions.map((c) => c.value)];
  const base = (args: unknown[]) =>
    conditions.reduce(
      (query, condition, i) => whereCondition(query, condition, args[scoped ? i + 1 : i], ctx.services.dialect),
      whereTenant(db(ctx).selectFrom(def.table), def, args[0]),
    );
  const [rows, [count]] = await Promise.all([
    runPrepared(db(ctx), `page ${shape} ${column} ${dir}`, [...values, params.pageSize, (params.pageNum - 1) * params.pageSize], (args) =>
      base(args)
        .selectAll(def.table)
        .orderBy(column, dir)
        .orderBy(`${def.table}.id`, dir)
        .limit(args[values.length] as number)
        .offset(args[values.length + 1] as number),
    ),
    // Counting stops at COUNT_CAP: an exact total of a million log rows costs more than the page itself. If a row
    // lies beyond the cap the total is "more than COUNT_CAP" (one step through the index); only below it are rows
    // counted. COALESCE evaluates its second argument only when the first is null, on both databases.
    runPrepared(db(ctx), `count ${shape}`, values, (args) =>
      db(ctx).selectNoFrom((eb) =>
        eb.fn
          .coalesce(
            base(args).select(sql<number>`${sql.lit(COUNT_CAP + 1)}`.as("beyond")).limit(1).offset(COUNT_CAP),
            base(args).select(sql<number>`count(*)`.as("counted")),
          )
          .as("total"),
      ),
    ),
  ]);
  const records = (rows as Row[]).map((row) => toRecord(def, row));
  await withRelationLabels(ctx, def, records, lookup);
  const counted = Number((count as Row).total);
  return {
    records,
    total: Math.min(counted, COUNT_CAP),
    totalCapped: counted > COUNT_CAP,
    pageNum: params.pageNum,
    pageSize: params.pageSize,
  };
}

export async function getRow(ctx: SessionContext, def: ResourceDef, id: number): Promise<Row> {
  assertAllowed(ctx, def);
  const row = await whereTenant(db(ctx).selectFrom(def.table).selectAll().where(`${def.table}.id`, "=", id), def, ctx.session.tenantId).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND, messages.notFound(def));
  const fixed = def.fixedFilter && def.fields.find((f) => f.name === def.fixedFilter?.field);
  if (fixed && String((row as Row)[columnOf(fixed)]) !== def.fixedFilter?.value) throw new ApiError(Status.NOT_FOUND, messages.notFound(def));
  return row as Row;
}

export async function getInfo(ctx: SessionContext, def: ResourceDef, id: number, lookup: (key: string) => ResourceDef | undefined) {
  const record = toRecord(def, await getRow(ctx, def, id));
  await withRelationLabels(ctx, def, [record], lookup);
  return record;
}

/**
 * A relation names a row the caller may see: one of its own tenant when the target is tenant-scoped. A picture or
 * file names an upload of the tenant.
 */
export async function checkRelations(ctx: SessionContext, def: ResourceDef, values: Row) {
  for (const field of def.fields) {
    if (field.type === "image" || field.type === "file") await assertUploaded(ctx.services.db, ctx.session.tenantId, field, values[field.name]);
    if ((field.type !== "relation" && field.type !== "treeParent") || !field.relation) continue;
    const value = values[field.name];
    const target = findResource(field.relation);
    if (value === undefined || value === null || !target) continue;
    const kind = field.relationWhere && target.fields.find((f) => f.name === field.relationWhere?.field);
    const label = target.fields.find((f) => f.name === target.labelField);
    let query = db(ctx).selectFrom(target.table).select("id").where("id", "=", value);
    if (kind && label) query = query.select([`${columnOf(kind)} as kind`, `${columnOf(label)} as label`]);
    if (target.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
    const row: Row | undefined = await query.executeTakeFirst();
    if (!row) throw fieldError(field.name, messages.relationMissing(field));
    const allowed = field.relationWhere?.values;
    if (kind && allowed && !allowed.includes(String(row.kind))) {
      const names = allowed.map((v) => builtInDicts[kind.dict ?? ""]?.options.find((o) => o.value === v)?.label ?? v);
      throw fieldError(field.name, messages.relationKind(field, String(row.label ?? row.id), names.join("或")));
    }
  }
}

/**
 * An enum's value is an item of its dictionary (compared as strings, spec §3): the server's items, which an admin
 * may extend, or the built-in list while the server has none; a tenant's own dictionary is its rows in use (decision 064).
 */
export async function checkDictionaries(ctx: SessionContext, def: ResourceDef, values: Row) {
  for (const field of def.fields) {
    const value = values[field.name];
    if (field.type !== "enum" || !field.dict || value === undefined || value === null) continue;
    const items = isTenantDict(field.dict)
      ? (await tenantDictItems(db(ctx), ctx.session.tenantId, [field.dict])).map((i) => ({ item_value: i.itemValue }))
      : await db(ctx).selectFrom("dict_item").select("item_value").where("dict_code", "=", field.dict).execute();
    const allowed = items.length || isTenantDict(field.dict) ? items.map((i: Row) => String(i.item_value)) : builtInDicts[field.dict]?.options.map((o) => o.value);
    if (allowed && !allowed.includes(String(value))) throw fieldError(field.name, messages.notInDict(field));
  }
}

export async function checkUnique(ctx: SessionContext, def: ResourceDef, values: Row, exceptId?: number, current?: Row) {
  for (const field of def.fields.filter((f) => f.unique)) {
    const value = values[field.name];
    if (value === undefined || value === null || value === "") continue;
    let query = whereTenant(db(ctx).selectFrom(def.table).select("id").where(columnOf(field), "=", value), def, ctx.session.tenantId);
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    if (await query.executeTakeFirst()) {
      throw new ApiError(Status.BAD_REQUEST, messages.duplicate(field), { fieldErrors: { [field.name]: [messages.duplicate(field)] } });
    }
  }
  // A key of several fields: an update names only what it changes, the rest is as the row has it.
  const record = current ? toRecord(def, current) : {};
  for (const key of def.uniqueKeys ?? []) {
    const fields = key.fields.map((name) => def.fields.find((f) => f.name === name) as FieldDef);
    const keyValues = fields.map((f) => values[f.name] ?? record[f.name]);
    if (keyValues.some((v) => v === undefined || v === null || v === "")) continue;
    let query = whereTenant(db(ctx).selectFrom(def.table).select("id"), def, ctx.session.tenantId);
    fields.forEach((f, i) => (query = query.where(columnOf(f), "=", f.type === "enum" ? coerceEnum(f, keyValues[i]) : keyValues[i])));
    if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
    if (await query.executeTakeFirst()) throw new ApiError(Status.BAD_REQUEST, key.message, { fieldErrors: { [key.fields[0]]: [key.message] } });
  }
}

export async function createRecord(ctx: SessionContext, def: ResourceDef, input: Row, service?: ResourceService): Promise<Row> {
  assertAllowed(ctx, def);
  const values = createSchema(def).parse(input) as Row;
  await checkRelations(ctx, def, values);
  await checkDictionaries(ctx, def, values);
  await service?.beforeCreate?.(ctx, values);
  await checkUnique(ctx, def, values);
  const id = newId();
  const now = ctx.now;
  const row: Row = {
    ...(def.scope === "tenant" ? { tenant_id: ctx.session.tenantId } : {}),
    id,
    ...toColumns(def, values),
    created_at: now,
    created_by: ctx.session.userId,
    updated_at: now,
    updated_by: ctx.session.userId,
  };
  await refusingDuplicates(ctx, def, values, undefined, undefined, () =>
    db(ctx).transaction().execute(async (trx) => {
      await trx.insertInto(def.table).values(row).execute();
      await service?.afterCreate?.(ctx, trx, row, input);
      if (def.shellData) await bumpShellGeneration(trx);
      await recordOperation(trx, ctx, def, id, "create", values);
    }),
  );
  // Read back: the answer shows what the database filled in (column defaults) as getInfo will.
  return toRecord(def, await getRow(ctx, def, id));
}

export async function updateRecord(ctx: SessionContext, def: ResourceDef, values: Row, service?: ResourceService): Promise<Row> {
  const id = values.id as number;
  const current = await getRow(ctx, def, id);
  if (values.updatedAt !== undefined && values.updatedAt !== current.updated_at) throw new ApiError(Status.CONFLICT, messages.stale);
  await checkRelations(ctx, def, values);
  await checkDictionaries(ctx, def, values);
  await service?.beforeUpdate?.(ctx, values, current);
  await checkUnique(ctx, def, values, id, current);
  const columns = toColumns(def, values);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of def.fields) {
    const column = columnOf(field);
    if (column in columns && columns[column] !== current[column]) {
      // Quantities as the API speaks them (decimals), the rest as stored.
      const shown = (v: unknown) => (field.type === "quantity" ? recordValue(field, v) : v);
      changes[field.name] = [shown(current[column]), shown(columns[column])];
    }
  }
  const now = Math.max(ctx.now, (current.updated_at as number) + 1);
  await refusingDuplicates(ctx, def, values, id, current, () => db(ctx).transaction().execute(async (trx) => {
    // The version check repeats in the statement, so two editors racing cannot both win.
    let query = trx
      .updateTable(def.table)
      .set({ ...columns, updated_at: now, updated_by: ctx.session.userId })
      .where("id", "=", id)
      .where("updated_at", "=", current.updated_at);
    if (def.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
    const result = await query.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, messages.stale);
    await service?.afterUpdate?.(ctx, trx, { ...current, ...columns, updated_at: now }, current);
    if (def.shellData) await bumpShellGeneration(trx);
    await recordOperation(trx, ctx, def, id, "update", changes);
  }));
  return toRecord(def, { ...current, ...columns, updated_at: now });
}


/**
 * Two requests that both passed checkUnique before either wrote: the table's unique key refuses the later one,
 * which then gets the answer it would have had a moment later (the field already exists), not a 500.
 */
async function refusingDuplicates<T>(ctx: SessionContext, def: ResourceDef, values: Row, exceptId: number | undefined, current: Row | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await checkUnique(ctx, def, values, exceptId, current);
    throw new ApiError(Status.CONFLICT, messages.stale);
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23503" || e?.code === "SQLITE_CONSTRAINT_FOREIGNKEY" || /FOREIGN KEY constraint failed/.test(e?.message ?? "");
}

export async function deleteRecords(ctx: SessionContext, def: ResourceDef, ids: number[], service?: ResourceService) {
  const rows = await Promise.all(ids.map((id) => getRow(ctx, def, id)));
  for (const row of rows) await service?.beforeDelete?.(ctx, row);
  try {
    await db(ctx).transaction().execute(async (trx) => {
      for (const row of rows) {
        await service?.onDelete?.(ctx, trx, row);
        let query = trx.deleteFrom(def.table).where("id", "=", row.id);
        if (def.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
        await query.execute();
        await recordOperation(trx, ctx, def, row.id as number, "delete", toRecord(def, row));
      }
      if (def.shellData) await bumpShellGeneration(trx);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new ApiError(Status.CONFLICT, messages.referenced(def));
    throw error;
  }
  return { deleted: rows.length };
}
