import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { pick } from "./support/shell";

const { canteen } = e2eUsers;
/** A 2×2 PNG for the dish's picture. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";

test.describe.configure({ mode: "serial" });


async function save(page: Page, list: RegExp) {
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(list);
  await expect(page.getByText("保存成功")).toBeVisible();
}

/** The next Monday after 2026-11-30 on which nothing else in the run made menus: a fixed week keeps the screenshots stable. */
const MONDAY = "2027-03-01";

test("catalogue to published menu: category, food with picture, meal time, menu type, template, batch create a week, week view, publish", async ({ page, request }) => {
  // It opens every canteen screen before its own journey.
  test.setTimeout(180_000);
  const api = await apiAs(request, canteen.userName, canteen.password);
  const restaurant = await api.post("/api/v1/auth/org/create", { orgName: "东区餐厅", orgType: "restaurant", sort: 0, status: "1" });
  expect(restaurant.status, restaurant.message).toBe(200);
  const holiday = await api.post("/api/v1/sys/holiday/create", { holidayDate: "2027-03-03", holidayName: "测试假日", holidayType: "1" });
  expect(holiday.status, holiday.message).toBe(200);

  await signInFresh(page, canteen.userName, canteen.password, "/zhct");
  await expect(page).toHaveURL(/\/zhct\/bowls(\/index)?$/);
  // The 智慧餐厅 menu lists every canteen screen, the complaint screen still among them, and each one opens.
  const info = await api.get("/api/v1/auth/user/info");
  type Node = { menuName: string; menuPath: string; children?: Node[] };
  const group = (info.data.menuTreeList as Node[]).find((m) => m.menuPath === "/zhct") as Node;
  expect(group.menuName).toBe("智慧餐厅");
  // Its screens sit in its sections (decision 053): every child is a section, and the sections hold these screens.
  expect((group.children ?? []).map((c) => c.menuPath ?? null)).toEqual((group.children ?? []).map(() => null));
  const screens = (group.children ?? []).flatMap((section) => (section.children ?? []).map((c) => [c.menuName, c.menuPath]));
  expect(screens.map(([name]) => name).sort()).toEqual(["餐具管理", "菜品分类", "菜品管理", "菜品营养", "菜品用料", "菜单餐具", "设备菜品", "餐次时间", "菜单类型", "模板菜单类型", "每日菜单", "菜单菜品", "菜单模板", "人员管理", "账户管理", "账户流水", "充值管理", "IC卡管理", "自动充值设置", "补贴发放记录", "补贴发放明细", "账户月结", "支付限额配置", "线上充值规则", "商户分账", "积分策略", "短信通知记录", "订单管理", "订单菜品", "支付方式配置", "充值渠道", "积分账户", "积分明细", "餐券设置", "餐券申请", "餐券使用记录", "餐具回收", "预约时段", "个人预约", "预约就餐记录", "订餐计划", "特色菜预订", "包间管理", "包间预约", "餐桌绑定查询", "餐盘绑定", "默认订餐", "默认订餐请假", "默认订餐生成", "默认订餐生成明细", "陪餐订餐", "配送点", "配送时段", "外卖配送单", "餐盘识别记录", "识别菜品明细", "订单图片", "图片库", "满意度调查", "调查题目", "题目选项", "调查答卷", "答卷明细", "订餐申诉", "收银订单", "充值日报", "部门人员统计", "收银台", "营业报表打印", "满意度统计"].sort());
  // Each opens as the server renders it (the page a slow terminal shows before its scripts): its title as the
  // heading, and rows or a form. Fetched with the page's session rather than drawn one by one, so seventy screens
  // cost seconds.
  for (const [name, path] of screens) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    const heading = new RegExp(`<h[1-4][^>]*>(${name}|${name.replace(/管理$/, "")})</h[1-4]>`);
    expect(html, path).toMatch(heading);
    expect(html, path).toMatch(/<table|<form/);
  }

  await page.goto("/zhct/foodtype/create");
  await page.getByLabel("分类名称").fill("家常热菜");
  await save(page, /\/zhct\/foodtype\/index$/);

  await page.goto("/zhct/food/create");
  await page.getByLabel("菜品名称").fill("番茄炒蛋");
  await pick(page, "菜品分类", "家常热菜");
  await pick(page, "餐厅/档口", "东区餐厅");
  await page.getByRole("textbox", { name: "价格（元）", exact: true }).fill("12.5");
  await page.locator("input[type=file]").setInputFiles({ name: "dish.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
  await expect(page.getByRole("img", { name: "菜品图片" })).toBeVisible();
  await save(page, /\/zhct\/food\/index$/);
  const foodRow = page.locator("tbody tr", { hasText: "番茄炒蛋" });
  await expect(foodRow).toContainText("12.50");
  await expect(foodRow.locator("img")).toHaveCount(1);

  await page.goto("/zhct/mealtimes/create");
  await pick(page, "餐厅", "东区餐厅");
  await page.getByLabel("餐次名称").fill("午餐");
  await page.getByLabel("餐别").selectOption({ label: "午餐" });
  await page.getByLabel("开始时间").fill("11:00");
  await page.getByLabel("结束时间").fill("13:00");
  await save(page, /\/zhct\/mealtimes\/index$/);

  await page.goto("/zhct/foodmenutypeTemplate/create");
  await page.getByLabel("类型名称").fill("午餐模板");
  await pick(page, "餐厅", "东区餐厅");
  await page.getByLabel("餐别").selectOption({ label: "午餐" });
  await save(page, /\/zhct\/foodmenutypeTemplate\/index$/);

  await page.goto("/zhct/foodmenutype/create");
  await page.getByLabel("类型名称").fill("东区午餐");
  await pick(page, "餐厅", "东区餐厅");
  await page.getByLabel("餐别").selectOption({ label: "午餐" });
  await pick(page, "餐次时间", "午餐");
  await pick(page, "菜单模板", "午餐模板");
  await save(page, /\/zhct\/foodmenutype\/index$/);

  // The template: the dish on Monday to Friday.
  for (const week of ["星期一", "星期二", "星期三", "星期四", "星期五"]) {
    await page.goto("/zhct/foodmenuTemplate/create");
    await pick(page, "模板菜单类型", "午餐模板");
    await page.getByLabel("星期").selectOption({ label: week });
    await pick(page, "菜品", "番茄炒蛋");
    await save(page, /\/zhct\/foodmenuTemplate\/index$/);
  }

  // Batch create from the menu type's row: preview first (a holiday and the weekend skipped), then confirm.
  await page.goto("/zhct/foodmenutype/index");
  await page.locator("tbody tr", { hasText: "东区午餐" }).getByRole("link", { name: "生成菜单" }).click();
  await expect(page.getByRole("heading", { name: "批量生成每日菜单" })).toBeVisible();
  await page.getByLabel("开始日期").fill(MONDAY);
  await page.getByLabel("结束日期").fill("2027-03-07");
  await page.getByRole("button", { name: "预览" }).click();
  const preview = page.getByTestId("batch-preview");
  await expect(preview).toContainText("预览");
  await expect(preview.locator("tbody tr")).toHaveCount(7);
  await expect(preview.locator("tr[data-action=create]")).toHaveCount(4);
  await expect(preview.locator("tr[data-action=holiday]")).toContainText("节假日：测试假日");
  await expect(page.getByLabel("开始日期")).toHaveValue(MONDAY);
  await page.screenshot({ path: "test-results/screenshots/zhct-batch-preview-1280.png", fullPage: true });
  const none = await api.get(`/api/v1/zhct/foodMenu/findPage?menuDateBegin=${MONDAY}&menuDateEnd=2027-03-07`);
  expect(none.data.total).toBe(0);

  await page.getByRole("button", { name: "确认生成" }).click();
  await expect(page.getByTestId("batch-done")).toContainText("新建 4 天，替换 0 天，跳过 3 天");

  // The week view shows the four days, unpublished; publish Monday.
  await page.getByRole("link", { name: "查看周菜单" }).click();
  await expect(page).toHaveURL(/\/zhct\/foodmenu\/index\?week=2027-03-01/);
  const week = page.getByTestId("menu-week");
  const row = week.locator("tbody tr", { hasText: "东区午餐" });
  await expect(row.locator("td[data-date]", { hasText: "番茄炒蛋" })).toHaveCount(4);
  await expect(row.locator("td[data-date='2027-03-03']")).toContainText("—");
  await expect(week.locator("th", { hasText: "03-03" })).toContainText("测试假日");
  await expect(row.locator("td[data-date='2027-03-01']")).toContainText("未发布");
  await page.screenshot({ path: "test-results/screenshots/zhct-week-view-1280.png", fullPage: true });

  await row.locator("td[data-date='2027-03-01']").getByRole("link", { name: "发布" }).click();
  await expect(page.getByRole("heading", { name: "编辑每日菜单" })).toBeVisible();
  await page.getByLabel("发布状态").selectOption({ label: "已发布" });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  await page.goto(`/zhct/foodmenu/index?week=${MONDAY}`);
  await expect(page.getByTestId("menu-week").locator("tbody tr", { hasText: "东区午餐" }).locator("td[data-date='2027-03-01']")).toContainText("已发布");

  // The cashier's view of that day: the published menu with its price in fen.
  const day = await api.get(`/api/v1/zhct/foodMenu/findByDate?date=${MONDAY}&restaurantId=${restaurant.data.id}`);
  expect(day.data).toHaveLength(1);
  expect(day.data[0].items).toEqual([expect.objectContaining({ foodName: "番茄炒蛋", price: 1250 })]);

  // The list view stays, filterable by date range.
  await page.goto(`/zhct/foodmenu/list?menuDateBegin=${MONDAY}&menuDateEnd=2027-03-02`);
  await expect(page.locator("tbody tr")).toHaveCount(2);
});

test("index-only screens: each food's nutrition is edited on its list, also without scripts; dishware and device foods are assigned in a form above their rows", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, canteen.userName, canteen.password);
  const ok = async (path: string, body: Record<string, unknown>) => {
    const result = await api.post(path, body);
    expect(result.status, result.message).toBe(200);
    return result.data as { id: number };
  };
  const restaurant = await ok("/api/v1/auth/org/create", { orgName: "西区餐厅", orgType: "restaurant", sort: 0, status: "1" });
  const category = await ok("/api/v1/zhct/foodType/create", { typeName: "西区热菜", sort: 0, status: "1" });
  await ok("/api/v1/zhct/food/create", { foodName: "西区土豆丝", foodTypeId: category.id, restaurantId: restaurant.id, price: 600, onShelf: "1" });
  await ok("/api/v1/zhct/bowls/create", { bowlsCode: "XQ-01", bowlsName: "西区蓝碗", price: 0, status: "1" });
  await ok("/api/v1/sys/device/create", { deviceCode: "XQ-POS-01", deviceName: "西区收银机", deviceType: "box", status: "1" });
  const menuType = await ok("/api/v1/zhct/foodMenuType/create", { typeName: "西区午餐", restaurantId: restaurant.id, mealType: "lunch", menuMode: "2", sort: 0, status: "1" });
  await ok("/api/v1/zhct/foodMenu/create", { menuDate: "2027-04-05", foodMenuTypeId: menuType.id, status: "0" });

  await signInFresh(page, canteen.userName, canteen.password, "/zhct/foodnutrition/index");
  // The food has its nutrition row from the start; the list is the only screen: no 新增, no create page.
  const row = page.locator("tbody tr", { hasText: "西区土豆丝" });
  await expect(row).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "新增", exact: true })).toHaveCount(0);
  expect((await page.request.get("/zhct/foodnutrition/create")).status()).toBe(404);
  await row.getByRole("link", { name: "编辑" }).click();
  await expect(page).toHaveURL(/\/zhct\/foodnutrition\/index\?edit=\d+$/);
  const editor = page.getByTestId("index-editor");
  await expect(editor.getByRole("heading", { name: "编辑菜品营养" })).toBeVisible();
  await editor.getByRole("spinbutton", { name: "能量（千卡）" }).fill("-5");
  await editor.getByRole("spinbutton", { name: "蛋白质（克）" }).fill("12");
  await editor.getByRole("button", { name: "保存" }).click();
  await expect(editor.getByText("能量（千卡）不能为负数")).toBeVisible();
  await expect(editor.getByRole("spinbutton", { name: "蛋白质（克）" })).toHaveValue("12");
  await editor.getByRole("spinbutton", { name: "能量（千卡）" }).fill("180");
  await editor.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/foodnutrition\/index$/);
  await expect(page.getByText("保存成功")).toBeVisible();
  await expect(page.locator("tbody tr", { hasText: "西区土豆丝" })).toContainText("180");

  // Without scripts the same form is a plain page form: the server refuses and keeps the values, then saves.
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noJs = await plain.newPage();
  const editHref = await page.locator("tbody tr", { hasText: "西区土豆丝" }).getByRole("link", { name: "编辑" }).evaluate((a: HTMLAnchorElement) => new URL(a.href).pathname + new URL(a.href).search);
  await noJs.goto(editHref as string);
  const plainEditor = noJs.getByTestId("index-editor");
  await plainEditor.getByRole("spinbutton", { name: "钠（毫克）" }).fill("-3");
  await plainEditor.getByRole("spinbutton", { name: "脂肪（克）" }).fill("7");
  await plainEditor.getByRole("button", { name: "保存" }).click();
  await expect(plainEditor.getByRole("spinbutton", { name: "脂肪（克）" })).toHaveValue("7");
  await expect(plainEditor.getByRole("spinbutton", { name: "钠（毫克）" })).toHaveAttribute("aria-invalid", "true");
  await plainEditor.getByRole("spinbutton", { name: "钠（毫克）" }).fill("320");
  await plainEditor.getByRole("button", { name: "保存" }).click();
  await expect(noJs).toHaveURL(/\/zhct\/foodnutrition\/index$/);
  await expect(noJs.locator("tbody tr", { hasText: "西区土豆丝" })).toContainText("320");
  await plain.close();

  // Dishware for a menu's food: 新增 opens the form above the rows; a second assignment of the same dishware is refused.
  for (const attempt of ["first", "again"]) {
    await page.goto("/zhct/foodmenubowls/index");
    await page.getByRole("main").getByRole("link", { name: "新增", exact: true }).click();
    await expect(page).toHaveURL(/\/zhct\/foodmenubowls\/index\?create=1$/);
    const form = page.getByTestId("index-editor");
    await expect(form).toBeFocused();
    await pick(page, "菜单", "2027-04-05", page.getByTestId("index-editor"));
    await pick(page, "餐具", "西区蓝碗", page.getByTestId("index-editor"));
    await pick(page, "菜品", "西区土豆丝", page.getByTestId("index-editor"));
    await form.getByRole("button", { name: "保存" }).click();
    if (attempt === "first") {
      await expect(page).toHaveURL(/\/zhct\/foodmenubowls\/index$/);
      await expect(page.locator("tbody tr", { hasText: "西区蓝碗" })).toContainText("西区土豆丝");
    } else {
      await expect(form.getByText("该菜单已为此餐具指定菜品")).toBeVisible();
    }
  }
  expect((await page.request.get("/zhct/foodmenubowls/create")).status()).toBe(404);

  // A device's foods: assigned the same way, then edited from the row.
  await page.goto("/zhct/devicefood/index");
  await page.getByRole("main").getByRole("link", { name: "新增", exact: true }).click();
  await pick(page, "设备", "西区收银机", page.getByTestId("index-editor"));
  await pick(page, "菜品", "西区土豆丝", page.getByTestId("index-editor"));
  await page.getByTestId("index-editor").getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  const sold = page.locator("tbody tr", { hasText: "西区收银机" });
  await expect(sold).toContainText("西区土豆丝");
  await sold.getByRole("link", { name: "编辑" }).click();
  await expect(page.getByTestId("index-editor").getByRole("textbox", { name: "设备" })).toHaveValue("西区收银机");
});
