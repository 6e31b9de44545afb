import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { columnOf, formFields, resourceKey, type FieldDef, type ResourceDef } from "../../resources/define";
import { builtInDicts, isNumericDict } from "../../resources/dicts";
import { documents, resources } from "../../resources/index";
import { createSchema, isStorable, updateSchema } from "../../resources/schemas";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
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
/** Quantities hold at most 3 places and at most 1,000,000 (decision 067): never a float's tail, an exponent or a sign. */
const QUANTITY = [1.2345, "1.2345", 0.0001, 1e-7, -1, "-0.5", 1_000_000.001, 1e308, 2 ** 63, "1e3", "abc", "0x10", "1,5", "Infinity", true, {}, [], [1], "a\u0000"];
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
    case "quantity":
      values.push(...QUANTITY);
      if (field.max !== undefined) values.push(field.max + 0.001);
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

/**
 * Resources with neither a generated create nor update: no body of theirs can be sent to the resource engine. Their
 * rows are written by hand-written endpoints (top-ups, payments, runs, device calls), which the OpenAPI test sends
 * hostile bodies, and their filters are the findPage test's.
 */
const NO_CREATE_OR_UPDATE = [
  // 商户结算 (decision 084): written only by 生成 and 确认.
  "sc/scMerchantFinance",
  "sys/operationLog",
  "zhct/autoChargeGrant",
  "zhct/autoChargeRun",
  "zhct/cashierMealOrder",
  // A dish's 用料 (decision 088): written whole by `POST …/food/recipe`, which the OpenAPI walk sends hostile bodies.
  "zhct/foodRecipe",
  "zhct/imageDetectFood",
  "zhct/mealOrder",
  "zhct/mealOrderDelivery",
  "zhct/mealOrderItem",
  "zhct/mealTicketUse",
  "zhct/satisfactionSurveAnswer",
  "zhct/satisfactionSurveAnswerItem",
  "zhct/satisfactionSurveOption",
  "zhct/satisfactionSurveQuestion",
  "zhct/userAccount",
  "zhct/userAccountCharge",
  "zhct/userAccountIntegralDetail",
  "zhct/userAccountLedger",
  "zhct/userAccountMonthSettle",
  "zhct/userAccountTable",
  "zhct/userInfoSendMessage",
  "zhct/userIntegralAccount",
  "zhct/userOrderDefaultGenerate",
  "zhct/userOrderDefaultGenerateDetail",
  "zhct/userPlate",
  // Price audits are written by purchase receipts and moved by their two steps (decision 072).
  "zhhq/purchsePriceAudit",
  // The stock ledger's balances, batches and movements (decision 068): written only by the stock documents' approvals.
  // The month's stock account (decision 073): written only by 生成 and 转正式.
  "zhhq/warehouseAccountMonth",
  "zhhq/warehouseAccountMonthSettle",
  "zhhq/warehouseLedger",
  "zhhq/warehouseReal",
  "zhhq/warehouseRealDetail",
  // A dormitory bill's shares (decision 074): written by the bill's create and its 从餐卡扣费.
  "zhhq/waterElectricShare",
];

/** What a body must carry besides the declared fields, lest it be refused for that before the field is looked at. */
const REST_OF_BODY: Record<string, Record<string, unknown>> = {
  "zhct/satisfactionSurve": { questions: [{ questionTitle: "口味如何", selectType: "1", options: [{ optionText: "好" }, { optionText: "差" }] }] },
};

/** Each foreign key of `table` as pairs of its columns and the columns they reference. */
async function foreignKeysOf(app: TestApp, table: string): Promise<Array<{ table: string; pairs: Array<[string, string]> }>> {
  const db = app.database.db;
  const rows =
    app.database.dialect === "sqlite"
      ? (await sql<{ id: number; table: string; from: string; to: string }>`select id, "table", "from", "to" from pragma_foreign_key_list(${table}) order by id, seq`.execute(db)).rows
      : (
          await sql<{ id: string; table: string; from: string; to: string }>`
            select c.conname as id, f.relname as "table", a.attname as "from", af.attname as "to"
            from pg_constraint c
            join pg_class t on t.oid = c.conrelid
            join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()
            join pg_class f on f.oid = c.confrelid
            cross join lateral unnest(c.conkey, c.confkey) with ordinality as k(col, fcol, position)
            join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.col
            join pg_attribute af on af.attrelid = c.confrelid and af.attnum = k.fcol
            where c.contype = 'f' and t.relname = ${table}
            order by c.conname, k.position`.execute(db)
        ).rows;
  const keys = new Map<string, { table: string; pairs: Array<[string, string]> }>();
  for (const r of rows) {
    const key = keys.get(String(r.id)) ?? { table: r.table, pairs: [] };
    key.pairs.push([r.from, r.to]);
    keys.set(String(r.id), key);
  }
  return [...keys.values()];
}

