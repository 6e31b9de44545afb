import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

interface MenuNode {
  id: number;
  menuName: string;
  menuPath: string | null;
  menuType: string;
  permission: string | null;
  children: MenuNode[];
}
type FieldErrors = { fieldErrors: Record<string, string[]> };

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

for (const dialect of dialects) {
  describe(`${dialect}: roles and their menus`, () => {
    let app: TestApp;
    let superToken: string;
    let a: TenantFixture;
    let b: TenantFixture;
    let menus: Map<string, number>;
    let clerkRoleId: number;

    const menu = (permission: string) => {
      const id = menus.get(permission);
      if (!id) throw new Error(`no menu ${permission}`);
      return id;
    };
    const signInNew = async (userName: string, roleIds: number[]) => {
      await expectOk(app, "POST", "/api/v1/auth/user/create", a.token, { user: { userName, realName: userName, status: "1", password: "First-Pass-2026" }, roleIds });
      const token = await loginAs(app, userName, "First-Pass-2026");
      await expectOk(app, "POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "First-Pass-2026", newPassword: "Second-Pass-2026" });
      return token;
    };

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      a = await createTenantWithAdmin(app, superToken, "ra");
      b = await createTenantWithAdmin(app, superToken, "rb");
      const rows = await app.database.db.selectFrom("menu").select(["id", "permission"]).where("permission", "is not", null).execute();
      menus = new Map(rows.map((r) => [r.permission as string, r.id]));
      clerkRoleId = (await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", a.token, { roleCode: "clerk", roleName: "文员", roleType: "user", status: "1" })).id;
    });
    afterAll(async () => {
      await app?.close();
    });

    test("the menu tree to assign holds pages with their buttons, and no super-only screens for a tenant admin", async () => {
      const tree = await expectOk<MenuNode[]>(app, "GET", "/api/v1/auth/role/getMenuTree", a.token);
      const all = flatten(tree);
      const userPage = all.find((m) => m.permission === "auth:user:view") as MenuNode;
      expect(userPage.menuPath).toBe("/admin/auth/user/index");
      expect(userPage.children.map((c) => [c.menuType, c.permission])).toEqual(
        expect.arrayContaining([
          ["button", "auth:user:create"],
          ["button", "auth:user:assignRole"],
          ["button", "auth:user:resetPasswd"],
        ]),
      );
      expect(all.some((m) => m.permission?.startsWith("sys:tenant:"))).toBe(false);
      const superTree = flatten(await expectOk<MenuNode[]>(app, "GET", "/api/v1/auth/role/getMenuTree", superToken));
      expect(superTree.some((m) => m.permission === "sys:tenant:view")).toBe(true);
    });

    test("assignMenu saves pages and buttons with the entries above them; getRoleMenuIds reads them back", async () => {
      const chosen = [menu("auth:user:view"), menu("auth:user:create"), menu("auth:org:view")];
      const saved = await expectOk<{ menuIds: number[] }>(app, "POST", "/api/v1/auth/role/assignMenu", a.token, { roleId: clerkRoleId, menuIds: chosen });
      const group = await app.database.db.selectFrom("menu").select("id").where("menu_path", "=", "/admin/auth").executeTakeFirstOrThrow();
      const expected = [...chosen, group.id].sort((x, y) => x - y);
      expect(saved.menuIds).toEqual(expected);
      expect(await expectOk(app, "GET", `/api/v1/auth/role/getRoleMenuIds?id=${clerkRoleId}`, a.token)).toEqual(expected);
    });

    test("after signing in the user sees exactly those menus and buttons, and the API refuses the rest", async () => {
      const token = await signInNew("clerk1", [clerkRoleId]);
      const info = await expectOk<{ roles: string[]; menuTreeList: MenuNode[] }>(app, "GET", "/api/v1/auth/user/info", token);
      expect(info.roles).toEqual(["clerk"]);
      const seen = flatten(info.menuTreeList);
      expect(seen.map((m) => m.id).sort((x, y) => x - y)).toEqual(await expectOk(app, "GET", `/api/v1/auth/role/getRoleMenuIds?id=${clerkRoleId}`, a.token));
      expect(info.menuTreeList).toHaveLength(1);
      expect(info.menuTreeList[0].menuPath).toBe("/admin/auth");
      const pages = info.menuTreeList[0].children;
      expect(pages.map((p) => p.permission).sort()).toEqual(["auth:org:view", "auth:user:view"]);
      expect(pages.find((p) => p.permission === "auth:user:view")?.children.map((c) => c.permission)).toEqual(["auth:user:create"]);

      const allowed = [
        await app.call("GET", "/api/v1/auth/user/findPage", { token }),
        await app.call("GET", "/api/v1/auth/org/findPage", { token }),
        await app.call("POST", "/api/v1/auth/user/create", { token, body: { user: { userName: "made.by.clerk", realName: "新人", status: "1" }, roleIds: [] } }),
      ];
      for (const result of allowed) expect(result.body.status, JSON.stringify(result.body)).toBe(200);
      const refused = [
        await app.call("POST", "/api/v1/auth/user/update", { token, body: { id: a.adminUserId, realName: "改" } }),
        await app.call("GET", `/api/v1/auth/user/delete?id=${a.adminUserId}`, { token }),
        await app.call("GET", "/api/v1/auth/user/export", { token }),
        await app.call("POST", "/api/v1/auth/user/assignRole", { token, body: { userId: a.adminUserId, roleIds: [] } }),
        await app.call("GET", "/api/v1/auth/role/findPage", { token }),
        await app.call("POST", "/api/v1/auth/role/assignMenu", { token, body: { roleId: clerkRoleId, menuIds: [] } }),
        await app.call("POST", "/api/v1/auth/org/create", { token, body: { orgName: "x", orgType: "org", status: "1" } }),
        await app.call("GET", "/api/v1/sys/tenant/findPage", { token }),
      ];
      for (const result of refused) {
        expect(result.body.status, JSON.stringify(result.body)).toBe(403);
        expect(result.http).toBe(403);
      }
    });

    test("a changed assignment shows at the next sign-in; a disabled role opens nothing", async () => {
      await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", a.token, { roleId: clerkRoleId, menuIds: [menu("auth:org:view"), menu("auth:org:create")] });
      const token = await loginAs(app, "clerk1", "Second-Pass-2026");
      const seen = flatten((await expectOk<{ menuTreeList: MenuNode[] }>(app, "GET", "/api/v1/auth/user/info", token)).menuTreeList);
      expect(seen.map((m) => m.permission ?? m.menuPath).sort()).toEqual(["/admin/auth", "auth:org:create", "auth:org:view"]);
      expect((await app.call("GET", "/api/v1/auth/user/findPage", { token })).body.status).toBe(403);
      expect((await app.call("POST", "/api/v1/auth/org/create", { token, body: { orgName: "文员建", orgType: "department", status: "1" } })).body.status).toBe(200);

      await expectOk(app, "POST", "/api/v1/auth/role/update", a.token, { id: clerkRoleId, status: "0" });
      expect((await expectOk<{ menuTreeList: MenuNode[] }>(app, "GET", "/api/v1/auth/user/info", token)).menuTreeList).toEqual([]);
      expect((await app.call("GET", "/api/v1/auth/org/findPage", { token })).body.status).toBe(403);
      await expectOk(app, "POST", "/api/v1/auth/role/update", a.token, { id: clerkRoleId, status: "1" });
    });

    test("only existing menus, only the tenant's own role, no super-only screens", async () => {
      const unknown = await app.call<FieldErrors>("POST", "/api/v1/auth/role/assignMenu", { token: a.token, body: { roleId: clerkRoleId, menuIds: [menu("auth:org:view"), 424242] } });
      expect(unknown.body.status).toBe(400);
      expect(unknown.body.data.fieldErrors.menuIds).toEqual(["所选菜单不存在"]);
      const tenantMenu = await app.call<FieldErrors>("POST", "/api/v1/auth/role/assignMenu", { token: a.token, body: { roleId: clerkRoleId, menuIds: [menu("sys:tenant:view")] } });
      expect(tenantMenu.body.status).toBe(400);
      expect(tenantMenu.body.data.fieldErrors.menuIds).toEqual(["不能分配仅超级管理员可用的菜单"]);
      const foreign = await app.call("POST", "/api/v1/auth/role/assignMenu", { token: a.token, body: { roleId: b.adminRoleId, menuIds: [menu("auth:org:view")] } });
      expect(foreign.body.status).toBe(404);
      expect((await app.call("GET", `/api/v1/auth/role/getRoleMenuIds?id=${b.adminRoleId}`, { token: a.token })).body.status).toBe(404);
      expect(await app.database.db.selectFrom("role_menu").select("menu_id").where("tenant_id", "=", b.tenantId).execute()).toEqual([]);
      const notNumbers = await app.call("POST", "/api/v1/auth/role/assignMenu", { token: a.token, body: { roleId: clerkRoleId, menuIds: ["x"] } });
      expect(notNumbers.body.status).toBe(400);
    });

    test("someone allowed to assign menus gives only what it holds itself", async () => {
      const managerRole = (await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", a.token, { roleCode: "menumgr", roleName: "菜单管理员", roleType: "user", status: "1" })).id;
      await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", a.token, { roleId: managerRole, menuIds: [menu("auth:role:view"), menu("auth:role:assignMenu"), menu("auth:org:view")] });
      const token = await signInNew("menumgr1", [managerRole]);
      const tree = flatten(await expectOk<MenuNode[]>(app, "GET", "/api/v1/auth/role/getMenuTree", token));
      expect(tree.map((m) => m.permission).filter(Boolean).sort()).toEqual(["auth:org:view", "auth:role:assignMenu", "auth:role:view"]);
      expect((await app.call("POST", "/api/v1/auth/role/assignMenu", { token, body: { roleId: clerkRoleId, menuIds: [menu("auth:org:view")] } })).body.status).toBe(200);
      const more = await app.call("POST", "/api/v1/auth/role/assignMenu", { token, body: { roleId: clerkRoleId, menuIds: [menu("auth:user:delete")] } });
      expect(more.body.status).toBe(403);
      expect(more.body.message).toBe("不能分配本人没有的菜单权限");
      const adminRole = await app.call("POST", "/api/v1/auth/role/assignMenu", { token, body: { roleId: a.adminRoleId, menuIds: [] } });
      expect(adminRole.body.status).toBe(403);
    });

    test("role rules: super type by a super admin only, role in use kept, tenant's own codes", async () => {
      const superType = await app.call("POST", "/api/v1/auth/role/create", { token: a.token, body: { roleCode: "boss", roleName: "老板", roleType: "super", status: "1" } });
      expect(superType.body.status).toBe(403);
      expect(superType.body.message).toBe("只有超级管理员可以管理超级管理员角色");
      const promote = await app.call("POST", "/api/v1/auth/role/update", { token: a.token, body: { id: clerkRoleId, roleType: "super" } });
      expect(promote.body.status).toBe(403);
      const inUse = await app.call("GET", `/api/v1/auth/role/delete?id=${clerkRoleId}`, { token: a.token });
      expect(inUse.body.status).toBe(409);
      expect(inUse.body.message).toBe("该角色已分配给用户，请先取消这些用户的角色");
      const dup = await app.call<FieldErrors>("POST", "/api/v1/auth/role/create", { token: a.token, body: { roleCode: "clerk", roleName: "重复", roleType: "user", status: "1" } });
      expect(dup.body.data.fieldErrors.roleCode).toEqual(["角色编码已存在"]);
      expect((await app.call("POST", "/api/v1/auth/role/create", { token: b.token, body: { roleCode: "clerk", roleName: "B文员", roleType: "user", status: "1" } })).body.status).toBe(200);
      const spare = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", a.token, { roleCode: "spare", roleName: "备用", roleType: "user", status: "1" });
      await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", a.token, { roleId: spare.id, menuIds: [menu("auth:org:view")] });
      expect(await expectOk(app, "GET", `/api/v1/auth/role/delete?id=${spare.id}`, a.token)).toEqual({ deleted: 1 });
      expect(await app.database.db.selectFrom("role_menu").select("menu_id").where("role_id", "=", spare.id).execute()).toEqual([]);
    });
  });
}
