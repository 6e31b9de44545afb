/**
 * Months of the canteen's calendar. Canteens run on China time (UTC+8, no daylight saving): a line at 23:30 on the
 * last day of May in Beijing belongs to May whatever the server's zone (decision 022).
 */
const OFFSET_MS = 8 * 3600_000;

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** `2026-05` for a moment. */
export function monthOf(at: number): string {
  return new Date(at + OFFSET_MS).toISOString().slice(0, 7);
}

/** The day of the month (1–31) of a moment, China time. */
export function dayOfMonth(at: number): number {
  return new Date(at + OFFSET_MS).getUTCDate();
}

/** The first moment of a month and the first moment of the next one. */
export function monthRange(month: string): { start: number; end: number } {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  return { start: Date.UTC(year, mon - 1, 1) - OFFSET_MS, end: Date.UTC(year, mon, 1) - OFFSET_MS };
}

export function previousMonth(month: string): string {
  return monthOf(monthRange(month).start - 1);
}

export function nextMonth(month: string): string {
  return monthOf(monthRange(month).end);
}

/** The day (`2026-05-31`) of a moment, China time. */
export function dayOf(at: number): string {
  return new Date(at + OFFSET_MS).toISOString().slice(0, 10);
}

/** The first moment of a day (`2026-05-31`), China time. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - OFFSET_MS;
}
