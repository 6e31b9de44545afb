import ExcelJS from "exceljs";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { untilHydrated } from "./support/shell";

const { operator } = e2eUsers;
const LIST = "/admin/sys/tenant/index";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, operator.userName, operator.password);
  // 25 tenants named 连锁食堂-01 … -25 so the list has pages.
  for (let i = 1; i <= 25; i++) {
    const n = String(i).padStart(2, "0");
    const result = await api.post("/api/v1/sys/tenant/create", { tenantName: `连锁食堂-${n}`, tenantCode: `chain-${n}`, status: i % 5 === 0 ? "0" : "1", contactPhone: "0571-8888000" });
    expect(result.status, result.message).toBe(200);
  }
});

test("tenant create, edit, filter and delete through the screens", { tag: "@journey" }, async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, LIST);
  await expect(page).toHaveURL(LIST);
  await page.getByRole("link", { name: "新增" }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/tenant\/create$/);
  // The URL changes when the navigation starts; the list's own 租户名称 filter is on screen until it ends.
  await expect(page.getByRole("heading", { name: "新增租户" })).toBeVisible();

  await page.getByLabel("租户名称").fill("城东中心食堂");
  await page.getByLabel("租户编码").fill("East Canteen");
  await page.getByLabel("联系电话").fill("0571-66668888");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("租户编码只能包含小写字母、数字、下划线和短横线")).toBeVisible();
  await expect(page.getByLabel("租户名称")).toHaveValue("城东中心食堂");

  await page.getByLabel("租户编码").fill("east");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(LIST);
  await expect(page.getByText("保存成功")).toBeVisible();

  await page.getByLabel("租户名称").fill("城东");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/tenantName=%E5%9F%8E%E4%B8%9C/);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("城东中心食堂");

  await rows.first().getByRole("link", { name: "编辑" }).click();
  await expect(page.getByRole("heading", { name: "编辑租户" })).toBeVisible();
  await expect(page.getByLabel("租户名称")).toHaveValue("城东中心食堂");
  await page.getByLabel("联系人").fill("王经理");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(LIST);
  await page.goto(`${LIST}?tenantName=城东`);
  await expect(page.locator("tbody tr").first()).toContainText("王经理");

  await page.locator("tbody tr").first().getByRole("link", { name: "删除" }).click();
  await expect(page.getByTestId("confirm-delete")).toContainText("城东中心食堂");
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(page.getByText("暂无数据")).toBeVisible();
});

test("a required field left empty gets its message and nothing typed is lost", { tag: "@journey" }, async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/tenant/create");
  await page.getByLabel("联系人").fill("李四");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("请输入租户名称")).toBeVisible();
  await expect(page.getByText("请输入租户编码")).toBeVisible();
  await expect(page.getByLabel("联系人")).toHaveValue("李四");
});

test("a duplicate code is refused at the field by the server", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/tenant/create");
  await page.getByLabel("租户名称").fill("重复编码食堂");
  await page.getByLabel("租户编码").fill("chain-01");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("租户编码已存在")).toBeVisible();
  await expect(page.getByLabel("租户名称")).toHaveValue("重复编码食堂");
});

test("an edit of a row changed since it was opened is refused with 409", async ({ page, browser }) => {
  await signInFresh(page, operator.userName, operator.password, `${LIST}?tenantCode=chain-02`);
  await page.locator("tbody tr").first().getByRole("link", { name: "编辑" }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/tenant\/edit\/\d+$/);
  await expect(page.getByLabel("租户编码")).toHaveValue("chain-02");
  const editUrl = page.url();
  const other = await browser.newPage({ storageState: await page.context().storageState() });
  await other.goto(editUrl);
  await other.getByLabel("联系人").fill("先保存的人");
  await other.getByRole("button", { name: "保存" }).click();
  await expect(other).toHaveURL(LIST);
  await other.close();

  await page.getByLabel("联系人").fill("后保存的人");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("alert")).toHaveText("数据已被他人修改，请刷新后重试");
  await expect(page.getByLabel("联系人")).toHaveValue("后保存的人");
});

