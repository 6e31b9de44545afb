import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, pick } from "./support/shell";

const { roomClerk: clerk } = e2eUsers;
/** A China-time day `days` from today. */
const dayFrom = (days: number) => new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

test.describe.configure({ mode: "serial" });

test("a room is set up and reserved; an overlapping reservation is refused naming the one it meets, and kept as typed", async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurant = await api.post("/api/v1/auth/org/create", { orgName: "东区餐厅", orgType: "restaurant", sort: 0, status: "1" });
  expect(restaurant.status, restaurant.message).toBe(200);
  const date = dayFrom(10);

  await signInFresh(page, clerk.userName, clerk.password, "/zhct/room/create");
  await page.getByLabel("包间名称").fill("牡丹厅");
  await pick(page, "所属餐厅", "东区餐厅");
  await page.getByLabel("容纳人数").fill("12");
  await page.getByLabel("设备设施").fill("投影仪、音响、麦克风");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/room\/index$/);
  const roomRow = page.getByRole("row").filter({ hasText: "牡丹厅" });
  await expect(roomRow.getByRole("cell", { name: "东区餐厅" })).toBeVisible();
  await expect(roomRow.getByRole("cell", { name: "12", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-room-1280.png", fullPage: true });

  const reserve = async (organizer: string, begin: string, end: string, attendees: string) => {
    await page.goto("/zhct/roomreservation/create");
    await pick(page, "包间", "牡丹厅");
    await dateField(page, "预约日期").fill(date);
    await page.getByLabel("开始时间").fill(begin);
    await page.getByLabel("结束时间").fill(end);
    await page.getByLabel("预订人").fill(organizer);
    await page.getByLabel("就餐人数").fill(attendees);
    await page.getByRole("textbox", { name: "餐标（元/人）" }).fill("88");
    await page.getByRole("button", { name: "保存" }).click();
  };
  await reserve("王主任", "11:30", "13:30", "10");
  await expect(page).toHaveURL(/\/zhct\/roomreservation\/index$/);
  await expect(page.getByRole("row").filter({ hasText: "王主任" }).getByRole("cell", { name: "已预约" })).toBeVisible();

  // 12:00–14:00 meets 王主任's 11:30–13:30: refused at the field, naming it; what was typed stays.
  await reserve("李科长", "12:00", "14:00", "8");
  await expect(page).toHaveURL(/\/zhct\/roomreservation\/create$/);
  await expect(page.getByText(`包间「牡丹厅」${date} 11:30–13:30 已被「王主任」预约，与所选时段冲突`)).toBeVisible();
  await expect(page.getByLabel("预订人")).toHaveValue("李科长");
  await expect(page.getByLabel("开始时间")).toHaveValue("12:00");
  // More diners than the room holds is refused too.
  await page.getByLabel("开始时间").fill("13:30");
  await page.getByLabel("就餐人数").fill("13");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("就餐人数 13 人超过包间「牡丹厅」的容纳人数 12 人")).toBeVisible();
  await page.getByLabel("就餐人数").fill("8");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/roomreservation\/index$/);
  await expect(page.getByRole("row").filter({ hasText: "李科长" }).getByRole("cell", { name: "13:30" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-roomreservation-1280.png", fullPage: true });
});

test("a chip plate is bound to a diner, refused to another, and released when the diner pays; a table binding is queried and released", async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const diner = await api.post("/api/v1/zhct/userInfo/create", { userCode: "RM-001", userName: "周持盘" });
  const other = await api.post("/api/v1/zhct/userInfo/create", { userCode: "RM-002", userName: "吴等待" });
  expect(diner.status, diner.message).toBe(200);
  expect((await api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.data.id, amount: 5000, accountType: "cash" })).status).toBe(200);

  // The entrance device binds plate E200A1 to 周持盘; another diner's device is told who holds it.
  const bound = await api.post("/api/v1/zhct/userPlate/bind", { plateNo: "E200A1", userInfoId: diner.data.id, deviceCode: "GATE-1" });
  expect(bound.status, bound.message).toBe(200);
  const refused = await api.post("/api/v1/zhct/userPlate/bind", { plateNo: "E200A1", userInfoId: other.data.id });
  expect(refused).toMatchObject({ status: 409, message: "餐盘 E200A1 已绑定给「周持盘」（RM-001），请先解绑" });
  expect((await api.post("/api/v1/zhct/userPlate/bind", { plateNo: "E200B2", userInfoId: other.data.id })).status).toBe(200);

  await signInFresh(page, clerk.userName, clerk.password, "/zhct/userplate/index");
  const plateRow = page.getByRole("row").filter({ hasText: "E200A1" });
  await expect(plateRow.getByRole("cell", { name: "周持盘" })).toBeVisible();
  await expect(plateRow.getByRole("cell", { name: "绑定中" })).toBeVisible();

  // The diner pays at the counter: the plate is released and names the order.
  const paid = await api.post("/api/v1/zhct/cashier/pay", { userInfoId: diner.data.id, amount: 1200 });
  expect(paid.status, paid.message).toBe(200);
  await page.reload();
  await expect(plateRow.getByRole("cell", { name: "已解绑" })).toBeVisible();
  await expect(plateRow.getByRole("cell", { name: paid.data.orderNo })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "E200B2" }).getByRole("cell", { name: "绑定中" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/zhct-userplate-1280.png", fullPage: true });

  // Tables: two diners seated by their table devices, found by table; one released from the list's 解绑, without scripts.
  const restaurant = await api.post("/api/v1/auth/org/create", { orgName: "西区餐厅", orgType: "restaurant", sort: 0, status: "1" });
  const restaurantId = restaurant.data.id;
  for (const [userInfoId, tableNo] of [[diner.data.id, "A01"], [other.data.id, "A01"]]) {
    const seated = await api.post("/api/v1/zhct/userAccountTable/bind", { restaurantId, tableNo, userInfoId, deviceCode: "TABLE-A01" });
    expect(seated.status, seated.message).toBe(200);
  }
  expect((await api.post("/api/v1/zhct/userAccountTable/bind", { restaurantId, tableNo: "B07", userInfoId: (await api.post("/api/v1/zhct/userInfo/create", { userCode: "RM-003", userName: "郑邻桌" })).data.id })).status).toBe(200);
  // 周持盘 pays while seated: the seat notes the order.
  const lunch = await api.post("/api/v1/zhct/cashier/pay", { userInfoId: diner.data.id, amount: 800 });
  expect(lunch.status, lunch.message).toBe(200);
  await page.goto("/zhct/useraccounttable/index?tableNo=A01");
  await expect(page.getByRole("row").filter({ hasText: "A01" })).toHaveCount(2);
  await expect(page.getByRole("row").filter({ hasText: "周持盘" }).getByRole("cell", { name: lunch.data.orderNo })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "B07" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/zhct-useraccounttable-1280.png", fullPage: true });
  const releasePath = await page.getByRole("row").filter({ hasText: "吴等待" }).getByRole("link", { name: "解绑" }).evaluate((a: HTMLAnchorElement) => new URL(a.href).pathname + new URL(a.href).search);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await signInFresh(plain, clerk.userName, clerk.password, releasePath as string);
  await expect(plain.getByTestId("bind-status")).toHaveText("绑定中");
  await plain.screenshot({ path: "test-results/screenshots/zhct-binding-release-1280.png", fullPage: true });
  await plain.getByRole("button", { name: "确认解绑" }).click();
  await expect(plain).toHaveURL(/\/zhct\/useraccounttable\/index$/);
  await expect(plain.getByRole("row").filter({ hasText: "吴等待" }).getByRole("cell", { name: "已解绑" })).toBeVisible();
  await expect(plain.getByRole("row").filter({ hasText: "周持盘" }).getByRole("cell", { name: "绑定中" })).toBeVisible();
  await noScript.close();
});
