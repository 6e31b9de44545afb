import ExcelJS from "exceljs";
import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { analyze, withAxe } from "./support/axe";
import { signInFresh } from "./support/auth";
import { sheetAsShown, tableText } from "./support/report";
import { e2eUsers } from "./support/servers";

/**
 * Issue 15, attendance reports (decision 033): opened from bookmarks with their filters, a drill-down from a
 * department to its diners and from a day to its orders, an export read back against the screen, the print view.
 * A day of the attendance tenant's own: a card lunch, a cashier lunch, a takeaway, a missed booking, three top-ups.
 */

const clerk = e2eUsers.attendClerk;
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
let restaurantId = 0;
let deptId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  const ok = api.ok;
  deptId = (await ok("/api/v1/auth/org/create", { orgName: "研发部", orgType: "department", status: "1" })).id;
  const finance = (await ok("/api/v1/auth/org/create", { orgName: "财务部", orgType: "department", status: "1" })).id;
  restaurantId = (await ok("/api/v1/auth/org/create", { orgName: "一号餐厅", orgType: "restaurant", status: "1" })).id;
  const a = await ok("/api/v1/zhct/userInfo/create", { userCode: "AT-001", userName: "王刷卡", deptId });
  const b = await ok("/api/v1/zhct/userInfo/create", { userCode: "AT-002", userName: "赵收银", deptId });
  const c = await ok("/api/v1/zhct/userInfo/create", { userCode: "AT-003", userName: "钱未到", deptId: finance });
  await ok("/api/v1/zhct/userIcCard/create", { cardNo: "ATCARD01", userInfoId: a.id, cardType: "1" });
  for (const [who, amount] of [[a, 10000], [b, 5000], [c, 2000]] as const) await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: who.id, amount, accountType: "cash" });
  const category = await ok("/api/v1/zhct/foodType/create", { typeName: "热菜", sort: 1, status: "1" });
  const mealTime = await ok("/api/v1/zhct/mealTimes/create", { restaurantId, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const menuType = await ok("/api/v1/zhct/foodMenuType/create", { typeName: "考勤午餐", restaurantId, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const menu = await ok("/api/v1/zhct/foodMenu/create", { menuDate: today, foodMenuTypeId: menuType.id, status: "0" });
  const food = await ok("/api/v1/zhct/food/create", { foodName: "红烧肉", foodTypeId: category.id, restaurantId, price: 1200, onShelf: "1" });
  await ok("/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: food.id, price: 1200, sort: 0 });
  await ok("/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  await ok("/api/v1/zhct/appointmentPeriod/create", { periodName: "午餐预约", restaurantId, mealTimesId: mealTime.id, beginDate: today, endDate: today, capacity: 10, deadlineDays: 0, deadlineTime: "23:59", status: "1" });
  for (const who of [a, c]) await ok("/api/v1/zhct/appointmentDetail/create", { userInfoId: who.id, mealTimesId: mealTime.id, appointmentDate: today });
  const point = await ok("/api/v1/zhct/deliveryPoint/create", { restaurantId, pointName: "A座大堂", pointType: "2", sort: 0, status: "1" });
  const slot = await ok("/api/v1/zhct/deliveryTime/create", { mealTimesId: mealTime.id, slotName: "午餐送达", beginTime: "11:30", endTime: "12:00", capacity: 10, status: "1" });
  await ok("/api/v1/zhct/cashier/pay", { cardNo: "ATCARD01", mealTimesId: mealTime.id, items: [{ foodId: food.id, quantity: 2 }] });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: b.id, mealTimesId: mealTime.id, items: [{ foodId: food.id, quantity: 1 }] });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: b.id, amount: 1000, mealTimesId: mealTime.id, orderType: "3", deliveryPointId: point.id, deliveryTimeId: slot.id });
});

/** The totals row's cells as shown. */
const totals = (page: Page) => page.getByTestId("report-totals").getByRole("columnheader");

