import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { pick } from "./support/shell";

const { ticketClerk: clerk, ticketApprover: approver } = e2eUsers;

test.describe.configure({ mode: "serial" });

test("a meal ticket is set up, applied for, approved by the setting's approver (without JavaScript), pays a meal and shows as partly used", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "TK-001", userName: "李加班" });
  expect(diner.status).toBe(200);

  // The setting: 加班 tickets worth 15.00 for every meal, approved by 审批经理.
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/mealticketsetting/create");
  await page.getByRole("combobox", { name: "餐券类型" }).selectOption({ label: "加班" });
  await page.getByRole("textbox", { name: "面值（元）" }).fill("15");
  await page.getByRole("checkbox", { name: "早餐可用" }).check();
  await page.getByRole("checkbox", { name: "夜宵可用" }).check();
  await pick(page, "审批人", "审批经理");
  await page.getByLabel("默认有效天数").fill("3");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealticketsetting\/index$/);
  await expect(page.getByRole("cell", { name: "加班" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "15.00" })).toBeVisible();

  // The application: two meals from today.
  await page.goto("/zhct/mealticket/create");
  await pick(page, "就餐人员", "李加班");
  await page.getByRole("combobox", { name: "餐券类型" }).selectOption({ label: "加班" });
  await page.getByLabel("张数").fill("2");
  await page.getByRole("textbox", { name: "申请事由" }).fill("周末系统上线加班");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealticket\/index$/);
  const row = page.getByRole("row").filter({ hasText: "周末系统上线加班" });
  await expect(row.getByRole("cell", { name: "未审批" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "申请员" })).toBeVisible();

  // The applicant may not approve their own application: the page says so and nothing changes.
  await row.getByRole("link", { name: "审批" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealticket\/approve\/\d+$/);
  const approvePath = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "审批通过" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "不能审批自己申请的餐券" })).toBeVisible();
  await expect(page.getByTestId("ticket-status")).toHaveText("未审批");

  // The approver, on a terminal whose scripts never arrive: 驳回 without a reason is refused, 审批通过 goes through.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const approverPage = await noScript.newPage();
  await signInFresh(approverPage, approver.userName, approver.password, approvePath);
  await expect(approverPage.getByTestId("ticket-status")).toHaveText("未审批");
  await approverPage.screenshot({ path: "test-results/screenshots/zhct-ticket-approve-1280.png", fullPage: true });
  await approverPage.getByRole("button", { name: "驳回" }).click();
  await expect(approverPage.getByText("请填写驳回理由")).toBeVisible();
  await approverPage.getByRole("textbox", { name: "审批意见" }).fill("同意，限本周使用");
  await approverPage.getByRole("button", { name: "审批通过" }).click();
  await expect(approverPage).toHaveURL(/\/zhct\/mealticket\/index$/);
  await expect(approverPage.getByText("餐券已审批通过")).toBeVisible();
  await noScript.close();

  // A meal paid by the ticket at the cashier (加班餐券, userAccountFlag 3): one of two uses taken.
  const paid = await request.post("/api/v1/zhct/cashier/pay", {
    headers: { Authorization: `Bearer ${api.token}`, "Idempotency-Key": "e2e-ticket-pay-1" },
    data: { userInfoId: diner.data.id, amount: 1200, payFlag: 3 },
  });
  const order = (await paid.json()) as { status: number; data: { amount: number; orderNo: string } };
  expect(order).toMatchObject({ status: 200, data: { amount: 1200 } });

  await page.goto("/zhct/mealticket/index");
  const used = page.getByRole("row").filter({ hasText: "周末系统上线加班" });
  await expect(used.getByRole("cell", { name: "通过" })).toBeVisible();
  await expect(used.getByRole("cell", { name: "部分使用" })).toBeVisible();
  await expect(used.getByRole("cell", { name: "审批经理" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-ticket-list-1280.png", fullPage: true });

  // The dishware brought back from that meal: the order is picked by its number, its diner comes with it.
  await page.goto("/zhct/mealrecovery/create");
  await pick(page, "订单", order.data.orderNo);
  await page.getByLabel("回收餐具（个）").fill("2");
  await page.getByLabel("剩余重量（克）").fill("35");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealrecovery\/index$/);
  const recovered = page.getByRole("row").filter({ hasText: order.data.orderNo });
  await expect(recovered.getByRole("cell", { name: "李加班" })).toBeVisible();
  await expect(recovered.getByRole("cell", { name: "已回收" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-recovery-list-1280.png", fullPage: true });
  await page.goto("/zhct/mealticketsetting/index");
  await page.screenshot({ path: "test-results/screenshots/zhct-ticket-setting-list-1280.png", fullPage: true });
});
