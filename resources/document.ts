import { defineResource, permissionCode, resourceKey, type FieldDef, type ResourceDef, type StatusColor, type TransitionDef } from "./define";
import { builtInDicts } from "./dicts";

/**
 * A document: a header with lines and a number, moved along a status workflow whose steps may post to a ledger
 * (issue 34, decision 060). The header and the lines are two ordinary declarations (`ResourceDef`), so their tables
 * (decision 014), list columns, filters and forms come from the machinery every entity uses; what a document adds —
 * the number, the statuses, the transitions and the postings — is data here, and the one transition service
 * (server/kernel/transitions.ts) and the generated API act on it. Isomorphic: guards and effects are named, and the
 * server resolves the names.
 */

export type { StatusColor, TransitionDef } from "./define";

export interface DocumentStatus<V extends string = string> {
  /** Stored in the header's `status` column and sent by the API. */
  value: V;
  /** Chinese name, as 409s and badges say it (已审核). */
  label: string;
  color: StatusColor;
}

/**
 * A value a posting reads: `"header.<field>"` or `"line.<field>"`, signed with a leading `-` or `+` for quantities
 * and amounts (`"-line.quantity"`), or a pure function of the header and the line (records as the API sends them).
 */
export type PostingValue = string | ((header: Readonly<Record<string, unknown>>, line: Readonly<Record<string, unknown>>) => unknown);

/** One posting per line of the document when the transition `on` succeeds; voiding a posted document reverses them. */
export interface PostingDef {
  /** The ledger's name, as the server's ledger declaration names it (`stock`). */
  ledger: string;
  /** The transition that posts (`approve`). */
  on: string;
  /**
   * The transition that takes the posting back (`void`): taken from a status the document holds only once it has
   * posted, it reverses the document's lines in the ledger; taken before the posting, it has nothing to reverse.
   */
  reversedBy?: string;
  /** The ledger's key columns (by their names in the ledger) and where each value comes from. */
  key: Readonly<Record<string, PostingValue>>;
  /** Signed, in the ledger's unit (stock in thousandths, money in fen). */
  quantity: PostingValue;
  amount?: PostingValue;
  /**
   * A posting a plain row per line cannot say (stock: which batches a stock-out consumes, first expiry first): the
   * name of a server function (`DocumentRules.allocators`) that turns the line's entry, as the fields above make it,
   * into the ledger lines it posts — several for one document line, each with its own amount and extra columns
   * (a batch), or none. It runs in the step's transaction and may refuse the step.
   */
  allocate?: string;
}

/**
 * A second list of a document's headers that shows only some of them (出库审核: the stock-outs waiting for approval;
 * 维修出库: the repairs'): its own screen and menu entry, the document's API, pages and permissions. Every list of it
 * holds `filter`, whatever its URL asks.
 */
export interface DocumentListView {
  /** `${screenBase}/${screen}/index` is the view's list. */
  screen: string;
  title: string;
  /** Header field → the value its rows hold (a declared filter of the header). */
  filter: Readonly<Record<string, string>>;
}

/** A signature line of a printed document: who signs, and the history step whose operator prints on it once taken. */
export interface PrintSignature {
  label: string;
  /** `create`, or a transition's name (`approve`): the last operator of that step fills the line. */
  by?: string;
}

/**
 * What a document prints (issue 35, decision 082), on A4 or an 80 mm receipt: one print view reads it for every
 * document. The number, the status and the tenant's receipt title print on every sheet.
 */
export interface DocumentPrint {
  /** Header fields stated under the title, in order (the warehouse, the supplier or use type). */
  header: readonly string[];
  /** The header's date field the sheet states (单据日期); the day it was made when none. */
  date?: string;
  /** Line fields printed as columns, in order. */
  columns: readonly string[];
  /** Columns printed empty, to be written by hand (a stocktake's count), while the document is in `statuses`. */
  blank?: { columns: readonly string[]; statuses: readonly string[] };
  /** The line money field whose total the sheet states in figures and in Chinese capitals. */
  amount?: string;
  /** Quantities print with a unit: the line's relation (`goodsId`) and the field of its record naming it (`unitId`). */
  unit?: { relation: string; field: string };
  signatures: readonly PrintSignature[];
}

