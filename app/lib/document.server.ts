import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { formFields, listView, permissionCode, type ResourceDef } from "../../resources/define";
import {
  DOC_NO,
  DOC_STATUS,
  DOC_VERSION,
  documentPageHref,
  documentPages,
  documentPath,
  findTransition,
  isEditable,
  LINE_OPTIONS,
  narrowedLineFields,
  PRINT,
  PRINT_PAPERS,
  printOf,
  statusOf,
  type PrintPaper,
  transitionPermission,
  transitionsFrom,
  type DocumentDef,
  type DocumentListView,
} from "../../resources/document";
import { ADDED_LINE_ROWS, BLANK_LINE_ROWS, documentBase, documentFormSchema, filledRows, formFieldErrors, MAX_FORM_ROWS } from "../../resources/document-form";
import { documents, findResource } from "../../resources/index";
import { z } from "../../resources/z";
import { optionLabel, relationSource, type Option, type RelationSource } from "~/components/resource/relation-search";
import { apiCall } from "./api.server";
import { fieldErrorsOf, refusalStatus } from "./api-answer.server";
import { yuanToFen } from "../../resources/forms";
import { reasonOf, refusalOf } from "./confirm.server";
import { collectPermissionCodes } from "./permissions";
import { flashCookie, requireUserInfo } from "./session.server";

type Row = Record<string, unknown>;

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** The document whose screens live under this path (`/zhhq/warehousein/detail/7` → 入库单), or one of its views'. */
export function documentForPath(pathname: string): DocumentDef | undefined {
  return documents.find((doc) => under(pathname, documentBase(doc)) || (doc.views ?? []).some((view) => under(pathname, `${doc.screenBase}/${view.screen}`)));
}

/** The view of a document whose list this path is (`/zhhq/warehouseoutaudit/index` → 出库审核), if it is one. */
export function documentListViewForPath(doc: DocumentDef, pathname: string): DocumentListView | undefined {
  return (doc.views ?? []).find((view) => under(pathname, `${doc.screenBase}/${view.screen}`));
}

export function requireDocument(request: Request): DocumentDef {
  const doc = documentForPath(new URL(request.url).pathname);
  if (!doc) throw data(null, { status: 404 });
  return doc;
}

/**
 * What a page draws of a declaration (the browser gets no function: a status's `show`, a posting's value): the
 * header and the lines as a list draws them, the workflow's statuses and steps as data.
 */
export function documentView(doc: DocumentDef, form = false) {
  return {
    docType: doc.docType,
    module: doc.module,
    entity: doc.entity,
    screen: doc.screen,
    screenBase: doc.screenBase,
    title: doc.title,
    menuTitle: doc.menuTitle,
    linesTitle: doc.linesTitle,
    // The editor validates as the action does, so it has the whole of both; a list, only what it draws.
    header: form ? asData(doc.header) : listView(doc.header),
    lines: form ? asData(doc.lines) : listView(doc.lines),
    minLines: doc.minLines,
    maxLines: doc.maxLines,
    totals: doc.totals,
    statuses: doc.workflow.statuses.map((s) => ({ value: s.value as string, label: s.label, color: s.color })),
    editable: [...doc.workflow.editable] as string[],
    pages: documentPages(doc),
  };
}
export type DocumentView = ReturnType<typeof documentView>;

/** A declaration without its functions (a field's `show`): page data carries values only. */
const asData = (def: ResourceDef): ResourceDef => JSON.parse(JSON.stringify(def)) as ResourceDef;

/** The API's 403 is the sign-in page's business (the shell sends a 401 there); a missing document is a 404. */
function refuse(result: { status: number; message: string }): never {
  if (result.status === 403) throw data(null, { status: 401 });
  // The API failing is not a missing document: the page says so as the API did.
  throw data(result.message, { status: result.status >= 500 ? 500 : 404 });
}

export async function loadDocument(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined): Promise<Row> {
  if (!id || !/^\d{1,16}$/.test(id)) throw data(null, { status: 404 });
  const result = await apiCall<Row>(request, context, "GET", documentPath(doc, "getInfo"), { query: { id } });
  if (result.status !== 200) refuse(result);
  return result.data;
}

