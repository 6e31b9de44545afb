import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { ADMIN_PASSWORD, NEW_ADMIN_PASSWORD, postgresSchema, postgresUrl, processPorts, send, signIn, spawnServer, stopServer, waitHealthy, type ServerProcess } from "./support/processes";
import { startProxy } from "./support/proxy";

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const RATE_LIMIT = 6;

/** The code of a captcha another instance issued, found from its hash in the shared database (4 of 32 letters). */
function solveCaptcha(checkKey: string, codeHash: string): string {
  for (const a of ALPHABET) for (const b of ALPHABET) for (const c of ALPHABET) for (const d of ALPHABET) {
    const code = a + b + c + d;
    if (createHash("sha256").update(`${checkKey}:${code}`).digest("hex") === codeHash) return code;
  }
  throw new Error("captcha not found");
}

test.describe("two instances on one PostgreSQL database behind a proxy", () => {
  test.skip(!postgresUrl, "TEST_DATABASE_URL is not set");
  test.setTimeout(180_000);

  test("they migrate once, share sign-in, captcha, tickets, settings, the complaint poll, the rate limit and the lockout", async () => {
    const pgSchema = await postgresSchema();
    const env = { DATABASE_URL: pgSchema.url, CANTEEN_CAPTCHA: "on", TRUST_PROXY: "on", LOGIN_RATE_PER_MINUTE: String(RATE_LIMIT) };
    // Started at the same moment on a new database: both migrate and seed.
    const servers: ServerProcess[] = [spawnServer(processPorts.a, env), spawnServer(processPorts.b, env)];
    const [a, b] = servers;
    const proxy = await startProxy(processPorts.proxy, [a.port, b.port]);
    const q = async <T = Record<string, unknown>>(text: string, values?: unknown[]) => (await pgSchema.query(text, values)).rows as T[];
    const captchaFrom = async (port: number, checkKey: string, clientIp: string) => {
      const issued = await send(port, "GET", `/api/v1/auth/captcha?checkKey=${checkKey}`, { headers: { "X-Forwarded-For": clientIp } });
      expect(issued.status).toBe(200);
      const [row] = await q<{ code_hash: string }>(`select code_hash from ${pgSchema.schema}.captcha where check_key = $1`, [checkKey]);
      return solveCaptcha(checkKey, row.code_hash);
    };
    let keys = 0;
    const login = async (port: number, userName: string, password: string, clientIp: string, captchaPort: number) => {
      const checkKey = `instances-${Date.now()}-${keys++}`;
      const code = await captchaFrom(captchaPort, checkKey, clientIp);
      return send(port, "POST", `/login?checkKey=${checkKey}&captcha=${code}`, {
        body: { username: `ENC:${Buffer.from(userName).toString("base64")}`, password: `ENC:${Buffer.from(password).toString("base64")}` },
        headers: { "X-Forwarded-For": clientIp },
      });
    };
    try {
      await Promise.all(servers.map((s) => waitHealthy(s)));

      // Migrations applied once each, the first admin and the dictionaries seeded once.
      const migrationFiles = readdirSync("server/db/migrations").filter((f) => /^\d{4}_.+\.ts$/.test(f)).length;
      const migrations = await q<{ name: string; n: string }>(`select name, count(*) as n from ${pgSchema.schema}.kysely_migration group by name`);
      expect(migrations).toHaveLength(migrationFiles);
      expect(migrations.filter((m) => Number(m.n) !== 1)).toEqual([]);
      expect(await q(`select id from ${pgSchema.schema}."user" where user_name = 'admin'`)).toHaveLength(1);
      expect(await q(`select dict_code from ${pgSchema.schema}.dict group by dict_code having count(*) > 1`)).toEqual([]);
      expect(await q(`select dict_code, item_value from ${pgSchema.schema}.dict_item group by dict_code, item_value having count(*) > 1`)).toEqual([]);
      expect(servers.filter((s) => s.output().includes("首次启动"))).toHaveLength(1);

      // Each instance leased a number of its own.
      const leased = await q<{ instance_no: number }>(`select instance_no from ${pgSchema.schema}.instance_lease order by instance_no`);
      expect(leased.map((l) => l.instance_no)).toEqual([0, 1]);
      const numbers = servers.map((s) => Number(s.output().match(/实例编号 (\d+)/)?.[1]));
      expect([...numbers].sort()).toEqual([0, 1]);

      // Through the proxy: the captcha comes from one instance, the sign-in goes to the other.
      const checkKey = `proxy-${Date.now()}`;
      const picture = await send(processPorts.proxy, "GET", `/api/v1/auth/captcha?checkKey=${checkKey}`);
      const [row] = await q<{ code_hash: string }>(`select code_hash from ${pgSchema.schema}.captcha where check_key = $1`, [checkKey]);
      const signedIn = await send(processPorts.proxy, "POST", `/login?checkKey=${checkKey}&captcha=${solveCaptcha(checkKey, row.code_hash)}`, {
        body: { username: `ENC:${Buffer.from("admin").toString("base64")}`, password: `ENC:${Buffer.from(ADMIN_PASSWORD).toString("base64")}` },
      });
      expect(signedIn.body?.status).toBe(200);
      expect(signedIn.headers["x-upstream"]).not.toBe(picture.headers["x-upstream"]);
      const token = (signedIn.body?.data as { token: string }).token;
      expect((await send(processPorts.proxy, "POST", "/api/v1/auth/user/modifyPasswd", { token, body: { oldPassword: ADMIN_PASSWORD, newPassword: NEW_ADMIN_PASSWORD } })).body?.status).toBe(200);

      // The session is good on both.
      for (const s of servers) expect((await send(s.port, "GET", "/api/v1/auth/user/info", { token })).body?.status).toBe(200);

      // A sign-in on each instance is logged with an id carrying that instance's number.
      for (const [i, s] of servers.entries()) {
        const own = await login(s.port, "admin", NEW_ADMIN_PASSWORD, `10.9.0.${i}`, s.port);
        expect(own.body?.status).toBe(200);
      }
      const logged = await q<{ id: string; ip: string }>(`select id, ip from ${pgSchema.schema}.login_log where ip like '10.9.0.%' order by ip`);
      expect(logged.map((r) => [r.ip, Math.floor(Number(r.id) / 64) % 64])).toEqual(numbers.map((n, i) => [`10.9.0.${i}`, n]));

      // Settings (the tab bar among them) saved on one are read on the other.
      expect((await send(a.port, "POST", "/api/v1/auth/user/saveSettings", { token, body: { tagsView: false, theme: "#12ab34" } })).body?.status).toBe(200);
      const info = await send(b.port, "GET", "/api/v1/auth/user/info", { token });
      expect(info.body?.data).toMatchObject({ settings: { tagsView: false, theme: "#12ab34" } });

      // A ticket asked of one is exchanged on the other, once (from the page of the host it was issued for, decision 011).
      const ticket = (await send(a.port, "POST", "/api/v1/auth/ticket", { token, body: { path: "/admin/dashboard" } })).body?.data as { ticket: string };
      const fromSite = { Origin: `http://127.0.0.1:${a.port}` };
      const exchanged = await send(b.port, "POST", "/api/v1/auth/ticket/exchange", { body: { ticket: ticket.ticket }, headers: fromSite });
      expect(exchanged.body?.status).toBe(200);
      expect(String(exchanged.headers["set-cookie"])).toContain("Admin-Token=");
      expect((await send(a.port, "POST", "/api/v1/auth/ticket/exchange", { body: { ticket: ticket.ticket }, headers: fromSite })).body?.status).toBe(401);

      // The complaint poll counts the same on both; processed on one, gone from the other's count.
      const now = Date.now();
      await q(
        `insert into ${pgSchema.schema}.meal_order_complaints (tenant_id, id, order_no, content, status, created_at, updated_at) values (1, 990001, 'NO-1', '菜凉了', 0, $1, $1)`,
        [now],
      );
      for (const s of servers) {
        expect((await send(s.port, "GET", "/api/v1/zhct/mealOrderComplaints/getComplaintsCount", { token })).body?.data).toEqual({ complaintsCount: "1", maxCreatedTime: now });
      }
      expect((await send(b.port, "POST", "/api/v1/zhct/mealOrderComplaints/process", { token, body: { id: 990001, result: "processed", reply: "已处理" } })).body?.status).toBe(200);
      expect((await send(a.port, "GET", "/api/v1/zhct/mealOrderComplaints/getComplaintsCount", { token })).body?.data).toMatchObject({ complaintsCount: "0" });

      // The per-address sign-in limit counts attempts on both instances together.
      const limited = "10.7.7.7";
      for (let i = 0; i < RATE_LIMIT; i++) {
        const attempt = await signIn(servers[i % 2].port, "admin", "wrong", { "X-Forwarded-For": limited });
        expect(attempt.status).toBe(400);
      }
      for (const s of servers) expect((await signIn(s.port, "admin", "wrong", { "X-Forwarded-For": limited })).status).toBe(429);
      // Another address is not limited.
      expect((await signIn(b.port, "admin", "wrong", { "X-Forwarded-For": "10.7.7.8" })).status).toBe(400);

      // The lockout after five failures counts failures on both instances (each from its own address).
      const failures = [];
      for (let i = 0; i < 5; i++) failures.push(await login(servers[i % 2].port, "no.such.user", "wrong-pass", `10.8.0.${i}`, servers[(i + 1) % 2].port));
      expect(failures.slice(0, 4).map((f) => f.body?.message)).toEqual(Array(4).fill("用户名或密码错误"));
      expect(failures[4].body?.message).toContain("锁定");
      const refused = await login(b.port, "no.such.user", "wrong-pass", "10.8.1.1", a.port);
      expect(refused.status).toBe(429);

      // Signing out on one ends the session on the other.
      expect((await send(a.port, "POST", "/logout", { token })).body?.status).toBe(200);
      expect((await send(b.port, "GET", "/api/v1/auth/user/info", { token })).status).toBe(401);
    } finally {
      await proxy.close();
      for (const s of servers) await stopServer(s);
      await pgSchema.drop();
    }
  });
});
