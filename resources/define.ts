import type { UploadKind } from "./uploads";
/**
 * How a value of a type reads: the list page and the export each format dictionaries, money and times their way, and
 * find a declaration by its key (`module/entity`) for fields that name other entities (the operation log's).
 */
export interface ValueText {
  dict(code: string, value: unknown): string;
  money(fen: number): string;
  time(millis: number): string;
  resource(key: string): Pick<ResourceDef, "title" | "fields"> | undefined;
}

/**
 * One declaration per entity drives the API (schemas, filters, permission codes), the list screen and the
 * forms (ARCHITECTURE.md, "Resource definitions").
 */
export type FieldType =
  | "text"
  | "longText"
  | "number"
  | "money"
  /** Goods in their unit: a decimal of at most 3 places in the API and on screen, integer thousandths stored (decision 067). */
  | "quantity"
  | "enum"
  | "boolean"
  | "date"
  | "datetime"
  | "time"
  | "image"
  | "file"
  | "relation"
  | "treeParent";

export type FilterKind = "eq" | "like" | "range";

export interface FieldDef {
  /** API and form name (camelCase); the column is its snake_case unless `column` says otherwise. */
  name: string;
  column?: string;
  label: string;
  type: FieldType;
  required?: boolean;
  /** Dictionary code for enum fields (values compared as strings, spec §3). */
  dict?: string;
  /** Target resource key (`module/entity`) for relation and tree-parent fields. */
  relation?: string;
  /** Shown as a list column (default: true for short field types). */
  list?: boolean;
  filter?: FilterKind;
  sortable?: boolean;
  /** Not editable in forms (set by the server or a workflow). */
  readOnly?: boolean;
  /** Not shown in forms at all. */
  hidden?: boolean;
  /** Unique within the tenant (or globally for global resources). */
  unique?: boolean;
  max?: number;
  min?: number;
  pattern?: { regex: RegExp; message: string };
  defaultValue?: string | number | boolean;
  placeholder?: string;
  description?: string;
  /**
   * Write-only (a device key, a merchant secret): answers carry SECRET_MASK when it is set, lists and exports never
   * show it, and an edit that leaves it empty or masked keeps the stored value.
   */
  secret?: boolean;
  /** Relation fields: the referencing rows go with the row they name (a menu's items with the menu). */
  onDelete?: "cascade";
  /**
   * Relation fields: the row named must hold one of these values in a field of its own (a restaurant field names an
   * org of type restaurant). The server refuses any other; the form's picker offers only those when there is one.
   */
  relationWhere?: { field: string; values: readonly string[] };
  /**
   * A document line's relation whose choices depend on a header field (a return's source line on the source document
   * chosen in the header, decision 071): the header field's name. Its options are the document's `lineOptions`
   * endpoint's (`?field=<this field>&<header field>=<value>&keyword=`), answered by the module's
   * `DocumentRules.lineOptions[<this field>]`, labelled as a keeper recognises the row; nothing until the header has a value.
   */
  narrowedBy?: string;
  /**
   * A narrowed line relation's read-only column beside its picker, headed so: what the chosen row brings into the
   * line (each option's `shows`: a return's goods and batch), drawn as the row is chosen.
   */
  narrowedShows?: string;
  /**
   * How lists and exports read a stored value that is a code for the API's clients (the operation log's entity and
   * changes): given the row, and how dictionaries, money and times read where it is shown.
   */
  show?: (value: unknown, record: Record<string, unknown>, text: ValueText) => string;
  /** A number that names rather than counts (a version): shown without thousands separators, exported as text. */
  plain?: boolean;
  /** Image fields: the upload kinds it accepts (resources/uploads.ts), when more than pictures (a licence scan: also PDF). */
  uploads?: readonly UploadKind[];
}

/**
 * A number field that counts or measures (people, portions, grams), shown with thousands separators and exported as
 * a number. Ids (`…Id`, a reversal's `reversalOf`) and numbers declared `plain` name a row: shown as they are, and
 * exported as text, as a spreadsheet would print a 15-digit id as 3.75879E+14.
 */
