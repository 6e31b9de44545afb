import type ExcelJS from "exceljs";
import ExcelWorkbook from "exceljs";
import { permissionCode } from "../../../resources/define";
import {
  BANK_API,
  BANK_COLUMNS,
  BANK_LISTED_PROBLEMS,
  BANK_MAX_BYTES,
  BANK_MAX_ROWS,
  bankMessages,
  bankReconcile,
  bankSourceLabels,
  ONLINE_PAY_FLAGS,
  type BankAnswer,
  type BankLine,
  type BankPair,
  type GroupTotals,
  type OurLine,
} from "../../../resources/report/bank";
import { yuanToFen } from "../../../resources/forms";
import { z } from "../../../resources/z";
import type { Db } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { readBody } from "../../http/body";
import { ApiError, Status } from "../../http/envelope";
import { escapeCell } from "../resource/export";
import { FormulaFound, isZip, MONEY_FORMAT as MONEY, readFirstSheet } from "../resource/sheet";
import { BusiType } from "../zhct/ledger";
import { parsePeriod } from "../zhct/reports";
import { minuteOf } from "./queries";

/**
 * 银行对账 (issue 15, decision 034): the bank's statement compared with our online payments and top-ups of a
 * period, by reference and amount. The comparison reads; it writes nothing (no table, no log, no session touch
 * beyond authentication), so it can be run again with another file or period at will.
 */

// ---- Reading the statement -------------------------------------------------------------------------------------

type Cell = string | { number: number } | { date: Date };

/** A bad row of the statement and why; the header is row 1 of the file as a spreadsheet shows it. */
interface Problem {
  row: number;
  reasons: string[];
}

const pad = (n: number) => String(n).padStart(2, "0");

function xlsxCell(value: ExcelJS.CellValue, row: number): Cell {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : { date: value };
  if (typeof value === "number") return { number: value };
  if (typeof value === "object") {
    if ("formula" in value || "sharedFormula" in value) throw new FormulaFound(row);
    if ("richText" in value) return value.richText.map((part) => part.text).join("");
    if ("text" in value) return String(value.text);
    return "";
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

interface Table {
  rows: Array<{ number: number; cells: Cell[] }>;
}

async function xlsxTable(bytes: Uint8Array): Promise<Table> {
  return readFirstSheet(bytes, bankMessages, async (sheet) => {
    const rows: Table["rows"] = [];
    for await (const row of sheet) {
      // exceljs counts columns from 1: values[0] is always empty.
      const values = (row.values as ExcelJS.CellValue[]).slice(1);
      rows.push({ number: row.number, cells: Array.from(values, (v) => xlsxCell(v, row.number)) });
      if (rows.length > BANK_MAX_ROWS + 50) throw new ApiError(Status.BAD_REQUEST, bankMessages.tooManyRows);
    }
    return { rows };
  });
}

/** UTF-8 (with or without its BOM), UTF-16 with a BOM (Excel's “Unicode text”), else GB18030 (a superset of GBK). */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  // A NUL does not occur in text: a picture, a PDF or a renamed binary.
  if (bytes.subarray(0, 8192).includes(0)) throw new ApiError(Status.BAD_REQUEST, bankMessages.notTable);
  for (const encoding of ["utf-8", "gb18030"]) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // the next encoding
    }
  }
  throw new ApiError(Status.BAD_REQUEST, bankMessages.encoding);
}

/** RFC 4180 CSV (quoted fields with doubled quotes and line breaks); a tab-separated file when its first line has tabs and no commas. */
export function csvTable(text: string): Table {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = firstLine.includes("\t") && !firstLine.includes(",") ? "\t" : ",";
  const rows: Table["rows"] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let number = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    rows.push({ number, cells });
    if (rows.length > BANK_MAX_ROWS + 50) throw new ApiError(Status.BAD_REQUEST, bankMessages.tooManyRows);
    cells = [];
    cell = "";
    number++;
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
    } else if (c === separator) {
      cells.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      endRow();
      i++;
    } else if (c === "\n" || c === "\r") endRow();
    else cell += c;
    i++;
  }
  if (quoted) throw new ApiError(Status.BAD_REQUEST, bankMessages.quote(number));
  if (cell !== "" || cells.length) endRow();
  return { rows };
}