/** The papers a document prints on (`?paper=`): A4 by default, or an 80 mm receipt printer's roll. */
export const PRINT_PAPERS = ["a4", "80mm"] as const;
export type PrintPaper = (typeof PRINT_PAPERS)[number];

/** What a module writes: `defineDocument` turns it into a `DocumentDef`. */
export interface DocumentSpec<V extends string = string> {
  module: string;
  entity: string;
  /** Screen path segment and URL prefix, as a resource's (spec §2). */
  screen: string;
  screenBase: string;
  title: string;
  menuTitle?: string;
  header: {
    table: string;
    fields: readonly FieldDef[];
    /** The field that names a document besides its number in pickers and messages; the number by default. */
    labelField?: string;
    defaultSort?: { field: string; dir: "asc" | "desc" };
    indexes?: string[][];
  };
  lines: {
    table: string;
    /** The lines' name on screens (入库明细); 明细 by default. */
    title?: string;
    fields: readonly FieldDef[];
    /** At least this many lines: create and update refuse fewer (0 by default). */
    min?: number;
    /** At most this many lines (500 by default: a body is at most 1 MB). */
    max?: number;
    /**
     * The line fields whose column sums on the screens; every money and quantity field unless given (a unit price
     * or the kilos of different goods add up to nothing).
     */
    totals?: readonly string[];
    /**
     * Line fields whose sum the header keeps (`<field>Total`, a hidden read-only header field of the same type,
     * 0 without lines), written in the same transaction as the lines by every write of them: create, update, and any
     * step (an allocator's amounts at approval). A report of a period then reads the headers, not every line
     * (decision 094). Each must be a money or quantity line field.
     */
    keptTotals?: readonly string[];
  };
  /** `RK20261128-0001`: the prefix, the China-time day of creation, a sequence per tenant, document type and day. */
  numbering: { prefix: string; digits?: number };
  workflow: {
    statuses: readonly DocumentStatus<V>[];
    /** A new document's status. */
    initial: NoInfer<V>;
    /** Statuses in which `update` may change the header and the lines. */
    editable: readonly NoInfer<V>[];
    transitions: readonly TransitionDef<NoInfer<V>>[];
    /**
     * A built-in dictionary (resources/dicts.ts) whose items are exactly these statuses (values and labels), for
     * documents that share one (the stock documents' `docStatus`, numbers as the API sends them): the status column
     * then holds its values as that dictionary's other columns do (integers). Without it the dictionary is the
     * declaration's own (`statusDictCode`) and the column holds the values as text.
     */
    dict?: string;
  };
  postings?: readonly PostingDef[];
  views?: readonly DocumentListView[];
  /** What it prints; a document without it prints its shown header fields and lines (`printOf`). */
  print?: DocumentPrint;
  /** Screens of the module's own about one document, offered beside its steps (`DocumentPage`). */
  pages?: readonly DocumentPage[];
}
/**
 * A screen of the module's own about one document (审核 with changed quantities, a count's XLSX import): routed in the
 * module's screens at `${screenBase}/${screen}/${path}/:id`, and offered as a button on the document's detail and a
 * row action of its lists while `step` may be taken — a transition's name (its from-statuses and its permission), or
 * `update` (the editable statuses and the update permission). With `step: "create"` it makes a new document another
 * way (an order from requests): `${screenBase}/${screen}/${path}`, a button beside 新增 on the list and the create
 * page, for users who may create. A `path` from the root (`/zhhq/…?docNo=:docNo`, `:field` the document's value) is
 * another screen about it (its lines among all transfers'): with `step: "view"` offered in every status to users who
 * may view `entity` (of the same module; the document itself by default). The API it posts to checks the same again.
 */
export interface DocumentPage {
  path: string;
  label: string;
  step: string;
  entity?: string;
}

/** Where a page of one document opens: under the document's path, or a path from the root with its `:field`s filled. */
export function documentPageHref(
  doc: Pick<DocumentDef, "screenBase" | "screen">,
  page: { path: string },
  record: Record<string, unknown>,
): string {
  if (!page.path.startsWith("/"))
    return `${doc.screenBase}/${doc.screen}/${page.path}/${String(record.id)}`;
  return page.path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(record[name] ?? "")),
  );
}

