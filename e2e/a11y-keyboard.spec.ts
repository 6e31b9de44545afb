import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { hydrated } from "./support/shell";

/** These journeys never click: every step is a key press, as for staff who never touch a mouse. */

const { keyboard } = e2eUsers;

/** Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user moves through the page. */
async function tabTo(page: Page, target: Locator, { back = false, max = 200 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

async function signInByKeyboard(page: Page, path: string) {
  await page.goto(path);
  const userName = page.getByRole("textbox", { name: "用户名" });
  await tabTo(page, userName);
  await page.keyboard.type(keyboard.userName);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("密码", { exact: true })).toBeFocused();
  await page.keyboard.type(keyboard.password);
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/\/login/);
  await hydrated(page);
}

test.describe.configure({ timeout: 90_000 });

test("by keyboard alone: sign in, open a list from the menu, filter it, edit a row, read the error, fix it and save", async ({ page, request }) => {
  const api = await apiAs(request, keyboard.userName, keyboard.password);
  const created = await api.post("/api/v1/sys/device/create", { deviceCode: "KB-DOOR-01", deviceName: "键盘测试结算台", deviceType: "box", status: "1", ip: "10.0.0.8" });
  expect(created.status, created.message).toBe(200);

  await signInByKeyboard(page, "/login");

  // The top navigation: a folder opens with Enter, its pages are reached with the arrow keys.
  const folder = page.getByTestId("top-menu").getByRole("button", { name: "系统管理" });
  await tabTo(page, folder);
  await page.keyboard.press("Enter");
  const entry = page.getByRole("menuitem", { name: "设备", exact: true });
  await expect(entry).toBeVisible();
  for (let i = 0; i < 40 && !(await entry.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press("ArrowDown");
  await expect(entry).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/sys\/device\/index$/);
  await expect(page.getByRole("heading", { name: "设备" })).toBeVisible();

  // The filter bar is a form: Enter in a field searches.
  const code = page.getByRole("search").getByRole("textbox", { name: "设备编码" });
  await tabTo(page, code);
  await page.keyboard.type("KB-DOOR");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/deviceCode=KB-DOOR/);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("键盘测试结算台");

  await tabTo(page, rows.first().getByRole("link", { name: "编辑" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "编辑设备" })).toBeVisible();

  // An invalid value: saving moves the focus to the field, which says what is wrong.
  const ip = page.getByRole("textbox", { name: "IP 地址" });
  await tabTo(page, ip);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("10.0.0.300");
  await tabTo(page, page.getByRole("button", { name: "保存" }));
  await page.keyboard.press("Enter");
  await expect(ip).toBeFocused();
  await expect(ip).toHaveAttribute("aria-invalid", "true");
  await expect(ip).toHaveAccessibleDescription("请输入有效的 IPv4 地址，如 192.168.1.20");
  await expect(page.getByLabel("设备名称")).toHaveValue("键盘测试结算台");

  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("10.0.0.30");
  await expect(ip).not.toHaveAttribute("aria-invalid", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/sys\/device\/index$/);
  await expect(page.getByText("保存成功")).toBeVisible();
  const saved = await api.get("/api/v1/sys/device/findPage?deviceCode=KB-DOOR-01");
  expect(saved.data.records[0].ip).toBe("10.0.0.30");
});

