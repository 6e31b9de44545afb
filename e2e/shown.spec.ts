import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { signInTo } from "./support/shell";

/**
 * What the screens show (issue 38): words, not codes — the operation log, a ledger remark, the dashboard's roles —
 * counts with thousands separators, and a wide list that scrolls sideways with its first column kept.
 */
const { shownClerk } = e2eUsers;

test.describe.configure({ mode: "serial" });

type Api = Awaited<ReturnType<typeof apiAs>>;

async function ok(api: Api, path: string, body: unknown) {
  const result = await api.post(path, body);
  expect(result, `${path} ${JSON.stringify(result)}`).toMatchObject({ status: 200 });
  return result.data;
}

/** Console errors and failed API answers of a page: none may appear that the user did not cause. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("response", (response) => {
    if (response.url().includes("/api/") && response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

test("the operation log, a refund's ledger remark and the dashboard speak Chinese, not codes", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, shownClerk.userName, shownClerk.password);
  // Actions that log: a create and an update of a restaurant, a diner's top-up, a paid order, a cancel, a complaint's refund.
  const restaurant = await ok(api, "/api/v1/auth/org/create", { orgName: "显示一号餐厅", orgType: "restaurant", status: "1" });
  await ok(api, "/api/v1/auth/org/update", { id: restaurant.id, updatedAt: restaurant.updatedAt, orgName: "显示二号餐厅" });
  await ok(api, "/api/v1/zhct/mealTimes/create", { restaurantId: restaurant.id, mealTimeName: "全天餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "0001", userName: "孙显示" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 50_000 });
  const first = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 800 });
  await ok(api, "/api/v1/zhct/mealOrder/cancel", { id: first.orderId, reason: "点错了" });
  const paid = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 1000 });
  const complaint = await ok(api, "/api/v1/zhct/mealOrderComplaints/create", { orderNo: paid.orderNo, orderId: paid.orderId, content: "分量不足" });
  await ok(api, "/api/v1/zhct/mealOrderComplaints/process", { id: complaint.id, result: "processed", reply: "属实", refundAmount: 300 });

  await signInTo(page, shownClerk, "/admin/sys/operationlog/index?pageSize=50");
  const table = page.locator("table");
  const header = (await table.locator("thead th").allInnerTexts()).map((text) => text.replace(/[▲▼⇅]/g, "").trim());
  const column = (label: string) => table.locator(`tbody td:nth-child(${header.indexOf(label) + 1})`).allInnerTexts();
  const entities = await column("数据类型");
  const actions = await column("操作");
  const changes = await column("变更内容");
  expect(entities.length).toBeGreaterThanOrEqual(9);
  // No code (zhct/mealOrder, cancel, orderStatus) and no JSON in any of these cells; "ID" and "IC卡" are the
  // declarations' and dictionaries' own words (申诉人 ID, 支付方式: IC卡).
  for (const cell of [...entities, ...actions, ...changes]) {
    expect(cell.replace(/ ID:|IC卡/g, "")).not.toMatch(/[A-Za-z{}"]/);
  }
  expect(entities).toEqual(expect.arrayContaining(["机构", "订单", "充值退款", "订餐申诉", "人员"]));
  expect(actions).toEqual(expect.arrayContaining(["新增", "修改", "支付", "取消", "退款", "处理"]));
  expect(changes).toContain("机构名称: 显示一号餐厅 → 显示二号餐厅");
  expect(changes.join("\n")).toContain("订单状态: 已支付 → 已取消");
  expect(changes.join("\n")).toContain("单据类型: 订餐申诉");
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: "test-results/shown-operation-log-1366.png" });

  // The refund's ledger line names the complaint in words.
  await page.goto(`/zhct/mealorder/detail/${paid.orderId}`);
  await expect(page.getByTestId("order-payments")).toContainText(`部分退款（订餐申诉 ${complaint.id}）：属实`);

  // The dashboard names the roles, not their codes.
  await page.goto("/admin/dashboard");
  await expect(page.getByText(/角色：/)).toHaveText("显示测试食堂 · 角色：食堂管理员");
});

// After the test above (serial): its restaurant and its two orders fill 订单管理.
test("counts have thousands separators; a wide list scrolls sideways at 1440 px with its first column kept", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, shownClerk.userName, shownClerk.password);
  const restaurant = (await api.get("/api/v1/auth/org/findPage?orgName=显示二号餐厅")).data.records[0];
  const category = await ok(api, "/api/v1/zhct/foodType/create", { typeName: "显示热菜", sort: 1, status: "1" });
  const food = await ok(api, "/api/v1/zhct/food/create", { foodName: "显示大套餐", foodTypeId: category.id, restaurantId: restaurant.id, price: 2500, onShelf: "1" });
  const nutrition = (await api.get(`/api/v1/zhct/foodNutrition/findPage?foodId=${food.id}`)).data.records[0];
  await ok(api, "/api/v1/zhct/foodNutrition/update", { id: nutrition.id, updatedAt: nutrition.updatedAt, energy: 12345 });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInTo(page, shownClerk, `/zhct/foodnutrition/index?foodId=${food.id}`);
  await expect(page.getByRole("cell", { name: "12,345", exact: true })).toBeVisible();

  // 订单管理 is wider than the page at 1440 px: the table scrolls inside its box, the page does not, nothing is cut.
  await page.goto("/zhct/mealorder/index");
  const scroller = page.getByTestId("table-scroll");
  const lastHeader = page.locator("table thead th").last();
  const firstCell = page.locator("table tbody tr").first().locator("td").first();
  await expect(firstCell).toBeVisible();
  const box = (await scroller.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1440);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
  expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await page.screenshot({ path: "test-results/shown-orders-1440.png" });
  await lastHeader.scrollIntoViewIfNeeded();
  const last = (await lastHeader.boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(box.x + box.width + 1);
  expect(last.x).toBeGreaterThanOrEqual(box.x);
  // Scrolled to its end, the order number (the first column: orders are not deleted, no check box) is still in view.
  const kept = (await firstCell.boundingBox())!;
  expect(kept.x).toBeGreaterThanOrEqual(box.x);
  expect(kept.x).toBeLessThan(box.x + 120);
  await page.screenshot({ path: "test-results/shown-orders-1440-scrolled.png" });
});

test("the forced password change page and a user without complaints log no error they did not cause", async ({ page, browser, request }) => {
  const api = await apiAs(request, shownClerk.userName, shownClerk.password);
  const roleId = (await api.get("/api/v1/auth/role/findPage?roleCode=admin")).data.records[0].id;
  await ok(api, "/api/v1/auth/user/create", { user: { userName: "shown.first", realName: "首次登录", status: "1", password: "Shown-First-2026" }, roleIds: [roleId] });
  const errors = watchErrors(page);
  await signInFresh(page, "shown.first", "Shown-First-2026");
  await expect(page).toHaveURL("/admin/auth/user/modifyPasswd");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);

  const context = await browser.newContext();
  const plain = await context.newPage();
  const plainErrors = watchErrors(plain);
  // A clerk whose menus leave complaints out: the shell does not ask for their count.
  await signInTo(plain, e2eUsers.clerk, "/admin/dashboard");
  expect(plainErrors).toEqual([]);
  await context.close();
});
