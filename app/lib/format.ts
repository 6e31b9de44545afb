/** Spec §9: a 10-digit timestamp is seconds. */
export function toMillis(time: number | string): number {
  const n = Number(time);
  return String(Math.trunc(Math.abs(n))).length === 10 ? n * 1000 : n;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Local time by a pattern of YYYY, MM, DD, HH, mm and ss. Written out rather than with dayjs, which would be
 * the only reason every list page loads it.
 */
export function formatTime(time: number | string | null | undefined, pattern = "YYYY-MM-DD HH:mm:ss"): string {
  if (time === null || time === undefined || time === "") return "";
  const date = new Date(toMillis(time));
  if (Number.isNaN(date.getTime())) return "Invalid Date";
  const parts: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]);
}

/** Money is integer fen; shown as yuan with two decimals. */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined) return "";
  return (fen / 100).toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
