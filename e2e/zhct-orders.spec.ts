import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { pick, untilHydrated } from "./support/shell";

const { orders } = e2eUsers;
const chinaToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

test.describe.configure({ mode: "serial" });

type Api = Awaited<ReturnType<typeof apiAs>>;

async function ok(api: Api, path: string, body: unknown) {
  const result = await api.post(path, body);
  expect(result, `${path} ${JSON.stringify(result)}`).toMatchObject({ status: 200 });
  return result.data;
}

/** A restaurant open all day with today's published lunch menu of two dishes, and a diner with 50.00 in cash. */
async function canteen(api: Api) {
  const restaurant = await ok(api, "/api/v1/auth/org/create", { orgName: "订单一号餐厅", orgType: "restaurant", status: "1" });
  const mealTime = await ok(api, "/api/v1/zhct/mealTimes/create", { restaurantId: restaurant.id, mealTimeName: "全天餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const category = await ok(api, "/api/v1/zhct/foodType/create", { typeName: "热菜", sort: 1, status: "1" });
  const menuType = await ok(api, "/api/v1/zhct/foodMenuType/create", { typeName: "午餐菜单", restaurantId: restaurant.id, mealType: "lunch", menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const menu = await ok(api, "/api/v1/zhct/foodMenu/create", { menuDate: chinaToday(), foodMenuTypeId: menuType.id, status: "0" });
  const dishes = [
    { name: "宫保鸡丁", price: 1250 },
    { name: "米饭", price: 100 },
  ];
  for (const dish of dishes) {
    const food = await ok(api, "/api/v1/zhct/food/create", { foodName: dish.name, foodTypeId: category.id, restaurantId: restaurant.id, price: dish.price, onShelf: "1" });
    await ok(api, "/api/v1/zhct/foodMenuItem/create", { foodMenuId: menu.id, foodId: food.id, price: dish.price, quota: 100, sort: 0 });
  }
  await ok(api, "/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "O-001", userName: "钱点餐" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 5000 });
  return { mealTime, diner };
}

async function cash(api: Api, dinerId: number) {
  const accounts = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${dinerId}`);
  return accounts.data.records.find((a: { accountType: string }) => a.accountType === "cash").balance as number;
}

test("staff order for a diner from today's menu, see it with its ledger line, cancel it and the money is back; a complaint refunds part of an order", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, orders.userName, orders.password);
  const { diner } = await canteen(api);

  await signInFresh(page, orders.userName, orders.password, "/zhct/mealorder/index");
  await page.getByRole("link", { name: "新增订单" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealorder\/create$/);
  await page.getByLabel(/^餐次/).selectOption({ label: "订单一号餐厅 · 全天餐（00:00–23:59）" });
  await page.getByRole("button", { name: "显示今日菜单" }).click();
  await expect(page.getByTestId("menu-items")).toContainText("宫保鸡丁");
  await pick(page, "人员", "钱点餐（O-001）");
  await page.getByLabel("宫保鸡丁 数量").fill("2");
  await page.getByLabel("米饭 数量").fill("1");
  await page.screenshot({ path: "test-results/zhct-orders-create.png", fullPage: true });
  await page.getByRole("button", { name: "确认下单并扣款" }).click();

  // The detail page: the items priced by the server, the ledger line, the balance in the message.
  await expect(page).toHaveURL(/\/zhct\/mealorder\/detail\/\d+$/);
  await expect(page.getByText("下单成功：扣款 26.00 元，余额 24.00 元")).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("已支付");
  await expect(page.getByTestId("order-items")).toContainText("宫保鸡丁");
  await expect(page.getByTestId("order-items")).toContainText("25.00");
  await expect(page.getByTestId("order-payments")).toContainText("就餐消费");
  await expect(page.getByTestId("order-payments")).toContainText("-26.00");
  expect(await cash(api, diner.id)).toBe(2400);
  await page.screenshot({ path: "test-results/zhct-orders-detail.png", fullPage: true });

  // Cancel it: the money goes back to the account it came from.
  await page.getByRole("button", { name: "取消订单" }).click();
  await page.getByRole("dialog").getByLabel("取消原因").fill("点错了菜");
  await page.getByRole("button", { name: "确认取消订单" }).click();
  await expect(page.getByText("订单已取消，退回 26.00 元，当前余额 50.00 元")).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("已取消");
  await expect(page.getByTestId("order-payments")).toContainText("消费退回");
  await expect(page.getByTestId("cancel-form")).toHaveCount(0);
  expect(await cash(api, diner.id)).toBe(5000);

  // The list shows both states of the order; the cashier screen lists cashier orders only.
  const paid = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 800, deviceCode: "POS-E2E" });
  await page.goto("/zhct/mealorder/index");
  await expect(page.getByRole("cell", { name: paid.orderNo })).toBeVisible();
  await page.screenshot({ path: "test-results/zhct-orders-list.png", fullPage: true });
  await page.goto("/zhct/cashiermealorder/index");
  await expect(page.getByRole("cell", { name: paid.orderNo })).toBeVisible();
  await expect(page.getByRole("cell", { name: "POS-E2E" })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);
  await page.screenshot({ path: "test-results/zhct-orders-cashier.png", fullPage: true });

  // A complaint about the 8.00 order, upheld with a refund of 3.50: back on the diner's ledger and the order.
  const complaint = await ok(api, "/api/v1/zhct/mealOrderComplaints/create", { orderNo: paid.orderNo, orderId: paid.orderId, content: "分量不足" });
  await page.goto(`/zhct/mealordercomplaints/process/${complaint.id}`);
  // Its refusals show in the form once the page's script runs it (a CI run submitted before, and saw none).
  await untilHydrated(page);
  await page.getByLabel("处理回复").fill("属实，退 3.50 元");
  await page.getByLabel("退款金额").fill("9");
  await page.getByRole("button", { name: "提交处理" }).click();
  // The refund is confirmed in a dialog naming the amount and the diner; the API still refuses past what is refundable.
  const dialog = page.getByRole("dialog", { name: "申诉退款" });
  await expect(dialog.getByTestId("confirm-summary")).toContainText(`将退回 9.00 元到 钱点餐（O-001） 的原支付账户（订单 ${paid.orderNo}，可退 8.00 元）`);
  await dialog.getByRole("button", { name: "确认退款" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("process-form").getByRole("alert")).toContainText("退款金额超过订单可退金额（可退 8.00 元）");
  await page.getByLabel("退款金额").fill("3.5");
  await page.getByRole("button", { name: "提交处理" }).click();
  await expect(dialog.getByTestId("confirm-summary")).toContainText("将退回 3.50 元到 钱点餐（O-001）");
  await page.screenshot({ path: "test-results/zhct-complaint-refund-confirm.png" });
  await dialog.getByRole("button", { name: "返回" }).click();
  await expect(dialog).toBeHidden();
  expect(await cash(api, diner.id)).toBe(5000 - 800);
  await page.getByRole("button", { name: "提交处理" }).click();
  await dialog.getByRole("button", { name: "确认退款" }).click();
  await expect(page).toHaveURL(/\/zhct\/mealordercomplaints\/index$/);
  await expect(page.getByText("申诉已处理，已退款 3.50 元")).toBeVisible();
  expect(await cash(api, diner.id)).toBe(5000 - 800 + 350);
  await page.goto(`/zhct/mealorder/detail/${paid.orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("部分退款");
  await expect(page.getByTestId("order-refunded")).toHaveText("3.50");
  await expect(page.getByTestId("order-payments")).toContainText("消费退回");
});

test("取消订单 asks for confirmation and a reason: 返回 changes nothing, the API refuses no reason, the reason is kept in the ledger and the operation log, and a page without scripts confirms in a step", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, orders.userName, orders.password);
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "O-002", userName: "孙确认" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 5000 });
  const paid = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 800 });

  // The API refuses a cancel without a reason, naming the field; nothing moves.
  const refused = await api.post("/api/v1/zhct/mealOrder/cancel", { id: paid.orderId });
  expect(refused).toMatchObject({ status: 400, message: "请输入取消原因", data: { fieldErrors: { reason: ["请输入取消原因"] } } });
  expect(await cash(api, diner.id)).toBe(4200);

  await signInFresh(page, orders.userName, orders.password, `/zhct/mealorder/detail/${paid.orderId}`);
  await untilHydrated(page);
  // The button only opens the dialog, which says what will happen; 返回 closes it and nothing is sent.
  await page.getByRole("button", { name: "取消订单" }).click();
  const dialog = page.getByRole("dialog", { name: "取消订单" });
  await expect(dialog.getByTestId("confirm-summary")).toHaveText(`将取消订单 ${paid.orderNo}，退回 8.00 元到 孙确认（O-002） 的原支付账户。取消后不能恢复。`);
  await page.screenshot({ path: "test-results/zhct-orders-cancel-confirm.png" });
  await dialog.getByRole("button", { name: "返回" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("order-status")).toHaveText("已支付");
  expect(await cash(api, diner.id)).toBe(4200);

  // Confirmed with a reason: the money is back, the reason is on the refund's ledger line and in the operation log.
  await page.getByRole("button", { name: "取消订单" }).click();
  await dialog.getByLabel("取消原因").fill("重复下单");
  await dialog.getByRole("button", { name: "确认取消订单" }).click();
  await expect(page.getByText("订单已取消，退回 8.00 元，当前余额 50.00 元")).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("已取消");
  await expect(page.getByTestId("order-payments").getByRole("row").filter({ hasText: "消费退回" })).toContainText("取消订单：重复下单");
  expect(await cash(api, diner.id)).toBe(5000);
  await page.goto(`/admin/sys/operationlog/index?entityId=${paid.orderId}`);
  await expect(page.getByRole("row").filter({ hasText: "重复下单" })).toHaveCount(1);

  // Without scripts the button asks for the same step drawn in the page; a refused submit keeps what was typed.
  const again = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 300 });
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL: test.info().project.use.baseURL });
  const bare = await context.newPage();
  await bare.goto(`/zhct/mealorder/detail/${again.orderId}`);
  await bare.getByRole("button", { name: "取消订单" }).click();
  const step = bare.getByTestId("confirm-cancel");
  await expect(step.getByTestId("confirm-summary")).toContainText("退回 3.00 元到 孙确认（O-002）");
  await step.getByRole("link", { name: "返回" }).click();
  await expect(bare.getByTestId("confirm-cancel")).toHaveCount(0);
  await expect(bare.getByTestId("order-status")).toHaveText("已支付");
  await bare.getByRole("button", { name: "取消订单" }).click();
  await step.getByLabel("取消原因").fill("无脚本取消");
  await step.getByRole("button", { name: "确认取消订单" }).click();
  await expect(bare.getByText("订单已取消，退回 3.00 元，当前余额 50.00 元")).toBeVisible();
  await expect(bare.getByTestId("order-payments")).toContainText("取消订单：无脚本取消");
  await context.close();
});