test("a form keeps its layout when its scripts take over, so a click on 保存 meanwhile still lands", async ({ page, browser }) => {
  await signInFresh(page, operator.userName, operator.password, `${LIST}?tenantCode=chain-03`);
  const edit = (await page.locator("tbody tr").first().getByRole("link", { name: "编辑" }).evaluate((a: HTMLAnchorElement) => new URL(a.href).pathname + new URL(a.href).search)) as string;
  const withoutScripts = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), viewport: page.viewportSize() });
  const serverPage = await withoutScripts.newPage();
  await serverPage.goto(edit);
  const served = await serverPage.getByRole("button", { name: "保存" }).boundingBox();
  await withoutScripts.close();
  await page.goto(edit);
  // The remark box's autosize writes its height once hydrated: the last thing that could move the button.
  await page.waitForFunction(() => !!document.querySelector<HTMLTextAreaElement>("main textarea")?.style.height);
  const hydrated = await page.getByRole("button", { name: "保存" }).boundingBox();
  expect(served && hydrated).toBeTruthy();
  expect(Math.abs(hydrated!.y - served!.y)).toBeLessThanOrEqual(1);
});

test("leaving a form with unsaved changes asks first", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/sys/tenant/create");
  // The guard is the page's script: before React takes over, 取消 is a plain link that leaves (a CI run clicked it then).
  await untilHydrated(page);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("租户名称").fill("尚未保存");
  await page.getByRole("link", { name: "取消" }).click();
  await expect(page.getByRole("dialog", { name: "离开此页面？" })).toBeVisible();
  await page.getByRole("button", { name: "留在此页" }).click();
  await expect(page.getByLabel("租户名称")).toHaveValue("尚未保存");
  await page.getByRole("link", { name: "取消" }).click();
  await page.getByRole("button", { name: "离开" }).click();
  await expect(page).toHaveURL(LIST);
});

test("a filtered, sorted, paged list reopened from its URL shows the same rows", async ({ page, context }) => {
  await signInFresh(page, operator.userName, operator.password, LIST);
  await page.getByLabel("租户名称").fill("连锁食堂");
  await page.getByRole("button", { name: "查询" }).click();
  // The URL changes as a navigation starts; the links are re-rendered when it finishes.
  const sortLink = page.getByRole("link", { name: /租户编码/ });
  await expect(sortLink).toHaveAttribute("href", /tenantName=.*sort=tenantCode%2Casc/);
  await sortLink.click();
  await expect(sortLink).toHaveAttribute("href", /tenantName=.*sort=tenantCode%2Cdesc/);
  await sortLink.click();
  await expect(page.getByRole("link", { name: "每页 10 条" })).toHaveAttribute("href", /sort=tenantCode%2Cdesc.*pageSize=10/);
  await page.getByRole("link", { name: "每页 10 条" }).click();
  await expect(page.getByRole("link", { name: "第 2 页" })).toHaveAttribute("href", /pageSize=10.*pageNum=2/);
  await page.getByRole("link", { name: "第 2 页" }).click();
  await expect(page).toHaveURL(/sort=tenantCode%2Cdesc/);
  await expect(page).toHaveURL(/pageNum=2/);
  expect(new URL(page.url()).searchParams.get("tenantName")).toBe("连锁食堂");
  await expect(page.getByLabel("租户名称")).toHaveValue("连锁食堂");
  await expect(page.locator("tbody tr td:nth-child(3)").first()).toHaveText("chain-15");
  const shown = await page.locator("tbody tr td:nth-child(3)").allTextContents();
  expect(shown).toEqual(["chain-15", "chain-14", "chain-13", "chain-12", "chain-11", "chain-10", "chain-09", "chain-08", "chain-07", "chain-06"]);
  const bookmark = page.url();
  const again = await context.newPage();
  await again.goto(bookmark);
  expect(await again.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual(shown);
});

test("export of the current filter as CSV and XLSX", { tag: "@journey" }, async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password, `${LIST}?status=0&sort=tenantCode,asc`);
  await untilHydrated(page);
  await page.waitForLoadState("networkidle");
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 CSV" }).click()]);
  const text = readFileSync((await csv.path()) as string, "utf8");
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).trim().split("\r\n");
  expect(lines[0]).toBe("租户名称,租户编码,联系人,联系电话,到期日期,状态");
  expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(["chain-05", "chain-10", "chain-15", "chain-20", "chain-25"]);
  expect(lines[1]).toContain("无效");
  await expect(page.getByTestId("export-progress")).toContainText("导出完成：共 5 条");

  const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "导出 Excel" }).click()]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsx.path()) as string);
  const sheet = workbook.worksheets[0];
  expect(sheet.getRow(1).getCell(1).value).toBe("租户名称");
  expect(sheet.rowCount).toBe(6);
  expect(sheet.getRow(2).getCell(2).value).toBe("chain-05");
});

