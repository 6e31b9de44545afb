import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { ADMIN_ROLE_ID, ADMIN_USER_ID, DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { postLogin } from "../helpers/fixtures";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

const USER = "/api/v1/auth/user";
type FieldErrors = { fieldErrors: Record<string, string[]> };
interface UserRecord {
  id: number;
  tenantId: number;
  userName: string;
  realName: string;
  userCode: string | null;
  orgId: number | null;
  orgIdLabel?: string | null;
  status: string;
  updatedAt: number;
  initialPassword?: string;
}

for (const dialect of dialects) {
  describe(`${dialect}: users`, () => {
    let app: TestApp;
    let superToken: string;
    let a: TenantFixture;
    let b: TenantFixture;
    let deptId: number;
    let restaurantId: number;
    let cashierRoleId: number;

    const post = <T = unknown>(path: string, token: string, body: unknown) => app.call<T>("POST", `${USER}/${path}`, { token, body });
    const get = <T = unknown>(path: string, token: string) => app.call<T>("GET", `${USER}/${path}`, { token });
    const countUsers = async (tenantId: number) =>
      Number((await app.database.db.selectFrom("user").select((eb) => eb.fn.countAll().as("n")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).n);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      a = await createTenantWithAdmin(app, superToken, "ua");
      b = await createTenantWithAdmin(app, superToken, "ub");
      deptId = (await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/org/create", a.token, { parentId: a.rootOrgId, orgName: "财务部", orgType: "department", status: "1" })).id;
      restaurantId = (await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/org/create", a.token, { parentId: a.rootOrgId, orgName: "一食堂", orgType: "restaurant", status: "1" })).id;
      cashierRoleId = (await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", a.token, { roleCode: "cashier", roleName: "收银员", roleType: "user", status: "1" })).id;
    });
    afterAll(async () => {
      await app?.close();
    });

    test("create under an org with roles: the user must change the given password at first sign-in", async () => {
      const result = await post<UserRecord>("create", a.token, {
        user: { userName: "zhang.san", realName: "张三", userCode: "E001", phone: "13800000001", email: "zs@example.com", sex: "1", orgId: deptId, status: "1", password: "Zhang-San-2026" },
        roleIds: [cashierRoleId],
      });
      expect(result.body.status).toBe(200);
      const user = result.body.data;
      expect(user).toMatchObject({ tenantId: a.tenantId, userName: "zhang.san", realName: "张三", userCode: "E001", orgId: deptId, orgIdLabel: "财务部", status: "1" });
      expect(user.initialPassword).toBeUndefined();
      expect(JSON.stringify(result.body)).not.toMatch(/password|scrypt/i);

      const roles = await get<Array<{ id: number; roleCode: string }>>(`getUserRoleList?id=${user.id}`, a.token);
      expect(roles.body.data.map((r) => r.roleCode)).toEqual(["cashier"]);

      const token = await loginAs(app, "zhang.san", "Zhang-San-2026");
      const info = await expectOk<{ pwdSecurityLevel: number; tenantId: number }>(app, "GET", `${USER}/info`, token);
      expect(info).toMatchObject({ pwdSecurityLevel: 0, tenantId: a.tenantId });
      const refused = await app.call("GET", "/api/v1/auth/role/findPage", { token });
      expect(refused.body.status).toBe(403);
      expect(refused.body.message).toBe("首次登录，请先修改密码");
    });

    test("without a password one is made, returned once, and works", async () => {
      const result = await post<UserRecord>("create", a.token, { user: { userName: "li.si", realName: "李四", orgId: deptId, status: "1" }, roleIds: [] });
      expect(result.body.status).toBe(200);
      const password = result.body.data.initialPassword as string;
      expect(password).toMatch(/^\S{12}$/);
      expect((await postLogin(app, "li.si", password)).body.status).toBe(200);
      // A bare user (the generic create form) is taken as well.
      const bare = await post<UserRecord>("create", a.token, { userName: "wang.wu", realName: "王五", status: "1", password: "Wang-Wu-Pass-9" });
      expect(bare.body.status).toBe(200);
      expect(bare.body.data.orgId).toBeNull();
    });

    test("create validation speaks Chinese per field and writes nothing", async () => {
      const before = await countUsers(a.tenantId);
      const cases: Array<[Record<string, unknown>, number[], string, string]> = [
        [{ realName: "无名", status: "1" }, [], "userName", "请输入用户名"],
        [{ userName: "x y", realName: "空格", status: "1" }, [], "userName", "用户名为 2 到 50 个字母、数字或 _ . @ -"],
        [{ userName: "noname", status: "1" }, [], "realName", "请输入姓名"],
        [{ userName: "bad.mail", realName: "邮箱", email: "not-mail", status: "1" }, [], "email", "请输入有效的邮箱地址"],
        [{ userName: "short.pw", realName: "短", status: "1", password: "Ab1" }, [], "password", "密码至少 8 个字符"],
        [{ userName: "samename1", realName: "同名", status: "1", password: "SameName1" }, [], "password", "密码不能与用户名相同"],
        [{ userName: "common.pw", realName: "常见", status: "1", password: "password123" }, [], "password", "密码过于常见，请换一个"],
        [{ userName: "ub.admin", realName: "重名", status: "1" }, [], "userName", "用户名已存在"],
        [{ userName: "dup.code", realName: "重码", userCode: "E001", status: "1" }, [], "userCode", "用户编码已存在"],
        [{ userName: "other.org", realName: "他org", orgId: b.rootOrgId, status: "1" }, [], "orgId", "所选所属机构不存在"],
        [{ userName: "other.role", realName: "他role", status: "1" }, [b.adminRoleId], "roleIds", "所选角色不存在"],
      ];
      for (const [user, roleIds, field, message] of cases) {
        const result = await post<FieldErrors>("create", a.token, { user, roleIds });
        expect(result.body.status, `${field}: ${message}`).toBe(400);
        expect(result.body.data.fieldErrors[field], `${field}: ${JSON.stringify(result.body)}`).toContain(message);
      }
      expect(await countUsers(a.tenantId)).toBe(before);
    });

    test("validateUserCode checks live, per tenant, leaving out the user being edited", async () => {
      const zhang = (await get<{ records: UserRecord[] }>("findPage?userName=zhang", a.token)).body.data.records[0];
      const check = async (query: string, token = a.token) => (await get<{ valid: boolean; message: string | null }>(`validateUserCode?${query}`, token)).body.data;
      expect(await check("userCode=E002")).toEqual({ valid: true, message: null });
      expect(await check("userCode=E001")).toEqual({ valid: false, message: "用户编码已存在" });
      expect(await check(`id=${zhang.id}&userCode=E001`)).toEqual({ valid: true, message: null });
      expect(await check("userCode=E%20001")).toEqual({ valid: false, message: "用户编码只能包含字母、数字、下划线和短横线" });
      expect(await check("userCode=E001", b.token)).toEqual({ valid: true, message: null });
    });

    test("a plain update changes the declared fields only: not roles, tenant, password or security level", async () => {
      const zhang = (await get<{ records: UserRecord[] }>("findPage?userName=zhang", a.token)).body.data.records[0];
      const hashBefore = await app.database.db.selectFrom("user").select(["password_hash", "pwd_security_level"]).where("id", "=", zhang.id).executeTakeFirstOrThrow();
      const result = await post<UserRecord>("update", a.token, {
        id: zhang.id,
        updatedAt: zhang.updatedAt,
        realName: "张三丰",
        roleIds: [a.adminRoleId],
        tenantId: b.tenantId,
        password: "Taken-Over-2026",
        passwordHash: "x",
        pwdSecurityLevel: 3,
      });
      expect(result.body.status).toBe(200);
      expect(result.body.data).toMatchObject({ realName: "张三丰", tenantId: a.tenantId });
      const row = await app.database.db.selectFrom("user").selectAll().where("id", "=", zhang.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ tenant_id: a.tenantId, real_name: "张三丰", password_hash: hashBefore.password_hash, pwd_security_level: hashBefore.pwd_security_level });
      expect((await get<Array<{ id: number }>>(`getUserRoleList?id=${zhang.id}`, a.token)).body.data.map((r) => r.id)).toEqual([cashierRoleId]);

      const stale = await post("update", a.token, { id: zhang.id, updatedAt: zhang.updatedAt, realName: "过期" });
      expect(stale.body.status).toBe(409);
    });

    test("renaming a user moves its sign-in name; a name of another tenant is refused", async () => {
      const wang = (await get<{ records: UserRecord[] }>("findPage?userName=wang.wu", a.token)).body.data.records[0];
      const taken = await post<FieldErrors>("update", a.token, { id: wang.id, userName: "ub.admin" });
      expect(taken.body.data.fieldErrors.userName).toEqual(["用户名已存在"]);
      expect((await post("update", a.token, { id: wang.id, userName: "wang.wu2" })).body.status).toBe(200);
      expect((await postLogin(app, "wang.wu", "Wang-Wu-Pass-9")).body.status).toBe(400);
      expect((await postLogin(app, "wang.wu2", "Wang-Wu-Pass-9")).body.status).toBe(200);
    });

    test("lists, details and exports never carry the password hash", async () => {
      const texts = [
        JSON.stringify((await get("findPage?pageSize=100", a.token)).body),
        JSON.stringify((await get(`getInfo?id=${a.adminUserId}`, a.token)).body),
        JSON.stringify((await get("findUserByRoleType?roleType=admin", a.token)).body),
        await (await app.api.handle(new Request(`http://canteen.test${USER}/export?format=csv`, { headers: { Authorization: `Bearer ${a.token}` } }), "127.0.0.1")).text(),
      ];
      for (const text of texts) {
        expect(text).not.toMatch(/scrypt|password_?hash/i);
      }
      expect(texts[3]).toContain("ua.admin");
    });

    test("findUserByRoleType lists the tenant's users holding an enabled role of that type", async () => {
      const admins = await get<UserRecord[]>("findUserByRoleType?roleType=admin", a.token);
      expect(admins.body.data.map((u) => u.userName)).toEqual(["ua.admin"]);
      const plain = await get<UserRecord[]>("findUserByRoleType?roleType=user", a.token);
      expect(plain.body.data.map((u) => u.userName)).toEqual(["zhang.san"]);
      const bad = await get("findUserByRoleType?roleType=boss", a.token);
      expect(bad.body.status).toBe(400);
      expect(bad.body.message).toContain("角色类型只能是 user、admin 或 super");
    });

    test("assignRole replaces the roles with roles of the same tenant only", async () => {
      const li = (await get<{ records: UserRecord[] }>("findPage?userName=li.si", a.token)).body.data.records[0];
      const assigned = await post<{ roleIds: number[] }>("assignRole", a.token, { userId: li.id, roleIds: [cashierRoleId, cashierRoleId] });
      expect(assigned.body.status).toBe(200);
      expect(assigned.body.data.roleIds).toEqual([cashierRoleId]);
      const foreign = await post<FieldErrors>("assignRole", a.token, { userId: li.id, roleIds: [b.adminRoleId] });
      expect(foreign.body.status).toBe(400);
      expect(foreign.body.data.fieldErrors.roleIds).toEqual(["所选角色不存在"]);
      const otherUser = await post("assignRole", a.token, { userId: b.adminUserId, roleIds: [cashierRoleId] });
      expect(otherUser.body.status).toBe(404);
      expect((await get<Array<{ id: number }>>(`getUserRoleList?id=${li.id}`, a.token)).body.data.map((r) => r.id)).toEqual([cashierRoleId]);
      expect((await get(`getUserRoleList?id=${b.adminUserId}`, a.token)).body.status).toBe(404);
      expect((await post("assignRole", a.token, { userId: li.id, roleIds: [] })).body.status).toBe(200);
      expect((await get<unknown[]>(`getUserRoleList?id=${li.id}`, a.token)).body.data).toEqual([]);
    });

    test("an admin resets another user's password: first sign-in again, and every session of that user ends", async () => {
      const zhang = (await get<{ records: UserRecord[] }>("findPage?userName=zhang", a.token)).body.data.records[0];
      const session = await loginAs(app, "zhang.san", "Zhang-San-2026");
      const weak = await post<FieldErrors>("resetPasswd", a.token, { id: zhang.id, password: "zhang.san" });
      expect(weak.body.data.fieldErrors.password).toEqual(["密码不能与用户名相同"]);
      const self = await post("resetPasswd", a.token, { id: a.adminUserId, password: "Self-Reset-2026" });
      expect(self.body.status).toBe(400);
      expect(self.body.message).toBe("请通过“修改密码”修改本人的密码");
      expect((await post("resetPasswd", a.token, { id: b.adminUserId, password: "Cross-Tenant-2026" })).body.status).toBe(404);

      expect((await post("resetPasswd", a.token, { id: zhang.id, password: "Reset-By-Admin-7" })).body.status).toBe(200);
      expect((await app.call("GET", `${USER}/info`, { token: session })).body.status).toBe(50014);
      expect((await postLogin(app, "zhang.san", "Zhang-San-2026")).body.status).toBe(400);
      const fresh = await loginAs(app, "zhang.san", "Reset-By-Admin-7");
      expect((await expectOk<{ pwdSecurityLevel: number }>(app, "GET", `${USER}/info`, fresh)).pwdSecurityLevel).toBe(0);
      // The other tenant's admin still signs in with its own password.
      expect((await postLogin(app, "ub.admin", b.adminPassword)).body.status).toBe(200);
    });

    test("warehouses and restaurants: options of the tenant, saved links, nothing of another tenant", async () => {
      const now = Date.now();
      const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
      const [w1, w2, wb] = [newId(), newId(), newId()];
      await app.database.db
        .insertInto("warehouse")
        .values([
          { tenant_id: a.tenantId, id: w1, name: "主仓库", status: 1, remark: null, ...audit },
          { tenant_id: a.tenantId, id: w2, name: "冷库", status: 1, remark: null, ...audit },
          { tenant_id: b.tenantId, id: wb, name: "B仓库", status: 1, remark: null, ...audit },
        ])
        .execute();
      const li = (await get<{ records: UserRecord[] }>("findPage?userName=li.si", a.token)).body.data.records[0];

      const empty = await get<{ options: Array<{ id: number; name: string }>; selectedIds: number[] }>(`getUserWarehouseList?id=${li.id}`, a.token);
      expect(empty.body.data.options.map((o) => o.name).sort()).toEqual(["主仓库", "冷库"]);
      expect(empty.body.data.selectedIds).toEqual([]);
      const saved = await post<{ warehouseIds: number[] }>("assignWarehouse", a.token, { userId: li.id, warehouseIds: [w2, w1] });
      expect(saved.body.data.warehouseIds).toEqual([w1, w2].sort((x, y) => x - y));
      const foreign = await post<FieldErrors>("assignWarehouse", a.token, { userId: li.id, warehouseIds: [wb] });
      expect(foreign.body.data.fieldErrors.warehouseIds).toEqual(["所选仓库不存在"]);
      expect((await get<{ selectedIds: number[] }>(`getUserWarehouseList?id=${li.id}`, a.token)).body.data.selectedIds).toEqual([w1, w2].sort((x, y) => x - y));

      const restaurants = await get<{ options: Array<{ id: number; name: string }> }>(`getUserRestaurantList?id=${li.id}`, a.token);
      expect(restaurants.body.data.options.map((o) => o.name)).toEqual(["一食堂"]);
      const notRestaurant = await post<FieldErrors>("assignRestaurant", a.token, { userId: li.id, restaurantIds: [deptId] });
      expect(notRestaurant.body.data.fieldErrors.restaurantIds).toEqual(["所选餐厅不存在或不是餐厅类型的机构"]);
      expect((await post("assignRestaurant", a.token, { userId: li.id, restaurantIds: [restaurantId] })).body.status).toBe(200);
      expect((await get<{ selectedIds: number[] }>(`getUserRestaurantList?id=${li.id}`, a.token)).body.data.selectedIds).toEqual([restaurantId]);

      const busy = await app.call("GET", `/api/v1/auth/org/delete?id=${restaurantId}`, { token: a.token });
      expect(busy.body.status).toBe(409);
      expect(busy.body.message).toBe("该餐厅已分配给用户，请先取消这些用户的餐厅分配");

      // Deleting the user takes its links along.
      expect((await get(`delete?id=${li.id}`, a.token)).body.status).toBe(200);
      for (const table of ["user_warehouse", "user_restaurant"] as const) {
        expect(await app.database.db.selectFrom(table).selectAll().where("user_id", "=", li.id).execute()).toEqual([]);
      }
      expect((await get(`getUserWarehouseList?id=${li.id}`, a.token)).body.status).toBe(404);
    });

    test("nobody deletes or disables their own account", async () => {
      const del = await get(`delete?id=${a.adminUserId}`, a.token);
      expect(del.body.status).toBe(409);
      expect(del.body.message).toBe("不能删除自己的账号");
      const batch = await post("deleteBatch", a.token, { ids: [a.adminUserId] });
      expect(batch.body.status).toBe(409);
      const disable = await post<FieldErrors>("update", a.token, { id: a.adminUserId, status: "2" });
      expect(disable.body.data.fieldErrors.status).toEqual(["不能停用自己的账号"]);
    });

    describe("super admins", () => {
      let deputyToken: string;
      let deputyId: number;

      beforeAll(async () => {
        // A user manager of the default tenant who is not a super admin.
        const menus = await app.database.db.selectFrom("menu").select(["id", "permission"]).where("permission", "like", "auth:user:%").execute();
        const role = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", superToken, { roleCode: "usermgr", roleName: "用户管理员", roleType: "user", status: "1" });
        await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", superToken, { roleId: role.id, menuIds: menus.map((m) => m.id) });
        const created = await expectOk<UserRecord>(app, "POST", `${USER}/create`, superToken, {
          user: { userName: "deputy", realName: "副管理员", status: "1", password: "Deputy-First-1" },
          roleIds: [role.id],
        });
        deputyId = created.id;
        deputyToken = await loginAs(app, "deputy", "Deputy-First-1");
        await expectOk(app, "POST", `${USER}/modifyPasswd`, deputyToken, { oldPassword: "Deputy-First-1", newPassword: "Deputy-Second-2" });
      });

      test("only a super admin manages a super admin's account or hands out the super role", async () => {
        const attempts = [
          await get(`delete?id=${ADMIN_USER_ID}`, deputyToken),
          await post("update", deputyToken, { id: ADMIN_USER_ID, realName: "改名" }),
          await post("resetPasswd", deputyToken, { id: ADMIN_USER_ID, password: "Taken-Over-2026" }),
          await post("assignRole", deputyToken, { userId: ADMIN_USER_ID, roleIds: [] }),
          await post("assignRole", deputyToken, { userId: deputyId, roleIds: [ADMIN_ROLE_ID] }),
        ];
        for (const attempt of attempts) expect(attempt.body.status, JSON.stringify(attempt.body)).toBe(403);
        const admin = await app.database.db.selectFrom("user").select(["real_name", "status"]).where("id", "=", ADMIN_USER_ID).executeTakeFirstOrThrow();
        expect(admin).toEqual({ real_name: "系统管理员", status: 1 });
        expect((await expectOk<unknown[]>(app, "GET", `${USER}/getUserRoleList?id=${ADMIN_USER_ID}`, superToken)).length).toBe(1);
      });

      test("a non-admin cannot hand out a role that opens more than it holds", async () => {
        const roleMenus = await app.database.db.selectFrom("menu").select("id").where("permission", "like", "auth:role:%").execute();
        const wider = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", superToken, { roleCode: "wider", roleName: "更多权限", roleType: "user", status: "1" });
        await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", superToken, { roleId: wider.id, menuIds: roleMenus.map((m) => m.id) });
        const attempt = await post("assignRole", deputyToken, { userId: deputyId, roleIds: [wider.id] });
        expect(attempt.body.status).toBe(403);
        expect(attempt.body.message).toBe("不能分配管理员角色或本人没有的菜单权限");
      });

      test("the last enabled super admin keeps its role and its account", async () => {
        const drop = await post("assignRole", superToken, { userId: ADMIN_USER_ID, roleIds: [] });
        expect(drop.body.status).toBe(409);
        expect(drop.body.message).toBe("至少要保留一个可用的超级管理员");
        const disableRole = await app.call("POST", "/api/v1/auth/role/update", { token: superToken, body: { id: ADMIN_ROLE_ID, status: "0" } });
        expect(disableRole.body.status).toBe(409);
        expect((await get<unknown[]>(`getUserRoleList?id=${ADMIN_USER_ID}`, superToken)).body.data).toHaveLength(1);

        // With a second super admin the first may step down.
        await expectOk(app, "POST", `${USER}/assignRole`, superToken, { userId: deputyId, roleIds: [ADMIN_ROLE_ID] });
        const deputy = await loginAs(app, "deputy", "Deputy-Second-2");
        expect((await get(`delete?id=${ADMIN_USER_ID}`, deputy)).body.status).toBe(200);
        expect(await countUsers(DEFAULT_TENANT_ID)).toBe(1);
        expect((await post("assignRole", deputy, { userId: deputyId, roleIds: [] })).body.status).toBe(409);
      });
    });
  });
}