test("发卡 from a diner's page names the diner; a card's row offers only the steps its status allows, and the API refuses the others with 409 naming the status", async ({ page, request }) => {
  const api = await apiAs(request, orders.userName, orders.password);
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "O-003", userName: "李发卡" });
  await signInFresh(page, orders.userName, orders.password, `/zhct/userinfo/account/${diner.id}`);
  await page.getByRole("link", { name: "发卡" }).click();
  await expect(page).toHaveURL(new RegExp(`/zhct/usericcard/create\\?userInfoId=${diner.id}$`));
  // The picker names a diner with their code (decision 054).
  await expect(page.getByRole("textbox", { name: "人员" })).toHaveValue("李发卡（O-003）");
  await page.getByRole("textbox", { name: "卡号", exact: true }).fill("O0030001");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/usericcard\/index$/);
  const card = (await api.get("/api/v1/zhct/userIcCard/findPage?cardNo=O0030001")).data.records[0];
  expect(card).toMatchObject({ userInfoId: diner.id, cardStatus: "1" });

  const actions = page.getByRole("row").filter({ hasText: "O0030001" }).getByRole("link").filter({ hasText: /^(挂失|解挂|补卡|注销)$/ });
  await expect(actions).toHaveText(["挂失", "补卡", "注销"]);
  const unlock = await api.post("/api/v1/zhct/userIcCard/unlock", { id: card.id });
  expect(unlock).toMatchObject({ status: 409, message: "该卡当前为「正常」，不能解挂" });
  await ok(api, "/api/v1/zhct/userIcCard/reportLoss", { id: card.id });
  await page.reload();
  await expect(actions).toHaveText(["解挂", "补卡", "注销"]);
  expect(await api.post("/api/v1/zhct/userIcCard/reportLoss", { id: card.id })).toMatchObject({ status: 409, message: "该卡当前为「挂失」，不能挂失" });
  await ok(api, "/api/v1/zhct/userIcCard/cancel", { id: card.id, reason: "员工离职" });
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: "O0030001" })).toContainText("无效");
  await expect(actions).toHaveCount(0);
  expect(await api.post("/api/v1/zhct/userIcCard/reissue", { id: card.id, cardNo: "O0030002" })).toMatchObject({ status: 409, message: "该卡当前为「无效」，不能补卡" });
  await page.screenshot({ path: "test-results/zhct-cards-by-status.png" });
});