/** Each relation picker of the header and the lines: where it searches, and its first options (issue 17). */
export async function pickers(request: Request, context: AppLoadContext, defs: ResourceDef[], records: Row[]) {
  const options: Record<string, { value: string; label: string }[]> = {};
  const sources: Record<string, RelationSource> = {};
  for (const def of defs) {
    for (const field of formFields(def).filter((f) => (f.type === "relation" || f.type === "treeParent") && f.relation)) {
      const target = findResource(field.relation as string);
      if (!target || sources[field.name]) continue;
      const source = relationSource(target, field.relationWhere);
      sources[field.name] = source;
      const only = field.relationWhere?.values.length === 1 ? { [field.relationWhere.field]: field.relationWhere.values[0] } : {};
      const page = await apiCall<{ records: Row[] }>(request, context, "GET", `${source.findPage}`, { query: { pageSize: 100, ...only } });
      const list = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: optionLabel(source, r) }));
      // The values the document holds stay choosable with their names, though they are not among the first hundred.
      for (const record of records) {
        const current = record[field.name];
        if (current !== null && current !== undefined && !list.some((o) => o.value === String(current))) {
          list.unshift({ value: String(current), label: String(record[`${field.name}Label`] ?? current) });
        }
      }
      options[field.name] = list;
    }
  }
  return { options, sources };
}

/**
 * The pickers of line relations narrowed by a header field (decision 071): they search the document's `lineOptions`
 * with the header's value (the grid adds it as it changes); their first options are those of the header's value as
 * the page knows it (the document's, or the form as posted), so the plain table offers the source's lines without
 * scripts once its source is chosen and the form came back (增加行, a refused save).
 */
async function narrowedPickers(request: Request, context: AppLoadContext, doc: DocumentDef, header: Row, lines: Row[]) {
  const options: Record<string, Option[]> = {};
  const sources: Record<string, RelationSource> = {};
  for (const field of narrowedLineFields(doc)) {
    const findPage = documentPath(doc, LINE_OPTIONS);
    sources[field.name] = { findPage, labelField: "label", searchable: true, searchFields: ["keyword"], detail: [], only: `&field=${encodeURIComponent(field.name)}` };
    const value = header[field.narrowedBy as string];
    const chosen = value === undefined || value === null || value === "" ? null : String(value);
    const page = chosen && /^\d{1,16}$/.test(chosen) ? await apiCall<{ records: Row[] }>(request, context, "GET", findPage, { query: { field: field.name, [field.narrowedBy as string]: chosen } }) : null;
    const list: Option[] = (page?.data?.records ?? []).map((r) => ({ value: String(r.id), label: String(r.label), ...(typeof r.shows === "string" ? { shows: r.shows } : {}) }));
    for (const line of lines) {
      const current = line[field.name];
      if (current !== null && current !== undefined && current !== "" && !list.some((o) => o.value === String(current))) {
        list.unshift({ value: String(current), label: String(line[`${field.name}Label`] ?? current) });
      }
    }
    options[field.name] = list;
  }
  return { options, sources };
}

/** The editor's data: the document (edit) or nothing (create), and the pickers of its header and lines. */
export async function loadEditor(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined) {
  const record = id === undefined ? null : await loadDocument(request, context, doc, id);
  if (record && !isEditable(doc, record[DOC_STATUS])) {
    // A document past its editable statuses is read on its detail page.
    throw redirect(`${documentBase(doc)}/detail/${id}`);
  }
  const lines = (record?.lines as Row[] | undefined) ?? [];
  const picked = await pickers(request, context, [doc.header, { ...doc.lines, fields: doc.lines.fields.filter((f) => !f.narrowedBy) }], [...(record ? [record] : []), ...lines]);
  const narrowed = await narrowedPickers(request, context, doc, record ?? {}, lines);
  const options = { ...picked.options, ...narrowed.options };
  const sources = { ...picked.sources, ...narrowed.sources };
  return {
    doc: documentView(doc, true),
    mode: (record ? "edit" : "create") as "create" | "edit",
    record: record ? ({ ...record, history: undefined } as Row) : null,
    options,
    sources,
    // Without scripts the table offers the lines plus spare rows; the grid draws the lines and adds rows itself.
    rows: lines.length + BLANK_LINE_ROWS,
  };
}