test("by keyboard alone: sort and page a list, delete a row through its confirmation, use the tags and their menu, leave a form through its dialog", async ({ page, request }) => {
  const api = await apiAs(request, keyboard.userName, keyboard.password);
  for (let i = 1; i <= 21; i++) {
    const n = String(i).padStart(2, "0");
    const created = await api.post("/api/v1/sys/device/create", { deviceCode: `KB-PAGE-${n}`, deviceName: `键盘分页-${n}`, deviceType: "box", status: "1" });
    expect(created.status, created.message).toBe(200);
  }
  await signInByKeyboard(page, "/admin/sys/device/index?deviceCode=KB-PAGE");
  await expect(page).toHaveURL(/deviceCode=KB-PAGE/);

  // Sorting: the header link changes the order, and the column header says which.
  const nameHeader = page.getByRole("columnheader", { name: "设备名称" });
  await tabTo(page, nameHeader.getByRole("link"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=deviceName%2Casc/);
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(nameHeader.getByRole("link")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=deviceName%2Cdesc/);
  await expect(nameHeader).toHaveAttribute("aria-sort", "descending");
  await expect(page.locator("tbody tr").first()).toContainText("键盘分页-21");

  // Paging: the arrows are named links.
  await tabTo(page, page.getByRole("link", { name: "下一页" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/pageNum=2/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr").first()).toContainText("键盘分页-01");

  // A row's delete asks first; the question takes the focus, Tab reaches its button.
  await tabTo(page, page.locator("tbody tr").first().getByRole("link", { name: "删除" }), { back: true });
  await page.keyboard.press("Enter");
  const confirm = page.getByTestId("confirm-delete");
  await expect(confirm).toBeFocused();
  await expect(confirm).toContainText("键盘分页-01");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "确认删除" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("删除成功")).toBeVisible();
  expect((await api.get("/api/v1/sys/device/findPage?deviceCode=KB-PAGE-01")).data.total).toBe(0);

  // The tags: the open page's tag is the one in the tab order; arrows move between tags.
  const tags = page.getByRole("tablist", { name: "已打开的页面" });
  const deviceTag = tags.getByRole("tab", { name: "设备", exact: true });
  await tabTo(page, deviceTag, { back: true });
  await page.keyboard.press("ArrowLeft");
  await expect(tags.getByRole("tab", { name: "首页" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(deviceTag).toBeFocused();
  // Its menu opens from the keyboard, takes the focus, and Escape gives it back.
  await page.keyboard.press("Shift+F10");
  const menu = page.getByRole("menu", { name: "设备" });
  await expect(menu.getByRole("menuitem", { name: "刷新" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "关闭", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(deviceTag).toBeFocused();

  // A form with unsaved changes asks before it is left; the dialog holds the focus and Escape stays.
  await tabTo(page, page.getByRole("link", { name: "新增" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "新增设备" })).toBeVisible();
  await tabTo(page, page.getByRole("textbox", { name: "设备编码" }));
  await page.keyboard.type("KB-DRAFT");
  const draftTag = tags.getByRole("tab", { name: "新增设备" });
  await tabTo(page, draftTag, { back: true });
  await page.keyboard.press("Home");
  await expect(tags.getByRole("tab", { name: "首页" })).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "离开此页面？" });
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "新增设备" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "设备编码" })).toHaveValue("KB-DRAFT");

  // Delete closes the focused tag (here another page's, so the form stays).
  await tabTo(page, draftTag, { back: true });
  await page.keyboard.press("ArrowLeft");
  await expect(deviceTag).toBeFocused();
  await page.keyboard.press("Delete");
  await expect(deviceTag).toHaveCount(0);
  await expect(tags.getByRole("tab", { name: "首页" })).toBeFocused();
  await expect(page.getByRole("heading", { name: "新增设备" })).toBeVisible();
});

test("a refused save moves the focus to the first field in error, also when it is a date picker", async ({ page }) => {
  await signInByKeyboard(page, "/admin/sys/holiday/create");
  await expect(page.getByRole("heading", { name: "新增节假日" })).toBeVisible();
  // The date (first field) is left empty; the name is typed, and Enter in it submits.
  const name = page.getByRole("textbox", { name: "名称" });
  await tabTo(page, name);
  await page.keyboard.type("键盘节");
  await page.keyboard.press("Enter");
  const date = page.locator('[aria-invalid="true"]').first();
  await expect(date).toBeFocused();
  await expect(date).toHaveAccessibleDescription(/请选择日期/);
  await expect(name).toHaveValue("键盘节");
});

test("hand-written forms: a save the server refuses, or the browser refuses on a picker, moves the focus to the field in error and keeps what was typed", async ({ page }) => {
  // User create: the name is taken, which only the server knows.
  await signInByKeyboard(page, "/admin/auth/user/create");
  await expect(page.getByRole("heading", { name: "新增用户" })).toBeVisible();
  const userName = page.getByRole("textbox", { name: "用户名" });
  await tabTo(page, userName);
  await page.keyboard.type(keyboard.userName);
  const realName = page.getByRole("textbox", { name: "姓名" });
  await tabTo(page, realName);
  await page.keyboard.type("键盘重名");
  await page.keyboard.press("Enter");
  await expect(userName).toHaveAccessibleDescription(/用户名已存在/);
  await expect(userName).toBeFocused();
  await expect(realName).toHaveValue("键盘重名");

  // An index-only list's form (devicefood): the device, a picker whose name is on a hidden input, is left empty.
  await page.goto("/zhct/devicefood/index");
  await hydrated(page);
  const create = page.getByRole("main").getByRole("link", { name: "新增", exact: true });
  await tabTo(page, create);
  await page.keyboard.press("Enter");
  const editor = page.getByTestId("index-editor");
  await expect(editor).toBeFocused();
  await tabTo(page, editor.getByRole("button", { name: "保存" }));
  await page.keyboard.press("Enter");
  const device = editor.getByRole("textbox", { name: "设备" });
  await expect(device).toBeFocused();
  await expect(device).toHaveAttribute("aria-invalid", "true");
});
