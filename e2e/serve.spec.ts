import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { expect, test } from "@playwright/test";
import {
  ADMIN_PASSWORD,
  adminSession,
  postgresSchema,
  postgresUrl,
  processPorts,
  send,
  signIn,
  spawnServer,
  stopServer,
  waitHealthy,
  type ServerProcess,
} from "./support/processes";

/**
 * `react-router-serve ./build/server/index.js` (decision 020): the same product as `npm start`, and the differences
 * the decision lists, each shown here. The browser journeys run in the `react-router-serve` project.
 */

const serve = (port: number, env: Record<string, string>) => spawnServer(port, env, { command: "serve" });

function freshSqlite() {
  const dir = mkdtempSync(join(tmpdir(), "canteen-serve-"));
  return { url: join(dir, "canteen.db"), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A raw GET with the headers given; the body as bytes. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** Writes a raw request line; resolves with the status line, or null when nothing came back within `ms`. */
function rawRequest(port: number, text: string, ms = 1500): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, ms);
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\r\n")) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer.split("\r\n")[0]);
      }
    });
    socket.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

test.describe("react-router-serve", () => {
  test.setTimeout(90_000);

  for (const dialect of ["sqlite", "postgres"] as const) {
    test(`migrates and seeds a new ${dialect} database at start and serves the API, pages and built files`, async () => {
      test.skip(dialect === "postgres" && !postgresUrl, "TEST_DATABASE_URL is not set");
      const sqlite = dialect === "sqlite" ? freshSqlite() : null;
      const pgSchema = dialect === "postgres" ? await postgresSchema() : null;
      const server = serve(processPorts.a, { DATABASE_URL: sqlite?.url ?? (pgSchema?.url as string) });
      try {
        await waitHealthy(server);
        expect(server.output()).toContain("首次启动：管理员账号 admin");
        expect(server.output()).toContain("[react-router-serve]");
        if (dialect === "postgres") expect(server.output()).toMatch(/实例编号 \d+/);
        const token = await adminSession(server.port);
        const info = await send(server.port, "GET", "/api/v1/auth/user/info", { token });
        expect(info.body?.status).toBe(200);
        expect(info.headers["cache-control"]).toBe("no-store");
        expect(info.headers["content-security-policy"]).toContain("default-src 'self'");

        // A page: rendered on the server, its inline scripts under the response's nonce, compressed.
        const page = await get(server.port, "/login", { "Accept-Encoding": "gzip" });
        expect(page.status).toBe(200);
        expect(page.headers["content-encoding"]).toBe("gzip");
        const html = gunzipSync(page.body).toString("utf8");
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(String(page.headers["content-security-policy"] ?? ""))?.[1];
        expect(nonce).toBeTruthy();
        expect(html).toContain(`nonce="${nonce}"`);
        expect(html).toContain("智慧餐厅后台管理");
        for (const name of ["x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-opener-policy"]) expect(page.headers[name]).toBeTruthy();
        expect(page.headers["cache-control"]).toBe("no-store");
        expect(page.headers["x-powered-by"]).toBeUndefined();

        // A built file is served by react-router-serve itself: cached for a year and compressed, but without our
        // security headers (the difference decision 020 names; nginx adds them in the README's Deploy section).
        // The largest stylesheet: compression leaves files under 1 KB as they are.
        const css = readdirSync("build/client/assets")
          .filter((f) => f.endsWith(".css"))
          .sort((a, b) => statSync(join("build/client/assets", b)).size - statSync(join("build/client/assets", a)).size)[0];
        const asset = await get(server.port, `/assets/${css}`, { "Accept-Encoding": "gzip" });
        expect(asset.status).toBe(200);
        expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(asset.headers["content-encoding"]).toBe("gzip");
        expect(asset.headers["content-security-policy"]).toBeUndefined();
        expect(asset.headers["x-content-type-options"]).toBeUndefined();

        // The sign-out the page posts, and the redirect rule: a redirect to another site is turned back on site.
        const away = await send(server.port, "GET", "/login?redirect=https://evil.example/x", { headers: { Cookie: `Admin-Token=${token}` } });
        expect(away.status).toBeGreaterThanOrEqual(300);
        expect(away.status).toBeLessThan(400);
        expect(away.headers.location ?? "").not.toContain("evil.example");
        const logout = await send(server.port, "POST", "/logout", { token });
        expect(logout.body?.status).toBe(200);
        expect((await send(server.port, "GET", "/api/v1/auth/user/info", { token })).body?.status).toBe(50014);
      } finally {
        await stopServer(server);
        sqlite?.dispose();
        await pgSchema?.drop();
      }
    });
  }

  test("a bad setting or a port in use stops it with one line, as npm start does", async () => {
    const bad = serve(processPorts.spare, { SESSION_IDLE_MINUTES: "abc" });
    const { code } = await bad.exited;
    expect(code).toBe(1);
    expect(bad.output().trim()).toMatch(/^配置错误：SESSION_IDLE_MINUTES .+$/);

    const sqlite = freshSqlite();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(processPorts.spare, "127.0.0.1", resolve));
    const busy = serve(processPorts.spare, { DATABASE_URL: sqlite.url });
    try {
      const exited = await busy.exited;
      expect(exited.code, busy.output()).toBe(1);
      const lines = busy.output().trim().split("\n").filter((l) => !/^(首次启动|警告)：|^实例编号 \d+$/.test(l));
      expect(lines, busy.output()).toHaveLength(1);
      expect(lines[0]).toMatch(/^启动失败：.*端口/);
      expect(busy.output()).not.toMatch(/^\s+at /m);
    } finally {
      blocker.close();
      sqlite.dispose();
    }
  });

  test("behind a proxy (TRUST_PROXY=on) it reads the forwarded scheme and client", async () => {
    const sqlite = freshSqlite();
    const server = serve(processPorts.a, { DATABASE_URL: sqlite.url, TRUST_PROXY: "on", LOGIN_RATE_PER_MINUTE: "2" });
    try {
      await waitHealthy(server);
      const viaHttps = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "canteen.example", "X-Forwarded-For": "10.1.0.1" };
      const first = await signIn(server.port, "admin", ADMIN_PASSWORD, viaHttps);
      expect(first.body?.status).toBe(200);
      expect(first.headers["set-cookie"]?.join(";")).toMatch(/Admin-Token=.*; Secure/);
      expect(first.headers["strict-transport-security"]).toBe("max-age=31536000");
      // The sign-in rate is counted per forwarded client, not per proxy connection.
      expect((await signIn(server.port, "admin", ADMIN_PASSWORD, viaHttps)).body?.status).toBe(200);
      expect((await signIn(server.port, "admin", ADMIN_PASSWORD, viaHttps)).body?.status).not.toBe(200);
      expect((await signIn(server.port, "admin", ADMIN_PASSWORD, { ...viaHttps, "X-Forwarded-For": "10.1.0.2" })).body?.status).toBe(200);
    } finally {
      await stopServer(server);
      sqlite.dispose();
    }
  });

  test("a request a web Request cannot carry gets no answer, and the process lives on (npm start answers 405/400)", async () => {
    const sqlite = freshSqlite();
    const server = serve(processPorts.a, { DATABASE_URL: sqlite.url });
    const own = spawnServer(processPorts.b, { DATABASE_URL: join(sqlite.url + "-own") });
    try {
      await Promise.all([waitHealthy(server), waitHealthy(own)]);
      expect(await rawRequest(server.port, "TRACE /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).toBeNull();
      expect(await rawRequest(own.port, "TRACE /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 405/);
      expect(await rawRequest(server.port, "GET /login HTTP/1.1\r\nHost: a b\r\n\r\n")).toBeNull();
      expect(server.output()).toContain("未处理的请求错误（进程继续运行）");
      expect((await get(server.port, "/healthz")).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await Promise.all([stopServer(server), stopServer(own)]);
      sqlite.dispose();
    }
  });

  test("uploads are stored and served back; a body too large is refused part way and the process lives on", async () => {
    const sqlite = freshSqlite();
    const server = serve(processPorts.a, { DATABASE_URL: sqlite.url, UPLOAD_DIR: join(sqlite.url, "..", "uploads") });
    try {
      await waitHealthy(server);
      const token = await adminSession(server.port);
      const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==", "base64");
      const form = new FormData();
      form.append("file", new Blob([png], { type: "image/png" }), "a.png");
      const upload = await fetch(`http://127.0.0.1:${server.port}/api/v1/sys/file/upload?kind=image`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
      const uploaded = (await upload.json()) as { status: number; data: { url: string } };
      expect(uploaded.status).toBe(200);
      const file = await get(server.port, uploaded.data.url, { Authorization: `Bearer ${token}` });
      expect(file.status).toBe(200);
      expect(Buffer.compare(file.body, png)).toBe(0);
      expect(file.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");

      // Sent without a length, so the refusal comes while reading: react-router-serve's request stream must not be
      // cancelled under it (it would throw outside any handler and end the process). 20 MB, so the client is still
      // sending when the answer goes out: its connection may close only once the rest was read, or the client gets
      // EPIPE instead of the 413 (a CI run did with 3 MB).
      const big = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 320; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(97));
          controller.close();
        },
      });
      const refused = await fetch(`http://127.0.0.1:${server.port}/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: big,
        duplex: "half",
      } as RequestInit);
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as { message: string }).message).toContain("1 MB");
      await new Promise((r) => setTimeout(r, 300));
      expect((await get(server.port, "/healthz")).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await stopServer(server);
      sqlite.dispose();
    }
  });

  test("SIGTERM: every request received is answered, no acknowledged write is lost, the process exits 0", async () => {
    const sqlite = freshSqlite();
    const server: ServerProcess = serve(processPorts.a, { DATABASE_URL: sqlite.url, SHUTDOWN_TIMEOUT_SECONDS: "5" });
    try {
      await waitHealthy(server);
      const token = await adminSession(server.port);
      const sent: { code: string; sentAt: number; status?: number; error?: string }[] = [];
      let signalAt = Number.POSITIVE_INFINITY;
      const writer = async (w: number) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; ; i++) {
          const entry: { code: string; sentAt: number; status?: number; error?: string } = { code: `RS${w}x${i}`, sentAt: Date.now() };
          sent.push(entry);
          try {
            const answer = await send(server.port, "POST", "/api/v1/auth/org/create", {
              token,
              agent,
              body: { orgName: `停机${w}-${i}`, orgCode: entry.code, orgType: "org", status: "1" },
            });
            entry.status = answer.body?.status;
          } catch (error) {
            entry.error = (error as NodeJS.ErrnoException).code ?? String(error);
            if (Date.now() > signalAt) break;
          }
        }
        agent.destroy();
      };
      const writers = [0, 1, 2].map(writer);
      // The signal comes while writes are in flight: once each writer has had a few answered.
      await expect.poll(() => sent.filter((s) => s.status !== undefined).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(15);
      signalAt = Date.now();
      server.child.kill("SIGTERM");
      const { code, at } = await server.exited;
      await Promise.all(writers);
      expect(code, server.output()).toBe(0);
      expect(at - signalAt).toBeLessThan(5000);
      expect(server.output()).toContain("正在停止");
      expect(server.output()).toContain("已停止");
      const before = sent.filter((s) => s.sentAt < signalAt);
      expect(before.length).toBeGreaterThan(5);
      expect(before.filter((s) => s.status !== 200).map((s) => `${s.code} ${s.status} ${s.error}`)).toEqual([]);
      const db = new SQLite(sqlite.url, { readonly: true });
      const stored = new Set((db.prepare("select org_code from org").all() as { org_code: string }[]).map((r) => r.org_code));
      db.close();
      expect(sent.filter((s) => s.status === 200 && !stored.has(s.code)).map((s) => s.code)).toEqual([]);
    } finally {
      await stopServer(server);
      sqlite.dispose();
    }
  });
});
