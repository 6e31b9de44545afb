import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PORTS } from "./support/servers";

/** A server of this spec's own (its log is read), on a fresh database. */
const PORT = E2E_PORTS.main + 81;
const BASE = `http://127.0.0.1:${PORT}`;

/** Sends raw bytes on one connection and returns what came back before the server closed it (or `ms` passed). */
function rawExchange(head: string, body: Buffer | string, ms = 5_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, ms);
    socket.on("data", (chunk) => (text += chunk.toString("utf8")));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? undefined : reject(error)));
    socket.write(head);
    socket.write(body);
  });
}

test.describe("hostile input against the running server", () => {
  let dir: string;
  let log = "";
  let stop: () => Promise<void>;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "canteen-input-"));
    const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
      env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(PORT), DATABASE_URL: join(dir, "c.db"), CANTEEN_CAPTCHA: "off" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (c) => (log += c));
    child.stderr.on("data", (c) => (log += c));
    await expect.poll(() => log, { timeout: 30_000 }).toMatch(/已启动/);
    stop = async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    };
  });
  test.afterAll(async () => {
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  test("POST /login with no body, plain text or a multipart without boundary is a 400 envelope, not the HTML error page", async () => {
    for (const [type, body] of [
      [undefined, undefined],
      ["text/plain", "admin"],
      ["multipart/form-data", "--x\r\n\r\n"],
      ["application/xml", "<a/>"],
    ] as const) {
      const response = await fetch(`${BASE}/login`, { method: "POST", headers: type ? { "Content-Type": type } : {}, body });
      expect(response.status, `${type}`).toBe(400);
      expect(response.headers.get("Content-Type"), `${type}`).toMatch(/^application\/json/);
      expect((await response.json()).message, `${type}`).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  test("a page's POST that is not a readable form is a 400, and a real sign-in form still works", async () => {
    const broken = await fetch(`${BASE}/login`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=zz" },
      body: "--zz\r\nnot a part\r\n",
    });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toBe("请求体应为表单");
    const page = await fetch(`${BASE}/modify-password`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" });
    expect(page.status).toBe(400);
    const form = await fetch(`${BASE}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "username=admin&password=wrong",
      redirect: "manual",
    });
    expect(form.status).not.toBe(500);
    expect(form.status).toBeLessThan(500);
  });

  test("a 60 MB body is refused with a 413 envelope before it is sent, and the connection ends", async () => {
    const started = Date.now();
    const { text, closed } = await rawExchange(
      `POST /api/v1/auth/role/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n`,
      Buffer.alloc(1024, 0x20),
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/"status":413/);
    expect(text).toMatch(/请求体过大/);
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);

    const page = await rawExchange(
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n`,
      "username=a",
    );
    expect(page.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(page.closed).toBe(true);
  });

  test("a kept-alive connection idle for longer than Node's 5 s is still open, and its next request is answered on it", async () => {
    const socket = connect(PORT, "127.0.0.1");
    let text = "";
    let closed = false;
    socket.on("data", (chunk) => (text += chunk.toString("utf8")));
    socket.on("close", () => (closed = true));
    const ask = () => socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
    const answers = () => text.match(/HTTP\/1\.1 200/g)?.length ?? 0;
    ask();
    await expect.poll(answers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(closed).toBe(false);
    ask();
    await expect.poll(answers).toBe(2);
    socket.destroy();
  });

  test("clients that give up half-way and refused input leave no stack lines in the log", async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rawExchange(
          `POST /api/v1/auth/role/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`,
          `{"roleName":"${i}`,
          300,
        ),
      ),
    );
    await Promise.all(
      Array.from({ length: 10 }, () =>
        rawExchange(`POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n`, "username=", 300),
      ),
    );
    const refused = await fetch(`${BASE}/api/v1/auth/user/findPage?status=abc&pageNum=1e308`);
    expect(refused.status).not.toBe(500);
    // Give the server the moment it takes to see the connections end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(log).not.toMatch(/^\s+at /m);
    expect(log).not.toMatch(/AbortError|ECONNRESET|服务器内部错误/);
  });
});
