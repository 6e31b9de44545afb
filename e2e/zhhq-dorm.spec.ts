import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, pick, untilHydrated } from "./support/shell";

/*
 * Issue 36's dormitory journey in Chromium: the clerk checks two residents into a room and one out again on the
 * screens, reads the room's meters, makes the month's bill, pays it from the residents' canteen accounts (one short of
 * balance fails, the other pays) and finds the line in the diner's ledger under 宿舍水电费.
 */

const { dormClerk: clerk } = e2eUsers;
const H = "/api/v1/zhhq";
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/zhhq-dorm-${name}.png`, fullPage: true });
const ROOM = "E2E-808";
const MONTH = "2026-10";

test.describe.configure({ mode: "serial" });

async function saved(page: Page, list: RegExp) {
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(list);
  await expect(page.getByText("保存成功")).toBeVisible();
}

test("check two residents in and one out, read the meters, bill the month and pay it from the canteen accounts", async ({ page, request }) => {
  test.setTimeout(150_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const type = await api.ok(`${H}/roomType/create`, { typeName: "E2E双人间", beds: 2, monthlyRent: 20_000, genderRule: "male" });
  const room = await api.ok(`${H}/dormitory/create`, { building: "E2E楼", floor: 8, roomNo: ROOM, roomTypeId: type.id });
  const rich = await api.ok("/api/v1/zhct/userInfo/create", { userCode: "E2E-DORM-1", userName: "宿舍甲", sex: "1" });
  const poor = await api.ok("/api/v1/zhct/userInfo/create", { userCode: "E2E-DORM-2", userName: "宿舍乙", sex: "1" });
  await api.ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: rich.id, amount: 100_000 });
  await api.ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: poor.id, amount: 100 });
  // The tenant's unit prices (系统参数), unless another run set them.
  for (const [paramCode, paramName, paramValue] of [["zhhq.dorm.waterPrice", "宿舍水费单价（元/吨）", "4"], ["zhhq.dorm.electricPrice", "宿舍电费单价（元/度）", "0.5"]]) {
    await api.post("/api/v1/sys/parameterConfig/create", { paramCode, paramName, paramValue });
  }

  await signInFresh(page, clerk.userName, clerk.password, "/zhhq/userdormitory/create");
  for (const [bed, name] of [["1", "宿舍甲"], ["2", "宿舍乙"]]) {
    await page.goto("/zhhq/userdormitory/create");
    await untilHydrated(page);
    await pick(page, "房间", ROOM);
    await page.getByRole("spinbutton", { name: "床位号" }).fill(bed);
    await pick(page, "住宿人员", name);
    await dateField(page, "入住日期").fill("2026-10-01");
    await saved(page, /\/zhhq\/userdormitory\/index$/);
  }
  // The bed taken: refused at the field, what was typed kept.
  await page.goto("/zhhq/userdormitory/create");
  await untilHydrated(page);
  await pick(page, "房间", ROOM);
  await page.getByRole("spinbutton", { name: "床位号" }).fill("1");
  await pick(page, "住宿人员", "宿舍乙");
  await dateField(page, "入住日期").fill("2026-10-02");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("该床位已有人员入住（宿舍甲），请先办理退宿")).toBeVisible();
  await expect(page.getByRole("spinbutton", { name: "床位号" })).toHaveValue("1");

  // 宿舍乙 checks out on the 21st: 20 days lived in October.
  await page.goto(`/zhhq/userdormitory/index?dormitoryId=${room.id}`);
  const row = page.getByRole("row").filter({ hasText: "宿舍乙" });
  await expect(row).toContainText("在住");
  await row.getByRole("link", { name: "退宿" }).click();
  await untilHydrated(page);
  await page.getByRole("button", { name: "退宿", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "退宿" });
  await expect(dialog.getByTestId("confirm-summary")).toContainText(`宿舍乙 将从 ${ROOM} 2 号床退宿`);
  await dateField(page, "退宿日期").fill("2026-10-21");
  await dialog.getByRole("button", { name: "确认退宿" }).click();
  await expect(page.getByTestId("flash")).toHaveText("已退宿，退宿日期 2026-10-21");
  await expect(page.getByRole("row").filter({ hasText: "宿舍乙" })).toContainText("2026-10-21");
  await shot(page, "stays");

  // The meters: September by the API, October on the screen (the previous is taken from September).
  await api.ok(`${H}/meterReading/create`, { dormitoryId: room.id, meterType: "water", month: "2026-09", currentReading: 100 });
  await api.ok(`${H}/meterReading/create`, { dormitoryId: room.id, meterType: "electric", month: "2026-09", currentReading: 1000 });
  for (const [meter, reading] of [["水表", "112.5"], ["电表", "1150"]]) {
    await page.goto("/zhhq/meterreading/create");
    await untilHydrated(page);
    await pick(page, "房间", ROOM);
    await page.getByRole("combobox", { name: "表类型" }).selectOption({ label: meter });
    await page.getByRole("textbox", { name: "月份" }).fill(MONTH);
    await page.getByRole("textbox", { name: "本次读数" }).fill(reading);
    await saved(page, /\/zhhq\/meterreading\/index$/);
  }
  const water = page.getByRole("row").filter({ hasText: "水表" }).filter({ hasText: MONTH });
  await expect(water).toContainText("100");
  await expect(water).toContainText("12.5");

  // The month's bill: water 12.5 × 4.00 = 50.00, electricity 150 × 0.50 = 75.00, rent 200.00 → 325.00 over 31 + 20 days.
  await page.goto("/zhhq/waterelectricmonth/create");
  await untilHydrated(page);
  await pick(page, "房间", ROOM);
  await page.getByRole("textbox", { name: "月份" }).fill(MONTH);
  await saved(page, /\/zhhq\/waterelectricmonth\/index$/);
  const bill = page.getByRole("row").filter({ hasText: ROOM }).filter({ hasText: MONTH });
  await expect(bill).toContainText("325.00");
  await expect(bill).toContainText("未缴");
  await shot(page, "bills");

  // 从餐卡扣费: 宿舍甲 pays 197.55 (31/51), 宿舍乙 has 1.00 of 127.45 and fails; the bill stays 未缴.
  await bill.getByRole("link", { name: "从餐卡扣费" }).click();
  await untilHydrated(page);
  await page.getByRole("button", { name: "从餐卡扣费", exact: true }).click();
  const pay = page.getByRole("dialog", { name: "从餐卡扣费" });
  await expect(pay.getByTestId("confirm-summary")).toContainText("共 325.00 元");
  await pay.getByRole("button", { name: "确认从餐卡扣费" }).click();
  await expect(page.getByTestId("flash")).toHaveText("已扣费 1 人，扣费失败 1 人，见分摊明细");
  await page.getByRole("row").filter({ hasText: ROOM }).filter({ hasText: MONTH }).getByRole("link", { name: "分摊明细" }).click();
  await expect(page.getByRole("row").filter({ hasText: "宿舍甲" })).toContainText("197.55");
  await expect(page.getByRole("row").filter({ hasText: "宿舍甲" })).toContainText("已扣费");
  await expect(page.getByRole("row").filter({ hasText: "宿舍乙" })).toContainText("余额不足（现金账户余额 1.00 元，应缴 127.45 元）");
  await shot(page, "shares");

  // The line in 宿舍甲's ledger, under its own business type.
  await page.goto(`/zhct/useraccountledger/index?userInfoId=${rich.id}`);
  const line = page.getByRole("row").filter({ hasText: "宿舍水电费" });
  await expect(line).toContainText("-197.55");
  await expect(line).toContainText("802.45");

  // Topped up, 宿舍乙 pays on the second press; the bill is 已缴 and offers no third.
  await api.ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: poor.id, amount: 20_000 });
  await page.goto("/zhhq/waterelectricmonth/index");
  await page.getByRole("row").filter({ hasText: ROOM }).filter({ hasText: MONTH }).getByRole("link", { name: "从餐卡扣费" }).click();
  await untilHydrated(page);
  await page.getByRole("button", { name: "从餐卡扣费", exact: true }).click();
  await page.getByRole("dialog", { name: "从餐卡扣费" }).getByRole("button", { name: "确认从餐卡扣费" }).click();
  await expect(page.getByTestId("flash")).toHaveText("已扣费 1 人");
  const paid = page.getByRole("row").filter({ hasText: ROOM }).filter({ hasText: MONTH });
  await expect(paid).toContainText("已缴");
  await expect(paid.getByRole("link", { name: "从餐卡扣费" })).toHaveCount(0);
});
