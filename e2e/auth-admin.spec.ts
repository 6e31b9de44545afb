import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { E2E_PORTS, e2eUsers } from "./support/servers";
import { untilHydrated } from "./support/shell";

/** Permission management (spec §2 /admin/auth): users under an org, their roles, and what a role's menus open. */

const ADMIN = { userName: "auth.e2e", first: "Auth-E2e-First-1", password: "Auth-E2e-Second-2" };
const ROOT_ORG_ID = 1;

interface MenuNode {
  id: number;
  menuName: string;
  permission: string | null;
  children: MenuNode[];
}
const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

let requests: APIRequestContext;
let admin: Awaited<ReturnType<typeof apiAs>>;
let deptId: number;
let clerkRoleId: number;
let viewerRoleId: number;
let menuIds: Map<string, number>;

// Long journeys (several sign-ins, each a password hash) on a machine the other suites share.
test.describe.configure({ mode: "serial", timeout: 90_000 });

async function ok<T>(promise: Promise<{ status: number; message: string; data: T }>): Promise<T> {
  const result = await promise;
  expect(result.status, result.message).toBe(200);
  return result.data;
}

test.beforeAll(async ({ playwright }) => {
  // A context of its own: the API calls of the tests run after beforeAll has ended.
  requests = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORTS.main}` });
  const request = requests;
  const operator = await apiAs(request, e2eUsers.operator.userName, e2eUsers.operator.password);
  await ok(operator.post("/api/v1/auth/user/create", { user: { userName: ADMIN.userName, realName: "权限管理员", status: "1", password: ADMIN.first }, roleIds: [1] }));
  const first = await apiAs(request, ADMIN.userName, ADMIN.first);
  await ok(first.post("/api/v1/auth/user/modifyPasswd", { oldPassword: ADMIN.first, newPassword: ADMIN.password }));
  admin = await apiAs(request, ADMIN.userName, ADMIN.password);
  deptId = (await ok<{ id: number }>(admin.post("/api/v1/auth/org/create", { parentId: ROOT_ORG_ID, orgName: "e2e研发部", orgType: "department", status: "1" }))).id;
  clerkRoleId = (await ok<{ id: number }>(admin.post("/api/v1/auth/role/create", { roleCode: "e2e_clerk", roleName: "e2e文员", roleType: "user", status: "1" }))).id;
  viewerRoleId = (await ok<{ id: number }>(admin.post("/api/v1/auth/role/create", { roleCode: "e2e_viewer", roleName: "e2e查看员", roleType: "user", status: "1" }))).id;
  const tree = await ok<MenuNode[]>(admin.get("/api/v1/auth/role/getMenuTree"));
  menuIds = new Map(flatten(tree).filter((m) => m.permission).map((m) => [m.permission as string, m.id]));
});

test.afterAll(async () => {
  await requests?.dispose();
});

const menuBox = (page: Page, permission: string) => page.locator(`input[name="menuIds"][value="${menuIds.get(permission)}"]`);

test("a user created under an org gets the org and roles; the generated password is shown once; roles are reassigned", async ({ page }) => {
  await signInFresh(page, ADMIN.userName, ADMIN.password, "/admin/auth/org/index");
  const row = page.locator("tr", { hasText: "e2e研发部" });
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: "新增用户" }).click();
  await expect(page).toHaveURL(`/admin/auth/user/create/${deptId}`);
  await expect(page.getByRole("heading", { name: "新增用户 · e2e研发部" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "所属机构" })).toHaveValue("e2e研发部");

  await page.getByLabel("用户名").fill("zhao liu");
  await page.getByLabel("姓名").fill("赵六");
  await page.getByLabel("初始密码", { exact: true }).fill("Zhao-Liu-2026");
  await page.getByLabel("确认初始密码").fill("Zhao-Liu-2027");
  await page.getByLabel("e2e文员（e2e_clerk）").check();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("用户名为 2 到 50 个字母、数字或 _ . @ -")).toBeVisible();
  await expect(page.getByText("两次输入的密码不一致")).toBeVisible();
  await expect(page.getByLabel("姓名")).toHaveValue("赵六");

  await page.getByLabel("用户名").fill("zhao.liu");
  await page.getByLabel("初始密码", { exact: true }).fill("");
  await page.getByLabel("确认初始密码").fill("");
  await page.getByRole("button", { name: "保存" }).click();
  const shown = page.getByTestId("initial-password");
  await expect(shown).toContainText("用户「zhao.liu」已创建");
  const password = (await shown.locator("code").textContent())?.trim() ?? "";
  expect(password).toMatch(/^\S{12}$/);

  const page1 = await ok<{ records: Array<{ id: number; orgId: number; orgIdLabel: string }> }>(admin.get("/api/v1/auth/user/findPage?userName=zhao.liu"));
  const created = page1.records[0];
  expect(created).toMatchObject({ orgId: deptId, orgIdLabel: "e2e研发部" });
  expect((await ok<Array<{ id: number }>>(admin.get(`/api/v1/auth/user/getUserRoleList?id=${created.id}`))).map((r) => r.id)).toEqual([clerkRoleId]);

  await page.goto(`/admin/auth/user/assignRole/${created.id}`);
  await expect(page.getByRole("heading", { name: "分配角色 · 赵六（zhao.liu）" })).toBeVisible();
  await expect(page.getByLabel("e2e文员（e2e_clerk）")).toBeChecked();
  await page.getByLabel("e2e文员（e2e_clerk）").uncheck();
  await page.getByLabel("e2e查看员（e2e_viewer）").check();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/auth/user/index");
  await expect(page.getByText("保存成功")).toBeVisible();
  expect((await ok<Array<{ id: number }>>(admin.get(`/api/v1/auth/user/getUserRoleList?id=${created.id}`))).map((r) => r.id)).toEqual([viewerRoleId]);

  // The new user signs in with the shown password and must change it first.
  await page.context().clearCookies();
  await signInFresh(page, "zhao.liu", password);
  await expect(page).toHaveURL("/admin/auth/user/modifyPasswd");
});

test("menus ticked for a role are exactly what its user sees after signing in again, and the API refuses the rest", async ({ page, browser }) => {
  await signInFresh(page, ADMIN.userName, ADMIN.password, `/admin/auth/role/assignMenu/${clerkRoleId}`);
  await expect(page.getByRole("heading", { name: "分配菜单 · e2e文员（e2e_clerk）" })).toBeVisible();
  await untilHydrated(page);
  // Ticking a page ticks its buttons and the group above it; its delete button is then taken away again.
  await menuBox(page, "auth:org:view").check();
  await expect(menuBox(page, "auth:org:create")).toBeChecked();
  await expect(menuBox(page, "auth:org:delete")).toBeChecked();
  await menuBox(page, "auth:org:delete").uncheck();
  await menuBox(page, "auth:org:update").uncheck();
  await menuBox(page, "auth:org:export").uncheck();
  await menuBox(page, "auth:user:create").check();
  await expect(menuBox(page, "auth:user:view")).toBeChecked();
  await expect(menuBox(page, "auth:user:update")).not.toBeChecked();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/auth/role/index");
  await expect(page.getByText("保存成功")).toBeVisible();

  const expected = ["auth:org:view", "auth:org:create", "auth:user:view", "auth:user:create"];
  const saved = await ok<number[]>(admin.get(`/api/v1/auth/role/getRoleMenuIds?id=${clerkRoleId}`));
  expect(saved).toEqual(expect.arrayContaining(expected.map((p) => menuIds.get(p))));
  expect(saved).toHaveLength(expected.length + 1);

  await ok(admin.post("/api/v1/auth/user/create", { user: { userName: "qian.qi", realName: "钱七", orgId: deptId, status: "1", password: "Qian-Qi-First-1" }, roleIds: [clerkRoleId] }));
  const context = await browser.newContext();
  const clerk = await context.newPage();
  await signInFresh(clerk, "qian.qi", "Qian-Qi-First-1");
  await expect(clerk).toHaveURL("/admin/auth/user/modifyPasswd");
  await clerk.getByLabel("原密码").fill("Qian-Qi-First-1");
  await clerk.getByLabel("新密码", { exact: true }).fill("Qian-Qi-Second-2");
  await clerk.getByLabel("确认新密码").fill("Qian-Qi-Second-2");
  await clerk.getByRole("button", { name: "保存" }).click();
  await expect(clerk).not.toHaveURL(/modifyPasswd/);

  const info = await (await clerk.request.get("/api/v1/auth/user/info")).json();
  const seen = flatten(info.data.menuTreeList as MenuNode[]);
  expect(seen.map((m) => m.permission).filter(Boolean).sort()).toEqual([...expected].sort());

  const nav = clerk.getByTestId("top-menu");
  await expect(nav).toContainText("权限管理");
  await expect(nav).not.toContainText("系统管理");
  // The folder opens on hover once the page has hydrated; a hover before that left the pointer where a second hover
  // moves nothing, so no pointer enters again: each try comes from outside the bar.
  await untilHydrated(clerk);
  await expect(async () => {
    await clerk.mouse.move(1300, 700);
    await nav.getByText("权限管理").hover();
    await expect(clerk.getByRole("menuitem")).toHaveText(["机构管理", "用户管理"], { timeout: 1000 });
  }).toPass();

  await clerk.goto("/admin/auth/user/index");
  await expect(clerk.getByRole("link", { name: "新增" })).toBeVisible();
  await expect(clerk.getByRole("link", { name: "编辑" })).toHaveCount(0);
  await expect(clerk.getByRole("link", { name: "删除" })).toHaveCount(0);
  await expect(clerk.getByRole("link", { name: "导出 Excel" })).toHaveCount(0);

  for (const [path, status] of [
    ["/api/v1/auth/user/findPage", 200],
    ["/api/v1/auth/org/findPage", 200],
    ["/api/v1/auth/role/findPage", 403],
    ["/api/v1/auth/user/export", 403],
    ["/api/v1/sys/tenant/findPage", 403],
  ] as const) {
    const response = await clerk.request.get(path);
    expect((await response.json()).status, path).toBe(status);
  }
  const refused = await clerk.request.post("/api/v1/auth/org/update", { data: { id: deptId, orgName: "改名" }, headers: { Origin: new URL(clerk.url()).origin } });
  expect((await refused.json()).status).toBe(403);
  await context.close();
});

test("menu assignment saves as a plain form before scripts load", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("用户名").fill(ADMIN.userName);
  await page.getByLabel("密码", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "登录" }).click();
  await page.goto(`/admin/auth/role/assignMenu/${viewerRoleId}`);
  await expect(page.getByRole("heading", { name: "分配菜单 · e2e查看员（e2e_viewer）" })).toBeVisible();
  await menuBox(page, "auth:org:view").check();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL("/admin/auth/role/index");
  const saved = await ok<number[]>(admin.get(`/api/v1/auth/role/getRoleMenuIds?id=${viewerRoleId}`));
  expect(saved).toContain(menuIds.get("auth:org:view"));
  expect(saved).not.toContain(menuIds.get("auth:org:create"));
  expect(saved).toHaveLength(2);
  await context.close();
});
