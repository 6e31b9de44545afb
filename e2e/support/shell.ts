import { expect, test, type Locator, type Page } from "@playwright/test";
import { signInFresh } from "./auth";

/** Every journey of the shell runs at a desktop width and under the 992 px mobile breakpoint. */
export const WIDTHS = [
  { name: "1280", width: 1280, mobile: false },
  { name: "800", width: 800, mobile: true },
] as const;

export function atWidth(width: number) {
  test.use({ viewport: { width, height: 800 } });
}

const reactErrors = new WeakMap<Page, string[]>();

/** React's production errors (a hydration mismatch among them) fail the journey: the server's first paint must be right. */
export function expectNoReactErrors(page: Page) {
  expect(reactErrors.get(page) ?? []).toEqual([]);
}

export async function signInTo(page: Page, user: { userName: string; password: string }, path: string) {
  if (!reactErrors.has(page)) {
    const errors: string[] = [];
    reactErrors.set(page, errors);
    page.on("pageerror", (error) => {
      if (/Minified React error|Hydration/.test(error.message)) errors.push(`${page.url()}: ${error.message}`);
    });
  }
  await signInFresh(page, user.userName, user.password, path);
  await expect(page.getByTestId("app-shell")).toBeVisible();
  await hydrated(page);
}

/**
 * How often a wait on the page polls: expect.poll's own intervals grow to a second, and a walk that waits for each of
 * hundreds of pages to hydrate paid up to that second on each after it was ready.
 */
export const FAST_POLL = [50];

/** The shell writes its tags cookie once React has taken over the server's page. */
export async function hydrated(page: Page) {
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === "Tags-View"), { timeout: 20_000, intervals: FAST_POLL }).toBe(true);
  await untilHydrated(page);
  await page.waitForLoadState("networkidle");
}

/**
 * Waits until React has taken over the page now shown (the root marks `<html data-hydrated>`): scripts load after
 * the first paint and after the shell data, so a picker clicked earlier does not open.
 */
export async function untilHydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
}

/**
 * Waits until React has taken over the page now shown and every code-split part it asked for (a calendar, a picker,
 * a grid, a chart) is on it: the count `app/lib/lazy-part.tsx` keeps on `<html>`. The condition itself, where a wait
 * for a quiet network paid at least 500 ms on every page after it. A page of ours in an iframe (the report view)
 * is waited for the same way: `goto` saw its document load, not its scripts.
 */
export async function partsShown(page: Page) {
  for (const frame of page.frames()) {
    await frame.waitForFunction(
      () => {
        const html = document.documentElement;
        return html.dataset.hydrated === "true" && (html.dataset.partsLoading ?? "0") === "0";
      },
      undefined,
      { timeout: 30_000 },
    );
  }
}

/** Opens the main menu: the top bar on a desktop, the drawer on a phone. */
export async function openMenu(page: Page, mobile: boolean) {
  if (mobile) {
    await page.getByTestId("mobile-menu-button").click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    return drawer.getByTestId("side-menu");
  }
  return page.getByTestId("top-menu");
}

export async function cookie(page: Page, name: string) {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

/** Loads a page of the shell and waits until it is interactive (its tag is remembered). */
export async function gotoReady(page: Page, path: string) {
  await page.goto(path);
  await expect.poll(async () => decodeURIComponent((await cookie(page, "Tags-View")) ?? ""), { timeout: 20_000, intervals: FAST_POLL }).toContain(path);
  await page.waitForLoadState("networkidle");
}

/**
 * Picks an option of a relation picker (a searchable Mantine Select) by its label, once the page has hydrated;
 * `within` names the form when the list's filter bar has a picker of the same name.
 */
export async function pick(page: Page, label: string, option: string, within: Page | Locator = page) {
  await untilHydrated(page);
  // Typed, as a user would among many rows: the picker searches the server (its first page may not hold the row).
  const box = within.getByRole("textbox", { name: label });
  await box.click();
  await box.fill(option);
  // A picker may name a row with details after its label (a diner: 张伟（P-0012 · 财务部）, issue 38); `option` is
  // the whole name or the label before them.
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await page.getByRole("listbox", { name: label }).getByRole("option", { name: new RegExp(`^${escaped}(（[^（）]*）)?$`) }).click();
}

/** A form's date field (the browser's own, type=date) by its label; `fill` takes YYYY-MM-DD. */
/**
 * A date field by its label: the browser's own input until the page's scripts put the Chinese calendar over it
 * (decision 065), then the calendar's text input; either takes YYYY-MM-DD typed.
 */
export const dateField = (page: Page, label: string) => page.getByLabel(label).and(page.locator("input")).filter({ visible: true });
