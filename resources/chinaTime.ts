/**
 * China time, in one module (decision 063): canteens run on UTC+8 whatever the server's or the browser's zone, and
 * China has kept no daylight saving since 1991, so every China wall clock is the instant plus a fixed eight hours read
 * as UTC. Day boundaries fall at China midnight. Nothing else in the code adds the offset itself.
 */
export const CHINA_OFFSET_MS = 8 * 3600_000;

export const DAY_MS = 86_400_000;

/** A Date whose UTC fields (`getUTCHours`, `getUTCDay`…) are the instant's China wall clock. */
export function chinaCalendar(millis: number): Date {
  return new Date(millis + CHINA_OFFSET_MS);
}

/** An instant's China wall clock, `YYYY-MM-DDTHH:mm:ss` (as a datetime-local input holds it). */
export function chinaWallClock(millis: number): string {
  return chinaCalendar(millis).toISOString().slice(0, 19);
}

/** The China day (`2026-05-31`) of an instant. */
export function chinaDay(millis: number): string {
  return chinaWallClock(millis).slice(0, 10);
}

/** The China month (`2026-05`) of an instant. */
export function chinaMonth(millis: number): string {
  return chinaWallClock(millis).slice(0, 7);
}

/** The China clock (`HH:mm`) of an instant: meal times are the canteen's wall clock. */
export function chinaClock(millis: number): string {
  return chinaWallClock(millis).slice(11, 16);
}

/** An instant to the minute, China time: `2026-05-31 12:05`. */
export function chinaMinute(millis: number): string {
  return chinaWallClock(millis).slice(0, 16).replace("T", " ");
}

/** The China day of an instant as a day number: whole days since 1970-01-01, China midnight to China midnight. */
export function chinaDayNo(millis: number): number {
  return Math.floor((millis + CHINA_OFFSET_MS) / DAY_MS);
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** `YYYY-MM-DD HH:mm[:ss]` (or with a `T`, as a datetime-local input sends it) read as China time; null if not that. */
export function chinaWallClockToMillis(text: string): number | null {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const millis = Date.UTC(y, mo - 1, d, h, mi, s) - CHINA_OFFSET_MS;
  // Date.UTC rolls 2026-02-30 over to March: a wall clock that does not exist is not read as another one.
  return chinaWallClock(millis) === `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}` ? millis : null;
}

/** The first instant of a China day `YYYY-MM-DD`. */
export function chinaDayStart(day: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) - CHINA_OFFSET_MS;
}

/** The first instant of a China month `YYYY-MM`, and the first instant of the next one. */
export function chinaMonthRange(month: string): { start: number; end: number } {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  return { start: Date.UTC(year, mon - 1, 1) - CHINA_OFFSET_MS, end: Date.UTC(year, mon, 1) - CHINA_OFFSET_MS };
}

/** The same instant `months` calendar months later, China time; the 31st becomes the month's last day. */
export function chinaAddMonths(millis: number, months: number): number {
  const d = chinaCalendar(millis);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime() - CHINA_OFFSET_MS;
}