/**
 * Saves the editor: `增加行` answers the form as typed with more rows; a save goes through the browser's schema, then
 * the API (create, or update with the version read), whose messages come back at the fields and cells they name.
 */
export async function saveEditor(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined) {
  const mode = id === undefined ? "create" : "edit";
  const form = await request.formData();
  const rows = Math.min(MAX_FORM_ROWS, Math.max(BLANK_LINE_ROWS, Number(form.get("rowCount")) || 0));
  // The narrowed pickers' options for the header as posted: the form comes back with the chosen source's lines.
  const postedOptions = async () =>
    narrowedLineFields(doc).length ? (await narrowedPickers(request, context, doc, Object.fromEntries(form.entries()), [])).options : undefined;
  if (form.get("intent") === "addRows") {
    form.delete("intent");
    // Nothing is checked yet: the user is still typing.
    const typed = parseWithZod(form, { schema: z.unknown() });
    return data({ result: typed.reply(), rows: Math.min(MAX_FORM_ROWS, rows + ADDED_LINE_ROWS), options: await postedOptions() });
  }
  const submission = parseWithZod(form, { schema: documentFormSchema(doc, mode) });
  if (submission.status !== "success") return data({ result: submission.reply(), rows, options: await postedOptions() }, { status: 400 });
  const { lines, ...header } = submission.value as Row & { lines: Row[] };
  const result = await apiCall<Row>(request, context, "POST", documentPath(doc, mode === "create" ? "create" : "update"), {
    body: { ...header, lines },
  });
  if (result.status !== 200) {
    const fieldErrors = (result.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors;
    const placed = fieldErrors ? formFieldErrors(fieldErrors, filledRows(doc, submission.payload.lines)) : null;
    return data(
      { result: submission.reply(placed ? { fieldErrors: placed } : { formErrors: [result.message || "Error"] }), rows, options: await postedOptions() },
      { status: result.status === 409 ? 409 : result.status === 403 ? 403 : 400 },
    );
  }
  return redirect(`${documentBase(doc)}/detail/${result.data.id}`, { headers: { "Set-Cookie": flashCookie("保存成功") } });
}

/**
 * The detail page's data: the document, and the steps its status allows that the user holds the permission of (the
 * API refuses the others anyway; the page offers only what it would take). `edit` when the status is editable and
 * the user may update.
 */
export async function loadDetail(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined) {
  const [user, record] = await Promise.all([requireUserInfo(request, context), loadDocument(request, context, doc, id)]);
  const codes = collectPermissionCodes(user.menuTreeList);
  const can = (code: string) => user.roles.includes("admin") || codes.has(code);
  const status = record[DOC_STATUS];
  const transitions = transitionsFrom(doc, status)
    .filter((t) => can(transitionPermission(doc, t)))
    .map((t) => ({
      name: t.name,
      label: t.label,
      reasonRequired: Boolean(t.reasonRequired),
      confirm: t.confirm ?? null,
      to: t.to as string,
      // The step's own fields (登记付款's amount), asked in its confirmation.
      input: (t.input ?? []).map((f) => ({ name: f.name, label: f.label, type: f.type, required: Boolean(f.required) })),
    }));
  return {
    doc: documentView(doc, true),
    record,
    status: statusOf(doc, status) ?? { value: String(status), label: String(status), color: "gray" as const },
    transitions,
    canEdit: isEditable(doc, status) && can(permissionCode(doc.header, "update")),
    pages: documentPages(doc)
      .filter((p) => p.statuses.includes(String(status)) && can(p.permission))
      .map((p) => ({ label: p.label, to: documentPageHref(doc, p, record) })),
    tenantName: user.tenantName,
  };
}

/**
 * The print view's data (decision 082): the document as its `…/print` endpoint answers it (the view permission, the
 * tenant's own documents: another's is a 404), the title it is printed for, what its declaration prints, and the
 * paper the URL chose — an unknown one is A4, as the page offers both.
 */
export async function loadPrint(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined) {
  if (!id || !/^\d{1,16}$/.test(id)) throw data(null, { status: 404 });
  const asked = new URL(request.url).searchParams.get("paper");
  const paper: PrintPaper = PRINT_PAPERS.find((p) => p === asked) ?? "a4";
  const result = await apiCall<Row>(request, context, "GET", documentPath(doc, PRINT), { query: { id } });
  if (result.status !== 200) refuse(result);
  const { title, ...record } = result.data;
  return {
    doc: documentView(doc, true),
    print: printOf(doc),
    record: record as Row,
    title: String(title ?? ""),
    status: statusOf(doc, record[DOC_STATUS]) ?? { value: String(record[DOC_STATUS]), label: String(record[DOC_STATUS]), color: "gray" as const },
    paper,
    printedAt: Date.now(),
  };
}

/**
 * Takes a step from the detail page: `{ id, version, reason }` to the step's endpoint. A refusal (409 from a status
 * that moved meanwhile, 403, a reason missing) answers as the confirmation step shows it, in the API's words.
 */
export async function takeTransition(request: Request, context: AppLoadContext, doc: DocumentDef, id: string | undefined) {
  const form = await request.formData();
  const transition = findTransition(doc, String(form.get("transition") ?? ""));
  if (!transition || !id || !/^\d{1,16}$/.test(id)) return data({ error: "未知操作", reasonError: null, reason: "" }, { status: 400 });
  const reason = reasonOf(form);
  const version = Number(form.get(DOC_VERSION));
  // The step's own fields as typed (money in yuan, sent in fen); an empty one is left for the API to name.
  const typed = Object.fromEntries((transition.input ?? []).map((f) => [f.name, String(form.get(f.name) ?? "").trim()]));
  const inputs = Object.fromEntries(
    (transition.input ?? []).filter((f) => typed[f.name] !== "").map((f) => [f.name, f.type === "money" ? yuanToFen(typed[f.name]) : typed[f.name]]),
  );
  const result = await apiCall<Row>(request, context, "POST", documentPath(doc, transition.name), {
    body: { id: Number(id), ...(Number.isSafeInteger(version) && version > 0 ? { version } : {}), ...(reason ? { reason } : {}), ...inputs },
  });
  if (result.status !== 200) {
    if (result.status === 403) return data({ error: result.message || "没有权限", reasonError: null, reason, transition: transition.name }, { status: 403 });
    const fieldErrors = fieldErrorsOf(result) ?? {};
    const inputError = (transition.input ?? []).map((f) => fieldErrors[f.name]?.[0]).find(Boolean);
    if (inputError) return data({ error: inputError, reasonError: null, reason, transition: transition.name, typed }, { status: refusalStatus(result) });
    return refusalWith(refusalOf(result, reason), transition.name);
  }
  const number = String(result.data?.[DOC_NO] ?? "");
  return redirect(`${documentBase(doc)}/detail/${id}`, { headers: { "Set-Cookie": flashCookie(`${number} 已${transition.label}`) } });
}

/** The refusal names the step, so only that step's dialog shows it. */
function refusalWith(answer: ReturnType<typeof refusalOf>, transition: string) {
  return data({ ...answer.data, transition }, answer.init ?? undefined);
}

/** A refusal's line errors (`lines.3.countedQuantity`) by the line's id, so a page of one document shows each at its row. */
export function lineRefusals(errors: Record<string, string[] | undefined>, lines: ReadonlyArray<{ id: number }>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(errors)
      .map(([key, messages]) => [/^lines\.(\d+)\./.exec(key)?.[1], messages?.[0]] as const)
      .filter(([index]) => index !== undefined)
      .map(([index, message]) => [String(lines[Number(index)]?.id), message]),
  );
}
