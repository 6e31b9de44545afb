import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser } from "../helpers/fixtures";
import { loginAs } from "../helpers/api";
import { escapeCell } from "../../server/modules/resource/export";

type Page = { records: Array<Record<string, unknown>>; total: number; pageNum: number; pageSize: number };

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let token: string;
    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      for (let i = 1; i <= 12; i++) {
        const n = String(i).padStart(2, "0");
        const created = await app.call("POST", "/api/v1/auth/role/create", {
          token,
          body: { roleCode: `cook${n}`, roleName: i === 3 ? "=HYPERLINK(\"http://x\")" : `厨师${n}`, roleType: "user", status: i % 4 === 0 ? "0" : "1" },
        });
        expect(created.body.status, created.body.message).toBe(200);
      }
    });
    afterAll(() => app.close());

    test("findPage pages, sorts and filters by declared fields only", async () => {
      const page = await app.call<Page>("GET", "/api/v1/auth/role/findPage?pageSize=10&pageNum=2&sort=roleCode,asc&roleCode=cook", { token });
      expect(page.body.status).toBe(200);
      expect(page.body.data.total).toBe(12);
      expect(page.body.data.records.map((r) => r.roleCode)).toEqual(["cook11", "cook12"]);

      const disabled = await app.call<Page>("GET", "/api/v1/auth/role/findPage?status=0&sort=roleCode,desc", { token });
      expect(disabled.body.data.records.map((r) => r.roleCode)).toEqual(["cook12", "cook08", "cook04"]);

      const like = await app.call<Page>("GET", `/api/v1/auth/role/findPage?roleName=${encodeURIComponent("厨师1")}`, { token });
      expect(like.body.data.records.map((r) => r.roleCode).sort()).toEqual(["cook10", "cook11", "cook12"]);

      // A percent sign is a character to look for, not a wildcard.
      const percent = await app.call<Page>("GET", "/api/v1/auth/role/findPage?roleName=%25", { token });
      expect(percent.body.data.total).toBe(0);
    });

    test("list queries of one shape, compiled once, run with each request's own values", async () => {
      const codes = async (query: string) =>
        (await app.call<Page>("GET", `/api/v1/auth/role/findPage?sort=roleCode,asc&${query}`, { token })).body.data.records.map((r) => r.roleCode);
      expect(await codes(`roleName=${encodeURIComponent("厨师1")}`)).toEqual(["cook10", "cook11", "cook12"]);
      expect(await codes(`roleName=${encodeURIComponent("厨师0")}`)).toEqual(["cook01", "cook02", "cook04", "cook05", "cook06", "cook07", "cook08", "cook09"]);
      expect(await codes("roleCode=cook&status=0")).toEqual(["cook04", "cook08", "cook12"]);
      expect(await codes("roleCode=cook1&status=1")).toEqual(["cook10", "cook11"]);
      expect(await codes("roleCode=cook&pageSize=10&pageNum=2")).toEqual(["cook11", "cook12"]);
      expect(await codes("roleCode=cook&pageSize=20&pageNum=1")).toHaveLength(12);
    });

    test("racing creates of one unique code: one row, the others refused as duplicates, never a 500", async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/role/create", {
            token,
            body: { roleCode: "racer", roleName: "抢注", roleType: "user", status: "1" },
          }),
        ),
      );
      expect(results.map((r) => r.body.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
      for (const refused of results.filter((r) => r.body.status === 400)) expect(refused.body.data.fieldErrors.roleCode).toEqual(["角色编码已存在"]);
      const rows = await app.call<Page>("GET", "/api/v1/auth/role/findPage?roleCode=racer", { token });
      expect(rows.body.data.total).toBe(1);
    });

    test("an undeclared sort or filter parameter is a 400, and no SQL is built from it", async () => {
      for (const query of ["sort=password_hash,asc", "sort=roleCode;drop table role,asc", "secret=1", "pageSize=7", "sort=remark,asc"]) {
        const result = await app.call<{ fieldErrors: Record<string, string[]> }>("GET", `/api/v1/auth/role/findPage?${query}`, { token });
        expect(result.http, query).toBe(400);
        expect(Object.keys(result.body.data.fieldErrors).length).toBeGreaterThan(0);
      }
      const roles = await app.call<Page>("GET", "/api/v1/auth/role/findPage", { token });
      expect(roles.body.data.total).toBeGreaterThan(12);
    });

    test("create validates with Chinese field messages and drops undeclared fields", async () => {
      const bad = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "9bad", roleName: "", roleType: "" },
      });
      expect(bad.http).toBe(400);
      expect(bad.body.data.fieldErrors.roleCode[0]).toContain("角色编码以字母开头");
      expect(bad.body.data.fieldErrors.roleName[0]).toBe("请输入角色名称");
      expect(bad.body.data.fieldErrors.roleType[0]).toBe("请选择角色类型");

      const extra = await app.call<Record<string, unknown>>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "waiter", roleName: "服务员", roleType: "user", status: "1", tenantId: 999, id: 5, createdBy: 77 },
      });
      expect(extra.body.status).toBe(200);
      expect(extra.body.data.tenantId).toBe(1);
      expect(extra.body.data.id).not.toBe(5);

      const duplicate = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "waiter", roleName: "服务员二", roleType: "user", status: "1" },
      });
      expect(duplicate.body.data.fieldErrors.roleCode).toEqual(["角色编码已存在"]);
    });

    test("an update with a stale version is refused with 409 and changes nothing", async () => {
      const created = await app.call<Record<string, number>>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "cashier", roleName: "收银员", roleType: "user", status: "1" },
      });
      const { id, updatedAt } = created.body.data;
      const first = await app.call<Record<string, unknown>>("POST", "/api/v1/auth/role/update", { token, body: { id, updatedAt, roleName: "收银主管" } });
      expect(first.body.status).toBe(200);
      const second = await app.call("POST", "/api/v1/auth/role/update", { token, body: { id, updatedAt, roleName: "收银员乙" } });
      expect(second.http).toBe(409);
      expect(second.body.message).toBe("数据已被他人修改，请刷新后重试");
      const info = await app.call<Record<string, unknown>>("GET", `/api/v1/auth/role/getInfo?id=${id}`, { token });
      expect(info.body.data.roleName).toBe("收银主管");

      // Two editors racing with the same version: exactly one wins.
      const fresh = info.body.data.updatedAt;
      const results = await Promise.all(
        ["甲", "乙", "丙"].map((name) => app.call("POST", "/api/v1/auth/role/update", { token, body: { id, updatedAt: fresh, roleName: `收银${name}` } })),
      );
      expect(results.filter((r) => r.body.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.body.status === 409)).toHaveLength(2);
    });

    test("deleting a row others still reference is refused with a clear message", async () => {
      const created = await app.call<Record<string, number>>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "keeper", roleName: "库管", roleType: "user", status: "1" },
      });
      await createUser(app, { userName: `keeper-${dialect}`, password: "Keeper-Pass-2026", roleIds: [created.body.data.id] });
      // A tenant cannot go while it still has roles, orgs or users of its own.
      const other = await app.call<Record<string, number>>("POST", "/api/v1/sys/tenant/create", {
        token,
        body: { tenantName: `分店-${dialect}`, tenantCode: `branch-${dialect}`, status: "1" },
      });
      await app.database.db
        .insertInto("operation_log")
        .values({ tenant_id: other.body.data.id, id: 1, user_id: null, user_name: "x", module: "sys", entity: "sys/tenant", entity_id: null, action: "create", changes: null, ip: null, created_at: 1 })
        .execute();
      // The generic path: the database's foreign keys refuse, and the message says why.
      await app.database.db
        .insertInto("dict")
        .values({ id: 515151, dict_code: `held_${dialect}`, dict_name: "占用", status: 1, remark: null, created_at: 1, created_by: null, updated_at: 1, updated_by: null })
        .execute();
      await app.database.db
        .insertInto("dict_item")
        .values({ id: 515152, dict_code: `held_${dialect}`, item_value: "1", item_text: "一", item_type: 1, sort: 0, status: 1, remark: null, created_at: 1, created_by: null, updated_at: 1, updated_by: null })
        .execute();
      const dictDelete = await app.call("GET", "/api/v1/sys/dict/delete?id=515151", { token });
      expect(dictDelete.http).toBe(409);
      expect(dictDelete.body.message).toMatch(/不能删除/);
      expect((await app.call("GET", "/api/v1/sys/dict/getInfo?id=515151", { token })).body.status).toBe(200);
      await app.database.db
        .insertInto("user")
        .values({ tenant_id: other.body.data.id, id: 626262, user_name: `held-${dialect}`, password_hash: "x", pwd_security_level: 1, real_name: null, user_code: null, avatar: null, introduction: null, phone: null, email: null, sex: null, org_id: null, navigation_mode: null, settings: null, status: 1, last_login_at: null, remark: null, created_at: 1, created_by: null, updated_at: 1, updated_by: null })
        .execute();
      const tenantDelete = await app.call("GET", `/api/v1/sys/tenant/delete?id=${other.body.data.id}`, { token });
      expect(tenantDelete.http).toBe(409);
      expect(tenantDelete.body.message).toMatch(/不能删除/);
      const still = await app.call("GET", `/api/v1/sys/tenant/getInfo?id=${other.body.data.id}`, { token });
      expect(still.body.status).toBe(200);
    });

    test("every create, update and delete is in the operation log with the changed fields", async () => {
      const created = await app.call<Record<string, number>>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "logged", roleName: "日志角色", roleType: "user", status: "1" },
      });
      const { id, updatedAt } = created.body.data;
      await app.call("POST", "/api/v1/auth/role/update", { token, body: { id, updatedAt, roleName: "日志角色二" } });
      await app.call("GET", `/api/v1/auth/role/delete?id=${id}`, { token });
      const log = await app.call<Page>("GET", `/api/v1/sys/operationLog/findPage?entityId=${id}&sort=time,asc`, { token });
      expect(log.body.data.records.map((r) => r.action)).toEqual(["create", "update", "delete"]);
      expect(JSON.parse(String(log.body.data.records[1].changes))).toEqual({ roleName: ["日志角色", "日志角色二"] });
      expect(log.body.data.records[0].userName).toBe("admin");
      expect(log.body.data.records[0].entity).toBe("auth/role");
    });

    test("a total stops at 10,000 and says so; below the cap it is exact", async () => {
      const entityId = 424242;
      const now = Date.now();
      const rows = Array.from({ length: 10_001 }, (_, i) => ({
        tenant_id: 1, id: 90_000_000 + i, user_id: 1, user_name: "admin", module: "auth", entity: "auth/role", entity_id: entityId,
        action: "update", changes: "{}", ip: "127.0.0.1", created_at: now - i,
      }));
      for (let i = 0; i < rows.length; i += 1000) await app.database.db.insertInto("operation_log").values(rows.slice(i, i + 1000)).execute();
      const query = `/api/v1/sys/operationLog/findPage?entityId=${entityId}&pageSize=20&pageNum=3&sort=time,desc`;
      const capped = await app.call<Page & { totalCapped: boolean }>("GET", query, { token });
      expect(capped.body.data.total).toBe(10_000);
      expect(capped.body.data.totalCapped).toBe(true);
      expect(capped.body.data.records.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => 90_000_040 + i));

      await app.database.db.deleteFrom("operation_log").where("id", "in", [90_000_000, 90_000_001]).execute();
      const exact = await app.call<Page & { totalCapped: boolean }>("GET", query, { token });
      expect(exact.body.data.total).toBe(9_999);
      expect(exact.body.data.totalCapped).toBe(false);
      const none = await app.call<Page & { totalCapped: boolean }>("GET", "/api/v1/sys/operationLog/findPage?entityId=1", { token });
      expect(none.body.data).toMatchObject({ total: 0, totalCapped: false, records: [] });
    });

    test("a delete by GET from another site is refused", async () => {
      const created = await app.call<Record<string, number>>("POST", "/api/v1/auth/role/create", {
        token,
        body: { roleCode: "victim", roleName: "受害者", roleType: "user", status: "1" },
      });
      const id = created.body.data.id;
      const crossSite = await app.call("GET", `/api/v1/auth/role/delete?id=${id}`, { token, headers: { "Sec-Fetch-Site": "cross-site" } });
      expect(crossSite.http).toBe(403);
      const referer = await app.call("GET", `/api/v1/auth/role/delete?id=${id}`, { token, headers: { Referer: "https://evil.example/page" } });
      expect(referer.http).toBe(403);
      expect((await app.call("GET", `/api/v1/auth/role/getInfo?id=${id}`, { token })).body.status).toBe(200);
    });

    test("CSV export: BOM, Chinese headers, dictionary labels, formula-like cells escaped", async () => {
      const response = await app.api.handle(
        new Request("http://canteen.test/api/v1/auth/role/export?format=csv&roleCode=cook&sort=roleCode,asc", { headers: { Authorization: `Bearer ${token}` } }),
        "127.0.0.1",
      );
      expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("X-Total-Count")).toBe("12");
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
      expect(lines[0]).toBe("角色编码,角色名称,角色类型,状态");
      expect(lines).toHaveLength(13);
      expect(lines[1]).toBe("cook01,厨师01,普通用户,有效");
      expect(lines[3]).toBe(`cook03,"'=HYPERLINK(""http://x"")",普通用户,有效`);
      expect(lines[4]).toBe("cook04,厨师04,普通用户,无效");
    });

    test("XLSX export opens as a workbook with the filtered rows", async () => {
      const response = await app.api.handle(
        new Request("http://canteen.test/api/v1/auth/role/export?format=xlsx&roleCode=cook&status=1&sort=roleCode,desc", { headers: { Authorization: `Bearer ${token}` } }),
        "127.0.0.1",
      );
      expect(response.headers.get("Content-Disposition")).toContain("filename*=UTF-8''");
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = workbook.worksheets[0];
      expect(sheet.name).toBe("角色");
      expect(sheet.getRow(1).values).toEqual([undefined, "角色编码", "角色名称", "角色类型", "状态"]);
      expect(sheet.rowCount).toBe(10);
      expect(sheet.getRow(2).getCell(1).value).toBe("cook11");
      expect(sheet.getRow(4).getCell(2).value).toBe("厨师09");
    });

    test("XLSX export: money, counts, dates and times are cells a spreadsheet sums and filters", async () => {
      const call = async (path: string, body: Record<string, unknown>) => {
        const answer = await app.call<{ id: number }>("POST", path, { token, body });
        expect(answer.body.status, answer.body.message).toBe(200);
        return answer.body.data.id;
      };
      const restaurantId = await call("/api/v1/auth/org/create", { orgName: "导出餐厅", orgType: "restaurant", sort: 0, status: "1" });
      const roomId = await call("/api/v1/zhct/room/create", { roomName: "导出厅", restaurantId, capacity: 20, status: "1" });
      await call("/api/v1/zhct/roomReservation/create", {
        roomId, reserveDate: "2030-05-06", beginTime: "11:30", endTime: "13:00", organizer: "王经理", attendees: 12, standardPerHead: 123456, reserveStatus: "1",
      });
      const download = async (path: string) => {
        const response = await app.api.handle(new Request(`http://canteen.test${path}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await response.arrayBuffer()) as never);
        const sheet = workbook.worksheets[0];
        const header = (sheet.getRow(1).values as unknown[]).slice(1);
        return (row: number, label: string) => sheet.getRow(row).getCell(header.indexOf(label) + 1);
      };
      const reservation = await download(`/api/v1/zhct/roomReservation/export?format=xlsx&roomId=${roomId}`);
      expect(reservation(2, "餐标（元/人）").value).toBe(1234.56);
      expect(reservation(2, "餐标（元/人）").numFmt).toBe("#,##0.00");
      expect(reservation(2, "就餐人数").value).toBe(12);
      expect(reservation(2, "预约日期").value).toEqual(new Date(Date.UTC(2030, 4, 6)));
      expect(reservation(2, "预约日期").numFmt).toBe("yyyy-mm-dd");
      expect(reservation(2, "包间").value).toBe("导出厅");

      // A time is the China wall clock: 08:00 UTC is 16:00 in Beijing.
      const log = await download(`/api/v1/sys/operationLog/export?format=xlsx&entityId=${roomId}`);
      const logged = (await app.call<Page>("GET", `/api/v1/sys/operationLog/findPage?entityId=${roomId}`, { token })).body.data.records[0];
      expect(log(2, "时间").value).toEqual(new Date(Number(logged.time) + 8 * 3600_000));
      expect(log(2, "时间").numFmt).toBe("yyyy-mm-dd hh:mm:ss");
      // An id is text: a spreadsheet would print a 15-digit number as 1.23457E+14.
      expect(log(2, "数据 ID").value).toBe(String(roomId));
      expect(log(2, "数据类型").value).toBe("包间");
      expect(log(2, "操作").value).toBe("新增");
      expect(log(2, "变更内容").value).toBe(`包间名称: 导出厅；所属餐厅: ${restaurantId}；容纳人数: 20；状态: 有效`);
    });

    test("a user without the permission codes is refused every action", async () => {
      await createUser(app, { userName: `plain-${dialect}`, password: "Plain-Pass-2026", roleIds: [] });
      const plain = await loginAs(app, `plain-${dialect}`, "Plain-Pass-2026");
      for (const [method, path] of [
        ["GET", "/api/v1/auth/role/findPage"],
        ["GET", "/api/v1/auth/role/export"],
        ["POST", "/api/v1/auth/role/create"],
        ["GET", "/api/v1/sys/tenant/findPage"],
      ] as const) {
        const result = await app.call(method, path, { token: plain, body: method === "POST" ? {} : undefined });
        expect(result.http, path).toBe(403);
      }
    });
  });
}

test("formula-like text is kept as text", () => {
  expect(escapeCell("=1+1")).toBe("'=1+1");
  expect(escapeCell("+86 138")).toBe("'+86 138");
  expect(escapeCell("-5")).toBe("'-5");
  expect(escapeCell("@SUM(A1)")).toBe("'@SUM(A1)");
  expect(escapeCell("食堂")).toBe("食堂");
});
