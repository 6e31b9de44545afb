import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MenuNode, UserBrief, UserInfo } from "../../resources/auth";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { newId } from "../../server/db";
import { adminToken, createTestApp, loginAs, openAnotherInstance, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser } from "../helpers/fixtures";

/**
 * The shell's menus and dictionaries are built once per change (decision 019), not once per page: these hold the
 * "once per change" part — every way a shell changes is seen by the next page, on this instance and on others.
 */
const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let admin: string;
    let clerk: string;
    let roleId: number;
    let menuIds: Map<string, number>;

    async function info(token: string, on: Pick<TestApp, "call"> = app) {
      const result = await on.call<UserInfo>("GET", "/api/v1/auth/user/info", { token });
      expect(result.body.status).toBe(200);
      return result.body.data;
    }
    const permissions = async (token: string, on: Pick<TestApp, "call"> = app) => flatten((await info(token, on)).menuTreeList).map((m) => m.permission ?? m.menuPath).sort();

    beforeAll(async () => {
      app = await createTestApp(dialect);
      admin = await adminToken(app);
      const { db } = app.database;
      menuIds = new Map((await db.selectFrom("menu").select(["id", "permission", "menu_path"]).execute()).map((m) => [m.permission ?? m.menu_path ?? "", m.id]));
      roleId = newId();
      const now = Date.now();
      await db
        .insertInto("role")
        .values({ tenant_id: DEFAULT_TENANT_ID, id: roleId, role_code: "cacheclerk", role_name: "缓存文员", role_type: "user", status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      const granted = await app.call("POST", "/api/v1/auth/role/assignMenu", { token: admin, body: { roleId, menuIds: [menuIds.get("auth:org:view")] } });
      expect(granted.body.status).toBe(200);
      await createUser(app, { userName: "cache.clerk", password: "Cache-Clerk-2026", roleIds: [roleId] });
      clerk = await loginAs(app, "cache.clerk", "Cache-Clerk-2026");
    });
    afterAll(() => app.close());

    test("the brief info is the info without menus and dictionaries, under the same shell version", async () => {
      const full = await info(clerk);
      const brief = await app.call<UserBrief & { menuTreeList?: unknown; dictItemList?: unknown }>("GET", "/api/v1/auth/user/brief", { token: clerk });
      expect(brief.body.status).toBe(200);
      expect(brief.body.data.menuTreeList).toBeUndefined();
      expect(brief.body.data.dictItemList).toBeUndefined();
      expect({ ...brief.body.data, menuTreeList: full.menuTreeList, dictItemList: full.dictItemList }).toEqual(full);
      expect(full.shellVersion).toMatch(/^[\w-]{32}$/);
      expect((await app.call("GET", "/api/v1/auth/user/brief")).body.status).not.toBe(200);
    });

    test("a grant through the API shows on the next page, with a new shell version", async () => {
      const before = await info(clerk);
      expect(await permissions(clerk)).toEqual(["/admin/auth", "auth:org:view"]);
      const granted = await app.call("POST", "/api/v1/auth/role/assignMenu", { token: admin, body: { roleId, menuIds: [menuIds.get("auth:org:view"), menuIds.get("auth:org:create")] } });
      expect(granted.body.status).toBe(200);
      const after = await info(clerk);
      expect(await permissions(clerk)).toEqual(["/admin/auth", "auth:org:create", "auth:org:view"]);
      expect(after.shellVersion).not.toBe(before.shellVersion);
      // The API's permission check reads the same cache: a revoked button is refused on the very next call.
      const org = { orgName: "缓存部门", orgType: "department", status: "1" };
      expect((await app.call("POST", "/api/v1/auth/org/create", { token: clerk, body: org })).body.status).toBe(200);
      await app.call("POST", "/api/v1/auth/role/assignMenu", { token: admin, body: { roleId, menuIds: [menuIds.get("auth:org:view")] } });
      expect((await app.call("POST", "/api/v1/auth/org/create", { token: clerk, body: { ...org, orgName: "缓存部门二" } })).body.status).toBe(403);
      await app.call("POST", "/api/v1/auth/role/assignMenu", { token: admin, body: { roleId, menuIds: [menuIds.get("auth:org:view"), menuIds.get("auth:org:create")] } });
    });

    test("a menu disabled, a role disabled, a dictionary item renamed: each shows on the next page", async () => {
      const menuId = menuIds.get("auth:org:create") as number;
      const menu = await app.call<{ updatedAt: number }>("GET", `/api/v1/sys/menu/getInfo?id=${menuId}`, { token: admin });
      expect((await app.call("POST", "/api/v1/sys/menu/update", { token: admin, body: { id: menuId, status: "0" } })).body.status).toBe(200);
      expect(await permissions(clerk)).toEqual(["/admin/auth", "auth:org:view"]);
      expect((await app.call("POST", "/api/v1/sys/menu/update", { token: admin, body: { id: menuId, status: "1" } })).body.status).toBe(200);
      expect(await permissions(clerk)).toEqual(["/admin/auth", "auth:org:create", "auth:org:view"]);
      expect(menu.body.status).toBe(200);

      expect((await app.call("POST", "/api/v1/auth/role/update", { token: admin, body: { id: roleId, status: "0" } })).body.status).toBe(200);
      expect((await info(clerk)).menuTreeList).toEqual([]);
      expect((await app.call("POST", "/api/v1/auth/role/update", { token: admin, body: { id: roleId, status: "1" } })).body.status).toBe(200);

      const item = await app.database.db.selectFrom("dict_item").select(["id", "item_text"]).where("dict_code", "=", "sex").orderBy("sort").executeTakeFirstOrThrow();
      const before = await info(clerk);
      expect((await app.call("POST", "/api/v1/sys/dictItem/update", { token: admin, body: { id: item.id, itemText: "男士" } })).body.status).toBe(200);
      const after = await info(clerk);
      expect(after.dictItemList.find((i) => i.dictCode === "sex" && i.itemText === "男士")).toBeTruthy();
      expect(after.shellVersion).not.toBe(before.shellVersion);
    });

    test("another instance's write is seen through the shared counter, and only through it", async () => {
      await info(clerk);
      const other = await openAnotherInstance(app);
      try {
        // A grant made by SQL on the other instance's connection, which does not count: the other instance, with
        // nothing cached, shows it; this one keeps its cached tree…
        await other.database.db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: roleId, menu_id: menuIds.get("auth:org:update") as number }).execute();
        expect(await permissions(clerk, other)).toContain("auth:org:update");
        expect(await permissions(clerk)).not.toContain("auth:org:update");
        // …until the other instance writes through its API, whose transaction adds one to the counter.
        const granted = await other.call("POST", "/api/v1/auth/role/assignMenu", { token: admin, body: { roleId, menuIds: ["auth:org:view", "auth:org:create", "auth:org:update", "auth:org:delete"].map((p) => menuIds.get(p)) } });
        expect(granted.body.status).toBe(200);
        expect(await permissions(clerk)).toEqual(["/admin/auth", "auth:org:create", "auth:org:delete", "auth:org:update", "auth:org:view"]);
      } finally {
        await other.close();
      }
    });

    test("users of the same roles get the same shell; a new role assignment is seen at once", async () => {
      await createUser(app, { userName: "cache.twin", password: "Cache-Twin-2026", roleIds: [roleId] });
      const twin = await loginAs(app, "cache.twin", "Cache-Twin-2026");
      expect((await info(twin)).shellVersion).toBe((await info(clerk)).shellVersion);
      const twinId = (await info(twin)).userId;
      const assigned = await app.call("POST", "/api/v1/auth/user/assignRole", { token: admin, body: { userId: twinId, roleIds: [] } });
      expect(assigned.body.status).toBe(200);
      expect((await info(twin)).menuTreeList).toEqual([]);
    });
  });
}
