import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { CallScope } from "../../server/http/api";
import { createTestApp, loginAs, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, freezeDate, handleRaw, HOUR, loginRequest, MINUTE, postLogin, setDate, tableText } from "../helpers/fixtures";

const INFO = "/api/v1/auth/user/info";

function parseSetCookie(header: string | null) {
  expect(header).not.toBeNull();
  const [pair, ...attributes] = (header as string).split(";").map((p) => p.trim());
  const index = pair.indexOf("=");
  return {
    name: pair.slice(0, index),
    value: decodeURIComponent(pair.slice(index + 1)),
    attributes: attributes.map((a) => a.toLowerCase()),
  };
}

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let userCount = 0;

    /** A fresh user (past the first-login change) and its password. */
    async function newUser(status = 1) {
      const userName = `sess${++userCount}`;
      const password = `Sess-Pass-${userCount}-2026`;
      await createUser(app, { userName, password, status });
      return { userName, password };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
    });
    afterAll(async () => {
      await app?.close();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    describe("tokens", () => {
      test("a token carries at least 128 random bits and every login gets a new one", async () => {
        const { userName, password } = await newUser();
        const tokens = [];
        for (let i = 0; i < 3; i++) tokens.push(await loginAs(app, userName, password));
        for (const token of tokens) {
          expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(token.length).toBeGreaterThanOrEqual(22);
        }
        expect(new Set(tokens).size).toBe(3);
        // Each is a session of its own.
        for (const token of tokens) expect((await app.call("GET", INFO, { token })).body.status).toBe(200);
      });

      test("the session table keeps only a hash of the token", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        const text = await tableText(app, "session");
        expect(text).not.toContain(token);
        expect(text).not.toContain(Buffer.from(token).toString("base64"));
        const rows = await app.database.db.selectFrom("session").select("token_hash").execute();
        for (const row of rows) expect(row.token_hash).not.toBe(token);
      });

      test("the token is accepted from the Authorization header and from the Admin-Token cookie", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        const header = await app.call<{ userName: string }>("GET", INFO, { token });
        expect(header.body.status).toBe(200);
        expect(header.body.data.userName).toBe(userName);
        const cookie = await app.call<{ userName: string }>("GET", INFO, { cookie: `theme=dark; Admin-Token=${token}; x=1` });
        expect(cookie.body.status).toBe(200);
        expect(cookie.body.data.userName).toBe(userName);
        const lowerBearer = await app.call("GET", INFO, { headers: { Authorization: `bearer ${token}` } });
        expect(lowerBearer.body.status).toBe(200);
      });

      test("without a token the answer is 401", async () => {
        const result = await app.call("GET", INFO);
        expect(result.http).toBe(401);
        expect(result.body.status).toBe(401);
        expect(result.body.data).toBeNull();
        const emptyCookie = await app.call("GET", INFO, { cookie: "Admin-Token=" });
        expect(emptyCookie.body.status).toBe(401);
      });

      test("a garbage token gets 50008", async () => {
        for (const token of ["garbage", "a".repeat(43), "' or 1=1 --"]) {
          const header = await app.call("GET", INFO, { token });
          expect(header.http).toBe(401);
          expect(header.body.status).toBe(50008);
        }
        const cookie = await app.call("GET", INFO, { cookie: "Admin-Token=garbage" });
        expect(cookie.body.status).toBe(50008);
      });

      test("a token whose user was disabled gets 50008", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        expect((await app.call("GET", INFO, { token })).body.status).toBe(200);
        await app.database.db.updateTable("user").set({ status: 2 }).where("user_name", "=", userName).execute();
        const result = await app.call("GET", INFO, { token });
        expect(result.http).toBe(401);
        expect(result.body.status).toBe(50008);
      });

      test("a token of a disabled tenant gets 50008", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        await app.database.db.updateTable("tenant").set({ status: 0 }).where("id", "=", 1).execute();
        try {
          expect((await app.call("GET", INFO, { token })).body.status).toBe(50008);
        } finally {
          await app.database.db.updateTable("tenant").set({ status: 1 }).where("id", "=", 1).execute();
        }
        expect((await app.call("GET", INFO, { token })).body.status).toBe(200);
      });
    });

    describe("cookie", () => {
      test("login sets an HttpOnly, SameSite=Lax, Path=/ cookie, not Secure over http", async () => {
        const { userName, password } = await newUser();
        const result = await postLogin(app, userName, password);
        const cookie = parseSetCookie(result.headers.get("Set-Cookie"));
        expect(cookie.name).toBe("Admin-Token");
        expect(cookie.value).toBe(result.body.data.token);
        expect(cookie.attributes).toContain("httponly");
        expect(cookie.attributes).toContain("samesite=lax");
        expect(cookie.attributes).toContain("path=/");
        expect(cookie.attributes).not.toContain("secure");
        const maxAge = cookie.attributes.find((a) => a.startsWith("max-age="));
        expect(Number(maxAge?.slice(8))).toBe(12 * 3600);
      });

      test("over https the cookie is Secure too", async () => {
        const { userName, password } = await newUser();
        const response = await handleRaw(
          app,
          loginRequest("https://canteen.test/login?captcha=&checkKey=", userName, password, { Origin: "https://canteen.test" }),
        );
        expect(response.http).toBe(200);
        const token = (JSON.parse(response.text) as { data: { token: string } }).data.token;
        const cookie = parseSetCookie(response.headers.get("Set-Cookie"));
        expect(cookie.value).toBe(token);
        expect(cookie.attributes).toContain("secure");
        expect(cookie.attributes).toContain("httponly");
        expect(cookie.attributes).toContain("samesite=lax");
        expect(cookie.attributes).toContain("path=/");
      });
    });

    describe("expiry", () => {
      test("an idle token expires after 120 minutes by default", async () => {
        expect(app.config.SESSION_IDLE_MINUTES).toBe(120);
        const { userName, password } = await newUser();
        const t0 = Date.now();
        freezeDate(t0);
        const token = await loginAs(app, userName, password);
        const untouched = await loginAs(app, userName, password);
        setDate(t0 + 119 * MINUTE);
        expect((await app.call("GET", INFO, { token })).body.status).toBe(200);
        setDate(t0 + 121 * MINUTE);
        const idle = await app.call("GET", INFO, { token: untouched });
        expect(idle.http).toBe(401);
        expect(idle.body.status).toBe(50014);
        // Use refreshes the idle clock.
        setDate(t0 + 119 * MINUTE + 119 * MINUTE);
        expect((await app.call("GET", INFO, { token })).body.status).toBe(200);
        setDate(t0 + 238 * MINUTE + 121 * MINUTE);
        const result = await app.call("GET", INFO, { token });
        expect(result.http).toBe(401);
        expect(result.body.status).toBe(50014);
      });

      test("a token expires after 12 hours even when used every hour", async () => {
        expect(app.config.SESSION_ABSOLUTE_HOURS).toBe(12);
        const { userName, password } = await newUser();
        const t0 = Date.now();
        freezeDate(t0);
        const token = await loginAs(app, userName, password);
        for (let hour = 1; hour < 12; hour++) {
          setDate(t0 + hour * HOUR);
          expect((await app.call("GET", INFO, { token })).body.status, `hour ${hour}`).toBe(200);
        }
        setDate(t0 + 12 * HOUR);
        const result = await app.call("GET", INFO, { token });
        expect(result.http).toBe(401);
        expect(result.body.status).toBe(50014);
      });

      test("SESSION_IDLE_MINUTES and SESSION_ABSOLUTE_HOURS set the limits", async () => {
        const custom = await createTestApp(dialect, { SESSION_IDLE_MINUTES: "10", SESSION_ABSOLUTE_HOURS: "1" });
        try {
          await createUser(custom, { userName: "limits", password: "Limits-Pass-2026" });
          const t0 = Date.now();
          freezeDate(t0);
          const idle = await loginAs(custom, "limits", "Limits-Pass-2026");
          const busy = await loginAs(custom, "limits", "Limits-Pass-2026");
          for (let minute = 9; minute < 60; minute += 9) {
            setDate(t0 + minute * MINUTE);
            expect((await custom.call("GET", INFO, { token: busy })).body.status, `minute ${minute}`).toBe(200);
          }
          expect((await custom.call("GET", INFO, { token: idle })).body.status).toBe(50014);
          setDate(t0 + 60 * MINUTE);
          expect((await custom.call("GET", INFO, { token: busy })).body.status).toBe(50014);
        } finally {
          vi.useRealTimers();
          await custom.close();
        }
      });
    });

    describe("logout", () => {
      test("after POST /logout the token gets 50014 and the cookie is cleared", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        const other = await loginAs(app, userName, password);
        const result = await app.call("POST", "/logout", { token });
        expect(result.http).toBe(200);
        expect(result.body.status).toBe(200);
        const cleared = parseSetCookie(result.headers.get("Set-Cookie"));
        expect(cleared.name).toBe("Admin-Token");
        expect(cleared.value).toBe("");
        expect(cleared.attributes).toContain("max-age=0");

        const after = await app.call("GET", INFO, { token });
        expect(after.http).toBe(401);
        expect(after.body.status).toBe(50014);
        // Only that terminal signs out.
        expect((await app.call("GET", INFO, { token: other })).body.status).toBe(200);
      });

      test("logout works with the cookie too", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        const result = await app.call("POST", "/logout", { cookie: `Admin-Token=${token}`, headers: { Origin: ORIGIN } });
        expect(result.body.status).toBe(200);
        expect((await app.call("GET", INFO, { cookie: `Admin-Token=${token}` })).body.status).toBe(50014);
      });

      test("inside one page request, calls after a sign-out see it although they share one authentication", async () => {
        const { userName, password } = await newUser();
        const token = await loginAs(app, userName, password);
        const scope = new CallScope();
        const call = async (method: "GET" | "POST", path: string) => {
          const request = new Request(`${ORIGIN}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
          return (await (await app.api.handle(request, "127.0.0.1", scope)).json()).status;
        };
        expect(await Promise.all([call("GET", INFO), call("GET", INFO)])).toEqual([200, 200]);
        expect(scope.sessions.size).toBe(1);
        expect(await call("POST", "/logout")).toBe(200);
        expect(scope.sessions.size).toBe(0);
        expect(await call("GET", INFO)).toBe(50014);
      });

      test("logout without a token or with a garbage one still answers 200", async () => {
        expect((await app.call("POST", "/logout")).body.status).toBe(200);
        expect((await app.call("POST", "/logout", { token: "garbage" })).body.status).toBe(200);
      });
    });
  });
}
