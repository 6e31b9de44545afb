import { expect, test, type Page } from "@playwright/test";
import { e2eUsers } from "./support/servers";
import { atWidth, cookie, expectNoReactErrors, gotoReady, signInTo, WIDTHS } from "./support/shell";

/** A 2×2 PNG for the avatar upload. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";

/** The chosen colour is the palette's shade 6; fills and text use it darkened to 4.5:1 (decision 016). */
const primary = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--mantine-color-brand-6").trim());
const serverHtml = async (page: Page, path: string) => (await page.request.get(path)).text();

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "系统布局配置" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer).toContainText("系统布局配置");
  return drawer;
}

/** Each switch saves at once; waits for the save to reach the server. */
async function toggle(page: Page, drawer: ReturnType<Page["getByRole"]>, label: string) {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/user/saveSettings"));
  await drawer.getByText(label, { exact: true }).click();
  expect((await (await saved).json()).status).toBe(200);
}

test.describe.configure({ timeout: 90_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

for (const { name, width, mobile } of WIDTHS) {
  test.describe(`settings and tags at ${name} px`, () => {
    atWidth(width);

    test("the settings drawer saves for the user, applies on the server render and follows to another terminal", async ({ page, browser }) => {
      const user = mobile ? e2eUsers.settingsNarrow : e2eUsers.settingsWide;
      await signInTo(page, user, "/admin/dashboard");
      expect(await primary(page)).toBe("#1890ff");
      await expect(page.getByTestId("tags-view")).toBeVisible();
      let drawer = await openSettings(page);

      await toggle(page, drawer, "显示标签页");
      await expect(page.getByTestId("tags-view")).toHaveCount(0);
      expect(await serverHtml(page, "/admin/dashboard")).not.toContain('data-testid="tags-view"');

      await toggle(page, drawer, "固定顶栏");
      await expect.poll(() => page.getByTestId("app-header").evaluate((el) => getComputedStyle(el).position)).toBe("absolute");
      expect(await serverHtml(page, "/admin/dashboard")).toMatch(/data-static="true"/);

      const saved = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/user/saveSettings"));
      await drawer.getByRole("button", { name: "主题色 #f5222d" }).click();
      await saved;
      await expect.poll(() => primary(page)).toBe("#f5222d");
      expect(await serverHtml(page, "/admin/dashboard")).toContain("#f5222d");

      await drawer.getByText("侧边菜单", { exact: true }).click();
      await expect(page.getByTestId("app-shell")).toHaveAttribute("data-nav", "left");
      if (mobile) await expect(page.getByTestId("sidebar")).not.toBeInViewport();
      else await expect(page.getByTestId("sidebar")).toBeInViewport();
      if (!mobile) {
        await expect(page.getByTestId("sidebar-logo")).toBeVisible();
        await toggle(page, drawer, "侧边栏显示标志");
        await expect(page.getByTestId("sidebar-logo")).toHaveCount(0);
      }

      // Another terminal: the same settings on its first paint, before any script.
      const other = await browser.newContext({ viewport: { width, height: 800 } });
      const second = await other.newPage();
      await signInTo(second, user, "/admin/dashboard");
      await expect(second.getByTestId("tags-view")).toHaveCount(0);
      expect(await primary(second)).toBe("#f5222d");
      await expect(second.getByTestId("app-shell")).toHaveAttribute("data-nav", "left");
      await expect(second.getByTestId("app-header")).toHaveAttribute("data-static", "true");
      await other.close();

      // Back to the defaults.
      await page.keyboard.press("Escape");
      drawer = await openSettings(page);
      await drawer.getByRole("button", { name: "主题色 #1890ff" }).click();
      await drawer.getByText("顶部菜单", { exact: true }).click();
      await toggle(page, drawer, "显示标签页");
      await toggle(page, drawer, "固定顶栏");
      if (!mobile) await toggle(page, drawer, "侧边栏显示标志");
      await expect.poll(() => primary(page)).toBe("#1890ff");
      await expect(page.getByTestId("tags-view")).toBeVisible();
      await expect(page.getByTestId("app-shell")).toHaveAttribute("data-nav", "top");
    });

    test("tags: ten at most, the oldest closes first, the dashboard stays; a tag restores its URL", async ({ page }) => {
      const pages = ["announcement", "appversion", "device", "exceptioninfo", "holiday", "imageobj", "merchant", "modelversion", "parameterconfig", "printdevice"].map(
        (screen) => `/admin/sys/${screen}/index`,
      );
      await signInTo(page, e2eUsers.shellAdmin, "/zhct/mealordercomplaints/index?orderNo=DD&pageSize=50");
      const tags = page.getByTestId("tag");
      await expect(tags).toHaveText(["首页", "订餐申诉"]);
      for (const path of pages) await gotoReady(page, path);
      await expect(tags).toHaveCount(10);
      await expect(tags.first()).toHaveText("首页");
      await expect(tags.filter({ hasText: "订餐申诉" })).toHaveCount(0);
      await expect(tags.filter({ hasText: "公告" })).toHaveCount(0);
      await expect(tags.last()).toHaveAttribute("aria-selected", "true");
      expect(decodeURIComponent((await cookie(page, "Tags-View")) ?? "")).toContain("/admin/sys/printdevice/index");

      // Filters and page survive: going back to a tag restores its URL.
      await gotoReady(page, "/zhct/mealordercomplaints/index?orderNo=DD&pageSize=50");
      await tags.filter({ hasText: "图片资源" }).click();
      await expect(page).toHaveURL(/\/admin\/sys\/imageobj\/index$/);
      await tags.filter({ hasText: "订餐申诉" }).click();
      await expect(page).toHaveURL(/\/zhct\/mealordercomplaints\/index\?orderNo=DD&pageSize=50$/);
      await expect(page).toHaveTitle(/订餐申诉.*智慧餐厅后台管理/);

      // The context menu: 105 px wide; refresh, close, close others, close all.
      await tags.filter({ hasText: "图片资源" }).click({ button: "right" });
      const menu = page.getByTestId("tags-context-menu");
      expect((await menu.boundingBox())?.width).toBe(105);
      await expect(menu.getByRole("menuitem")).toHaveText(["刷新", "关闭", "关闭其他", "关闭所有"]);
      await menu.getByRole("menuitem", { name: "关闭", exact: true }).click();
      await expect(tags.filter({ hasText: "图片资源" })).toHaveCount(0);
      await expect(page).toHaveURL(/mealordercomplaints/);

      await tags.first().click({ button: "right" });
      await expect(menu.getByRole("menuitem")).toHaveText(["刷新", "关闭其他", "关闭所有"]);
      await page.mouse.click(5, 400);
      await expect(menu).toHaveCount(0);

      const reloaded = page.waitForResponse((r) => r.url().includes(".data") && r.url().includes("mealordercomplaints"));
      await tags.filter({ hasText: "订餐申诉" }).click({ button: "right" });
      await menu.getByRole("menuitem", { name: "刷新" }).click();
      await reloaded;

      await tags.filter({ hasText: "订餐申诉" }).click({ button: "right" });
      await menu.getByRole("menuitem", { name: "关闭其他" }).click();
      await expect(tags).toHaveText(["首页", "订餐申诉"]);

      await tags.filter({ hasText: "订餐申诉" }).click({ button: "right" });
      await menu.getByRole("menuitem", { name: "关闭所有" }).click();
      await expect(tags).toHaveText(["首页"]);
      await expect(page).toHaveURL(/\/admin\/dashboard$/);

      // Closing the page's own tag goes to the last one left.
      await gotoReady(page, "/profile/index");
      await expect(page).toHaveTitle("个人中心 - 智慧餐厅后台管理");
      await page.getByRole("button", { name: "关闭 个人中心" }).click();
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await expect(tags).toHaveText(["首页"]);
    });

    test("the personal centre changes the own name, avatar, phone and navigation mode", async ({ page }) => {
      const user = mobile ? e2eUsers.settingsNarrow : e2eUsers.settingsWide;
      await signInTo(page, user, "/profile/index");
      await page.getByLabel("姓名").fill(`测试员${name}`);
      await page.getByLabel("手机号").fill("abc");
      await page.getByRole("button", { name: "保存" }).click();
      await expect(page.getByText("请输入有效的电话号码")).toBeVisible();
      await page.getByLabel("手机号").fill("138 0013 8000");
      await page.locator("input[type=file]").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
      await expect(page.getByRole("img", { name: "头像" })).toBeVisible();
      await page.getByText("侧边菜单", { exact: true }).click();
      await page.getByRole("button", { name: "保存" }).click();
      await expect(page.getByTestId("flash")).toHaveText("个人资料已保存");
      await expect(page.getByTestId("current-user")).toHaveText(`测试员${name}`);
      await expect(page.getByTestId("app-shell")).toHaveAttribute("data-nav", "left");
      await expect(page.getByLabel("手机号")).toHaveValue("138 0013 8000");
      const avatar = page.getByRole("button", { name: "用户菜单" }).locator("img");
      await expect(avatar).toHaveAttribute("src", /^\/api\/v1\/sys\/file\//);
      await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      await page.getByText("顶部菜单", { exact: true }).click();
      await page.getByRole("button", { name: "保存" }).click();
      await expect(page.getByTestId("app-shell")).toHaveAttribute("data-nav", "top");
    });
  });
}
