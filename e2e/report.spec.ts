import ExcelJS from "exceljs";
import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { sheetAsShown, tableText } from "./support/report";
import { untilHydrated } from "./support/shell";
import { e2eUsers } from "./support/servers";

/**
 * Issue 15: reports opened from bookmarks with their filters, a drill-down, an export read back against the screen,
 * the print view, a refused filter without JavaScript, and the dashboard's figures of today (decision 030).
 * A day of the report tenant's own: two lunches at 一号餐厅 and one sale by amount.
 */

const clerk = e2eUsers.reptClerk;
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
let restaurantId = 0;
let deptId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  const ok = api.ok;
  deptId = (await ok("/api/v1/auth/org/create", { orgName: "研发部", orgType: "department", status: "1" })).id;
  restaurantId = (await ok("/api/v1/auth/org/create", { orgName: "一号餐厅", orgType: "restaurant", status: "1" })).id;
  const a = await ok("/api/v1/zhct/userInfo/create", { userCode: "RP-001", userName: "王报表", deptId });
  const b = await ok("/api/v1/zhct/userInfo/create", { userCode: "RP-002", userName: "赵统计", deptId });
  await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: a.id, amount: 10000, accountType: "cash" });
  await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: b.id, amount: 5000, accountType: "cash" });
  const category = await ok("/api/v1/zhct/foodType/create", { typeName: "热菜", sort: 1, status: "1" });
  const mealTime = await ok("/api/v1/zhct/mealTimes/create", { restaurantId, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const menuType = await ok("/api/v1/zhct/foodMenuType/create", { typeName: "报表午餐", restaurantId, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const menu = await ok("/api/v1/zhct/foodMenu/create", { menuDate: today, foodMenuTypeId: menuType.id, status: "0" });
  const foods: number[] = [];
  for (const [foodName, price] of [["红烧肉", 1200], ["米饭", 300]] as const) {
    const food = await ok("/api/v1/zhct/food/create", { foodName, foodTypeId: category.id, restaurantId, price, onShelf: "1" });
    await ok("/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: food.id, price, sort: 0 });
    foods.push(food.id);
  }
  await ok("/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: a.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0], quantity: 1 }, { foodId: foods[1], quantity: 2 }] });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: b.id, mealTimesId: mealTime.id, items: [{ foodId: foods[0], quantity: 1 }] });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: b.id, amount: 350, payFlag: 2 });
});

/** The totals row's cells as shown. */
const totals = (page: Page) => page.getByTestId("report-totals").getByRole("columnheader");

test("three reports open from bookmarks with their filters; a day drills down to its orders", async ({ page }) => {
  const summary = `/report/dailyordersummary/index?from=${today}&to=${today}&restaurantId=${restaurantId}`;
  await signInFresh(page, clerk.userName, clerk.password, summary);
  await expect(page).toHaveURL(new RegExp(`restaurantId=${restaurantId}`));
  await expect(page.getByRole("heading", { name: "订单日汇总" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveValue(String(restaurantId));
  // 合计, 2 orders, 0 cancelled, 30.00 paid, 0.00 refunded, 30.00 实收 (all of it lunch).
  await expect(totals(page).nth(0)).toHaveText("合计");
  await expect(totals(page).nth(1)).toHaveText("2");
  await expect(totals(page).nth(5)).toHaveText("30.00");
  await expect(totals(page).nth(7)).toHaveText("30.00");
  // The chart library arrives after the page: the bar is drawn once it has.
  await expect(page.getByTestId("report-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/report-daily-summary-1280.png", fullPage: true });

  await page.getByRole("link", { name: today }).click();
  await expect(page).toHaveURL(new RegExp(`/report/dailyorderdetail/index\\?from=${today}&to=${today}&restaurantId=${restaurantId}`));
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(2);
  await expect(totals(page).nth(11)).toHaveText("30.00");
  await page.screenshot({ path: "test-results/screenshots/report-daily-detail-1280.png", fullPage: true });

  await page.goto(`/report/foodcount/index?from=${today}&to=${today}&mealType=lunch`);
  await expect(page.getByRole("combobox", { name: "餐别" })).toHaveValue("lunch");
  const rows = page.getByTestId("report-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("红烧肉");
  await expect(rows.nth(0)).toContainText("24.00");
  await expect(rows.nth(1)).toContainText("米饭");
  await expect(totals(page).nth(4)).toHaveText("4");

  await page.goto(`/report/personalledger/index?from=${today}&to=${today}&userCode=RP-002`);
  await expect(page.getByRole("textbox", { name: "人员编号" })).toHaveValue("RP-002");
  const ledger = page.getByTestId("report-table").locator("tbody tr");
  await expect(ledger.first()).toContainText("期初余额");
  // 50.00 in, 12.00 and 3.50 out: 34.50 at the close.
  await expect(ledger.last()).toContainText("期末余额");
  await expect(ledger.last()).toContainText("34.50");
  await expect(totals(page).nth(6)).toHaveText("50.00");
  await expect(totals(page).nth(7)).toHaveText("15.50");
  await page.screenshot({ path: "test-results/screenshots/report-personal-ledger-1280.png", fullPage: true });

  await page.goto(`/report/accounttypedaily/index?from=${today}&to=${today}`);
  await expect(page.getByTestId("report-chart").locator(".recharts-pie-sector").first()).toBeVisible();
  await expect(page.getByTestId("report-chart")).toContainText("现金账户");
  await page.screenshot({ path: "test-results/screenshots/report-account-type-1280.png", fullPage: true });
});

test("an export is the screen: the same headers, rows and totals, yuan as numbers", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/deptdining/index?from=${today}&to=${today}`);
  await expect(page.getByTestId("report-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/report-dept-1280.png", fullPage: true });
  const screen = await tableText(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`部门就餐统计-${today}-${today}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(String(sheet.getRow(1).getCell(1).value)).toBe("部门就餐统计");
  expect(String(sheet.getRow(2).getCell(1).value)).toContain(`${today} 至 ${today}`);
  expect(sheetAsShown(sheet, screen[0].length)).toEqual(screen);
  expect(screen.at(-1)).toEqual(["合计", "2", "3", "33.50"]);
});

test("the print view: the report alone on A4, its filters and time in the header", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/dailyordersummary/index?from=${today}&to=${today}&restaurantId=${restaurantId}`);
  const [print] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("link", { name: "打印" }).click()]);
  await expect(print).toHaveURL(new RegExp(`/report/dailyordersummary/print\\?from=${today}&to=${today}&restaurantId=${restaurantId}`));
  const sheet = print.getByTestId("report-print");
  await expect(sheet.getByRole("heading", { name: "订单日汇总" })).toBeVisible();
  await expect(sheet).toContainText(`${today} 至 ${today}；餐厅：一号餐厅`);
  await expect(sheet).toContainText(/打印时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  // No shell around it, and printing leaves out the buttons.
  await expect(print.getByTestId("subsystem-switcher")).toHaveCount(0);
  await print.emulateMedia({ media: "print" });
  await expect(print.getByRole("button", { name: "打印" })).toBeHidden();
  await expect(sheet.getByTestId("report-totals")).toContainText("30.00");
  await print.screenshot({ path: "test-results/screenshots/report-print-1280.png", fullPage: true });
});

test("without JavaScript the filters are a GET form; a bad date is refused at its field", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInFresh(page, clerk.userName, clerk.password, `/report/userconsumption/index?from=${today}&to=${today}`);
  await page.getByRole("combobox", { name: "部门" }).selectOption({ label: "研发部" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`deptId=${deptId}`));
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(2);
  await page.getByRole("link", { name: "RP-002" }).click();
  await expect(page).toHaveURL(/\/report\/personalledger\/index\?.*userCode=RP-002/);
  await page.goto(`/report/dailyordersummary/index?from=2026-02-30&restaurantId=${restaurantId}`);
  await expect(page.getByText("日期格式应为 2026-05-01")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveValue(String(restaurantId));
  await expect(page.getByRole("textbox", { name: "开始日期" })).toHaveValue("");
  await context.close();
});

test("the dashboard shows today's canteen figures, each leading to its report", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, "/admin/dashboard");
  await expect(page.getByTestId("canteen-orders")).toHaveText("3");
  await expect(page.getByTestId("canteen-net")).toHaveText("33.50");
  await expect(page.getByTestId("canteen-topUp")).toHaveText("150.00");
  await expect(page.getByTestId("canteen-activeDiners")).toHaveText("2");
  await expect(page.getByTestId("canteen-meals").getByRole("row", { name: /午餐/ })).toContainText("30.00");
  await expect(page.getByTestId("dashboard-trend")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/report-dashboard-1280.png", fullPage: true });
  await page.getByRole("link", { name: /今日订单/ }).click();
  await expect(page).toHaveURL(new RegExp(`/report/dailyorderdetail/index\\?from=${today}&to=${today}$`));
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(3);
});

test("a long report shows a page of rows with links to the others, before and after JavaScript; totals and export cover every row", async ({ browser, request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  const diner = await api.ok("/api/v1/zhct/userInfo/create", { userCode: "RP-003", userName: "钱分页", deptId });
  for (let i = 0; i < 12; i++) await api.ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 100, accountType: "cash" });
  // 期初余额, twelve top-ups of 1.00 and 期末余额: fourteen rows, ten a page.
  const bookmark = `/report/personalledger/index?from=${today}&to=${today}&userCode=RP-003&pageSize=10`;

  const bare = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await bare.newPage();
  await signInFresh(noScript, clerk.userName, clerk.password, bookmark);
  const rows = noScript.getByTestId("report-table").locator("tbody tr");
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText("期初余额");
  await expect(noScript.getByText("共 14 条")).toBeVisible();
  await expect(totals(noScript).nth(6)).toHaveText("12.00");
  await noScript.getByRole("link", { name: "第 2 页" }).click();
  await expect(noScript).toHaveURL(/pageNum=2/);
  await expect(rows).toHaveCount(4);
  await expect(rows.last()).toContainText("期末余额");
  await expect(rows.last()).toContainText("12.00");
  await expect(totals(noScript).nth(6)).toHaveText("12.00");
  // A new query starts again at page 1 and keeps the page size.
  await noScript.getByRole("button", { name: "查询" }).click();
  await expect(noScript).toHaveURL(/pageSize=10/);
  await expect(noScript).not.toHaveURL(/pageNum/);
  await expect(rows).toHaveCount(10);
  await bare.close();

  const page = await browser.newPage();
  await signInFresh(page, clerk.userName, clerk.password, `${bookmark}&pageNum=99`);
  // A page past the last shows the last.
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(4);
  await untilHydrated(page);
  await page.getByRole("link", { name: "第 1 页" }).click();
  await expect(page).toHaveURL(/pageNum=1/);
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(10);
  await page.screenshot({ path: "test-results/screenshots/report-paged-1280.png", fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = sheetAsShown(workbook.worksheets[0], 9);
  // The header, every one of the fourteen rows, and the totals.
  expect(sheet).toHaveLength(16);
  expect(sheet.at(-2)?.join(" ")).toContain("期末余额");
  await page.close();
});
