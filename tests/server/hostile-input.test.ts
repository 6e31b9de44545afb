import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formFields, resourceKey, type FieldDef } from "../../resources/define";
import { isNumericDict } from "../../resources/dicts";
import { resources } from "../../resources/index";
import { createSchema, isStorable, updateSchema } from "../../resources/schemas";
import { adminToken, createTestApp, type CallResult, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";

/**
 * Hostile values made from the declarations, for every create, update and findPage of every resource in the registry
 * and every other endpoint of the OpenAPI document: none is a 500, none is stored, every message is Chinese.
 */

const TEXT = ["a\u0000b", "\ud800", "x\udc00y", 12345, true, {}, [], ["a"]];
const INTEGER = [1.5, 1e308, -1e308, 2 ** 63, -(2 ** 63) - 1, "abc", "1e99", "1.5", "0x10", true, {}, [], [1]];
const ENUM = ["abc", "不在字典里", 12345, "1e99", 1.5, 1e308, -(2 ** 63) - 1, "a\u0000", "\ud800", true, {}, []];
const BOOLEAN = [2, "2", "yes", 1.5, -1, {}, [], "a\u0000"];
const DATE = ["2026-02-30", "2026-13-01", "abc", 20260101, "2026-01-01\u0000", "\ud800", {}];
const TIME = ["25:00", "abc", 1230, "12:00\u0000", {}];
const EMPTY = ["", "   ", null];
/** Query strings as a client could send them (percent-encoded): NUL, a lone surrogate's bytes, bad encoding. */
const QUERY = ["abc", "1.5", "1e308", "9223372036854775808", "-9223372036854775809", "%00", "a%00b", "%ED%A0%80", "%FF", "%", "1e99"];

/** What a field's column cannot store, by the field's declaration. */
function hostileValues(field: FieldDef): unknown[] {
  const values: unknown[] = field.required || field.defaultValue !== undefined ? [...EMPTY] : [];
  switch (field.type) {
    case "number":
    case "money":
    case "relation":
    case "treeParent":
    case "datetime":
      values.push(...INTEGER);
      if (field.max !== undefined) values.push(field.max + 1);
      if (field.min !== undefined) values.push(field.min - 1);
      break;
    case "enum":
      values.push(...ENUM);
      if (field.dict && isNumericDict(field.dict)) values.push(2 ** 31, "2147483648", "-2147483649");
      break;
    case "boolean":
      values.push(...BOOLEAN);
      break;
    case "date":
      values.push(...DATE);
      break;
    case "time":
      values.push(...TIME);
      break;
    default:
      values.push(...TEXT, "x".repeat((field.max ?? (field.type === "longText" ? 2000 : 200)) + 1));
  }
  return values;
}

/**
 * An enum value of the right shape (a whole number for a dictionary of numbers, a short text for the others) is
 * refused only once the dictionary is read, on the server; the schema refuses the rest.
 */
function refusedByShape(field: FieldDef, value: unknown): boolean {
  if (field.type !== "enum") return true;
  if (field.dict && isNumericDict(field.dict)) return !(Number.isInteger(value) && Math.abs(value as number) < 2 ** 31);
  return !((typeof value === "string" || typeof value === "number") && isStorable(String(value)));
}

const ENGLISH = /\b(string|int|integer|number|NaN|record|object|array|boolean|undefined|null|expected|received|Invalid)\b/;

function expectReadable(message: string, what: string) {
  expect(message, what).toMatch(/[\u4e00-\u9fff]/);
  expect(message, what).not.toMatch(ENGLISH);
  expect(message, what).not.toMatch(/：_ /);
  expect(message.length, what).toBeLessThan(400);
}

const show = (value: unknown) => (typeof value === "string" && value.length > 40 ? `"${value.slice(0, 10)}…" (${value.length})` : JSON.stringify(value));

describe("schemas generated from the declarations", () => {
  for (const def of resources) {
    test(`${resourceKey(def)}: every field refuses what its column cannot store, in Chinese, by its label`, () => {
      const create = createSchema(def);
      const update = updateSchema(def);
      for (const field of formFields(def)) {
        for (const value of hostileValues(field).filter((v) => refusedByShape(field, v))) {
          for (const [name, schema, body] of [
            ["create", create, { [field.name]: value }],
            ["update", update, { id: 1, [field.name]: value }],
          ] as const) {
            const what = `${name} ${field.name} = ${show(value)}`;
            const parsed = schema.safeParse(body);
            expect(parsed.success, what).toBe(false);
            const issue = parsed.error?.issues.find((i) => i.path[0] === field.name);
            expect(issue, what).toBeDefined();
            expectReadable(issue!.message, what);
            expect(issue!.message, what).toContain(field.label);
          }
        }
      }
    });
  }
});

/** Every table's row count and a digest of its rows: what "the database did not change" means here. */
async function snapshot(app: TestApp): Promise<Record<string, string>> {
  const db = app.database.db;
  const tables =
    app.database.dialect === "sqlite"
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(db)).rows;
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    // Using the API updates the caller's session row (last seen), asking for a captcha makes one, and every sign-in
    // attempt counts toward the per-address limit (login_rate_hit): none of them is the data under test.
    if (name === "session" || name === "captcha" || name === "login_rate_hit") continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    // The version alone changes with an empty save of one's own settings or profile (see below).
    const lines = rows.map((r) => JSON.stringify(r, (k, v) => (k === "updated_at" ? undefined : typeof v === "bigint" ? String(v) : v))).sort();
    result[name] = `${rows.length} ${createHash("sha256").update(lines.join("\n")).digest("hex")}`;
  }
  return result;
}