/**
 * A row of the resource's table, written straight to it with its required columns only when it has none: an update
 * needs a row to aim at, and only on a row that exists does the server go on to read a dictionary. What a required
 * column references gets a row the same way.
 */
async function aRowOf(app: TestApp, def: ResourceDef): Promise<number> {
  const db = app.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const anyRow = (table: string) => {
    let query = db.selectFrom(table).selectAll();
    if (resources.find((d) => d.table === table)?.scope === "tenant") query = query.where("tenant_id", "=", DEFAULT_TENANT_ID);
    return query.executeTakeFirst();
  };
  const found = await anyRow(def.table);
  if (found) return Number(found.id);
  const id = newId();
  const now = Date.now();
  const row: Record<string, unknown> = { id, created_at: now, created_by: null, updated_at: now, updated_by: null };
  if (def.scope === "tenant") row.tenant_id = DEFAULT_TENANT_ID;
  const required = new Set(def.fields.filter((f) => f.required).map(columnOf));
  // A required relation is filled from its foreign key below, with the columns of the row it references.
  for (const field of def.fields.filter((f) => f.required && f.type !== "relation" && f.type !== "treeParent")) {
    let value: unknown;
    switch (field.type) {
      case "number":
      case "money":
        value = Math.min(Math.max(field.min ?? 0, 0), field.max ?? 0);
        break;
      case "datetime":
        value = now;
        break;
      case "boolean":
        value = 1;
        break;
      case "date":
        value = "2026-01-01";
        break;
      case "time":
        value = "12:00";
        break;
      case "enum": {
        const first = (field.dict && builtInDicts[field.dict]?.options[0]?.value) ?? "1";
        value = field.dict && isNumericDict(field.dict) ? Number(first) : first;
        break;
      }
      default:
        value = field.unique ? `x${id}` : "x";
    }
    row[columnOf(field)] = value;
  }
  for (const key of await foreignKeysOf(app, def.table)) {
    if (!key.pairs.some(([from]) => required.has(from))) continue;
    const target = resources.find((d) => d.table === key.table);
    if (target && target !== def) await aRowOf(app, target);
    const referenced = await anyRow(key.table);
    if (!referenced) throw new Error(`${def.table}: no row of ${key.table} to reference`);
    for (const [from, to] of key.pairs) row[from] = referenced[to];
  }
  await db.insertInto(def.table).values(row).execute();
  return id;
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
/** GETs without parameters: nothing a client sends reaches them but the path and the session. */
const NO_PARAMETERS = [
  "GET /api/v1/auth/loginConfig",
  "GET /api/v1/auth/org/tree",
  "GET /api/v1/auth/role/getMenuTree",
  "GET /api/v1/auth/user/brief",
  "GET /api/v1/auth/user/info",
  "GET /api/v1/auth/user/profile",
  "GET /api/v1/auth/user/shellInfo",
  "GET /api/v1/openapi.json",
  "GET /api/v1/report/dashboard",
  "GET /api/v1/sc/scProduct/importTemplate",
  "GET /api/v1/sys/dashboard/overview",
  "GET /api/v1/sys/imageObj/findLogoImage",
  "GET /api/v1/zhct/food/importTemplate",
  "GET /api/v1/zhct/foodType/importTemplate",
  "GET /api/v1/zhct/mealOrderComplaints/getComplaintsCount",
  "GET /api/v1/zhct/userAccountMonthSettle/months",
  "GET /api/v1/zhct/userInfo/importTemplate",
  "GET /api/v1/zhct/userInfoDept/findPage",
  "GET /api/v1/zhhq/goods/importTemplate",
  "GET /api/v1/zhhq/supplier/importTemplate",
  "GET /healthz",
];
/** Its one parameter is a sign-in token (for an <img> link): a hostile one is refused as a token, 401, not a 400. */
const TOKEN_PARAMETER = ["GET /api/v1/sys/tenant/getWeappQRCode"];

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

    // Every declared resource's every field, on each database: the walk grows with each module (智慧后勤 added ten
    // resources), and a loaded machine took 120 s for it on PostgreSQL.
    test("every create and update of every resource refuses each hostile value and stores nothing", { timeout: 240_000 }, async () => {
      const rows = new Map<ResourceDef, Record<string, unknown>>();
      for (const def of resources.filter((d) => d.actions.includes("update"))) {
        const found = await call("GET", `/api/v1/${def.module}/${def.entity}/getInfo?id=${await aRowOf(app, def)}`);
        expect(found.body.status, `${resourceKey(def)}: ${JSON.stringify(found.body)}`).toBe(200);
        rows.set(def, found.body.data as Record<string, unknown>);
      }
      // Counted only when the answer is a field refused (400): a 401, 403 or 404 never reached the value.
      const refused = new Map(resources.map((def) => [resourceKey(def), { create: 0, update: 0 }]));
      const before = await snapshot(app);
      for (const def of resources) {
        const base = `/api/v1/${def.module}/${def.entity}`;
        const row = rows.get(def);
        const count = refused.get(resourceKey(def))!;
        for (const field of formFields(def)) {
          // The values of one field at once: each call is refused on its own, so they cannot meet.
          await Promise.all(
            hostileValues(field).map(async (value) => {
              const what = `${base} ${field.name} = ${show(value)}`;
              if (def.actions.includes("create")) {
                const created = await call("POST", `${base}/create`, { body: { ...REST_OF_BODY[resourceKey(def)], [field.name]: value } });
                expectRefusedPolitely(created, `create ${what}`);
                expect(created.body.status, `create ${what}`).not.toBe(200);
                if (created.body.status === 400) count.create++;
              }
              if (def.actions.includes("update") && row) {
                const updated = await call("POST", `${base}/update`, { body: { ...REST_OF_BODY[resourceKey(def)], id: row.id, updatedAt: row.updatedAt, [field.name]: value } });
                expectRefusedPolitely(updated, `update ${what}`);
                expect(updated.body.status, `update ${what}`).toBe(400);
                expect(JSON.stringify(updated.body.data), `update ${what}`).toContain(field.name);
                count.update++;
              }
            }),
          );
        }
      }
      expect(await snapshot(app)).toEqual(before);
      const missed = resources.flatMap((def) =>
        (["create", "update"] as const).filter((action) => def.actions.includes(action) && refused.get(resourceKey(def))![action] === 0).map((action) => `${resourceKey(def)} ${action}`),
      );
      expect(missed).toEqual([]);
      expect(resources.filter((def) => !def.actions.includes("create") && !def.actions.includes("update")).map(resourceKey).sort()).toEqual(NO_CREATE_OR_UPDATE);
    });

    test("every findPage refuses hostile filters, paging and sorting without a 500", { timeout: 240_000 }, async () => {
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

    // The documents' bodies nest their lines: the walk of the OpenAPI document below tries only the top-level
    // properties, so each declared document's header and line fields are tried here, in a create and an update.
    // A value of the right shape for a dictionary (a number outside it) is refused only once the dictionary is read,
    // after the body's other fields pass: that refusal is the resources' walk's above.
    test("every declared document's create and update refuse each hostile header and line value and store nothing", { timeout: 240_000 }, async () => {
      const before = await snapshot(app);
      expect(documents.length).toBeGreaterThan(0);
      for (const doc of documents) {
        const base = `/api/v1/${doc.module}/${doc.entity}`;
        const bodies = [
          ...formFields(doc.header).flatMap((field) => hostileValues(field).filter((v) => refusedByShape(field, v)).map((value) => ({ path: field.name, value, create: { [field.name]: value, lines: [] }, update: { id: 1, version: 1, [field.name]: value } }))),
          ...formFields(doc.lines).flatMap((field) =>
            hostileValues(field).filter((v) => refusedByShape(field, v)).map((value) => ({ path: `lines.0.${field.name}`, value, create: { lines: [{ [field.name]: value }] }, update: { id: 1, version: 1, lines: [{ [field.name]: value }] } })),
          ),
        ];
        expect(bodies.length, doc.docType).toBeGreaterThan(0);
        for (const { path, value, create, update } of bodies) {
          await Promise.all(
            (["create", "update"] as const).map(async (action) => {
              const what = `${base}/${action} ${path} = ${show(value)}`;
              const result = await call("POST", `${base}/${action}`, { body: action === "create" ? create : update });
              expectRefusedPolitely(result, what);
              expect(result.body.status, what).toBe(400);
              expect(Object.keys((result.body.data as { fieldErrors?: object } | null)?.fieldErrors ?? {}), what).toContain(path);
            }),
          );
        }
      }
      expect(await snapshot(app)).toEqual(before);
    });

    test("every other endpoint of the OpenAPI document refuses hostile bodies and parameters without a 500", { timeout: 240_000 }, async () => {
      // A body whose `__proto__` is dropped is an empty one, and an empty save of one's settings stores the defaults:
      // stored first, so that such a save changes nothing.
      expect((await call("POST", "/api/v1/auth/user/saveSettings", { body: {} })).body.status).toBe(200);
      const before = await snapshot(app);
      const openapi = (await call("GET", "/api/v1/openapi.json")).body as unknown as OpenApi;
      // Only the actions a resource declares are generated: a hand-written endpoint on another action's path (a
      // top-up is userAccountCharge/create) is tried here.
      const generated = new Set(resources.flatMap((def) => ["findPage", ...def.actions.filter((a) => a === "create" || a === "update")].map((a) => `/api/v1/${def.module}/${def.entity}/${a}`)));
      // Counted when a value is refused (400): an endpoint whose every answer is the caller's 401 or 403 never read one.
      const refused = new Map<string, number>();
      const counted = (key: string, result: CallResult<unknown>) => {
        if (result.body?.status === 400) refused.set(key, (refused.get(key) ?? 0) + 1);
      };
      let covered = 0;
      const withoutParameters: string[] = [];
      for (const [path, methods] of Object.entries(openapi.paths)) {
        for (const [lower, operation] of Object.entries(methods)) {
          const method = lower.toUpperCase() as "GET" | "POST";
          const key = `${method} ${path}`;
          if ([...SESSION_CHANGING, ...NO_INPUT].includes(key) || generated.has(path)) continue;
          covered++;
          refused.set(key, 0);
          if (method === "GET" && !operation.parameters?.length) withoutParameters.push(key);
          for (const { name } of operation.parameters ?? []) {
            await Promise.all(
              QUERY.map(async (value) => {
                const result = await call(method, `${path}?${name}=${value}`, method === "POST" ? { body: {} } : {});
                expectRefusedPolitely(result, `${method} ${path}?${name}=${value}`);
                counted(key, result);
              }),
            );
          }
          if (method !== "POST") continue;
          for (const shape of SHAPES) {
            const result = await call(method, path, { rawBody: shape.rawBody, body: shape.body, headers: shape.headers });
            expectRefusedPolitely(result, `${path} with ${shape.what}`);
            counted(key, result);
          }
          const properties = operation.requestBody?.content["application/json"].schema.properties ?? {};
          for (const [property, schema] of Object.entries(properties)) {
            await Promise.all(
              hostileFor(schema).map(async (value) => {
                const result = await call(method, path, { body: { [property]: value } });
                expectRefusedPolitely(result, `${path} ${property} = ${show(value)}`);
                counted(`${method} ${path}`, result);
              }),
            );
          }
        }
      }
      expect(covered).toBeGreaterThan(30);
      expect(withoutParameters.sort()).toEqual(NO_PARAMETERS);
      expect([...refused].filter(([key, n]) => n === 0 && !NO_PARAMETERS.includes(key)).map(([key]) => key)).toEqual(TOKEN_PARAMETER);
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
