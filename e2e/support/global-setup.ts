import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { migrateToLatest, openDatabase } from "../../server/db";
import { DEFAULT_TENANT_ID, seed } from "../../server/modules/seed";
import { createUserAccount } from "../../server/modules/auth/userAccounts";
import type { FullConfig } from "@playwright/test";
import { processPortsOf, SERVER_COMMANDS } from "./processes";
import { ADMIN_INITIAL_PASSWORD, E2E_PORTS, e2eUsers } from "./servers";
import { finishShellFixtures, prepareShellFixtures } from "./shell-fixtures";

const dir = join(process.cwd(), "test-results", `e2e-db-${E2E_PORTS.main}`);

async function prepareDatabase(file: string) {
  const handle = await openDatabase(file);
  await migrateToLatest(handle.db);
  await seed(handle.db, { adminPassword: ADMIN_INITIAL_PASSWORD });
  await prepareShellFixtures(handle.db);
  for (const user of Object.values(e2eUsers)) {
    await createUserAccount(handle.db, { tenantId: DEFAULT_TENANT_ID, ...user, roleIds: [...user.roleIds] });
  }
  await finishShellFixtures(handle.db);
  await handle.close();
}

async function waitForHealth(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`e2e server on ${port} exited:\n${log()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`e2e server on ${port} did not start:\n${log()}`);
}

function startServer(port: number, database: string, captcha: "on" | "off", command: keyof typeof SERVER_COMMANDS) {
  let output = "";
  const child = spawn(process.execPath, [...SERVER_COMMANDS[command]], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: database,
      CANTEEN_CAPTCHA: captcha,
      CANTEEN_ADMIN_PASSWORD: ADMIN_INITIAL_PASSWORD,
      LOGIN_RATE_PER_MINUTE: "1000",
      // The jobs run on the minute on their own; a spec that presses 立即执行 must not race one (vitest covers the schedulers).
      CANTEEN_JOBS: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { child, log: () => output };
}

/** Whether something else (another run, another service) already listens on the port. */
function busy(port: number) {
  return new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(true));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}

/**
 * Every port the run will listen on, its shared servers' and each worker's process specs', must be free: a busy one
 * otherwise failed a process spec in milliseconds with EADDRINUSE and no word of which port or why.
 */
async function expectPortsFree(workers: number) {
  const wanted = new Map<number, string>([
    [E2E_PORTS.main, "主服务"],
    [E2E_PORTS.captcha, "验证码服务"],
    [E2E_PORTS.serve, "react-router-serve 服务"],
  ]);
  for (let index = 0; index < workers; index++) {
    for (const [name, port] of Object.entries(processPortsOf(index))) wanted.set(port, `第 ${index + 1} 个 worker 的进程测试端口（${name}）`);
  }
  const taken = [];
  for (const [port, role] of wanted) if (await busy(port)) taken.push(`${port}（${role}）`);
  if (taken.length) {
    throw new Error(`e2e 需要的端口已被占用：${taken.join("、")}。请停止占用它的进程，或换一个 E2E_PORT_BASE（现为 ${E2E_PORTS.main}）。`);
  }
}

export default async function globalSetup(config: FullConfig) {
  await expectPortsFree(config.workers);
  // Build once here (when sources are newer than the build), not in each server at the same time.
  const built = spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("build failed");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const servers = [
    { port: E2E_PORTS.main, file: join(dir, "main.db"), captcha: "off" as const, command: "start" as const },
    { port: E2E_PORTS.captcha, file: join(dir, "captcha.db"), captcha: "on" as const, command: "start" as const },
    // The journeys of the `react-router-serve` project run against the standard server (decision 020).
    { port: E2E_PORTS.serve, file: join(dir, "serve.db"), captcha: "off" as const, command: "serve" as const },
  ];
  // The three start from the same data: it is seeded once and copied.
  const [first, ...others] = servers;
  await prepareDatabase(first.file);
  const source = new SQLite(first.file);
  for (const server of others) source.prepare("VACUUM INTO ?").run(server.file);
  source.close();
  const started = servers.map((s) => ({ ...s, ...startServer(s.port, s.file, s.captcha, s.command) }));
  const stop = async () => {
    for (const s of started) s.child.kill("SIGTERM");
    await Promise.all(started.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once("exit", r)))));
  };
  // One server that does not start fails the run: the others stop too, not left holding the ports for the next one.
  await Promise.all(started.map((s) => waitForHealth(s.port, s.child, s.log))).catch(async (error) => {
    await stop();
    throw error;
  });
  return stop;
}
