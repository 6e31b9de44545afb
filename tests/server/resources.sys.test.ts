import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtInDicts } from "../../resources/dicts";
import {
  SECRET_MASK,
  filterFields,
  formFields,
  resourceKey,
  sortableFields,
  type FieldDef,
  type ResourceDef,
} from "../../resources/define";
import { resources } from "../../resources/index";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID, ROOT_ORG_ID, stableId } from "../../server/modules/seed";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { uploadedReference } from "../helpers/fixtures";

/**
 * Walks every system-management declaration of this suite's owner through the generic API: create with values built
 * from the declaration, getInfo, findPage with each declared filter and sort, update (and a stale one), the
 * required-field messages, refused parameters, delete, and the operation log.
 */
const OWNED_ELSEWHERE = new Set(["sys/tenant", "sys/imageObj", "sys/operationLog"]);
const walked = resources.filter((r) => r.module === "sys" && !OWNED_ELSEWHERE.has(resourceKey(r)));

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };
type FieldErrors = { fieldErrors: Record<string, string[]> };

interface Refs {
  dictCode: string;
  deviceIds: number[];
  merchantId: number;
  parameterCodes: string[];
  orgIds: number[];
  /** References of uploads, two of each kind, for image and file fields. */
  uploads: Record<"image" | "file", string[]>;
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, "0");

/** Values a field's declaration accepts, the n-th of a run (unique where the field is). */
function generic(field: FieldDef, n: number, run: number, refs: Refs): unknown {
  switch (field.type) {
    case "text":
      return `${field.label}${run}-${n}`;
    case "longText":
      return `${field.label}的说明 ${run}-${n}`;
    case "number":
      return Math.min((field.min ?? 0) + n, field.max ?? Number.MAX_SAFE_INTEGER);
    case "money":
      return 100 * n + 1;
    case "enum":
      return String(field.defaultValue ?? builtInDicts[field.dict as string].options[0].value);
    case "boolean":
      return n % 2;
    case "date":
      return `2031-0${n}-1${run % 10}`;
    case "datetime":
      return Date.UTC(2026, 0, n, 8, run % 60);
    case "time":
      return `0${n}:30`;
    case "image":
    case "file":
      return refs.uploads[field.type][n % 2];
    default:
      return undefined;
  }
}

/** Values of fields whose declaration has a pattern or whose service has a rule, by resource. */
function specific(def: ResourceDef, n: number, run: number, refs: Refs): Row {
  const tag = `${run}x${n}`;
  switch (resourceKey(def)) {
    case "sys/subsystem":
      return { sysCode: `sub${tag}` };
    case "sys/menu":
      return { subsystemId: 1, parentId: stableId("group:/admin/sys"), menuType: "page", menuPath: `/test/page${tag}`, permission: `test:page${run}:v${n}`, roles: "admin,cashier" };
    case "sys/dict":
      return { dictCode: `testDict${tag}` };
    case "sys/dictItem":
      return { dictCode: refs.dictCode, itemValue: `${run}${n}`, itemType: "1" };
    case "sys/device":
      return { deviceCode: `DEV-${tag}`, deviceType: "box", orgId: ROOT_ORG_ID, ip: `10.0.${run % 256}.${n}`, mac: `AA:BB:CC:DD:${hex(run % 256, 2)}:${hex(n, 2)}` };
    case "sys/appVersion":
      return { versionName: `1.${run}.${n}`, versionCode: run * 100 + n, md5: hex(run * 100 + n, 32) };
    case "sys/modelVersion":
      return { version: `m${run}.${n}`, md5: hex(run * 100 + n, 32) };
    case "sys/exceptionInfo":
      return { deviceId: refs.deviceIds[0], handled: "1" };
    case "sys/parameterConfig":
      return { paramCode: `test.p${tag}` };
    case "sys/announcement":
      return { publishStatus: "1" };
    case "sys/merchant":
      return { merchantCode: `M${tag}`, contactPhone: "13800000000", settlementAccount: `62220000${run}${n}`.padEnd(16, "0") };
    case "sys/merchantConfig":
      return { merchantId: refs.merchantId, parameterCode: refs.parameterCodes[n - 1] };
    case "sys/merchantOrg":
      return { merchantId: refs.merchantId, orgId: refs.orgIds[n - 1] };
    case "sys/printDevice":
      return { printerSn: `SN${run}X${n}`, orgId: ROOT_ORG_ID };
    case "sys/deviceDetectConfig":
      return { deviceId: refs.deviceIds[n - 1] };
    case "sys/holiday":
      return { holidayDate: `2031-0${n}-1${run % 10}` };
    case "sys/iccardInit":
      return { cardSerial: `${hex(run, 6)}${hex(n, 2)}`, sectors: "1-15" };
    default:
      throw new Error(`no sample values for ${resourceKey(def)}: add them here`);
  }
}

