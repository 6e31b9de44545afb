import type { DictCode } from "../dicts";
import type { ReportScreen } from "../modules";

/** The shape of a report declaration and the filters several reports share (decision 030). */

/**
 * - `dayRange`: the URL parameters `from` and `to` (YYYY-MM-DD, China days, inclusive; default the last 30 days).
 * - `enum`: a dictionary value.
 * - `org`: an organisation of the tenant of one type (a select of them).
 * - `diner`: a diner by 人员编号 (typed; a bookmark names the diner the same way on any machine).
 * - `monthRange`: the URL parameters `fromMonth` and `toMonth` (YYYY-MM, China months, inclusive; default this month).
 * - `keyword`: text a report reads as typed (a batch number), at most 40 characters.
 * - `staffType`: a diner's 人员类别 (free text on the diner, no dictionary): a select of the values the tenant's diners have.
 */
type OrgKind = "restaurant" | "department" | "stall";

/** The org types an `org` filter offers and accepts. */
export const orgTypesOf = (f: { orgType: OrgKind | readonly OrgKind[] }): readonly OrgKind[] => (typeof f.orgType === "string" ? [f.orgType] : f.orgType);

export type ReportFilter =
  | { name: "from"; kind: "dayRange"; label: string }
  | { name: "fromMonth"; kind: "monthRange"; label: string }
  | { name: string; kind: "staffType"; label: string }
  | { name: string; kind: "enum"; label: string; dict: DictCode }
  | { name: string; kind: "org"; label: string; orgType: OrgKind | readonly OrgKind[] }
  | { name: string; kind: "diner"; label: string; required?: boolean }
  | RefFilter
  | CodeFilter
  | { name: string; kind: "keyword"; label: string; placeholder?: string };

/**
 * The warehouse's master rows a logistics report filters by (decision 076): `ref` is a select of the tenant's rows of
 * the table; `code` is a row typed by its code (物资编码: a tenant may keep thousands of goods, too many to offer).
 */
export type RefTable = "warehouse" | "supplier" | "goods_type" | "out_use_type" | "goods";
export interface RefFilter {
  name: string;
  kind: "ref";
  label: string;
  table: RefTable;
  /** The column a choice is shown by. */
  labelColumn: string;
}
export interface CodeFilter {
  /** The URL parameter (the code as typed). */
  name: string;
  kind: "code";
  label: string;
  table: RefTable;
  codeColumn: string;
  /** The filter the query reads: the row's id. */
  idName: string;
}

/** `quantity`: thousandths of a unit (the quantity field of decision 067), shown with up to 3 decimals. */
export type ColumnKind = "text" | "count" | "money" | "enum" | "quantity";

export interface ReportColumn {
  key: string;
  label: string;
  kind: ColumnKind;
  dict?: DictCode;
  /** Summed into the totals row (counts and money). */
  total?: boolean;
  /** A drill-down: the report it opens, with this row's values as its filters (the current period kept). */
  link?: { report: string; params: Record<string, string> };
}

export interface ReportChart {
  kind: "bar" | "pie" | "line";
  /** The column whose values label the points (summed over rows with the same value). */
  x: string;
  /** Money or count columns drawn; a pie draws the first. */
  series: string[];
  title: string;
  /** Series that are prices, not sums: a point is Σ amount ÷ Σ quantity of its rows (yuan per unit). */
  prices?: Record<string, { amount: string; quantity: string }>;
  /** Drawn only once this filter is given (a price over different goods means nothing). */
  needs?: string;
}

export interface ReportDef extends ReportScreen {
  /** 报表's reports by default; a module's own report lives under its group (收支管理: `/sc/sccostexpense/profitCount`). */
  module: string;
  screenBase: string;
  /** What the figures are, printed under the title. */
  description: string;
  filters: ReportFilter[];
  columns: ReportColumn[];
  chart?: ReportChart;
  buttons: { export: string };
}

export function defineReport(def: Omit<ReportDef, "module" | "screenBase" | "buttons"> & Partial<Pick<ReportDef, "module" | "screenBase">>): ReportDef {
  return { module: "report", screenBase: "/report", ...def, buttons: { export: "导出" } };
}

/** `GET /api/v1/<module>/<entity>`: a report's answer (its XLSX at `…/export`). */
export const reportApiPath = (def: Pick<ReportDef, "module" | "entity">) => `/api/v1/${def.module}/${def.entity}`;

/** A report's page in the shell (`/report/<screen>/index`) and its print view (`…/print`). */
export const reportPath = (def: Pick<ReportDef, "screenBase" | "screen">) => `${def.screenBase}/${def.screen}/index`;
export const reportPrintPath = (def: Pick<ReportDef, "screenBase" | "screen">) => `${def.screenBase}/${def.screen}/print`;

/** Whether a module's report screen is a declared report (银行对账 is a screen of its own, decision 034). */
export const isDeclaredReport = (screen: ReportScreen): screen is ReportDef => "columns" in screen && "filters" in screen;

export const period = { name: "from", kind: "dayRange", label: "日期" } as const;
export const restaurant = { name: "restaurantId", kind: "org", label: "餐厅", orgType: "restaurant" } as const;
export const stall = { name: "stallId", kind: "org", label: "档口", orgType: "stall" } as const;
export const department = { name: "deptId", kind: "org", label: "部门", orgType: "department" } as const;
export const mealType = { name: "mealType", kind: "enum", label: "餐别", dict: "foodMenuType" } as const;
export const payFlag = { name: "payFlag", kind: "enum", label: "支付方式", dict: "userAccountFlag" } as const;
export const topUpChannel = { name: "channel", kind: "enum", label: "充值渠道", dict: "topUpChannel" } as const;
export const accountType = { name: "accountType", kind: "enum", label: "账户类型", dict: "accountType" } as const;
export const diner = { name: "userCode", kind: "diner", label: "人员编号" } as const;
export const months = { name: "fromMonth", kind: "monthRange", label: "月份" } as const;
export const staffType = { name: "staffType", kind: "staffType", label: "人员类别" } as const;
export const ticketType = { name: "ticketType", kind: "enum", label: "餐券类型", dict: "ticketType" } as const;

/** The China days of a month range (a drill-down from a month report into a day report keeps the same period). */
export function monthDays(fromMonth: string, toMonth: string): { from: string; to: string } {
  const [y, m] = toMonth.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${fromMonth}-01`, to: `${toMonth}-${String(last).padStart(2, "0")}` };
}

/** The meal types a day's summary splits into (dictionary foodMenuType less 全部), and orders sold by amount. */
export const MEAL_TYPES = [
  ["breakfast", "早餐"],
  ["lunch", "午餐"],
  ["dinner", "晚餐"],
  ["midnight", "夜宵"],
  ["none", "其他"],
] as const;

