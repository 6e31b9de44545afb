import { expect, test, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { untilHydrated } from "./support/shell";

/*
 * Issue 36's repair journey in Chromium: a request reported on its form with a photo, accepted with a worker, started,
 * finished once its part came out of the warehouse as a 维修出库 naming it (the part's stock cost on the repair), and
 * rated; each step on the generic step screen, offered only from its status.
 */

const { dormClerk: clerk } = e2eUsers;
const Z = "/api/v1/zhhq";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";
const CONTENT = "E2E 三楼茶水间热水器不加热";
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/zhhq-repair-${name}.png`, fullPage: true });

/** Follows a row's step link and takes the step on its screen, confirming in its dialog what the step asks. */
async function takeStep(page: Page, link: string, button: string, fill: Record<string, string> = {}, trigger = link) {
  await page.goto("/zhhq/repair/index");
  await page.getByRole("row").filter({ hasText: CONTENT }).getByRole("link", { name: link, exact: true }).click();
  await untilHydrated(page);
  if (Object.keys(fill).length === 0 && button.startsWith("确认")) {
    await page.getByRole("button", { name: button }).click();
    return;
  }
  await page.getByRole("button", { name: trigger, exact: true }).click();
  const dialog = page.getByRole("dialog");
  for (const [label, value] of Object.entries(fill)) await dialog.getByRole("textbox", { name: label, exact: true }).fill(value);
  await dialog.getByRole("button", { name: button }).click();
}

test("a repair from its request with a photo to its rating, with a part drawn from the warehouse", async ({ page, request }) => {
  test.setTimeout(150_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "E2E维修仓" })).id;
  const goodsId = (await api.ok(`${Z}/goods/create`, { goodsCode: "E2E-HEAT", goodsName: "E2E加热管" })).id;
  const stockIn = (await api.ok(`${Z}/warehouseIn/create`, { warehouseId, lines: [{ goodsId, quantity: 4, price: 3600 }] })).id;
  await api.ok(`${Z}/warehouseIn/submit`, { id: stockIn });
  await api.ok(`${Z}/warehouseIn/approve`, { id: stockIn });

  await signInFresh(page, clerk.userName, clerk.password, "/zhhq/repair/create");
  await untilHydrated(page);
  await page.getByRole("combobox", { name: "报修地点类型" }).selectOption({ label: "其他" });
  await page.getByRole("textbox", { name: "具体位置" }).fill("三楼茶水间");
  await page.getByRole("combobox", { name: "报修类型" }).selectOption({ label: "电器" });
  await page.getByRole("textbox", { name: "报修内容" }).fill(CONTENT);
  await page.locator("input[type=file]").setInputFiles({ name: "heater.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
  await expect(page.getByRole("img", { name: "报修照片" })).toBeVisible();
  await page.getByRole("textbox", { name: "报修人" }).fill("王老师");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhhq\/repair\/index$/);
  const row = page.getByRole("row").filter({ hasText: CONTENT });
  await expect(row).toContainText("已提交");
  // Only 受理 and 驳回 are offered on a new request.
  await expect(row.getByRole("link", { name: "开始维修" })).toHaveCount(0);
  const repairNo = (await api.get(`${Z}/repair/findPage?reporterName=${encodeURIComponent("王老师")}`)).data.records.find((r: { content: string }) => r.content === CONTENT).repairNo as string;
  expect(repairNo).toMatch(/^WX\d{8}-\d{3}$/);

  await takeStep(page, "受理", "确认受理", { 维修人员: "张电工" });
  await expect(page.getByTestId("flash")).toHaveText("已受理，维修人员 张电工");
  await takeStep(page, "开始维修", "确认开始维修");
  await expect(page.getByTestId("flash")).toHaveText("已开始维修");

  // The part: a 维修出库 of one heater naming the repair, approved (at the stock's 36.00).
  const out = (await api.ok(`${Z}/warehouseOut/create`, { warehouseId, outKind: "2", repairNo, lines: [{ goodsId, quantity: 1 }] })).id;
  await api.ok(`${Z}/warehouseOut/submit`, { id: out });
  await api.ok(`${Z}/warehouseOut/approve`, { id: out });

  await takeStep(page, "完成", "确认完成维修", { 维修说明: "更换加热管一根" }, "完成维修");
  await expect(page.getByTestId("flash")).toHaveText("维修完成，配件成本 36.00 元");
  await expect(page.getByRole("row").filter({ hasText: CONTENT })).toContainText("36.00");
  await takeStep(page, "评价", "确认评价", { 评分: "5" });
  await expect(page.getByTestId("flash")).toHaveText("已评价 5 分");
  const rated = page.getByRole("row").filter({ hasText: CONTENT });
  await expect(rated).toContainText("已评价");
  await expect(rated).toContainText("张电工");
  await shot(page, "rated");
});
