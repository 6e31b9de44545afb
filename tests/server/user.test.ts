import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtInDicts } from "../../resources/dicts";
import { encodeLoginField } from "../../server/modules/auth/session";
import { ADMIN_PASSWORD, createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, postLogin } from "../helpers/fixtures";

const INFO = "/api/v1/auth/user/info";
const MODIFY = "/api/v1/auth/user/modifyPasswd";
const TENANT = "/api/v1/sys/tenant/getInfo";
const CHINESE = /[\u4e00-\u9fff]/;

type FieldErrorData = { fieldErrors: Record<string, string[]> };

/** The user-info fields an API client reads (spec §5, §7). */
interface UserInfo {
  token: string | null;
  userName: string;
  avatar: string | null;
  introduction: string | null;
  roles: string[];
  pwdSecurityLevel: number;
  navigationMode: string | null;
  menuTreeList: Array<{ menuName: string; children: unknown[] }>;
  dictItemList: Array<{ dictCode: string; itemValue: string; itemText: string }>;
  tenantId: number;
  tenantName: string;
}

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let userCount = 0;

    async function newUser(prefix = "staff") {
      const userName = `${prefix}${++userCount}`;
      const password = `Staff-Pass-${userCount}-2026`;
      await createUser(app, { userName, password });
      return { userName, password, token: await loginAs(app, userName, password) };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
    });
    afterAll(async () => {
      await app?.close();
    });

    describe("first login of the seeded admin", () => {
      // These steps follow each other: the admin starts with pwdSecurityLevel 0.
      let token: string;
      let other: string;
      const newPassword = "Admin-New-Pass-2026!";

      beforeAll(async () => {
        token = await loginAs(app, "admin", ADMIN_PASSWORD);
        other = await loginAs(app, "admin", ADMIN_PASSWORD);
      });

      test("user info lists the admin, its roles and every built-in dictionary", async () => {
        const result = await app.call<UserInfo>("GET", INFO, { token });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        const info = result.body.data;
        expect(info.token).toBe(token);
        expect(info.userName).toBe("admin");
        expect(info).toHaveProperty("avatar");
        expect(info).toHaveProperty("introduction");
        expect(Array.isArray(info.roles)).toBe(true);
        expect(info.roles.length).toBeGreaterThan(0);
        expect(info.roles).toContain("admin");
        expect(info.pwdSecurityLevel).toBe(0);
        expect(info.navigationMode).toBe("top");
        expect(info.tenantId).toBe(1);
        expect(Array.isArray(info.menuTreeList)).toBe(true);
        expect(info.menuTreeList.map((m) => m.menuName)).toContain("首页");

        expect(info.dictItemList).toContainEqual({ dictCode: "userStatus", itemValue: "2", itemText: "禁用" });
        const items = new Set(info.dictItemList.map((i) => `${i.dictCode}|${i.itemValue}|${i.itemText}`));
        for (const [code, dict] of Object.entries(builtInDicts)) {
          for (const option of dict.options) expect(items, `${code} ${option.value}`).toContain(`${code}|${option.value}|${option.label}`);
        }
        for (const item of info.dictItemList) {
          expect(typeof item.itemValue).toBe("string");
        }
      });

      test("the token in user info is only returned to Authorization-header callers", async () => {
        const result = await app.call<UserInfo>("GET", INFO, { cookie: `Admin-Token=${token}` });
        expect(result.body.status).toBe(200);
        expect(result.body.data.userName).toBe("admin");
        expect(result.body.data.token).not.toBe(token);
        expect(JSON.stringify(result.body)).not.toContain(token);
      });

      test("before the password change other screens are refused with 403", async () => {
        const result = await app.call("GET", TENANT, { token });
        expect(result.http).toBe(403);
        expect(result.body.status).toBe(403);
        expect(result.body.message).toMatch(CHINESE);
        expect(result.body.data).toBeNull();
        // The menu tree stays reachable for the shell.
        expect((await app.call("GET", "/api/v1/auth/user/getUserMenuTreeList?subsystemId=1", { token })).body.status).toBe(200);
      });

      test("the password change needs the old password, and the right one", async () => {
        const missing = await app.call<FieldErrorData>("POST", MODIFY, { token, body: { newPassword } });
        expect(missing.http).toBe(400);
        expect(missing.body.data.fieldErrors.oldPassword[0]).toMatch(CHINESE);

        const neither = await app.call<FieldErrorData>("POST", MODIFY, { token });
        expect(neither.http).toBe(400);
        expect(neither.body.data.fieldErrors.oldPassword[0]).toMatch(CHINESE);
        expect(neither.body.data.fieldErrors.newPassword[0]).toMatch(CHINESE);

        const wrong = await app.call<FieldErrorData>("POST", MODIFY, {
          token,
          body: { oldPassword: "Not-The-Password-1", newPassword },
        });
        expect(wrong.http).toBe(400);
        expect(wrong.body.data.fieldErrors.oldPassword).toEqual(["原密码错误"]);
        expect((await postLogin(app, "admin", newPassword)).body.status).toBe(400);
      });

      test("a successful change raises pwdSecurityLevel, swaps the password and revokes the other sessions", async () => {
        const result = await app.call("POST", MODIFY, {
          token,
          body: { oldPassword: encodeLoginField(ADMIN_PASSWORD), newPassword: encodeLoginField(newPassword) },
        });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);

        const info = await app.call<UserInfo>("GET", INFO, { token });
        expect(info.body.status).toBe(200);
        expect(info.body.data.pwdSecurityLevel).toBeGreaterThanOrEqual(1);

        const revoked = await app.call("GET", INFO, { token: other });
        expect(revoked.http).toBe(401);
        expect(revoked.body.status).toBe(50014);

        expect((await postLogin(app, "admin", ADMIN_PASSWORD)).body.status).toBe(400);
        expect((await postLogin(app, "admin", newPassword)).body.status).toBe(200);
      });

      test("after the change the tenant is readable", async () => {
        const result = await app.call<{ tenantId: number; tenantName: string }>("GET", TENANT, { token });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        expect(result.body.data.tenantName).toBe("默认租户");
        expect(result.body.data.tenantId).toBe(1);
        const byId = await app.call<{ tenantName: string }>("GET", `${TENANT}?id=1`, { token });
        expect(byId.body.data.tenantName).toBe("默认租户");
      });
    });

    describe("new password rules", () => {
      let user: { userName: string; password: string; token: string };
      beforeAll(async () => {
        user = await newUser("kitchenboss");
      });

      async function refused(newPassword: string) {
        const result = await app.call<FieldErrorData>("POST", MODIFY, {
          token: user.token,
          body: { oldPassword: user.password, newPassword },
        });
        expect(result.http, newPassword).toBe(400);
        expect(result.body.status).toBe(400);
        const messages = result.body.data.fieldErrors.newPassword;
        expect(messages, newPassword).toHaveLength(1);
        expect(messages[0]).toMatch(CHINESE);
        expect(result.body.data.fieldErrors.oldPassword).toBeUndefined();
        return messages[0];
      }

      test("fewer than 8 characters", async () => {
        expect(await refused("Ab1!xyz")).toContain("8");
        expect(await refused("")).toMatch(CHINESE);
      });

      test("the user name, in any letter case", async () => {
        const message = await refused(user.userName);
        expect(message).toContain("用户名");
        expect(await refused(user.userName.toUpperCase())).toBe(message);
      });

      test("a common password", async () => {
        const message = await refused("password123");
        expect(await refused("PASSWORD123")).toBe(message);
        expect(await refused("12345678")).toBe(message);
      });

      test("the same as the old one", async () => {
        await refused(user.password);
      });

      test("none of the refusals changed the password", async () => {
        expect((await postLogin(app, user.userName, user.password)).body.status).toBe(200);
      });
    });

    describe("password change", () => {
      test("values may come as query parameters, plain or ENC:", async () => {
        const user = await newUser();
        const plain = new URLSearchParams({ oldPassword: user.password, newPassword: "Query-Pass-2026" });
        const first = await app.call("POST", `${MODIFY}?${plain}`, { token: user.token });
        expect(first.body.status).toBe(200);
        expect((await postLogin(app, user.userName, "Query-Pass-2026")).body.status).toBe(200);

        const encoded = new URLSearchParams({
          oldPassword: encodeLoginField("Query-Pass-2026"),
          newPassword: encodeLoginField("Query+Pass/2027="),
        });
        const second = await app.call("POST", `${MODIFY}?${encoded}`, { token: user.token });
        expect(second.body.status).toBe(200);
        expect((await postLogin(app, user.userName, "Query+Pass/2027=")).body.status).toBe(200);
        expect((await postLogin(app, user.userName, "Query-Pass-2026")).body.status).toBe(400);
      });

      test("query parameters are checked like the body", async () => {
        const user = await newUser();
        const weak = new URLSearchParams({ oldPassword: user.password, newPassword: "short" });
        const result = await app.call<FieldErrorData>("POST", `${MODIFY}?${weak}`, { token: user.token });
        expect(result.http).toBe(400);
        expect(result.body.data.fieldErrors.newPassword[0]).toMatch(CHINESE);
      });

      test("other sessions are revoked, the current one keeps working", async () => {
        const user = await newUser();
        const second = await loginAs(app, user.userName, user.password);
        const third = await loginAs(app, user.userName, user.password);
        const result = await app.call("POST", MODIFY, {
          token: user.token,
          body: { oldPassword: user.password, newPassword: "Revoke-Others-2026" },
        });
        expect(result.body.status).toBe(200);
        expect((await app.call("GET", INFO, { token: user.token })).body.status).toBe(200);
        expect((await app.call("GET", TENANT, { token: user.token })).body.status).toBe(200);
        for (const token of [second, third]) {
          const revoked = await app.call("GET", INFO, { token });
          expect(revoked.http).toBe(401);
          expect(revoked.body.status).toBe(50014);
        }
        // A new login after the change is a fresh session.
        const fresh = await loginAs(app, user.userName, "Revoke-Others-2026");
        expect((await app.call("GET", INFO, { token: fresh })).body.status).toBe(200);
      });

      test("it needs a session", async () => {
        const result = await app.call("POST", MODIFY, { body: { oldPassword: "x", newPassword: "Some-Pass-2026" } });
        expect(result.http).toBe(401);
        expect(result.body.status).toBe(401);
      });

      test("the stored password is a salted hash", async () => {
        const user = await newUser();
        await app.call("POST", MODIFY, { token: user.token, body: { oldPassword: user.password, newPassword: "Salted-Pass-2026" } });
        const row = await app.database.db
          .selectFrom("user")
          .select("password_hash")
          .where("user_name", "=", user.userName)
          .executeTakeFirstOrThrow();
        expect(row.password_hash).not.toContain("Salted-Pass-2026");
        expect(row.password_hash).toMatch(/^scrypt\$/);
      });
    });

    describe("other users' info", () => {
      test("a user without roles gets its own info and no admin role", async () => {
        const user = await newUser();
        const result = await app.call<UserInfo>("GET", INFO, { token: user.token });
        expect(result.body.status).toBe(200);
        expect(result.body.data.userName).toBe(user.userName);
        expect(result.body.data.roles).not.toContain("admin");
        expect(result.body.data.tenantId).toBe(1);
      });
    });
  });
}
