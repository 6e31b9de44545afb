import ExcelJS from "exceljs";
import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";

/**
 * Issue 15, decision 034: a bank statement uploaded in the browser — the four groups and their totals, the export
 * read back, the print view — and the same upload with JavaScript disabled. The bank tenant's own records: two
 * online top-ups and one online sale.
 */

const clerk = e2eUsers.bankClerk;
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const refs = { cz1: "", cz2: "", order: "" };

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  const ok = api.ok<{ id: number; orderNo?: string }>;
  const diner = await ok("/api/v1/zhct/userInfo/create", { userCode: "BK-001", userName: "钱对账" });
  const chargeNo = async (amount: number, payFlag: number) => {
    const { id } = await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount, payFlag, accountType: "cash" });
    const row = await api.get(`/api/v1/zhct/userAccountCharge/getInfo?id=${id}`);
    return String((row.data as { chargeNo: string }).chargeNo);
  };
  refs.cz1 = await chargeNo(10000, 100);
  refs.cz2 = await chargeNo(5000, 101);
  refs.order = String((await ok("/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 350, payFlag: 100 })).orderNo);
});

/** cz1 matches, cz2 differs by 0.10, one line is the bank's alone; the sale is ours alone. */
const statement = () => `\uFEFF日期,参考号,金额\r\n${today},${refs.cz1},100.00\r\n${today},${refs.cz2},49.90\r\n${today},BANK-ONLY-1,12.34\r\n`;
const file = () => ({ name: "对账单.csv", mimeType: "text/csv", buffer: Buffer.from(statement()) });

test("a statement uploaded in the browser shows the four groups and totals; the export reads back the same; the print view renders", async ({ page }) => {
  await signInFresh(page, clerk.userName, clerk.password, "/report/bankreconcile/index");
  await expect(page.getByRole("heading", { name: "银行对账" })).toBeVisible();
  await page.getByLabel("对账单文件").setInputFiles(file());
  await page.getByRole("button", { name: "上传并对账" }).click();
  await expect(page.getByTestId("bank-summary")).toContainText(`对账期间：${today} 至 ${today}（取自对账单日期）；对账单 3 笔 162.24 元；我方 3 笔 153.50 元`);
  await expect(page.getByTestId("bank-matched").getByRole("row", { name: new RegExp(refs.cz1) })).toContainText("100.00");
  await expect(page.getByTestId("bank-matched").getByTestId("bank-totals")).toContainText("100.00");
  await expect(page.getByTestId("bank-mismatched").getByTestId("bank-totals")).toContainText("-0.10");
  await expect(page.getByTestId("bank-bankOnly")).toContainText("BANK-ONLY-1");
  await expect(page.getByTestId("bank-oursOnly")).toContainText(refs.order);
  await expect(page.getByTestId("bank-oursOnly").getByTestId("bank-totals")).toContainText("3.50");
  await expect(page.getByTestId("bank-overall")).toContainText("8.74");
  await page.screenshot({ path: "test-results/screenshots/report-bank-1280.png", fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "导出 Excel" }).click()]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  expect(rows[0][0]).toBe("银行对账");
  expect(rows.filter((r) => r[0] === "合计").map((r) => [r[2] ?? null, r[7] ?? null])).toEqual([
    [100, 100],
    [49.9, 50],
    [12.34, 0],
    [0, 3.5],
  ]);
  const overall = rows.find((r) => r[0] === "总计") as unknown[];
  expect([overall[2], overall[7], overall[8]]).toEqual([162.24, 153.5, 8.74]);

  const [print] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "打印" }).click()]);
  const sheet = print.getByTestId("report-print");
  await expect(sheet.getByRole("heading", { name: "银行对账" })).toBeVisible();
  await expect(sheet).toContainText("对账单 3 笔 162.24 元");
  await print.emulateMedia({ media: "print" });
  await expect(print.getByRole("button", { name: "打印" })).toBeHidden();
  await print.screenshot({ path: "test-results/screenshots/report-bank-print-1280.png", fullPage: true });
});

test("without JavaScript the upload still compares, and a bad file is refused with its rows named", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInFresh(page, clerk.userName, clerk.password, `/report/bankreconcile/index?from=${today}&to=${today}`);
  await expect(page.getByRole("textbox", { name: "开始日期" })).toHaveValue(today);
  await page.getByLabel("对账单文件").setInputFiles(file());
  await page.getByRole("button", { name: "上传并对账" }).click();
  await expect(page.getByTestId("bank-summary")).toContainText(`对账期间：${today} 至 ${today}；对账单 3 笔 162.24 元`);
  await expect(page.getByTestId("bank-matched")).toContainText(refs.cz1);
  await page.getByLabel("对账单文件").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(`日期,参考号,金额\n${today},A1,1.234\n`) });
  await page.getByRole("button", { name: "上传并对账" }).click();
  await expect(page.getByTestId("bank-error")).toContainText("第 2 行：金额「1.234」超过两位小数");
  await context.close();
});
