import { formFields, type FieldDef } from "./define";
import type { DocumentDef } from "./document";
import { formToPayload, recordToForm } from "./forms";
import { createSchema, recordId } from "./schemas";
import { z } from "./z";

/**
 * A document's editor as a form (decision 061): the header's fields by their names, and each line's as
 * `lines[i].<field>` (an existing line also carries `lines[i].id`). The browser's schema and the page's action read the
 * same names, with scripts (the lines grid) or without (a plain table of a fixed number of rows).
 */

type Raw = Record<string, unknown>;

/** What the editor's form reads of a declaration (the page sends it to the browser as data). */
export type DocumentForm = Pick<DocumentDef, "header" | "lines" | "linesTitle" | "minLines" | "maxLines" | "totals">;

/** Blank rows a form without scripts offers, and how many more each 增加行 adds. */
export const BLANK_LINE_ROWS = 5;
export const ADDED_LINE_ROWS = 5;
/** A form without scripts never grows past this many rows (the API's own bound is the declaration's `max`). */
export const MAX_FORM_ROWS = 200;

/** The fields a line's row asks for, in the declaration's order. */
export function lineFields(doc: DocumentForm): FieldDef[] {
  return formFields(doc.lines);
}

/** A document's screens live under `${screenBase}/${screen}/` (spec §2 paths, as a resource's): index, create, edit, detail, print. */
export function documentBase(doc: Pick<DocumentDef, "screenBase" | "screen">): string {
  return `${doc.screenBase}/${doc.screen}`;
}

export const lineInputName = (index: number, field: string) => `lines[${index}].${field}`;

/** A row the user left empty: it is not a line (a form offers more rows than a document needs). */
export function isBlankLine(doc: DocumentForm, raw: unknown): boolean {
  if (!raw || typeof raw !== "object") return true;
  return lineFields(doc).every((f) => {
    const value = (raw as Raw)[f.name];
    return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  });
}

/** The form's rows as an array, whatever the submission held (conform reads `lines[3]` alone as a sparse array). */
function rowsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return Array.from(value, (row) => row);
  if (value && typeof value === "object") return Object.values(value);
  return [];
}

/**
 * The editor's schema: the header as its form, each filled row as a line's form (money typed in yuan and sent in fen,
 * as every form does), blank rows dropped. A message about a row keeps the row's place in the form (`lines[3].amount`,
 * even when rows above it were blank), so it shows in the cell it is about.
 */
export function documentFormSchema(doc: DocumentForm, mode: "create" | "edit") {
  const line = createSchema(doc.lines).extend({ id: recordId(`${doc.linesTitle} id`).optional() });
  const lineRow = z.preprocess((raw) => {
    if (isBlankLine(doc, raw)) return undefined;
    const row = raw as Raw;
    const id = typeof row.id === "string" && row.id !== "" ? row.id : undefined;
    return { ...formToPayload(doc.lines, row), ...(id ? { id } : {}) };
  }, line.optional());
  const min = doc.minLines;
  const lines = z
    .preprocess(rowsOf, z.array(lineRow))
    .transform((rows) => rows.filter((row) => row !== undefined))
    .refine((rows) => rows.length >= min, { message: min > 0 ? `请至少填写 ${min} 行${doc.linesTitle}` : `${doc.linesTitle}应为列表` })
    .refine((rows) => rows.length <= doc.maxLines, { message: `${doc.linesTitle}不能超过 ${doc.maxLines} 行` });
  const header = createSchema(doc.header).extend(
    mode === "edit" ? { id: recordId(), version: recordId("version") } : {},
  );
  return z.preprocess((raw) => {
    const values = (raw ?? {}) as Raw;
    return {
      ...formToPayload(doc.header, values),
      ...(mode === "edit" ? { id: values.id, version: values.version } : {}),
      lines: values.lines,
    };
  }, header.extend({ lines }));
}

/**
 * Where each line the API is sent stood in the form: the API's messages name `lines.<n>.<field>` of what it was sent
 * (blank rows left out), the form `lines[<row>].<field>`.
 */
export function filledRows(doc: DocumentForm, raw: unknown): number[] {
  return rowsOf(raw)
    .map((row, index) => (isBlankLine(doc, row) ? -1 : index))
    .filter((index) => index >= 0);
}

/** The API's field messages under the form's names: `lines.1.amount` → `lines[4].amount` when row 4 was the second line. */
export function formFieldErrors(fieldErrors: Record<string, string[]>, rows: number[]): Record<string, string[]> {
  const named: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const m = /^lines\.(\d+)(?:\.(.+))?$/.exec(key);
    const name = m ? (m[2] ? lineInputName(rows[Number(m[1])] ?? Number(m[1]), m[2]) : `lines[${rows[Number(m[1])] ?? m[1]}]`) : key;
    (named[name] ??= []).push(...messages);
  }
  return named;
}

/** A document as its editor's form values: the header's, and each line's with its id. */
export function documentToForm(doc: DocumentForm, record: Raw | null): { header: Record<string, string | boolean>; lines: Array<Record<string, string>> } {
  const lines = Array.isArray(record?.lines) ? (record.lines as Raw[]) : [];
  return {
    header: recordToForm(doc.header, record),
    lines: lines.map((line) => ({ ...(recordToForm(doc.lines, line) as Record<string, string>), id: String(line.id) })),
  };
}

/** A line row with no values (the no-script table's spare rows; the grid's new row). */
export function blankLine(doc: DocumentForm): Record<string, string> {
  return blankLineValues(lineFields(doc));
}

export function blankLineValues(fields: readonly FieldDef[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, ""]));
}

/** The rows a form shows: the lines it holds, then spare blank rows up to `count`. */
export function formRows(doc: DocumentForm, lines: ReadonlyArray<Record<string, string>>, count: number): Array<Record<string, string>> {
  const total = Math.min(MAX_FORM_ROWS, Math.max(count, lines.length));
  return [...lines.slice(0, total), ...Array.from({ length: total - Math.min(lines.length, total) }, () => blankLine(doc))];
}

/**
 * The fields whose column sums on the editor, the detail page and the print view: the declaration's `totals`, or
 * else every money and quantity field.
 */
export function totalledFields(doc: DocumentForm): FieldDef[] {
  if (doc.totals) return doc.lines.fields.filter((f) => doc.totals?.includes(f.name));
  return doc.lines.fields.filter((f) => f.type === "money" || (f.type as string) === "quantity");
}
