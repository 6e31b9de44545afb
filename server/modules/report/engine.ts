import ExcelJS from "exceljs";
import type { FieldDef } from "../../../resources/define";
import { permissionCode } from "../../../resources/define";
import type { Kysely } from "kysely";
import { orgTypesOf, reportApiPath, reports, type RefTable, type ReportColumn, type ReportDef, type ReportFilter } from "../../../resources/report/index";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import type { Db } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError } from "../../http/envelope";
import { escapeCell, loadDicts } from "../resource/export";
import { MONEY_FORMAT } from "../resource/sheet";
import { MONTH_PATTERN, monthOf, monthRange } from "../zhct/months";
import { parsePeriod } from "../zhct/reports";
import { minuteOf, reportQueries } from "./queries";
import type { Filters, ReportQuery, Row } from "./query";
import { chinaDay } from "../../../resources/chinaTime";
import { thousandthsToQuantity } from "../../../resources/quantity";

/**
 * The report engine (decision 030): one path for every declared report — its filters checked against the
 * declaration (a 400 naming the field), its query run in the caller's tenant, the totals row summed from the rows
 * it declares summable, and the same answer written as an XLSX.
 */

export const reportEngineMessages = {
  dinerMissing: "该人员编号不存在",
  dinerRequired: "请输入人员编号",
  orgMissing: (label: string) => `所选${label}不存在`,
  notInDict: (label: string) => `${label}不是可选的值`,
  month: "月份格式应为 2026-05",
  monthOrder: "开始月份不能晚于结束月份",
  monthsTooMany: "月份范围最多 12 个月",
  staffTypeMissing: "所选人员类别不存在",
  refMissing: (label: string) => `所选${label}不存在`,
  codeMissing: (label: string) => `该${label}不存在`,
};

/** A month range: `fromMonth`–`toMonth` (YYYY-MM, China months, inclusive; default this month), at most 12 months. */
export function parseMonths(input: { fromMonth?: string; toMonth?: string }, now: number) {
  const month = (value: string | undefined, field: string, fallback: string) => {
    const m = value?.trim() || fallback;
    if (!MONTH_PATTERN.test(m)) throw fieldError(field, reportEngineMessages.month);
    return m;
  };
  const toMonth = month(input.toMonth, "toMonth", monthOf(now));
  const fromMonth = month(input.fromMonth, "fromMonth", toMonth);
  if (fromMonth > toMonth) throw fieldError("fromMonth", reportEngineMessages.monthOrder);
  const count = (Number(toMonth.slice(0, 4)) - Number(fromMonth.slice(0, 4))) * 12 + Number(toMonth.slice(5)) - Number(fromMonth.slice(5)) + 1;
  if (count > 12) throw fieldError("fromMonth", reportEngineMessages.monthsTooMany);
  const start = monthRange(fromMonth).start;
  const end = monthRange(toMonth).end;
  const last = chinaDay(end - 1);
  return { fromMonth, toMonth, from: `${fromMonth}-01`, to: last, start, end };
}

export interface ReportAnswer {
  name: string;
  title: string;
  /** The filters as they were applied (defaults filled in): the URL of this exact answer. */
  filters: Record<string, string>;
  rows: Row[];
  totals: Row;
  /** Rows left out past the row limit (the totals still count them); 0 when none were, or they were not counted. */
  truncated: number;
  /** Whether rows were left out past the row limit, counted or not (用户菜品统计 does not count them, decision 045). */
  more: boolean;
  /** The rows folded by the chart's x over every row, when the query cut its rows (decision 090). */
  chartRows?: Row[];
  /** Choices of the select filters. */
  options: Record<string, Array<{ value: string; label: string }>>;
  /** The filters in words (the sheet's and the print view's header). */
  summary: string;
  generatedAt: number;
  /** The same, China time (YYYY-MM-DD HH:mm). */
  generatedText: string;
}


const filterField = (f: ReportFilter): FieldDef =>
  f.kind === "enum"
    ? { name: f.name, label: f.label, type: "enum", dict: f.dict }
    : f.kind === "org" || f.kind === "ref"
      ? { name: f.name, label: f.label, type: "relation", relation: "auth/org" }
      : f.kind === "code" || f.kind === "keyword"
        ? { name: f.name, label: f.label, type: "text", max: 40 }
        : { name: f.name, label: f.label, type: "text", max: f.kind === "diner" ? 32 : f.kind === "staffType" ? 20 : 10 };

