import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { analyze, withAxe } from "./support/axe";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { untilHydrated } from "./support/shell";

const { counter: clerk } = e2eUsers;
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const SHOTS = "test-results/screenshots";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1024, height: 768 } });

type Api = Awaited<ReturnType<typeof apiAs>>;

async function ok(api: Api, path: string, body: unknown) {
  const result = await api.post(path, body);
  expect(result, `${path} ${JSON.stringify(result)}`).toMatchObject({ status: 200 });
  return result.data as Record<string, unknown> & { id: number };
}

/** A restaurant open all day, today's published lunch of two dishes, and diners with cards and money. */
async function setUp(api: Api) {
  const restaurant = await ok(api, "/api/v1/auth/org/create", { orgName: "一号餐厅", orgType: "restaurant", status: "1" });
  const mealTime = await ok(api, "/api/v1/zhct/mealTimes/create", { restaurantId: restaurant.id, mealTimeName: "全天供应", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const category = await ok(api, "/api/v1/zhct/foodType/create", { typeName: "热菜", sort: 0, status: "1" });
  const braised = await ok(api, "/api/v1/zhct/food/create", { foodName: "红烧肉", foodTypeId: category.id, restaurantId: restaurant.id, price: 1200, onShelf: "1" });
  const greens = await ok(api, "/api/v1/zhct/food/create", { foodName: "清炒时蔬", foodTypeId: category.id, restaurantId: restaurant.id, price: 600, onShelf: "1" });
  const menuType = await ok(api, "/api/v1/zhct/foodMenuType/create", { typeName: "午餐", restaurantId: restaurant.id, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const menu = await ok(api, "/api/v1/zhct/foodMenu/create", { menuDate: today(), foodMenuTypeId: menuType.id, status: "0" });
  await ok(api, "/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: braised.id, sort: 0 });
  await ok(api, "/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: greens.id, sort: 1 });
  await ok(api, "/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  const diners = [];
  for (const [code, name, cardNo, fen] of [
    ["P-001", "周一", "PC0001", 5000],
    ["P-002", "吴二", "PC0002", 3000],
    ["P-003", "郑三", "PC0003", 2000],
    ["P-004", "王丢卡", "PC0004", 2000],
    ["P-005", "冯无脚本", "PC0005", 2000],
  ] as const) {
    const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: code, userName: name });
    await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: fen });
    const card = await ok(api, "/api/v1/zhct/userIcCard/create", { cardNo, userInfoId: diner.id, cardType: "1" });
    diners.push({ id: diner.id, code, name, cardNo, cardId: card.id, fen });
  }
  await ok(api, "/api/v1/zhct/userIcCard/reportLoss", { id: diners[3].cardId });
  return { restaurant, mealTime, diners };
}

/** WCAG 2.1 A/AA (as e2e/a11y.spec.ts checks every screen) in the states the menu walk does not reach. */
async function expectAccessible(page: Page, label: string) {
  const results = await analyze(page);
  expect(results.violations.flatMap((v) => v.nodes.map((n) => `${label} — ${v.id}: ${n.target.join(" ")}`)).join("\n")).toBe("");
}

const codeField = (page: Page) => page.getByRole("textbox", { name: "卡号 / 人员编号" });

test("the cashier charges three diners in a row by keyboard alone, refuses a lost card, and the print page sums the sales", async ({ page, context, request }) => {
  await withAxe(context);
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const { restaurant, diners } = await setUp(api);

  await signInFresh(page, clerk.userName, clerk.password, "/zhct/cashier/index");
  await untilHydrated(page);
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveValue(String(restaurant.id));
  await expect(page.getByRole("combobox", { name: "餐次" })).toContainText("全天供应 00:00–23:59（当前）");
  await expect(page.getByTestId("dish")).toHaveCount(2);
  const field = codeField(page);
  await expect(field).toBeFocused();

  // Each diner: scan (digits and Enter), see balances, number keys pick dishes, Enter charges.
  const sales = [
    { diner: diners[0], keys: ["1", "2"], paid: 1800 },
    { diner: diners[1], keys: ["1"], paid: 1200 },
    { diner: diners[2], keys: ["2", "2"], paid: 1200 },
  ];
  for (const [index, sale] of sales.entries()) {
    await page.keyboard.type(sale.diner.cardNo);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("diner-name")).toHaveText(sale.diner.name);
    if (index === 1) await page.screenshot({ path: `${SHOTS}/cashier-diner-1024.png` });
    await expect(page.getByTestId("balance-cash")).toHaveText(`¥${(sale.diner.fen / 100).toFixed(2)}`);
    await expect(page.getByTestId("balance-total")).toHaveText(`¥${(sale.diner.fen / 100).toFixed(2)}`);
    for (const key of sale.keys) await page.keyboard.press(key);
    await expect(page.getByTestId("due")).toHaveText(`¥${(sale.paid / 100).toFixed(2)}`);
    // Enter twice at once: one sale, one charge.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    const result = page.getByTestId("result");
    await expect(result).toHaveAttribute("data-state", "paid");
    await expect(result).toContainText(sale.diner.name);
    await expect(page.getByTestId("paid-amount")).toHaveText(`¥${(sale.paid / 100).toFixed(2)}`);
    await expect(page.getByTestId("balance-after")).toHaveText(`¥${((sale.diner.fen - sale.paid) / 100).toFixed(2)}`);
    await expect(codeField(page)).toBeFocused();
    await expect(codeField(page)).toHaveValue("");
    await expect(page.getByTestId("due")).toHaveText("¥0.00");
    if (index === 0) {
      await page.screenshot({ path: `${SHOTS}/cashier-paid-1024.png` });
      await expectAccessible(page, "paid");
    }
  }
  for (const sale of sales) {
    const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${sale.diner.id}`);
    const total = accounts.data.records.reduce((s: number, a: { balance: number }) => s + a.balance, 0);
    expect(total, sale.diner.name).toBe(sale.diner.fen - sale.paid);
  }

  // A lost card: refused at the scan, the field empty and ready.
  await page.keyboard.type(diners[3].cardNo);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("result")).toHaveAttribute("data-state", "refused");
  await expect(page.getByTestId("refusal")).toHaveText("卡已挂失");
  await expect(codeField(page)).toBeFocused();
  await expect(codeField(page)).toHaveValue("");
  await page.screenshot({ path: `${SHOTS}/cashier-refused-1024.png` });
  await expectAccessible(page, "refused");

  // Esc clears a picked tray.
  await page.keyboard.type(diners[4].code);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("diner-name")).toHaveText(diners[4].name);
  await page.keyboard.press("1");
  await expect(page.getByTestId("due")).toHaveText("¥12.00");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("due")).toHaveText("¥0.00");
  await expect(page.getByTestId("result")).toHaveAttribute("data-state", "idle");

  // The day's summary: the three sales.
  await page.goto("/zhct/cashierprint/index");
  const totals = page.getByTestId("summary-totals");
  await expect(totals.locator('[data-field="count"]')).toHaveText("3");
  await expect(totals.locator('[data-field="amount"]')).toHaveText("42.00");
  await expect(totals.locator('[data-field="refunded"]')).toHaveText("0.00");
  await expect(totals.locator('[data-field="net"]')).toHaveText("42.00");
  await expect(page.getByTestId("cashier-summary").locator('[data-row="IC卡"]')).toContainText("42.00");
  await expect(page.getByTestId("cashier-summary").locator('[data-row="全天供应"]')).toContainText("3");
  await page.screenshot({ path: `${SHOTS}/cashierprint-1024.png`, fullPage: true });
  await expectAccessible(page, "print");
  // The slip alone on an 80 mm roll.
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: 302, height: 900 });
  await page.screenshot({ path: `${SHOTS}/cashierprint-80mm.png`, fullPage: true });
  await expect(page.getByRole("button", { name: "查询" })).toBeHidden();
});

test("a sale by amount at 一号餐厅 keeps its restaurant: 订单管理's list and detail show it (issue 38)", async ({ page, request }) => {
  const api = await apiAs(request, clerk.userName, clerk.password);
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/cashier/index?mealTimesId=0");
  await untilHydrated(page);
  await expect(page.getByRole("combobox", { name: "餐厅" })).toHaveText(/一号餐厅/);
  await expect(page.getByRole("combobox", { name: "餐次" })).toHaveValue("0");
  await codeField(page).fill("PC0001");
  await page.getByRole("textbox", { name: "金额（元）" }).fill("3.5");
  await codeField(page).press("Enter");
  await expect(page.getByTestId("result")).toHaveAttribute("data-state", "paid");
  await expect(page.getByTestId("paid-amount")).toHaveText("¥3.50");
  const orders = await api.get("/api/v1/zhct/mealOrder/findPage?pageSize=100");
  const sale = orders.data.records.find((o: { amount: number; mealTimesId: number | null }) => o.amount === 350 && o.mealTimesId === null) as { id: number; orderNo: string };
  expect(sale, JSON.stringify(orders.data.records)).toBeTruthy();

  await page.goto("/zhct/mealorder/index");
  await expect(page.getByRole("row").filter({ hasText: sale.orderNo })).toContainText("一号餐厅");
  await page.goto(`/zhct/mealorder/detail/${sale.id}`);
  await expect(page.getByText("餐厅：一号餐厅")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/order-restaurant-detail-1024.png`, fullPage: true });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sale form posts: the code alone shows the diner, with a dish it charges", async ({ page, request }) => {
    const api = await apiAs(request, clerk.userName, clerk.password);
    const found = await api.get("/api/v1/zhct/userInfo/findPage?userCode=P-005");
    const dinerId = found.data.records[0].id as number;
    await signInFresh(page, clerk.userName, clerk.password, "/zhct/cashier/index");
    await codeField(page).fill("PC0005");
    await codeField(page).press("Enter");
    await expect(page.getByTestId("diner-name")).toHaveText("冯无脚本");
    await expect(page.getByTestId("balance-total")).toHaveText("¥20.00");
    await page.getByRole("spinbutton", { name: "清炒时蔬 数量" }).fill("1");
    await codeField(page).press("Enter");
    await expect(page.getByTestId("result")).toHaveAttribute("data-state", "paid");
    await expect(page.getByTestId("paid-amount")).toHaveText("¥6.00");
    await expect(page.getByTestId("balance-after")).toHaveText("¥14.00");
    await expect(codeField(page)).toHaveValue("");
    const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${dinerId}`);
    expect(accounts.data.records.reduce((s: number, a: { balance: number }) => s + a.balance, 0)).toBe(1400);
    // A lost card is refused by the form too.
    await codeField(page).fill("PC0004");
    await page.getByRole("spinbutton", { name: "红烧肉 数量" }).fill("1");
    await page.getByRole("button", { name: "收款（Enter）" }).click();
    await expect(page.getByTestId("refusal")).toHaveText("卡已挂失");
  });
});