test("a complaint's process page shows 申诉人, the order, what was paid and refunded and what may still be refunded", async ({ page, request }) => {
  const api = await apiAs(request, orders.userName, orders.password);
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "O-004", userName: "周申诉" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 5000 });
  const paid = await ok(api, "/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 800 });
  const first = await ok(api, "/api/v1/zhct/mealOrderComplaints/create", { orderNo: paid.orderNo, orderId: paid.orderId, content: "菜凉了" });
  await ok(api, "/api/v1/zhct/mealOrderComplaints/process", { id: first.id, result: "processed", reply: "属实，退 3 元", refundAmount: 300 });
  const second = await ok(api, "/api/v1/zhct/mealOrderComplaints/create", { orderNo: paid.orderNo, orderId: paid.orderId, content: "还是凉的" });

  await signInFresh(page, orders.userName, orders.password, "/zhct/mealordercomplaints/index");
  await expect(page.getByRole("row").filter({ hasText: "还是凉的" })).toContainText("orders.clerk");
  await page.goto(`/zhct/mealordercomplaints/process/${second.id}`);
  await expect(page.getByTestId("complainant")).toHaveText("orders.clerk");
  const order = page.getByTestId("complaint-order");
  await expect(order).toContainText(paid.orderNo);
  await expect(order).toContainText("周申诉（O-004）");
  await expect(order).toContainText("8.00 元");
  await expect(order).toContainText("3.00 元");
  await expect(page.getByTestId("order-refundable")).toHaveText("5.00");
  await page.screenshot({ path: "test-results/zhct-complaint-process.png", fullPage: true });
});

