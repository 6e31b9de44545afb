import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";

const { canteen } = e2eUsers;

/** The downloaded template with these data rows below its header. */
async function filled(template: Buffer, rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function choose(page: Page, file: Buffer) {
  await page.getByLabel("选择文件（.xlsx，不超过 10M）").setInputFiles({ name: "菜品.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: file });
}

test("import dishes: download the template, see the two bad rows with their reasons, fix them and import", async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, canteen.userName, canteen.password);
  expect((await api.post("/api/v1/auth/org/create", { orgName: "导入餐厅", orgType: "restaurant", sort: 0, status: "1" })).status).toBe(200);
  expect((await api.post("/api/v1/zhct/foodType/create", { typeName: "导入面食", sort: 0, status: "1" })).status).toBe(200);

  await signInFresh(page, canteen.userName, canteen.password, "/zhct/food/index");
  await page.getByRole("link", { name: "导入" }).click();
  const dialog = page.getByRole("dialog", { name: "导入菜品" });
  await expect(dialog).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "下载导入模板" }).click()]);
  const template = await readFile(await download.path());
  const check = new ExcelJS.Workbook();
  await check.xlsx.load(template as unknown as ArrayBuffer);
  expect((check.worksheets[0].getRow(1).values as unknown[]).slice(1, 5)).toEqual(["菜品名称*", "菜品分类*", "餐厅/档口*", "价格（元）*"]);

  const rows = [
    ["导入牛肉面", "导入面食", "导入餐厅", 18, "", "碗", "主食", "是"],
    ["导入刀削面", "不存在的分类", "导入餐厅", 15, "", "碗", "主食", "是"],
    ["导入凉皮", "导入面食", "导入餐厅", 9.5, "", "份", "主食", "是"],
    ["导入肉夹馍", "导入面食", "导入餐厅", 8, "", "个", "甜点", "是"],
  ];
  await choose(page, await filled(template, rows));
  await dialog.getByRole("button", { name: "检查" }).click();
  const errors = dialog.getByRole("table", { name: "有误的行" });
  await expect(errors).toBeVisible();
  await expect(dialog.getByTestId("import-summary")).toHaveText(/共 4 行，2 行正确，2 行有误/);
  await expect(errors.getByRole("row")).toHaveCount(3);
  await expect(errors.getByRole("row").nth(1)).toContainText("3");
  await expect(errors.getByRole("row").nth(1)).toContainText("菜品分类「不存在的分类」不存在");
  await expect(errors.getByRole("row").nth(2)).toContainText("5");
  await expect(errors.getByRole("row").nth(2)).toContainText("菜品类别「甜点」不是可选的值");
  // Nothing was written by the check.
  expect((await api.get("/api/v1/zhct/food/findPage?foodName=导入")).data.total).toBe(0);

  rows[1][1] = "导入面食";
  rows[3][6] = "其他";
  await choose(page, await filled(template, rows));
  await dialog.getByRole("button", { name: "检查" }).click();
  await expect(dialog.getByTestId("import-summary")).toHaveText("检查通过：共 4 行，可以导入。");
  await dialog.getByRole("button", { name: "确认导入" }).click();
  await expect(page.getByText("成功导入 4 条")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "导入菜品" })).toHaveCount(0);

  await page.getByRole("search").getByLabel("菜品名称").fill("导入");
  await page.getByRole("search").getByRole("button", { name: "查询" }).click();
  for (const name of ["导入牛肉面", "导入刀削面", "导入凉皮", "导入肉夹馍"]) await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "9.50" })).toBeVisible();
});

test("import diners: a bad phone is shown with its row, the fixed file imports, an imported diner has both accounts at 0.00", async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, canteen.userName, canteen.password);
  await signInFresh(page, canteen.userName, canteen.password, "/zhct/userinfo/index");
  await page.getByRole("link", { name: "导入" }).click();
  const dialog = page.getByRole("dialog", { name: "导入人员" });
  await expect(dialog).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "下载导入模板" }).click()]);
  const template = await readFile(await download.path());
  const check = new ExcelJS.Workbook();
  await check.xlsx.load(template as unknown as ArrayBuffer);
  const headers = (check.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
  const row = (values: Record<string, string>) => headers.map((h) => values[h.replace(/\*$/, "")] ?? "");

  const rows = [row({ 人员编号: "IMP-001", 姓名: "导入甲", 手机号: "13800000001" }), row({ 人员编号: "IMP-002", 姓名: "导入乙", 手机号: "12345" })];
  await choose(page, await filled(template, rows));
  await dialog.getByRole("button", { name: "检查" }).click();
  await expect(dialog.getByTestId("import-summary")).toHaveText(/共 2 行，1 行正确，1 行有误/);
  const errors = dialog.getByRole("table", { name: "有误的行" });
  await expect(errors.getByRole("row").nth(1)).toContainText("3");
  await expect(errors.getByRole("row").nth(1)).toContainText("手机号应为 1 开头的 11 位数字");
  expect((await api.get("/api/v1/zhct/userInfo/findPage?userCode=IMP-")).data.total).toBe(0);

  rows[1] = row({ 人员编号: "IMP-002", 姓名: "导入乙", 手机号: "13800000002" });
  await choose(page, await filled(template, rows));
  await dialog.getByRole("button", { name: "检查" }).click();
  await expect(dialog.getByTestId("import-summary")).toHaveText("检查通过：共 2 行，可以导入。");
  await dialog.getByRole("button", { name: "确认导入" }).click();
  await expect(page.getByText("成功导入 2 条")).toBeVisible();

  const found = await api.get("/api/v1/zhct/userInfo/findPage?userCode=IMP-002");
  await page.goto(`/zhct/userinfo/account/${found.data.records[0].id as number}`);
  await expect(page.getByTestId("account-cash")).toContainText("0.00");
  await expect(page.getByTestId("account-subsidy")).toContainText("0.00");
});
