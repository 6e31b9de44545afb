import ExcelJS from "exceljs";
import { columnOf, importFields, resourceKey, type FieldDef, type ResourceDef } from "../../../resources/define";
import { chinaWallClockToMillis } from "../../../resources/chinaTime";
import { yuanToFen } from "../../../resources/forms";
import { MAX_QUANTITY } from "../../../resources/quantity";
import { fieldSchema } from "../../../resources/schemas";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, importMessages, type ImportProblem, type ImportReport } from "../../../resources/imports";
import { newId } from "../../db";
import type { SessionContext } from "../../http/endpoint";
import { readBody } from "../../http/body";
import { ApiError, Status } from "../../http/envelope";
import { assertAllowed, db, type ResourceService } from "./engine";
import { loadDicts } from "./export";
import { operationRow } from "./operationLog";
import { columnValue, type Row } from "./rows";
import { bumpShellGeneration } from "../auth/shellCache";
import { FormulaFound, isZip, readFirstSheet as readSheet } from "./sheet";

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound values for any declared table. */
const INSERT_BATCH = 200;
/** Values per IN (…) of a lookup. */
const LOOKUP_BATCH = 500;
/** A report lists at most this many problems (it still counts every bad row). */
const REPORT_LIMIT = 5_000;

const REQUIRED_MARK = "*";
const headerOf = (field: FieldDef) => `${field.label}${field.required ? REQUIRED_MARK : ""}`;

type Lookup = (key: string) => ResourceDef | undefined;

/** A relation's target's unique text fields: a code names a row where a name may not. */
const codeFields = (target: ResourceDef) => target.fields.filter((f) => f.unique && f.type === "text" && f.name !== target.labelField);

function howToFill(field: FieldDef, dicts: Map<string, Map<string, string>>, lookup: Lookup): string {
  switch (field.type) {
    case "enum":
      return `填写以下之一：${[...(dicts.get(field.dict ?? "")?.values() ?? [])].join("、")}`;
    case "relation":
    case "treeParent": {
      const target = lookup(field.relation ?? "");
      const codes = target ? codeFields(target).map((f) => f.label) : [];
      return `填写${target?.title ?? ""}的名称${codes.length ? `或${codes.join("、")}` : ""}`;
    }
    case "money":
      return "金额（元），最多两位小数";
    case "quantity":
      return `数量，最多三位小数，不大于 ${field.max ?? MAX_QUANTITY}`;
    case "number":
      return `整数${field.min !== undefined ? `，不小于 ${field.min}` : ""}${field.max !== undefined ? `，不大于 ${field.max}` : ""}`;
    case "boolean":
      return "是 或 否";
    case "date":
      return "日期，如 2026-01-31";
    case "time":
      return "时间，如 08:30";
    case "datetime":
      return "日期时间，如 2026-01-31 08:30";
    default:
      return `文本，最多 ${field.max ?? (field.type === "longText" ? 2000 : 200)} 个字符`;
  }
}

