import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { chinaDay } from "../../resources/chinaTime";
import { builtInDicts } from "../../resources/dicts";
import { formFields, resourceKey, type FieldDef, type ResourceDef } from "../../resources/define";
import { findResource, resources } from "../../resources/index";
import { newId } from "../../server/db";
import type { Endpoint } from "../../server/http/endpoint";
import { toColumns, type Row } from "../../server/modules/resource/rows";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { uploadedReference } from "../helpers/fixtures";
import { createTenantWithAdmin, switchTenant, type TenantFixture } from "../helpers/tenants";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";

/**
 * A user of tenant A (its admin: every permission of the tenant, not a super admin) walks every endpoint of every
 * declared resource with tenant B's ids and extra fields; B's rows must read the same before and after, and no
 * response may carry B's data. Generic over `resources`, so entities declared later are walked too.
 */

type Who = "a" | "b";
const MARK: Record<Who, string> = { a: "qxa", b: "qxb" };
/** Calls about one's own account, not about tenant data. */
const SKIP = new Set(["/api/v1/auth/user/modifyPasswd", "/api/v1/auth/user/info", "/api/v1/auth/user/getUserMenuTreeList"]);
const GENERIC = new Set(["findPage", "getInfo", "create", "update", "delete", "deleteBatch", "export"]);

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
}

function jsonSchema(schema: unknown): JsonSchema {
  if (!schema) return {};
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return {};
  }
}

