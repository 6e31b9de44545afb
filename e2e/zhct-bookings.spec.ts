import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, pick } from "./support/shell";

const { bookClerk: clerk } = e2eUsers;
const chinaDay = (days = 0) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

test.describe.configure({ mode: "serial" });
// The calendar's "today" is the canteen's today.
test.use({ timezoneId: "Asia/Shanghai" });

type Api = Awaited<ReturnType<typeof apiAs>>;

async function ok(api: Api, path: string, body: unknown) {
  const result = await api.post(path, body);
  expect(result, `${path} ${JSON.stringify(result)}`).toMatchObject({ status: 200 });
  return result.data;
}

test("a booking period, a booking, one refused over capacity with the places left, and the booked meal's order once the diner pays", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurant = await ok(api, "/api/v1/auth/org/create", { orgName: "预约一号餐厅", orgType: "restaurant", status: "1" });
  const mealTime = await ok(api, "/api/v1/zhct/mealTimes/create", { restaurantId: restaurant.id, mealTimeName: "预约午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const booked = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "BK-001", userName: "赵预约" });
  await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "BK-002", userName: "钱迟到" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: booked.id, amount: 5000, accountType: "cash" });

  // The period: today, one place, booking open until 23:59 of the meal's own day.
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/appointmentperiod/create");
  await page.getByLabel("时段名称").fill("本周午餐预约");
  await pick(page, "餐厅", "预约一号餐厅");
  await pick(page, "餐次", "预约午餐");
  await dateField(page, "开始日期").fill(chinaDay());
  await dateField(page, "结束日期").fill(chinaDay());
  await page.getByLabel("每日可预约人数").fill("1");
  await page.getByLabel("截止提前天数").fill("0");
  await page.getByLabel("截止时间").fill("23:59");
  await page.screenshot({ path: "test-results/screenshots/zhct-appointment-period-form-1280.png", fullPage: true });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/appointmentperiod\/index$/);
  const periodRow = page.getByRole("row").filter({ hasText: "本周午餐预约" });
  await expect(periodRow.getByRole("cell", { name: "预约一号餐厅" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-appointment-period-list-1280.png", fullPage: true });

  // The booking of today's meal.
  await page.goto("/zhct/appointmentdetail/create");
  await pick(page, "就餐人员", "赵预约");
  await dateField(page, "就餐日期").fill(chinaDay());
  await pick(page, "餐次", "预约午餐");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/appointmentdetail\/index$/);
  const bookingRow = page.getByRole("row").filter({ hasText: "赵预约" });
  await expect(bookingRow.getByRole("cell", { name: "已预约" })).toBeVisible();

  // The second diner finds the meal full: the form says so with the places left, and keeps what was typed.
  await page.goto("/zhct/appointmentdetail/create");
  await pick(page, "就餐人员", "钱迟到");
  await dateField(page, "就餐日期").fill(chinaDay());
  await pick(page, "餐次", "预约午餐");
  await page.getByRole("textbox", { name: "备注" }).fill("临时加餐");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("该餐次预约已满：每日可预约 1 人，剩余 0 个名额")).toBeVisible();
  await expect(page).toHaveURL(/\/zhct\/appointmentdetail\/create$/);
  await expect(page.getByRole("textbox", { name: "备注" })).toHaveValue("临时加餐");
  await page.screenshot({ path: "test-results/screenshots/zhct-appointment-detail-full-1280.png", fullPage: true });

  // The diner pays at the cashier for that meal: the booking is completed and the order is recorded as booked.
  const paid = await request.post("/api/v1/zhct/cashier/pay", {
    headers: { Authorization: `Bearer ${api.token}`, "Idempotency-Key": "e2e-booking-pay-1" },
    data: { userInfoId: booked.id, amount: 1500, mealTimesId: mealTime.id },
  });
  const order = (await paid.json()) as { status: number; data: { orderId: number; orderNo: string } };
  expect(order).toMatchObject({ status: 200 });

  await page.goto("/zhct/appointmentdetail/index");
  await expect(page.getByRole("row").filter({ hasText: "赵预约" }).getByRole("cell", { name: "已完成" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-appointment-detail-list-1280.png", fullPage: true });
  await page.goto("/zhct/appointmentdetailfororder/index");
  const record = page.getByRole("row").filter({ hasText: order.data.orderNo });
  await expect(record.getByRole("cell", { name: "赵预约" })).toBeVisible();
  await expect(record.getByRole("cell", { name: "已预约", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-appointment-for-order-list-1280.png", fullPage: true });
  await page.goto(`/zhct/mealorder/detail/${order.data.orderId}`);
  await expect(page.getByText(order.data.orderNo)).toBeVisible();
});

test("a special dish reserved from a plan and paid at reservation, then cancelled with the money back", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurant = await ok(api, "/api/v1/auth/org/create", { orgName: "预约二号餐厅", orgType: "restaurant", status: "1" });
  const mealTime = await ok(api, "/api/v1/zhct/mealTimes/create", { restaurantId: restaurant.id, mealTimeName: "特色晚餐", mealType: "dinner", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const category = await ok(api, "/api/v1/zhct/foodType/create", { typeName: "特色菜", sort: 0, status: "1" });
  const duck = await ok(api, "/api/v1/zhct/food/create", { foodName: "北京烤鸭", foodTypeId: category.id, restaurantId: restaurant.id, price: 6800, onShelf: "1" });
  const diner = await ok(api, "/api/v1/zhct/userInfo/create", { userCode: "BK-003", userName: "孙点菜" });
  await ok(api, "/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 10_000, accountType: "cash" });
  await ok(api, "/api/v1/zhct/orderingPlan/create", { planName: "本周烤鸭", restaurantId: restaurant.id, mealTimesId: mealTime.id, foodId: duck.id, beginDate: chinaDay(), endDate: chinaDay(6), price: 6800, dailyQuota: 10, payTime: "1", deadlineDays: 0, deadlineTime: "23:59", status: "1" });

  await signInFresh(page, clerk.userName, clerk.password, "/zhct/orderingplan/index");
  await expect(page.getByRole("row").filter({ hasText: "本周烤鸭" }).getByRole("cell", { name: "预订时支付" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-ordering-plan-list-1280.png", fullPage: true });

  await page.goto("/zhct/orderingfood/create");
  await pick(page, "订餐计划", "本周烤鸭");
  await pick(page, "就餐人员", "孙点菜");
  await dateField(page, "取餐日期").fill(chinaDay());
  await page.getByLabel("份数").fill("1");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/orderingfood\/index$/);
  const row = page.getByRole("row").filter({ hasText: "孙点菜" });
  await expect(row.getByRole("cell", { name: "68.00" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "已预约" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-ordering-food-list-1280.png", fullPage: true });
  const charged = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${diner.id}`);
  expect((charged.data.records as Array<{ balance: number }>).reduce((sum, a) => sum + a.balance, 0)).toBe(3200);

  await row.getByRole("link", { name: "取消", exact: true }).click();
  await expect(page).toHaveURL(/\/zhct\/orderingfood\/cancel\/\d+$/);
  await page.screenshot({ path: "test-results/screenshots/zhct-ordering-food-cancel-1280.png", fullPage: true });
  await page.getByRole("button", { name: "确认取消预订" }).click();
  await expect(page).toHaveURL(/\/zhct\/orderingfood\/index$/);
  await expect(page.getByRole("row").filter({ hasText: "孙点菜" }).getByRole("cell", { name: "已取消" })).toBeVisible();
  const refunded = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${diner.id}`);
  expect((refunded.data.records as Array<{ balance: number }>).reduce((sum, a) => sum + a.balance, 0)).toBe(10_000);
});