/** The template: one column per importable field (Chinese headers, * for required), and a sheet saying how to fill each. */
export async function importTemplate(ctx: SessionContext, def: ResourceDef, lookup: Lookup): Promise<Response> {
  assertAllowed(ctx, def);
  const fields = importFields(def);
  const dicts = await loadDicts(ctx);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(def.title);
  sheet.columns = fields.map((f) => ({ header: headerOf(f), key: f.name, width: Math.max(14, f.label.length * 2 + 6) }));
  sheet.getRow(1).font = { bold: true };
  // Codes such as 007 stay text rather than becoming the number 7.
  fields.forEach((f, i) => {
    if (f.type === "text") sheet.getColumn(i + 1).numFmt = "@";
  });
  const guide = workbook.addWorksheet("填写说明");
  guide.columns = [
    { header: "列", key: "column", width: 20 },
    { header: "必填", key: "required", width: 8 },
    { header: "填写说明", key: "how", width: 80 },
  ];
  guide.getRow(1).font = { bold: true };
  for (const f of fields) guide.addRow({ column: f.label, required: f.required ? "是" : "否", how: howToFill(f, dicts, lookup) });
  guide.addRow({});
  guide.addRow({ column: "说明", how: `从第 2 行起每行一条${def.title}；不要改动第 1 行的列名；一次最多 ${IMPORT_MAX_ROWS} 行。` });
  const bytes = await workbook.xlsx.writeBuffer();
  const fileName = `${def.title}导入模板.xlsx`;
  return new Response(bytes as ArrayBuffer, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${resourceKey(def).replace("/", "-")}-template.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}

/** The file's bytes: a multipart form's `file`, or the body itself. Past the size limit, or not an xlsx (a ZIP): 400. */
export async function readImportFile(request: Request): Promise<Uint8Array> {
  const body = await readBody(request, IMPORT_MAX_BYTES + 64 * 1024).catch((error: unknown) => {
    throw error instanceof ApiError && error.status === Status.PAYLOAD_TOO_LARGE ? new ApiError(Status.BAD_REQUEST, importMessages.tooLarge) : error;
  });
  let bytes: Uint8Array = body;
  const type = request.headers.get("Content-Type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    const form = await new Response(body, { headers: { "Content-Type": type } }).formData().catch(() => null);
    const file = form?.get("file");
    if (!file || typeof file === "string" || file.size === 0) throw new ApiError(Status.BAD_REQUEST, importMessages.missing);
    bytes = new Uint8Array(await file.arrayBuffer());
  }
  if (bytes.length === 0) throw new ApiError(Status.BAD_REQUEST, importMessages.missing);
  if (bytes.length > IMPORT_MAX_BYTES) throw new ApiError(Status.BAD_REQUEST, importMessages.tooLarge);
  // An xlsx is a ZIP archive: anything else (a csv, an old .xls, a renamed picture) is refused before parsing.
  if (!isZip(bytes)) throw new ApiError(Status.BAD_REQUEST, importMessages.notXlsx);
  return bytes;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** One cell as the text a form would have sent. Dates come as Date (UTC, as Excel keeps no zone). */
function cellText(value: ExcelJS.CellValue, field: FieldDef, rowNumber: number): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    const date = `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
    const time = `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}`;
    if (field.type === "time") return time;
    if (field.type === "datetime") return `${date} ${time}`;
    return date;
  }
  if (typeof value === "object") {
    if ("formula" in value || "sharedFormula" in value) throw new FormulaFound(rowNumber);
    if ("richText" in value) return value.richText.map((part) => part.text).join("");
    if ("text" in value) return String(value.text);
    if ("error" in value) return String(value.error);
    return "";
  }
  if (typeof value === "boolean") return value ? "是" : "否";
  return String(value);
}

interface ParsedFile {
  /** By field name: the column holding it (absent columns are not in the map). */
  rows: Array<{ number: number; cells: Map<string, string> }>;
}

/** Reads the first sheet; the first row names the columns. Formulas, too many rows or an unreadable file: 400. */
function parseFile(def: ResourceDef, bytes: Uint8Array): Promise<ParsedFile> {
  return readSheet(bytes, importMessages, (sheet) => readRows(def, sheet));
}

async function readRows(def: ResourceDef, sheet: AsyncIterable<ExcelJS.Row>): Promise<ParsedFile> {
  const fields = importFields(def);
  const byHeader = new Map<string, FieldDef>();
  for (const f of fields) {
    byHeader.set(f.label, f);
    byHeader.set(headerOf(f), f);
  }
  const rows: ParsedFile["rows"] = [];
  let columns: Map<number, FieldDef> | null = null;
  for await (const row of sheet) {
    const values = row.values as ExcelJS.CellValue[];
    if (!columns) {
      columns = new Map();
      values.forEach((value, index) => {
        const field = byHeader.get(cellText(value, fields[0], row.number).trim().replace(/（必填）$/, ""));
        if (field) columns?.set(index, field);
      });
      const missing = fields.filter((f) => f.required && f.defaultValue === undefined && ![...(columns?.values() ?? [])].includes(f));
      if (!columns.size) throw new ApiError(Status.BAD_REQUEST, importMessages.noHeader);
      if (missing.length) throw new ApiError(Status.BAD_REQUEST, importMessages.missingColumns(missing.map((f) => f.label)));
      continue;
    }
    const cells = new Map<string, string>();
    for (const [index, field] of columns) cells.set(field.name, cellText(values[index], field, row.number).trim());
    if ([...cells.values()].every((v) => v === "")) continue;
    if (rows.length >= IMPORT_MAX_ROWS) throw new ApiError(Status.BAD_REQUEST, importMessages.tooManyRows);
    rows.push({ number: row.number, cells });
  }
  if (!columns) throw new ApiError(Status.BAD_REQUEST, importMessages.noHeader);
  if (!rows.length) throw new ApiError(Status.BAD_REQUEST, importMessages.empty);
  return { rows };
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface RelationIndex {
  byCode: Map<string, number>;
  byName: Map<string, number[]>;
  target: ResourceDef;
}

/** Every name or code the file uses for one relation, looked up in batches (not one query per row). */
async function relationIndex(ctx: SessionContext, target: ResourceDef, texts: Set<string>): Promise<RelationIndex> {
  const label = target.fields.find((f) => f.name === target.labelField) as FieldDef;
  const codes = codeFields(target);
  const index: RelationIndex = { byCode: new Map(), byName: new Map(), target };
  for (const batch of chunks([...texts], LOOKUP_BATCH)) {
    let query = db(ctx)
      .selectFrom(target.table)
      .select(["id", `${columnOf(label)} as label`, ...codes.map((c, i) => `${columnOf(c)} as code${i}`)])
      .where((eb) => eb.or([eb(columnOf(label), "in", batch), ...codes.map((c) => eb(columnOf(c), "in", batch))]));
    if (target.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
    for (const row of (await query.execute()) as Row[]) {
      codes.forEach((_, i) => {
        if (row[`code${i}`] !== null && row[`code${i}`] !== undefined) index.byCode.set(String(row[`code${i}`]), row.id as number);
      });
      const name = String(row.label);
      index.byName.set(name, [...(index.byName.get(name) ?? []), row.id as number]);
    }
  }
  return index;
}

/** Values of a column that the table already holds within the tenant, among those given. */
async function existing(ctx: SessionContext, def: ResourceDef, columns: string[], firstValues: unknown[]): Promise<Row[]> {
  const found: Row[] = [];
  for (const batch of chunks(firstValues, LOOKUP_BATCH)) {
    let query = db(ctx).selectFrom(def.table).select(columns).where(columns[0], "in", batch);
    if (def.scope === "tenant") query = query.where("tenant_id", "=", ctx.session.tenantId);
    found.push(...((await query.execute()) as Row[]));
  }
  return found;
}

interface CheckedRow {
  number: number;
  values: Row;
  problems: string[];
}

/**
 * Checks every row as a create would (the declared schema, the dictionaries, the relations, uniqueness within the
 * file and against the table, the entity's own beforeCreate), and lists what is wrong with each.
 */
async function checkRows(ctx: SessionContext, def: ResourceDef, parsed: ParsedFile, lookup: Lookup, service?: ResourceService): Promise<CheckedRow[]> {
  const fields = importFields(def);
  const dicts = await loadDicts(ctx);
  const relations = new Map<string, RelationIndex>();
  for (const field of fields.filter((f) => (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const target = lookup(field.relation as string);
    if (!target) continue;
    const texts = new Set(parsed.rows.map((r) => r.cells.get(field.name) ?? "").filter(Boolean));
    relations.set(field.name, await relationIndex(ctx, target, texts));
  }
  const schemas = new Map(fields.map((f) => [f.name, fieldSchema(f, false)]));
  const checked: CheckedRow[] = parsed.rows.map(({ number, cells }) => {
    const problems: string[] = [];
    const values: Row = {};
    for (const field of fields) {
      const text = cells.get(field.name);
      let value: unknown = text === undefined || text === "" ? undefined : text;
      if (value !== undefined) {
        if (field.type === "money") value = yuanToFen(text);
        else if (field.type === "boolean") value = text === "是" ? 1 : text === "否" ? 0 : text;
        // China time, as the export writes it and the list shows it.
        else if (field.type === "datetime") value = chinaWallClockToMillis(String(text)) ?? text; else if (field.type === "enum") {
          const options = dicts.get(field.dict ?? "") ?? new Map<string, string>();
          const match = [...options].find(([v, label]) => label === text || v === text);
          if (!match) {
            problems.push(importMessages.notInDict(field.label, String(text), [...options.values()]));
            continue;
          }
          value = match[0];
        } else if (field.type === "relation" || field.type === "treeParent") {
          const index = relations.get(field.name);
          const byCode = index?.byCode.get(String(text));
          const byName = index?.byName.get(String(text)) ?? [];
          if (byCode !== undefined) value = byCode;
          else if (byName.length === 1) value = byName[0];
          else {
            problems.push(byName.length > 1 ? importMessages.ambiguous(field.label, String(text)) : importMessages.relationMissing(field.label, String(text)));
            continue;
          }
        }
      }
      if (value === undefined && field.defaultValue !== undefined) value = field.defaultValue;
      const parsedValue = (schemas.get(field.name) as ReturnType<typeof fieldSchema>).safeParse(value);
      if (!parsedValue.success) problems.push(...parsedValue.error.issues.map((issue) => issue.message));
      else if (parsedValue.data !== undefined) values[field.name] = parsedValue.data;
    }
    return { number, values, problems };
  });

  // Unique fields and keys: within the file (the later row names the earlier one), then against the table.
  const keys = [
    ...fields.filter((f) => f.unique).map((f) => ({ fields: [f], message: null as string | null })),
    ...(def.uniqueKeys ?? []).map((k) => ({ fields: k.fields.map((n) => def.fields.find((f) => f.name === n) as FieldDef), message: k.message })),
  ];
  for (const key of keys) {
    const keyOf = (values: Row) => {
      const parts = key.fields.map((f) => values[f.name]);
      return parts.some((p) => p === undefined || p === null || p === "") ? null : JSON.stringify(parts.map(String));
    };
    const label = key.fields.map((f) => f.label).join("+");
    const seen = new Map<string, number>();
    for (const row of checked) {
      const k = keyOf(row.values);
      if (k === null) continue;
      const first = seen.get(k);
      if (first !== undefined) row.problems.push(importMessages.duplicateInFile(label, first));
      else seen.set(k, row.number);
    }
    const firstValues = [...new Set(checked.map((r) => r.values[key.fields[0].name]).filter((v) => v !== undefined && v !== null && v !== ""))];
    if (!firstValues.length) continue;
    const rows = await existing(ctx, def, key.fields.map((f) => columnOf(f)), firstValues);
    const taken = new Set(rows.map((r) => JSON.stringify(key.fields.map((f) => String(r[columnOf(f)])))));
    for (const row of checked) {
      const k = keyOf(row.values);
      if (k !== null && taken.has(k)) row.problems.push(key.message ?? importMessages.duplicateInTable(label, key.fields.map((f) => String(row.values[f.name])).join("+")));
    }
  }

  // The entity's own rules, as a create runs them (only for rows that passed the rest).
  if (service?.beforeCreate) {
    for (const row of checked.filter((r) => !r.problems.length)) {
      try {
        await service.beforeCreate(ctx, row.values);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        row.problems.push(error.message);
      }
    }
  }
  return checked;
}

/**
 * The import of an XLSX: `dryRun` checks every row and writes nothing; otherwise, when every row is good, all are
 * created in one transaction (or none, when any row is bad or any write fails).
 */
export async function importRows(
  ctx: SessionContext,
  def: ResourceDef,
  bytes: Uint8Array,
  dryRun: boolean,
  lookup: Lookup,
  service?: ResourceService,
): Promise<ImportReport> {
  assertAllowed(ctx, def);
  const parsed = await parseFile(def, bytes);
  const checked = await checkRows(ctx, def, parsed, lookup, service);
  const bad = checked.filter((r) => r.problems.length);
  const errors: ImportProblem[] = bad.slice(0, REPORT_LIMIT).map((r) => ({ row: r.number, reasons: r.problems }));
  const report: ImportReport = { dryRun, total: checked.length, valid: checked.length - bad.length, invalid: bad.length, imported: 0, errors, errorsCapped: bad.length > REPORT_LIMIT };
  if (dryRun) return report;
  if (bad.length) throw new ApiError(Status.BAD_REQUEST, importMessages.refused(bad.length), report);

  const userId = ctx.session.userId;
  const defaults = new Map<string, unknown>();
  for (const field of def.fields) {
    if (importFields(def).includes(field) || field.defaultValue === undefined) continue;
    const parsedDefault = fieldSchema(field, false).safeParse(field.defaultValue);
    if (parsedDefault.success) defaults.set(columnOf(field), parsedDefault.data);
  }
  const records = checked.map((r): Row => {
    const row: Row = { ...(def.scope === "tenant" ? { tenant_id: ctx.session.tenantId } : {}), id: newId() };
    // Every row names every column, so one INSERT of many rows has one shape.
    for (const field of def.fields) {
      const column = columnOf(field);
      row[column] = columnValue(field, r.values[field.name] ?? defaults.get(column) ?? null);
    }
    return { ...row, created_at: ctx.now, created_by: userId, updated_at: ctx.now, updated_by: userId };
  });
  await db(ctx).transaction().execute(async (trx) => {
    for (let start = 0; start < records.length; start += INSERT_BATCH) {
      const batch = records.slice(start, start + INSERT_BATCH);
      await trx.insertInto(def.table).values(batch).execute();
      await trx
        .insertInto("operation_log")
        .values(batch.map((row, i) => operationRow(ctx, def, row.id as number, "create", checked[start + i].values)))
        .execute();
    }
    if (def.shellData) await bumpShellGeneration(trx);
    if (service?.afterImport) await service.afterImport(ctx, trx, records);
    else if (service?.afterCreate) for (const [i, row] of records.entries()) await service.afterCreate(ctx, trx, row, checked[i].values);
  });
  return { ...report, imported: records.length };
}