/** The parameters a report accepts: its filters (a day range is `from` and `to`); any other is refused. */
export function reportQuerySchema(def: ReportDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of def.filters) {
    if (f.kind === "dayRange") {
      shape.from = fieldSchema({ name: "from", label: "开始日期", type: "text", max: 10 }, false);
      shape.to = fieldSchema({ name: "to", label: "结束日期", type: "text", max: 10 }, false);
    } else if (f.kind === "monthRange") {
      shape.fromMonth = fieldSchema({ name: "fromMonth", label: "开始月份", type: "text", max: 7 }, false);
      shape.toMonth = fieldSchema({ name: "toMonth", label: "结束月份", type: "text", max: 7 }, false);
    } else shape[f.name] = fieldSchema(filterField(f), false);
  }
  return z.strictObject(shape);
}

type RawQuery = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? undefined : String(value));

async function checkFilters(ctx: SessionContext, def: ReportDef, query: RawQuery, dicts: Map<string, Map<string, string>>): Promise<{ filters: Filters; applied: Record<string, string> }> {
  const db = ctx.services.db;
  const tenantId = ctx.session.tenantId;
  // A report reads either days or months; a month range is also its days, so the queries read one period.
  const monthly = def.filters.some((f) => f.kind === "monthRange");
  let filters: Filters;
  let applied: Record<string, string>;
  if (monthly) {
    filters = parseMonths({ fromMonth: text(query.fromMonth), toMonth: text(query.toMonth) }, ctx.now);
    applied = { fromMonth: filters.fromMonth as string, toMonth: filters.toMonth as string };
  } else {
    filters = parsePeriod({ from: text(query.from), to: text(query.to) }, ctx.now);
    // A report of how things stand (库存预警) declares no period: its URL names none.
    applied = def.filters.some((f) => f.kind === "dayRange") ? { from: filters.from, to: filters.to } : {};
  }
  for (const f of def.filters) {
    const value = text(query[f.name])?.trim();
    if (f.kind === "dayRange" || f.kind === "monthRange") continue;
    if (!value) {
      if (f.kind === "diner" && f.required) throw fieldError(f.name, reportEngineMessages.dinerRequired);
      continue;
    }
    if (f.kind === "enum") {
      if (!dicts.get(f.dict)?.has(value)) throw fieldError(f.name, reportEngineMessages.notInDict(f.label));
      (filters as unknown as Record<string, string>)[f.name] = value;
    } else if (f.kind === "org") {
      const org = await db.selectFrom("org").select("id").where("tenant_id", "=", tenantId).where("id", "=", Number(value)).where("org_type", "in", orgTypesOf(f)).executeTakeFirst();
      if (!org) throw fieldError(f.name, reportEngineMessages.orgMissing(f.label));
      (filters as unknown as Record<string, number>)[f.name] = org.id;
    } else if (f.kind === "ref") {
      const row = await refTable(db, f.table).select("id").where("tenant_id", "=", tenantId).where("id", "=", Number(value)).executeTakeFirst();
      if (!row) throw fieldError(f.name, reportEngineMessages.refMissing(f.label));
      (filters as unknown as Record<string, number>)[f.name] = Number(row.id);
    } else if (f.kind === "code") {
      const row = await refTable(db, f.table).select("id").where("tenant_id", "=", tenantId).where(f.codeColumn, "=", value).executeTakeFirst();
      if (!row) throw fieldError(f.name, reportEngineMessages.codeMissing(f.label));
      (filters as unknown as Record<string, number>)[f.idName] = Number(row.id);
    } else if (f.kind === "keyword") {
      filters.keyword = value;
    } else if (f.kind === "staffType") {
      const known = await db.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where("staff_type", "=", value).limit(1).executeTakeFirst();
      if (!known) throw fieldError(f.name, reportEngineMessages.staffTypeMissing);
      filters.staffType = value;
    } else {
      const diner = await db.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where("user_code", "=", value).executeTakeFirst();
      if (!diner) throw fieldError(f.name, reportEngineMessages.dinerMissing);
      filters.userCode = value;
      filters.userInfoId = diner.id;
    }
    applied[f.name] = value;
  }
  return { filters, applied };
}

