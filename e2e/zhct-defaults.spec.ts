import { expect as baseExpect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { pick } from "./support/shell";

const { dfltClerk: clerk } = e2eUsers;
// A run charges diners one by one behind the write lock: on a machine shared with other suites a save or a run may take a while.
const expect = baseExpect.configure({ timeout: 30_000 });
// Set to a folder to keep a picture of each screen with its rows (looked at by hand, not committed).
const shots = process.env.E2E_SCREENSHOTS;

test.describe.configure({ mode: "serial" });

/** A picture of the screen once its scripts have settled (only when E2E_SCREENSHOTS names a folder). */
async function snap(page: Page, name: string) {
  if (!shots) return;
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** China day `days` from now. */
const chinaDay = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

test("a diner set on default gets tomorrow's order and is charged once; a diner on leave gets none", async ({ page, request }) => {
  test.setTimeout(240_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurant = await api.post("/api/v1/auth/org/create", { orgName: "职工食堂", orgType: "restaurant", sort: 0, status: "1" });
  expect(restaurant.status, restaurant.message).toBe(200);
  const restaurantId = restaurant.data.id as number;
  const lunch = await api.post("/api/v1/zhct/mealTimes/create", { restaurantId, mealTimeName: "午餐", mealType: "lunch", beginTime: "00:00", endTime: "23:59", orderDaysAhead: 1, standardPrice: "0", status: "1" });
  expect(lunch.status, lunch.message).toBe(200);
  const diner = async (userCode: string, userName: string) => {
    const made = await api.post("/api/v1/zhct/userInfo/create", { userCode, userName });
    expect(made.status, made.message).toBe(200);
    const charged = await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: made.data.id, amount: 5000, accountType: "cash" });
    expect(charged.status, charged.message).toBe(200);
    return made.data.id as number;
  };
  const eater = await diner("MR-001", "赵默认");
  const away = await diner("MR-002", "钱请假");
  const balance = async (userInfoId: number) => {
    const page = await api.get(`/api/v1/zhct/userAccount/findPage?userInfoId=${userInfoId}`);
    return (page.data.records as Array<{ balance: number }>).reduce((sum, r) => sum + Number(r.balance), 0);
  };

  // 赵默认 eats lunch by default, 12.00 a meal, set up on the default-order screen.
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/userorderdefault/index?create=1");
  const form = page.getByRole("region", { name: "新增默认订餐" });
  await pick(page, "就餐人员", "赵默认", form);
  await pick(page, "餐厅", "职工食堂", form);
  await form.getByRole("combobox", { name: "餐别" }).selectOption({ label: "午餐" });
  await form.getByRole("textbox", { name: "每餐金额（元）" }).fill("12");
  // Every day of the week, whichever day tomorrow is.
  await form.getByRole("checkbox", { name: "周六" }).check();
  await form.getByRole("checkbox", { name: "周日" }).check();
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "赵默认" });
  await expect(row.getByRole("cell", { name: "12.00" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "午餐" })).toBeVisible();

  // 钱请假 too, but away from today until the day after tomorrow.
  const second = await api.post("/api/v1/zhct/userOrderDefault/create", { userInfoId: away, restaurantId, mealType: "lunch", amount: 1500, quantity: 1, monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 1, sunday: 1, status: "1" });
  expect(second.status, second.message).toBe(200);
  await page.goto("/zhct/userorderdefault/index?create=1");
  await pick(page, "就餐人员", "钱请假", form);
  await pick(page, "餐厅", "职工食堂", form);
  await form.getByRole("combobox", { name: "餐别" }).selectOption({ label: "午餐" });
  await form.getByRole("textbox", { name: "每餐金额（元）" }).fill("9");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("该人员此餐别已设置默认订餐")).toBeVisible();
  await expect(form.getByRole("textbox", { name: "每餐金额（元）" })).toHaveValue("9");
  await snap(page, "userorderdefault");
  const leave = await api.post("/api/v1/zhct/userOrderDefaultLeave/create", { userInfoId: away, beginDate: chinaDay(0), endDate: chinaDay(2), reason: "年假" });
  expect(leave.status, leave.message).toBe(200);
  await page.goto("/zhct/userorderdefaultleave/index");
  await expect(page.getByRole("row").filter({ hasText: "钱请假" }).getByRole("cell", { name: "年假" })).toBeVisible();
  await snap(page, "userorderdefaultleave");

  // 立即生成 for tomorrow (the page's default day).
  await page.goto("/zhct/userorderdefaultgenerate/index");
  await page.getByRole("link", { name: "立即生成" }).click();
  await expect(page).toHaveURL(/\/zhct\/userorderdefaultgenerate\/generate$/);
  await expect(page.locator("input[name=orderDate]")).toHaveValue(chinaDay(1));
  // Exact: the screen's tag has a close button named 关闭 立即生成.
  await page.getByRole("button", { name: "立即生成", exact: true }).click();
  const result = page.getByTestId("generate-result");
  await expect(result).toContainText(`${chinaDay(1)} 生成完成`);
  await expect(result).toContainText("生成 1 单");
  await expect(result).toContainText("跳过 1 人次");
  await expect(result).toContainText("扣款 12.00 元");
  await snap(page, "generate");
  expect(await balance(eater)).toBe(3800);
  expect(await balance(away)).toBe(5000);

  // The run's details: who got an order and who was on leave.
  await result.getByRole("link", { name: "查看明细" }).click();
  await expect(page).toHaveURL(/\/zhct\/userorderdefaultgeneratedetail\/index\?runId=\d+$/);
  const made = page.getByRole("row").filter({ hasText: "赵默认" });
  await expect(made.getByRole("cell", { name: "已生成" })).toBeVisible();
  await expect(made.getByRole("cell", { name: "12.00" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "钱请假" }).getByRole("cell", { name: "请假", exact: true })).toBeVisible();
  await snap(page, "generatedetail");

  // The order is there, for tomorrow, a default order.
  await page.goto("/zhct/mealorder/index");
  await expect(page.getByRole("row").filter({ hasText: "赵默认" })).toHaveCount(1);
  await expect(page.getByRole("row").filter({ hasText: "钱请假" })).toHaveCount(0);

  // A second run makes nothing and charges nobody.
  await page.goto("/zhct/userorderdefaultgenerate/generate");
  await page.getByRole("button", { name: "立即生成", exact: true }).click();
  await expect(page.getByTestId("generate-result")).toContainText("生成 0 单");
  await expect(page.getByTestId("generate-result")).toContainText("跳过 2 人次");
  expect(await balance(eater)).toBe(3800);
  await page.goto("/zhct/userorderdefaultgenerate/index");
  await expect(page.getByRole("row").filter({ hasText: "手动" })).toHaveCount(2);
  await snap(page, "generateruns");

  // Today is refused at the field, the date kept.
  await page.goto("/zhct/userorderdefaultgenerate/generate");
  await page.locator("input[name=orderDate]").fill(chinaDay(0));
  await page.getByRole("button", { name: "立即生成", exact: true }).click();
  await expect(page.getByText("只能为明天起 30 天内的日期生成")).toBeVisible();
  await expect(page.locator("input[name=orderDate]")).toHaveValue(chinaDay(0));
});

