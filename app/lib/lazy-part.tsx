import { lazy, useEffect, type ComponentProps, type ComponentType, type LazyExoticComponent } from "react";

let loading = 0;

function count(delta: number) {
  // The server renders a part in its page (a report's chart) and has no page to mark.
  if (typeof document === "undefined") return;
  loading += delta;
  document.documentElement.dataset.partsLoading = String(loading);
}

/**
 * React's `lazy` for a code-split part of a page (a calendar, a picker, a grid, a chart, a dialog), counted on
 * `<html data-parts-loading>` from the moment its code is asked for until it is first on the page. Browser tests wait
 * for the page's hydration and then for 0, where they waited for a quiet network (at least 500 ms on every page).
 * A part that replaces plain HTML once the page is interactive calls `start()` in the effect that enables it: the
 * effect runs before the root marks the page hydrated, the render that would ask for the code only after.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed as React's own `lazy`: any component, its props as they are
export function lazyPart<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> & { start: () => void } {
  let asked: Promise<{ default: T }> | undefined;
  let shown = false;
  const start = () =>
    (asked ??= (count(1),
    load().then(
      ({ default: Part }) => {
        function Shown(props: ComponentProps<T>) {
          // Runs after the part's own effects and in the same task as the renders its layout effects cause (the
          // calendar hides the plain input): a test reading 0 sees the page as it settles.
          useEffect(() => {
            if (shown) return;
            shown = true;
            count(-1);
          }, []);
          return <Part {...props} />;
        }
        return { default: Shown as unknown as T };
      },
      (error: unknown) => {
        count(-1);
        throw error;
      },
    )));
  return Object.assign(lazy(start), { start: () => void start() });
}