/** A property of a hand-written endpoint, as the OpenAPI document describes it. */
interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  anyOf?: PropertySchema[];
}

/** What a property's schema refuses. `{}` (no type) is a value the schema reads itself: all the ids. */
function hostileFor(schema: PropertySchema): unknown[] {
  const type = schema.anyOf ? schema.anyOf.map((s) => s.type).flat() : [schema.type].flat();
  if (schema.enum) return ["abc", "a\u0000", 12345, {}, []];
  if (type.includes("string")) {
    const values: unknown[] = ["a\u0000b", "\ud800", 12345, true, {}, ["a"]];
    if (schema.maxLength !== undefined) values.push("x".repeat(schema.maxLength + 1));
    if (schema.minLength) values.push("");
    if (schema.pattern) values.push("%%%");
    return values;
  }
  if (type.includes("boolean")) return ["yes", 2, {}, "a\u0000"];
  if (type.includes("array")) return ["x", { a: 1 }, ["a\u0000"], [1.5], [1e308], Array.from({ length: (schema.maxItems ?? 1000) + 1 }, (_, i) => i)];
  if (type.includes("object")) return ["x", [1], { "a\u0000": 1 }, { "../x": { hidden: "yes" } }];
  return INTEGER;
}

type Page = { records: Array<Record<string, unknown>> };
interface OpenApi {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string }>; requestBody?: { content: Record<string, { schema: { properties?: Record<string, PropertySchema> } }> } }>
  >;
}

/** Calls that end or change the caller's own session: sent once at the end, not in the loop. */
const SESSION_CHANGING = ["POST /api/v1/sys/tenant/switch", "POST /api/v1/auth/user/modifyPasswd", "POST /logout"];
/** Takes no input: every call makes a sign-in ticket, whatever it is sent. */
const NO_INPUT = ["POST /api/v1/auth/ticket"];

