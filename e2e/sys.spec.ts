import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, signInTo } from "./support/shell";

const { operator } = e2eUsers;

test("the menu tree: add an entry under a subsystem, a server rule at the field, move it to the top, delete it", async ({ page }) => {
  // A journey of six saves and page loads: 30 s was at its edge on a loaded CI machine (32 s when it timed out).
  test.setTimeout(60_000);
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index");
  await expect(page.getByRole("tab", { name: "系统管理" })).toHaveAttribute("aria-selected", "true");
  const device = page.locator("tbody tr", { hasText: "/admin/sys/device/index" });
  await expect(device).toContainText("页面");
  // A page's button codes are folded under it until asked for (issue 38).
  await expect(page.locator("tbody tr", { hasText: "sys:device:setting" })).toHaveCount(0);
  await device.getByRole("link", { name: /^展开 \d+ 个按钮$/ }).click();
  await expect(page).toHaveURL(/[?&]open=\d+/);
  await expect(page.locator("tbody tr", { hasText: "sys:device:setting" })).toContainText("参数设置");

  await page.getByRole("link", { name: "新增", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/menu\/create\/1$/);
  await expect(page.getByRole("textbox", { name: "子系统" })).toHaveValue("系统管理");
  await page.getByLabel("菜单名称").fill("食堂大屏");
  await page.getByLabel("菜单类型").selectOption("button");
  await page.getByLabel("上级菜单").selectOption({ label: "系统管理" });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("按钮必须填写权限标识")).toBeVisible();
  await expect(page.getByLabel("菜单名称")).toHaveValue("食堂大屏");

  await page.getByLabel("菜单类型").selectOption("page");
  await page.getByLabel("菜单路径").fill("/admin/sys/screen/index");
  await page.getByLabel("排序").fill("99");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/menu\/index\?subsystemId=1$/);
  await expect(page.getByText("保存成功")).toBeVisible();
  const row = page.locator("tbody tr", { hasText: "食堂大屏" });
  await expect(row).toContainText("/admin/sys/screen/index");

  await row.getByRole("link", { name: "编辑" }).click();
  await expect(page.getByLabel("上级菜单")).toHaveValue(/\d+/);
  await page.getByLabel("上级菜单").selectOption({ label: "无（顶级菜单）" });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  await page.locator("tbody tr", { hasText: "食堂大屏" }).getByRole("link", { name: "编辑" }).click();
  await expect(page.getByLabel("上级菜单")).toHaveValue("");
  await page.getByRole("link", { name: "取消" }).click();

  await page.locator("tbody tr", { hasText: "食堂大屏" }).getByRole("link", { name: "删除" }).click();
  await expect(page.getByTestId("confirm-delete")).toContainText("食堂大屏");
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(page.locator("tbody tr", { hasText: "食堂大屏" })).toHaveCount(0);

  await page.getByRole("tab", { name: "智慧餐厅" }).click();
  await expect(page).toHaveURL(/subsystemId=2$/);
  await expect(page.getByRole("tab", { name: "智慧餐厅" })).toHaveAttribute("aria-selected", "true");
});

