import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatTime } from "../../app/lib/format";
import { chinaDayStart, chinaWallClock, chinaWallClockToMillis } from "../../resources/chinaTime";
import { exceptionInfo } from "../../resources/sys/exceptionInfo";
import { formSchema, recordToForm } from "../../resources/forms";

// 2026-11-24 01:30:05 UTC is 09:30:05 in Beijing.
const AT = Date.UTC(2026, 10, 24, 1, 30, 5);

describe("times are China time whatever the process's zone", () => {
  test("an instant prints as Beijing's wall clock (this suite runs in UTC)", () => {
    expect(formatTime(AT)).toBe("2026-11-24 09:30:05");
    expect(formatTime(AT, "YYYY-MM-DD HH:mm")).toBe("2026-11-24 09:30");
    // 23:30 UTC is already the next day in Beijing.
    expect(formatTime(Date.UTC(2026, 10, 30, 23, 30), "YYYY-MM-DD")).toBe("2026-12-01");
    expect(chinaWallClock(AT)).toBe("2026-11-24T09:30:05");
  });

  test("a typed wall clock is read as China time, with or without seconds or a T; one that does not exist is refused", () => {
    expect(chinaWallClockToMillis("2026-11-24 09:30:05")).toBe(AT);
    expect(chinaWallClockToMillis("2026-11-24T09:30:05")).toBe(AT);
    expect(chinaWallClockToMillis("2026-11-24T09:30")).toBe(AT - 5000);
    for (const bad of ["2026-02-30 10:00", "2026-11-24 24:00", "2026-11-24", "09:30", "明天 9 点", "2026-11-24T09:30:05Z"]) expect(chinaWallClockToMillis(bad), bad).toBeNull();
    expect(chinaDayStart("2026-11-24")).toBe(Date.UTC(2026, 10, 23, 16));
  });

  test("any instant to the second reads back from its wall clock", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (seconds) => chinaWallClockToMillis(chinaWallClock(seconds * 1000)) === seconds * 1000));
  });

  test("a form's datetime field shows the China wall clock and posts it back as the same instant", () => {
    const values = recordToForm(exceptionInfo, { occurredAt: AT });
    expect(values.occurredAt).toBe("2026-11-24T09:30:05");
    const parsed = formSchema(exceptionInfo, "create").safeParse({ ...recordToForm(exceptionInfo, null), occurredAt: values.occurredAt, deviceId: "1", message: "断电" });
    expect(parsed.success ? (parsed.data as { occurredAt: number }).occurredAt : parsed.error.issues).toBe(AT);
  });
});
