import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import type { MenuNode } from "../resources/auth";
import { flatten, visibleMenus } from "../app/lib/menus";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";

/** WCAG 2.1 level A and AA, as axe-core tags them. */
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Each violating element as one line: the rule, its impact, the page and the element. */
async function violations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${label} — ${v.id} (${v.impact}): ${n.target.join(" ")}\n    ${n.html.slice(0, 200)}\n    ${n.failureSummary?.split("\n").slice(0, 3).join(" ") ?? ""}`),
  );
}

/** Loads a page of the shell and waits until React has taken it over and the lazy parts (the table) have loaded. */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await expect
    .poll(() => page.evaluate(() => Object.keys(document.querySelector("[data-testid=app-shell]") ?? {}).some((key) => key.startsWith("__reactFiber"))), { timeout: 20_000 })
    .toBe(true);
  await page.waitForLoadState("networkidle");
}

/** Where a menu entry leads, as the navigation opens it (iframe entries through the report page). */
function entryHref(menu: MenuNode) {
  const path = menu.menuPath as string;
  return menu.menuTarget === "iframe" ? `/iframe/reportview?url=${encodeURIComponent(path)}` : path;
}

test("the sign-in page has no WCAG 2.1 A/AA violation", async ({ page }) => {
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  expect((await violations(page, "/login")).join("\n")).toBe("");
});

test("every screen of the admin's menu, with each list's create and edit pages, has no WCAG 2.1 A/AA violation", async ({ page }) => {
  test.setTimeout(15 * 60_000);
  const { a11y } = e2eUsers;
  await signInFresh(page, a11y.userName, a11y.password, "/admin/dashboard");
  const info = await (await page.request.get("/api/v1/auth/user/info")).json();
  // The pages the navigation shows (read from the server's menu tree, so screens added later are walked too),
  // and the two the user menu opens.
  const entries = flatten(visibleMenus(info.data.menuTreeList as MenuNode[]))
    .filter((m) => m.menuType === "page" && m.menuPath?.startsWith("/"))
    .map(entryHref);
  const pages = [...new Set([...entries, "/profile/index", "/admin/auth/user/modifyPasswd"])];
  expect(pages.length).toBeGreaterThan(20);

  const found: string[] = [];
  const visited: string[] = [];
  for (const path of pages) {
    await open(page, path);
    visited.push(path);
    found.push(...(await violations(page, path)));
    // A list: its create page and the edit page of its first row, as their links on the page say.
    const main = page.locator("main");
    const create = main.getByRole("link", { name: "新增", exact: true }).first();
    const edit = main.locator("tbody tr").first().getByRole("link", { name: "编辑", exact: true });
    const targets = [
      (await create.count()) ? await create.getAttribute("href") : null,
      (await edit.count()) ? await edit.getAttribute("href") : null,
    ];
    for (const target of targets) {
      if (!target || visited.includes(target)) continue;
      await open(page, target);
      visited.push(target);
      found.push(...(await violations(page, target)));
    }
  }
  console.log(`axe: ${visited.length} pages checked`);
  expect(found, `${found.length} violating elements on ${visited.length} pages:\n${found.join("\n")}`).toEqual([]);
});
