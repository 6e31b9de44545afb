/** Canteens run on China time (UTC+8, no daylight saving), whatever the server's or the browser's zone. */
export const CHINA_OFFSET_MS = 8 * 3600_000;

/** An instant's China wall clock, `YYYY-MM-DDTHH:mm:ss` (as a datetime-local input holds it). */
export function chinaWallClock(millis: number): string {
  return new Date(millis + CHINA_OFFSET_MS).toISOString().slice(0, 19);
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