const ORG_OPTIONS = 500;

/** A warehouse master table a `ref` or `code` filter names (a declared table of the tenant's, decision 076). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const refTable = (db: Db, table: RefTable) => (db as unknown as Kysely<any>).selectFrom(table);

async function filterOptions(db: Db, tenantId: number, def: ReportDef) {
  const options: ReportAnswer["options"] = {};
  for (const f of def.filters) {
    if (f.kind === "staffType") {
      const types = await db.selectFrom("user_info").select("staff_type").distinct().where("tenant_id", "=", tenantId).where("staff_type", "is not", null).where("staff_type", "!=", "").orderBy("staff_type").limit(ORG_OPTIONS).execute();
      options[f.name] = types.map((t) => ({ value: String(t.staff_type), label: String(t.staff_type) }));
    }
    if (f.kind === "ref") {
      const rows = await refTable(db, f.table).select(["id", `${f.labelColumn} as label`]).where("tenant_id", "=", tenantId).orderBy(f.labelColumn).limit(ORG_OPTIONS).execute();
      options[f.name] = rows.map((r) => ({ value: String(r.id), label: String(r.label) }));
    }
    if (f.kind !== "org") continue;
    const rows = await db
      .selectFrom("org")
      .select(["id", "org_name"])
      .where("tenant_id", "=", tenantId)
      .where("org_type", "in", orgTypesOf(f))
      .orderBy("sort")
      .orderBy("org_name")
      .limit(ORG_OPTIONS)
      .execute();
    options[f.name] = rows.map((r) => ({ value: String(r.id), label: r.org_name }));
  }
  return options;
}

/** Sums of the summable columns; the first column reads 合计. */
export function totalsOf(def: ReportDef, rows: Row[]): Row {
  const totals: Row = { [def.columns[0].key]: "合计" };
  for (const c of def.columns) if (c.total) totals[c.key] = rows.reduce((s, r) => s + Number(r[c.key] ?? 0), 0);
  return totals;
}

/** The dictionaries a report reads: its enum filters' (to check and to name them) and, for the sheet, its columns'. */
function dictCodes(def: ReportDef, columns: boolean): string[] {
  const codes = def.filters.flatMap((f) => (f.kind === "enum" ? [f.dict] : []));
  if (columns) codes.push(...def.columns.flatMap((c) => (c.kind === "enum" && c.dict ? [c.dict] : [])));
  return [...new Set(codes)];
}

export async function runReport(ctx: SessionContext, def: ReportDef, query: RawQuery, run: ReportQuery = reportQueries[def.entity]): Promise<ReportAnswer> {
  const tenantId = ctx.session.tenantId;
  // The select filters' choices are read while the filters are checked and the report runs (on PostgreSQL these
  // are round trips of their own; on a small report they were most of its time).
  const optionsRead = filterOptions(ctx.services.db, tenantId, def);
  optionsRead.catch(() => {});
  const dicts = await loadDicts(ctx, dictCodes(def, false));
  const { filters, applied } = await checkFilters(ctx, def, query, dicts).catch(async (error: unknown) => {
    // A refused filter form keeps its selects' choices, so the other filters stay as they were chosen.
    if (error instanceof ApiError) throw new ApiError(error.status, error.message, { ...(error.data as object), options: await optionsRead });
    throw error;
  });
  const [result, options] = await Promise.all([run(ctx.services.db, tenantId, filters), optionsRead]);
  return {
    name: def.entity,
    title: def.title,
    filters: applied,
    rows: result.rows,
    totals: { ...(result.totals ?? totalsOf(def, result.rows)), [def.columns[0].key]: "合计" },
    truncated: result.truncated ?? 0,
    more: (result.truncated ?? 0) > 0 || result.more === true,
    ...(result.chartRows ? { chartRows: result.chartRows } : {}),
    options,
    summary: filterSummary(def, applied, options, dicts, ctx.now),
    generatedAt: ctx.now,
    generatedText: minuteOf(ctx.now),
  };
}

