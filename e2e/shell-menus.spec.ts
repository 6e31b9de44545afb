import { expect, test, type Locator, type Page } from "@playwright/test";
import type { MenuNode } from "../resources/auth";
import { flatten, subsystemTree, visibleMenus } from "../app/lib/menus";
import { subsystems as seededSubsystems } from "../server/modules/seed";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, gotoReady, hydrated, partsShown, signInTo } from "./support/shell";

/** Issue 38: navigation that holds every screen, at the smallest desktop a canteen office has. */
test.use({ viewport: { width: 1366, height: 768 } });
// A walk per layout and subsystem, so the two workers share them and a failure names its menu.
test.describe.configure({ mode: "parallel", timeout: 300_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

interface Subsystem {
  id: number;
  sysCode: string;
  sysName: string;
}

function entryHref(menu: MenuNode) {
  const path = menu.menuPath as string;
  return menu.menuTarget === "iframe" ? `/iframe/reportview?url=${encodeURIComponent(path)}` : path;
}

const urlOf = (href: string) => new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/** The user's menus as the API gives them: per subsystem, its first-level entries and the pages under each. */
async function menusOf(page: Page, user: { userName: string; password: string }) {
  const api = await apiAs(page.request, user.userName, user.password);
  const tree = (await api.get("/api/v1/auth/user/info")).data.menuTreeList as MenuNode[];
  const subsystems = (await api.get("/api/v1/auth/user/shellInfo")).data.subsystems as Subsystem[];
  return subsystems
    .map((s) => ({ subsystem: s, top: visibleMenus(subsystemTree(tree, s.id)) }))
    .filter((s) => s.top.length > 0);
}

const pagesOf = (nodes: MenuNode[]) => flatten(nodes).filter((n) => n.menuType === "page");

/**
 * Each of the named entries, scrolled into view in its own scrolling box as a user's wheel would, lies inside the
 * window, and nothing but that box scrolled (the page stays at the top). One evaluation measures a whole menu: a round
 * trip per entry cost more than the rest of the walk's checks.
 */
async function expectReachable(entries: Locator, names: string[]) {
  // Until a folder has finished opening (its height animates), its last entries can lie below the box they scroll
  // in: measured again until the menu has settled.
  await expect(async () => {
    const measured = await entries.evaluateAll((elements) =>
      elements.map((element) => {
        element.scrollIntoView({ block: "nearest" });
        const box = element.getBoundingClientRect();
        return { name: (element as HTMLElement).innerText.trim(), top: box.top, bottom: box.bottom, pageScrolled: window.scrollY, windowHeight: window.innerHeight };
      }),
    );
    for (const name of names) {
      const entry = measured.find((m) => m.name === name);
      expect(entry, `${name} is in the menu`).toBeDefined();
      expect(entry!.windowHeight).toBe(768);
      expect(entry!.top, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
      // Under a pixel of rounding at the side bar's bottom edge: its rows' heights are fractional (768.56 and 768.78
      // were measured in one CI run, depending on which sections stood open above), never a row's worth.
      expect(entry!.bottom, `${name} ends inside the window`).toBeLessThan(768 + 1);
      expect(entry!.pageScrolled, `the page stays at the top when ${name} is reached`).toBe(0);
    }
  }).toPass({ timeout: 5_000 });
}

/**
 * Clicks an entry and waits for the address it opens (React Router changes it once the screen's data has come):
 * the page's own navigation event, not a poll that looked again half a second later.
 */
async function clickAndLand(page: Page, entry: MenuNode, click: () => Promise<void>) {
  if (entry.menuTarget === "_blank") {
    const popup = page.waitForEvent("popup");
    await click();
    await (await popup).close();
    return;
  }
  await click();
  await page.waitForURL(urlOf(entryHref(entry)), { waitUntil: "commit", timeout: 20_000 });
}

/**
 * Signs the user in and opens the subsystem's first page once its navigation answers the mouse; returns the
 * subsystem's first-level entries as the API gives them to the user.
 */
async function openSubsystem(page: Page, user: { userName: string; password: string }, seeded: (typeof seededSubsystems)[number]) {
  await signInTo(page, user, "/admin/dashboard");
  const menu = (await menusOf(page, user)).find((s) => s.subsystem.sysCode === seeded.sys_code);
  expect(menu, `${seeded.sys_name} has entries for the admin`).toBeDefined();
  await page.goto(seeded.sys_code === "admin" ? "/admin/dashboard" : `/subsystem/${seeded.sys_code}`);
  await partsShown(page);
  return menu!.top;
}

/** The walks below are declared per seeded subsystem (before any server runs); this proves the server shows no other. */
test("the walks below cover every subsystem of the admin's menus, in each layout", async ({ page }) => {
  for (const user of [e2eUsers.navTop, e2eUsers.navSide]) {
    const shown = await menusOf(page, user);
    expect(shown.map((s) => s.subsystem.sysCode).sort()).toEqual(seededSubsystems.map((s) => s.sys_code).sort());
    expect(shown.flatMap((s) => pagesOf(s.top)).length).toBeGreaterThan(100);
  }
});

for (const seeded of seededSubsystems) {
  test(`top navigation, ${seeded.sys_name}: every menu entry of the admin is reached and opened by mouse, in a dropdown no taller than the window`, async ({ page }) => {
    const top = await openSubsystem(page, e2eUsers.navTop, seeded);
    const bar = page.getByTestId("top-menu");
    const dropdown = page.getByTestId("menu-dropdown");
    let clicked = 0;
    for (const folder of top) {
      if (folder.menuType === "page") {
        await clickAndLand(page, folder, () => bar.getByRole("link", { name: folder.menuName, exact: true }).click());
        clicked++;
        continue;
      }
      const open = async () => {
        await page.mouse.move(1300, 700);
        // The last entry's dropdown closes 120 ms after the mouse leaves: hovering before it has gone let its close
        // land after the new one showed the entry, and the entry left the page under the click. Checked each frame.
        await page.waitForFunction(() => !document.querySelector("[data-testid=menu-dropdown]"));
        await bar.getByRole("button", { name: folder.menuName, exact: true }).hover();
      };
      const entries = pagesOf(folder.children);
      await open();
      await expect(dropdown).toBeVisible();
      // Measured once it has opened (a click's actionability would wait for the same, the measure does not).
      await expect(dropdown.getByRole("menuitem", { name: entries[0].menuName, exact: true })).toBeVisible();
      const dropBox = await dropdown.boundingBox();
      expect(dropBox!.y + dropBox!.height, `${folder.menuName}'s dropdown ends inside the window`).toBeLessThanOrEqual(768);
      await expectReachable(dropdown.getByRole("menuitem"), entries.map((e) => e.menuName));
      for (const [index, entry] of entries.entries()) {
        if (index > 0) await open();
        // Playwright's click scrolls the entry into view inside the dropdown and checks the mouse lands on it.
        await clickAndLand(page, entry, () => dropdown.getByRole("menuitem", { name: entry.menuName, exact: true }).click());
        clicked++;
      }
    }
    expect(clicked).toBe(pagesOf(top).length);
  });
}

for (const seeded of seededSubsystems) {
  test(`side navigation, ${seeded.sys_name}: every menu entry of the admin is reached and opened by mouse, the logo staying in view`, async ({ page }) => {
    const top = await openSubsystem(page, e2eUsers.navSide, seeded);
    const side = page.getByTestId("side-menu");
    let clicked = 0;
    for (const folder of top) {
      if (folder.menuType === "page") {
        await clickAndLand(page, folder, () => side.getByRole("link", { name: folder.menuName, exact: true }).click());
        clicked++;
        continue;
      }
      const entries = pagesOf(folder.children);
      // The folder opens on a click of its name (the first element of that name: its pages come after it).
      if (!(await side.getByRole("link", { name: entries[0].menuName, exact: true }).isVisible())) await side.getByText(folder.menuName, { exact: true }).first().click();
      await expect(side.getByRole("link", { name: entries[0].menuName, exact: true })).toBeVisible();
      await expectReachable(side.getByRole("link"), entries.map((e) => e.menuName));
      for (const entry of entries) {
        await clickAndLand(page, entry, () => side.getByRole("link", { name: entry.menuName, exact: true }).click());
        clicked++;
      }
    }
    expect(clicked).toBe(pagesOf(top).length);
    if (seeded.sys_code !== "zhct") return;

    // A long page scrolls under the side bar: its logo stays where it is.
    await gotoReady(page, "/zhct/cashier/index");
    await page.evaluate(() => {
      document.body.style.minHeight = "3000px";
      window.scrollTo(0, 2000);
    });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    // With 智慧餐厅's sections open beside it (the walk opened them), the logo keeps its whole height at the top (the
    // menu had squeezed it).
    await expect(page.getByTestId("side-menu").getByRole("link", { name: "收银台", exact: true })).toBeAttached();
    const logo = await page.getByTestId("sidebar-logo").boundingBox();
    expect(logo).toMatchObject({ y: 0, height: 56 });
  });
}

test("a user whose roles give them the canteen alone lands in it after sign-in and on /", async ({ page }) => {
  await signInTo(page, e2eUsers.canteenOnly, "/login");
  await expect(page).toHaveURL(/\/dashboard$/);
  const bar = page.getByTestId("top-menu");
  await expect(bar.getByRole("button", { name: "智慧餐厅" })).toBeVisible();
  await bar.getByRole("button", { name: "智慧餐厅" }).hover();
  const dropdown = page.getByTestId("menu-dropdown");
  // Its pages under their sections.
  await expect(dropdown.getByRole("group", { name: "订单与收银" }).getByRole("menuitem")).toHaveText(["收银台", "订单管理"]);
  await expect(dropdown.getByRole("group", { name: "基础资料" }).getByRole("menuitem")).toHaveText(["菜品管理"]);

  await gotoReady(page, "/");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("top-menu").getByRole("button", { name: "智慧餐厅" })).toBeVisible();
});

test("one screen is one tag, however its address was written", async ({ page }) => {
  await signInTo(page, e2eUsers.navTop, "/admin/dashboard");
  for (const path of ["/zhct/useraccountcharge/index", "/dashboard", "/zhct/useraccountcharge/index/", "/", "/zhct/useraccountcharge/index?pageNum=1", "/zhct/useraccountcharge/charge"]) {
    await page.goto(path);
    await hydrated(page);
  }
  const tags = page.getByTestId("tag");
  await expect(tags.filter({ hasText: /^首页$/ })).toHaveCount(1);
  await expect(tags.filter({ hasText: /^充值管理$/ })).toHaveCount(1);
  // The top-up form has its own name, so it is a screen of its own.
  await expect(tags.filter({ hasText: /^充值$/ })).toHaveAttribute("aria-selected", "true");
  // The list's tag went back to where the list was last.
  await tags.filter({ hasText: /^充值管理$/ }).click();
  await expect(page).toHaveURL(/\/zhct\/useraccountcharge\/index\?pageNum=1$/);
});

test("the header's menu search finds a screen from a few characters, by keyboard or by mouse", async ({ page }) => {
  await signInTo(page, e2eUsers.navTop, "/admin/dashboard");
  const search = page.getByRole("combobox", { name: "搜索菜单" });
  await page.keyboard.press("Control+k");
  await expect(search).toBeFocused();
  await page.keyboard.type("收银");
  const results = page.getByRole("listbox", { name: "菜单搜索结果" });
  await expect(results.getByRole("option")).toHaveText([/^收银台/, /^收银订单/]);
  await page.keyboard.press("ArrowDown");
  await expect(results.getByRole("option").nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/zhct\/cashiermealorder\/index$/);
  await expect(results).toBeHidden();

  // Two screens of one name tell their places apart; a click opens the one in 报表, whose subsystem becomes the active one.
  await search.click();
  await search.fill("充值日报");
  await expect(results.getByRole("option")).toHaveText(["充值日报智慧餐厅 / 订单与收银", "充值日报报表 / 账户与充值"]);
  await results.getByRole("option", { name: /报表/ }).click();
  await expect(page).toHaveURL(/\/report\/chargedailyreport\/index$/);
  await expect(page.getByTestId("top-menu").getByRole("button", { name: "报表" })).toBeVisible();

  await search.fill("没有这个页面");
  await expect(results).toContainText("没有名称含“没有这个页面”的页面");
  await page.keyboard.press("Escape");
  await expect(search).toHaveValue("");
});
