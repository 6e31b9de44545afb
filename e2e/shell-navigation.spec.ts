import { expect, test } from "@playwright/test";
import { seedMenus } from "../server/modules/seed";
import { e2eUsers } from "./support/servers";
import { shellFixture } from "./support/shell-fixtures";
import { atWidth, cookie, expectNoReactErrors, hydrated, openMenu, signInTo, WIDTHS } from "./support/shell";

const { shellAdmin, clerk, auditor } = e2eUsers;
const { menus } = shellFixture;

test.describe.configure({ timeout: 90_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

for (const { name, width, mobile } of WIDTHS) {
  test.describe(`navigation at ${name} px`, () => {
    atWidth(width);

    test("the top menu shows page entries of the active subsystem, two levels at most", async ({ page }) => {
      await signInTo(page, shellAdmin, "/admin/dashboard");
      await expect(page).toHaveTitle("首页 - 智慧餐厅后台管理");
      await expect(page.getByTestId("logo").first()).toHaveAttribute("src", "/logo.svg");
      await expect(page.getByTestId("top-menu")).toBeVisible({ visible: !mobile });
      await expect(page.getByTestId("mobile-menu-button")).toBeVisible({ visible: mobile });

      const nav = await openMenu(page, mobile);
      for (const entry of ["首页", "系统管理", "权限管理", menus.blank.name, menus.iframe.name, menus.restricted.name]) {
        await expect(nav.getByText(entry, { exact: true })).toBeVisible();
      }
      for (const hidden of [menus.miniapp.name, menus.link.name, "按钮", "新增", "智慧餐厅"]) {
        await expect(nav.getByText(hidden, { exact: true })).toHaveCount(0);
      }
      await nav.getByText("系统管理", { exact: true }).click();
      const item = mobile ? nav.getByRole("link", { name: "图片资源", exact: true }) : page.getByRole("menuitem", { name: "图片资源", exact: true });
      await item.click();
      await expect(page).toHaveURL(/\/admin\/sys\/imageobj\/index$/);
      await expect(page).toHaveTitle(/图片资源.*智慧餐厅后台管理/);
      expect(await page.evaluate(() => window.localStorage.getItem("activeMenu"))).toBe(String(seedMenus().find((m) => m.menu_path === "/admin/sys/imageobj/index")?.id));
      // On a phone the drawer closes after the navigation.
      if (mobile) await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(page.getByTestId("tag").filter({ hasText: "图片资源" })).toHaveAttribute("aria-selected", "true");
    });

    test("the side bar collapses, and its cookie shapes the server's first paint", async ({ page, browser }) => {
      const user = mobile ? e2eUsers.shellSide2 : e2eUsers.shellSide;
      await signInTo(page, user, "/admin/sys/imageobj/index");
      const sidebar = page.getByTestId("sidebar");
      const html = async () => (await page.request.get("/admin/sys/imageobj/index")).text();
      expect(await html()).toContain('data-nav="left"');
      if (mobile) {
        // Under 992 px the side bar is off screen; its menu lives in a drawer that closes after navigation.
        await expect(sidebar).not.toBeInViewport();
        const drawerMenu = await openMenu(page, true);
        await drawerMenu.getByRole("link", { name: "首页" }).click();
        await expect(page).toHaveURL(/\/admin\/dashboard$/);
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await expect(page.getByTestId("sidebar-toggle")).toBeHidden();
        return;
      }
      await expect(sidebar).toBeInViewport();
      expect((await sidebar.boundingBox())?.width).toBe(210);
      await expect(sidebar.getByRole("link", { name: "图片资源", exact: true })).toHaveAttribute("data-active", "true");
      await expect(page.getByTestId("breadcrumbs")).toContainText("系统管理");
      await page.getByTestId("sidebar-toggle").click();
      await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(64);
      expect(await cookie(page, "sidebarStatus")).toBe("0");
      expect(await html()).toMatch(/data-testid="sidebar"[^>]*data-collapsed="true"|data-collapsed="true"[^>]*data-testid="sidebar"/);

      // A fresh page with the cookie paints collapsed before any script runs.
      const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 }, storageState: await page.context().storageState() });
      const still = await noScript.newPage();
      await still.goto("/admin/sys/imageobj/index");
      expect((await still.getByTestId("sidebar").boundingBox())?.width).toBe(64);
      await noScript.close();

      await page.getByTestId("sidebar-toggle").click();
      await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(210);
      expect(await cookie(page, "sidebarStatus")).toBe("1");
    });

    test("admin reaches every route; others only unrestricted ones or those their roles match", async ({ page, browser }) => {
      await signInTo(page, clerk, "/admin/dashboard");
      const nav = await openMenu(page, mobile);
      await expect(nav.getByText("权限管理", { exact: true })).toHaveCount(0);
      await expect(nav.getByText(menus.restricted.name, { exact: true })).toBeVisible();
      if (mobile) await page.keyboard.press("Escape");

      const denied = await page.goto(menus.restricted.path);
      expect(denied?.status()).toBe(401);
      await expect(page.getByRole("heading", { name: "没有权限" })).toBeVisible();
      await expect(page.getByTestId("current-user")).toBeVisible({ visible: true });
      await page.goto("/admin/sys/printdevice/create");
      await expect(page.getByRole("heading", { name: "没有权限" })).toBeVisible();

      for (const user of [auditor, shellAdmin]) {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        const other = await context.newPage();
        await signInTo(other, user, menus.restricted.path);
        await expect(other.getByRole("heading", { name: "没有权限" })).toHaveCount(0);
        await expect(other.getByRole("heading", { name: "打印机" })).toBeVisible();
        await context.close();
      }

      // The status pages live inside the shell.
      const missing = await page.goto("/no/such/page");
      expect(missing?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "页面不存在" })).toBeVisible();
      await expect(page.getByTestId("app-header")).toBeVisible();
      await page.goto("/404");
      await expect(page.getByRole("heading", { name: "页面不存在" })).toBeVisible();
      await page.goto("/401");
      await expect(page.getByRole("heading", { name: "没有权限" })).toBeVisible();
    });

    test("subsystems: /subsystem/{code} switches and lands on /dashboard; a page id opens that page", async ({ page }) => {
      await signInTo(page, shellAdmin, "/admin/dashboard");
      await page.getByTestId("subsystem-switcher").click();
      await page.getByRole("menuitem", { name: "智慧餐厅" }).click();
      // /admin/dashboard, where the test starts, also ends in /dashboard.
      await expect(page).toHaveURL((url) => url.pathname === "/dashboard");
      expect(await cookie(page, "Subsystem-Id")).toBe("2");
      await expect(page.getByTestId("subsystem-switcher")).toContainText(mobile ? "" : "智慧餐厅");
      let nav = await openMenu(page, mobile);
      await expect(nav.getByText("智慧餐厅", { exact: true })).toBeVisible();
      await expect(nav.getByText("系统管理", { exact: true })).toHaveCount(0);
      if (mobile) await page.keyboard.press("Escape");

      const complaints = seedMenus().find((m) => m.menu_path === "/zhct/mealordercomplaints/index");
      await page.goto(`/subsystem/zhct/${complaints?.id}`);
      await expect(page).toHaveURL(/\/zhct\/mealordercomplaints\/index$/);
      await expect(page.getByRole("heading", { name: "订餐申诉" })).toBeVisible();

      await page.goto("/subsystem/admin");
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await hydrated(page);
      expect(await cookie(page, "Subsystem-Id")).toBe("1");
      nav = await openMenu(page, mobile);
      await expect(nav.getByText("系统管理", { exact: true })).toBeVisible();
      if (mobile) await page.keyboard.press("Escape");

      const unknown = await page.goto("/subsystem/nope");
      expect(unknown?.status()).toBe(404);
    });

    test("a _blank menu opens a new window signed in by a one-time ticket, never the token", async ({ page, browser }) => {
      await signInTo(page, shellAdmin, "/admin/dashboard");
      const token = await cookie(page, "Admin-Token");
      const urls: string[] = [];
      page.context().on("request", (r) => urls.push(r.url()));
      const nav = await openMenu(page, mobile);
      const [popup] = await Promise.all([page.waitForEvent("popup"), nav.getByText(menus.blank.name, { exact: true }).click()]);
      await expect(popup).toHaveURL(/\/admin\/sys\/imageobj\/index$/);
      await expect(popup.getByTestId("current-user")).toBeVisible();
      expect(urls.some((u) => /[?&]ticket=[A-Za-z0-9_-]{40,}/.test(u))).toBe(true);
      expect(urls.some((u) => token && u.includes(token))).toBe(false);
      await expect(page).toHaveURL(/\/admin\/dashboard$/);

      // In a browser without the cookie the ticket signs in once; used again it leads to sign-in.
      const ticket = await page.evaluate(async () => {
        const body = JSON.stringify({ path: "/admin/dashboard" });
        const response = await fetch("/api/v1/auth/ticket", { method: "POST", headers: { "Content-Type": "application/json" }, body });
        return (await response.json()).data.ticket as string;
      });
      const fresh = await browser.newContext({ viewport: { width, height: 800 } });
      const window1 = await fresh.newPage();
      await window1.goto(`/admin/sys/imageobj/index?name=%E6%A0%87&ticket=${ticket}`);
      await expect(window1).toHaveURL(/\/admin\/sys\/imageobj\/index\?name=%E6%A0%87$/);
      await expect(window1.getByTestId("current-user")).toBeVisible();
      const issued = (await fresh.cookies()).find((c) => c.name === "Admin-Token");
      expect(issued?.httpOnly).toBe(true);
      expect(issued?.value).not.toBe(token);
      await fresh.close();
      const again = await browser.newContext({ viewport: { width, height: 800 } });
      const window2 = await again.newPage();
      await window2.goto(`/admin/dashboard?ticket=${ticket}`);
      await expect(window2).toHaveURL(/\/login\?redirect=%2Fadmin%2Fdashboard$/);
      await expect(window2.getByRole("alert")).toHaveText("链接已失效，请重新登录");
      await again.close();
    });

    test("an iframe menu goes to /iframe/reportview; only same-site pages or allowed hosts are embedded", async ({ page }) => {
      await signInTo(page, shellAdmin, "/admin/dashboard");
      const nav = await openMenu(page, mobile);
      await nav.getByText(menus.iframe.name, { exact: true }).click();
      await expect(page).toHaveURL(/\/iframe\/reportview\?url=%2Fadmin%2Fdashboard$/);
      await expect(page.getByTestId("report-iframe")).toHaveAttribute("src", "/admin/dashboard");
      await expect(page.frameLocator("[data-testid=report-iframe]").getByTestId("stat-userCount")).toBeVisible();
      await page.goto(`/iframe/reportview?url=${encodeURIComponent("https://evil.example/x")}`);
      await expect(page.getByTestId("iframe-error")).toContainText("不允许内嵌该地址");
      await expect(page.getByTestId("report-iframe")).toHaveCount(0);
    });

    test("the user menu: personal centre, change password, mini-program code, home; exit signs out", async ({ page, request }) => {
      // An admin at 1280 px, a user without the admin role at 800 px.
      await signInTo(page, mobile ? clerk : shellAdmin, "/admin/sys/imageobj/index");
      const open = () => page.getByRole("button", { name: "用户菜单" }).click();
      await open();
      await page.getByRole("menuitem", { name: "小程序二维码" }).click();
      const dialog = page.getByTestId("qr-dialog").getByRole("dialog");
      await expect(dialog.getByText("默认租户")).toBeVisible();
      const image = page.getByTestId("qr-image");
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
      await expect(dialog.getByRole("link", { name: "下载二维码" })).toHaveAttribute("href", /\/api\/v1\/sys\/tenant\/getWeappQRCode/);
      await page.keyboard.press("Escape");

      await open();
      await page.getByRole("menuitem", { name: "个人中心" }).click();
      await expect(page).toHaveURL(/\/profile\/index$/);
      await expect(page.getByRole("heading", { name: "个人资料" })).toBeVisible();
      await open();
      await page.getByRole("menuitem", { name: "修改密码" }).click();
      await expect(page).toHaveURL(/\/admin\/auth\/user\/modifyPasswd$/);
      await open();
      await page.getByRole("menuitem", { name: "首页" }).click();
      await expect(page).toHaveURL(/\/admin\/dashboard$/);

      const token = await cookie(page, "Admin-Token");
      await page.evaluate(() => window.localStorage.setItem("activeMenu", "1"));
      expect(await cookie(page, "Tags-View")).toBeTruthy();
      // The page reloads a second later; waiting from before the click cannot miss that reload on a slow machine.
      const reloaded = page.waitForEvent("load");
      await page.getByRole("button", { name: "退出登录" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await reloaded;
      await expect(page.getByLabel("用户名")).toBeVisible();
      expect(await cookie(page, "Tags-View")).toBeUndefined();
      expect(await cookie(page, "Admin-Token")).toBeUndefined();
      expect(await page.evaluate(() => window.localStorage.getItem("activeMenu"))).toBeNull();
      const info = await request.get("/api/v1/auth/user/info", { headers: { Authorization: `Bearer ${token}` } });
      expect((await info.json()).status).toBe(50014);
    });
  });
}