function sampleValues(def: ResourceDef, n: number, run: number, refs: Refs): Row {
  const values: Row = {};
  for (const field of formFields(def)) {
    const value = generic(field, n, run, refs);
    if (value !== undefined && field.type !== "treeParent" && field.type !== "relation") values[field.name] = value;
  }
  return { ...values, ...specific(def, n, run, refs) };
}

/** What the API gives back for a value sent: dictionary values as strings, flags as 0/1. */
function expected(field: FieldDef, value: unknown): unknown {
  // A secret is write-only: an answer says only that it is set.
  if (field.secret) return SECRET_MASK;
  if (field.type === "enum") return String(value);
  if (field.type === "boolean") return value ? 1 : 0;
  return value;
}

const missingMessage = (field: FieldDef) =>
  `${["enum", "relation", "treeParent", "date", "datetime", "time", "boolean", "image", "file"].includes(field.type) ? "请选择" : "请输入"}${field.label}`;

/** The field an update changes: every walked declaration has a long text free of rules. */
function editableText(def: ResourceDef): FieldDef {
  return formFields(def).find((f) => f.type === "longText") as FieldDef;
}

const compareValues = (a: unknown, b: unknown) => (typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)));

function matchesFilter(field: FieldDef, record: Row, value: unknown): boolean {
  const actual = record[field.name];
  if (field.filter === "like") return String(actual).toLowerCase().includes(String(value).toLowerCase());
  if (field.filter === "range") return actual !== null && compareValues(actual, value) === 0;
  return String(actual) === String(value);
}


