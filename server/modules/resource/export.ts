import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import { builtInDicts } from "../../../resources/dicts";
import { isCount, listFields, resourceKey, type FieldDef, type ResourceDef } from "../../../resources/define";
import type { ValueText } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { SessionContext } from "../../http/endpoint";
import { chinaCalendar } from "../../../resources/chinaTime";
import { findPage, type PageQuery } from "./engine";
import { isTenantDict, tenantDictItems } from "./tenantRows";
import type { Row } from "./rows";
import { DATE_FORMAT, DATETIME_FORMAT, MONEY_FORMAT } from "./sheet";

const BATCH = 500;
export const EXPORT_LIMIT = 200_000;

/** Spreadsheet programs run a cell that starts like a formula; such text is kept as text. */
export function escapeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const chinaTime = (millis: number) => new Date(millis).toLocaleString("zh-CN", { hour12: false, timeZone: "Asia/Shanghai" });

/** How the operation log's codes read in a file (`FieldDef.show`), as the page reads them. */
const valueText = (dicts: Map<string, Map<string, string>>): ValueText => ({
  dict: (code, value) => dicts.get(code)?.get(String(value)) ?? String(value),
  money: (fen) => (fen / 100).toFixed(2),
  time: chinaTime,
  resource: findResource,
});

function cellText(field: FieldDef, record: Row, dicts: Map<string, Map<string, string>>): string {
  const value = record[field.name];
  if (value === null || value === undefined) return "";
  if (field.show) return field.show(value, record, valueText(dicts));
  switch (field.type) {
    case "enum":
      return dicts.get(field.dict ?? "")?.get(String(value)) ?? String(value);
    case "boolean":
      return value ? "是" : "否";
    case "money":
      return (Number(value) / 100).toFixed(2);
    case "datetime":
      return chinaTime(Number(value));
    case "relation":
    case "treeParent":
      return String(record[`${field.name}Label`] ?? value);
    default:
      return String(value);
  }
}

/**
 * An XLSX cell: money, counts, dates and times as the numbers and dates a spreadsheet sums and filters (the report
 * exports' way, `cellValue` of server/modules/report/engine.ts), the rest as the CSV's text. A time is China time:
 * Excel's dates have no zone, so the cell holds the China wall clock as exceljs's UTC date.
 */
function cellValue(field: FieldDef, record: Row, dicts: Map<string, Map<string, string>>): string | number | Date | null {
  const value = record[field.name];
  if (value === null || value === undefined || value === "") return null;
  switch (field.type) {
    case "money":
      return Number(value) / 100;
    case "quantity":
      return Number(value);
    case "number":
      return isCount(field) ? Number(value) : escapeCell(String(value));
    case "datetime":
      return chinaCalendar(Number(value));
    case "date": {
      const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
      return day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : escapeCell(String(value));
    }
    default:
      return escapeCell(cellText(field, record, dicts));
  }
}

/** A column's number format in the XLSX, by its field's type. */
const NUM_FMT: Partial<Record<FieldDef["type"], string>> = { money: MONEY_FORMAT, datetime: DATETIME_FORMAT, date: DATE_FORMAT };

/** The built-in dictionaries as value → label maps: they never change, so they are made once. */
const builtInMaps = new Map(Object.entries(builtInDicts).map(([code, dict]) => [code, new Map(dict.options.map((o) => [o.value, o.label]))]));

/**
 * Each dictionary's value → label: the server's active items, or the built-in list while the server has none. Given
 * `codes`, only those dictionaries are read (none: no query), as a report needs only its filters' and columns'.
 */
export async function loadDicts(ctx: SessionContext, codes?: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const dicts = new Map(codes ? codes.flatMap((code) => (builtInMaps.has(code) ? [[code, builtInMaps.get(code) as Map<string, string>] as const] : [])) : builtInMaps);
  if (codes && !codes.length) return dicts;
  let query = ctx.services.db.selectFrom("dict_item").select(["dict_code", "item_value", "item_text"]).where("status", "=", 1);
  if (codes) query = query.where("dict_code", "in", codes);
  const fromServer = new Map<string, Map<string, string>>();
  for (const item of await query.execute()) {
    if (!fromServer.has(item.dict_code)) fromServer.set(item.dict_code, new Map());
    fromServer.get(item.dict_code)?.set(item.item_value, item.item_text);
  }
  for (const [code, map] of fromServer) dicts.set(code, map);
  // The tenant's own dictionaries (decision 064) name every row, stopped ones too: old records keep their channel.
  const own = codes ? codes.filter(isTenantDict) : undefined;
  if (!own || own.length) {
    for (const item of await tenantDictItems(ctx.services.db, ctx.session.tenantId, own, true)) {
      if (!dicts.has(item.dictCode)) dicts.set(item.dictCode, new Map());
      dicts.get(item.dictCode)?.set(item.itemValue, item.itemText);
    }
  }
  return dicts;
}

/** Pages through the current filter and sort, one batch at a time, so memory stays flat. */
async function* records(ctx: SessionContext, def: ResourceDef, params: PageQuery, lookup: (key: string) => ResourceDef | undefined) {
  let pageNum = 1;
  let sent = 0;
  for (;;) {
    const page = await findPage(ctx, def, { ...params, pageNum, pageSize: BATCH as 100 }, lookup);
    for (const record of page.records) {
      yield record;
      if (++sent >= EXPORT_LIMIT) return;
    }
    if (page.records.length < BATCH) return;
    pageNum += 1;
  }
}

export async function exportResponse(
  ctx: SessionContext,
  def: ResourceDef,
  params: PageQuery,
  format: "xlsx" | "csv",
  lookup: (key: string) => ResourceDef | undefined,
): Promise<Response> {
  const fields = listFields(def);
  const dicts = await loadDicts(ctx);
  const first = await findPage(ctx, def, { ...params, pageNum: 1, pageSize: 10 }, lookup);
  const fileName = `${def.title}-${new Date(ctx.now).toISOString().slice(0, 10)}.${format}`;
  const headers = new Headers({
    "Content-Disposition": `attachment; filename="${resourceKey(def).replace("/", "-")}.${format}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    "X-Total-Count": String(Math.min(first.total, EXPORT_LIMIT)),
    "Cache-Control": "no-store",
  });

  if (format === "csv") {
    headers.set("Content-Type", "text/csv; charset=utf-8");
    const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    async function* lines() {
      yield "\uFEFF" + fields.map((f) => quote(f.label)).join(",") + "\r\n";
      for await (const record of records(ctx, def, params, lookup)) {
        yield fields.map((f) => quote(escapeCell(cellText(f, record, dicts)))).join(",") + "\r\n";
      }
    }
    return new Response(Readable.toWeb(Readable.from(lines(), { objectMode: false })) as ReadableStream, { headers });
  }

  headers.set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(def.title);
  sheet.columns = fields.map((f) => ({
    header: f.label,
    key: f.name,
    width: f.type === "datetime" ? 20 : Math.max(12, f.label.length * 2 + 4),
    style: NUM_FMT[f.type] ? { numFmt: NUM_FMT[f.type] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  (async () => {
    try {
      for await (const record of records(ctx, def, params, lookup)) {
        sheet.addRow(Object.fromEntries(fields.map((f) => [f.name, cellValue(f, record, dicts)]))).commit();
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      console.error("[export]", error);
      stream.destroy(error as Error);
    }
  })();
  return new Response(Readable.toWeb(stream) as ReadableStream, { headers });
}