/** A cell as the screen shows it: dictionary values by their label, money in yuan (as a number), text as text. */
function cellValue(column: ReportColumn, value: unknown, dicts: Map<string, Map<string, string>>): string | number | null {
  if (value === null || value === undefined || value === "") return null;
  if (column.kind === "money") return Number(value) / 100;
  if (column.kind === "count") return Number(value);
  if (column.kind === "quantity") return thousandthsToQuantity(Number(value));
  if (column.kind === "enum" && column.dict) return dicts.get(column.dict)?.get(String(value)) ?? String(value);
  return escapeCell(String(value));
}

/** The filters in words, for the sheet's and the print view's header. */
function filterSummary(def: ReportDef, applied: Record<string, string>, options: ReportAnswer["options"], dicts: Map<string, Map<string, string>>, now: number): string {
  const parts = [applied.fromMonth ? `${applied.fromMonth} 至 ${applied.toMonth}` : applied.from ? `${applied.from} 至 ${applied.to}` : `截至 ${chinaDay(now)}`];
  for (const f of def.filters) {
    const value = applied[f.name];
    if (f.kind === "dayRange" || f.kind === "monthRange" || !value) continue;
    const label = f.kind === "enum" ? dicts.get(f.dict)?.get(value) : f.kind === "org" || f.kind === "ref" ? options[f.name]?.find((o) => o.value === value)?.label : value;
    parts.push(`${f.label}：${label ?? value}`);
  }
  return parts.join("；");
}

/** The XLSX of exactly what the screen shows: title, filters and time, the columns, the rows, the totals row. */
export async function reportWorkbook(ctx: SessionContext, def: ReportDef, answer: ReportAnswer): Promise<Response> {
  const dicts = await loadDicts(ctx, dictCodes(def, true));
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(def.title);
  sheet.addRow([def.title]).font = { bold: true, size: 14 };
  sheet.addRow([`${answer.summary}；生成时间：${answer.generatedText}（北京时间）`]);
  const header = sheet.addRow(def.columns.map((c) => c.label));
  header.font = { bold: true };
  for (const row of [...answer.rows, answer.totals]) sheet.addRow(def.columns.map((c) => cellValue(c, row[c.key], dicts)));
  sheet.lastRow!.font = { bold: true };
  def.columns.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = Math.max(12, c.label.length * 2 + 4);
    if (c.kind === "money") column.numFmt = MONEY_FORMAT;
  });
  const bytes = await workbook.xlsx.writeBuffer();
  const fileName = answer.filters.from || answer.filters.fromMonth ? `${def.title}-${answer.filters.from ?? answer.filters.fromMonth}-${answer.filters.to ?? answer.filters.toMonth}.xlsx` : `${def.title}-${answer.generatedText.slice(0, 10)}.xlsx`;
  return new Response(bytes as ArrayBuffer, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="report-${def.entity}.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}

/** A module's declared reports as endpoints, each run by its query (by the report's entity). */
export const reportEndpoints = (defs: readonly ReportDef[], queries: Readonly<Record<string, ReportQuery>>): Endpoint[] =>
  defs.flatMap((def) => {
    const run = queries[def.entity];
    if (!run) throw new Error(`report ${def.module}/${def.entity}: no query`);
    return reportEndpointsOf(def, run);
  });

const reportEndpointsOf = (def: ReportDef, run: ReportQuery): Endpoint[] => [
  endpoint({
    method: "GET",
    path: reportApiPath(def),
    summary: `${def.title}：${def.description}（金额单位：分）`,
    access: permission(permissionCode(def, "view")),
    query: reportQuerySchema(def),
    handle: (ctx, { query }) => runReport(ctx as SessionContext, def, query as RawQuery, run),
  }),
  endpoint({
    method: "GET",
    path: `${reportApiPath(def)}/export`,
    summary: `导出${def.title}（xlsx：与页面相同的行与合计，金额单位：元）`,
    access: permission(permissionCode(def, "export")),
    query: reportQuerySchema(def),
    handle: async (ctx, { query }) => reportWorkbook(ctx as SessionContext, def, await runReport(ctx as SessionContext, def, query as RawQuery, run)),
  }),
];

export const reportEngineEndpoints: Endpoint[] = reportEndpoints(reports, reportQueries);