for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let token: string;
    let refs: Refs;
    let run = 0;

    const get = <T = Row>(path: string, query: Record<string, string | number> = {}) => {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return app.call<T>("GET", `${path}${Object.keys(query).length ? `?${search}` : ""}`, { token });
    };
    const post = <T = Row>(path: string, body: unknown) => app.call<T>("POST", path, { token, body });

    async function created(path: string, body: Row): Promise<Row> {
      const result = await post(path, body);
      expect(result.body.message).toBe("操作成功");
      return result.body.data;
    }

    async function insertOrg(name: string): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: DEFAULT_TENANT_ID, id, parent_id: ROOT_ORG_ID, org_name: name, org_code: null, org_type: "stall", sort: 0, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      const dictCode = "walkFixtureDict";
      await created("/api/v1/sys/dict/create", { dictCode, dictName: "遍历用字典", status: "1" });
      const deviceIds: number[] = [];
      for (const n of [1, 2]) {
        const device = await created("/api/v1/sys/device/create", { deviceCode: `FIX-${n}`, deviceName: `夹具设备${n}`, deviceType: "detect_server", status: "1" });
        deviceIds.push(device.id as number);
      }
      const merchant = await created("/api/v1/sys/merchant/create", { merchantCode: "FIXM", merchantName: "夹具商户", status: "1" });
      const parameterCodes: string[] = [];
      for (const n of [1, 2]) {
        const parameter = await created("/api/v1/sys/parameterConfig/create", { paramCode: `fixture.p${n}`, paramName: `夹具参数${n}`, paramValue: String(n) });
        parameterCodes.push(parameter.paramCode as string);
      }
      const uploads = { image: [await uploadedReference(app, "image"), await uploadedReference(app, "image")], file: [await uploadedReference(app, "file"), await uploadedReference(app, "file")] };
      refs = { dictCode, deviceIds, merchantId: merchant.id as number, parameterCodes, orgIds: [await insertOrg("一号档口"), await insertOrg("二号档口")], uploads };
    });
    afterAll(async () => {
      await app?.close();
    });

    test("every walked declaration is a system-management screen of spec §2", () => {
      const screens = walked.map((r) => r.screen).sort();
      expect(screens).toEqual(
        [
          "announcement", "appversion", "device", "devicedetectconfig", "dict", "dictitem", "exceptioninfo", "holiday", "iccard",
          "menu", "merchant", "merchantconfig", "merchantorg", "modelversion", "parameterconfig", "printdevice", "subsystem",
        ].sort(),
      );
      for (const def of walked) expect(def.screenBase).toBe("/admin/sys");
    });

    for (const def of walked) {
      describe(resourceKey(def), () => {
        const base = `/api/v1/${def.module}/${def.entity}`;
        const records: Row[] = [];
        let runOf = 0;

        beforeAll(async () => {
          runOf = ++run;
          for (const n of [1, 2]) {
            const values = sampleValues(def, n, runOf, refs);
            const result = await post(`${base}/create`, values);
            expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
            records.push(result.body.data);
          }
        });

        test("create returns the record with the values sent, and getInfo reads it back", async () => {
          const values = sampleValues(def, 1, runOf, refs);
          for (const field of formFields(def)) {
            if (values[field.name] !== undefined) expect(records[0][field.name], field.name).toEqual(expected(field, values[field.name]));
          }
          expect(typeof records[0].id).toBe("number");
          expect(typeof records[0].updatedAt).toBe("number");
          const info = await get(`${base}/getInfo`, { id: records[0].id as number });
          expect(info.body.status).toBe(200);
          expect(info.body.data).toMatchObject(records[0]);
        });

        for (const field of filterFields(def)) {
          test(`findPage filters by ${field.name} (${field.filter})`, async () => {
            const value = records[0][field.name];
            expect(value, `sample values leave ${field.name} empty`).not.toBeNull();
            const query = field.filter === "range" ? { [`${field.name}Begin`]: value as string, [`${field.name}End`]: value as string } : { [field.name]: value as string };
            // Every page of the filtered list: seeded rows (a dictionary's items) may fill more than one.
            const found: Row[] = [];
            for (let pageNum = 1; ; pageNum++) {
              const page = await get<Page>(`${base}/findPage`, { ...query, pageSize: 100, pageNum });
              expect(page.body.status).toBe(200);
              found.push(...page.body.data.records);
              if (found.length >= page.body.data.total || page.body.data.records.length === 0) break;
            }
            expect(found.map((r) => r.id)).toContain(records[0].id);
            for (const record of found) expect(matchesFilter(field, record, value), JSON.stringify(record)).toBe(true);
            if (String(records[1][field.name]) !== String(value) && field.filter !== "like") {
              expect(found.map((r) => r.id)).not.toContain(records[1].id);
            }
          });
        }

        for (const name of sortableFields(def)) {
          test(`findPage sorts by ${name} both ways`, async () => {
            const all = async (dir: "asc" | "desc") => {
              const rows: Row[] = [];
              for (let pageNum = 1; ; pageNum++) {
                const page = await get<Page>(`${base}/findPage`, { sort: `${name},${dir}`, pageSize: 100, pageNum });
                expect(page.body.status).toBe(200);
                rows.push(...page.body.data.records);
                if (rows.length >= page.body.data.total) return rows;
              }
            };
            const asc = await all("asc");
            const desc = await all("desc");
            expect(asc.map((r) => r.id)).toEqual(desc.map((r) => r.id).reverse());
            expect(asc.map((r) => r.id)).toEqual(expect.arrayContaining(records.map((r) => r.id)));
            const field = def.fields.find((f) => f.name === name);
            if (!field || ["number", "money", "date", "datetime"].includes(field.type)) {
              const values = asc.map((r) => r[name]).filter((v) => v !== null);
              expect(values).toEqual([...values].sort(compareValues));
            }
          });
        }

        test("findPage refuses an undeclared sort or filter", async () => {
          const unsortable = def.fields.find((f) => !f.sortable);
          for (const sort of ["password,asc", `${unsortable?.name ?? "nothing"},asc`, "createdAt,sideways"]) {
            const result = await get(`${base}/findPage`, { sort });
            expect(result.http, sort).toBe(400);
            expect(result.body.status).toBe(400);
          }
          const undeclared = await get(`${base}/findPage`, { tenantId: 2 });
          expect(undeclared.body.status).toBe(400);
          const unfiltered = def.fields.find((f) => !f.filter);
          if (unfiltered) expect((await get(`${base}/findPage`, { [unfiltered.name]: "x" })).body.status).toBe(400);
        });

        test("create without the required fields names each one in Chinese", async () => {
          const result = await post<FieldErrors>(`${base}/create`, {});
          expect(result.body.status).toBe(400);
          const required = formFields(def).filter((f) => f.required);
          expect(required.length).toBeGreaterThan(0);
          for (const field of required) expect(result.body.data.fieldErrors[field.name], field.name).toContain(missingMessage(field));
        });

        if (def.actions.includes("update")) {
          test("update with the version read saves; the same version again is stale", async () => {
            const field = editableText(def);
            const record = records[0];
            const value = `修改后的说明 ${runOf}`;
            const updated = await post(`${base}/update`, { id: record.id, updatedAt: record.updatedAt, [field.name]: value });
            expect(updated.body.status).toBe(200);
            expect(updated.body.data[field.name]).toBe(value);
            expect(updated.body.data.updatedAt as number).toBeGreaterThan(record.updatedAt as number);
            const info = await get(`${base}/getInfo`, { id: record.id as number });
            expect(info.body.data[field.name]).toBe(value);

            const stale = await post(`${base}/update`, { id: record.id, updatedAt: record.updatedAt, [field.name]: "晚到的修改" });
            expect(stale.http).toBe(409);
            expect(stale.body.status).toBe(409);
            expect(stale.body.message).toContain("数据已被他人修改");
            expect((await get(`${base}/getInfo`, { id: record.id as number })).body.data[field.name]).toBe(value);
            records[0] = info.body.data;
          });

          test("update refuses an emptied required field with its Chinese message", async () => {
            const field = formFields(def).find((f) => f.required) as FieldDef;
            const result = await post<FieldErrors>(`${base}/update`, { id: records[1].id, updatedAt: records[1].updatedAt, [field.name]: "" });
            expect(result.body.status).toBe(400);
            expect(result.body.data.fieldErrors[field.name]).toContain(missingMessage(field));
          });
        } else {
          test("update is not offered", async () => {
            expect((await post(`${base}/update`, { id: records[0].id, remark: "x" })).body.status).toBe(404);
          });
        }

        if (def.actions.includes("delete")) {
          test("delete removes the record; getInfo then answers 404", async () => {
            const id = records[1].id as number;
            const result = await get(`${base}/delete`, { id });
            expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
            const info = await get(`${base}/getInfo`, { id });
            expect(info.http).toBe(404);
            expect(info.body.message).toContain("不存在");
            expect((await get(`${base}/delete`, { id })).body.status).toBe(404);
          });
        } else {
          test("delete is not offered", async () => {
            expect((await get(`${base}/delete`, { id: records[1].id as number })).body.status).toBe(404);
            expect((await get(`${base}/getInfo`, { id: records[1].id as number })).body.status).toBe(200);
          });
        }

        test("the operation log has each change with who made it", async () => {
          const logged = async (id: unknown) =>
            app.database.db
              .selectFrom("operation_log")
              .select(["action", "user_name", "module", "tenant_id"])
              .where("entity", "=", resourceKey(def))
              .where("entity_id", "=", id as number)
              .orderBy("created_at")
              .orderBy("id")
              .execute();
          const first = await logged(records[0].id);
          expect(first.map((l) => l.action)).toEqual(def.actions.includes("update") ? ["create", "update"] : ["create"]);
          expect(first.every((l) => l.user_name === "admin" && l.module === "sys" && l.tenant_id === DEFAULT_TENANT_ID)).toBe(true);
          const second = await logged(records[1].id);
          expect(second.map((l) => l.action)).toEqual(def.actions.includes("delete") ? ["create", "delete"] : ["create"]);
        });
      });
    }
  });
}
