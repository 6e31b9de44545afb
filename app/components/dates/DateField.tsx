import { TextInput, type TextInputProps } from "@mantine/core";
import { Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import type { CalendarField } from "./DateCalendar";
import { lazyPart } from "~/lib/lazy-part";

// Mantine's dates and dayjs with its zh-cn locale (about 20 KB gzip with their styles) load only on a page that
// shows a date field, after it is interactive: every other page stays as light as before (decision 065).
const DateCalendar = lazyPart(() => import("./DateCalendar"));

/**
 * A Chinese calendar over a date field (decision 065). The server renders the browser's own `type="date"` input,
 * which posts YYYY-MM-DD before the page's scripts arrive (decision 039). Once they have, Mantine's DateInput (zh-cn,
 * weeks from 周一, whatever the browser's language) is shown in its place, starting from what the input holds, and
 * writes the day picked or typed back into that input, now hidden: the form posts the same field as before.
 */
export function useDateCalendar(field: CalendarField): { ref: RefObject<HTMLInputElement | null>; hidden: boolean; calendar: ReactNode } {
  const ref = useRef<HTMLInputElement>(null);
  const [wanted, setWanted] = useState(false);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    DateCalendar.start();
    setWanted(true);
  }, []);
  const calendar = wanted ? (
    <Suspense fallback={null}>
      <DateCalendar input={ref} onShown={() => setShown(true)} {...field} />
    </Suspense>
  ) : null;
  return { ref, hidden: shown, calendar };
}

/** A form's date field: Mantine's TextInput of type date, with the calendar once scripts have loaded. */
export function DateField(props: TextInputProps & { name: string }) {
  const { ref, hidden, calendar } = useDateCalendar({ label: props.label, description: props.description, error: props.error, withAsterisk: props.withAsterisk, w: props.w as number | string | undefined });
  return (
    <>
      {calendar}
      {/* Hidden, it keeps the value and the name; its label, help and message are the calendar's to show. */}
      <TextInput {...props} {...(hidden ? { label: undefined, description: undefined, error: undefined } : {})} ref={ref} type="date" display={hidden ? "none" : undefined} />
    </>
  );
}
