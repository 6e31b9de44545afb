import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, pick, untilHydrated } from "./support/shell";

const { cashier } = e2eUsers;

test.describe.configure({ mode: "serial" });


const receiptField = (page: Page, label: string) => page.getByTestId("receipt").locator(`td[data-field="${label}"]`);

test("a diner from creation to a lost card: issue a card, top up 100.00, refund 20.00, the ledger, the receipt, report the card lost", async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, cashier.userName, cashier.password);
  await signInFresh(page, cashier.userName, cashier.password);

  await page.goto("/zhct/userinfo/create");
  await page.getByLabel("人员编号").fill("E2E-001");
  await page.getByLabel("姓名").fill("王小明");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/userinfo\/index$/);
  await expect(page.getByText("保存成功")).toBeVisible();
  const found = await api.get("/api/v1/zhct/userInfo/findPage?userCode=E2E-001");
  const dinerId = found.data.records[0].id as number;

  await page.goto("/zhct/usericcard/create");
  await page.getByRole("textbox", { name: "卡号", exact: true }).fill("E2E0001");
  await pick(page, "人员", "王小明");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/usericcard\/index$/);

  // The diner's page: two accounts at zero, the card, no lines yet.
  await page.goto(`/zhct/userinfo/account/${dinerId}`);
  await expect(page.getByTestId("account-cash")).toContainText("0.00");
  await expect(page.getByTestId("account-subsidy")).toContainText("0.00");
  await expect(page.getByText("E2E0001")).toBeVisible();
  await expect(page.getByText("暂无流水")).toBeVisible();

  await page.getByRole("link", { name: "充值" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhct/useraccountcharge/charge\\?userInfoId=${dinerId}$`));
  const amount = page.getByRole("textbox", { name: "充值金额" });
  await amount.fill("100.001");
  await page.getByRole("button", { name: "确认充值" }).click();
  await expect(page.getByText("金额最多两位小数")).toBeVisible();
  await expect(amount).toHaveValue("100.001");
  await amount.fill("100.00");
  // The top-up's channels (decision 064): the tenant's dictionary, not the consumption methods (刷脸, 自动扣款…).
  const channel = page.getByRole("combobox", { name: "充值渠道" });
  await expect(channel.locator("option")).toHaveText(["现金", "银行卡/POS", "微信", "支付宝", "银行转账", "其他"]);
  await expect(channel).toHaveValue("cash");
  await channel.selectOption({ label: "微信" });
  await page.getByRole("button", { name: "确认充值" }).click();
  await expect(page).toHaveURL(/\/zhct\/useraccountcharge\/receipt\/\d+$/);
  await expect(page.getByRole("heading", { name: "充值回单" })).toBeVisible();
  await expect(receiptField(page, "充值渠道")).toHaveText("微信");
  await expect(receiptField(page, "金额")).toHaveText("100.00 元");
  await expect(receiptField(page, "变动后余额")).toHaveText("100.00 元");
  await expect(receiptField(page, "人员")).toHaveText("王小明（E2E-001）");

  await page.goto(`/zhct/userinfo/account/${dinerId}`);
  await page.getByRole("link", { name: "退款" }).click();
  await untilHydrated(page);
  // A refund is confirmed in a dialog naming the diner, the account and the amount, with its reason.
  await page.getByRole("textbox", { name: "退款金额" }).fill("200");
  await page.getByRole("button", { name: "退款", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "退款" });
  await expect(dialog.getByTestId("confirm-summary")).toContainText("将从 王小明（E2E-001） 的现金账户退回 200.00 元（当前余额 100.00 元）");
  await dialog.getByLabel("退款原因").fill("多充退回");
  await dialog.getByRole("button", { name: "确认退款" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("alert").filter({ hasText: "余额不足" })).toBeVisible();
  await page.getByRole("textbox", { name: "退款金额" }).fill("20.00");
  await page.getByLabel("备注").fill("退还现金");
  await page.getByRole("button", { name: "退款", exact: true }).click();
  await expect(dialog.getByTestId("confirm-summary")).toContainText("退回 20.00 元（当前余额 100.00 元）");
  await page.screenshot({ path: "test-results/zhct-ledger-refund-confirm.png" });
  // No reason: the step stays (the field is required) and nothing moves.
  await dialog.getByRole("button", { name: "确认退款" }).click();
  expect(await dialog.getByLabel("退款原因").evaluate((field: HTMLTextAreaElement) => field.validity.valueMissing)).toBe(true);
  await expect(dialog).toBeVisible();
  expect((await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${dinerId}&accountType=cash`)).data.records[0].balance).toBe(10000);
  await dialog.getByLabel("退款原因").fill("多充退回");
  await dialog.getByRole("button", { name: "确认退款" }).click();
  await expect(page.getByRole("heading", { name: "退款回单" })).toBeVisible();
  await expect(receiptField(page, "变动后余额")).toHaveText("80.00 元");
  // The receipt prints alone: the shell's navigation is hidden in print.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "返回列表" }).or(page.getByRole("link", { name: "返回列表" }))).toBeHidden();
  await expect(page.getByTestId("receipt")).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  await page.goto(`/zhct/userinfo/account/${dinerId}`);
  await expect(page.getByTestId("account-cash")).toContainText("80.00");
  const lines = page.getByTestId("ledger").locator("tbody tr");
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText("-20.00");
  await expect(lines.nth(0)).toContainText("多充退回（退还现金）");
  await expect(lines.nth(1)).toContainText("+100.00");

  // The top-up and refund list, its channel column and filter, and the card reported lost from its row.
  await page.goto("/zhct/useraccountcharge/index");
  await expect(page.getByRole("link", { name: "充值", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "王小明" }).first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "充值渠道" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "支付方式" })).toHaveCount(0);
  await page.getByRole("search").getByRole("combobox", { name: "充值渠道" }).selectOption({ label: "微信" });
  await page.getByRole("search").getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/channel=wechat/);
  const wechat = page.getByRole("row").filter({ hasText: "王小明" });
  await expect(wechat).toHaveCount(1);
  await expect(wechat).toContainText("微信");
  await expect(wechat).toContainText("100.00");
  await page.goto("/zhct/usericcard/index");
  const row = page.getByRole("row").filter({ hasText: "E2E0001" });
  await row.getByRole("link", { name: "挂失" }).click();
  await expect(page).toHaveURL(/\/zhct\/usericcard\/reportLoss\/\d+$/);
  await untilHydrated(page);
  await page.getByRole("button", { name: "挂失", exact: true }).click();
  const loss = page.getByRole("dialog", { name: "挂失" });
  await expect(loss.getByTestId("confirm-summary")).toContainText("将挂失 王小明 的卡 E2E0001（当前「正常」）");
  await loss.getByRole("button", { name: "确认挂失" }).click();
  await expect(page).toHaveURL(/\/zhct\/usericcard\/index$/);
  await expect(page.getByText("挂失成功")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "E2E0001" })).toContainText("挂失");
  const card = await api.get("/api/v1/zhct/userIcCard/findPage?cardNo=E2E0001");
  expect(card.data.records[0].cardStatus).toBe("2");

  // 注销 cannot be undone: 返回 changes nothing; it needs a reason, kept in the operation log.
  await page.getByRole("row").filter({ hasText: "E2E0001" }).getByRole("link", { name: "注销" }).click();
  await untilHydrated(page);
  await page.getByRole("button", { name: "注销", exact: true }).click();
  const cancel = page.getByRole("dialog", { name: "注销" });
  await expect(cancel.getByTestId("confirm-summary")).toContainText("将注销 王小明 的卡 E2E0001（当前「挂失」）。注销后此卡作废，不能恢复。");
  await cancel.getByRole("button", { name: "返回" }).click();
  await expect(cancel).toBeHidden();
  expect((await api.get("/api/v1/zhct/userIcCard/findPage?cardNo=E2E0001")).data.records[0].cardStatus).toBe("2");
  await page.getByRole("button", { name: "注销", exact: true }).click();
  await cancel.getByLabel("注销原因").fill("卡片损坏");
  await cancel.getByRole("button", { name: "确认注销" }).click();
  await expect(page.getByText("注销成功")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "E2E0001" })).toContainText("无效");
  const log = await api.get(`/api/v1/sys/operationLog/findPage?entityId=${card.data.records[0].id}&sort=time,desc`);
  expect(JSON.parse(log.data.records[0].changes)).toMatchObject({ reason: "卡片损坏" });
});

