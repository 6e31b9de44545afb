import ExcelJS from "exceljs";
import { isEditable } from "../../../resources/document";
import { IMPORT_MAX_ROWS, importMessages, type ImportProblem, type ImportReport } from "../../../resources/imports";
import { thousandthsToQuantity } from "../../../resources/quantity";
import { fieldSchema } from "../../../resources/schemas";
import { warehouseCheck } from "../../../resources/zhhq/closing";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { db } from "../resource/engine";
import type { Row } from "../resource/rows";
import { FormulaFound, readFirstSheet, DATE_FORMAT } from "../resource/sheet";

/**
 * A stocktake's count as an XLSX round trip (issue 41): the sheet's lines to print or fill on a laptop, and the filled
 * file read back into the counted quantities. The import only reads; the counts go through the sheet's update, so
 * there is one way of setting a count (its status, its bounds, its transaction).
 */

/** The column the import keys on: a line's own id, labelled so nobody takes it for a code. */
const LINE_ID = "明细ID（勿改）";
const COUNTED = "实盘数量";
const countedField = warehouseCheck.lines.fields.find((f) => f.name === "countedQuantity") as never;
const countedSchema = fieldSchema(countedField, false);

export const countSheetMessages = {
  notCounting: (docNo: string) => `盘点单 ${docNo} 不在盘点中，不能下载或导入实盘数量`,
  noLineColumn: `文件第 1 行缺少「${LINE_ID}」或「${COUNTED}」列，请使用下载的盘点表`,
  noLine: (text: string) => `明细ID「${text}」不是本盘点单的明细`,
  duplicate: (row: number) => `与第 ${row} 行是同一条明细`,
  nothing: "文件中没有填写任何实盘数量",
} as const;

/** The sheet's header, in a status that takes counts; another tenant's or none: 404. */
async function countingSheet(ctx: SessionContext, id: number): Promise<Row> {
  const header = (await db(ctx).selectFrom(warehouseCheck.header.table).selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id).executeTakeFirst()) as Row | undefined;
  if (!header) throw new ApiError(Status.NOT_FOUND, `${warehouseCheck.title}不存在或已被删除`);
  if (!isEditable(warehouseCheck, header.status)) throw new ApiError(Status.CONFLICT, countSheetMessages.notCounting(String(header.doc_no)));
  return header;
}