/** A page's statuses and permission, as data a list or a detail reads: offered when both hold. */
export function documentPages(
  doc: DocumentDef,
): Array<{
  path: string;
  label: string;
  creates: boolean;
  statuses: string[];
  permission: string;
}> {
  return (doc.pages ?? []).map((page) => {
    const transition = findTransition(doc, page.step);
    const creates = page.step === "create";
    const views = page.step === "view";
    return {
      path: page.path,
      label: page.label,
      creates,
      statuses: transition
        ? [...transition.from]
        : creates
          ? []
          : views
            ? doc.workflow.statuses.map((s) => s.value as string)
            : [...doc.workflow.editable],
      permission: transition
        ? transitionPermission(doc, transition)
        : views
          ? permissionCode(
              page.entity
                ? { module: doc.module, entity: page.entity }
                : doc.header,
              "view",
            )
          : permissionCode(doc.header, creates ? "create" : "update"),
    };
  });
}

export interface DocumentDef<V extends string = string> extends Omit<
  DocumentSpec<V>,
  "header" | "lines"
> {
  /** `module/entity`: the key of the header's declaration, the status history's and the ledger lines' docType. */
  docType: string;
  /** The header as an entity (its table has the number, the status and the version besides the declared fields). */
  header: ResourceDef;
  /** The lines as an entity, each naming its document (`documentId`, deleted with it). */
  lines: ResourceDef;
  linesTitle: string;
  minLines: number;
  maxLines: number;
  /** The line fields summed on the screens (`lines.totals`), or undefined for every money and quantity field. */
  totals?: readonly string[];
  /** The line fields whose sums the header keeps (`lines.keptTotals`), each with the header field keeping it. */
  keptTotals: ReadonlyArray<{ line: FieldDef; header: FieldDef }>;
  /** The status values by name, so no module writes a status as a literal: `stockIn.status.approved`. */
  status: { readonly [K in V]: K };
}


/** The fields every document's header and lines have, named the same everywhere (the transition service reads them). */
export const DOC_NO = "docNo";
export const DOC_STATUS = "status";
export const DOC_VERSION = "version";
export const LINE_DOCUMENT = "documentId";
export const LINE_NO = "lineNo";
/** The endpoint (`…/print`) answering what a document's print view shows. */
export const PRINT = "print";
/** The endpoint (`…/lineOptions`) answering the choices of line relations narrowed by a header field (`narrowedBy`). */
export const LINE_OPTIONS = "lineOptions";
/** The shared tables (migration 0047): every document's status history and its numbering sequences. */
export const STATUS_HISTORY_TABLE = "document_status_history";
export const SEQUENCE_TABLE = "document_sequence";

/** The header field keeping the sum of a line field (`lines.keptTotals`): `amount` → `amountTotal`. */
export const keptTotalName = (lineField: string) => `${lineField}Total`;