/** The file as rows of cells: an XLSX (a ZIP) or a CSV; an old .xls or anything binary is refused by name. */
export async function statementTable(bytes: Uint8Array): Promise<Table> {
  if (isZip(bytes)) return xlsxTable(bytes);
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) throw new ApiError(Status.BAD_REQUEST, bankMessages.xls);
  return csvTable(decodeText(bytes));
}

const plain = (cell: Cell | undefined) => (cell === undefined ? "" : typeof cell === "string" ? cell.trim() : "number" in cell ? String(cell.number) : "");
const headerKey = (text: string) => text.replace(/[\s*（）()：:]/g, "").toLowerCase();

/** Parses a day as banks write it: 2026-01-31, 2026/1/31, 2026.01.31, 20260131 or 2026年1月31日, a time after it ignored. */
export function parseDay(cell: Cell | undefined): string | null {
  if (cell && typeof cell === "object" && "date" in cell) {
    // Excel keeps no zone: exceljs gives the cell's wall time as UTC.
    const d = cell.date;
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  }
  const text = plain(cell);
  const match = /^(\d{4})(?:[-/.年](\d{1,2})[-/.月](\d{1,2})日?|(\d{2})(\d{2}))(?:[\sT].*)?$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2] ?? match[4]), Number(match[3] ?? match[5])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 2000) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const MAX_FEN = 10_000_000_000;

