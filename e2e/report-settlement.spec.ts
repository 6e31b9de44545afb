import ExcelJS from "exceljs";
import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { sheetAsShown, tableText } from "./support/report";
import { e2eUsers } from "./support/servers";

/**
 * Decision 032: two settlement reports opened from bookmarks with their filters, one exported and read back against
 * the screen, and its print view. The settle tenant's own sales: two lunches at 一号餐厅, shared 60/30 by two merchants.
 */

const clerk = e2eUsers.settleRptClerk;
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const month = today.slice(0, 7);
let restaurantId = 0;
let deptId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  const ok = api.ok;
  deptId = (await ok("/api/v1/auth/org/create", { orgName: "教务处", orgType: "department", status: "1" })).id;
  restaurantId = (await ok("/api/v1/auth/org/create", { orgName: "一号餐厅", orgType: "restaurant", status: "1" })).id;
  const a = await ok("/api/v1/zhct/userInfo/create", { userCode: "ST-001", userName: "王老师", deptId, staffType: "教师" });
  const b = await ok("/api/v1/zhct/userInfo/create", { userCode: "ST-002", userName: "李老师", deptId, staffType: "教师" });
  await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: a.id, amount: 10000, accountType: "cash" });
  await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: b.id, amount: 1000, accountType: "cash" });
  await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: b.id, amount: 1000, accountType: "subsidy" });
  const category = await ok("/api/v1/zhct/foodType/create", { typeName: "热菜", sort: 1, status: "1" });
  const mealTime = await ok("/api/v1/zhct/mealTimes/create", { restaurantId, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const menuType = await ok("/api/v1/zhct/foodMenuType/create", { typeName: "结算午餐", restaurantId, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const menu = await ok("/api/v1/zhct/foodMenu/create", { menuDate: today, foodMenuTypeId: menuType.id, status: "0" });
  const food = await ok("/api/v1/zhct/food/create", { foodName: "套餐", foodTypeId: category.id, restaurantId, price: 1001, onShelf: "1" });
  await ok("/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: food.id, price: 1001, sort: 0 });
  await ok("/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: a.id, mealTimesId: mealTime.id, items: [{ foodId: food.id, quantity: 2 }] });
  await ok("/api/v1/zhct/cashier/pay", { userInfoId: b.id, mealTimesId: mealTime.id, items: [{ foodId: food.id, quantity: 1 }] });
  const m1 = await ok("/api/v1/sys/merchant/create", { merchantCode: "ST-M1", merchantName: "甲商户", status: "1" });
  const m2 = await ok("/api/v1/sys/merchant/create", { merchantCode: "ST-M2", merchantName: "乙商户", status: "1" });
  await ok("/api/v1/zhct/merchantDivide/create", { restaurantId, merchantId: m1.id, sharePercent: 60 });
  await ok("/api/v1/zhct/merchantDivide/create", { restaurantId, merchantId: m2.id, sharePercent: 30 });
});

test("月度结算-商户 from a bookmark: 30.03 split 18.02 / 9.01 / 3.00 (remainders by share), summing to the sales", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/monthlysettlementmerchant/index?fromMonth=${month}&toMonth=${month}&restaurantId=${restaurantId}`);
  await expect(page.getByRole("heading", { name: "月度结算-商户" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveValue(String(restaurantId));
  await expect(page.getByLabel("开始月份")).toHaveValue(month);
  await expect(page.getByTestId("report-chart")).toBeVisible();
  const rows = await tableText(page);
  expect(rows.slice(1).map((r) => [r[0], r[3], r[5], r[6]])).toEqual([
    ["甲商户", "60", "30.03", "18.02"],
    ["乙商户", "30", "30.03", "9.01"],
    ["未分配", "10", "30.03", "3.00"],
    ["合计", "", "", "30.03"],
  ]);
  await page.screenshot({ path: "test-results/screenshots/report-settlement-merchant-1280.png", fullPage: true });
});

test("月度结算-人员 from a bookmark, its export equals the screen, and its print view", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, `/report/monthlysettlementuser/index?fromMonth=${month}&toMonth=${month}&deptId=${deptId}`);
  await expect(page.getByRole("heading", { name: "月度结算-人员" })).toBeVisible();
  const screen = await tableText(page);
  expect(screen.slice(1)).toEqual([
    ["ST-001", "王老师", "教务处", "1", "20.02", "20.02", "0.00", "0.00", "0.00", "0.00", "20.02"],
    ["ST-002", "李老师", "教务处", "1", "10.01", "0.01", "10.00", "0.00", "0.00", "0.00", "10.01"],
    ["合计", "", "", "2", "30.03", "20.03", "10.00", "0.00", "0.00", "0.00", "30.03"],
  ]);
  // A diner drills into their ledger over the same month's days.
  await expect(page.getByRole("link", { name: "ST-001" })).toHaveAttribute("href", new RegExp(`/report/personalledger/index\\?from=${month}-01&to=${month}-\\d\\d&userCode=ST-001`));
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`月度结算-人员-${month}-${month}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(String(sheet.getRow(2).getCell(1).value)).toContain(`${month} 至 ${month}；部门：教务处`);
  expect(sheetAsShown(sheet, screen[0].length)).toEqual(screen);
  await page.goto(`/report/monthlysettlementuser/print?fromMonth=${month}&toMonth=${month}&deptId=${deptId}`);
  const print = page.getByTestId("report-print");
  await expect(print.getByRole("heading", { name: "月度结算-人员" })).toBeVisible();
  await expect(print).toContainText(`${month} 至 ${month}；部门：教务处`);
  await expect(print.getByTestId("report-totals")).toContainText("30.03");
});
