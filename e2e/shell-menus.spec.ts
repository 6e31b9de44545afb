import { expect, test, type Page } from "@playwright/test";
import type { MenuNode } from "../resources/auth";
import { flatten, subsystemTree, visibleMenus } from "../app/lib/menus";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, gotoReady, hydrated, signInTo } from "./support/shell";

/** Issue 38: navigation that holds every screen, at the smallest desktop a canteen office has. */
test.use({ viewport: { width: 1366, height: 768 } });
test.describe.configure({ timeout: 300_000 });
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

/** Nothing but the dropdown scrolled: the page stays where it was, and the entry is inside the window. */
async function expectInWindow(page: Page, box: { y: number; height: number } | null) {
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  // Half a pixel of rounding at the side bar's bottom edge.
  expect(box!.y + box!.height).toBeLessThanOrEqual(768 + 0.5);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
}

async function clickAndLand(page: Page, entry: MenuNode, click: () => Promise<void>) {
  if (entry.menuTarget === "_blank") {
    const popup = page.waitForEvent("popup");
    await click();
    await (await popup).close();
    return;
  }
  await click();
  await expect(page).toHaveURL(urlOf(entryHref(entry)));
}

test("top navigation: every menu entry of the admin is reached and opened by mouse, in a dropdown no taller than the window", async ({ page }) => {
  const user = e2eUsers.navTop;
  await signInTo(page, user, "/admin/dashboard");
  const subsystems = await menusOf(page, user);
  let clicked = 0;
  for (const { subsystem, top } of subsystems) {
    await page.goto(subsystem.sysCode === "admin" ? "/admin/dashboard" : `/subsystem/${subsystem.sysCode}`);
    await hydrated(page);
    const bar = page.getByTestId("top-menu");
    for (const folder of top) {
      if (folder.menuType === "page") {
        await clickAndLand(page, folder, () => bar.getByRole("link", { name: folder.menuName, exact: true }).click());
        clicked++;
        continue;
      }
      for (const entry of flatten(folder.children).filter((n) => n.menuType === "page")) {
        await page.mouse.move(1300, 700);
        const dropdown = page.getByTestId("menu-dropdown");
        // The last entry's dropdown closes 120 ms after the mouse leaves: hovering before it has gone let its close
        // land after the new one showed the entry, and the entry left the page under the click.
        await expect(dropdown).toHaveCount(0);
        await bar.getByRole("button", { name: folder.menuName, exact: true }).hover();
        const item = dropdown.getByRole("menuitem", { name: entry.menuName, exact: true });
        // The last click's dropdown may still be fading out as this one opens: measure once one is there and shows the entry.
        let dropBox: Awaited<ReturnType<typeof dropdown.boundingBox>> = null;
        await expect.poll(async () => (dropBox = await dropdown.boundingBox()) !== null && (await item.isVisible()), { intervals: [25, 50, 100] }).toBe(true);
        expect(dropBox!.y + dropBox!.height, `${folder.menuName}'s dropdown ends inside the window`).toBeLessThanOrEqual(768);
        await item.scrollIntoViewIfNeeded();
        await expectInWindow(page, await item.boundingBox());
        await clickAndLand(page, entry, () => item.click());
        clicked++;
      }
    }
  }
  expect(clicked).toBeGreaterThan(100);
});

test("side navigation: every menu entry of the admin is reached and opened by mouse, the logo staying in view", async ({ page }) => {
  const user = e2eUsers.navSide;
  await signInTo(page, user, "/admin/dashboard");
  const subsystems = await menusOf(page, user);
  let clicked = 0;
  for (const { subsystem, top } of subsystems) {
    await page.goto(subsystem.sysCode === "admin" ? "/admin/dashboard" : `/subsystem/${subsystem.sysCode}`);
    await hydrated(page);
    const side = page.getByTestId("side-menu");
    for (const folder of top) {
      if (folder.menuType === "page") {
        await clickAndLand(page, folder, () => side.getByRole("link", { name: folder.menuName, exact: true }).click());
        clicked++;
        continue;
      }
      const entries = flatten(folder.children).filter((n) => n.menuType === "page");
      // The folder opens on a click of its name (the first element of that name: its pages come after it).
      if (!(await side.getByRole("link", { name: entries[0].menuName, exact: true }).isVisible())) await side.getByText(folder.menuName, { exact: true }).first().click();
      for (const entry of entries) {
        const link = side.getByRole("link", { name: entry.menuName, exact: true });
        await link.scrollIntoViewIfNeeded();
        await expectInWindow(page, await link.boundingBox());
        await clickAndLand(page, entry, () => link.click());
        clicked++;
      }
    }
  }
  expect(clicked).toBeGreaterThan(100);

  // A long page scrolls under the side bar: its logo stays where it is.
  await gotoReady(page, "/zhct/cashier/index");
  await page.evaluate(() => {
    document.body.style.minHeight = "3000px";
    window.scrollTo(0, 2000);
  });
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  // With 智慧餐厅's sections open beside it, the logo keeps its whole height at the top (the menu had squeezed it).
  await expect(page.getByTestId("side-menu").getByRole("link", { name: "收银台", exact: true })).toBeAttached();
  const logo = await page.getByTestId("sidebar-logo").boundingBox();
  expect(logo).toMatchObject({ y: 0, height: 56 });
});

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
