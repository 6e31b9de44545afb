import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { untilHydrated } from "./support/shell";

const { cashier } = e2eUsers;
const SHOTS = "test-results/screenshots";

/**
 * Issue 38: two diners called 张伟 were the same option in every person picker. The shared picker names a diner with
 * their 人员编号 and 部门, and finds them by code as well as by name.
 */
test("the person picker tells two 张伟 apart by code and department, and finds one by code (top-up and 发卡)", async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, cashier.userName, cashier.password);
  const run = Date.now().toString(36).slice(-5).toUpperCase();
  const ok = async (path: string, body: unknown) => {
    const result = await api.post(path, body);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 200 });
    return result.data as { id: number };
  };
  const finance = await ok("/api/v1/auth/org/create", { orgName: `财务部${run}`, orgType: "department", status: "1" });
  const kitchen = await ok("/api/v1/auth/org/create", { orgName: `后勤部${run}`, orgType: "department", status: "1" });
  await ok("/api/v1/zhct/userInfo/create", { userCode: `ZW-${run}-1`, userName: "张伟", deptId: finance.id });
  const second = await ok("/api/v1/zhct/userInfo/create", { userCode: `ZW-${run}-2`, userName: "张伟", deptId: kitchen.id });
  const first = `张伟（ZW-${run}-1 · 财务部${run}）`;
  const other = `张伟（ZW-${run}-2 · 后勤部${run}）`;

  for (const viewport of [{ width: 1366, height: 768 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(viewport);
    if (viewport.width === 1366) await signInFresh(page, cashier.userName, cashier.password, "/zhct/useraccountcharge/charge");
    else await page.goto("/zhct/useraccountcharge/charge");
    await untilHydrated(page);
    const box = page.getByRole("textbox", { name: "人员" });
    const list = page.getByRole("listbox", { name: "人员" });
    // By name: both, each with its code and department.
    await box.click();
    await box.fill("张伟");
    await expect(list.getByRole("option", { name: first, exact: true })).toBeVisible();
    await expect(list.getByRole("option", { name: other, exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/diner-picker-${viewport.width}.png` });
    // By code: the one.
    await box.fill(`ZW-${run}-2`);
    await expect(list.getByRole("option", { name: other, exact: true })).toBeVisible();
    await expect(list.getByRole("option", { name: first, exact: true })).toHaveCount(0);
  }
  await page.getByRole("listbox", { name: "人员" }).getByRole("option", { name: other, exact: true }).click();
  await expect(page.getByRole("textbox", { name: "人员" })).toHaveValue(other);
  await page.getByRole("textbox", { name: "充值金额" }).fill("12.00");
  await page.getByRole("button", { name: "确认充值" }).click();
  await expect(page).toHaveURL(/\/zhct\/useraccountcharge\/receipt\/\d+$/);
  // The receipt names the canteen (the tenant, no receipt title set), not the product (issue 38).
  await expect(page.getByTestId("receipt-title")).toHaveText("默认租户");
  await expect(page.getByTestId("receipt").locator('td[data-field="人员"]')).toHaveText(`张伟（ZW-${run}-2）`);
  const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${second.id}`);
  expect(accounts.data.records.reduce((s: number, a: { balance: number }) => s + a.balance, 0)).toBe(1200);

  // 发卡 (a form made from the declaration) uses the same picker.
  await page.goto("/zhct/usericcard/create");
  await untilHydrated(page);
  const box = page.getByRole("textbox", { name: "人员" });
  await box.click();
  await box.fill(`ZW-${run}-1`);
  await expect(page.getByRole("listbox", { name: "人员" }).getByRole("option", { name: first, exact: true })).toBeVisible();
});