test("a page's buttons fold under it: opened and closed, edited, added to, deleted, all shown at once", async ({ page }) => {
  test.setTimeout(60_000);
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=1");
  const device = page.locator("tbody tr", { hasText: "/admin/sys/device/index" });
  const buttonRows = page.locator("tbody tr", { hasText: "按钮" }).filter({ has: page.locator("td:nth-child(2)", { hasText: /^按钮$/ }) });
  await expect(buttonRows).toHaveCount(0);
  const unfold = device.getByRole("link", { name: /^展开 \d+ 个按钮$/ });
  await expect(unfold).toHaveAttribute("aria-expanded", "false");
  const count = Number(/展开 (\d+) 个按钮/.exec((await unfold.textContent()) ?? "")?.[1]);
  expect(count).toBeGreaterThan(0);
  await unfold.click();
  await expect(buttonRows).toHaveCount(count);
  await expect(device.getByRole("link", { name: "收起按钮" })).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: "test-results/screenshots/sys-menu-index-unfolded.png" });

  // A button added under the page comes back with the page opened, among its buttons.
  await device.getByRole("link", { name: "新增下级" }).click();
  await page.getByLabel("菜单名称").fill("导出参数");
  await page.getByLabel("菜单类型").selectOption("button");
  await page.getByLabel("权限标识").fill("sys:device:exportParams");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  await expect(page).toHaveURL(/[?&]open=\d+/);
  await expect(buttonRows).toHaveCount(count + 1);
  const added = page.locator("tbody tr", { hasText: "sys:device:exportParams" });
  await expect(added).toContainText("导出参数");

  // Edited and deleted from its row, the page staying open.
  await added.getByRole("link", { name: "编辑" }).click();
  await page.getByLabel("菜单名称").fill("导出设备参数");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.locator("tbody tr", { hasText: "sys:device:exportParams" })).toContainText("导出设备参数");
  await page.locator("tbody tr", { hasText: "sys:device:exportParams" }).getByRole("link", { name: "删除" }).click();
  await expect(page.getByTestId("confirm-delete")).toContainText("导出设备参数");
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(buttonRows).toHaveCount(count);

  await device.getByRole("link", { name: "收起按钮" }).click();
  await expect(buttonRows).toHaveCount(0);
  await page.getByRole("link", { name: "展开全部按钮" }).click();
  await expect(page.locator("tbody tr", { hasText: "sys:device:setting" })).toBeVisible();
  expect(await buttonRows.count()).toBeGreaterThan(count);
  await page.getByRole("link", { name: "收起全部按钮" }).click();
  await expect(buttonRows).toHaveCount(0);
});