export function isCount(field: FieldDef): boolean {
  return field.type === "number" && !field.plain && !/(Id|Of)$/.test(field.name);
}

export const SECRET_MASK = "******";

/** `import`: rows from an XLSX made from the declared form fields (a template to download, a dry run, then one transaction). */
export type ResourceAction = "create" | "update" | "delete" | "export" | "import";

export interface ResourceDef {
  module: string;
  /** API entity name, as in `/api/v1/{module}/{entity}/{action}`. */
  entity: string;
  /** Screen path segment, as in spec §2 (`/admin/sys/{screen}/index`). */
  screen: string;
  /** URL prefix of the module's screens (`/admin/sys`, `/zhct`, …). */
  screenBase: string;
  table: string;
  title: string;
  /** The menu entry's name when it differs from the title (e.g. 用户管理). */
  menuTitle?: string;
  scope: "tenant" | "global";
  /** Only a super admin may use it (tenant management). */
  superOnly?: boolean;
  /** Its rows shape what users' shells show (menus, roles, dictionaries): a write marks cached shells stale (decision 019). */
  shellData?: boolean;
  fields: FieldDef[];
  /** The field that names a row in pickers and messages. */
  labelField: string;
  /**
   * Fields a picker shows after the label, so rows of one name are told apart (two diners called 张伟: their 人员编号
   * and 部门); those searchable by `like` are searched as well as the label (a diner found by code).
   */
  labelDetail?: string[];
  defaultSort?: { field: string; dir: "asc" | "desc" };
  /** What the screens offer; the API offers the same. */
  actions: ResourceAction[];
  /** Workflow steps beyond the five verbs (action → button label); each gets a permission code and a button menu entry. */
  workflowActions?: Record<string, string>;
  /**
   * Row links to workflow screens (`setting/:id` under the resource's path; any `:field` takes the row's value, so a
   * drill-down may name a list and its filters), named by their workflow action. A link
   * to another entity's workflow screen names that `entity` (of the same module: its permission code and its
   * action's label) and an absolute `path`. `when` offers it only on rows whose field holds one of the values (the
   * states the step may start from, as its API allows them: a card's 解挂 only when 挂失).
   */
  rowLinks?: Array<{ action: string; path: string; entity?: string; label?: string; when?: { field: string; values: string[] } }>;
  /**
   * Index only (spec §2): the list is the resource's one screen. Its rows are created and edited in a form above
   * them (`?create=1`, `?edit=<id>`), with no create or edit pages.
   */
  indexOnly?: boolean;
  /** Buttons above the list to workflow screens that are not about one row (top-up, refund), under the resource's path. */
  headerLinks?: Array<{ action: string; path: string; label?: string }>;
  /**
   * A second screen over another resource's table that shows only some of its rows (收银订单: the orders whose source
   * is the cashier): every list, count and export of it holds this condition, whatever the query asks.
   */
  fixedFilter?: { field: string; value: string };
  /**
   * Rows a user may edit or delete by hand: only those whose field holds one of the values (收入 typed in, not those
   * the orders made). The list offers 编辑/删除 on those rows only; the server refuses the others (409) by its rules.
   */
  changeableWhen?: { field: string; values: string[] };
  /** Tree-shaped lists (org, menu): rows come back with their parent. */
  tree?: boolean;
  /** Lookups by several fields that a screen or an API makes (within the tenant), each an index. */
  indexes?: string[][];
  /** Keys of several fields unique within the tenant; the message names the conflict. */
  uniqueKeys?: Array<{ fields: string[]; message: string }>;
  /**
   * The tenant's rows are a dictionary (`code`) that other entities' enum fields name as their `dict`: each row in
   * use (status 1) is an item, `value` and `text` its fields; the tenant extends it by adding rows (decision 064).
   * Its items travel with the shell's dictionaries, and the server checks and names values by the tenant's rows.
   */
  dictionary?: { code: string; value: string; text: string };
  /**
   * Rows every tenant starts with, by field name: the seed writes them for the first tenant, a tenant's create for
   * the new one, and the migration that brought the table for the tenants before it.
   */
  tenantRows?: ReadonlyArray<Record<string, string | number>>;
  /**
   * A status field moved only by declared steps (decision 070): the one transition service moves it on the server,
   * and each step's screen is the generic step screen. `defineResource` makes the steps' buttons and row links.
   */
  workflow?: ResourceWorkflow;
}

