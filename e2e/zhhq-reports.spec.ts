import ExcelJS from "exceljs";
import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { tableText } from "./support/report";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors } from "./support/shell";

/*
 * Issue 35 in Chromium (decision 076): 智慧后勤 → 报表 → 库存月报 filtered by month on its form, the URL bookmarked and
 * reopened in a fresh page with the same figures, exported; a batch traced from 批次库存 to its stock-out and exported
 * as the inspector's sheet; 资质预警 and 库存预警 list a licence about to lapse; 采购统计 of one goods by month with its
 * price trend, bookmarked and exported. Data is made through the API as a keeper does.
 */

const keeper = e2eUsers.hqKeeper;
const Z = "/api/v1/zhhq";
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
const month = day(0).slice(0, 7);
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/screenshots/zhhq-reports-${name}.png`,
    fullPage: true,
  });
const tag = Date.now().toString(36).slice(-5).toUpperCase();
const WAREHOUSE = `报表冷库${tag}`;
const BATCH = `PORK-${tag}`;
let warehouseId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, keeper.userName, keeper.password);
  const restaurantId = (
    await api.ok("/api/v1/auth/org/create", {
      orgName: `报表餐厅${tag}`,
      orgType: "restaurant",
      status: "1",
    })
  ).id;
  warehouseId = (
    await api.ok(`${Z}/warehouse/create`, {
      warehouseName: WAREHOUSE,
      restaurantId,
    })
  ).id;
  const supplierId = (await api.ok(`${Z}/supplier/create`, { supplierName: `鲜肉供应${tag}` })).id;
  await api.ok(`${Z}/supplierQualification/create`, {
    supplierId,
    qualType: "1",
    qualNo: `YZ-${tag}`,
    validFrom: "2020-01-01",
  });
  await api.ok(`${Z}/supplierQualification/create`, {
    supplierId,
    qualType: "2",
    qualNo: `JY-${tag}`,
    validFrom: "2020-01-01",
    validTo: day(12),
  });
  const useType = (await api.ok(`${Z}/outUseType/create`, { typeName: `后厨${tag}` })).id;
  const pork = (
    await api.ok(`${Z}/goods/create`, {
      goodsCode: `PORK${tag}`,
      goodsName: "猪后腿肉",
    })
  ).id;
  const flour = (
    await api.ok(`${Z}/goods/create`, {
      goodsCode: `FLOUR${tag}`,
      goodsName: "高筋面粉",
    })
  ).id;
  const doc = async (name: string, body: unknown) => {
    const { id } = await api.ok(`${Z}/${name}/create`, body);
    await api.ok(`${Z}/${name}/submit`, { id });
    await api.ok(`${Z}/${name}/approve`, { id });
  };
  await doc("warehouseIn", {
    warehouseId,
    supplierId,
    lines: [
      {
        goodsId: pork,
        quantity: 40,
        price: 2650,
        batchNo: BATCH,
        expiryDate: day(5),
      },
      { goodsId: flour, quantity: 100, price: 380 },
    ],
  });
  // 采购统计's order: 20 kg of pork at 26.00, 10 received, into a store of its own (库存月报 reads the cold store).
  const store = (await api.ok(`${Z}/warehouse/create`, { warehouseName: `采购仓${tag}` })).id;
  const order = await api.ok<{ id: number; lines: Array<{ id: number }> }>(`${Z}/purchse/create`, { supplierId, warehouseId: store, lines: [{ goodsId: pork, quantity: 20, price: 2600 }] });
  await api.ok(`${Z}/purchse/submit`, { id: order.id });
  await api.ok(`${Z}/purchse/approve`, { id: order.id });
  await api.ok(`${Z}/purchse/receive`, { id: order.id, lines: [{ purchseLineId: order.lines[0].id, quantity: 10 }] });
  await doc("warehouseOut", {
    warehouseId,
    outUseTypeId: useType,
    lines: [
      { goodsId: pork, quantity: 12.5 },
      { goodsId: flour, quantity: 25 },
    ],
  });
});

test("库存月报 filtered by month on its form, bookmarked, reopened and exported", async ({ page, browser }) => {
  await signInFresh(page, keeper.userName, keeper.password, "/zhhq/warehousemonthreport/index");
  await expect(page.getByRole("heading", { name: "库存月报" })).toBeVisible();
  const form = page.getByRole("search", { name: "库存月报查询条件" });
  await form.getByLabel("开始月份").fill(month);
  await form.getByLabel("结束月份").fill(month);
  await form.getByLabel("仓库").selectOption({ label: WAREHOUSE });
  await form.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`fromMonth=${month}&toMonth=${month}&warehouseId=${warehouseId}`));
  const screen = await tableText(page);
  // 40 kg of pork at 26.50 and 100 kg of flour at 3.80 in; 12.5 kg and 25 kg out, at their batches' cost.
  expect(screen.slice(1)).toEqual([
    [month, WAREHOUSE, `FLOUR${tag}`, "高筋面粉", "", "0", "0.00", "100", "380.00", "25", "95.00", "75", "285.00"],
    [month, WAREHOUSE, `PORK${tag}`, "猪后腿肉", "", "0", "0.00", "40", "1,060.00", "12.5", "331.25", "27.5", "728.75"],
    ["合计", "", "", "", "", "", "0.00", "", "1,440.00", "", "426.25", "", "1,013.75"],
  ]);
  await shot(page, "month");
  expectNoReactErrors(page);

  // The bookmark: the same URL in a page of its own shows the same figures.
  const bookmark = page.url();
  const other = await browser.newContext();
  const reopened = await other.newPage();
  await signInFresh(reopened, keeper.userName, keeper.password, new URL(bookmark).pathname + new URL(bookmark).search);
  expect(await tableText(reopened)).toEqual(screen);
  await other.close();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`库存月报-${month}-${month}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(String(sheet.getRow(2).getCell(1).value)).toContain(`${month} 至 ${month}；仓库：${WAREHOUSE}`);
  const totals = sheet.getRow(sheet.rowCount);
  expect([totals.getCell(1).value, totals.getCell(9).value, totals.getCell(11).value, totals.getCell(13).value]).toEqual(["合计", 1440, 426.25, 1013.75]);
});