/** Yuan to fen from the text, never through a float: “1,234.50”, “¥12.5”, “-3”; more than two decimals (other than zeros) refused. */
export function parseAmount(cell: Cell | undefined): { fen: number } | { problem: string } {
  const raw = plain(cell);
  if (!raw) return { problem: bankMessages.amountMissing };
  const text = raw.replace(/^(¥|￥|RMB|CNY)\s*/i, "").replace(/,/g, "").replace(/^\+/, "");
  const match = /^(-?\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return { problem: bankMessages.amount(raw) };
  const decimals = (match[2] ?? "").replace(/0+$/, "");
  if (decimals.length > 2) return { problem: bankMessages.amountDecimals(raw) };
  const fen = yuanToFen(decimals ? `${match[1]}.${decimals}` : match[1]) as number;
  if (fen === 0) return { problem: bankMessages.amountZero };
  if (Math.abs(fen) > MAX_FEN) return { problem: bankMessages.amountRange };
  return { fen };
}

function parseReference(cell: Cell | undefined): { reference: string } | { problem: string } {
  if (cell && typeof cell === "object" && "number" in cell && (!Number.isSafeInteger(cell.number) || String(cell.number).length > 15)) return { problem: bankMessages.referenceNumber };
  const text = plain(cell);
  if (!text) return { problem: bankMessages.referenceMissing };
  if (text.length > 64) return { problem: bankMessages.referenceTooLong };
  return { reference: text };
}

/** A bank's export may open with a title and an account line: the header is the first of the first rows naming a known column. */
const HEADER_SEARCH = 20;
const SUMMARY_ROW = /^(合计|总计|小计|本页合计)/;

/** The statement's lines; every bad row listed with its reasons (a 400 when there is any), never a partial comparison. */
export function statementLines(table: Table): BankLine[] {
  const known = Object.entries(BANK_COLUMNS) as Array<[keyof typeof BANK_COLUMNS, (typeof BANK_COLUMNS)[keyof typeof BANK_COLUMNS]]>;
  const headerAt = table.rows.slice(0, HEADER_SEARCH).findIndex((r) => r.cells.some((c) => known.some(([, k]) => (k.names as readonly string[]).includes(headerKey(plain(c))))));
  if (headerAt < 0) throw new ApiError(Status.BAD_REQUEST, bankMessages.noHeader);
  const header = table.rows[headerAt].cells.map((c) => headerKey(plain(c)));
  const at = {} as Record<keyof typeof BANK_COLUMNS, number>;
  const missing: string[] = [];
  for (const [key, column] of known) {
    const index = header.findIndex((h) => (column.names as readonly string[]).includes(h));
    if (index < 0) missing.push(column.label);
    at[key] = index;
  }
  if (missing.length) throw new ApiError(Status.BAD_REQUEST, bankMessages.missingColumns(missing));
  const lines: BankLine[] = [];
  const problems: Problem[] = [];
  for (const { number, cells } of table.rows.slice(headerAt + 1)) {
    if (cells.every((c) => plain(c) === "" && typeof c === "string")) continue;
    if (SUMMARY_ROW.test(plain(cells[at.date])) || SUMMARY_ROW.test(plain(cells[0]))) continue;
    const reasons: string[] = [];
    const dateText = plain(cells[at.date]);
    const date = parseDay(cells[at.date]);
    if (!date) reasons.push(dateText || (cells[at.date] && typeof cells[at.date] === "object") ? bankMessages.date(dateText) : bankMessages.dateMissing);
    const reference = parseReference(cells[at.reference]);
    if ("problem" in reference) reasons.push(reference.problem);
    const amount = parseAmount(cells[at.amount]);
    if ("problem" in amount) reasons.push(amount.problem);
    if (reasons.length) problems.push({ row: number, reasons });
    else lines.push({ row: number, date: date as string, reference: (reference as { reference: string }).reference, amount: (amount as { fen: number }).fen });
  }
  if (lines.length + problems.length > BANK_MAX_ROWS) throw new ApiError(Status.BAD_REQUEST, bankMessages.tooManyRows);
  if (problems.length) {
    const listed = problems
      .slice(0, 5)
      .map((p) => `第 ${p.row} 行：${p.reasons.join("，")}`)
      .join("；");
    throw new ApiError(Status.BAD_REQUEST, bankMessages.badRows(problems.length, `${listed}${problems.length > 5 ? "……" : ""}`), {
      errors: problems.slice(0, BANK_LISTED_PROBLEMS),
      invalid: problems.length,
    });
  }
  if (!lines.length) throw new ApiError(Status.BAD_REQUEST, bankMessages.empty);
  return lines;
}

/** The statement as canonical CSV: what the export and print forms post back. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const yuanText = (fen: number) => `${fen < 0 ? "-" : ""}${Math.floor(Math.abs(fen) / 100)}.${pad(Math.abs(fen) % 100)}`;
export const statementCsv = (lines: BankLine[]) => ["日期,参考号,金额", ...lines.map((l) => [l.date, csvField(l.reference), yuanText(l.amount)].join(","))].join("\r\n");

// ---- Our side ------------------------------------------------------------------------------------------------

/**
 * Online payments (meal orders with an online payFlag, reference its order no, the amount paid) and top-ups and
 * refunds of an account paid online (reference the charge no; a refund is money out, negative) in the period.
 */
export async function ourLines(db: Db, tenantId: number, start: number, end: number): Promise<OurLine[]> {
  const orders = await db
    .selectFrom("meal_order")
    .leftJoin("user_info", (j) => j.onRef("user_info.tenant_id", "=", "meal_order.tenant_id").onRef("user_info.id", "=", "meal_order.user_info_id"))
    .select(["meal_order.order_no", "meal_order.paid_at", "meal_order.paid_amount", "meal_order.refunded_amount", "meal_order.pay_flag", "user_info.user_name"])
    .where("meal_order.tenant_id", "=", tenantId)
    .where("meal_order.pay_flag", "in", ONLINE_PAY_FLAGS)
    .where("meal_order.paid_at", ">=", start)
    .where("meal_order.paid_at", "<", end)
    .execute();
  const charges = await db
    .selectFrom("user_account_charge as c")
    .leftJoin("user_info", (j) => j.onRef("user_info.tenant_id", "=", "c.tenant_id").onRef("user_info.id", "=", "c.user_info_id"))
    .leftJoin("user_account_charge as r", (j) => j.onRef("r.tenant_id", "=", "c.tenant_id").onRef("r.reversal_of", "=", "c.id"))
    .select(["c.charge_no", "c.charged_at", "c.amount", "c.busi_type", "c.pay_flag", "user_info.user_name", "r.charge_no as reversed_by"])
    .where("c.tenant_id", "=", tenantId)
    .where("c.pay_flag", "in", ONLINE_PAY_FLAGS)
    .where("c.busi_type", "in", [BusiType.TOP_UP, BusiType.REFUND])
    .where("c.charged_at", ">=", start)
    .where("c.charged_at", "<", end)
    .execute();
  const lines: Array<OurLine & { time: number }> = [
    ...orders.map((o) => {
      const refunded = Number(o.refunded_amount);
      return {
        source: "order" as const,
        reference: o.order_no,
        time: Number(o.paid_at),
        at: minuteOf(Number(o.paid_at)),
        amount: Number(o.paid_amount),
        userName: o.user_name ?? "",
        payFlag: Number(o.pay_flag),
        note: refunded > 0 ? `已退款 ${yuanText(refunded)} 元` : "",
      };
    }),
    ...charges.map((c) => {
      const refund = Number(c.busi_type) === BusiType.REFUND;
      return {
        source: refund ? ("refund" as const) : ("topUp" as const),
        reference: c.charge_no,
        time: Number(c.charged_at),
        at: minuteOf(Number(c.charged_at)),
        amount: refund ? -Number(c.amount) : Number(c.amount),
        userName: c.user_name ?? "",
        payFlag: Number(c.pay_flag),
        note: c.reversed_by ? `已冲正（${c.reversed_by}）` : "",
      };
    }),
  ];
  lines.sort((a, b) => a.time - b.time || (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0));
  return lines.map(({ time: _time, ...line }) => line);
}

// ---- Matching ------------------------------------------------------------------------------------------------

/** References compare without surrounding spaces and case (a bank may upper-case them). */
const keyOf = (reference: string) => reference.trim().toUpperCase();

/**
 * Per reference, deterministically: each statement line in file order takes the first unmatched record of ours
 * (in time order) with the same amount; the lines and records left over pair up in the same orders as amount
 * mismatches; what is still left is only in the bank or only ours. A second statement line of a reference we have
 * once is therefore shown as only in the bank, naming the line it repeats.
 */
export function reconcile(bank: BankLine[], ours: OurLine[]) {
  const byKey = new Map<string, { bank: BankLine[]; ours: OurLine[] }>();
  const group = (reference: string) => {
    const key = keyOf(reference);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { bank: [], ours: [] }));
    return g;
  };
  for (const line of bank) group(line.reference).bank.push(line);
  for (const line of ours) group(line.reference).ours.push(line);
  const matched: BankPair[] = [];
  const mismatched: BankPair[] = [];
  const bankOnly: BankAnswer["bankOnly"] = [];
  const oursOnly: OurLine[] = [];
  for (const g of byKey.values()) {
    const free = [...g.ours];
    const unmatched: BankLine[] = [];
    for (const line of g.bank) {
      const at = free.findIndex((o) => o.amount === line.amount);
      if (at >= 0) matched.push({ bank: line, ours: free.splice(at, 1)[0] });
      else unmatched.push(line);
    }
    while (unmatched.length && free.length) mismatched.push({ bank: unmatched.shift() as BankLine, ours: free.shift() as OurLine });
    for (const line of unmatched) {
      const others = g.bank.filter((b) => b !== line).map((b) => b.row);
      bankOnly.push({ ...line, note: others.length ? `参考号与第 ${others.join("、")} 行重复` : "" });
    }
    oursOnly.push(...free);
  }
  const byRow = (a: { row: number }, b: { row: number }) => a.row - b.row;
  matched.sort((a, b) => byRow(a.bank, b.bank));
  mismatched.sort((a, b) => byRow(a.bank, b.bank));
  bankOnly.sort(byRow);
  const order = new Map(ours.map((o, i) => [o, i]));
  oursOnly.sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
  const sum = (xs: Array<{ amount: number }>) => xs.reduce((s, x) => s + x.amount, 0);
  const pairs = (ps: BankPair[]): GroupTotals => ({ bankCount: ps.length, bank: sum(ps.map((p) => p.bank)), oursCount: ps.length, ours: sum(ps.map((p) => p.ours)) });
  return {
    matched,
    mismatched,
    bankOnly,
    oursOnly,
    totals: {
      matched: pairs(matched),
      mismatched: pairs(mismatched),
      bankOnly: { bankCount: bankOnly.length, bank: sum(bankOnly), oursCount: 0, ours: 0 },
      oursOnly: { bankCount: 0, bank: 0, oursCount: oursOnly.length, ours: sum(oursOnly) },
      all: { bankCount: bank.length, bank: sum(bank), oursCount: ours.length, ours: sum(ours) },
    },
  };
}