test("a super admin works inside another tenant and comes back", async ({ page, request }) => {
  await signInFresh(page, operator.userName, operator.password, "/admin/dashboard");
  await untilHydrated(page);
  await page.waitForLoadState("networkidle");
  await page.getByTestId("tenant-switch").click();
  await page.getByRole("menuitem", { name: "连锁食堂-03" }).click();
  await expect(page.getByTestId("tenant-switch")).toHaveText("连锁食堂-03");
  await expect(page.getByText("连锁食堂-03 · 角色")).toBeVisible();
  // The session, not the page, carries the choice: the API answers for that tenant.
  const token = (await page.context().cookies()).find((c) => c.name === "Admin-Token")?.value;
  const info = await (await request.get("/api/v1/auth/user/info", { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(info.data.tenantName).toBe("连锁食堂-03");
  await page.getByTestId("tenant-switch").click();
  await page.getByRole("menuitem", { name: "默认租户" }).click();
  await expect(page.getByTestId("tenant-switch")).toHaveText("默认租户");
});

test("rows selected on a page are deleted together; row links navigate inside the app", async ({ page, request }) => {
  const api = await apiAs(request, operator.userName, operator.password);
  for (const n of [1, 2, 3]) {
    const result = await api.post("/api/v1/sys/tenant/create", { tenantName: `批删食堂-${n}`, tenantCode: `batch-${n}`, status: "1" });
    expect(result.status, result.message).toBe(200);
  }
  await signInFresh(page, operator.userName, operator.password, `${LIST}?tenantName=批删食堂&sort=tenantCode,asc`);
  await untilHydrated(page);
  await page.waitForLoadState("networkidle");
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);

  // A row link is a plain anchor that works without JavaScript; with it, the click stays in the app.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await rows.first().getByRole("link", { name: "编辑" }).click();
  await expect(page.getByRole("heading", { name: "编辑租户" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await page.goBack();
  await expect(rows).toHaveCount(3);
  // So do the sort headers and the pager, plain anchors routed by the same handler.
  await page.getByRole("link", { name: /租户编码/ }).click();
  await expect(page).toHaveURL(/sort=tenantCode%2Cdesc/);
  await expect(rows.first()).toContainText("batch-3");
  await page.getByRole("link", { name: "每页 50 条" }).click();
  await expect(page).toHaveURL(/pageSize=50/);
  await expect(page).toHaveURL(/tenantName=/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(rows).toHaveCount(3);

  await page.getByRole("checkbox", { name: "全选本页" }).check();
  await expect(page.getByRole("checkbox", { name: "选择此行" })).toHaveCount(3);
  for (const box of await page.getByRole("checkbox", { name: "选择此行" }).all()) await expect(box).toBeChecked();
  await rows.nth(1).getByRole("checkbox", { name: "选择此行" }).uncheck();
  await expect(page.getByRole("checkbox", { name: "全选本页" })).not.toBeChecked();
  expect(await page.getByRole("checkbox", { name: "全选本页" }).evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe("确定删除选中的 2 条租户吗？");
    void dialog.accept();
  });
  await page.getByRole("button", { name: "批量删除（2）" }).click();
  await expect(page.getByText("已删除 2 条记录")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("batch-2");
  const left = await api.get(`/api/v1/sys/tenant/findPage?tenantName=${encodeURIComponent("批删食堂")}`);
  expect((left.data as { records: Array<{ tenantCode: string }> }).records.map((r) => r.tenantCode)).toEqual(["batch-2"]);
});

test("a user's hidden columns and row spacing apply to every row and are kept for the next visit", async ({ page, request }) => {
  const api = await apiAs(request, operator.userName, operator.password);
  const page1 = `${LIST}?tenantName=连锁食堂&sort=tenantCode,asc`;
  try {
    await signInFresh(page, operator.userName, operator.password, page1);
    await untilHydrated(page);
    await page.waitForLoadState("networkidle");
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(20);
    const headerCells = await page.locator("thead th").count();
    await expect(rows.first().locator("td")).toHaveCount(headerCells);
    await expect(page.getByRole("columnheader", { name: "联系电话" })).toBeVisible();
    await expect(rows.first()).toContainText("0571-8888000");
    const spacing = (await rows.first().boundingBox())!.height;

    await page.getByRole("button", { name: "显示/隐藏 列" }).click();
    await page.getByRole("menuitem", { name: /联系电话/ }).click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("columnheader", { name: "联系电话" })).toHaveCount(0);
    for (const row of await rows.all()) {
      await expect(row.locator("td")).toHaveCount(headerCells - 1);
      await expect(row).not.toContainText("0571-8888000");
    }
    await page.getByRole("button", { name: "切换间距" }).click();
    await expect.poll(async () => (await rows.first().boundingBox())!.height).not.toBe(spacing);
    const chosen = (await rows.first().boundingBox())!.height;
    // Selecting a row marks the row, in whatever spacing.
    await rows.nth(2).getByRole("checkbox", { name: "选择此行" }).check();
    await expect(rows.nth(2)).toHaveAttribute("data-selected", "true");
    await expect(rows.nth(1)).not.toHaveAttribute("data-selected");

    // The server renders the next visit with the user's choices.
    await expect.poll(async () => JSON.stringify((await api.get("/api/v1/auth/user/info")).data.settings?.tables?.["sys/tenant"] ?? null)).toContain("contactPhone");
    await page.reload();
    await expect(rows).toHaveCount(20);
    await expect(page.getByRole("columnheader", { name: "联系电话" })).toHaveCount(0);
    await expect(rows.first().locator("td")).toHaveCount(headerCells - 1);
    expect((await rows.first().boundingBox())!.height).toBe(chosen);
  } finally {
    await api.post("/api/v1/auth/user/saveSettings", { tables: { "sys/tenant": { hidden: [], density: "md" } } });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a list can be filtered, sorted and paged", { tag: "@journey" }, async ({ page }) => {
    await signInFresh(page, operator.userName, operator.password, LIST);
    await page.getByLabel("租户名称").fill("连锁食堂");
    await page.getByLabel("状态").selectOption("1");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/status=1/);
    await expect(page.getByText("共 20 条")).toBeVisible();
    await page.getByRole("link", { name: /租户编码/ }).click();
    await expect(page).toHaveURL(/sort=tenantCode%2Casc/);
    await page.getByRole("link", { name: "每页 10 条" }).click();
    await page.getByRole("link", { name: "第 2 页" }).click();
    await expect(page.locator("tbody tr")).toHaveCount(10);
    // Valid chains are all but every fifth; page 2 of 10, by code, starts after chain-12.
    expect(await page.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual([
      "chain-13", "chain-14", "chain-16", "chain-17", "chain-18", "chain-19", "chain-21", "chain-22", "chain-23", "chain-24",
    ]);
  });
});