/** 下载盘点表: every line with its goods' code, name, spec and unit, its batch, its book quantity and any count so far. */
export async function countSheetFile(ctx: SessionContext, id: number): Promise<Response> {
  const header = await countingSheet(ctx, id);
  const lines = (await db(ctx)
    .selectFrom(`${warehouseCheck.lines.table} as l`)
    .innerJoin("goods as g", "g.id", "l.goods_id")
    .leftJoin("goods_unit as u", "u.id", "g.unit_id")
    .select(["l.id", "l.batch_no", "l.expiry_date", "l.book_quantity", "l.counted_quantity", "g.goods_code", "g.goods_name", "g.spec", "u.unit_name"])
    .where("l.tenant_id", "=", ctx.session.tenantId)
    .where("l.document_id", "=", id)
    .orderBy("l.line_no")
    .execute()) as Row[];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(String(header.doc_no));
  sheet.columns = [
    { header: LINE_ID, key: "id", width: 22 },
    { header: "物资编码", key: "code", width: 16, style: { numFmt: "@" } },
    { header: "物资名称", key: "name", width: 22 },
    { header: "规格", key: "spec", width: 14 },
    { header: "单位", key: "unit", width: 8 },
    { header: "批次号", key: "batch", width: 16, style: { numFmt: "@" } },
    { header: "到期日期", key: "expiry", width: 12, style: { numFmt: DATE_FORMAT } },
    { header: "账面数量", key: "book", width: 12 },
    { header: COUNTED, key: "counted", width: 12 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  const quantity = (v: unknown) => (v === null || v === undefined ? null : thousandthsToQuantity(Number(v)));
  for (const l of lines) {
    sheet.addRow({
      id: String(l.id),
      code: l.goods_code,
      name: l.goods_name,
      spec: l.spec ?? "",
      unit: l.unit_name ?? "",
      batch: l.batch_no ?? "",
      expiry: l.expiry_date ?? "",
      book: quantity(l.book_quantity),
      counted: quantity(l.counted_quantity),
    });
  }
  const bytes = await workbook.xlsx.writeBuffer();
  const fileName = `盘点表-${String(header.doc_no)}.xlsx`;
  return new Response(bytes as ArrayBuffer, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="warehouse-check-${id}.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}

/** One cell as text (a typed number stays a number's text; a formula is refused, as the import refuses it). */
function cellText(value: ExcelJS.CellValue, row: number): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !(value instanceof Date)) {
    if ("formula" in value || "sharedFormula" in value) throw new FormulaFound(row);
    if ("richText" in value) return value.richText.map((part) => part.text).join("").trim();
    if ("text" in value) return String(value.text).trim();
    return "";
  }
  return String(value).trim();
}

/**
 * The counts a filled sheet gives, by line id: every row checked (its line on this sheet and once only, its count a
 * quantity of the declared bounds); a blank count leaves its line. Any bad row: 400 with the per-row report, nothing
 * returned to apply.
 */
async function readCounts(bytes: Uint8Array, lineIds: Set<number>): Promise<Array<{ id: number; countedQuantity: number }>> {
  const rows = await readFirstSheet(bytes, importMessages, async (sheet) => {
    const found: Array<{ number: number; id: string; counted: string }> = [];
    let columns: { id: number; counted: number } | null = null;
    for await (const row of sheet) {
      const values = row.values as ExcelJS.CellValue[];
      if (!columns) {
        const headers = values.map((v) => cellText(v, row.number));
        columns = { id: headers.indexOf(LINE_ID), counted: headers.indexOf(COUNTED) };
        if (columns.id < 0 || columns.counted < 0) throw new ApiError(Status.BAD_REQUEST, countSheetMessages.noLineColumn);
        continue;
      }
      const id = cellText(values[columns.id], row.number);
      const counted = cellText(values[columns.counted], row.number);
      if (id === "" && counted === "") continue;
      if (found.length >= IMPORT_MAX_ROWS) throw new ApiError(Status.BAD_REQUEST, importMessages.tooManyRows);
      found.push({ number: row.number, id, counted });
    }
    if (!columns) throw new ApiError(Status.BAD_REQUEST, countSheetMessages.noLineColumn);
    return found;
  });
  const errors: ImportProblem[] = [];
  const counts: Array<{ id: number; countedQuantity: number }> = [];
  const seen = new Map<number, number>();
  for (const row of rows) {
    const reasons: string[] = [];
    const id = /^\d+$/.test(row.id) ? Number(row.id) : NaN;
    if (!lineIds.has(id)) reasons.push(countSheetMessages.noLine(row.id));
    else if (seen.has(id)) reasons.push(countSheetMessages.duplicate(seen.get(id) as number));
    else seen.set(id, row.number);
    let counted: number | undefined;
    if (row.counted !== "") {
      const parsed = countedSchema.safeParse(row.counted);
      if (parsed.success) counted = parsed.data as number;
      else reasons.push(...parsed.error.issues.map((issue) => issue.message));
    }
    if (reasons.length) errors.push({ row: row.number, reasons });
    else if (counted !== undefined) counts.push({ id, countedQuantity: counted });
  }
  if (errors.length) {
    const report: ImportReport = { dryRun: false, total: rows.length, valid: rows.length - errors.length, invalid: errors.length, imported: 0, errors, errorsCapped: false };
    throw new ApiError(Status.BAD_REQUEST, importMessages.refused(errors.length), report);
  }
  if (!counts.length) throw new ApiError(Status.BAD_REQUEST, countSheetMessages.nothing);
  return counts;
}

/** 导入实盘数量: the filled sheet's counts, for the sheet's update to apply (in its one transaction). */
export async function countsFromFile(ctx: SessionContext, id: number, bytes: Uint8Array): Promise<Array<{ id: number; countedQuantity: number }>> {
  await countingSheet(ctx, id);
  const stored = (await db(ctx).selectFrom(warehouseCheck.lines.table).select("id").where("tenant_id", "=", ctx.session.tenantId).where("document_id", "=", id).execute()) as Row[];
  return readCounts(bytes, new Set(stored.map((r) => Number(r.id))));
}
