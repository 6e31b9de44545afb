import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, untilHydrated } from "./support/shell";

/*
 * Issue 35's printing in Chromium (decision 082): an approved stock-in opened from its detail page's 打印 on A4, then
 * on the 80 mm slip, each with the tenant's title, the goods' units, the total in figures and in Chinese capitals and
 * the signature lines, each laid on its own paper (the PDF's page size); the same page drawn without scripts; and a
 * stocktake sheet printed while counting, its count column blank for the pen.
 */

const { hqKeeper: keeper, hqManager: manager } = e2eUsers;
const Z = "/api/v1/zhhq";
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/zhhq-print-${name}.png`, fullPage: true });
const run = Date.now().toString(36).slice(-5);
// 10.5 × 11.00 + 1.325 × 6.00 = 115.50 + 7.95: the issue's own 壹佰贰拾叁元肆角伍分.
const LINES = [
  { goodsName: `东北大米${run}`, quantity: 10.5, price: 1100 },
  { goodsName: `绿豆${run}`, quantity: 1.325, price: 600 },
];
const WAREHOUSE = `干货仓库${run}`;
const SUPPLIER = `粮油供应${run}`;

async function signedIn(browser: Browser, user: { userName: string; password: string }, path: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signInFresh(page, user.userName, user.password, path);
  return { page, context };
}

/** The width of the PDF's first page in points, as Chromium lays the page out for its @page size (A4 595, 80 mm 227). */
async function pdfPageWidth(page: Page): Promise<number> {
  const pdf = (await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString("latin1");
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf);
  expect(box, "a MediaBox in the PDF").not.toBeNull();
  return Number(box?.[1]);
}

test.describe.configure({ mode: "serial" });

test("an approved stock-in prints on A4 and on an 80 mm slip: title, units, the total in capitals, the signature lines", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const api = await apiAs(request, keeper.userName, keeper.password);
  const approver = await apiAs(request, manager.userName, manager.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: WAREHOUSE })).id;
  const supplierId = (await api.ok(`${Z}/supplier/create`, { supplierName: SUPPLIER })).id;
  for (const qualType of ["1", "2"]) await api.ok(`${Z}/supplierQualification/create`, { supplierId, qualType, qualNo: `PR-${run}-${qualType}`, validFrom: "2020-01-01" });
  const unitId = (await api.ok(`${Z}/unit/create`, { unitName: `千克${run}` })).id;
  const goods: number[] = [];
  for (const [i, g] of LINES.entries()) goods.push((await api.ok(`${Z}/goods/create`, { goodsCode: `PR${run}${i}`, goodsName: g.goodsName, unitId })).id);
  const created = await api.ok<{ id: number; docNo: string }>(`${Z}/warehouseIn/create`, {
    warehouseId,
    supplierId,
    lines: LINES.map((g, i) => ({ goodsId: goods[i], quantity: g.quantity, price: g.price })),
  });
  await api.ok(`${Z}/warehouseIn/submit`, { id: created.id });
  await approver.ok(`${Z}/warehouseIn/approve`, { id: created.id });

  const { page, context } = await signedIn(browser, keeper, `/zhhq/warehousein/detail/${created.id}`);
  await untilHydrated(page);
  // The print view's stylesheet is its own: the detail page has none of its paper rules.
  const pageRules = await page.evaluate(() => [...document.styleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join("\n"));
  expect(pageRules).not.toContain("receipt-80mm");
  const [print] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: "打印", exact: true }).click()]);
  await expect(print).toHaveURL(new RegExp(`/zhhq/warehousein/print/${created.id}\\?paper=a4$`));
  const sheet = print.getByTestId("document-print");
  const expectSheet = async () => {
    await expect(print.getByTestId("print-title")).not.toBeEmpty();
    await expect(sheet.getByRole("heading", { name: "入库单" })).toBeVisible();
    for (const text of [`单号：${created.docNo}`, "状态：已审核", `仓库：${WAREHOUSE}`, `供应商：${SUPPLIER}`, `10.5 千克${run}`, `1.325 千克${run}`, LINES[0].goodsName]) await expect(sheet).toContainText(text);
    await expect(sheet.getByTestId("total-amount")).toHaveText("123.45");
    await expect(sheet.getByTestId("amount-words")).toHaveText("金额合计（大写）：人民币壹佰贰拾叁元肆角伍分￥123.45");
    const signatures = sheet.getByTestId("print-signatures").locator("> div");
    // People print by their names (真实姓名), by their login when the fixture left it out.
    await expect(signatures).toHaveText([`制单：${keeper.userName}`, "保管：", "验收：", new RegExp(`^审核：(${manager.realName}|${manager.userName})$`)]);
  };
  await expectSheet();
  await expect(print.getByRole("button", { name: "打印", exact: true })).toBeVisible();
  await shot(print, "stock-in-a4");
  expect(await pdfPageWidth(print)).toBeCloseTo(595.3, 0);

  await print.getByRole("link", { name: "80mm 小票" }).click();
  await expect(print).toHaveURL(/\?paper=80mm$/);
  await expect(sheet).toHaveAttribute("data-paper", "80mm");
  await expectSheet();
  // The slip is 72 mm of print on the roll: about 272 CSS pixels.
  const width = await sheet.evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeLessThan(280);
  await shot(print, "stock-in-80mm");
  expect(await pdfPageWidth(print)).toBeCloseTo(226.8, 0);
  expectNoReactErrors(print);
  await context.close();

  // Without scripts the page is the same sheet; it says how to print instead of offering a button that needs them.
  const plain = await signedIn(browser, keeper, `/zhhq/warehousein/print/${created.id}?paper=80mm`, false);
  await plain.page.goto(`/zhhq/warehousein/print/${created.id}?paper=80mm`);
  await expect(plain.page.getByTestId("amount-words")).toContainText("人民币壹佰贰拾叁元肆角伍分");
  await expect(plain.page.getByText("用浏览器的打印（Ctrl+P）")).toBeVisible();
  await plain.context.close();
});

test("a stocktake sheet printed while counting leaves its count column blank", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, keeper.userName, keeper.password);
  const warehouseId = Number(((await api.get(`${Z}/warehouse/findPage?warehouseName=${encodeURIComponent(WAREHOUSE)}`)).data.records[0] as { id: number }).id);
  const sheet = await api.ok<{ id: number; docNo: string }>(`${Z}/warehouseCheck/create`, { warehouseId });
  const { page, context } = await signedIn(browser, keeper, `/zhhq/warehousecheck/print/${sheet.id}`);
  const print = page.getByTestId("document-print");
  await expect(print).toContainText(`单号：${sheet.docNo}`);
  await expect(print).toContainText("状态：盘点中");
  const lines = print.getByTestId("document-lines");
  await expect(lines.getByRole("columnheader")).toHaveText(["行号", "物资", "批次号", "到期日期", "账面数量", "实盘数量", "盈亏数量", "盈亏金额（元）"]);
  await expect(lines.locator("tbody tr")).toHaveCount(2);
  await expect(lines).toContainText(`10.5 千克${run}`);
  const blanks = lines.getByTestId("blank-countedQuantity");
  await expect(blanks).toHaveCount(2);
  for (const cell of await blanks.all()) await expect(cell).toBeEmpty();
  // Nothing is counted yet: the amount in capitals is left to be written.
  await expect(print.getByTestId("amount-words")).toHaveText("合计（大写）：人民币");
  await expect(print.getByTestId("print-signatures").locator("> div")).toHaveText([`制单：${keeper.userName}`, "盘点：", "监盘：", "审核："]);
  await shot(page, "stocktake-a4");
  await page.goto(`/zhhq/warehousecheck/print/${sheet.id}?paper=80mm`);
  await expect(page.getByTestId("blank-countedQuantity")).toHaveCount(2);
  await shot(page, "stocktake-80mm");
  expectNoReactErrors(page);
  await context.close();
  // The sheet froze the warehouse: it is voided, so nothing else here waits on it.
  await api.ok(`${Z}/warehouseCheck/cancel`, { id: sheet.id });
});