test("a batch is traced from 批次库存 to its stock-out and exported; 资质预警 lists the licence about to lapse", async ({ page }) => {
  await signInFresh(page, keeper.userName, keeper.password, `/zhhq/warehouserealdetail/index?warehouseId=${warehouseId}`);
  const row = page.getByRole("row").filter({ hasText: BATCH });
  await row.getByRole("link", { name: "追溯" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhhq/batchtrace/index\\?batchNo=${BATCH}`));
  await expect(page.getByRole("heading", { name: "批次追溯" })).toBeVisible();
  const trace = await tableText(page);
  expect(trace.slice(1, 3).map((r) => r.slice(0, 9))).toEqual([
    [BATCH, "猪后腿肉", "来源", day(0), "入库单", expect.stringMatching(/^RK/), `鲜肉供应${tag}`, "40", "1,060.00"],
    [BATCH, "猪后腿肉", "去向", day(0), "出库单", expect.stringMatching(/^CK/), expect.stringMatching(new RegExp(`^后厨${tag} · 报表餐厅${tag}$`)), "-12.5", "-331.25"],
  ]);
  expect(trace[1][12]).toContain(`当日资质：营业执照 YZ-${tag}、食品经营许可证 JY-${tag}`);
  await shot(page, "trace");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  expect(String(workbook.worksheets[0].getRow(4).getCell(3).value)).toBe("来源");
  expect(String(workbook.worksheets[0].getRow(2).getCell(1).value)).toContain(`批次号：${BATCH}`);

  await page.goto("/zhhq/supplierqualificationwarning/index");
  await expect(page.getByRole("heading", { name: "资质预警" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `JY-${tag}` })).toContainText("资质即将到期");
  await expect(page.getByRole("row").filter({ hasText: `JY-${tag}` })).toContainText(day(12));
  await shot(page, "warning");
  expectNoReactErrors(page);
});

test("采购统计 of one goods filtered by month, its price trend drawn, bookmarked, reopened and exported", async ({ page, browser }) => {
  await signInFresh(page, keeper.userName, keeper.password, "/zhhq/purchasereport/index");
  await expect(page.getByRole("heading", { name: "采购统计" })).toBeVisible();
  const form = page.getByRole("search", { name: "采购统计查询条件" });
  await form.getByLabel("开始月份").fill(month);
  await form.getByLabel("结束月份").fill(month);
  await form.getByLabel("物资编码").fill(`PORK${tag}`);
  await form.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`fromMonth=${month}&toMonth=${month}.*goodsCode=PORK${tag}`));
  const screen = await tableText(page);
  expect(screen.slice(1)).toEqual([
    [month, `鲜肉供应${tag}`, `PORK${tag}`, "猪后腿肉", "", "1", "20", "520.00", "26.00", "10", "260.00", "0.00"],
    ["合计", "", "", "", "", "1", "", "520.00", "", "", "260.00", "0.00"],
  ]);
  // One goods named: its price month by month.
  await expect(page.getByTestId("report-chart")).toContainText("采购均价走势");
  // A single month's price is one point: drawn as its dot, not as nothing (a line of one point has no length).
  await expect(page.getByTestId("report-chart").locator(".recharts-line-dot")).toHaveCount(1);
  await shot(page, "purchase");
  expectNoReactErrors(page);

  const bookmark = new URL(page.url());
  const other = await browser.newContext();
  const reopened = await other.newPage();
  await signInFresh(reopened, keeper.userName, keeper.password, bookmark.pathname + bookmark.search);
  expect(await tableText(reopened)).toEqual(screen);
  await other.close();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  expect(download.suggestedFilename()).toBe(`采购统计-${month}-${month}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(String(sheet.getRow(2).getCell(1).value)).toContain(`${month} 至 ${month}；物资编码：PORK${tag}`);
  expect((sheet.getRow(4).values as unknown[]).slice(1, 12)).toEqual([month, `鲜肉供应${tag}`, `PORK${tag}`, "猪后腿肉", null, 1, 20, 520, 26, 10, 260].map((v) => v ?? undefined));
});

test("库存预警 lists the licence about to lapse as a kind of its own, from the home page's card", async ({ page }) => {
  await signInFresh(page, keeper.userName, keeper.password, "/dashboard");
  await page.getByRole("link", { name: /^资质到期：\d+ 项，查看明细$/ }).click();
  await expect(page).toHaveURL(/\/zhhq\/warehousewarning\/index\?kind=licence$/);
  const licence = page.getByRole("row").filter({ hasText: `JY-${tag}` });
  await expect(licence).toContainText("资质到期");
  await expect(licence).toContainText(`鲜肉供应${tag}`);
  await expect(licence).toContainText(day(12));
  await shot(page, "warehousewarning");
  expectNoReactErrors(page);
});
