import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { dateField, pick, untilHydrated } from "./support/shell";

const { survClerk: clerk } = e2eUsers;
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";
const SHOTS = "test-results/screenshots";

test.describe.configure({ mode: "serial" });

type Api = Awaited<ReturnType<typeof apiAs>>;
async function ok<T = Record<string, unknown>>(promise: Promise<{ status: number; message: string; data: T }>): Promise<T> {
  const result = await promise;
  expect(result.status, result.message).toBe(200);
  return result.data;
}
async function upload(request: APIRequestContext, api: Api): Promise<string> {
  const response = await request.post("/api/v1/sys/file/upload", {
    headers: { Authorization: `Bearer ${api.token}` },
    multipart: { file: { name: "tray.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") } },
  });
  const body = await response.json();
  expect(body.status, body.message).toBe(200);
  return body.data.url as string;
}

test("a survey with questions is published, diners' answers arrive through the API, and the results show as a chart per question", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  await ok(api.post("/api/v1/auth/org/create", { orgName: "南区餐厅", orgType: "restaurant", sort: 0, status: "1" }));
  const diners = [];
  for (const [code, name] of [["SV-1", "赵一"], ["SV-2", "钱二"], ["SV-3", "孙三"], ["SV-4", "李四"]]) diners.push(await ok(api.post("/api/v1/zhct/userInfo/create", { userCode: code, userName: name })));
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

  // The form: the survey's fields, a single-choice question with a third option added, a multiple-choice question added.
  await signInFresh(page, clerk.userName, clerk.password, "/zhct/satisfactionsurve/create");
  await page.getByLabel("问卷名称").fill("南区十一月满意度调查");
  await pick(page, "餐厅", "南区餐厅");
  // A one-day survey.
  await dateField(page, "开始日期").fill(today);
  await dateField(page, "结束日期").fill(today);
  await page.getByRole("combobox", { name: "发布状态" }).selectOption({ label: "已发布" });
  await page.getByRole("textbox", { name: "第 1 题", exact: true }).fill("您对菜品口味满意吗？");
  await page.getByRole("textbox", { name: "第 1 题选项 A" }).fill("满意");
  await page.getByRole("textbox", { name: "第 1 题选项 B" }).fill("一般");
  await page.getByRole("button", { name: "添加选项" }).click();
  await page.getByRole("textbox", { name: "第 1 题选项 C" }).fill("不满意");
  await page.getByRole("button", { name: "添加题目" }).click();
  await page.getByRole("textbox", { name: "第 2 题", exact: true }).fill("您希望增加哪些菜？");
  await page.getByRole("combobox", { name: "选择类型" }).nth(1).selectOption({ label: "多选" });
  await page.getByRole("textbox", { name: "第 2 题选项 A" }).fill("面食");
  // Saved with an empty option: the refusal marks it and keeps what was typed.
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("textbox", { name: "第 2 题选项 B" })).toHaveAccessibleDescription(/请输入选项内容/);
  await expect(page.getByRole("textbox", { name: "第 1 题", exact: true })).toHaveValue("您对菜品口味满意吗？");
  await page.getByRole("textbox", { name: "第 2 题选项 B" }).fill("水果");
  await page.screenshot({ path: `${SHOTS}/zhct-survey-form-1280.png`, fullPage: true });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhct\/satisfactionsurve\/index$/);
  const row = page.getByRole("row").filter({ hasText: "南区十一月满意度调查" });
  await expect(row.getByRole("cell", { name: "已发布" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "南区餐厅" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/zhct-survey-list-1280.png`, fullPage: true });

  // Editing on a terminal whose scripts never arrive: an option is added by the server's answer to the button.
  const list = await ok<{ records: Array<{ id: number }> }>(api.get("/api/v1/zhct/satisfactionSurve/findPage?surveyName=南区十一月"));
  const surveyId = list.records[0].id;
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await signInFresh(plain, clerk.userName, clerk.password, `/zhct/satisfactionsurve/edit/${surveyId}`);
  await plain.getByRole("button", { name: "添加选项" }).nth(1).click();
  await plain.getByRole("textbox", { name: "第 2 题选项 C" }).fill("粤菜");
  await plain.getByRole("button", { name: "保存" }).click();
  await expect(plain).toHaveURL(/\/zhct\/satisfactionsurve\/index$/);
  await noScript.close();

  // Four diners answer through the API; a second answer of one diner is refused.
  type Survey = { questions: Array<{ id: number; options: Array<{ id: number; optionText: string }> }> };
  const survey = await ok<Survey>(api.get(`/api/v1/zhct/satisfactionSurve/getInfo?id=${surveyId}`));
  const [taste, wishes] = survey.questions;
  expect(wishes.options.map((o) => o.optionText)).toEqual(["面食", "水果", "粤菜"]);
  const picks: Array<[number, number[]]> = [[0, [0, 1]], [0, [1]], [1, [0, 1, 2]], [0, [1]]];
  for (const [i, [t, w]] of picks.entries()) {
    await ok(api.post("/api/v1/zhct/satisfactionSurve/answer", { surveyId, userInfoId: diners[i].id, answers: [{ questionId: taste.id, optionIds: [taste.options[t].id] }, { questionId: wishes.id, optionIds: w.map((x) => wishes.options[x].id) }] }));
  }
  const again = await api.post("/api/v1/zhct/satisfactionSurve/answer", { surveyId, userInfoId: diners[0].id, answers: [{ questionId: taste.id, optionIds: [taste.options[2].id] }, { questionId: wishes.id, optionIds: [wishes.options[0].id] }] });
  expect(again).toMatchObject({ status: 409, message: "该人员已提交过此问卷，不能重复作答" });

  // The statistics: four answers, counts and percentages per option, one bar chart per question.
  await page.goto("/zhct/satisfactionsurvestatics/index");
  await page.getByRole("combobox", { name: "问卷" }).selectOption({ label: `南区十一月满意度调查（${today} 至 ${today}）` });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`surveyId=${surveyId}`));
  await expect(page.getByTestId("answer-count")).toHaveText("4");
  const results = page.getByTestId("survey-result");
  await expect(results).toHaveCount(2);
  await expect(results.nth(0).getByRole("row", { name: "满意 3 75.0%" })).toBeVisible();
  await expect(results.nth(1).getByRole("row", { name: "水果 4 100.0%" })).toBeVisible();
  await expect(results.nth(0).locator(".recharts-bar-rectangle")).toHaveCount(3);
  await expect(results.nth(1).locator(".recharts-bar-rectangle")).toHaveCount(3);
  await page.screenshot({ path: `${SHOTS}/zhct-survey-statics-1280.png`, fullPage: true });
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "导出 Excel" }).click();
  expect((await download).suggestedFilename()).toBe("南区十一月满意度调查-满意度统计.xlsx");
});

test("a recognition server logs a tray through the API; staff mark it misrecognised and confirm a cut picture with another label", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, clerk.userName, clerk.password);
  const restaurant = await ok(api.post("/api/v1/auth/org/create", { orgName: "北区餐厅", orgType: "restaurant", sort: 0, status: "1" }));
  const foodType = await ok(api.post("/api/v1/zhct/foodType/create", { typeName: "识别热菜", sort: 0, status: "1" }));
  const pork = await ok(api.post("/api/v1/zhct/food/create", { foodName: "红烧肉", foodTypeId: foodType.id, restaurantId: restaurant.id, price: 1500, onShelf: "1" }));
  const greens = await ok(api.post("/api/v1/zhct/food/create", { foodName: "清炒时蔬", foodTypeId: foodType.id, restaurantId: restaurant.id, price: 600, onShelf: "1" }));
  await ok(api.post("/api/v1/sys/device/create", { deviceCode: "DS-E2E", deviceName: "北区识别服务器", deviceType: "detect_server", status: "1" }));
  const tray = await upload(request, api);
  const cut = await upload(request, api);
  const logged = await ok(api.post("/api/v1/zhct/imageDetectLog/report", { deviceCode: "DS-E2E", imageUrl: tray, confidence: 912, foods: [{ foodId: pork.id, foodCount: 1, cutImageUrl: cut }, { foodId: greens.id, foodCount: 2 }] }));
  expect(logged).toMatchObject({ foodCount: 3, amount: 2700, cutImages: 1 });

  // An order's settlement picture, for the order pictures screen.
  const diner = await ok(api.post("/api/v1/zhct/userInfo/create", { userCode: "SV-9", userName: "周九" }));
  await ok(api.post("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 5000 }));
  const order = await ok(api.post("/api/v1/zhct/cashier/pay", { userInfoId: diner.id, amount: 2700 }));
  await ok(api.post("/api/v1/zhct/mealOrderImageDetail/create", { orderId: order.orderId, detectImageType: "1", imageUrl: tray, shotAt: Date.now() }));

  await signInFresh(page, clerk.userName, clerk.password, "/zhct/imagedetectlog/index");
  const row = page.getByRole("row").filter({ hasText: "北区识别服务器" });
  await expect(row.getByRole("cell", { name: "正常" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "27.00" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/zhct-imagedetectlog-1280.png`, fullPage: true });
  await row.getByRole("link", { name: "标记" }).click();
  await expect(page).toHaveURL(/\/zhct\/imagedetectlog\/mark\/\d+$/);
  await expect(page.getByTestId("detect-foods").getByRole("row", { name: "清炒时蔬 2 6.00 12.00" })).toBeVisible();
  await untilHydrated(page);
  await page.getByRole("combobox", { name: "识别状态" }).selectOption({ label: "误识别" });
  await page.getByRole("button", { name: "保存标记" }).click();
  await expect(page.getByRole("textbox", { name: "备注" })).toHaveAccessibleDescription(/请在备注中说明/);
  await page.getByRole("textbox", { name: "备注" }).fill("时蔬被认成了红烧肉");
  await page.screenshot({ path: `${SHOTS}/zhct-detect-mark-1280.png`, fullPage: true });
  await page.getByRole("button", { name: "保存标记" }).click();
  await expect(page).toHaveURL(/\/zhct\/imagedetectlog\/index$/);
  await expect(page.getByRole("row").filter({ hasText: "北区识别服务器" }).getByRole("cell", { name: "误识别" })).toBeVisible();

  // The cut picture waits in the library; it is relabelled to 清炒时蔬 and added.
  await page.goto("/zhct/imagelibrary/index");
  const picture = page.getByRole("row").filter({ hasText: "红烧肉" });
  await expect(picture.getByRole("cell", { name: "未确认" })).toBeVisible();
  await picture.getByRole("link", { name: "确认" }).click();
  await expect(page).toHaveURL(/\/zhct\/imagelibrary\/confirm\/\d+$/);
  await page.screenshot({ path: `${SHOTS}/zhct-image-confirm-1280.png`, fullPage: true });
  await pick(page, "菜品标签", "清炒时蔬");
  await page.getByRole("button", { name: "改标并添加" }).click();
  await expect(page).toHaveURL(/\/zhct\/imagelibrary\/index$/);
  const added = page.getByRole("row").filter({ hasText: "清炒时蔬" });
  await expect(added.getByRole("cell", { name: "已添加" })).toBeVisible();
  await expect(added.getByRole("cell", { name: "红烧肉" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/zhct-imagelibrary-1280.png`, fullPage: true });

  await page.goto("/zhct/mealorderimagedetail/index");
  await expect(page.getByRole("row").filter({ hasText: order.orderNo as string }).getByRole("cell", { name: "结算" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/zhct-mealorderimagedetail-1280.png`, fullPage: true });
});
