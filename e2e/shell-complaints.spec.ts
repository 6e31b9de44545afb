import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { atWidth, expectNoReactErrors, signInTo, WIDTHS } from "./support/shell";

const POLL_MS = 300_000;
const COUNT = "/api/v1/zhct/mealOrderComplaints/getComplaintsCount";

async function complain(request: APIRequestContext, user: { userName: string; password: string }, orderNo: string) {
  const api = await apiAs(request, user.userName, user.password);
  const created = await api.post("/api/v1/zhct/mealOrderComplaints/create", { orderNo, content: `订单 ${orderNo} 少了一份菜` });
  expect(created.status, created.message).toBe(200);
  return created.data as { id: number; createdAt: number };
}

test.describe.configure({ timeout: 90_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

for (const { name, width } of WIDTHS) {
  test.describe(`complaint alerts at ${name} px`, () => {
    atWidth(width);
    const user = width > 992 ? e2eUsers.alertWide : e2eUsers.alertNarrow;

    test("the count is asked once and every 5 minutes; only a newer complaint notifies; a failure says why", async ({ page, request }) => {
      const calls: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes(COUNT)) calls.push(r.url());
      });
      await page.clock.install();
      await signInTo(page, user, "/admin/dashboard");
      const alerts = page.getByTestId("complaint-notification");

      // Count "0": asked once when the shell appears, nothing shown.
      await expect.poll(() => calls.length).toBe(1);
      await page.waitForTimeout(300);
      await expect(alerts).toHaveCount(0);

      // A complaint arrives: the next poll, five minutes later, notifies.
      await complain(request, user, `${name}-A1`);
      await page.clock.fastForward(POLL_MS - 30_000);
      await page.waitForTimeout(300);
      expect(calls.length).toBe(1);
      await page.clock.fastForward(30_000);
      await expect.poll(() => calls.length).toBe(2);
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText("1 条未处理的订餐申诉");
      const box = await alerts.boundingBox();
      expect(box?.y).toBeGreaterThanOrEqual(44);
      expect(box?.y).toBeLessThan(60);

      // The alert stays until clicked, so it must not cover the user menu that opens beneath it.
      await page.getByRole("button", { name: "用户菜单" }).click();
      await page.getByRole("menuitem", { name: "个人中心" }).click({ trial: true, timeout: 5_000 });
      await page.keyboard.press("Escape");
      await expect(page.getByRole("menuitem", { name: "个人中心" })).toBeHidden();

      // It does not close by itself; the same newest time does not notify again.
      await alerts.getByRole("button").click();
      await expect(alerts).toHaveCount(0);
      await page.clock.fastForward(POLL_MS);
      await expect.poll(() => calls.length).toBe(3);
      await page.waitForTimeout(300);
      await expect(alerts).toHaveCount(0);

      // A newer complaint notifies again; clicking it opens the list of unprocessed complaints.
      await complain(request, user, `${name}-A2`);
      await page.clock.fastForward(POLL_MS);
      await expect.poll(() => calls.length).toBe(4);
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText("2 条未处理的订餐申诉");
      await page.clock.fastForward(60_000);
      await expect(alerts).toBeVisible();
      await alerts.click();
      await expect(page).toHaveURL(/\/zhct\/mealordercomplaints\/index\?status=0$/);
      await expect(alerts).toHaveCount(0);

      // A status other than 200 is ignored silently.
      await complain(request, user, `${name}-A3`);
      await page.route(`**${COUNT}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: 500, message: "服务繁忙", data: null }) }));
      await page.clock.fastForward(POLL_MS);
      await expect.poll(() => calls.length).toBe(5);
      await page.waitForTimeout(300);
      await expect(alerts).toHaveCount(0);
      await expect(page.getByTestId("complaint-error")).toHaveCount(0);
      await expect(page.getByTestId("error-message")).toHaveCount(0);

      // A failed fetch closes the alerts and shows the persistent error notification.
      await page.unroute(`**${COUNT}`);
      await page.clock.fastForward(POLL_MS);
      await expect(alerts).toHaveCount(1);
      await page.route(`**${COUNT}`, (route) => route.abort("connectionrefused"));
      await page.clock.fastForward(POLL_MS);
      const failure = page.getByTestId("complaint-error");
      await expect(failure).toBeVisible();
      await expect(failure).toContainText("错误");
      await expect(failure).toContainText("获取数据出错：Network Error");
      await expect(alerts).toHaveCount(0);
      await page.clock.fastForward(60_000);
      await expect(failure).toBeVisible();
    });
  });
}