// ---- The request ---------------------------------------------------------------------------------------------

/** The statement of a multipart form (`file`, or `statement` as CSV text posted back by the export and print forms) and its period fields. */
async function readUpload(request: Request): Promise<{ bytes: Uint8Array; fields: Record<string, string> }> {
  const body = await readBody(request, BANK_MAX_BYTES + 64 * 1024).catch((error: unknown) => {
    throw error instanceof ApiError && error.status === Status.PAYLOAD_TOO_LARGE ? new ApiError(Status.PAYLOAD_TOO_LARGE, bankMessages.tooLarge) : error;
  });
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) return { bytes: body, fields: {} };
  const form = await new Response(body, { headers: { "Content-Type": type } }).formData().catch(() => null);
  if (!form) throw new ApiError(Status.BAD_REQUEST, bankMessages.missing);
  const fields: Record<string, string> = {};
  for (const name of ["from", "to"]) {
    const value = form.get(name);
    if (typeof value === "string" && value.trim()) fields[name] = value.trim();
  }
  const file = form.get("file");
  const statement = form.get("statement");
  if (file && typeof file !== "string" && file.size > 0) return { bytes: new Uint8Array(await file.arrayBuffer()), fields };
  if (typeof statement === "string" && statement.trim()) return { bytes: new TextEncoder().encode(statement), fields };
  throw new ApiError(Status.BAD_REQUEST, bankMessages.missing);
}

