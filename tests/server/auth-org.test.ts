import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

type FieldErrors = { fieldErrors: Record<string, string[]> };
interface Org {
  id: number;
  parentId: number | null;
  parentIdLabel?: string | null;
  orgName: string;
  orgType: string;
  updatedAt: number;
}
interface Page<T> {
  records: T[];
  total: number;
}

for (const dialect of dialects) {
  describe(`${dialect}: orgs, department discounts and the test entity`, () => {
    let app: TestApp;
    let a: TenantFixture;
    let b: TenantFixture;

    const call = <T = unknown>(method: "GET" | "POST", path: string, body?: unknown) => app.call<T>(method, path, { token: a.token, body });
    const createOrg = async (values: Record<string, unknown>) => (await expectOk<Org>(app, "POST", "/api/v1/auth/org/create", a.token, { status: "1", ...values })).id;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      a = await createTenantWithAdmin(app, superToken, "oa");
      b = await createTenantWithAdmin(app, superToken, "ob");
    });
    afterAll(async () => {
      await app?.close();
    });

    describe("org tree", () => {
      let group: number;
      let dept: number;
      let team: number;

      beforeAll(async () => {
        group = await createOrg({ parentId: a.rootOrgId, orgName: "后勤集团", orgCode: "G1", orgType: "org", sort: 1 });
        dept = await createOrg({ parentId: group, orgName: "餐饮部", orgCode: "D1", orgType: "department", sort: 2 });
        team = await createOrg({ parentId: dept, orgName: "面点组", orgType: "stall", sort: 3 });
      });

      test("rows come back with their parent and its name, filtered by parent", async () => {
        const page = await expectOk<Page<Org>>(app, "GET", `/api/v1/auth/org/findPage?parentId=${dept}`, a.token);
        expect(page.records).toHaveLength(1);
        expect(page.records[0]).toMatchObject({ id: team, parentId: dept, parentIdLabel: "餐饮部", orgName: "面点组", orgType: "stall" });
        const all = await expectOk<Page<Org>>(app, "GET", "/api/v1/auth/org/findPage?pageSize=100", a.token);
        expect(all.total).toBe(4);
        expect(all.records.map((o) => o.orgName)).toEqual(["租户oa", "后勤集团", "餐饮部", "面点组"]);
      });

      test("the tree call nests the tenant's orgs under their parents", async () => {
        interface Node { orgName: string; children: Node[] }
        const tree = await expectOk<Node[]>(app, "GET", "/api/v1/auth/org/tree", a.token);
        const shape = (nodes: Node[]): unknown[] => nodes.map((n) => (n.children.length ? { [n.orgName]: shape(n.children) } : n.orgName));
        expect(shape(tree)).toEqual([{ 租户oa: [{ 后勤集团: [{ 餐饮部: ["面点组"] }] }] }]);
        const other = await expectOk<Node[]>(app, "GET", "/api/v1/auth/org/tree", b.token);
        expect(shape(other)).toEqual(["租户ob"]);
      });

      test("validation: required name and type, known type, unique code", async () => {
        const missing = await call<FieldErrors>("POST", "/api/v1/auth/org/create", { parentId: a.rootOrgId, orgType: "", status: "1" });
        expect(missing.body.status).toBe(400);
        expect(missing.body.data.fieldErrors.orgName).toEqual(["请输入机构名称"]);
        expect(missing.body.data.fieldErrors.orgType).toEqual(["请选择机构类型"]);
        const dup = await call<FieldErrors>("POST", "/api/v1/auth/org/create", { orgName: "重复", orgCode: "G1", orgType: "org", status: "1" });
        expect(dup.body.data.fieldErrors.orgCode).toEqual(["机构编码已存在"]);
        // The same code is free in another tenant.
        expect((await app.call("POST", "/api/v1/auth/org/create", { token: b.token, body: { orgName: "B集团", orgCode: "G1", orgType: "org", status: "1" } })).body.status).toBe(200);
      });

      test("the parent must be an org of the same tenant", async () => {
        const foreign = await call<FieldErrors>("POST", "/api/v1/auth/org/create", { parentId: b.rootOrgId, orgName: "越界", orgType: "department", status: "1" });
        expect(foreign.body.status).toBe(400);
        expect(foreign.body.data.fieldErrors.parentId).toEqual(["所选上级机构不存在"]);
        const moved = await call<FieldErrors>("POST", "/api/v1/auth/org/update", { id: team, parentId: b.rootOrgId });
        expect(moved.body.data.fieldErrors.parentId).toEqual(["所选上级机构不存在"]);
        const row = await app.database.db.selectFrom("org").select(["tenant_id", "parent_id"]).where("id", "=", team).executeTakeFirstOrThrow();
        expect(row).toEqual({ tenant_id: a.tenantId, parent_id: dept });
      });

      test("no cycles: an org cannot move under itself or its descendants", async () => {
        for (const parentId of [group, dept, team]) {
          const result = await call<FieldErrors>("POST", "/api/v1/auth/org/update", { id: group, parentId });
          expect(result.body.status).toBe(400);
          expect(result.body.data.fieldErrors.parentId).toEqual(["上级机构不能是本机构或其下级机构"]);
        }
        expect((await call("POST", "/api/v1/auth/org/update", { id: team, parentId: group })).body.status).toBe(200);
        expect((await call("POST", "/api/v1/auth/org/update", { id: team, parentId: dept })).body.status).toBe(200);
      });

      test("an org with children or users cannot be deleted; a subtree deleted leaves first can", async () => {
        const withChildren = await call("GET", `/api/v1/auth/org/delete?id=${dept}`);
        expect(withChildren.body.status).toBe(409);
        expect(withChildren.body.message).toBe("该机构下还有下级机构，请先删除或移走下级机构");

        const staff = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/user/create", a.token, {
          user: { userName: "cook1", realName: "厨师", orgId: team, status: "1" },
          roleIds: [],
        });
        const withUsers = await call("GET", `/api/v1/auth/org/delete?id=${team}`);
        expect(withUsers.body.status).toBe(409);
        expect(withUsers.body.message).toBe("该机构下还有用户，请先删除或调走这些用户");
        await expectOk(app, "POST", "/api/v1/auth/user/update", a.token, { id: staff.id, orgId: null });

        const wrongOrder = await call("POST", "/api/v1/auth/org/deleteBatch", { ids: [dept, team] });
        expect(wrongOrder.body.status).toBe(409);
        expect(await app.database.db.selectFrom("org").select("id").where("id", "in", [dept, team]).execute()).toHaveLength(2);
        expect((await call("POST", "/api/v1/auth/org/deleteBatch", { ids: [team, dept] })).body).toMatchObject({ status: 200, data: { deleted: 2 } });
      });
    });

    describe("department discounts", () => {
      let dept: number;
      let restaurant: number;
      const base = { mealType: "lunch", discountRate: 80, validFrom: "2026-01-01", validTo: "2026-06-30", status: "1" };

      beforeAll(async () => {
        dept = await createOrg({ parentId: a.rootOrgId, orgName: "教务处", orgType: "department" });
        restaurant = await createOrg({ parentId: a.rootOrgId, orgName: "二食堂", orgType: "restaurant" });
      });

      test("round trip with the department's name", async () => {
        const created = await expectOk<{ id: number; discountRate: number; mealType: string }>(app, "POST", "/api/v1/auth/orgDiscount/create", a.token, { ...base, orgId: dept });
        expect(created).toMatchObject({ discountRate: 80, mealType: "lunch" });
        const info = await expectOk<{ orgIdLabel: string; validTo: string }>(app, "GET", `/api/v1/auth/orgDiscount/getInfo?id=${created.id}`, a.token);
        expect(info).toMatchObject({ orgIdLabel: "教务处", validTo: "2026-06-30" });
        const page = await expectOk<Page<{ id: number }>>(app, "GET", "/api/v1/auth/orgDiscount/findPage?mealType=lunch&validFromBegin=2026-01-01", a.token);
        expect(page.records.map((r) => r.id)).toEqual([created.id]);
      });

      test("validation messages: rate 0–100 as an integer, dates, meal type, department only", async () => {
        const cases: Array<[Record<string, unknown>, string, string]> = [
          [{ discountRate: 101 }, "discountRate", "折扣率（%）不能大于 100"],
          [{ discountRate: -1 }, "discountRate", "折扣率（%）不能为负数"],
          [{ discountRate: 7.5 }, "discountRate", "折扣率（%）必须是整数"],
          [{ discountRate: "" }, "discountRate", "请输入折扣率（%）"],
          [{ validFrom: "2026/01/01" }, "validFrom", "生效日期格式应为 YYYY-MM-DD"],
          [{ mealType: "" }, "mealType", "请选择餐别"],
          [{ orgId: "" }, "orgId", "请选择部门"],
          [{ orgId: restaurant }, "orgId", "部门折扣只能设置在类型为“部门”的机构上"],
          [{ orgId: b.rootOrgId }, "orgId", "所选部门不存在"],
          [{ validFrom: "2026-07-01", validTo: "2026-06-30" }, "validTo", "失效日期不能早于生效日期"],
        ];
        for (const [change, field, message] of cases) {
          const result = await call<FieldErrors>("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, mealType: "dinner", ...change });
          expect(result.body.status, JSON.stringify(change)).toBe(400);
          expect(result.body.data.fieldErrors[field], JSON.stringify(result.body)).toEqual([message]);
        }
      });

      test("one valid discount per department, meal and day; 'all' covers every meal", async () => {
        const overlap = await call("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, validFrom: "2026-06-01", validTo: "2026-12-31" });
        expect(overlap.body.status).toBe(409);
        expect(overlap.body.message).toBe("该部门在这段日期内已有生效的同餐别折扣");
        const all = await call("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, mealType: "all", validFrom: "2026-03-01", validTo: "2026-03-31" });
        expect(all.body.status).toBe(409);
        expect((await call("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, mealType: "dinner" })).body.status).toBe(200);
        expect((await call("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, validFrom: "2026-07-01", validTo: "2026-12-31" })).body.status).toBe(200);
        // An invalid one does not count, and may overlap.
        expect((await call("POST", "/api/v1/auth/orgDiscount/create", { ...base, orgId: dept, status: "0" })).body.status).toBe(200);
        const later = await expectOk<Page<{ id: number; validFrom: string }>>(app, "GET", "/api/v1/auth/orgDiscount/findPage?validFromBegin=2026-07-01", a.token);
        const moved = await call("POST", "/api/v1/auth/orgDiscount/update", { id: later.records[0].id, validFrom: "2026-05-01" });
        expect(moved.body.status).toBe(409);
      });

      test("a department with discounts cannot be deleted", async () => {
        const result = await call("GET", `/api/v1/auth/org/delete?id=${dept}`);
        expect(result.body.status).toBe(409);
        expect(result.body.message).toBe("该机构仍被其他数据引用，不能删除");
      });
    });

    test("test entity: round trip and required name", async () => {
      const created = await expectOk<{ id: number; updatedAt: number }>(app, "POST", "/api/v1/auth/test/create", a.token, { name: "样例", value: "42", remark: "备注" });
      const updated = await expectOk<{ value: string }>(app, "POST", "/api/v1/auth/test/update", a.token, { id: created.id, updatedAt: created.updatedAt, value: "43" });
      expect(updated.value).toBe("43");
      const missing = await call<FieldErrors>("POST", "/api/v1/auth/test/create", { name: " " });
      expect(missing.body.data.fieldErrors.name).toEqual(["请输入名称"]);
      expect((await call("GET", `/api/v1/auth/test/delete?id=${created.id}`)).body.status).toBe(200);
      expect((await call("GET", `/api/v1/auth/test/getInfo?id=${created.id}`)).body.status).toBe(404);
    });
  });
}