/** Keeps the statuses' literal values, so `status` and `DocStatus<typeof doc>` are typed from the declaration. */
export function defineDocument<const V extends string>(spec: DocumentSpec<V>): DocumentDef<V> {
  const docType = `${spec.module}/${spec.entity}`;
  const { statuses, initial, editable, transitions } = spec.workflow;
  const values = new Set<string>(statuses.map((s) => s.value));
  const problem = (what: string) => new Error(`${docType}: ${what}`);
  if (values.size !== statuses.length) throw problem("a status value is declared twice");
  for (const value of [initial, ...editable, ...transitions.flatMap((t) => [...t.from, t.to])]) {
    if (!values.has(value)) throw problem(`status ${value} is not declared`);
  }
  const reserved = new Set(["create", "update", "findPage", "getInfo", "export", "delete", "view", LINE_OPTIONS, PRINT]);
  for (const field of spec.lines.fields.filter((f) => f.narrowedBy)) {
    if (field.type !== "relation" || !spec.header.fields.some((f) => f.name === field.narrowedBy)) throw problem(`line field ${field.name}: narrowedBy ${field.narrowedBy} is not a header field`);
  }
  const names = new Set<string>();
  for (const t of transitions) {
    if (reserved.has(t.name) || names.has(t.name)) throw problem(`transition ${t.name} is reserved or declared twice`);
    names.add(t.name);
  }
  for (const posting of spec.postings ?? []) {
    for (const name of [posting.on, posting.reversedBy ?? posting.on]) if (!names.has(name)) throw problem(`posting: no transition ${name}`);
  }
  const dict = spec.workflow.dict;
  if (dict) {
    const items = builtInDicts[dict]?.options ?? [];
    const same = items.length === statuses.length && statuses.every((s) => items.some((o) => o.value === s.value && o.label === s.label));
    if (!same) throw problem(`the statuses are not dictionary ${dict}'s items`);
  }
  if (spec.print) checkPrint(spec, names, values, problem);
  for (const page of spec.pages ?? []) {
    if (
      !["update", "create", "view"].includes(page.step) &&
      !names.has(page.step)
    )
      throw problem(`page ${page.path}: no transition ${page.step}`);
  }
  const byValue = new Map(statuses.map((s) => [s.value as string, s]));
  for (const view of spec.views ?? []) {
    for (const name of Object.keys(view.filter)) {
      if (name !== DOC_STATUS && !spec.header.fields.some((f) => f.name === name && f.filter === "eq")) throw problem(`view ${view.screen}: ${name} is not an eq filter of the header`);
    }
  }
  const keptTotals = (spec.lines.keptTotals ?? []).map((name) => {
    const line = spec.lines.fields.find((f) => f.name === name);
    if (!line || (line.type !== "money" && line.type !== "quantity")) throw problem(`keptTotals: ${name} is not a money or quantity line field`);
    const header: FieldDef = { name: keptTotalName(name), label: line.label.replace(/^(.*?)(（.*）)?$/, "$1合计$2"), type: line.type, required: true, readOnly: true, hidden: true, list: false, defaultValue: 0 };
    if (spec.header.fields.some((f) => f.name === header.name)) throw problem(`keptTotals: header field ${header.name} is declared already`);
    return { line, header };
  });
  const header = defineResource({
    module: spec.module,
    entity: spec.entity,
    screen: spec.screen,
    screenBase: spec.screenBase,
    table: spec.header.table,
    title: spec.title,
    menuTitle: spec.menuTitle,
    scope: "tenant",
    labelField: spec.header.labelField ?? DOC_NO,
    defaultSort: spec.header.defaultSort ?? { field: DOC_NO, dir: "desc" },
    actions: ["create", "update", "export"],
    workflowActions: Object.fromEntries(transitions.map((t) => [t.name, t.label])),
    indexes: [[DOC_STATUS], ...(spec.header.indexes ?? [])],
    fields: [
      { name: DOC_NO, label: "单号", type: "text", readOnly: true, unique: true, filter: "like", sortable: true, max: 40, plain: true },
      {
        name: DOC_STATUS,
        label: "状态",
        type: "enum",
        dict: dict ?? statusDictCode(docType),
        required: true,
        readOnly: true,
        filter: "eq",
        defaultValue: initial,
        show: (value) => byValue.get(String(value))?.label ?? String(value ?? ""),
      },
      ...spec.header.fields,
      ...keptTotals.map((k) => k.header),
      { name: DOC_VERSION, label: "版本", type: "number", required: true, readOnly: true, hidden: true, list: false, plain: true, defaultValue: 1, min: 1 },
    ],
  });
  const lines = defineResource({
    module: spec.module,
    entity: `${spec.entity}Line`,
    screen: `${spec.screen}line`,
    screenBase: spec.screenBase,
    table: spec.lines.table,
    title: `${spec.title}${spec.lines.title ?? "明细"}`,
    scope: "tenant",
    labelField: LINE_NO,
    defaultSort: { field: LINE_NO, dir: "asc" },
    actions: [],
    fields: [
      { name: LINE_DOCUMENT, label: spec.title, type: "relation", relation: docType, required: true, readOnly: true, hidden: true, onDelete: "cascade" },
      { name: LINE_NO, label: "行号", type: "number", required: true, readOnly: true, sortable: true, min: 1, max: 100_000, plain: true },
      ...spec.lines.fields,
    ],
  });
  return {
    ...spec,
    docType,
    header,
    lines,
    linesTitle: spec.lines.title ?? "明细",
    minLines: spec.lines.min ?? 0,
    maxLines: spec.lines.max ?? 500,
    ...(spec.lines.totals ? { totals: spec.lines.totals } : {}),
    keptTotals,
    status: Object.fromEntries(statuses.map((s) => [s.value, s.value])) as DocumentDef<V>["status"],
  };
}