const periodQuery = z.strictObject({
  from: z.string().max(10, "开始日期格式应为 2026-05-01").optional(),
  to: z.string().max(10, "结束日期格式应为 2026-05-01").optional(),
});

export async function compareStatement(ctx: SessionContext, query: { from?: string; to?: string }): Promise<BankAnswer> {
  const { bytes, fields } = await readUpload(ctx.request);
  if (bytes.length === 0) throw new ApiError(Status.BAD_REQUEST, bankMessages.missing);
  if (bytes.length > BANK_MAX_BYTES) throw new ApiError(Status.PAYLOAD_TOO_LARGE, bankMessages.tooLarge);
  const bank = statementLines(await statementTable(bytes));
  const given = { from: fields.from ?? query.from, to: fields.to ?? query.to };
  const periodFromFile = !given.from && !given.to;
  const days = bank.map((l) => l.date).sort();
  const period = parsePeriod(periodFromFile ? { from: days[0], to: days[days.length - 1] } : given, ctx.now);
  const ours = await ourLines(ctx.services.db, ctx.session.tenantId, period.start, period.end);
  const result = reconcile(bank, ours);
  const t = result.totals;
  return {
    from: period.from,
    to: period.to,
    periodFromFile,
    ...result,
    statement: statementCsv(bank),
    summary: `对账期间：${period.from} 至 ${period.to}${periodFromFile ? "（取自对账单日期）" : ""}；对账单 ${t.all.bankCount} 笔 ${yuanText(t.all.bank)} 元；我方 ${t.all.oursCount} 笔 ${yuanText(t.all.ours)} 元`,
    generatedText: minuteOf(ctx.now),
  };
}

// ---- The XLSX ------------------------------------------------------------------------------------------------

