import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { atWidth, expectNoReactErrors, signInTo, WIDTHS } from "./support/shell";

const POLL_MS = 300_000;
const COUNT = "/api/v1/zhct/mealOrderComplaints/getComplaintsCount";

/** The journey starts from a count of "0": complaints a run before this one left unprocessed are withdrawn. */
async function withdrawComplaints(request: APIRequestContext, user: { userName: string; password: string }) {
  const api = await apiAs(request, user.userName, user.password);
  const pending = await api.get("/api/v1/zhct/mealOrderComplaints/findPage?status=0&pageSize=100");
  expect(pending.status, pending.message).toBe(200);
  for (const { id } of pending.data.records as Array<{ id: number }>) await api.ok("/api/v1/zhct/mealOrderComplaints/revoke", { id });
  expect((await api.get(COUNT)).data).toEqual({ complaintsCount: "0", maxCreatedTime: null });
}

async function complain(request: APIRequestContext, user: { userName: string; password: string }, orderNo: string) {
  const api = await apiAs(request, user.userName, user.password);
  const created = await api.post("/api/v1/zhct/mealOrderComplaints/create", { orderNo, content: `订单 ${orderNo} 少了一份菜` });
  expect(created.status, created.message).toBe(200);
  return created.data as { id: number; createdAt: number };
}

/**
 * Counts, in the page, the complaint-count requests the shell makes (at once, in the timer that fires them) and the
 * answers it has read (before it decides whether to notify), and keeps every notification it shows, however soon
 * it goes: an absence is then checked once the poll that could have broken it was read, and again by the full list.
 */
async function watchPolls(page: Page) {
  await page.addInitScript((path) => {
    const w = window as unknown as { polls: { asked: number; read: number }; shown: Element[] };
    w.polls = { asked: 0, read: 0 };
    w.shown = [];
    const fetch = window.fetch;
    window.fetch = async function (...args: Parameters<typeof window.fetch>) {
      if (!String(args[0] instanceof Request ? args[0].url : args[0]).includes(path)) return fetch.apply(this, args);
      w.polls.asked++;
      let response: Response;
      try {
        response = await fetch.apply(this, args);
      } catch (error) {
        w.polls.read++;
        throw error;
      }
      const json = response.json.bind(response);
      response.json = () => json().finally(() => w.polls.read++);
      return response;
    };
    const watched = ["complaint-notification", "complaint-error", "error-message"].map((id) => `[data-testid=${id}]`).join(",");
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const element of [node, ...node.querySelectorAll(watched)]) {
            if (element.matches(watched) && !w.shown.includes(element)) w.shown.push(element);
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  }, COUNT);
  return {
    polls: () => page.evaluate(() => (window as unknown as { polls: { asked: number; read: number } }).polls),
    /** Every notification shown since the page loaded, in order, as "test id: text". */
    shown: () => page.evaluate(() => (window as unknown as { shown: Element[] }).shown.map((e) => `${e.getAttribute("data-testid")}: ${e.textContent}`)),
  };
}

test.describe.configure({ timeout: 90_000 });
test.afterEach(({ page }) => expectNoReactErrors(page));

for (const { name, width } of WIDTHS) {
  test.describe(`complaint alerts at ${name} px`, () => {
    atWidth(width);
    const user = width > 992 ? e2eUsers.alertWide : e2eUsers.alertNarrow;

    test("the count is asked once and every 5 minutes; only a newer complaint notifies; a failure says why", async ({ page, request }) => {
      await withdrawComplaints(request, user);
      const watch = await watchPolls(page);
      await page.clock.install();
      await signInTo(page, user, "/admin/dashboard");
      const alerts = page.getByTestId("complaint-notification");
      const notice = (count: number) => `complaint-notification: 订餐申诉提醒您有 ${count} 条未处理的订餐申诉，点击查看`;

      // Count "0": asked once when the shell appears, its answer read, nothing shown.
      await expect.poll(watch.polls).toEqual({ asked: 1, read: 1 });
      await expect(alerts).toHaveCount(0);
      expect(await watch.shown()).toEqual([]);

      // A complaint arrives: the next poll, five minutes later, notifies. The clock's timers fire within
      // fastForward, the poll's request among them.
      await complain(request, user, `${name}-A1`);
      await page.clock.fastForward(POLL_MS - 30_000);
      expect((await watch.polls()).asked).toBe(1);
      await page.clock.fastForward(30_000);
      await expect.poll(watch.polls).toEqual({ asked: 2, read: 2 });
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText("1 条未处理的订餐申诉");
      // Nothing came of the first poll, then or since.
      expect(await watch.shown()).toEqual([notice(1)]);
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
      await expect.poll(watch.polls).toEqual({ asked: 3, read: 3 });
      await expect(alerts).toHaveCount(0);
      expect(await watch.shown()).toEqual([notice(1)]);

      // A newer complaint notifies again; clicking it opens the list of unprocessed complaints.
      await complain(request, user, `${name}-A2`);
      await page.clock.fastForward(POLL_MS);
      await expect.poll(watch.polls).toEqual({ asked: 4, read: 4 });
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText("2 条未处理的订餐申诉");
      expect(await watch.shown()).toEqual([notice(1), notice(2)]);
      await page.clock.fastForward(60_000);
      await expect(alerts).toBeVisible();
      await alerts.click();
      await expect(page).toHaveURL(/\/zhct\/mealordercomplaints\/index\?status=0$/);
      await expect(alerts).toHaveCount(0);

      // A status other than 200 is ignored silently.
      await complain(request, user, `${name}-A3`);
      await page.route(`**${COUNT}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: 500, message: "服务繁忙", data: null }) }));
      await page.clock.fastForward(POLL_MS);
      await expect.poll(watch.polls).toEqual({ asked: 5, read: 5 });
      await expect(alerts).toHaveCount(0);
      await expect(page.getByTestId("complaint-error")).toHaveCount(0);
      await expect(page.getByTestId("error-message")).toHaveCount(0);
      expect(await watch.shown()).toEqual([notice(1), notice(2)]);

      // A failed fetch closes the alerts and shows the persistent error notification.
      await page.unroute(`**${COUNT}`);
      await page.clock.fastForward(POLL_MS);
      await expect(alerts).toHaveCount(1);
      expect(await watch.shown()).toEqual([notice(1), notice(2), notice(3)]);
      await page.route(`**${COUNT}`, (route) => route.abort("connectionrefused"));
      await page.clock.fastForward(POLL_MS);
      const failure = page.getByTestId("complaint-error");
      await expect(failure).toBeVisible();
      await expect(failure).toContainText("错误");
      await expect(failure).toContainText("获取数据出错：Network Error");
      await expect(alerts).toHaveCount(0);
      await page.clock.fastForward(60_000);
      await expect(failure).toBeVisible();
      expect(await watch.shown()).toEqual([notice(1), notice(2), notice(3), "complaint-error: 错误获取数据出错：Network Error"]);
    });
  });
}