/** A print declaration names only fields, steps and statuses the document has: a slip in it stops the start. */
function checkPrint(spec: DocumentSpec<string>, transitions: Set<string>, statuses: Set<string>, problem: (what: string) => Error) {
  const print = spec.print as DocumentPrint;
  const header = (name: string) => spec.header.fields.find((f) => f.name === name);
  const line = (name: string) => spec.lines.fields.find((f) => f.name === name);
  for (const name of [...print.header, ...(print.date ? [print.date] : [])]) if (!header(name)) throw problem(`print: no header field ${name}`);
  for (const name of [...print.columns, ...(print.blank?.columns ?? [])]) if (!line(name)) throw problem(`print: no line field ${name}`);
  for (const name of print.blank?.columns ?? []) if (!print.columns.includes(name)) throw problem(`print: blank column ${name} is not a column`);
  for (const value of print.blank?.statuses ?? []) if (!statuses.has(value)) throw problem(`print: status ${value} is not declared`);
  if (print.amount && line(print.amount)?.type !== "money") throw problem(`print: amount ${print.amount} is not a money line field`);
  if (print.unit && line(print.unit.relation)?.type !== "relation") throw problem(`print: unit ${print.unit.relation} is not a line relation`);
  for (const s of print.signatures) if (s.by && s.by !== "create" && !transitions.has(s.by)) throw problem(`print: signature ${s.label}: no step ${s.by}`);
}

/**
 * What a document prints: its declaration's `print`, or, for a document that declares none, its shown header fields
 * (long texts print as notes below the lines), its shown lines with their first money total, and the four usual
 * signature lines.
 */
export function printOf(doc: Pick<DocumentDef, "print" | "header" | "lines" | "totals">): DocumentPrint {
  if (doc.print) return doc.print;
  const shown = (f: FieldDef) => !f.hidden && f.name !== DOC_NO && f.name !== DOC_STATUS && f.name !== DOC_VERSION;
  const columns = doc.lines.fields.filter((f) => shown(f) && f.name !== LINE_NO && f.name !== LINE_DOCUMENT).map((f) => f.name);
  const totalled = doc.totals ?? columns;
  const amount = doc.lines.fields.find((f) => f.type === "money" && totalled.includes(f.name) && columns.includes(f.name))?.name;
  return {
    header: doc.header.fields.filter((f) => shown(f) && f.type !== "longText").map((f) => f.name),
    columns,
    ...(amount ? { amount } : {}),
    signatures: [{ label: "制单", by: "create" }, { label: "审核", by: "approve" }, { label: "保管" }, { label: "经手" }],
  };
}

/** A document's status values, as a union type: `DocStatus<typeof stockIn>`. */
export type DocStatus<D> = D extends DocumentDef<infer V> ? V : never;

/** The dictionary code a header's status field names (its items are the declaration's statuses, not rows of dict_item). */
export function statusDictCode(docType: string): string {
  return `doc:${docType}`;
}

export function statusOf(doc: Pick<DocumentDef, "workflow">, value: unknown): DocumentStatus | undefined {
  return doc.workflow.statuses.find((s) => s.value === String(value));
}

/** The Chinese name of a status, or the value itself when the declaration has no such status. */
export function statusLabel(doc: Pick<DocumentDef, "workflow">, value: unknown): string {
  return statusOf(doc, value)?.label ?? String(value ?? "");
}

/** The statuses as a picker's or a filter's options. */
export function statusOptions(doc: Pick<DocumentDef, "workflow">): Array<{ value: string; label: string }> {
  return doc.workflow.statuses.map((s) => ({ value: s.value, label: s.label }));
}

export function isEditable(doc: Pick<DocumentDef, "workflow">, status: unknown): boolean {
  return (doc.workflow.editable as readonly string[]).includes(String(status));
}

export function findTransition(doc: Pick<DocumentDef, "workflow">, name: string): TransitionDef | undefined {
  return doc.workflow.transitions.find((t) => t.name === name);
}

