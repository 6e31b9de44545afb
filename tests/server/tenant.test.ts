import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { weappUrl } from "../../server/modules/sys/tenant";
import { adminToken, createTestApp, loginAs, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, expectOk, switchTenant, type TenantFixture } from "../helpers/tenants";

interface Page<T> {
  records: T[];
  total: number;
}

for (const dialect of dialects) {
  describe(`${dialect}: tenants`, () => {
    let app: TestApp;
    let superToken: string;
    let a: TenantFixture;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      a = await createTenantWithAdmin(app, superToken, "alpha");
    });
    afterAll(async () => {
      await app?.close();
    });

    test("a new tenant starts with its root org and an admin role of type admin", async () => {
      const orgs = await app.database.db.selectFrom("org").selectAll().where("tenant_id", "=", a.tenantId).execute();
      expect(orgs).toHaveLength(1);
      expect(orgs[0]).toMatchObject({ parent_id: null, org_type: "org", org_name: "租户alpha", status: 1 });
      const roles = await app.database.db.selectFrom("role").selectAll().where("tenant_id", "=", a.tenantId).execute();
      expect(roles).toHaveLength(1);
      expect(roles[0]).toMatchObject({ role_code: "admin", role_type: "admin", status: 1 });
    });

    test("the tenant's admin works in its own tenant and sees no tenant management", async () => {
      const info = await expectOk<{ tenantId: number; roles: string[]; menuTreeList: Array<{ menuPath: string; children: Array<{ menuPath: string }> }> }>(
        app, "GET", "/api/v1/auth/user/info", a.token,
      );
      expect(info.tenantId).toBe(a.tenantId);
      expect(info.roles).toEqual(["admin"]);
      const paths = info.menuTreeList.flatMap((m) => [m.menuPath, ...m.children.map((c) => c.menuPath)]);
      expect(paths).toContain("/admin/auth/user/index");
      expect(paths).not.toContain("/admin/sys/tenant/index");
      const users = await expectOk<Page<{ userName: string; tenantId: number }>>(app, "GET", "/api/v1/auth/user/findPage", a.token);
      expect(users.records.map((u) => u.userName)).toEqual(["alpha.admin"]);
      for (const path of ["/api/v1/sys/tenant/findPage", "/api/v1/sys/tenant/export"]) {
        expect((await app.call("GET", path, { token: a.token })).body.status).toBe(403);
      }
      expect((await app.call("POST", "/api/v1/sys/tenant/create", { token: a.token, body: { tenantName: "x", tenantCode: "x", status: "1" } })).body.status).toBe(403);
    });

    test("only a super admin switches tenants; the switch is per session and is undone by switching home", async () => {
      const refused = await app.call("POST", "/api/v1/sys/tenant/switch", { token: a.token, body: { tenantId: DEFAULT_TENANT_ID } });
      expect(refused.body.status).toBe(403);
      expect(refused.body.message).toBe("只有超级管理员可以切换租户");

      const missing = await app.call("POST", "/api/v1/sys/tenant/switch", { token: superToken, body: { tenantId: 999 } });
      expect(missing.body.status).toBe(404);

      const other = await loginAs(app, "admin", "Changed-Pass-2026!");
      const switched = await switchTenant(app, superToken, a.tenantId);
      expect(switched).toEqual({ tenantId: a.tenantId, tenantName: "租户alpha" });
      const inside = await expectOk<{ tenantId: number; tenantName: string }>(app, "GET", "/api/v1/auth/user/info", superToken);
      expect(inside).toMatchObject({ tenantId: a.tenantId, tenantName: "租户alpha" });
      const users = await expectOk<Page<{ userName: string }>>(app, "GET", "/api/v1/auth/user/findPage", superToken);
      expect(users.records.map((u) => u.userName)).toEqual(["alpha.admin"]);
      // Another session of the same super admin stays at home.
      expect((await expectOk<{ tenantId: number }>(app, "GET", "/api/v1/auth/user/info", other)).tenantId).toBe(DEFAULT_TENANT_ID);

      await switchTenant(app, superToken, DEFAULT_TENANT_ID);
      const row = await app.database.db.selectFrom("session").select("acting_tenant_id").where("acting_tenant_id", "is not", null).execute();
      expect(row).toEqual([]);
      expect((await expectOk<{ tenantId: number }>(app, "GET", "/api/v1/auth/user/info", superToken)).tenantId).toBe(DEFAULT_TENANT_ID);
    });

    test("a disabled tenant cannot be entered, and the super admin cannot disable or delete its own", async () => {
      const created = await expectOk<{ id: number }>(app, "POST", "/api/v1/sys/tenant/create", superToken, {
        tenantName: "停用租户",
        tenantCode: "closed",
        status: "0",
      });
      const refused = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/sys/tenant/switch", {
        token: superToken,
        body: { tenantId: created.id },
      });
      expect(refused.body.status).toBe(400);
      expect(refused.body.message).toBe("租户已停用");

      const disable = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/sys/tenant/update", {
        token: superToken,
        body: { id: DEFAULT_TENANT_ID, status: "0" },
      });
      expect(disable.body.status).toBe(400);
      expect(disable.body.data.fieldErrors.status).toEqual(["不能停用本人所在的租户"]);
      const del = await app.call("GET", `/api/v1/sys/tenant/delete?id=${DEFAULT_TENANT_ID}`, { token: superToken });
      expect(del.body.status).toBe(409);
      expect(del.body.message).toBe("不能删除本人所在的租户");
    });

    test("a tenant with users cannot be deleted; one without goes with its seeded org and role", async () => {
      const withUsers = await app.call("GET", `/api/v1/sys/tenant/delete?id=${a.tenantId}`, { token: superToken });
      expect(withUsers.body.status).toBe(409);
      expect(withUsers.body.message).toBe("租户下还有用户，不能删除");

      const empty = await expectOk<{ id: number }>(app, "POST", "/api/v1/sys/tenant/create", superToken, {
        tenantName: "空租户",
        tenantCode: "empty",
        status: "1",
      });
      await switchTenant(app, superToken, empty.id);
      await switchTenant(app, superToken, DEFAULT_TENANT_ID);
      expect(await expectOk(app, "GET", `/api/v1/sys/tenant/delete?id=${empty.id}`, superToken)).toEqual({ deleted: 1 });
      for (const table of ["org", "role"] as const) {
        expect(await app.database.db.selectFrom(table).select("id").where("tenant_id", "=", empty.id).execute()).toEqual([]);
      }
    });

    test("the mini-program QR code is a PNG of the tenant's link, with the token in the query or the cookie", async () => {
      const expected = await QRCode.toBuffer(weappUrl("alpha"), { type: "png", width: 320, margin: 2, errorCorrectionLevel: "M" });
      const byQuery = await app.api.handle(new Request(`${ORIGIN}/api/v1/sys/tenant/getWeappQRCode?Authorization=${a.token}`), "127.0.0.1");
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers.get("Content-Type")).toBe("image/png");
      const bytes = Buffer.from(await byQuery.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.equals(expected)).toBe(true);

      const byCookie = await app.api.handle(
        new Request(`${ORIGIN}/api/v1/sys/tenant/getWeappQRCode`, { headers: { Cookie: `Admin-Token=${a.token}` } }),
        "127.0.0.1",
      );
      expect(Buffer.from(await byCookie.arrayBuffer()).equals(expected)).toBe(true);

      const home = await app.api.handle(new Request(`${ORIGIN}/api/v1/sys/tenant/getWeappQRCode?Authorization=Bearer%20${superToken}`), "127.0.0.1");
      expect(Buffer.from(await home.arrayBuffer()).equals(await QRCode.toBuffer(weappUrl("default"), { type: "png", width: 320, margin: 2, errorCorrectionLevel: "M" }))).toBe(true);

      const anonymous = await app.call("GET", "/api/v1/sys/tenant/getWeappQRCode");
      expect(anonymous.http).toBe(401);
      const forged = await app.call("GET", "/api/v1/sys/tenant/getWeappQRCode?Authorization=not-a-token");
      expect(forged.body.status).toBe(50008);
    });
  });
}