test("a subsystem too large for one page opens at its sections: a section opens and closes with what was opened in it", async ({ page }) => {
  test.setTimeout(60_000);
  // 智慧餐厅 holds about 80 entries: its folder and sections fit a list page, its pages wait in them (issue 38).
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=2");
  const rows = page.locator("tbody tr");
  const typed = (label: string) => rows.filter({ has: page.locator("td:nth-child(2)", { hasText: new RegExp(`^${label}$`) }) });
  await expect(typed("目录").first()).toBeVisible();
  await expect(typed("页面")).toHaveCount(0);
  await expect(page.getByText(/^显示 \d+ 项，共 [\d,]+ 项（含按钮）；点击目录展开$/)).toBeVisible();
  const section = rows.filter({ hasText: "订单与收银" });
  const folder = section.getByRole("link", { name: "订单与收银" });
  await expect(folder).toHaveAttribute("aria-expanded", "false");
  await expect(section).toContainText(/订单与收银\s*13 项/);
  await page.screenshot({ path: "test-results/screenshots/sys-menu-index-folded.png", fullPage: true });

  // A plain link landing at the row (#menu-<id>) until scripts load, then routed in the app keeping the scroll.
  await folder.click();
  await expect(page).toHaveURL(/\?subsystemId=2&open=\d+(#menu-\d+)?$/);
  await expect(folder).toHaveAttribute("aria-expanded", "true");
  await expect(typed("页面")).toHaveCount(13);
  const cashier = rows.filter({ hasText: "/zhct/cashier/index" });
  await expect(cashier).toContainText("收银台");

  // A page's buttons opened in it: both stay open, and the URL holds both (a bookmark keeps them).
  const orders = rows.filter({ hasText: "/zhct/mealorder/index" });
  const unfold = orders.getByRole("link", { name: /^展开 \d+ 个按钮$/ });
  const count = Number(/展开 (\d+) 个按钮/.exec((await unfold.textContent()) ?? "")?.[1]);
  await unfold.click();
  await expect(page).toHaveURL(/\?subsystemId=2&open=\d+,\d+(#menu-\d+)?$/);
  await expect(typed("按钮")).toHaveCount(count);
  await expect(cashier).toBeVisible();
  await page.reload();
  await expect(typed("按钮")).toHaveCount(count);
  await page.screenshot({ path: "test-results/screenshots/sys-menu-index-section-opened.png", fullPage: true });

  // Closing the section closes the page opened in it.
  await folder.click();
  await expect(page).toHaveURL(/\/admin\/sys\/menu\/index\?subsystemId=2(#menu-\d+)?$/);
  await expect(typed("页面")).toHaveCount(0);
  await expect(typed("按钮")).toHaveCount(0);
  await expectNoReactErrors(page);
});

test("a search of the menu index finds screens by name under their folders, marked; a match's buttons open it in the tree", async ({ page }) => {
  test.setTimeout(60_000);
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=1");
  const search = page.getByRole("search", { name: "菜单查询" });
  await search.getByLabel("关键字").fill("收银");
  await search.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/subsystemId=1&keyword=%E6%94%B6%E9%93%B6$/);
  await expect(page.locator("tbody")).toContainText("没有名称、路径或权限标识包含「收银」的菜单");
  // The other subsystem's tab keeps the search.
  await page.getByRole("tab", { name: "智慧餐厅" }).click();
  await expect(page).toHaveURL(/subsystemId=2&keyword=%E6%94%B6%E9%93%B6$/);
  await expect(page.getByText(/^找到 \d+ 项$/)).toBeVisible();
  const rows = page.locator("tbody tr");
  await expect(rows.first()).toContainText("智慧餐厅");
  await expect(rows.first()).toHaveAttribute("data-match", "false");
  for (const name of ["收银台", "收银订单"]) {
    const row = rows.filter({ hasText: name });
    await expect(row).toHaveAttribute("data-match", "true");
    await expect(row.locator("mark")).toHaveText("收银");
  }
  // A matching button is drawn under its page; pages that do not match and hold no match are not drawn.
  await expect(rows.filter({ hasText: "/zhct/mealorder/index" })).toHaveAttribute("data-match", "false");
  await expect(rows.filter({ hasText: "zhct:mealOrder:pay" })).toHaveAttribute("data-match", "true");
  await expect(rows.filter({ hasText: "/zhct/mealorderitem/index" })).toHaveCount(0);
  await expect(search.getByLabel("关键字")).toHaveValue("收银");
  await page.screenshot({ path: "test-results/screenshots/sys-menu-index-search.png", fullPage: true });

  // By permission code, letters without case.
  await search.getByLabel("关键字").fill("ZHCT:MEALORDER:CANCEL");
  await search.getByRole("button", { name: "查询" }).click();
  await expect(page.getByText(/^找到 2 项$/)).toBeVisible();
  const orders = rows.filter({ hasText: "/zhct/mealorder/index" });
  await expect(orders).toHaveAttribute("data-match", "false");
  await expect(rows.filter({ has: page.locator("mark") })).toHaveText([/取消订单.*zhct:mealOrder:cancel/, /超时取消.*zhct:mealOrder:cancelLate/]);

  // The page's buttons link opens it in the tree, at its row, the search left.
  await orders.getByRole("link", { name: /^展开 \d+ 个按钮$/ }).click();
  await expect(page).toHaveURL(/\?subsystemId=2&open=\d+(#menu-\d+)?$/);
  await expect(search.getByLabel("关键字")).toHaveValue("");
  await expect(rows.filter({ hasText: "/zhct/cashier/index" })).toContainText("收银台");
  await expect(orders.getByRole("link", { name: "收起按钮" })).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("link", { name: "重置" }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/menu\/index\?subsystemId=2$/);
});

test("an entry saved in a folded section comes back with the section opened at its row, and is deleted from there", async ({ page }) => {
  test.setTimeout(60_000);
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=2");
  const rows = page.locator("tbody tr");
  await rows.filter({ hasText: "满意度与通知" }).getByRole("link", { name: "新增下级" }).click();
  await expect(page.getByLabel("上级菜单")).toHaveValue(/\d+/);
  await page.getByLabel("菜单名称").fill("满意度大屏");
  await page.getByLabel("菜单路径").fill("/zhct/surveyscreen/index");
  // Disabled: no one's navigation shows it while it exists.
  await page.getByLabel("状态").selectOption({ label: "无效" });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  await expect(page).toHaveURL(/[?&]open=\d+/);
  const saved = rows.filter({ hasText: "满意度大屏" });
  await expect(saved).toContainText("/zhct/surveyscreen/index");
  await saved.getByRole("link", { name: "删除" }).click();
  await expect(page.getByTestId("confirm-delete")).toContainText("满意度大屏");
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(saved).toHaveCount(0);
  await expect(rows.filter({ hasText: "满意度与通知" }).getByRole("link", { name: "满意度与通知" })).toHaveAttribute("aria-expanded", "true");
});

test.describe("without scripts", () => {
  test.use({ javaScriptEnabled: false });
  test("a page's buttons open by a plain link that lands at the page's row", async ({ page }) => {
    await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=1");
    const device = page.locator("tbody tr", { hasText: "/admin/sys/device/index" });
    await expect(page.locator("tbody tr", { hasText: "sys:device:setting" })).toHaveCount(0);
    await device.getByRole("link", { name: /^展开 \d+ 个按钮$/ }).click();
    await expect(page).toHaveURL(/[?&]open=(\d+)#menu-\1$/);
    await expect(page.locator("tbody tr", { hasText: "sys:device:setting" })).toContainText("参数设置");
  });

  test("a folded section opens by a plain link, and a search is a plain form: both URLs to bookmark", async ({ page }) => {
    await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=2");
    await expect(page.locator("tbody tr", { hasText: "/zhct/cashier/index" })).toHaveCount(0);
    await page.getByRole("link", { name: "订单与收银" }).click();
    await expect(page).toHaveURL(/[?&]open=(\d+)#menu-\1$/);
    await expect(page.locator("tbody tr", { hasText: "/zhct/cashier/index" })).toContainText("收银台");
    await page.getByLabel("关键字").fill("食堂大屏无此项");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/\?subsystemId=2&keyword=/);
    await expect(page.locator("tbody")).toContainText("没有名称、路径或权限标识包含「食堂大屏无此项」的菜单");
  });
});

test("a menu entry that still has children is kept, with the reason shown", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/menu/index?subsystemId=1");
  await page.locator("tbody tr", { hasText: "/admin/sys/device/index" }).getByRole("link", { name: "删除" }).click();
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "该菜单下还有子菜单，请先删除子菜单" })).toBeVisible();
});

test("a device is added through the list, then its parameters are set on its setting page", async ({ page, request }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/device/create");
  await page.getByLabel("设备编码").fill("GATE-01");
  await page.getByLabel("设备名称").fill("一楼结算台");
  await page.getByLabel("设备类型").selectOption("box");
  await page.getByLabel("IP 地址").fill("192.168.1.300");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("请输入有效的 IPv4 地址，如 192.168.1.20")).toBeVisible();
  await expect(page.getByLabel("设备名称")).toHaveValue("一楼结算台");
  await page.getByLabel("IP 地址").fill("192.168.1.30");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/sys/device/index");
  await expect(page.locator("tbody tr", { hasText: "GATE-01" })).toContainText("离线");

  const api = await apiAs(request, operator.userName, operator.password);
  const found = await api.get("/api/v1/sys/device/findPage?deviceCode=GATE-01");
  const id = found.data.records[0].id as number;

  await page.goto(`/admin/sys/device/setting/${id}`);
  await expect(page.getByRole("heading", { name: "设备参数 · 一楼结算台（GATE-01）" })).toBeVisible();
  await expect(page.getByText("还没有参数")).toBeVisible();
  await page.getByRole("button", { name: "添加参数" }).click();
  await page.getByRole("button", { name: "添加参数" }).click();
  const rows = page.getByTestId("device-param");
  await expect(rows).toHaveCount(2);
  await rows.nth(0).getByLabel("参数名").fill("volume");
  await rows.nth(0).getByLabel("参数值").fill("80");
  await rows.nth(1).getByLabel("参数名").fill("volume");
  await rows.nth(1).getByLabel("参数值").fill("60");
  await rows.nth(1).getByLabel("说明").fill("夜间音量");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(rows.nth(1).getByText("参数名重复")).toBeVisible();
  await expect(rows.nth(1).getByLabel("说明")).toHaveValue("夜间音量");

  await rows.nth(1).getByLabel("参数名").fill("nightVolume");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/sys/device/index");
  await expect(page.getByText("保存成功")).toBeVisible();

  const saved = await api.get(`/api/v1/sys/device/getParams?id=${id}`);
  expect(saved.data.params).toEqual([
    { paramKey: "volume", paramValue: "80", remark: null },
    { paramKey: "nightVolume", paramValue: "60", remark: "夜间音量" },
  ]);
  await page.goto(`/admin/sys/device/setting/${id}`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByLabel("参数名")).toHaveValue("nightVolume");
  await page.getByRole("button", { name: "移除 1" }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/sys/device/index");
  expect((await api.get(`/api/v1/sys/device/getParams?id=${id}`)).data.params).toEqual([{ paramKey: "nightVolume", paramValue: "60", remark: "夜间音量" }]);
});

test("a merchant's parameter is edited on the page addressed by merchant and parameter", async ({ page, request }) => {
  const api = await apiAs(request, operator.userName, operator.password);
  const merchant = await api.post("/api/v1/sys/merchant/create", { merchantCode: "NOODLE", merchantName: "兰州拉面", status: "1" });
  expect(merchant.status, merchant.message).toBe(200);
  expect((await api.post("/api/v1/sys/parameterConfig/create", { paramCode: "order.cancelMinutes", paramName: "取消订单时限（分钟）", paramValue: "30" })).status).toBe(200);
  expect((await api.post("/api/v1/sys/merchantConfig/create", { merchantId: merchant.data.id, parameterCode: "order.cancelMinutes", paramValue: "10" })).status).toBe(200);

  await signInFresh(page, operator.userName, operator.password, "/admin/sys/merchantconfig/index");
  const row = page.locator("tbody tr", { hasText: "order.cancelMinutes" });
  await expect(row).toContainText("兰州拉面");
  await row.getByRole("link", { name: "编辑" }).click();
  await expect(page).toHaveURL(`/admin/sys/merchantconfig/edit/${merchant.data.id}/order.cancelMinutes`);
  const key = page.getByTestId("merchant-config-key");
  await expect(key).toContainText("兰州拉面");
  await expect(key).toContainText("取消订单时限（分钟）");
  await expect(key).toContainText("30");
  await expect(page.getByLabel("参数值")).toHaveValue("10");
  await page.getByLabel("参数值").fill("15");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/sys/merchantconfig/index");
  await expect(page.locator("tbody tr", { hasText: "order.cancelMinutes" })).toContainText("15");

  await page.goto("/admin/sys/merchantconfig/edit/1/no.such.parameter");
  await expect(page.getByRole("heading", { name: "页面不存在" })).toBeVisible();
});

test("IC card initialisation: the serial is checked, recorded once, and listed", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/iccard/init");
  await expect(page.getByRole("heading", { name: "IC卡初始化" })).toBeVisible();
  await page.getByLabel("卡序列号").fill("12345");
  await page.getByRole("button", { name: "记录初始化" }).click();
  await expect(page.getByText("卡序列号应为 8 位或 16 位十六进制字符")).toBeVisible();

  await page.getByLabel("卡序列号").fill("a1b2c3d4");
  await page.getByRole("button", { name: "记录初始化" }).click();
  await expect(page.getByText("卡 A1B2C3D4 的初始化已记录")).toBeVisible();
  const recent = page.getByTestId("iccard-recent");
  await expect(recent.locator("tbody tr").first()).toContainText("A1B2C3D4");
  await expect(recent.locator("tbody tr").first()).toContainText("成功");
  await expect(page.getByLabel("卡序列号")).toHaveValue("");

  await page.getByLabel("卡序列号").fill("A1B2C3D4");
  await page.getByLabel("初始化扇区").fill("1-8");
  await page.getByRole("button", { name: "记录初始化" }).click();
  await expect(page.getByText(/该卡已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 初始化，不能重复初始化/)).toBeVisible();
  await expect(page.getByLabel("初始化扇区")).toHaveValue("1-8");

  await page.getByRole("link", { name: "全部记录" }).click();
  await expect(page).toHaveURL("/admin/sys/iccard/index");
  await expect(page.locator("tbody tr", { hasText: "A1B2C3D4" })).toHaveCount(1);
  await page.getByRole("link", { name: "新增" }).click();
  await expect(page).toHaveURL("/admin/sys/iccard/create");
  await expect(page.getByRole("heading", { name: "IC卡初始化" })).toBeVisible();
});

test("an announcement is written and published through the generic screens", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/announcement/create");
  await page.getByLabel("标题").fill("五一食堂安排");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("请输入内容")).toBeVisible();
  await expect(page.getByLabel("标题")).toHaveValue("五一食堂安排");
  await page.getByLabel("内容").fill("五一期间只开放一楼餐厅。");
  await page.getByLabel("发布状态").selectOption("1");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/sys/announcement/index");
  const row = page.locator("tbody tr", { hasText: "五一食堂安排" });
  await expect(row).toContainText("已发布");
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
});

test.describe("in a browser in Beijing, on a server in UTC", () => {
  test.use({ timezoneId: "Asia/Shanghai" });

  test("a time shows as China time on the server's page and after hydration, and an edited time is saved as that China time", async ({ page, request }) => {
    const api = await apiAs(request, operator.userName, operator.password);
    const device = await api.ok("/api/v1/sys/device/create", { deviceCode: "TZ-01", deviceName: "时区结算台", deviceType: "box", status: "1" });
    // 01:30:05 UTC is 09:30:05 in Beijing.
    const fault = await api.ok("/api/v1/sys/exceptionInfo/create", { deviceId: device.id, occurredAt: Date.UTC(2026, 10, 24, 1, 30, 5), level: "3", message: "时区测试：读卡器断开", handled: "0" });
    await signInTo(page, operator, "/admin/sys/exceptioninfo/index?message=时区测试");
    await expect(page.locator("tbody tr", { hasText: "时区测试" })).toContainText("2026-11-24 09:30:05");
    expectNoReactErrors(page);

    await page.goto(`/admin/sys/exceptioninfo/edit/${fault.id}`);
    const time = page.getByLabel("发生时间");
    await expect(time).toHaveAttribute("type", "datetime-local");
    await expect(time).toHaveValue("2026-11-24T09:30:05");
    await time.fill("2026-11-24T10:00:00");
    await page.getByRole("button", { name: "保存" }).click();
    await expect(page).toHaveURL(/\/admin\/sys\/exceptioninfo\/index/);
    const saved = await api.get(`/api/v1/sys/exceptionInfo/getInfo?id=${fault.id}`);
    expect(saved.data.occurredAt).toBe(Date.UTC(2026, 10, 24, 2, 0, 0));
    expectNoReactErrors(page);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a generic form's date field is typed and posted: a refusal keeps the date, the fixed form saves it", async ({ page }) => {
    await signInFresh(page, operator.userName, operator.password, "/admin/sys/holiday/create");
    const date = page.getByRole("textbox", { name: "日期", exact: true });
    await expect(date).toHaveAttribute("type", "date");
    await date.fill("2027-10-01");
    await page.getByRole("button", { name: "保存" }).click();
    await expect(page.getByText("请输入名称")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "日期", exact: true })).toHaveValue("2027-10-01");
    await page.getByLabel("名称").fill("国庆节（无脚本）");
    await page.getByRole("button", { name: "保存" }).click();
    await expect(page).toHaveURL(/\/admin\/sys\/holiday\/index$/);
    await expect(page.locator("tbody tr", { hasText: "国庆节（无脚本）" })).toContainText("2027-10-01");
  });
});
