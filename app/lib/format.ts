import dayjs from "dayjs";

/** Spec §9: a 10-digit timestamp is seconds. */
export function toMillis(time: number | string): number {
  const n = Number(time);
  return String(Math.trunc(Math.abs(n))).length === 10 ? n * 1000 : n;
}

export function formatTime(time: number | string | null | undefined, pattern = "YYYY-MM-DD HH:mm:ss"): string {
  if (time === null || time === undefined || time === "") return "";
  return dayjs(toMillis(time)).format(pattern);
}

/** Money is integer fen; shown as yuan with two decimals. */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined) return "";
  return (fen / 100).toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