test("刷卡统计 from a bookmark: figures, the chart, a day drilling down to its orders", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/cardswipe/index?from=${today}&to=${today}&restaurantId=${restaurantId}&mealType=lunch`);
  await expect(page.getByRole("heading", { name: "刷卡统计" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveValue(String(restaurantId));
  await expect(page.getByRole("combobox", { name: "餐别" })).toHaveValue("lunch");
  // 1 card swipe, 2 others (a cashier lunch and a takeaway), 3 meals, 2 diners, 46.00.
  await expect(totals(page)).toHaveText(["合计", "", "", "1", "2", "3", "2", "46.00"]);
  await expect(page.getByTestId("report-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/report-card-swipe-1280.png", fullPage: true });
  await page.getByRole("link", { name: today }).click();
  await expect(page).toHaveURL(new RegExp(`/report/dailyorderdetail/index\\?from=${today}&to=${today}&restaurantId=${restaurantId}&mealType=lunch`));
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(3);
});

test("部门预约统计 from a bookmark: a department drills down to its diners; 未刷卡 lists who missed", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/deptbooking/index?from=${today}&to=${today}`);
  const rows = page.getByTestId("report-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  // 财务部: c booked and has not eaten yet; 研发部: a booked and ate.
  await expect(rows.nth(0).getByRole("cell")).toHaveText(["财务部", "1", "1", "0", "0", "0", "1"]);
  await expect(rows.nth(1).getByRole("cell")).toHaveText(["研发部", "1", "1", "0", "1", "0", "0"]);
  await expect(totals(page)).toHaveText(["合计", "2", "2", "0", "1", "0", "1"]);
  await page.getByRole("link", { name: "研发部" }).click();
  await expect(page).toHaveURL(new RegExp(`/report/personaldining/index\\?from=${today}&to=${today}&deptId=${deptId}`));
  const diners = page.getByTestId("report-table").locator("tbody tr");
  await expect(diners).toHaveCount(2);
  await expect(diners.nth(0)).toContainText("王刷卡");
  await expect(diners.nth(1)).toContainText("赵收银");
  await expect(totals(page).last()).toHaveText("46.00");

  await page.goto(`/report/noswipe/index?from=${today}&to=${today}`);
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("report-table").locator("tbody tr").first()).toContainText("钱未到");
  await expect(page.getByTestId("report-table").locator("tbody tr").first()).toContainText("预约");
});

test("an export of 个人就餐统计 is the screen: the same headers, rows and totals, yuan as numbers", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/personaldining/index?from=${today}&to=${today}`);
  await expect(page.getByTestId("report-table").locator("tbody tr")).toHaveCount(2);
  const screen = await tableText(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`个人就餐统计-${today}-${today}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(String(sheet.getRow(1).getCell(1).value)).toBe("个人就餐统计");
  expect(sheetAsShown(sheet, screen[0].length)).toEqual(screen);
  // 3 lunches on one day each of two diners: 24.00 + 22.00.
  expect(screen.at(-1)).toEqual(["合计", "", "", "0", "3", "0", "0", "0", "3", "2", "46.00"]);
});

test("the print view of 充值机汇总: the report alone, its filters in the header", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/chargemachine/print?from=${today}&to=${today}`);
  const sheet = page.getByTestId("report-print");
  await expect(sheet.getByRole("heading", { name: "充值机汇总" })).toBeVisible();
  await expect(sheet).toContainText(`${today} 至 ${today}`);
  await expect(page.getByTestId("subsystem-switcher")).toHaveCount(0);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "打印" })).toBeHidden();
  // Three top-ups in the back office: 170.00.
  await expect(sheet.getByTestId("report-table").locator("tbody tr").first()).toContainText("后台");
  await expect(sheet.getByTestId("report-totals")).toContainText("170.00");
  await page.screenshot({ path: "test-results/screenshots/report-charge-machine-print-1280.png", fullPage: true });
});

test("充值机汇总's pie, drawn from this day's top-ups, has no WCAG 2.1 A/AA violation: its legend speaks, the pie is hidden and takes no focus", async ({ page, context }) => {
  await withAxe(context);
  await signInFresh(page, clerk.userName, clerk.password, `/report/chargemachine/index?from=${today}&to=${today}`);
  const chart = page.getByTestId("report-chart");
  await expect(chart.locator(".recharts-pie-sector").first()).toBeVisible();
  // The legend: the operator who made the three top-ups, 170.00, all of it.
  await expect(chart).toContainText(`${clerk.userName}170.00100.0%`);
  const results = await analyze(page, "[data-testid=report-chart]");
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(" | ")}`)).toEqual([]);
});