/** The comparison as the screen shows it: one sheet, the four groups one after another with their totals, then the overall totals. */
export async function bankWorkbook(answer: BankAnswer): Promise<Response> {
  const workbook = new ExcelWorkbook.Workbook();
  const sheet = workbook.addWorksheet(bankReconcile.title);
  const money = (fen: number | null) => (fen === null ? null : fen / 100);
  const text = (value: string) => (value ? escapeCell(value) : null);
  sheet.addRow([bankReconcile.title]).font = { bold: true, size: 14 };
  sheet.addRow([`${answer.summary}；生成时间：${answer.generatedText}（北京时间）；金额单位：元`]);
  const headers = ["银行日期", "银行参考号", "银行金额", "我方类型", "我方单号", "我方时间", "人员", "我方金额", "差额", "说明"];
  const section = (title: string, rows: Array<Array<string | number | null>>, totals: GroupTotals) => {
    sheet.addRow([]);
    sheet.addRow([`${title}（${Math.max(totals.bankCount, totals.oursCount)} 笔）`]).font = { bold: true, size: 12 };
    sheet.addRow(headers).font = { bold: true };
    for (const r of rows) sheet.addRow(r);
    sheet.addRow(["合计", null, money(totals.bank), null, null, null, null, money(totals.ours), money(totals.bank - totals.ours), `银行 ${totals.bankCount} 笔，我方 ${totals.oursCount} 笔`]).font = { bold: true };
  };
  const ours = (o: OurLine) => [bankSourceLabels[o.source], text(o.reference), o.at, text(o.userName), money(o.amount)];
  const bank = (b: BankLine) => [b.date, text(b.reference), money(b.amount)];
  section("已对上", answer.matched.map((p) => [...bank(p.bank), ...ours(p.ours), 0, text(p.ours.note)]), answer.totals.matched);
  section("金额不符", answer.mismatched.map((p) => [...bank(p.bank), ...ours(p.ours), money(p.bank.amount - p.ours.amount), text(p.ours.note)]), answer.totals.mismatched);
  section("仅银行有", answer.bankOnly.map((b) => [...bank(b), null, null, null, null, null, money(b.amount), text(b.note)]), answer.totals.bankOnly);
  section("仅我方有", answer.oursOnly.map((o) => [null, null, null, ...ours(o), money(-o.amount), text(o.note)]), answer.totals.oursOnly);
  sheet.addRow([]);
  const all = answer.totals.all;
  sheet.addRow(["总计", null, money(all.bank), null, null, null, null, money(all.ours), money(all.bank - all.ours), `银行 ${all.bankCount} 笔，我方 ${all.oursCount} 笔`]).font = { bold: true };
  const widths = [12, 24, 14, 14, 24, 18, 12, 14, 14, 30];
  widths.forEach((w, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = w;
    if ([3, 8, 9].includes(i + 1)) column.numFmt = MONEY;
  });
  const bytes = await workbook.xlsx.writeBuffer();
  const fileName = `${bankReconcile.title}-${answer.from}-${answer.to}.xlsx`;
  return new Response(bytes as ArrayBuffer, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="bank-reconcile.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}

export const bankEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: BANK_API,
    summary: "银行对账：页面的默认期间与对账单格式（查看权限）",
    access: permission(permissionCode(bankReconcile, "view")),
    query: periodQuery,
    handle: (ctx, { query }) => {
      const period = parsePeriod(query, ctx.now);
      return { from: period.from, to: period.to, maxBytes: BANK_MAX_BYTES, maxRows: BANK_MAX_ROWS };
    },
  }),
  endpoint({
    method: "POST",
    path: `${BANK_API}/compare`,
    summary: "银行对账：上传对账单（multipart：file 为 .xlsx 或 .csv，列 日期、参考号、金额；from、to 可选，缺省取对账单的日期范围）→ 已对上、金额不符、仅银行有、仅我方有及合计（金额单位：分）。不写入任何数据",
    access: permission(permissionCode(bankReconcile, "compare")),
    rawBody: true,
    query: periodQuery,
    handle: (ctx, { query }) => compareStatement(ctx as SessionContext, query),
  }),
  endpoint({
    method: "POST",
    path: `${BANK_API}/export`,
    summary: "导出银行对账结果（xlsx，与页面相同的分组与合计，金额单位：元）；请求同 compare",
    access: permission(permissionCode(bankReconcile, "export")),
    rawBody: true,
    query: periodQuery,
    handle: async (ctx, { query }) => bankWorkbook(await compareStatement(ctx as SessionContext, query)),
  }),
];