/** Bodies of every shape and type a JSON endpoint can be sent. */
const SHAPES: Array<{ what: string; rawBody?: string; body?: unknown; headers?: Record<string, string> }> = [
  { what: "no body", rawBody: "" },
  { what: "not JSON", rawBody: "not json" },
  { what: "JSON as text/plain", rawBody: '{"a":1}', headers: { "Content-Type": "text/plain" } },
  { what: "a form", rawBody: "a=1&b=2", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
  { what: "multipart without boundary", rawBody: "--x\r\n\r\n", headers: { "Content-Type": "multipart/form-data" } },
  { what: "XML", rawBody: "<a/>", headers: { "Content-Type": "application/xml" } },
  { what: "a lone surrogate", rawBody: '{"a":"\\udc80","b":"\\u0000"}' },
  { what: "null", body: null },
  { what: "a list", body: [1, 2] },
  { what: "a string", body: "x" },
  { what: "a number", body: 1e308 },
  { what: "__proto__", rawBody: '{"__proto__":{"isAdmin":true,"tenantId":1},"constructor":{"prototype":{"x":1}}}' },
  { what: "nested __proto__", rawBody: '{"user":{"__proto__":{"status":1}},"roleIds":{"__proto__":[1]}}' },
];

for (const dialect of dialects) {
  describe(`${dialect}: hostile input`, () => {
    let app: TestApp;
    let token: string;
    const call = (method: "GET" | "POST", path: string, options: Parameters<TestApp["call"]>[2] = {}) =>
      app.call<Record<string, unknown> | null>(method, path, { token, ...options });
    /** Nothing a client sends is a server error, and whatever it is told is Chinese. */
    function expectRefusedPolitely(result: CallResult<unknown>, what: string) {
      expect(result.http, what).not.toBe(500);
      if (!result.body) return;
      expect(result.body.status, what).not.toBe(500);
      if (result.body.status !== 200) expectReadable(result.body.message, what);
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
    });
    afterAll(() => app.close());

    test("every create and update of every resource refuses each hostile value and stores nothing", { timeout: 120_000 }, async () => {
      const before = await snapshot(app);
      for (const def of resources) {
        const base = `/api/v1/${def.module}/${def.entity}`;
        const existing = (await call("GET", `${base}/findPage?pageSize=10`)).body.data as Page | null;
        const row = existing?.records[0];
        for (const field of formFields(def)) {
          // The values of one field at once: each call is refused on its own, so they cannot meet.
          await Promise.all(
            hostileValues(field).map(async (value) => {
              const what = `${base} ${field.name} = ${show(value)}`;
              if (def.actions.includes("create")) {
                const created = await call("POST", `${base}/create`, { body: { [field.name]: value } });
                expectRefusedPolitely(created, `create ${what}`);
                expect(created.body.status, `create ${what}`).not.toBe(200);
              }
              if (def.actions.includes("update") && row) {
                const updated = await call("POST", `${base}/update`, { body: { id: row.id, updatedAt: row.updatedAt, [field.name]: value } });
                expectRefusedPolitely(updated, `update ${what}`);
                expect(updated.body.status, `update ${what}`).toBe(400);
                expect(JSON.stringify(updated.body.data), `update ${what}`).toContain(field.name);
              }
            }),
          );
        }
      }
      expect(await snapshot(app)).toEqual(before);
    });

    test("every findPage refuses hostile filters, paging and sorting without a 500", { timeout: 120_000 }, async () => {
      const before = await snapshot(app);
      const openapi = (await call("GET", "/api/v1/openapi.json")).body as unknown as OpenApi;
      for (const def of resources) {
        const path = `/api/v1/${def.module}/${def.entity}/findPage`;
        const names = (openapi.paths[path]?.get.parameters ?? []).map((p) => p.name);
        expect(names, path).toContain("pageNum");
        for (const name of names) {
          await Promise.all(
            [...QUERY, ...(name === "sort" ? ["", "   ", "createdAt,up", "x,asc"] : [])].map(async (value) => {
              const result = await call("GET", `${path}?${name}=${value}`);
              expectRefusedPolitely(result, `${path}?${name}=${value}`);
            }),
          );
        }
        for (const query of ["pageNum=0", "pageSize=7", "pageSize=1.5e1", "pageNum=1&pageNum=2", "nope=1", "__proto__=1", "constructor=1"]) {
          const result = await call("GET", `${path}?${query}`);
          expectRefusedPolitely(result, `${path}?${query}`);
          if (!query.startsWith("__proto__") && !query.startsWith("constructor")) expect(result.body.status, `${path}?${query}`).toBe(400);
        }
      }
      expect(await snapshot(app)).toEqual(before);
    });

    test("every other endpoint of the OpenAPI document refuses hostile bodies and parameters without a 500", { timeout: 120_000 }, async () => {
      // A body whose `__proto__` is dropped is an empty one, and an empty save of one's settings stores the defaults:
      // stored first, so that such a save changes nothing.
      expect((await call("POST", "/api/v1/auth/user/saveSettings", { body: {} })).body.status).toBe(200);
      const before = await snapshot(app);
      const openapi = (await call("GET", "/api/v1/openapi.json")).body as unknown as OpenApi;
      const generated = new Set(resources.flatMap((def) => ["findPage", "create", "update"].map((a) => `/api/v1/${def.module}/${def.entity}/${a}`)));
      let covered = 0;
      for (const [path, methods] of Object.entries(openapi.paths)) {
        for (const [lower, operation] of Object.entries(methods)) {
          const method = lower.toUpperCase() as "GET" | "POST";
          if ([...SESSION_CHANGING, ...NO_INPUT].includes(`${method} ${path}`) || generated.has(path)) continue;
          covered++;
          for (const { name } of operation.parameters ?? []) {
            await Promise.all(
              QUERY.map(async (value) => {
                const result = await call(method, `${path}?${name}=${value}`, method === "POST" ? { body: {} } : {});
                expectRefusedPolitely(result, `${method} ${path}?${name}=${value}`);
              }),
            );
          }
          if (method !== "POST") continue;
          for (const shape of SHAPES) {
            const result = await call(method, path, { rawBody: shape.rawBody, body: shape.body, headers: shape.headers });
            expectRefusedPolitely(result, `${path} with ${shape.what}`);
          }
          const properties = operation.requestBody?.content["application/json"].schema.properties ?? {};
          for (const [property, schema] of Object.entries(properties)) {
            await Promise.all(
              hostileFor(schema).map(async (value) => {
                const result = await call(method, path, { body: { [property]: value } });
                expectRefusedPolitely(result, `${path} ${property} = ${show(value)}`);
              }),
            );
          }
        }
      }
      expect(covered).toBeGreaterThan(30);
      for (const key of SESSION_CHANGING) {
        const [method, path] = key.split(" ") as ["POST", string];
        for (const shape of SHAPES.filter((s) => s.rawBody !== "")) {
          const result = await call(method, path, { rawBody: shape.rawBody, body: shape.body, headers: shape.headers });
          expectRefusedPolitely(result, `${path} with ${shape.what}`);
        }
      }
      expect(await snapshot(app)).toEqual(before);
    });
  });
}