test("冲正 asks for confirmation and a reason, kept as the reversal's remark; the API refuses none", async ({ page, request }) => {
  const api = await apiAs(request, orders.userName, orders.password);
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "O-005", userName: "吴冲正" });
  const top = await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 1200 });
  expect(await api.post("/api/v1/zhct/userAccountCharge/reverse", { id: top.id })).toMatchObject({ status: 400, data: { fieldErrors: { reason: ["请输入冲正原因"] } } });
  await signInFresh(page, orders.userName, orders.password, `/zhct/useraccountcharge/reverse/${top.id}`);
  await untilHydrated(page);
  await page.getByRole("button", { name: "冲正", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "冲正" });
  await expect(dialog.getByTestId("confirm-summary")).toContainText("将从 吴冲正 的账户扣回这笔充值的 12.00 元");
  await dialog.getByLabel("冲正原因").fill("输错人员");
  await dialog.getByRole("button", { name: "确认冲正" }).click();
  await expect(page.getByText("冲正成功")).toBeVisible();
  expect(await cash(api, diner.id)).toBe(0);
  const lines = await api.get(`/api/v1/zhct/userAccountLedger/findPage?userInfoId=${diner.id}`);
  expect(lines.data.records[0]).toMatchObject({ busiType: "3", amount: -1200, remark: "输错人员" });
});
