import { chinaCalendar } from "../../resources/chinaTime";
import { dictLabel, type DictOption } from "../../resources/dicts";
import type { ValueText } from "../../resources/define";

/** Spec §9: a 10-digit timestamp is seconds. */
export function toMillis(time: number | string): number {
  const n = Number(time);
  return String(Math.trunc(Math.abs(n))).length === 10 ? n * 1000 : n;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * China time by a pattern of YYYY, MM, DD, HH, mm and ss. Not the process's zone: a server in UTC and a browser in
 * Beijing would otherwise print different times for one instant, and the page would not hydrate as rendered. Written
 * out rather than with dayjs, which would be the only reason every list page loads it.
 */
export function formatTime(time: number | string | null | undefined, pattern = "YYYY-MM-DD HH:mm:ss"): string {
  if (time === null || time === undefined || time === "") return "";
  const date = chinaCalendar(toMillis(time));
  if (Number.isNaN(date.getTime())) return "Invalid Date";
  const parts: Record<string, string> = {
    YYYY: pad(date.getUTCFullYear(), 4),
    MM: pad(date.getUTCMonth() + 1),
    DD: pad(date.getUTCDate()),
    HH: pad(date.getUTCHours()),
    mm: pad(date.getUTCMinutes()),
    ss: pad(date.getUTCSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]);
}

// `toLocaleString` with options builds a formatter for every call (a 20-row list page's pager and cells spent 1 % of
// its server time there); these are built once.
const yuan = new Intl.NumberFormat("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const thousandths = new Intl.NumberFormat("zh-CN", { maximumFractionDigits: 3 });
const hundredths = new Intl.NumberFormat("zh-CN", { maximumFractionDigits: 2 });

/** Money is integer fen; shown as yuan with two decimals. */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined) return "";
  return yuan.format(fen / 100);
}

/** A quantity of goods (decision 067), as the API answers it (a decimal of at most 3 places), with thousands separators. */
export function formatQuantity(quantity: number | null | undefined): string {
  if (quantity === null || quantity === undefined) return "";
  return thousandths.format(quantity);
}

/** A count (orders, people, rows) with thousands separators, as money is shown. */
export function formatCount(count: number | null | undefined): string {
  if (count === null || count === undefined) return "";
  return hundredths.format(count);
}

/**
 * How the operation log's codes read on a page (`FieldDef.show`): dictionaries by label, money in yuan, China time,
 * declarations found by `resource` (the caller's: the list's table has the declarations, the shell does not).
 */
export function valueText(dicts: Record<string, DictOption[]>, resource: ValueText["resource"]): ValueText {
  return { dict: (code, value) => dictLabel(dicts, code, value), money: formatFen, time: formatTime, resource };
}
