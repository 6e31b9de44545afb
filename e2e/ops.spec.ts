import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PORTS } from "./support/servers";

const OPS_PORT = E2E_PORTS.main + 80;

/** Runs `npm start`'s script with the given environment and collects what it prints. */
function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitForText(read: () => string, pattern: RegExp) {
  await expect.poll(read, { timeout: 30_000 }).toMatch(pattern);
}

test.describe("operating the server", () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "canteen-ops-"));
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("a bad configuration value stops the server with one clear line", async () => {
    const run = startProcess({ PORT: "not-a-port", DATABASE_URL: join(dir, "c.db") });
    expect(await run.exited).toBe(1);
    const lines = run.err().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^配置错误：PORT /);
  });

  test("first start prints the admin's one-time password, a second start keeps the data, SIGTERM exits cleanly", async () => {
    const database = join(dir, "c.db");
    const first = startProcess({ PORT: String(OPS_PORT), DATABASE_URL: database, CANTEEN_CAPTCHA: "off" });
    await waitForText(first.out, /已启动/);
    const password = /管理员账号 admin，一次性密码 (\S+?)（/.exec(first.out())?.[1];
    expect(password).toBeTruthy();
    expect(first.err()).toContain("CANTEEN_CAPTCHA=off");
    const login = await fetch(`http://127.0.0.1:${OPS_PORT}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: `ENC:${btoa("admin")}`, password: `ENC:${Buffer.from(password!).toString("base64")}` }),
    });
    expect((await login.json()).status).toBe(200);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${OPS_PORT}/api/v1/openapi.json`).then((r) => r.status);
    first.child.kill("SIGTERM");
    expect(await inFlight).toBe(200);
    expect(await first.exited).toBe(0);

    const second = startProcess({ PORT: String(OPS_PORT), DATABASE_URL: database, CANTEEN_CAPTCHA: "off" });
    await waitForText(second.out, /已启动/);
    expect(second.out()).not.toContain("一次性密码");
    const again = await fetch(`http://127.0.0.1:${OPS_PORT}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: `ENC:${btoa("admin")}`, password: `ENC:${Buffer.from(password!).toString("base64")}` }),
    });
    expect((await again.json()).status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
