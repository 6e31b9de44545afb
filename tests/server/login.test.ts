import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { encodeLoginField } from "../../server/modules/auth/session";
import { ADMIN_PASSWORD, createTestApp, loginBody, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, expectNoInternals, freezeDate, MINUTE, postLogin, setDate, tableText } from "../helpers/fixtures";

const BAD_CAPTCHA = "验证码错误或已过期";

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await createTestApp(dialect);
    });
    afterAll(async () => {
      await app?.close();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    describe("POST /login", () => {
      test("ENC: encoded credentials sign in and return a token", async () => {
        const result = await postLogin(app, "admin", ADMIN_PASSWORD);
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        expect(typeof result.body.data.token).toBe("string");
        expect(result.body.data.token.length).toBeGreaterThan(0);
        expect(result.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      });

      test("the user name is trimmed", async () => {
        const result = await postLogin(app, "  admin  ", ADMIN_PASSWORD);
        expect(result.body.status).toBe(200);
        expect(result.body.data.token).toBeTruthy();
      });

      test("the password is not trimmed", async () => {
        const result = await postLogin(app, "admin", ` ${ADMIN_PASSWORD} `);
        expect(result.body.status).toBe(400);
      });

      test("UTF-8 text survives the encoding", async () => {
        await createUser(app, { userName: "食堂经理", password: "密码-Pass-2026" });
        expect((await postLogin(app, "食堂经理", "密码-Pass-2026")).body.status).toBe(200);
      });

      test("values without the ENC: prefix are refused with 400", async () => {
        for (const body of [
          { username: "admin", password: ADMIN_PASSWORD },
          { username: encodeLoginField("admin"), password: ADMIN_PASSWORD },
          { username: "admin", password: encodeLoginField(ADMIN_PASSWORD) },
          { username: "ENC:not base64!", password: encodeLoginField(ADMIN_PASSWORD) },
        ]) {
          const result = await app.call<{ token?: string }>("POST", "/login?captcha=&checkKey=", { body });
          expect(result.http).toBe(400);
          expect(result.body.status).toBe(400);
          expect(result.body.message).toMatch(/[\u4e00-\u9fff]/);
          expect(result.headers.get("Set-Cookie")).toBeNull();
          expectNoInternals(result.body);
        }
      });

      test("a wrong password and an unknown user get the same answer", async () => {
        await createUser(app, { userName: "enumcheck", password: "Enum-Pass-2026" });
        const wrong = await postLogin(app, "enumcheck", "not-the-password");
        const unknown = await postLogin(app, "enumcheck-nobody", "not-the-password");
        expect(wrong.http).toBe(400);
        expect(unknown.http).toBe(wrong.http);
        expect(unknown.body).toEqual(wrong.body);
        expect(wrong.body.message).toBe("用户名或密码错误");
      });

      test("a disabled user cannot sign in", async () => {
        await createUser(app, { userName: "disabled01", password: "Disabled-Pass-2026", status: 2 });
        const result = await postLogin(app, "disabled01", "Disabled-Pass-2026");
        expect(result.http).toBe(403);
        expect(result.body.data).toBeNull();
        expect(result.headers.get("Set-Cookie")).toBeNull();
      });
    });

    describe("captcha", () => {
      let captchaApp: TestApp;
      beforeAll(async () => {
        captchaApp = await createTestApp(dialect, { CANTEEN_CAPTCHA: "on" });
      });
      afterAll(async () => {
        await captchaApp?.close();
      });

      let keyCount = 0;
      async function issue(code: string) {
        const checkKey = `check-key-${dialect}-${++keyCount}`;
        captchaApp.setCaptcha(code);
        const response = await captchaApp.api.handle(
          new Request(`${ORIGIN}/api/v1/auth/captcha?checkKey=${checkKey}`),
          "127.0.0.1",
        );
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("image/svg+xml");
        expect(response.headers.get("Cache-Control")).toBe("no-store");
        const svg = await response.text();
        expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
        // The picture draws the letters as paths; the code itself is not in the text.
        expect(svg).not.toContain(code);
        return checkKey;
      }

      test("the captcha is an SVG picture", async () => {
        await issue("XYZW");
      });

      test("a wrong code is refused", async () => {
        const checkKey = await issue("XYZW");
        const result = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "ABCD", checkKey });
        expect(result.http).toBe(400);
        expect(result.body.message).toBe(BAD_CAPTCHA);
        expect(result.headers.get("Set-Cookie")).toBeNull();
      });

      test("the right code works, in any letter case", async () => {
        const upper = await issue("XYZW");
        expect((await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey: upper })).body.status).toBe(200);
        const lower = await issue("XYZW");
        const result = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "xyzw", checkKey: lower });
        expect(result.body.status).toBe(200);
        expect(result.body.data.token).toBeTruthy();
      });

      test("a code belongs to its check key", async () => {
        const first = await issue("XYZW");
        await issue("QRST");
        const result = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "QRST", checkKey: first });
        expect(result.body.message).toBe(BAD_CAPTCHA);
      });

      test("a code works once", async () => {
        const checkKey = await issue("XYZW");
        expect((await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey })).body.status).toBe(200);
        const again = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey });
        expect(again.http).toBe(400);
        expect(again.body.message).toBe(BAD_CAPTCHA);
      });

      test("a wrong guess uses the code up", async () => {
        const checkKey = await issue("XYZW");
        expect((await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZA", checkKey })).body.message).toBe(
          BAD_CAPTCHA,
        );
        const result = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey });
        expect(result.body.message).toBe(BAD_CAPTCHA);
      });

      test("a code expires after 5 minutes", async () => {
        const t0 = Date.now();
        freezeDate(t0);
        const fresh = await issue("XYZW");
        setDate(t0 + 5 * MINUTE - 1000);
        expect((await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey: fresh })).body.status).toBe(200);

        setDate(t0);
        const stale = await issue("XYZW");
        setDate(t0 + 5 * MINUTE + 1000);
        const result = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW", checkKey: stale });
        expect(result.http).toBe(400);
        expect(result.body.message).toBe(BAD_CAPTCHA);
      });

      test("a missing captcha or check key is refused", async () => {
        const checkKey = await issue("XYZW");
        const noCode = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { checkKey });
        expect(noCode.http).toBe(400);
        expect(noCode.body.message).toBe(BAD_CAPTCHA);
        const noKey = await postLogin(captchaApp, "admin", ADMIN_PASSWORD, { captcha: "XYZW" });
        expect(noKey.body.message).toBe(BAD_CAPTCHA);
        const noQuery = await captchaApp.call("POST", "/login", { body: loginBody("admin", ADMIN_PASSWORD) });
        expect(noQuery.http).toBe(400);
        expect(noQuery.body.message).toBe(BAD_CAPTCHA);
      });

      test("with CANTEEN_CAPTCHA off no captcha is needed", async () => {
        expect(app.config.CANTEEN_CAPTCHA).toBe(false);
        expect((await postLogin(app, "admin", ADMIN_PASSWORD)).body.status).toBe(200);
        const bare = await app.call("POST", "/login", { body: loginBody("admin", ADMIN_PASSWORD) });
        expect(bare.body.status).toBe(200);
      });
    });

    describe("brute-force protection", () => {
      async function fail(userName: string, times: number) {
        const results = [];
        for (let i = 0; i < times; i++) results.push(await postLogin(app, userName, `wrong-${i}`));
        return results;
      }

      test("five failures lock the name: the right password is refused next", async () => {
        await createUser(app, { userName: "lockme", password: "Lock-Me-2026" });
        const failures = await fail("lockme", 5);
        for (const result of failures) expect(result.http).toBe(400);
        const locked = await postLogin(app, "lockme", "Lock-Me-2026");
        expect(locked.http).toBe(429);
        expect(locked.body.status).toBe(429);
        expect(locked.body.message).toContain("锁定");
        expect(locked.headers.get("Set-Cookie")).toBeNull();
      });

      test("an unknown name locks the same way and with the same messages", async () => {
        await createUser(app, { userName: "known01", password: "Known-Pass-2026" });
        const known = await fail("known01", 6);
        const unknown = await fail("unknown01", 6);
        expect(unknown.map((r) => [r.http, r.body])).toEqual(known.map((r) => [r.http, r.body]));
        expect(unknown[5].http).toBe(429);
        expect(unknown[5].body.message).toContain("锁定");
      });

      test("the lock ends after 15 minutes", async () => {
        await createUser(app, { userName: "lockwait", password: "Lock-Wait-2026" });
        const t0 = Date.now();
        freezeDate(t0);
        await fail("lockwait", 5);
        setDate(t0 + 14 * MINUTE);
        expect((await postLogin(app, "lockwait", "Lock-Wait-2026")).http).toBe(429);
        setDate(t0 + 15 * MINUTE + 1000);
        const result = await postLogin(app, "lockwait", "Lock-Wait-2026");
        expect(result.body.status).toBe(200);
        expect(result.body.data.token).toBeTruthy();
      });

      test("failures older than 15 minutes do not count", async () => {
        await createUser(app, { userName: "slowguess", password: "Slow-Guess-2026" });
        const t0 = Date.now();
        freezeDate(t0);
        await fail("slowguess", 4);
        setDate(t0 + 16 * MINUTE);
        const [fifth] = await fail("slowguess", 1);
        expect(fifth.body.message).toBe("用户名或密码错误");
        expect((await postLogin(app, "slowguess", "Slow-Guess-2026")).body.status).toBe(200);
      });

      test("a success resets the failure count", async () => {
        await createUser(app, { userName: "resetme", password: "Reset-Me-2026" });
        await fail("resetme", 4);
        expect((await postLogin(app, "resetme", "Reset-Me-2026")).body.status).toBe(200);
        const after = await fail("resetme", 4);
        for (const result of after) expect(result.body.message).toBe("用户名或密码错误");
        expect((await postLogin(app, "resetme", "Reset-Me-2026")).body.status).toBe(200);
      });

      test("the lock is per name: other users still sign in", async () => {
        await createUser(app, { userName: "victim01", password: "Victim-Pass-2026" });
        await createUser(app, { userName: "bystander", password: "Bystander-2026" });
        await fail("victim01", 5);
        expect((await postLogin(app, "victim01", "Victim-Pass-2026")).http).toBe(429);
        expect((await postLogin(app, "bystander", "Bystander-2026")).body.status).toBe(200);
      });

      test("more than the allowed logins per minute from one address get 429", async () => {
        const limited = await createTestApp(dialect, { LOGIN_RATE_PER_MINUTE: "3" });
        try {
          const t0 = Date.now();
          freezeDate(t0);
          for (let i = 0; i < 3; i++) {
            expect((await postLogin(limited, "admin", `wrong-${i}`, { ip: "10.1.1.1" })).http).toBe(400);
          }
          const fourth = await postLogin(limited, "admin", ADMIN_PASSWORD, { ip: "10.1.1.1" });
          expect(fourth.http).toBe(429);
          expect(fourth.body.status).toBe(429);
          expect(fourth.body.message).toMatch(/[\u4e00-\u9fff]/);
          expect(fourth.headers.get("Set-Cookie")).toBeNull();

          expect((await postLogin(limited, "admin", ADMIN_PASSWORD, { ip: "10.2.2.2" })).body.status).toBe(200);

          setDate(t0 + MINUTE + 1000);
          expect((await postLogin(limited, "admin", ADMIN_PASSWORD, { ip: "10.1.1.1" })).body.status).toBe(200);
        } finally {
          vi.useRealTimers();
          await limited.close();
        }
      });
    });

    describe("login log", () => {
      test("every success and failure writes a row", async () => {
        await createUser(app, { userName: "logged01", password: "Logged-Pass-2026" });
        const before = Date.now();
        await postLogin(app, "logged01", "wrong-password", { ip: "192.0.2.10" });
        const success = await postLogin(app, "logged01", "Logged-Pass-2026", { ip: "192.0.2.11" });
        await postLogin(app, "ghost01", "whatever-it-is", { ip: "192.0.2.12" });
        const after = Date.now();

        const rows = await app.database.db
          .selectFrom("login_log")
          .select(["user_name", "ip", "result", "created_at", "tenant_id"])
          .where("user_name", "in", ["logged01", "ghost01"])
          .orderBy("created_at")
          .orderBy("id")
          .execute();
        expect(rows.map((r) => [r.user_name, r.ip, r.result])).toEqual([
          ["logged01", "192.0.2.10", "failure"],
          ["logged01", "192.0.2.11", "success"],
          ["ghost01", "192.0.2.12", "failure"],
        ]);
        for (const row of rows) {
          expect(Number(row.created_at)).toBeGreaterThanOrEqual(before);
          expect(Number(row.created_at)).toBeLessThanOrEqual(after);
        }
        expect(rows[1].tenant_id).toBe(1);
        expect(rows[2].tenant_id).toBeNull();

        const logText = await tableText(app, "login_log");
        const sessionText = await tableText(app, "session");
        for (const secret of [
          "Logged-Pass-2026",
          "wrong-password",
          "whatever-it-is",
          encodeLoginField("Logged-Pass-2026"),
          success.body.data.token,
        ]) {
          expect(logText).not.toContain(secret);
          expect(sessionText).not.toContain(secret);
        }
      });

      test("refusals of a locked name are logged too", async () => {
        await createUser(app, { userName: "logged02", password: "Logged-Pass-2026" });
        for (let i = 0; i < 6; i++) await postLogin(app, "logged02", "wrong-password");
        const rows = await app.database.db
          .selectFrom("login_log")
          .select("result")
          .where("user_name", "=", "logged02")
          .orderBy("created_at")
          .orderBy("id")
          .execute();
        expect(rows.map((r) => r.result)).toEqual(["failure", "failure", "failure", "failure", "failure", "locked"]);
      });
    });
  });
}