test("accompanied meals, delivery points and slots, and a takeaway order's delivery", async ({ page, request }) => {
  test.setTimeout(180_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurants = await api.get("/api/v1/auth/org/findPage?orgName=职工食堂");
  const restaurantId = restaurants.data.records[0].id as number;
  const lunch = (await api.get("/api/v1/zhct/mealTimes/findPage")).data.records[0].id as number;
  const dept = await api.post("/api/v1/auth/org/create", { orgName: "综合办公室", orgType: "department", sort: 1, status: "1" });
  expect(dept.status, dept.message).toBe(200);
  const host = await api.post("/api/v1/zhct/userInfo/create", { userCode: "PC-001", userName: "孙陪餐", deptId: dept.data.id });
  expect(host.status, host.message).toBe(200);
  const eater = host.data.id as number;
  expect((await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: eater, amount: 10000, accountType: "cash" })).status).toBe(200);

  // Accompanied meals: one paid by the diner, one by the department; the personal one is cancelled and refunded.
  for (const body of [
    { guestCount: 2, unitPrice: 1500, payBy: "1", reason: "接待兄弟单位来访" },
    { guestCount: 6, unitPrice: 2000, payBy: "2", reason: "部门年度总结陪餐" },
  ]) {
    const made = await api.post("/api/v1/zhct/userOrderDefaultPc/create", { userInfoId: eater, orderDate: chinaDay(1), restaurantId, mealType: "lunch", ...body });
    expect(made.status, made.message).toBe(200);
  }
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/userorderdefaultpc/index");
  const personal = page.getByRole("row").filter({ hasText: "接待兄弟单位来访" });
  await expect(personal.getByRole("cell", { name: "30.00" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "部门年度总结陪餐" }).getByRole("cell", { name: "部门支付" })).toBeVisible();
  await snap(page, "userorderdefaultpc");
  await personal.getByRole("link", { name: "取消", exact: true }).click();
  await snap(page, "pccancel");
  await page.getByRole("button", { name: "确认取消" }).click();
  await expect(page.getByText("陪餐已取消，已退回 30.00 元")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "接待兄弟单位来访" }).getByRole("cell", { name: "已取消" })).toBeVisible();

  // A pick-up point and a slot of two orders; the takeaway order names both.
  await page.goto("/zhct/deliverypoint/index?create=1");
  const pointForm = page.getByRole("region", { name: "新增配送点" });
  await pick(page, "餐厅", "职工食堂", pointForm);
  await pointForm.getByRole("textbox", { name: "名称" }).fill("行政楼一层自提柜");
  await pointForm.getByRole("textbox", { name: "地址" }).fill("行政楼一层东侧");
  await pointForm.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "行政楼一层自提柜" }).getByRole("cell", { name: "自提点" })).toBeVisible();
  await snap(page, "deliverypoint");
  const point = (await api.get("/api/v1/zhct/deliveryPoint/findPage")).data.records[0].id as number;
  const slot = await api.post("/api/v1/zhct/deliveryTime/create", { mealTimesId: lunch, slotName: "11:30–12:00 送达", beginTime: "11:30", endTime: "12:00", capacity: 2, status: "1" });
  expect(slot.status, slot.message).toBe(200);
  await page.goto("/zhct/deliverytime/index");
  await expect(page.getByRole("row").filter({ hasText: "11:30–12:00 送达" })).toBeVisible();
  await snap(page, "deliverytime");

  const takeaway = async () =>
    (await request.post("/api/v1/zhct/cashier/pay", { headers: { Authorization: `Bearer ${api.token}` }, data: { userInfoId: eater, amount: 1000, mealTimesId: lunch, orderType: "3", deliveryPointId: point, deliveryTimeId: slot.data.id } })).json();
  expect((await takeaway()).status).toBe(200);
  expect((await takeaway()).status).toBe(200);
  expect(await takeaway()).toMatchObject({ status: 409, message: "该配送时段已约满（每日 2 份）" });
  await page.goto("/zhct/mealorderdelivery/index");
  await expect(page.getByRole("row").filter({ hasText: "行政楼一层自提柜" })).toHaveCount(2);
  await snap(page, "mealorderdelivery");
});