test("a refund before JavaScript: the form's submit draws the confirmation step in the page, which refuses no reason and then refunds once", async ({ page, browser, request }) => {
  const api = await apiAs(request, cashier.userName, cashier.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "E2E-003", userName: "钱无脚本" });
  expect(diner.status, diner.message).toBe(200);
  expect((await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.data.id, amount: 5000 })).status).toBe(200);
  await signInFresh(page, cashier.userName, cashier.password);
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL: test.info().project.use.baseURL });
  const bare = await context.newPage();
  await bare.goto(`/zhct/useraccountcharge/refund?userInfoId=${diner.data.id}`);
  await bare.getByRole("textbox", { name: "退款金额" }).fill("12.50");
  await bare.getByRole("button", { name: "退款", exact: true }).click();
  const step = bare.getByTestId("confirm-refund");
  await expect(step.getByTestId("confirm-summary")).toContainText("将从 钱无脚本（E2E-003） 的现金账户退回 12.50 元（当前余额 50.00 元）");
  await expect(bare.getByRole("textbox", { name: "退款金额" })).toHaveValue("12.50");
  await step.getByRole("button", { name: "确认退款" }).click();
  await expect(step.getByText("请输入退款原因")).toBeVisible();
  const cash = async () => (await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${diner.data.id}&accountType=cash`)).data.records[0].balance;
  expect(await cash()).toBe(5000);
  await step.getByLabel("退款原因").fill("无脚本退款");
  await step.getByRole("button", { name: "确认退款" }).click();
  await expect(bare).toHaveURL(/\/zhct\/useraccountcharge\/receipt\/\d+$/);
  await expect(receiptField(bare, "变动后余额")).toHaveText("37.50 元");
  expect(await cash()).toBe(3750);
  await context.close();
});

test("the top-up form works before JavaScript: a plain form post tops up once and shows the receipt", async ({ page, browser, request }) => {
  const api = await apiAs(request, cashier.userName, cashier.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "E2E-002", userName: "赵无脚本" });
  expect(diner.status, diner.message).toBe(200);
  await signInFresh(page, cashier.userName, cashier.password);
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL: test.info().project.use.baseURL });
  const bare = await context.newPage();
  await bare.goto(`/zhct/useraccountcharge/charge?userInfoId=${diner.data.id}`);
  await bare.getByRole("textbox", { name: "充值金额" }).fill("12.345");
  await bare.getByRole("button", { name: "确认充值" }).click();
  await expect(bare.getByText("金额最多两位小数")).toBeVisible();
  await expect(bare.getByRole("textbox", { name: "充值金额" })).toHaveValue("12.345");
  await bare.getByRole("textbox", { name: "充值金额" }).fill("12.34");
  await bare.getByRole("button", { name: "确认充值" }).click();
  await expect(bare).toHaveURL(/\/zhct\/useraccountcharge\/receipt\/\d+$/);
  await expect(receiptField(bare, "变动后余额")).toHaveText("12.34 元");
  const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${diner.data.id}&accountType=cash`);
  expect(accounts.data.records[0].balance).toBe(1234);
  await context.close();
});