/** The transitions that may start from a status (the detail page's buttons, before permissions are asked). */
export function transitionsFrom(doc: Pick<DocumentDef, "workflow">, status: unknown): TransitionDef[] {
  return doc.workflow.transitions.filter((t) => (t.from as readonly string[]).includes(String(status)));
}

/** `module:entity:transition`: the permission a transition needs (a button under the document's menu entry). */
export function transitionPermission(doc: Pick<DocumentDef, "module" | "entity">, transition: Pick<TransitionDef, "name">): string {
  return permissionCode(doc, transition.name);
}

/**
 * The statuses a document holds only after `posting` was made: the posting transition's status and every status
 * reachable from it without the reversing transition. Taking `reversedBy` from one of them reverses the posting.
 */
export function postedStatuses(doc: Pick<DocumentDef, "workflow">, posting: Pick<PostingDef, "on" | "reversedBy">): Set<string> {
  const transitions = doc.workflow.transitions;
  const start = transitions.find((t) => t.name === posting.on);
  const posted = new Set<string>(start ? [start.to] : []);
  for (let grown = true; grown; ) {
    grown = false;
    for (const t of transitions) {
      if (t.name === posting.reversedBy || t.name === posting.on || posted.has(t.to)) continue;
      if (t.from.some((from) => posted.has(from))) {
        posted.add(t.to);
        grown = true;
      }
    }
  }
  return posted;
}

/** `RK20261128-0001`: the number of the `sequence`-th document of its type created on a China day (`YYYY-MM-DD`). */
export function documentNumber(doc: Pick<DocumentDef, "numbering">, chinaDay: string, sequence: number): string {
  return `${doc.numbering.prefix}${chinaDay.replaceAll("-", "")}-${String(sequence).padStart(doc.numbering.digits ?? 4, "0")}`;
}

/** `/api/v1/{module}/{entity}/{action}` of a document's API (create, update, findPage, getInfo, a transition). */
export function documentPath(doc: Pick<DocumentDef, "module" | "entity">, action: string): string {
  return `/api/v1/${doc.module}/${doc.entity}/${action}`;
}

/** The line fields whose choices depend on a header field (decision 071). */
export const narrowedLineFields = (doc: Pick<DocumentDef, "lines">) => doc.lines.fields.filter((f) => f.type === "relation" && f.narrowedBy);

export const documentKey = (doc: Pick<DocumentDef, "module" | "entity">) => resourceKey(doc);

const REFERENCE = /^([+-]?)(header|line)\.([A-Za-z][A-Za-z0-9]*)$/;

/** Reads one posting value: a reference (`-line.quantity`) or a function; a reference to nothing is an error in the declaration. */
export function postingValue(value: PostingValue, header: Readonly<Record<string, unknown>>, line: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === "function") return value(header, line);
  const m = REFERENCE.exec(value);
  if (!m) throw new Error(`posting value ${value}: expected header.<field> or line.<field>, optionally signed`);
  const [, sign, from, field] = m;
  const read = (from === "header" ? header : line)[field as string];
  if (!sign) return read;
  const n = Number(read);
  return sign === "-" ? -n : n;
}

export interface PostingEntry {
  ledger: string;
  key: Record<string, unknown>;
  quantity: number;
  amount?: number;
  /** The posting's allocator, which turns this entry into the lines it posts. */
  allocate?: string;
}

/** What a document posts when `transition` succeeds: one entry per line and posting declared on it. */
export function postingsOf(
  doc: Pick<DocumentDef, "postings">,
  transition: string,
  header: Readonly<Record<string, unknown>>,
  lines: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Array<PostingEntry & { line: Readonly<Record<string, unknown>> }> {
  return (doc.postings ?? [])
    .filter((p) => p.on === transition)
    .flatMap((p) =>
      lines.map((line) => ({
        ledger: p.ledger,
        key: Object.fromEntries(Object.entries(p.key).map(([name, value]) => [name, postingValue(value, header, line)])),
        quantity: Number(postingValue(p.quantity, header, line)),
        ...(p.amount !== undefined ? { amount: Number(postingValue(p.amount, header, line)) } : {}),
        ...(p.allocate ? { allocate: p.allocate } : {}),
        line,
      })),
    );
}
