import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";

const { points } = e2eUsers;
const shots = process.env.E2E_SCREENSHOTS;

test.describe.configure({ mode: "serial" });

test("a pay type disabled on the paytype page is listed as disabled", async ({ page }) => {
  await signInFresh(page, points.userName, points.password, "/zhct/paytype/index?create=1");
  const form = page.getByRole("region", { name: "新增支付方式" });
  await form.getByRole("combobox", { name: "支付方式" }).selectOption({ label: "扫码" });
  await form.getByRole("textbox", { name: "显示名称" }).fill("扫码支付");
  await form.getByRole("combobox", { name: "状态" }).selectOption({ label: "停用" });
  await form.getByRole("spinbutton", { name: "排序" }).fill("2");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "扫码支付" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell", { name: "停用" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "扫码", exact: true })).toBeVisible();

  // The same method again for all restaurants is refused at the field, with what was typed kept.
  await page.goto("/zhct/paytype/index?create=1");
  await form.getByRole("combobox", { name: "支付方式" }).selectOption({ label: "扫码" });
  await form.getByRole("textbox", { name: "显示名称" }).fill("再来一次");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("全部餐厅已配置此支付方式")).toBeVisible();
  await expect(form.getByRole("textbox", { name: "显示名称" })).toHaveValue("再来一次");
  if (shots) await page.screenshot({ path: `${shots}/paytype.png`, fullPage: true });
});

test("staff adjust a diner's points and see the line and the balance", async ({ page, request }) => {
  const api = await apiAs(request, points.userName, points.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "JF-001", userName: "钱积分" });
  expect(diner.status).toBe(200);
  const dinerId = diner.data.id as number;

  await signInFresh(page, points.userName, points.password, `/zhct/userinfo/account/${dinerId}`);
  await expect(page.getByTestId("account-points")).toContainText("0 分");
  await page.getByTestId("account-points").getByRole("link", { name: "调整" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhct/useraccountintegraldetail/adjust\\?userInfoId=${dinerId}$`));
  await expect(page.getByTestId("points-balance")).toHaveText("当前积分：0");

  await page.getByRole("textbox", { name: "调整积分" }).fill("1.5");
  await page.getByRole("textbox", { name: "调整原因" }).fill("活动奖励");
  await page.getByRole("button", { name: "确认调整" }).click();
  await expect(page.getByText("调整积分应为整数")).toBeVisible();
  await page.getByRole("textbox", { name: "调整积分" }).fill("120");
  await page.getByRole("button", { name: "确认调整" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhct/useraccountintegraldetail/index\\?userInfoId=${dinerId}$`));
  await expect(page.getByText("积分调整成功，当前积分 120")).toBeVisible();
  const line = page.getByRole("row").filter({ hasText: "活动奖励" });
  await expect(line).toHaveCount(1);
  await expect(line).toContainText("钱积分");
  await expect(line).toContainText("人工调整");
  await expect(line.getByRole("cell", { name: "120", exact: true })).toHaveCount(2);
  if (shots) await page.screenshot({ path: `${shots}/points-ledger.png`, fullPage: true });

  // Taking more than the balance is refused and writes nothing.
  await page.getByRole("link", { name: "积分调整" }).click();
  await expect(page).toHaveURL(/\/zhct\/useraccountintegraldetail\/adjust$/);
  await page.goto(`/zhct/useraccountintegraldetail/adjust?userInfoId=${dinerId}`);
  await page.getByRole("textbox", { name: "调整积分" }).fill("-200");
  await page.getByRole("textbox", { name: "调整原因" }).fill("兑换礼品");
  await page.getByRole("button", { name: "确认调整" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "积分不足" })).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/points-adjust.png`, fullPage: true });
  const lines = await api.get(`/api/v1/zhct/userAccountIntegralDetail/findPage?userInfoId=${dinerId}`);
  expect(lines.data.total).toBe(1);

  await page.goto(`/zhct/userinfo/account/${dinerId}`);
  await expect(page.getByTestId("account-points")).toContainText("120 分");
  if (shots) await page.screenshot({ path: `${shots}/diner-account.png`, fullPage: true });
});
