import "@mantine/dates/styles.css";
import "dayjs/locale/zh-cn";
import { DateInput, DatesProvider } from "@mantine/dates";
import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat";
import type { MantineSize } from "@mantine/core";
import { useLayoutEffect, useState, type ReactNode, type RefObject } from "react";

dayjs.extend(customParseFormat);

/** What the server's field and the form post: a day, never an instant (decision 039). */
const FORMAT = "YYYY-MM-DD";

/** A day as typed or held, strictly YYYY-MM-DD: a half-typed one is not a day yet. */
function parse(text: string | undefined | null): Date | null {
  if (!text) return null;
  const day = dayjs(text.trim(), FORMAT, true);
  return day.isValid() ? day.toDate() : null;
}

export interface CalendarField {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  withAsterisk?: boolean;
  w?: number | string;
  size?: MantineSize;
}

/**
 * The calendar once its code has loaded (decision 065): shown from the first layout, so the page never paints both
 * fields; the day it holds is the hidden input's, written in the browser's own day (a date has no time zone to move).
 */
export default function DateCalendar({ input, onShown, size, ...field }: CalendarField & { input: RefObject<HTMLInputElement | null>; onShown: () => void }) {
  const [value, setValue] = useState<Date | null>(() => parse(input.current?.value));
  useLayoutEffect(onShown, [onShown]);
  const change = (date: Date | null) => {
    setValue(date);
    const target = input.current;
    if (!target) return;
    target.value = date ? dayjs(date).format(FORMAT) : "";
    // The form's validation listens for these, as it does on the browser's own field.
    target.dispatchEvent(new Event("input", { bubbles: true }));
    target.dispatchEvent(new Event("change", { bubbles: true }));
  };
  return (
    <DatesProvider settings={{ locale: "zh-cn", firstDayOfWeek: 1, weekendDays: [0, 6] }}>
      <DateInput
        {...field}
        size={size}
        value={value}
        onChange={change}
        valueFormat={FORMAT}
        dateParser={parse}
        clearable
        clearButtonProps={{ "aria-label": "清除日期" }}
        placeholder="年-月-日"
        monthLabelFormat="YYYY年M月"
        yearLabelFormat="YYYY年"
        monthsListFormat="MMMM"
        weekdayFormat="ddd"
        getDayAriaLabel={(day) => dayjs(day).format("YYYY年M月D日")}
        nextLabel="下一页"
        previousLabel="上一页"
      />
    </DatesProvider>
  );
}