for (const dialect of dialects) {
  describe(`${dialect}: tenant isolation`, () => {
    let app: TestApp;
    let superToken: string;
    const tenants = {} as Record<Who, TenantFixture>;
    const rows: Record<Who, Map<string, number>> = { a: new Map(), b: new Map() };
    let counter = 0;
    let tenantTables: string[] = [];
    let columns = new Map<string, Array<{ name: string; dataType: string; isNullable: boolean; hasDefaultValue: boolean }>>();

    const tenantScoped = () => resources.filter((r) => r.scope === "tenant");

    function sampleText(field: FieldDef, marker: string): string | undefined {
      const n = ++counter;
      const max = field.max ?? (field.type === "longText" ? 2000 : 200);
      const candidates = [
        `${marker}${n}`, `${marker}_${n}`, `T${marker}${n}`, `${marker}${n}`.toUpperCase(), `${marker}-${n}`, `${marker}${n}@example.com`,
        `https://example.com/${marker}${n}`, `1380000${String(n).padStart(4, "0")}`, `10.0.${Math.floor(n / 250)}.${(n % 250) + 1}`, `1.0.${n}`, `${n}`,
        (0xa0000000 + n).toString(16), `${(n % 99) + 1}`,
        // A month (2026-05), for the settlement's month field.
        `${2000 + (n % 100)}-${String((n % 12) + 1).padStart(2, "0")}`,
        ...[field.defaultValue, field.placeholder].filter((v): v is string => typeof v === "string" && v !== ""),
        `02:00:00:00:${((n >> 8) & 255).toString(16).padStart(2, "0")}:${(n & 255).toString(16).padStart(2, "0")}`,
      ];
      const found = candidates.find((c) => c.length <= max && (!field.pattern || field.pattern.regex.test(c)));
      if (!found && field.required) throw new Error(`no sample text for ${field.name} (${field.pattern?.regex})`);
      return found;
    }

    async function anyGlobalId(def: ResourceDef): Promise<number | null> {
      const row = await sql<{ id: number }>`select id from ${sql.table(def.table)} order by id limit 1`.execute(app.database.db);
      return row.rows[0]?.id ?? null;
    }

    /**
     * Values the declaration alone cannot tell (a field that must name a row by code, not by id). Add an entry when a
     * new entity's create refuses the made-up sample.
     */
    const overrides: Record<string, (who: Who) => Promise<Row>> = {
      "sys/merchantConfig": async (who) => {
        const id = await ensureRow(findResource("sys/parameterConfig") as ResourceDef, who);
        const row = await sql<{ param_code: string }>`select param_code from parameter_config where id = ${id}`.execute(app.database.db);
        return { parameterCode: row.rows[0].param_code };
      },
      // A menu type's stall is a stall of its restaurant.
      "zhct/foodMenuType": (who) => restaurantWithStall(who),
      "zhct/foodMenuTypeTemplate": (who) => restaurantWithStall(who),
      // Credit is off by default, and a credit limit without it is refused.
      "zhct/payLimitConfig": async () => ({ creditLimit: 0 }),
      // A ticket is applied for only under its type's setting.
      "zhct/mealTicket": async (who) => {
        await ensureRow(findResource("zhct/mealTicketSetting") as ResourceDef, who);
        return { ticketType: "1" };
      },
      // A default orders by amount or by a dish, not both.
      "zhct/userOrderDefault": async () => ({ foodId: null }),
    };

    /** Rows that creating another row makes already (a food's nutrition, a diner's accounts): found, not inserted again. */
    const madeWith: Record<string, (who: Who) => Promise<number>> = {
      "zhct/foodNutrition": async (who) => {
        const foodId = await ensureRow(findResource("zhct/food") as ResourceDef, who);
        const row = await sql<{ id: number }>`select id from food_nutrition where food_id = ${foodId}`.execute(app.database.db);
        return Number(row.rows[0].id);
      },
      // A dish's 用料 (decision 088): written with its dish through the recipe endpoint.
      "zhct/foodRecipe": async (who) => {
        const foodId = await ensureRow(findResource("zhct/food") as ResourceDef, who);
        const goodsId = await ensureRow(findResource("zhhq/goods") as ResourceDef, who);
        const result = await app.call<{ lines: Array<{ id: number }> }>("POST", "/api/v1/zhct/food/recipe", { token: tokenOf(who), body: { id: foodId, lines: [{ goodsId, quantity: 1.5 }] } });
        expect(result.body.status, JSON.stringify(result.body)).toBe(200);
        return Number(result.body.data.lines[0].id);
      },
      "zhct/userAccount": async (who) => {
        const diner = await ensureRow(findResource("zhct/userInfo") as ResourceDef, who);
        const row = await sql<{ id: number }>`select id from user_account where tenant_id = ${tenants[who].tenantId} and user_info_id = ${diner} and account_type = 'cash'`.execute(app.database.db);
        return Number(row.rows[0].id);
      },
      // The stock ledger's rows come from an approved stock-in (decision 068): its stock, its batch and its movement.
      ...Object.fromEntries(
        [
          ["zhhq/warehouseReal", "stock_real"],
          ["zhhq/warehouseRealDetail", "stock_batch"],
          ["zhhq/warehouseLedger", "stock_line"],
        ].map(([key, table]) => [
          key,
          async (who: Who) => {
            const goodsId = await stockIn(who);
            const row = await sql<{ id: number }>`select id from ${sql.table(table)} where tenant_id = ${tenants[who].tenantId} and goods_id = ${goodsId}`.execute(app.database.db);
            return Number(row.rows[0].id);
          },
        ]),
      ),
    };

    /** A price audit: an order received at twice its last price, through the API (decision 072). */
    madeWith["zhhq/purchsePriceAudit"] = async (who) => {
      const call = async (path: string, body: Row) => {
        const result = await app.call<Row>("POST", `/api/v1/zhhq/${path}`, { token: tokenOf(who), body });
        expect(result.body.status, `${path} ${JSON.stringify(result.body)}`).toBe(200);
        return result.body.data;
      };
      const warehouseId = await ensureRow(findResource("zhhq/warehouse") as ResourceDef, who);
      const goodsId = await ensureRow(findResource("zhhq/goods") as ResourceDef, who);
      const supplierId = await ensureRow(findResource("zhhq/supplier") as ResourceDef, who);
      // A receipt is a delivery: the supplier's licences in force (decision 076), whatever the sample licence says.
      for (const qualType of ["1", "2"]) await call("supplierQualification/create", { supplierId, qualType, qualNo: `TI-${qualType}`, validFrom: "2020-01-01" });
      const order = (await call("purchse/create", { supplierId, warehouseId, lines: [{ goodsId, quantity: 2, price: 100 }] })) as { id: number; lines: Array<{ id: number }> };
      await call("purchse/submit", { id: order.id });
      await call("purchse/approve", { id: order.id });
      // The first delivery at the order's price, the second at twice the last price: flagged.
      for (const price of [100, 200]) await call("purchse/receive", { id: order.id, lines: [{ purchseLineId: order.lines[0]?.id, quantity: 1, price }] });
      const row = await sql<{ id: number }>`select id from purchase_price_audit where tenant_id = ${tenants[who].tenantId} and purchse_id = ${order.id}`.execute(app.database.db);
      return Number(row.rows[0].id);
    };

    // The month's stock account's rows come from 生成 of the month of that stock-in (decision 073).
    for (const [key, table] of [
      ["zhhq/warehouseAccountMonth", "stock_month"],
      ["zhhq/warehouseAccountMonthSettle", "stock_month_settle"],
    ]) {
      madeWith[key] = async (who: Who) => {
        await stockIn(who);
        const result = await app.call("POST", "/api/v1/zhhq/warehouseAccountMonthSettle/generate", { token: tokenOf(who), body: { month: chinaDay(Date.now()).slice(0, 7) } });
        expect(result.body.status, JSON.stringify(result.body)).toBe(200);
        const row = await sql<{ id: number }>`select id from ${sql.table(table)} where tenant_id = ${tenants[who].tenantId}`.execute(app.database.db);
        return Number(row.rows[0].id);
      };
    }

    // 商户结算's rows come from closing a month for a restaurant (decision 084): 确认 keeps a quiet place's month too
    // (生成 keeps only places with figures). A month before every sample's date, so nothing else is locked.
    madeWith["sc/scMerchantFinance"] = async (who: Who) => {
      const restaurantId = await idOverrides.restaurantId(who);
      const result = await app.call("POST", "/api/v1/sc/scMerchantFinance/confirm", { token: tokenOf(who), body: { month: "2025-06", restaurantId } });
      expect(result.body.status, JSON.stringify(result.body)).toBe(200);
      const row = await sql<{ id: number }>`select id from sc_merchant_finance where tenant_id = ${tenants[who].tenantId} and restaurant_id = ${restaurantId}`.execute(app.database.db);
      return Number(row.rows[0].id);
    };

    /** One approved stock-in of `who`'s tenant (made once), through the API; answers its goods. */
    async function stockIn(who: Who): Promise<number> {
      if (!rows[who].has("stockIn")) {
        const warehouseId = await ensureRow(findResource("zhhq/warehouse") as ResourceDef, who);
        const goodsId = await ensureRow(findResource("zhhq/goods") as ResourceDef, who);
        const step = async (action: string, body: Row) => {
          const result = await app.call<{ id: number }>("POST", `/api/v1/zhhq/warehouseIn/${action}`, { token: tokenOf(who), body });
          expect(result.body.status, `${action} ${JSON.stringify(result.body)}`).toBe(200);
          return result.body.data;
        };
        const { id } = await step("create", { warehouseId, lines: [{ goodsId, quantity: 2.5, price: 300 }] });
        await step("submit", { id });
        await step("approve", { id });
        rows[who].set("stockIn", goodsId);
      }
      return rows[who].get("stockIn") as number;
    }

    async function restaurantWithStall(who: Who): Promise<Row> {
      const restaurantId = await idOverrides.restaurantId(who);
      const cacheKey = "stall";
      if (!rows[who].has(cacheKey)) {
        const created = await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", {
          token: tokenOf(who),
          body: { parentId: restaurantId, orgName: `${MARK[who]}档口`, orgType: "stall", status: "1" },
        });
        rows[who].set(cacheKey, created.body.data.id);
      }
      return { restaurantId, stallId: rows[who].get(cacheKey) as number };
    }

    /** Ids the parameter's name does not lead to: a restaurant is an org of type restaurant. */
    const idOverrides: Record<string, (who: Who) => Promise<number>> = {
      restaurantId: async (who) => {
        const cacheKey = "restaurant";
        if (!rows[who].has(cacheKey)) {
          const created = await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", {
            token: tokenOf(who),
            body: { orgName: `${MARK[who]}餐厅`, orgType: "restaurant", status: "1" },
          });
          rows[who].set(cacheKey, created.body.data.id);
        }
        return rows[who].get(cacheKey) as number;
      },
    };

    /** Values a create form would send, made up from the declaration, marked as `who`'s; relations point at rows of `linked`'s tenant. */
    async function sampleValues(def: ResourceDef, who: Who, linked: Who = who): Promise<Row> {
      const values: Row = { ...(await overrides[resourceKey(def)]?.(linked)) };
      for (const field of formFields(def)) {
        const marker = MARK[who];
        if (field.name in values) continue;
        switch (field.type) {
          case "text":
            values[field.name] = sampleText(field, marker);
            break;
          case "longText":
            values[field.name] = `${marker} ${field.label} ${++counter}`;
            break;
          case "number": {
            const low = field.min ?? 0;
            values[field.name] = Math.min(field.max ?? low + 100, Math.max(low, 1));
            break;
          }
          case "money":
            values[field.name] = 1234;
            break;
          case "enum":
            values[field.name] = field.defaultValue !== undefined ? String(field.defaultValue) : (builtInDicts[field.dict ?? ""]?.options[0]?.value ?? "1");
            break;
          case "boolean":
            values[field.name] = 1;
            break;
          case "date":
            values[field.name] = "2026-01-01";
            break;
          case "time":
            // A row's later time field is later (a meal time ends after it begins).
            values[field.name] = `${String(8 + Object.values(values).filter((v) => typeof v === "string" && /^\d\d:00$/.test(v)).length).padStart(2, "0")}:00`;
            break;
          case "datetime":
            values[field.name] = Date.now();
            break;
          case "image":
          case "file":
            if (field.required) values[field.name] = await uploadedReference(app, field.type, tenants[who].tenantId);
            break;
          case "relation":
          case "treeParent": {
            const target = field.relation ? findResource(field.relation) : undefined;
            // An optional parent of the same kind (a tree: org, food category) stays empty, or the first row would need itself.
            if (!target || ((field.type === "treeParent" || target === def) && !field.required)) break;
            if (idOverrides[field.name]) {
              values[field.name] = await idOverrides[field.name](linked);
              break;
            }
            values[field.name] = target.scope === "tenant" ? await ensureRow(target, linked) : await anyGlobalId(target);
            break;
          }
        }
      }
      return values;
    }

    function tokenOf(who: Who) {
      return tenants[who].token;
    }

    /** A row of `def` in `who`'s tenant: through the API's create when it takes the sample, else written directly. */
    async function ensureRow(def: ResourceDef, who: Who): Promise<number> {
      const key = resourceKey(def);
      const known = rows[who].get(key);
      if (known) return known;
      const parent = madeWith[key];
      if (parent) {
        const id = await parent(who);
        rows[who].set(key, id);
        return id;
      }
      const values = await sampleValues(def, who);
      let id: number | undefined;
      let refused: string | undefined;
      if (def.actions.includes("create")) {
        let token = tokenOf(who);
        if (def.superOnly) {
          await switchTenant(app, superToken, tenants[who].tenantId);
          token = superToken;
        }
        const result = await app.call<{ id: number }>("POST", `/api/v1/${def.module}/${def.entity}/create`, { token, body: values });
        if (def.superOnly) await switchTenant(app, superToken, DEFAULT_TENANT_ID);
        if (result.body.status === 200) id = result.body.data.id;
        else refused = `${result.body.message} ${JSON.stringify(result.body.data)}`;
      }
      try {
        id ??= await insertDirect(def.table, tenants[who].tenantId, toColumns(def, values), MARK[who]);
      } catch (error) {
        throw new Error(`no sample row of ${key} (create: ${refused ?? "none"}; direct insert: ${(error as Error).message})`);
      }
      rows[who].set(key, id);
      return id;
    }

    /** A row written straight to a tenant table, its required columns filled with plain values. */
    async function insertDirect(table: string, tenantId: number, values: Row, marker: string): Promise<number> {
      const cols = columns.get(table);
      if (!cols) throw new Error(`table ${table} not found`);
      const row: Row = { ...values, tenant_id: tenantId, id: newId() };
      for (const col of cols) {
        if (col.name in row || col.isNullable || col.hasDefaultValue) continue;
        if (/_at$/.test(col.name)) row[col.name] = Date.now();
        else if (/int|numeric|real|double/i.test(col.dataType)) row[col.name] = 0;
        else row[col.name] = `${marker}${++counter}`;
      }
      for (const name of Object.keys(row)) if (!cols.some((c) => c.name === name)) delete row[name];
      await app.database.db.insertInto(table as "test" as never).values(row as never).execute();
      return row.id as number;
    }

    /** Every row of B's tenant in every tenant table, and B's tenant row. */
    async function snapshotOf(who: Who): Promise<Record<string, string[]>> {
      const tenantId = tenants[who].tenantId;
      const snapshot: Record<string, string[]> = {};
      for (const table of tenantTables) {
        const result = await sql<Row>`select * from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(app.database.db);
        // A session's last_seen_at moves when its own user reads (B's reads below, once a minute has passed on a slow
        // run); what A does never touches it, which the rest of the row still shows.
        const rowsOf = table === "session" ? result.rows.map(({ last_seen_at: _seen, ...r }) => r) : result.rows;
        snapshot[table] = rowsOf.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();
      }
      const tenant = await sql<Row>`select * from tenant where id = ${tenantId}`.execute(app.database.db);
      snapshot.tenant = tenant.rows.map((r) => JSON.stringify(r));
      return snapshot;
    }

    /** B's row id for a parameter like `userId` / `roleIds`, or the walked resource's own for `id`. */
    async function idFor(name: string, def: ResourceDef, who: Who): Promise<number | null> {
      if (def.table === "tenant" && (name === "id" || name === "ids")) return tenants[who].tenantId;
      if (name === "id" || name === "ids") return def.scope === "tenant" ? (rows[who].get(resourceKey(def)) ?? null) : anyGlobalId(def);
      if (name === "tenantId") return tenants[who].tenantId;
      if (idOverrides[name.replace(/s$/, "")]) return idOverrides[name.replace(/s$/, "")](who);
      const entity = name.replace(/Ids?$/, "");
      const table = entity.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      // An entity named as the spec names its screen (vehicles) is found by its table (vehicle) from a field's name.
      const target =
        resources.find((r) => r.module === def.module && r.entity === entity) ??
        resources.find((r) => r.entity === entity) ??
        resources.find((r) => r.entity.toLowerCase() === entity.toLowerCase()) ??
        resources.find((r) => r.scope === "tenant" && r.table === table);
      if (!target) {
        // Not declared (yet): a tenant table of that name (warehouse) still gets a row of its own.
        if (!tenantTables.includes(table)) return rows[who].get(resourceKey(def)) ?? null;
        const cacheKey = `table:${table}`;
        if (!rows[who].has(cacheKey)) rows[who].set(cacheKey, await insertDirect(table, tenants[who].tenantId, {}, MARK[who]));
        return rows[who].get(cacheKey) as number;
      }
      if (target.scope === "global") return anyGlobalId(target);
      return ensureRow(target, who);
    }

    /** Query or body values of an endpoint aimed at B: ids of B, harmless values of A for the rest. */
    async function inputFor(schema: JsonSchema, def: ResourceDef, pick: (name: string) => Who, onlyIds: boolean, marker = MARK.a) {
      const input: Row = {};
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const required = schema.required?.includes(name) ?? false;
        const types = [prop.type, ...(prop.anyOf ?? []).map((p) => p.type)].flat().filter(Boolean);
        if (/(^id|Id)s?$/.test(name)) {
          const id = await idFor(name, def, pick(name));
          if (id === null) continue;
          input[name] = name.endsWith("s") || types.includes("array") ? [id] : id;
        } else if (onlyIds && !required) {
          continue;
        } else if (prop.enum?.length) {
          input[name] = name === "format" && prop.enum.includes("csv") ? "csv" : prop.enum[0];
        } else if (/password/i.test(name)) {
          input[name] = "Sample-Pass-2026!";
        } else if (types.includes("array")) {
          input[name] = [];
        } else if (types.includes("number") || types.includes("integer")) {
          input[name] = 1;
        } else if (types.includes("boolean")) {
          input[name] = false;
        } else {
          input[name] = `${marker}${++counter}`;
        }
      }
      return input;
    }

    async function call(endpoint: Endpoint, query: Row, body: unknown, who: Who = "a") {
      const url = new URL(`${ORIGIN}${endpoint.path}`);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
      const headers = new Headers({ Authorization: `Bearer ${tokenOf(who)}`, Origin: ORIGIN });
      let payload: string | undefined;
      if (endpoint.method === "POST") {
        headers.set("Content-Type", "application/json");
        payload = JSON.stringify(body ?? {});
      }
      const response = await app.api.handle(new Request(url, { method: endpoint.method, headers, body: payload }), "127.0.0.1");
      const text = await response.text();
      let status = response.status;
      try {
        status = (JSON.parse(text) as { status: number }).status;
      } catch {
        // files and images
      }
      return { status, text };
    }

    /** Nothing of B in a response: not its marker, not its row ids, not its tenant id. */
    function expectNoTrace(what: string, text: string) {
      expect(text, what).not.toContain(MARK.b);
      for (const id of [...rows.b.values(), tenants.b.tenantId, tenants.b.adminUserId]) expect(text, `${what} shows B's id ${id}`).not.toContain(String(id));
    }

    function endpointsOf(def: ResourceDef): Endpoint[] {
      const prefix = `/api/v1/${def.module}/${def.entity}/`;
      return app.api.endpoints.filter((e) => (e.resource === resourceKey(def) || e.path.startsWith(prefix)) && !SKIP.has(e.path) && !/logout/i.test(e.path));
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      tenants.a = await createTenantWithAdmin(app, superToken, "isoa");
      tenants.b = await createTenantWithAdmin(app, superToken, "isob");
      const schema = dialect === "postgres" ? (await sql<{ s: string }>`select current_schema() as s`.execute(app.database.db)).rows[0].s : undefined;
      const tables = (await app.database.db.introspection.getTables()).filter((t) => !schema || t.schema === schema);
      columns = new Map(tables.map((t) => [t.name, t.columns]));
      tenantTables = tables.filter((t) => t.columns.some((c) => c.name === "tenant_id")).map((t) => t.name).sort();
      for (const def of tenantScoped()) {
        await ensureRow(def, "b");
        await ensureRow(def, "a");
      }
      // B's own calls beyond the generic ones (roles, menus, warehouses, restaurants of its user) fill its link tables;
      // the first test checks that ours did.
      for (const def of tenantScoped()) {
        for (const endpoint of endpointsOf(def)) {
          const action = endpoint.path.split("/").pop() as string;
          if (endpoint.method !== "POST" || GENERIC.has(action) || endpoint.resource !== resourceKey(def)) continue;
          const body = await inputFor(jsonSchema(endpoint.body), def, () => "b", false, MARK.b);
          await call(endpoint, {}, body, "b");
        }
      }
    }, 120_000);
    afterAll(async () => {
      await app?.close();
    });

    test("every tenant-scoped resource has a row in each tenant, and B its links", async () => {
      const before = await snapshotOf("b");
      for (const def of tenantScoped()) {
        expect(rows.b.get(resourceKey(def)), resourceKey(def)).toBeTypeOf("number");
        expect(rows.a.get(resourceKey(def)), resourceKey(def)).toBeTypeOf("number");
      }
      expect(tenantTables).toEqual(expect.arrayContaining(["user", "org", "role", "user_role", "role_menu", "org_discount", "user_warehouse"]));
      for (const table of ["user_role", "role_menu", "user_warehouse", "user_restaurant"] as const) {
        expect(before[table]?.length, `B has ${table} rows`).toBeGreaterThan(0);
      }
    });

    for (const def of resources) {
      const key = resourceKey(def);
      test(`${key}: tenant A reads and changes nothing of tenant B`, async () => {
        const before = await snapshotOf("b");
        const bId = rows.b.get(key);
        const endpoints = endpointsOf(def);
        expect(endpoints.length, `${key} has endpoints`).toBeGreaterThan(0);
        for (const endpoint of endpoints) {
          const action = endpoint.path.split("/").pop() as string;
          const generic = GENERIC.has(action) && endpoint.resource === key;
          const what = `${endpoint.method} ${endpoint.path}`;
          // Global tables are not tenant data: their writes are not a tenant's to test here.
          if (def.scope === "global" && !def.superOnly && endpoint.method === "POST") continue;
          if (def.scope === "global" && !def.superOnly && endpoint.mutates) continue;

          if (action === "create") {
            const values = { ...(await sampleValues(def, "a", "b")), tenantId: tenants.b.tenantId, ...(bId ? { id: bId } : {}) };
            const result = await call(endpoint, {}, values);
            expectNoTrace(what, result.text);
            if (result.status === 200) {
              const created = JSON.parse(result.text).data as { id: number; tenantId?: number };
              expect(created.id, what).not.toBe(bId);
              if (def.scope === "tenant") expect(created.tenantId, what).toBe(tenants.a.tenantId);
            } else if (def.scope === "tenant" && def.fields.some((f) => f.type === "relation" && findResource(f.relation ?? "")?.scope === "tenant")) {
              expect(result.status, `${what} with B's relations`).toBe(400);
            }
            // With A's own relations, the extra fields are ignored and the row lands in A.
            if (!def.superOnly) {
              const own = await call(endpoint, {}, { ...(await sampleValues(def, "a")), tenantId: tenants.b.tenantId, ...(bId ? { id: bId } : {}) });
              expectNoTrace(what, own.text);
              // A rule of the entity may refuse a second row like A's sample (one per device, …); it must say so, not fail.
              expect([200, 400, 409], `${what}: ${own.text}`).toContain(own.status);
              if (own.status === 200) {
                const created = JSON.parse(own.text).data as { id: number; tenantId?: number };
                expect(created.id).not.toBe(bId);
                if (def.scope === "tenant") expect(created.tenantId, what).toBe(tenants.a.tenantId);
              }
            }
            continue;
          }

          if (action === "update" && generic) {
            const onB = await call(endpoint, {}, { ...(await sampleValues(def, "a")), id: bId ?? 1 });
            expectNoTrace(what, onB.text);
            expect(onB.status, `${what}: ${onB.text}`).not.toBe(200);
            const aId = rows.a.get(key);
            if (aId && !def.superOnly) {
              const own = await call(endpoint, {}, { id: aId, tenantId: tenants.b.tenantId, roleIds: [tenants.b.adminRoleId], password: "Taken-Over-2026!" });
              expect(own.status, `${what}: ${own.text}`).toBe(200);
              const row = await sql<{ tenant_id: number }>`select tenant_id from ${sql.table(def.table)} where id = ${aId}`.execute(app.database.db);
              expect(row.rows.map((r) => Number(r.tenant_id)), what).toEqual([tenants.a.tenantId]);
            }
            continue;
          }

          const querySchema = jsonSchema(endpoint.query);
          const bodySchema = jsonSchema(endpoint.body);
          const allB = () => "b" as Who;
          const query = await inputFor(querySchema, def, allB, endpoint.method === "GET");
          const body = endpoint.method === "POST" ? await inputFor(bodySchema, def, allB, false) : undefined;
          const result = await call(endpoint, query, body);
          expectNoTrace(what, result.text);
          if (generic && ["getInfo", "delete", "deleteBatch"].includes(action) && (def.scope === "tenant" || def.superOnly)) {
            expect(result.status, `${what}: ${result.text}`).not.toBe(200);
          }
          if (def.superOnly && generic) expect(result.status, what).toBe(403);

          // The subject of the call is A's own row, the other ids B's: B's ids must be refused, not linked.
          if (endpoint.method === "POST" && !generic && def.scope === "tenant") {
            const names = Object.keys(bodySchema.properties ?? {});
            const subject = names.find((n) => n === "id") ?? names.find((n) => /Id$/.test(n) && idForSameResource(n, def));
            const others = names.filter((n) => n !== subject && /(^id|Id)s?$/.test(n) && n !== "tenantId");
            if (subject && others.length) {
              const mixed = await inputFor(bodySchema, def, (n) => (n === subject ? "a" : "b"), false);
              const pointsAtB = others.map((n) => isTenantRow(n, def));
              const outcome = await call(endpoint, {}, mixed);
              expectNoTrace(`${what} (A's subject)`, outcome.text);
              if (pointsAtB.some(Boolean)) expect(outcome.status, `${what} (A's subject, B's ${others}): ${outcome.text}`).not.toBe(200);
            }
          }
        }
        expect(await snapshotOf("b"), `${key} left B as it was`).toEqual(before);
      });
    }

    function idForSameResource(name: string, def: ResourceDef) {
      return name.replace(/Id$/, "") === def.entity;
    }

    function isTenantRow(name: string, def: ResourceDef) {
      if (idOverrides[name.replace(/s$/, "")]) return true;
      const entity = name.replace(/Ids?$/, "");
      const target = resources.find((r) => r.entity === entity) ?? (name === "id" || name === "ids" ? def : undefined);
      return target ? target.scope === "tenant" : true;
    }

    test("the cashier's reads (counter, lookup, print summary) show tenant A nothing of tenant B", async () => {
      const db = app.database.db;
      const b = tenants.b.tenantId;
      // B's order as a counter takes it, today: B's own summary counts it, A's must not.
      await sql`update meal_order set order_source = 'cashier', paid_at = ${Date.now()}, restaurant_id = null where tenant_id = ${b}`.execute(db);
      const before = await snapshotOf("b");
      const card = (await sql<{ card_no: string }>`select card_no from user_ic_card where tenant_id = ${b}`.execute(db)).rows[0].card_no;
      const code = (await sql<{ user_code: string }>`select user_code from user_info where tenant_id = ${b}`.execute(db)).rows[0].user_code;
      const cashierId = (await sql<{ cashier_id: number }>`select cashier_id from meal_order where tenant_id = ${b}`.execute(db)).rows[0].cashier_id;
      const endpoint = (path: string) => app.api.endpoints.find((e) => e.path === path) as Endpoint;
      const [counter, lookup, summary] = ["/api/v1/zhct/cashier/counter", "/api/v1/zhct/cashier/lookup", "/api/v1/zhct/cashierPrint/summary"].map(endpoint);
      const restaurantId = await idOverrides.restaurantId("b");
      const mealTimesId = rows.b.get("zhct/mealTimes") as number;
      // The counter falls back to A's own restaurant; the summary refuses B's restaurant and cashier as filters.
      for (const [e, query, status] of [
        [counter, {}, 200],
        [counter, { restaurantId, mealTimesId }, 200],
        [summary, {}, 200],
        [summary, { restaurantId }, 400],
        [summary, { cashierId }, 400],
      ] as const) {
        const result = await call(e, query, undefined);
        expect(result.status, `${e.path}: ${result.text}`).toBe(status);
        expectNoTrace(e.path, result.text);
      }
      for (const value of [card, code]) {
        const result = await call(lookup, { code: value }, undefined);
        expect(result.status, result.text).toBe(404);
        expectNoTrace(lookup.path, result.text.replace(value, ""));
      }
      const theirs = JSON.parse((await call(summary, {}, undefined, "b")).text) as { data: { totals: { count: number } } };
      expect(theirs.data.totals.count).toBeGreaterThan(0);
      expect(await snapshotOf("b")).toEqual(before);
    });

    test("tenant A's admin holds no super-only screen and no way into another tenant", async () => {
      const switched = await app.call("POST", "/api/v1/sys/tenant/switch", { token: tenants.a.token, body: { tenantId: tenants.b.tenantId } });
      expect(switched.body.status).toBe(403);
      const info = await app.call<{ tenantId: number }>("GET", "/api/v1/auth/user/info", { token: tenants.a.token });
      expect(info.body.data.tenantId).toBe(tenants.a.tenantId);
    });
  });
}
