import { expect, test, type Browser, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, pick, untilHydrated } from "./support/shell";

/*
 * Issue 41's journeys in Chromium: a transfer between two warehouses (entered, submitted, sent out into transit and
 * received, the stock moving with it), a stocktake with a loss (the sheet holds the book, the count is typed in the
 * grid, approval makes the stock the count) and a month made formal on 月末结账's screen (after which a document
 * dated into it is refused). Master data and stock-ins are made through the API (their screens are issue 40's).
 */

const { hqManager: manager } = e2eUsers;
const Z = "/api/v1/zhhq";
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/zhhq-closing-${name}.png`, fullPage: true });
const chinaToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
function lastMonth(): string {
  const [y, m] = chinaToday().slice(0, 7).split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

test.describe.configure({ mode: "serial" });

async function signedIn(browser: Browser, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInFresh(page, manager.userName, manager.password, path);
  return { page, close: () => context.close() };
}

/** Picks an option in a line's relation cell of the grid, typed as a user searches. */
async function pickCell(page: Page, row: number, label: string, option: string) {
  const cell = page.getByTestId("lines-grid").getByRole("textbox", { name: `第 ${row} 行 ${label}`, exact: true });
  await cell.click();
  await cell.fill(option);
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await page.getByRole("option", { name: new RegExp(`^${escaped}(（[^（）]*）)?$`) }).first().click({ timeout: 10_000 });
}

const cell = (page: Page, row: number, label: string) => page.getByTestId("lines-grid").getByLabel(`第 ${row} 行 ${label}`, { exact: true });

/** Presses a step's button on the detail page, confirming it when it asks, and waits for the status. */
async function step(page: Page, label: string, status: string, confirm = true) {
  await page.getByRole("button", { name: label, exact: true }).click();
  if (confirm) await page.getByRole("dialog").getByRole("button", { name: `确认${label}` }).click();
  await expect(page.getByTestId("document-status")).toHaveText(status);
}

test("a transfer between two warehouses: sent into transit, received with its batch and cost", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, manager.userName, manager.password);
  const from = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "调拨总仓" })).id;
  await api.ok(`${Z}/warehouse/create`, { warehouseName: "调拨分仓" });
  const goodsId = (await api.ok(`${Z}/goods/create`, { goodsCode: "TRF-FLOUR", goodsName: "调拨面粉" })).id;
  const stockIn = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId: from, lines: [{ goodsId, quantity: 40, price: 520, batchNo: "FLOUR-01", expiryDate: "2099-01-01" }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: stockIn });
  await api.ok(`${Z}/warehouseIn/approve`, { id: stockIn });

  const { page, close } = await signedIn(browser, "/zhhq/warehousetransfer/create");
  await untilHydrated(page);
  await pick(page, "调出仓库", "调拨总仓");
  await pick(page, "调入仓库", "调拨分仓");
  await pickCell(page, 1, "物资", "调拨面粉");
  await cell(page, 1, "调拨数量").fill("15");
  await shot(page, "transfer-editor");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/warehousetransfer\/detail\/\d+$/);
  await expect(page.getByTestId("document-status")).toHaveText("草稿");
  await step(page, "提交", "待审核", false);
  await step(page, "调出", "在途");
  // In transit: sent 15, received 0, at the batch's cost (15 × 5.20).
  await expect(page.getByTestId("document-lines")).toContainText("78.00");
  await shot(page, "transfer-in-transit");
  const detail = page.url();
  // 调拨明细 from the transfer: its line sent 15, 15 in transit, none received yet.
  await page.getByRole("link", { name: "调拨明细", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/warehousetransferdetail\/index\?docNo=DB/);
  const transferLine = page.getByRole("row").filter({ hasText: "调拨面粉" }).filter({ hasText: "调拨分仓" });
  await expect(transferLine).toHaveCount(1);
  await expect(transferLine).toContainText("在途");
  await expect(transferLine.getByRole("cell")).toContainText(["15", "15", "15", "0", "78.00"]);
  await shot(page, "transfer-detail");
  await page.goto("/zhhq/warehousetransferin/index");
  await expect(page.getByRole("row").filter({ hasText: "调拨总仓" }).first()).toBeVisible();
  await page.goto(new URL(detail).pathname);
  await step(page, "收货", "已收货");
  await shot(page, "transfer-received");
  await page.goto("/zhhq/warehousereal/index");
  await expect(page.getByRole("row").filter({ hasText: "调拨分仓" }).filter({ hasText: "调拨面粉" })).toContainText("15");
  await expect(page.getByRole("row").filter({ hasText: "调拨总仓" }).filter({ hasText: "调拨面粉" })).toContainText("25");
  await page.goto("/zhhq/warehouserealdetail/index");
  await expect(page.getByRole("row").filter({ hasText: "调拨分仓" }).filter({ hasText: "FLOUR-01" })).toBeVisible();
  expectNoReactErrors(page);
  await close();
});

test("a stocktake with a loss: the sheet holds the book, the count is entered in the grid, approval makes the stock the count", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, manager.userName, manager.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "盘点冷库" })).id;
  const goodsId = (await api.ok(`${Z}/goods/create`, { goodsCode: "CHK-PORK", goodsName: "冷鲜猪肉" })).id;
  const stockIn = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId, lines: [{ goodsId, quantity: 20, price: 2600, batchNo: "PORK-01", expiryDate: "2099-01-01" }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: stockIn });
  await api.ok(`${Z}/warehouseIn/approve`, { id: stockIn });

  const { page, close } = await signedIn(browser, "/zhhq/warehousecheck/create");
  await untilHydrated(page);
  await pick(page, "仓库", "盘点冷库");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/warehousecheck\/detail\/\d+$/);
  await expect(page.getByTestId("document-status")).toHaveText("盘点中");
  await expect(page.getByTestId("document-lines")).toContainText("PORK-01");
  await shot(page, "check-opened");
  const detail = new URL(page.url()).pathname;
  const id = detail.split("/").pop();
  // The warehouse is frozen while the sheet is open.
  const out = (await api.ok(`${Z}/warehouseOut/create`, { warehouseId, lines: [{ goodsId, quantity: 1 }] })).id;
  await api.ok(`${Z}/warehouseOut/submit`, { id: out });
  const refused = await api.post(`${Z}/warehouseOut/approve`, { id: out });
  expect(refused).toMatchObject({ status: 409, message: expect.stringMatching(/^仓库正在盘点（盘点单 PD\d{8}-\d{4}），盘点结束前不能出入库$/) });

  // 编辑 is the count: each line's goods, batch and book quantity, and its counted quantity to type.
  await page.getByRole("link", { name: "编辑" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/warehousecheck/edit/${id}$`));
  await expect(page.getByTestId("count-lines")).toContainText("PORK-01");
  await expect(page.getByTestId("count-lines")).toContainText("冷鲜猪肉");
  await page.getByLabel("第 1 行 实盘数量").fill("18.5");
  await shot(page, "check-counting");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${detail}$`));
  await expect(page.getByTestId("document-lines")).toContainText("-1.5");
  await step(page, "提交", "待审核", false);
  await step(page, "审核", "已审核");
  // A loss of 1.5 at the batch's cost: 1.5 × 26.00 = 39.00.
  await expect(page.getByTestId("document-lines")).toContainText("-39.00");
  await shot(page, "check-approved");
  await page.goto("/zhhq/warehousereal/index");
  await expect(page.getByRole("row").filter({ hasText: "盘点冷库" }).filter({ hasText: "冷鲜猪肉" })).toContainText("18.5");
  expectNoReactErrors(page);
  await close();
});

test("a stocktake counted by XLSX: 下载盘点表, fill it, 导入实盘数量, the counts on the count screen, approval makes the stock the count", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, manager.userName, manager.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "表格盘点库" })).id;
  const goodsId = (await api.ok(`${Z}/goods/create`, { goodsCode: "XLS-FLOUR", goodsName: "表格面粉" })).id;
  const stockIn = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId, lines: [{ goodsId, quantity: 12, price: 500, batchNo: "FLOUR-01" }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: stockIn });
  await api.ok(`${Z}/warehouseIn/approve`, { id: stockIn });
  const id = (await api.ok(`${Z}/warehouseCheck/create`, { warehouseId })).id;

  const { page, close } = await signedIn(browser, `/zhhq/warehousecheck/detail/${id}`);
  await page.getByRole("link", { name: "导入实盘数量" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/warehousecheck/importCount/${id}$`));
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "下载盘点表" }).click();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await (await downloading).path()) as string);
  const sheet = workbook.worksheets[0];
  const headers = (sheet.getRow(1).values as unknown[]).map(String);
  expect(sheet.getRow(2).getCell(headers.indexOf("物资名称")).value).toBe("表格面粉");
  // A bad count first: the row is named and nothing is applied; the upload is offered again.
  sheet.getRow(2).getCell(headers.indexOf("实盘数量")).value = "9.1234";
  await page.setInputFiles("#count-file", { name: "count.xlsx", mimeType: "application/octet-stream", buffer: Buffer.from(await workbook.xlsx.writeBuffer()) });
  await page.getByRole("button", { name: "导入", exact: true }).click();
  await expect(page.getByTestId("import-errors")).toContainText("行 2：实盘数量最多 3 位小数");
  await shot(page, "check-import-refused");
  sheet.getRow(2).getCell(headers.indexOf("实盘数量")).value = 9.25;
  await page.setInputFiles("#count-file", { name: "count.xlsx", mimeType: "application/octet-stream", buffer: Buffer.from(await workbook.xlsx.writeBuffer()) });
  await page.getByRole("button", { name: "导入", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/warehousecheck/edit/${id}$`));
  await expect(page.getByLabel("第 1 行 实盘数量")).toHaveValue("9.25");
  await page.goto(`/zhhq/warehousecheck/detail/${id}`);
  await step(page, "提交", "待审核", false);
  await step(page, "审核", "已审核");
  await page.goto("/zhhq/warehousereal/index");
  await expect(page.getByRole("row").filter({ hasText: "表格盘点库" }).filter({ hasText: "表格面粉" })).toContainText("9.25");
  expectNoReactErrors(page);
  await close();
});

test("a month made formal on 月末结账: generated, confirmed, then a document dated into it is refused", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, manager.userName, manager.password);
  const month = lastMonth();
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "月结干货库" })).id;
  const goodsId = (await api.ok(`${Z}/goods/create`, { goodsCode: "MON-BEAN", goodsName: "绿豆" })).id;
  const stockIn = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId, docDate: `${month}-10`, lines: [{ goodsId, quantity: 30, price: 800 }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: stockIn });
  await api.ok(`${Z}/warehouseIn/approve`, { id: stockIn });

  const { page, close } = await signedIn(browser, "/zhhq/warehouseaccountmonthsettle/index");
  await untilHydrated(page);
  await page.getByRole("link", { name: "生成" }).first().click();
  await expect(page).toHaveURL(/\/zhhq\/warehouseaccountmonthsettle\/generate/);
  await page.getByLabel("月份").fill(month);
  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/warehouseaccountmonthsettle/index\\?month=${month}`));
  await expect(page.getByRole("row").filter({ hasText: "绿豆" })).toContainText("30");
  await shot(page, "month-generated");
  await page.goto(`/zhhq/warehouseaccountmonthsettle/confirm?month=${month}`);
  await untilHydrated(page);
  await page.getByRole("button", { name: "转正式", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "确认转正式" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/warehouseaccountmonthsettle/index\\?month=${month}`));
  await expect(page.getByRole("row").filter({ hasText: "绿豆" })).toContainText("正式");
  await shot(page, "month-formal");
  await page.goto("/zhhq/warehouseaccountmonthsettle/confirm");
  await expect(page.getByTestId("settled-months").getByRole("row").filter({ hasText: month })).toContainText("正式（已结账）");
  // A document dated into the formal month is refused at approval.
  const late = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId, docDate: `${month}-20`, lines: [{ goodsId, quantity: 1, price: 800 }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: late });
  expect(await api.post(`${Z}/warehouseIn/approve`, { id: late })).toMatchObject({ status: 409, message: `${month} 已结账` });
  expectNoReactErrors(page);
  await close();
});
