import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, expectNoReactErrors, pick, untilHydrated } from "./support/shell";

/*
 * Issue 37's journey through 收支管理 in Chromium: the day's canteen takings (orders paid at a restaurant, one
 * cancelled) are generated into income, a purchase of vegetables is entered in the lines grid and partly paid, an
 * expense is entered, and the direct cost share and the margin report show them — the margin exported as XLSX.
 */

const { scAccountant: accountant } = e2eUsers;
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/sc-${name}.png`, fullPage: true });
const chinaDay = (days = 0) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
const today = chinaDay();
const month = today.slice(0, 7);
const tag = Date.now().toString(36).slice(-5);
const RESTAURANT = `收支餐厅${tag}`;
const SUPPLIER = `城南菜市${tag}`;
const PRODUCT = `小白菜${tag}`;

/** The Chinese calendar has taken the place of the browser's date input (decision 065): typing goes to it, not to the input it hides. */
const calendarShown = (page: Page, name: string) => expect(page.locator(`input[type="date"][name="${name}"]`)).toBeHidden();

test("income generated from the day's orders, a purchase entered and partly paid, an expense entered, and the cost share and margin read and exported", async ({ page, request }) => {
  test.setTimeout(180_000);
  const api = await apiAs(request, accountant.userName, accountant.password);
  const restaurantId = (await api.ok("/api/v1/auth/org/create", { orgName: RESTAURANT, orgType: "restaurant", status: "1" })).id;
  const diner = await api.ok("/api/v1/zhct/userInfo/create", { userCode: `SC-${tag}`, userName: "钱收支" });
  await api.ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 20000, accountType: "cash" });
  // Three sales by amount at the restaurant's counter: 30.00 + 12.50 + 8.00, the last cancelled.
  for (const amount of [3000, 1250]) await api.ok("/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount, payFlag: 0, restaurantId });
  const cancelled = await api.ok<{ orderId: number }>("/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 800, payFlag: 0, restaurantId });
  await api.ok("/api/v1/zhct/mealOrder/cancel", { id: cancelled.orderId, reason: "点错" });
  await api.ok("/api/v1/sc/scSupplier/create", { supplierName: SUPPLIER });
  await api.ok("/api/v1/sc/scProduct/create", { productName: PRODUCT, unitName: "千克" });

  await signInFresh(page, accountant.userName, accountant.password, "/sc/scincome/generate");
  await untilHydrated(page);
  await calendarShown(page, "from");
  // The day's income from the orders: 42.50 at the restaurant, two meals.
  await dateField(page, "开始日期").fill(today);
  await dateField(page, "结束日期").fill(today);
  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page.getByTestId("generate-result")).toContainText(`${today} 至 ${today} 已生成`);
  await shot(page, "income-generated");
  await page.goto(`/sc/scincome/index?restaurantId=${restaurantId}`);
  const incomeRow = page.getByRole("row").filter({ hasText: RESTAURANT });
  await expect(incomeRow).toHaveCount(1);
  await expect(incomeRow).toContainText("42.50");
  await expect(incomeRow).toContainText("订单生成");
  await shot(page, "income-list");

  // A purchase of vegetables for the restaurant: 12.5 kg at 3.20 and 2.345 kg at 5.00 → 40.00 + 11.73 = 51.73.
  await page.goto("/sc/scpurchase/create");
  await untilHydrated(page);
  // 供应商 and 仓库供应商 are two pickers: this one by its exact name.
  const supplierBox = page.getByRole("textbox", { name: "供应商", exact: true });
  await supplierBox.click();
  await supplierBox.fill(SUPPLIER);
  await page.getByRole("listbox", { name: "供应商", exact: true }).getByRole("option", { name: SUPPLIER }).click();
  await pick(page, "餐厅/商户", RESTAURANT);
  await calendarShown(page, "purchaseDate");
  await dateField(page, "采购日期").fill(today);
  const grid = page.getByTestId("lines-grid");
  for (const [row, [quantity, price]] of [["12.5", "3.20"], ["2.345", "5.00"]].entries()) {
    const cell = grid.getByRole("textbox", { name: `第 ${row + 1} 行 商品`, exact: true });
    await cell.click();
    await cell.fill(PRODUCT);
    await page.getByRole("option", { name: PRODUCT }).first().click();
    await grid.getByLabel(`第 ${row + 1} 行 数量`, { exact: true }).fill(quantity);
    await grid.getByLabel(`第 ${row + 1} 行 单价（元）`, { exact: true }).fill(price);
  }
  await shot(page, "purchase-editor");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/sc\/scpurchase\/detail\/\d+$/);
  await expect(page.getByTestId("document-status")).toHaveText("未付款");
  await expect(page.getByTestId("document-lines").getByTestId("total-amount")).toHaveText("51.73");
  // Paying more than is left is refused in the step; 20.00 makes it partly paid.
  await page.getByRole("button", { name: "登记付款", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("本次付款（元）").fill("60");
  await dialog.getByRole("button", { name: "确认登记付款" }).click();
  // The refusal shows in the step, what was typed kept; 20.00 is then paid from there.
  const step = page.getByTestId("confirm-pay");
  await expect(step.getByRole("alert").filter({ hasNot: page.getByTestId("confirm-summary") }).and(step.locator(":not([data-testid])"))).toHaveText("本次付款应小于未付金额 51.73 元；全额付款请用「付清」");
  await expect(step.getByLabel("本次付款（元）")).toHaveValue("60");
  await shot(page, "purchase-pay-refused");
  await step.getByLabel("本次付款（元）").fill("20");
  await step.getByRole("button", { name: "确认登记付款" }).click();
  await expect(page.getByTestId("document-status")).toHaveText("部分付款");
  await expect(page.locator("div").filter({ has: page.getByText("已付金额（元）：", { exact: true }) }).last()).toHaveText("已付金额（元）：20.00");
  await shot(page, "purchase-paid");

  // An expense of the month: the restaurant's electricity, 100.00.
  await page.goto("/sc/sccostexpense/create");
  await untilHydrated(page);
  await page.getByLabel("所属月份").fill(month);
  await pick(page, "餐厅/商户", RESTAURANT);
  await page.getByRole("combobox", { name: "费用类别" }).selectOption({ label: "水电" });
  await page.getByLabel("金额（元）").fill("100");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/sc\/sccostexpense\/index/);

  // The cost share: 51.73 of food over two meals → 25.87 a meal; 51.73 / 42.50 → 1.22 per yuan of sales.
  await page.goto(`/sc/sccostexpense/orderCostCount/index?from=${today}&to=${today}&restaurantId=${restaurantId}`);
  const table = page.getByTestId("report-table");
  const costRow = table.getByRole("row").filter({ hasText: RESTAURANT });
  await expect(costRow).toContainText("51.73");
  await expect(costRow).toContainText("25.87");
  await expect(costRow).toContainText("1.22");
  await shot(page, "cost-share");

  // The margin: 42.50 − 51.73 − 100.00 = −109.23, −257.01%.
  await page.goto(`/sc/sccostexpense/profitCount/index?fromMonth=${month}&toMonth=${month}&restaurantId=${restaurantId}`);
  const marginRow = page.getByTestId("report-table").getByRole("row").filter({ hasText: RESTAURANT });
  await expect(marginRow).toContainText("-109.23");
  await expect(marginRow).toContainText("-257.01%");
  await shot(page, "margin");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "导出" }).click();
  expect((await download).suggestedFilename()).toMatch(/^经营毛利-.*\.xlsx$/);
  expectNoReactErrors(page);
});
