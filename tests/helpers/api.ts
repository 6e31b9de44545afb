import { expect } from "vitest";
import { loadConfig, type Config } from "../../server/config";
import { serverModules } from "../../server/modules/index";
import type { ServerModule } from "../../server/modules/manifest";
import { seed } from "../../server/modules/seed";
import { createApi, type Api } from "../../server/http/api";
import type { Envelope } from "../../server/http/envelope";
import { encodeLoginField } from "../../server/modules/auth/session";
import { ADMIN_PASSWORD, createTestDatabase, openAgain, templateOf, type TestDatabase } from "./db";
import type { DatabaseHandle, Dialect } from "../../server/db";

export { ADMIN_PASSWORD };
export const ORIGIN = "http://canteen.test";

export interface TestApp {
  api: Api;
  database: TestDatabase;
  config: Config;
  /** Sets the text of the next captcha. */
  setCaptcha(text: string): void;
  call<T = unknown>(method: "GET" | "POST", path: string, options?: CallOptions): Promise<CallResult<T>>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult<T> {
  http: number;
  body: Envelope<T>;
  headers: Headers;
}

/** Calls `api` as a client would: a web Request in, the status and the parsed envelope out. */
function callerOf(api: Api): TestApp["call"] {
  return async <T>(method: "GET" | "POST", path: string, options: CallOptions = {}): Promise<CallResult<T>> => {
    const headers = new Headers(options.headers);
    if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
    if (options.cookie) headers.set("Cookie", options.cookie);
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    const response = await api.handle(new Request(`${ORIGIN}${path}`, { method, headers, body }), options.ip ?? "127.0.0.1");
    const text = await response.text();
    // A picture, a file or an export is not an envelope: its body is left out.
    const json = /^application\/json/.test(response.headers.get("Content-Type") ?? "");
    return { http: response.status, body: (json ? JSON.parse(text) : null) as Envelope<T>, headers: response.headers };
  };
}

export interface OtherInstance {
  database: DatabaseHandle;
  call: TestApp["call"];
  close(): Promise<void>;
}

/**
 * A second instance on the test app's database, as a second process would be: connections (a pool on PostgreSQL, a
 * writer and a reader on SQLite) and per-database caches of its own, its own API; only the database is shared.
 */
export async function openAnotherInstance(app: TestApp): Promise<OtherInstance> {
  const database = await openAgain(app.database);
  const api = createApi({ db: database.db, dialect: database.dialect, config: app.config, captchaText: () => "ABCD" });
  return { database, call: callerOf(api), close: () => database.close() };
}

/** An app on a fresh database; `modules` composes its API (the product's module list unless a test adds its own). */
export async function createTestApp(dialect: Dialect, env: Record<string, string> = {}, modules: readonly ServerModule[] = serverModules): Promise<TestApp> {
  const database = await createTestDatabase(dialect, { template: "seeded" });
  const config = loadConfig({ CANTEEN_CAPTCHA: "off", LOGIN_RATE_PER_MINUTE: "1000", ...env });
  // A copy of the run's seeded template is seeded already.
  if (!templateOf(dialect, "seeded")) await seed(database.db, { adminPassword: ADMIN_PASSWORD });
  let captcha = "ABCD";
  const api = createApi({ db: database.db, dialect: database.dialect, config, captchaText: () => captcha }, modules);
  const call = callerOf(api);
  return {
    api,
    database,
    config,
    setCaptcha: (text) => (captcha = text),
    call,
    close: () => database.destroy(),
  };
}

export function loginBody(username: string, password: string) {
  return { username: encodeLoginField(username), password: encodeLoginField(password) };
}

export async function loginAs(app: TestApp, username: string, password: string): Promise<string> {
  const result = await app.call<{ token: string }>("POST", "/login", { body: loginBody(username, password) });
  if (result.body.status !== 200) throw new Error(`login failed: ${result.body.message}`);
  return result.body.data.token;
}

/** Signs in as the seeded admin and changes the first-login password. */
export async function adminToken(app: TestApp, newPassword = "Changed-Pass-2026!"): Promise<string> {
  const token = await loginAs(app, "admin", ADMIN_PASSWORD);
  const changed = await app.call("POST", "/api/v1/auth/user/modifyPasswd", {
    token,
    body: { oldPassword: ADMIN_PASSWORD, newPassword },
  });
  if (changed.body.status !== 200) throw new Error(`modifyPasswd failed: ${changed.body.message}`);
  return token;
}

/** The envelope is a 400 whose field errors name `field` with a message matching `message`. */
export function expectField(body: { status: number; data: unknown }, field: string, message: string | RegExp) {
  expect(body.status, JSON.stringify(body)).toBe(400);
  const errors = (body.data as { fieldErrors: Record<string, string[]> }).fieldErrors[field];
  expect(errors, JSON.stringify(body)).toBeDefined();
  expect(errors.join()).toMatch(message);
}
