import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { ADMIN_PASSWORD, createTestApp, loginAs, loginBody, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, expectNoInternals, postLogin } from "../helpers/fixtures";

const CHINESE = /[\u4e00-\u9fff]/;

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    /** A user past the first-login change, for endpoints that need a full session. */
    let token: string;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      await createUser(app, { userName: "clerk01", password: "Clerk-Pass-2026" });
      token = await loginAs(app, "clerk01", "Clerk-Pass-2026");
    });
    afterAll(async () => {
      await app?.close();
    });

    describe("routing and envelope", () => {
      test("an unknown route answers a 404 envelope", async () => {
        for (const [method, path] of [
          ["GET", "/api/v1/no/such/thing"],
          ["POST", "/api/v1/no/such/thing"],
          ["GET", "/login"],
          ["GET", "/api/v1/auth/user/modifyPasswd"],
        ] as const) {
          const result = await app.call(method, path, { token });
          expect(result.http, `${method} ${path}`).toBe(404);
          expect(result.body).toEqual({ status: 404, message: "接口不存在", data: null });
          expect(result.headers.get("Content-Type")).toMatch(/^application\/json/);
        }
      });

      test("envelopes are JSON and never cached", async () => {
        const result = await app.call("GET", "/api/v1/auth/user/info", { token });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        expect(typeof result.body.message).toBe("string");
        expect(result.body).toHaveProperty("data");
        expect(result.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
        expect(result.headers.get("Cache-Control")).toBe("no-store");
      });

      test("a malformed JSON body is a 400 with a Chinese message", async () => {
        const login = await app.call("POST", "/login", { rawBody: '{"username": "ENC:YWRtaW4=", ' });
        expect(login.http).toBe(400);
        expect(login.body.status).toBe(400);
        expect(login.body.message).toBe("请求体不是有效的 JSON");
        expectNoInternals(login.body);

        const modify = await app.call("POST", "/api/v1/auth/user/modifyPasswd", { token, rawBody: "{oldPassword:" });
        expect(modify.http).toBe(400);
        expect(modify.body.message).toBe("请求体不是有效的 JSON");
        expectNoInternals(modify.body);
      });

      test("missing fields are listed in fieldErrors with Chinese messages", async () => {
        const result = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/login", { body: {} });
        expect(result.http).toBe(400);
        expect(result.body.status).toBe(400);
        expect(result.body.message).toMatch(CHINESE);
        const { fieldErrors } = result.body.data;
        expect(Object.keys(fieldErrors).sort()).toEqual(["password", "username"]);
        for (const messages of Object.values(fieldErrors)) {
          expect(messages.length).toBeGreaterThan(0);
          for (const message of messages) expect(message).toMatch(CHINESE);
        }
        expectNoInternals(result.body);
      });

      test("wrong-typed fields are listed in fieldErrors with Chinese messages", async () => {
        const result = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/login", {
          body: { username: 123, password: ["x"] },
        });
        expect(result.http).toBe(400);
        expect(result.body.data.fieldErrors.username[0]).toMatch(CHINESE);
        expect(result.body.data.fieldErrors.password[0]).toMatch(CHINESE);
        expectNoInternals(result.body);

        const notObject = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/login", { body: ["admin"] });
        expect(notObject.http).toBe(400);
        expect(Object.values(notObject.body.data.fieldErrors).flat()[0]).toMatch(CHINESE);
      });

      test("wrong-typed query parameters are listed in fieldErrors", async () => {
        const tenant = await app.call<{ fieldErrors: Record<string, string[]> }>("GET", "/api/v1/sys/tenant/getInfo?id=abc", {
          token,
        });
        expect(tenant.http).toBe(400);
        expect(tenant.body.data.fieldErrors.id[0]).toMatch(CHINESE);
        expectNoInternals(tenant.body);

        const captcha = await app.call<{ fieldErrors: Record<string, string[]> }>("GET", "/api/v1/auth/captcha?checkKey=x");
        expect(captcha.http).toBe(400);
        expect(captcha.body.data.fieldErrors.checkKey[0]).toMatch(CHINESE);
      });

      test("error bodies carry no stack trace or SQL text", async () => {
        const responses = [
          await app.call("POST", "/login", { rawBody: "not json" }),
          await app.call("POST", "/login", { body: { username: "admin", password: "x" } }),
          await postLogin(app, "admin", "wrong-password"),
          await postLogin(app, "nobody' OR 1=1 --", "x"),
          await app.call("GET", "/api/v1/auth/user/info"),
          await app.call("GET", "/api/v1/auth/user/info", { token: "garbage" }),
          await app.call("GET", "/api/v1/auth/user/info", { token: "' OR 1=1 --" }),
          await app.call("GET", "/api/v1/sys/tenant/getInfo?id=999999", { token }),
          await app.call("GET", "/api/v1/auth/user/getUserMenuTreeList?subsystemId=1.5", { token }),
        ];
        for (const result of responses) {
          expect(result.body.status).not.toBe(200);
          expectNoInternals(result.body);
        }
      });

      test("a database failure answers a generic 500 without internals and is logged", async () => {
        const broken = await createTestApp(dialect);
        // Any spy on console.error is the one the setup file installed: silence it, check it, then clear it.
        const errorSpy = vi.spyOn(console, "error").mockImplementation(() => {});
        try {
          await sql`drop table login_log`.execute(broken.database.db);
          const result = await postLogin(broken, "admin", ADMIN_PASSWORD);
          expect(result.http).toBe(500);
          expect(result.body).toEqual({ status: 500, message: "服务器内部错误，请稍后再试", data: null });
          expectNoInternals(result.body);
          expect(errorSpy).toHaveBeenCalled();
        } finally {
          errorSpy.mockClear();
          await broken.close();
        }
      });
    });

    describe("contract and health", () => {
      test("GET /api/v1/openapi.json is an OpenAPI 3.1 document of the endpoints", async () => {
        const response = await app.api.handle(new Request(`${ORIGIN}/api/v1/openapi.json`), "127.0.0.1");
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
        const doc = (await response.json()) as {
          openapi: string;
          info: { title: string };
          paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; security: unknown[] }>>;
        };
        expect(doc.openapi).toMatch(/^3\.1\./);
        expect(doc.info.title).toBeTruthy();

        const login = doc.paths["/login"]?.post;
        expect(login).toBeDefined();
        expect(login.parameters.map((p) => p.name).sort()).toEqual(["captcha", "checkKey"]);
        expect(login.parameters.every((p) => p.in === "query")).toBe(true);
        expect(login.security).toEqual([]);

        const info = doc.paths["/api/v1/auth/user/info"]?.get;
        expect(info).toBeDefined();
        expect(info.security.length).toBeGreaterThan(0);

        const modify = doc.paths["/api/v1/auth/user/modifyPasswd"]?.post;
        expect(modify).toBeDefined();
        expect(modify.parameters.map((p) => p.name).sort()).toEqual(["newPassword", "oldPassword"]);

        expect(doc.paths["/logout"]?.post).toBeDefined();
        expect(doc.paths["/api/v1/auth/captcha"]?.get.parameters.map((p) => p.name)).toEqual(["checkKey"]);
      });

      test("GET /healthz reports the database", async () => {
        const result = await app.call<{ database: string }>("GET", "/healthz");
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        expect(result.body.data.database).toBe("ok");
      });
    });

    describe("cross-site requests", () => {
      const newPassword = "Never-Applied-2026";

      async function passwordHash() {
        const row = await app.database.db
          .selectFrom("user")
          .select("password_hash")
          .where("user_name", "=", "crossuser")
          .executeTakeFirstOrThrow();
        return row.password_hash;
      }

      let cookieToken: string;
      beforeAll(async () => {
        await createUser(app, { userName: "crossuser", password: "Cross-Pass-2026" });
        cookieToken = await loginAs(app, "crossuser", "Cross-Pass-2026");
      });

      test("a POST with the cookie from another origin changes nothing", async () => {
        const before = await passwordHash();
        const result = await app.call("POST", "/api/v1/auth/user/modifyPasswd", {
          cookie: `Admin-Token=${cookieToken}`,
          headers: { Origin: "https://evil.example" },
          body: { oldPassword: "Cross-Pass-2026", newPassword },
        });
        expect(result.http).toBe(403);
        expect(result.body.status).toBe(403);
        expect(result.body.message).toMatch(CHINESE);
        expect(await passwordHash()).toBe(before);
        expect((await postLogin(app, "crossuser", newPassword)).body.status).toBe(400);
        expect((await postLogin(app, "crossuser", "Cross-Pass-2026")).body.status).toBe(200);
      });

      test("a POST marked Sec-Fetch-Site: cross-site is refused", async () => {
        const before = await passwordHash();
        const result = await app.call("POST", "/api/v1/auth/user/modifyPasswd", {
          cookie: `Admin-Token=${cookieToken}`,
          headers: { "Sec-Fetch-Site": "cross-site" },
          body: { oldPassword: "Cross-Pass-2026", newPassword },
        });
        expect(result.http).toBe(403);
        expect(await passwordHash()).toBe(before);
      });

      test("an opaque (null) origin is refused too", async () => {
        const result = await app.call("POST", "/api/v1/auth/user/modifyPasswd", {
          cookie: `Admin-Token=${cookieToken}`,
          headers: { Origin: "null" },
          body: { oldPassword: "Cross-Pass-2026", newPassword },
        });
        expect(result.http).toBe(403);
      });

      test("cross-site logout and login are refused", async () => {
        const logout = await app.call("POST", "/logout", {
          cookie: `Admin-Token=${cookieToken}`,
          headers: { Origin: "https://evil.example" },
        });
        expect(logout.http).toBe(403);
        expect((await app.call("GET", "/api/v1/auth/user/info", { cookie: `Admin-Token=${cookieToken}` })).body.status).toBe(200);

        const login = await app.call("POST", "/login", {
          body: loginBody("crossuser", "Cross-Pass-2026"),
          headers: { Origin: "https://evil.example" },
        });
        expect(login.http).toBe(403);
        expect(login.headers.get("Set-Cookie")).toBeNull();
      });

      test("the same POST from the same origin works", async () => {
        const result = await app.call("POST", "/api/v1/auth/user/modifyPasswd", {
          cookie: `Admin-Token=${cookieToken}`,
          headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" },
          body: { oldPassword: "Cross-Pass-2026", newPassword: "Cross-Pass-2027" },
        });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        expect((await postLogin(app, "crossuser", "Cross-Pass-2027")).body.status).toBe(200);
      });
    });
  });
}