test("a browser in English gets the Chinese calendar over a date field, and the day picked is what the filter sends", async ({ browser }) => {
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await signInFresh(page, cashier.userName, cashier.password);
  await page.goto("/zhct/useraccountcharge/index");
  await untilHydrated(page);
  const from = dateField(page, "时间起");
  await expect(from).toHaveAttribute("placeholder", "年-月-日");
  await from.click();
  // The calendar's weeks start on 周一, and the days are named in Chinese.
  await expect(page.getByRole("columnheader", { name: /^周/ })).toHaveText(["周一", "周二", "周三", "周四", "周五", "周六", "周日"]);
  await page.screenshot({ path: "test-results/date-calendar-month.png" });
  // The year's months, in Chinese whatever the browser's language.
  const year = new Date().getFullYear();
  await page.getByRole("button", { name: new RegExp(`^${year}年\\d+月$`) }).click();
  await expect(page.getByRole("button", { name: "一月", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "十二月", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "一月", exact: true }).click();
  await page.getByRole("button", { name: `${year}年1月15日` }).click();
  await expect(from).toHaveValue(`${year}-01-15`);
  await page.getByRole("search").getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`chargedAtBegin=${year}-01-15(&|$)`));
  // The filter comes back with the day in the calendar.
  await untilHydrated(page);
  await expect(dateField(page, "时间起")).toHaveValue(`${year}-01-15`);
  await context.close();
});
