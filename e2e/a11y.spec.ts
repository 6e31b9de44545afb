import { expect, test, type Page } from "@playwright/test";
import type { MenuNode } from "../resources/auth";
import { flatten, visibleMenus } from "../app/lib/menus";
import { signInFresh } from "./support/auth";
import { E2E_PORTS, e2eUsers } from "./support/servers";
import { apiAs } from "./support/api";
import { analyze, withAxe } from "./support/axe";
import { seedMenus } from "../server/modules/seed";
import { shellFixture } from "./support/shell-fixtures";
import { partsShown } from "./support/shell";

// The walk is a test per screen; spread over both workers it takes half the time, and a failure names its screen.
test.describe.configure({ mode: "parallel" });
test.beforeEach(({ context }) => withAxe(context));

/** Each violating element as one line: the rule, its impact, the page and the element. */
async function violations(page: Page, label: string) {
  // A dialog fades in: axe run during its last frames reads colours blended with what lies beneath (a red button's
  // white label at 95 % opacity measured 4.23:1), not the ones a user reads once it has settled.
  // (A spinner's endless animation never settles and is not waited for.)
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity));
  const results = await analyze(page);
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${label} — ${v.id} (${v.impact}): ${n.target.join(" ")}\n    ${n.html.slice(0, 200)}\n    ${n.failureSummary?.split("\n").slice(0, 3).join(" ") ?? ""}`),
  );
}

/** Loads a page of the shell and waits until React has taken it over and its code-split parts are on it. */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await expect(page.getByTestId("app-shell")).toBeAttached();
  await partsShown(page);
}

/** Where a menu entry leads, as the navigation opens it (iframe entries through the report page). */
function entryHref(menu: MenuNode) {
  const path = menu.menuPath as string;
  return menu.menuTarget === "iframe" ? `/iframe/reportview?url=${encodeURIComponent(path)}` : path;
}

async function expectNone(page: Page, label: string) {
  expect((await violations(page, label)).join("\n")).toBe("");
}

test("the walk's analysis names a violation planted in a page and in the page of ours it frames", async ({ page }) => {
  const { a11y } = e2eUsers;
  await signInFresh(page, a11y.userName, a11y.password, `/iframe/reportview?url=${encodeURIComponent("/admin/auth/user/index")}`);
  await partsShown(page);
  const framed = page.frames().find((f) => f !== page.mainFrame())!;
  await framed.evaluate(() => document.querySelector("main")!.append(document.createElement("button")));
  await page.evaluate(() => document.body.append(Object.assign(document.createElement("img"), { src: "/favicon.ico" })));
  const found = await violations(page, "planted");
  expect(found.map((line) => line.split("\n")[0])).toEqual(["planted — button-name (critical): iframe main > button", "planted — image-alt (critical): img[src$=\"favicon.ico\"]"]);
});

test("the sign-in page, with and without its captcha, has no WCAG 2.1 A/AA violation", async ({ page }) => {
  // The sign-in page has no scripts (its handle says so): once loaded (its captcha image too) it is what axe reads.
  await page.goto("/login");
  await expectNone(page, "/login");
  await page.goto(`http://127.0.0.1:${E2E_PORTS.captcha}/login`);
  await expectNone(page, "/login (captcha)");
});

/**
 * One signed-in page per worker walks its share of the screens, a test each. A page per test would sign in again and
 * fetch and compile the scripts and the shell's data each time, with a cold cache no user has.
 */
const walk = test.extend<object, { walker: Page }>({
  walker: [
    async ({ browser }, provide, workerInfo) => {
      const { baseURL, locale, viewport } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, locale, viewport });
      await withAxe(context);
      const page = await context.newPage();
      const { a11y } = e2eUsers;
      await signInFresh(page, a11y.userName, a11y.password, "/admin/dashboard");
      await provide(page);
      await context.close();
    },
    { scope: "worker" },
  ],
});

/**
 * The pages the navigation shows to an admin, read from the seeded menu so that each is a test of its own (declared
 * before any server runs; the first test proves the server shows no other), and the two the user menu opens.
 */
const walkedPages = [
  ...new Set([
    ...seedMenus()
      .filter((m) => m.menu_type === "page" && m.menu_path?.startsWith("/"))
      .map((m) => m.menu_path as string),
    "/profile/index",
    "/admin/auth/user/modifyPasswd",
    // The iframe entry of the e2e fixtures, opened through the report view.
    `/iframe/reportview?url=${encodeURIComponent(shellFixture.menus.iframe.path)}`,
  ]),
];

