import { expect, test, type Page, type Route } from "@playwright/test";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { atWidth, cookie, expectNoReactErrors, signInTo, WIDTHS } from "./support/shell";

const SAVE = "**/api/v1/auth/user/saveSettings";
// app/components/shell/Feedback.tsx and app/lib/request.ts
const MASK_DELAY_MS = 500;
const MESSAGE_DURATION_MS = 5_000;
const { shellAdmin, clerk } = e2eUsers;

/** A browser call through the request wrapper: switching a setting saves it. */
async function saveASetting(page: Page) {
  await page.getByRole("button", { name: "系统布局配置" }).click();
  await page.getByRole("dialog").getByText("固定顶栏", { exact: true }).click();
}

async function closeSettings(page: Page) {
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

/**
 * Lets React finish what the page has queued (a click's render, a timer's update, their effects): its scheduler runs
 * them in tasks it posts as messages, queued before the ones posted here.
 */
async function settle(page: Page) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

/** Holds every page-data load until released; `started` resolves with the first one held. */
async function holdLoads(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const held = new Promise<void>((resolve) => (started = resolve));
  const handler = async (route: Route) => {
    started();
    await released;
    await route.continue();
  };
  await page.route("**/*.data*", handler);
  return {
    started: held,
    release: async () => {
      release();
      // Removed once the held loads have gone on: removed sooner, a held route is settled without its handler, whose
      // continue then throws.
      await page.unrouteAll({ behavior: "wait" });
    },
  };
}

const envelope = (status: number, message: string) => ({ status: 200, contentType: "application/json", body: JSON.stringify({ status, message, data: null }) });

test.describe.configure({ timeout: 90_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

for (const { name, width } of WIDTHS) {
  test.describe(`feedback and errors at ${name} px`, () => {
    atWidth(width);
    // An admin at 1280 px, a user without the admin role at 800 px.
    const user = width > 992 ? shellAdmin : clerk;

    test("the loading mask shows 数据加载中 for slow loads only", async ({ page }) => {
      // The mask waits on the page's clock: paused, a held load lasts exactly as long as the test moves the clock.
      await page.clock.install();
      await signInTo(page, user, "/admin/dashboard");
      await page.evaluate(() => {
        (window as unknown as { maskSeen: boolean }).maskSeen = false;
        new MutationObserver(() => {
          if (document.querySelector("[data-testid=loading-mask]")) (window as unknown as { maskSeen: boolean }).maskSeen = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
      const maskSeen = () => page.evaluate(() => (window as unknown as { maskSeen: boolean }).maskSeen);
      const mask = page.getByTestId("loading-mask");
      await page.getByRole("button", { name: "用户菜单" }).click();
      const profile = page.getByRole("menuitem", { name: "个人中心" });
      await expect(profile).toBeVisible();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);

      // A load that ends 1 ms before the mask's delay never shows it, then or later.
      let load = await holdLoads(page);
      await profile.click();
      await load.started;
      await settle(page);
      await page.clock.runFor(MASK_DELAY_MS - 1);
      await settle(page);
      await expect(mask).toHaveCount(0);
      await load.release();
      await expect(page.getByRole("heading", { name: "个人资料" })).toBeVisible();
      await settle(page);
      await page.clock.runFor(MASK_DELAY_MS * 4);
      await settle(page);
      expect(await maskSeen()).toBe(false);

      // A load still going at the delay shows it, with its text, until it ends.
      load = await holdLoads(page);
      await page.getByTestId("tag").first().click();
      await load.started;
      await settle(page);
      await page.clock.runFor(MASK_DELAY_MS - 1);
      await settle(page);
      await expect(mask).toHaveCount(0);
      await page.clock.runFor(1);
      await expect(mask.filter({ hasText: /^数据加载中$/ })).toBeVisible();
      await load.release();
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await expect(mask).toHaveCount(0);
    });

    test("a status other than 200 shows the server's message (or Error) in red for 5 s", async ({ page }) => {
      // The message closes on the page's clock: paused once the settings are open, the test moves it.
      await page.clock.install();
      await signInTo(page, user, "/admin/dashboard");
      await page.route(SAVE, (route) => route.fulfill(envelope(409, "数据已被他人修改，请刷新后重试")));
      await page.getByRole("button", { name: "系统布局配置" }).click();
      const setting = page.getByRole("dialog").getByText("固定顶栏", { exact: true });
      await expect(setting).toBeVisible();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await setting.click();
      const message = page.getByTestId("error-message");
      // The first message loads the notifications' code, which React reveals after a throttle on the same clock: moved
      // on in steps until the message is there. Its closing timer started within the last step.
      const STEP_MS = 50;
      const stepUntil = (count: number) =>
        expect
          .poll(
            async () => {
              await page.clock.runFor(STEP_MS);
              await settle(page);
              return message.count();
            },
            { intervals: [10] },
          )
          .toBe(count);
      await stepUntil(1);
      const shownAt = await page.evaluate(() => Date.now());
      await expect(message).toHaveText("数据已被他人修改，请刷新后重试");
      await expect(message).toHaveCSS("--notification-color", /.+/);
      await page.clock.runFor(MESSAGE_DURATION_MS - STEP_MS - 1);
      await settle(page);
      await expect(message).toBeVisible();
      // Then it closes, its fade-out on the same clock.
      await stepUntil(0);
      expect((await page.evaluate(() => Date.now())) - shownAt).toBeLessThan(MESSAGE_DURATION_MS + 1000);
      await page.clock.resume();
      await expect(page.getByTestId("logout-confirm").getByRole("dialog")).toHaveCount(0);

      await page.unroute(SAVE);
      await page.route(SAVE, (route) => route.fulfill(envelope(500, "")));
      await page.getByRole("dialog").getByText("固定顶栏", { exact: true }).click();
      await expect(message).toHaveText("Error");

      // A network failure shows its message too.
      await page.unroute(SAVE);
      await page.route(SAVE, (route) => route.abort("connectionrefused"));
      await page.getByRole("dialog").getByText("固定顶栏", { exact: true }).click();
      await expect(message.filter({ hasText: "Network Error" })).toBeVisible();
      await page.unroute(SAVE);
      await closeSettings(page);
    });

    test("50008 and 50012 offer re-login; a really expired session (50014) re-logs in after Re-Login", async ({ page, request }) => {
      await signInTo(page, user, "/admin/sys/imageobj/index");
      const dialog = page.getByTestId("logout-confirm").getByRole("dialog");
      for (const status of [50008, 50012]) {
        await page.route(SAVE, (route) => route.fulfill({ ...envelope(status, "令牌无效"), status: 401 }));
        await saveASetting(page);
        await expect(dialog).toBeVisible();
        await expect(dialog).toContainText("Confirm logout");
        await expect(dialog).toContainText("You have been logged out, you can cancel to stay on this page, or log in again");
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await expect(dialog).toHaveCount(0);
        await expect(page).toHaveURL(/\/admin\/sys\/imageobj\/index$/);
        await page.unroute(SAVE);
        await closeSettings(page);
      }

      // The session ends elsewhere; the next call answers 50014 through the real API.
      const token = await cookie(page, "Admin-Token");
      await request.post("/logout", { headers: { Authorization: `Bearer ${token}` } });
      await saveASetting(page);
      await expect(page.getByTestId("error-message").first()).toHaveText("登录已过期，请重新登录");
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Re-Login" }).click();
      await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Fsys%2Fimageobj%2Findex$/);
      expect(await cookie(page, "Admin-Token")).toBeUndefined();
    });

    test("unhandled errors of the page are kept in the error log", async ({ page }) => {
      await signInTo(page, user, "/admin/dashboard");
      await expect(page.getByTestId("error-log-button")).toHaveCount(0);
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error("e2e: something broke");
        });
        // Left unhandled on purpose: the error log must catch what nobody else does.
        void Promise.reject(new Error("e2e: a promise nobody caught"));
      });
      await page.getByTestId("error-log-button").click();
      const log = page.getByTestId("error-log").getByRole("dialog");
      await expect(log).toContainText("e2e: something broke");
      await expect(log).toContainText("e2e: a promise nobody caught");
      await expect(log).toContainText("/admin/dashboard");
    });

    test("button permissions: an element whose code the user lacks is removed, and the server refuses the action", async ({ page, browser, request }) => {
      const filer = await apiAs(request, clerk.userName, clerk.password);
      const created = await filer.post("/api/v1/zhct/mealOrderComplaints/create", { orderNo: `P-${name}`, content: "饭菜有异物" });
      expect(created.status).toBe(200);
      const path = `/zhct/mealordercomplaints/process/${created.data.id}`;

      await signInTo(page, clerk, path);
      await expect(page.getByRole("heading", { name: "处理订餐申诉" })).toBeVisible();
      await expect(page.getByText("饭菜有异物")).toBeVisible();
      await expect(page.getByTestId("process-form")).toHaveCount(0);
      const refused = await page.evaluate(
        async (id) => (await fetch("/api/v1/zhct/mealOrderComplaints/process", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id, result: "processed", reply: "x" }) })).json(),
        created.data.id,
      );
      expect(refused).toMatchObject({ status: 403, message: "没有权限执行此操作" });

      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const admin = await context.newPage();
      await signInTo(admin, shellAdmin, path);
      const form = admin.getByTestId("process-form");
      await expect(form).toBeVisible();
      await form.getByRole("button", { name: "提交处理" }).click();
      await expect(form.getByText("请填写处理回复")).toBeVisible();
      await form.getByLabel("驳回").check();
      await form.getByLabel("处理回复").fill("经核实无异物");
      await form.getByRole("button", { name: "提交处理" }).click();
      await expect(admin).toHaveURL(/\/zhct\/mealordercomplaints\/index$/);
      await admin.goto(path);
      await expect(admin.getByTestId("complaint-status")).toHaveText("已驳回");
      await expect(admin.getByTestId("process-form")).toHaveCount(0);
      await context.close();

      const again = await filer.post("/api/v1/zhct/mealOrderComplaints/revoke", { id: created.data.id });
      expect(again).toMatchObject({ status: 409, message: "该申诉当前为「已驳回」，不能撤销" });
    });
  });
}
