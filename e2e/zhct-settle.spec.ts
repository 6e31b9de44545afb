import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";

const { settle } = e2eUsers;
const china = (at = Date.now()) => new Date(at + 8 * 3600_000).toISOString();

test.describe.configure({ mode: "serial" });

test("a subsidy grant run twice grants once; a month generated and made formal refuses a top-up and shows locked", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, settle.userName, settle.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "S-001", userName: "赵补贴", staffType: "正式员工" });
  expect(diner.status).toBe(200);
  const dinerId = diner.data.id as number;
  const topUp = await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: dinerId, amount: 10000 });
  expect(topUp).toMatchObject({ status: 200, data: { balance: 10000 } });

  await signInFresh(page, settle.userName, settle.password, "/zhct/autochargesetting/create");
  await page.getByLabel("名称").fill("正式员工餐补");
  await page.getByRole("textbox", { name: "人员类别" }).fill("正式员工");
  await page.getByRole("textbox", { name: "每月补贴（元）" }).fill("300.5");
  await page.getByLabel("每月发放日").fill("1");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/autochargesetting\/index$/);
  await expect(page.getByRole("cell", { name: "正式员工餐补" })).toBeVisible();

  await page.getByRole("link", { name: "立即执行" }).first().click();
  await expect(page).toHaveURL(/\/zhct\/autochargesetting\/run\/\d+$/);
  await page.getByRole("button", { name: "立即执行", exact: true }).click();
  await expect(page.getByTestId("run-result")).toContainText("发放 1 人");
  await page.getByRole("button", { name: "立即执行", exact: true }).click();
  await expect(page.getByTestId("run-result")).toContainText("发放 0 人");
  await expect(page.getByTestId("run-result")).toContainText("跳过 1 人");
  const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${dinerId}`);
  expect(accounts.data.records.find((a: { accountType: string }) => a.accountType === "subsidy").balance).toBe(30050);

  await page.getByRole("link", { name: "查看执行记录" }).click();
  await expect(page).toHaveURL(/\/zhct\/autochargerun\/index\?settingId=\d+$/);
  await expect(page.getByRole("row")).toHaveCount(3);

  // The daily report: today's top-up, totals in yuan; the filters are in the URL.
  const today = china().slice(0, 10);
  await page.goto(`/zhct/chargedailyreport/index?from=${today}&to=${today}`);
  await expect(page.getByTestId("daily-total")).toContainText("100.00");
  await page.goto("/zhct/chargedailyreport/index?from=2026-02-30");
  await expect(page.getByText("日期格式应为 2026-05-01")).toBeVisible();

  await page.goto("/zhct/userinfodept/index");
  await expect(page.getByTestId("dept-report")).toContainText("未分配部门");
  await expect(page.getByTestId("dept-report")).toContainText("400.50");

  // Generate the month, make it formal: it is locked.
  const month = china().slice(0, 7);
  await page.goto("/zhct/useraccountmonthsettle/index");
  await page.getByRole("link", { name: "生成", exact: true }).click();
  await expect(page).toHaveURL(/\/zhct\/useraccountmonthsettle\/generate$/);
  await expect(page.getByRole("textbox", { name: "月份" })).toHaveValue(month);
  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/zhct/useraccountmonthsettle/index\\?month=${month}$`));
  await expect(page.getByText(`${month} 已生成（2 个账户）`)).toBeVisible();
  await expect(page.getByRole("cell", { name: "暂存" }).first()).toBeVisible();

  await page.goto("/zhct/useraccountmonthsettle/formal");
  await page.getByRole("textbox", { name: "月份" }).fill("2026-13");
  await page.getByRole("button", { name: "转正式", exact: true }).click();
  await expect(page.getByText("月份格式应为 2026-05")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "月份" })).toHaveValue("2026-13");
  // 转正式 is confirmed in a dialog naming the month and what it holds; 返回 leaves it 暂存.
  await page.getByRole("textbox", { name: "月份" }).fill(month);
  await page.getByRole("button", { name: "转正式", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "转正式" });
  await expect(dialog.getByTestId("confirm-summary")).toContainText(`将把 ${month} 的月结（2 个账户，期初合计 0.00 元，期末合计 400.50 元）转为正式并锁定该月`);
  await page.screenshot({ path: "test-results/zhct-settle-formal-confirm.png" });
  await dialog.getByRole("button", { name: "返回" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("settled-months").getByRole("row").filter({ hasText: month })).toContainText("暂存");
  await page.getByRole("button", { name: "转正式", exact: true }).click();
  await dialog.getByRole("button", { name: "确认转正式" }).click();
  await expect(page.getByText(`${month} 已转正式并锁定`)).toBeVisible();

  const refused = await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: dinerId, amount: 100 });
  expect(refused).toMatchObject({ status: 409, message: `${month} 已正式结算，不能再记入该月的流水` });

  await page.goto("/zhct/useraccountmonthsettle/generate");
  await expect(page.getByTestId("settled-months")).toContainText("正式（已锁定）");
  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: `${month} 已正式结算，不能重新生成` })).toBeVisible();
});

test("the month pages work before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInFresh(page, settle.userName, settle.password, "/zhct/useraccountmonthsettle/generate");
  await page.getByRole("textbox", { name: "月份" }).fill("abc");
  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page.getByText("月份格式应为 2026-05")).toBeVisible();
  await context.close();
});