/** A Mantine colour name: a status badge's colour on lists, step screens and detail pages. */
export type StatusColor = "gray" | "dark" | "blue" | "cyan" | "teal" | "green" | "lime" | "yellow" | "orange" | "red" | "pink" | "grape" | "violet" | "indigo";

/** One step of a workflow, a document's (decision 060) or a resource's (decision 070). */
export interface TransitionDef<V extends string = string> {
  /** The API action: `POST /api/v1/{module}/{entity}/{name}` with `{ id, ...input }`. */
  name: string;
  /** The button and the operation log's word (提交). */
  label: string;
  from: readonly V[];
  to: V;
  /** A check the server runs before the step (named: resources/ cannot hold server code); it refuses by throwing. */
  guard?: string;
  /** Work the server does in the step's write transaction (named, as the guard). */
  effect?: string;
  /** The step needs a `reason` (驳回, 作废): kept in the status history and the operation log. */
  reasonRequired?: boolean;
  /** Fields the step takes besides `id` and `reason`, checked as a form's fields are; the effect reads them. */
  input?: readonly FieldDef[];
  /** What the step dialog asks before it runs, when the step cannot be taken back. */
  confirm?: string;
}

/**
 * A resource's step (decision 070): a transition plus what its screen says. Texts are templates: `{field}` is the
 * row's value as the API answers it (`{userInfoIdLabel}`), `{status}` the current status's name, `{label}` the step's,
 * `{field:yuan}` fen as yuan; a part in `[…]` is left out when a value in it is empty or zero.
 */
export interface ResourceTransition extends TransitionDef {
  /** The step screen's title when it is more than the label (row link 取消, screen 取消预订). */
  title?: string;
  /** What the step does, under the row's facts. */
  note?: string;
  /** The flash after the step; its values are the API's answer (`{refunded:yuan}`). `{label}成功` by default. */
  done?: string;
  /** The confirming button's colour; red for a step that takes something away. */
  color?: "red" | "orange" | "blue";
  /** The screen sends an Idempotency-Key drawn for the page (a step that moves money, pressed twice, moves it once). */
  idempotent?: boolean;
  /**
   * The step's screen is the module's own (审批: one page deciding between two steps), not the generic step screen:
   * no route, and no row link, is made for it.
   */
  screen?: false;
  /**
   * The workflow action whose permission code the step needs, when it shares another's (驳回 under 审批); `null`
   * when its endpoint decides who may take it (the complainant's 撤销). Either way it adds no button of its own.
   */
  permission?: string | null;
}

export interface ResourceWorkflow {
  /** The status field (an `enum` with its dictionary: the statuses' names are the dictionary's). */
  field: string;
  /** Each status value's badge colour. */
  colors: Readonly<Record<string, StatusColor>>;
  /** The 409 of a step not allowed from the current status: `该卡当前为「{status}」，不能{action}`. */
  refusal: string;
  /** The 404 of an id not in the caller's tenant. */
  notFound: string;
  transitions: readonly ResourceTransition[];
}

/** What the shell needs to name a resource's screens (its tags and breadcrumbs), without the whole declaration. */
export interface ScreenNames {
  base: string;
  title: string;
  menuTitle?: string;
  steps?: Record<string, string>;
}

