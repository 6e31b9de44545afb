import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { ApiError, Status } from "../../http/envelope";

/** Number formats of the XLSX the app writes: money in yuan with thousands separators, China dates and times. */
export const MONEY_FORMAT = "#,##0.00";
export const DATE_FORMAT = "yyyy-mm-dd";
export const DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss";

/** A cell holds a formula: refused, as its cached value may not be what the sheet shows. */
export class FormulaFound extends Error {
  constructor(readonly row: number) {
    super("formula");
  }
}

/**
 * exceljs 4.4's stream reader now and then ends the zip before its last entries (5 in 3,000 reads of one and the same
 * small file, measured), and then fails on a sound file. The bytes are in memory, so a failed read is tried again; a
 * file that is really unreadable fails every time.
 */
const READ_ATTEMPTS = 3;

export interface SheetMessages {
  formula: (row: number) => string;
  unreadable: string;
}

/**
 * Streams the first worksheet of an XLSX to `visit` (the import's and the bank statement's reader). `visit` starts
 * afresh on each attempt, so it keeps its state inside. An ApiError it throws is the answer; FormulaFound becomes
 * `messages.formula`; anything else is a failed read, tried again, then `messages.unreadable`.
 */
export async function readFirstSheet<T>(bytes: Uint8Array, messages: SheetMessages, visit: (rows: AsyncIterable<ExcelJS.Row>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(bytes, visit);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof FormulaFound) throw new ApiError(Status.BAD_REQUEST, messages.formula(error.row));
      if (attempt === READ_ATTEMPTS) throw new ApiError(Status.BAD_REQUEST, messages.unreadable);
    }
  }
}

async function readOnce<T>(bytes: Uint8Array, visit: (rows: AsyncIterable<ExcelJS.Row>) => Promise<T>): Promise<T> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(Buffer.from(bytes)), {
    entries: "emit",
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "cache",
    worksheets: "emit",
  });
  // The first sheet only: an import template's second sheet is its guide.
  for await (const worksheet of reader) return await visit(worksheet as AsyncIterable<ExcelJS.Row>);
  // Every workbook has a sheet: none means the reader stopped early (see READ_ATTEMPTS).
  throw new Error("no worksheet read");
}

/** An XLSX is a ZIP archive. */
export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
