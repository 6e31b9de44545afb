import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { E2E_PORTS, e2eUsers } from "./support/servers";
import { hydrated } from "./support/shell";

/** Issue 17: pages stay light as the menu grows; relation filters reach every row (decision 019). */

const USER = { userName: "weight.e2e", first: "Weight-E2e-First-1", password: "Weight-E2e-Second-2" };
const ROOT_ORG_ID = 1;
const ORGS = 101;

let requests: APIRequestContext;
let admin: Awaited<ReturnType<typeof apiAs>>;
let lastOrg: { id: number; name: string };

test.describe.configure({ mode: "serial", timeout: 120_000 });

async function ok<T>(promise: Promise<{ status: number; message: string; data: T }>): Promise<T> {
  const result = await promise;
  expect(result.status, result.message).toBe(200);
  return result.data;
}

test.beforeAll(async ({ playwright }) => {
  requests = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORTS.main}` });
  const operator = await apiAs(requests, e2eUsers.operator.userName, e2eUsers.operator.password);
  await ok(operator.post("/api/v1/auth/user/create", { user: { userName: USER.userName, realName: "页面重量", status: "1", password: USER.first }, roleIds: [1] }));
  const first = await apiAs(requests, USER.userName, USER.first);
  await ok(first.post("/api/v1/auth/user/modifyPasswd", { oldPassword: USER.first, newPassword: USER.password }));
  admin = await apiAs(requests, USER.userName, USER.password);
});

test.afterAll(async () => {
  await requests?.dispose();
});

test("a page's data carries no menu tree: the menus are a cached resource named by their version", async () => {
  const page = async (path: string) => (await requests.get(path, { headers: { Cookie: `Admin-Token=${admin.token}` } })).text();
  const html = await page("/admin/auth/user/index");
  // A button code of another screen: it was in every page's data before.
  expect(html).not.toContain("sys:tenant:create");
  const url = html.match(/<meta name="shell-data" content="([^"]+)"/)?.[1];
  expect(url).toMatch(/^\/shell-data\/[\w-]{22}$/);
  // The same menus give the same version on every page, so the browser fetches them once.
  expect(await page("/admin/sys/tenant/index")).toContain(`content="${url}"`);

  const shellData = await requests.get(url as string, { headers: { Cookie: `Admin-Token=${admin.token}` } });
  expect(shellData.status()).toBe(200);
  expect(shellData.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");
  const body = (await shellData.json()) as { menuTreeList: unknown[]; dictItemList: unknown[]; screens: unknown[] };
  expect(JSON.stringify(body.menuTreeList)).toContain("sys:tenant:create");
  expect(body.screens.length).toBeGreaterThan(10);

  // Another version (menus changed since the page was made) answers the current menus, not for keeping.
  const stale = await requests.get("/shell-data/stale-version", { headers: { Cookie: `Admin-Token=${admin.token}` } });
  expect(stale.headers()["cache-control"]).toBe("no-store");
  // Without a session there is nothing to read.
  const anonymous = await requests.get(url as string, { headers: { Cookie: "" } });
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["cache-control"]).toBe("no-store");
});

test("a relation filter searches the server: the 101st department can be chosen and stays chosen", async ({ page }) => {
  for (let i = 1; i <= ORGS; i++) {
    const name = `重量部门${String(i).padStart(3, "0")}`;
    const org = await ok<{ id: number }>(admin.post("/api/v1/auth/org/create", { parentId: ROOT_ORG_ID, orgName: name, orgType: "department", status: "1" }));
    lastOrg = { id: org.id, name };
  }
  await ok(admin.post("/api/v1/auth/user/create", { user: { userName: "weight.member", realName: "末位部门成员", orgId: lastOrg.id, status: "1", password: "Weight-Member-1" }, roleIds: [] }));

  await signInFresh(page, USER.userName, USER.password, "/admin/auth/user/index");
  await hydrated(page);
  const filter = page.getByRole("search").getByRole("textbox", { name: "所属机构" });
  await filter.click();
  await filter.fill(lastOrg.name);
  await page.getByRole("option", { name: lastOrg.name }).click();
  await page.getByRole("search").getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`orgId=${lastOrg.id}`));
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("weight.member");

  // The chosen department keeps its name on a fresh load (the page carries that one row, not a hundred).
  await page.reload();
  await expect(page.getByRole("search").getByRole("textbox", { name: "所属机构" })).toHaveValue(lastOrg.name);
});

test("what is typed into a relation picker stays while its first page is still coming, and finds the row", async ({ page }) => {
  await signInFresh(page, USER.userName, USER.password, "/admin/auth/user/index");
  await hydrated(page);
  // A slow link: the first page, asked for when the list opens, comes a second and a half later (the real answer,
  // held back), so the typing happens before it arrives. A picker that reset its text then lost what was typed and
  // never searched for it.
  await page.route(
    (url) => url.pathname === "/api/v1/auth/org/findPage" && !url.searchParams.has("orgName"),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    },
  );
  const filter = page.getByRole("search").getByRole("textbox", { name: "所属机构" });
  const firstPage = page.waitForResponse((response) => response.url().includes("/api/v1/auth/org/findPage?pageSize=50") && !response.url().includes("orgName"));
  await filter.click();
  await filter.fill(lastOrg.name);
  await firstPage;
  await expect(filter).toHaveValue(lastOrg.name);
  await page.getByRole("listbox", { name: "所属机构" }).getByRole("option", { name: lastOrg.name, exact: true }).click();
  await expect(filter).toHaveValue(lastOrg.name);
  await page.getByRole("search").getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`orgId=${lastOrg.id}`));
});
