import { chinaCalendar, chinaDay, chinaDayStart, chinaMonth, chinaMonthRange } from "../../../resources/chinaTime";

/**
 * Months of the canteen's calendar. Canteens run on China time (resources/chinaTime.ts, decision 063): a line at 23:30
 * on the last day of May in Beijing belongs to May whatever the server's zone (decision 022).
 */

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** `2026-05` for a moment. */
export const monthOf = chinaMonth;

/** The day of the month (1–31) of a moment, China time. */
export function dayOfMonth(at: number): number {
  return chinaCalendar(at).getUTCDate();
}

/** The first moment of a month and the first moment of the next one. */
export const monthRange = chinaMonthRange;

export function previousMonth(month: string): string {
  return monthOf(monthRange(month).start - 1);
}

export function nextMonth(month: string): string {
  return monthOf(monthRange(month).end);
}

/** The day (`2026-05-31`) of a moment, China time. */
export const dayOf = chinaDay;

/** The first moment of a day (`2026-05-31`), China time. */
export const dayStart = chinaDayStart;
