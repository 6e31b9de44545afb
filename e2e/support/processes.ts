import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as http from "node:http";
import pg from "pg";
import { workerDatabase } from "../../tests/helpers/db";
import { E2E_PORTS } from "./servers";

/** Ports for the servers these specs start themselves (the shared ones are E2E_PORTS.main and .captcha). */
// Four ports per Playwright worker: two process specs running at once in two workers must not reach each other's servers.
export function processPortsOf(parallelIndex: number) {
  const processBase = E2E_PORTS.main + 5 + 4 * parallelIndex;
  return { a: processBase, b: processBase + 1, proxy: processBase + 2, spare: processBase + 3 } as const;
}
export const processPorts = processPortsOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const ADMIN_PASSWORD = "Process-Admin-2026";
export const NEW_ADMIN_PASSWORD = "Process-Admin-2026-Changed";
export const postgresUrl = process.env.TEST_DATABASE_URL;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  /** Resolves with the time the text first appears in the output. */
  seen(text: string): Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** The two ways an operator starts the built server (decision 020). */
export const SERVER_COMMANDS = {
  start: ["scripts/start.mjs", "--no-build"],
  // What `npx react-router-serve ./build/server/index.js` runs, without npx in between (signals reach the server).
  serve: ["node_modules/@react-router/serve/bin.js", "./build/server/index.js"],
} as const;

/** `node scripts/start.mjs --no-build` (or react-router-serve) as an operator starts it, with `env` on top of a fresh environment. */
export function spawnServer(port: number, env: Record<string, string>, options: { uid?: number; command?: keyof typeof SERVER_COMMANDS } = {}): ServerProcess {
  let output = "";
  const child = spawn(process.execPath, [...SERVER_COMMANDS[options.command ?? "start"]], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      CANTEEN_CAPTCHA: "off",
      CANTEEN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  });
  const watchers: { text: string; resolve(at: number): void }[] = [];
  const take = (chunk: Buffer) => {
    output += chunk;
    for (const w of watchers.filter((w) => output.includes(w.text))) {
      watchers.splice(watchers.indexOf(w), 1);
      w.resolve(Date.now());
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const seen = (text: string) =>
    output.includes(text) ? Promise.resolve(Date.now()) : new Promise<number>((resolve) => watchers.push({ text, resolve }));
  return { child, port, output: () => output, seen, exited };
}

export async function waitHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server on ${server.port} exited:\n${server.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${server.port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${server.port} did not start:\n${server.output()}`);
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await server.exited;
}

/** A schema of its own on the test PostgreSQL, as DATABASE_URL (search_path and a name to find its connections by). */
export async function postgresSchema(): Promise<{ schema: string; url: string; appName: string; drop(): Promise<void>; query: (text: string, values?: unknown[]) => Promise<pg.QueryResult> }> {
  const schema = `e2e_${randomBytes(5).toString("hex")}`;
  // A database per Playwright worker, as vitest has (tests/helpers/db.ts says why).
  const database = await workerDatabase(postgresUrl as string, `e2e_${process.env.TEST_PARALLEL_INDEX ?? 0}`);
  const admin = new pg.Client({ connectionString: database });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(database);
  url.searchParams.set("options", `-c search_path=${schema}`);
  url.searchParams.set("application_name", schema);
  return {
    schema,
    url: url.toString(),
    appName: schema,
    query: (text, values) => admin.query(text, values),
    drop: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

const enc = (s: string) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { status: number; message: string; data: unknown } | null;
}

/** One HTTP request through `agent` (keep-alive when the agent keeps connections). */
export function send(port: number, method: "GET" | "POST", path: string, options: { token?: string; body?: unknown; agent?: http.Agent; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: options.agent ?? false,
        headers: {
          ...(body ? { "Content-Type": "application/json" } : {}),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let parsed: Answer["body"] = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not an envelope
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export async function signIn(port: number, userName: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(port, "POST", "/login", { body: { username: enc(userName), password: enc(password) }, headers });
}

/** Signs in as the first admin and changes the first-login password; returns the token. */
export async function adminSession(port: number): Promise<string> {
  const login = await signIn(port, "admin", ADMIN_PASSWORD);
  const token = (login.body?.data as { token: string } | undefined)?.token;
  if (!token) throw new Error(`sign-in failed: ${JSON.stringify(login.body)}`);
  const changed = await send(port, "POST", "/api/v1/auth/user/modifyPasswd", { token, body: { oldPassword: ADMIN_PASSWORD, newPassword: NEW_ADMIN_PASSWORD } });
  if (changed.body?.status !== 200) throw new Error(`modifyPasswd failed: ${JSON.stringify(changed.body)}`);
  return token;
}