export const screenNames = (def: ResourceDef): ScreenNames => ({
  base: `${def.screenBase}/${def.screen}`,
  title: def.title,
  menuTitle: def.menuTitle,
  steps: def.workflowActions,
});

export const resourceKey = (def: Pick<ResourceDef, "module" | "entity">) => `${def.module}/${def.entity}`;
const columns = new WeakMap<FieldDef, string>();
/** A field's column: declared, or its name in snake_case. Remembered per field: every row of every list reads it. */
export function columnOf(field: FieldDef): string {
  let column = columns.get(field);
  if (column === undefined) columns.set(field, (column = field.column ?? field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return column;
}

export function permissionCode(def: Pick<ResourceDef, "module" | "entity">, action: ResourceAction | "view" | (string & {})): string {
  return `${def.module}:${def.entity}:${action}`;
}

export function apiPath(def: Pick<ResourceDef, "module" | "entity">, action: string) {
  return `/api/v1/${def.module}/${def.entity}/${action}`;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

const SHORT_TYPES = new Set<FieldType>(["text", "number", "money", "quantity", "enum", "boolean", "date", "datetime", "time", "relation", "treeParent"]);

export function listFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.secret && (f.list ?? SHORT_TYPES.has(f.type)));
}

/** The columns of an import template: what a form edits, except pictures and files, which a spreadsheet cannot carry. */
export function importFields(def: ResourceDef): FieldDef[] {
  return formFields(def).filter((f) => f.type !== "image" && f.type !== "file");
}

export function formFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.hidden && !f.readOnly);
}

export function filterFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => f.filter);
}

export function sortableFields(def: ResourceDef): string[] {
  return ["createdAt", "updatedAt", ...def.fields.filter((f) => f.sortable).map((f) => f.name)];
}

/** What a list page draws of a field: its column, its cell and its filter (see `listView`). */
const LIST_VIEW_KEYS = ["name", "label", "type", "dict", "relation", "relationWhere", "list", "filter", "sortable", "secret", "plain"] as const satisfies readonly (keyof FieldDef)[];

/**
 * The declaration as a list page's data carries it (issue 17: it travels in every list page): the fields that are a
 * column or a filter, with what the table and the filter bar read of them, not the form's rules (patterns, limits,
 * defaults) nor the fields only forms show. `listFields`, `filterFields` and `sortableFields` give the same answers
 * on it. A list that edits in place (`indexOnly`) draws its form above the rows, so it keeps the whole declaration.
 */
export function listView(def: ResourceDef): ResourceDef {
  if (def.indexOnly) return def;
  const listed = new Set(listFields(def));
  const fields = def.fields
    .filter((f) => listed.has(f) || f.filter)
    .map((f) => Object.fromEntries(LIST_VIEW_KEYS.filter((key) => f[key] !== undefined).map((key) => [key, f[key]])) as unknown as FieldDef);
  return { ...def, fields };
}

/** Keeps the declaration's literal types, so its table's row type can be derived from it (server/db/declared.ts). */
export function defineResource<const D extends ResourceDef>(def: D): D & Pick<ResourceDef, "rowLinks" | "workflowActions"> {
  if (!def.workflow) return def;
  // A step's button (permission code) and its row link, offered only from the statuses it starts from, come from
  // the workflow: the screen, the list and the API read the same from-statuses.
  const steps = def.workflow.transitions;
  const own = def.rowLinks ?? [];
  const stepLinks = steps
    .filter((t) => t.screen !== false && !own.some((link) => link.action === t.name))
    .map((t) => ({ action: t.name, path: `${t.name}/:id`, when: { field: def.workflow?.field as string, values: [...t.from] } }));
  return {
    ...def,
    // A button the declaration names itself keeps its name (审批 for the step 审批通过).
    workflowActions: { ...Object.fromEntries(steps.filter((t) => t.permission === undefined).map((t) => [t.name, t.label])), ...def.workflowActions },
    rowLinks: [...own, ...stepLinks],
  };
}