test("the walk below covers every screen of the admin's menu", async ({ request }) => {
  const { a11y } = e2eUsers;
  const api = await apiAs(request, a11y.userName, a11y.password);
  const info = await api.get("/api/v1/auth/user/info");
  const shown = flatten(visibleMenus(info.data.menuTreeList as MenuNode[]))
    .filter((m) => m.menuType === "page" && m.menuPath?.startsWith("/"))
    .map(entryHref);
  expect(shown.length).toBeGreaterThan(20);
  expect(shown.filter((path) => !walkedPages.includes(path))).toEqual([]);
});

for (const path of walkedPages) {
  walk(`${path}, with its list's create page and first row's edit page, has no WCAG 2.1 A/AA violation`, async ({ walker: page }) => {
    test.setTimeout(120_000);
    await open(page, path);
    const found = await violations(page, path);
    // A list: its create page and the edit page of its first row, as their links on the page say.
    const main = page.locator("main");
    const create = main.getByRole("link", { name: "新增", exact: true }).first();
    const edit = main.locator("tbody tr").first().getByRole("link", { name: "编辑", exact: true });
    // Where the browser would go: row links are relative to the list's address.
    const address = (link: typeof create) => link.evaluate((a: HTMLAnchorElement) => new URL(a.href).pathname + new URL(a.href).search);
    const targets = [(await create.count()) ? await address(create) : null, (await edit.count()) ? await address(edit) : null];
    for (const target of new Set(targets)) {
      if (!target || target === path) continue;
      await open(page, target);
      found.push(...(await violations(page, target)));
    }
    expect(found, `${found.length} violating elements:\n${found.join("\n")}`).toEqual([]);
  });
}

test("the side navigation, its collapsed bar, the menus, drawers and dialogs of the shell have no WCAG 2.1 A/AA violation", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { a11ySide } = e2eUsers;
  const api = await apiAs(request, a11ySide.userName, a11ySide.password);
  expect((await api.post("/api/v1/auth/user/saveSettings", { navigationMode: "left" })).status).toBe(200);
  await signInFresh(page, a11ySide.userName, a11ySide.password, "/admin/auth/role/index");
  await open(page, "/admin/auth/role/index");
  await expectNone(page, "side navigation");

  await page.getByRole("button", { name: "用户菜单" }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await expectNone(page, "user menu");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "系统布局配置" }).click();
  await expect(page.getByTestId("settings-drawer").getByRole("dialog")).toBeVisible();
  await expectNone(page, "settings drawer");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("tab", { name: "角色", exact: true }).click({ button: "right" });
  await expect(page.getByTestId("tags-context-menu")).toBeVisible();
  await expectNone(page, "tags context menu");
  await page.keyboard.press("Escape");

  await open(page, "/admin/auth/role/index?delete=1");
  await expect(page.getByTestId("confirm-delete")).toBeVisible();
  await expectNone(page, "delete confirmation");

  await page.getByTestId("sidebar-toggle").click();
  await expect(page.getByTestId("sidebar")).toHaveAttribute("data-collapsed", "true");
  await expectNone(page, "collapsed side bar");
  await page.getByTestId("sidebar-toggle").click();

  await open(page, "/admin/auth/role/create");
  await page.getByRole("textbox").first().fill("草稿");
  await page.getByRole("tab", { name: "首页" }).click();
  await expect(page.getByRole("dialog", { name: "离开此页面？" })).toBeVisible();
  await expectNone(page, "leave-form dialog");
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 800, height: 800 });
  await page.getByTestId("mobile-menu-button").click();
  await expect(page.getByTestId("menu-drawer").getByRole("dialog")).toBeVisible();
  await expectNone(page, "menu drawer (800 px)");
});

test("at a phone's width (390 px) sign-in, a list, a form, an index-only list's form and the week of menus have no WCAG 2.1 A/AA violation", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/login");
  const found = await violations(page, "/login (390 px)");
  const { a11y } = e2eUsers;
  await signInFresh(page, a11y.userName, a11y.password, "/admin/dashboard");
  for (const path of ["/admin/auth/user/index", "/admin/auth/role/create", "/zhct/devicefood/index?create=1", "/zhct/foodmenu/index"]) {
    await open(page, path);
    found.push(...(await violations(page, `${path} (390 px)`)));
  }
  // The open navigation drawer, as a phone user reaches every screen.
  await page.getByTestId("mobile-menu-button").click();
  await expect(page.getByTestId("menu-drawer").getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "menu drawer (390 px)")));
  expect(found, found.join("\n")).toEqual([]);
});
