import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importMessages, type ImportReport } from "../../resources/imports";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: diners import from XLSX`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let dept: number;
    let headers: string[];

    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await app.call("POST", path, { token: as, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    /** A file laid out as the downloaded template, each row given by header label (without the `*`). */
    async function file(rows: Array<Record<string, unknown>>): Promise<BodyInit> {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("数据");
      sheet.addRow(headers);
      for (const row of rows) sheet.addRow(headers.map((h) => row[h.replace(/\*$/, "")] ?? ""));
      return new Uint8Array(Buffer.from(await workbook.xlsx.writeBuffer()));
    }
    async function importDiners(body: BodyInit, dryRun: boolean, as = token) {
      const response = await app.api.handle(
        new Request(`${ORIGIN}${Z}/userInfo/import${dryRun ? "?dryRun=1" : ""}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${as}`, "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
          body,
        }),
        "127.0.0.1",
      );
      return { http: response.status, body: (await response.json()) as Envelope<ImportReport> };
    }
    async function count(table: "user_info" | "user_account" | "operation_log", tenantId = 1): Promise<number> {
      const row = await app.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow();
      return Number(row.n);
    }
    const reasonsOf = (report: ImportReport) => Object.fromEntries(report.errors.map((e) => [e.row, e.reasons.join("；")]));

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, "din");
      dept = (await ok("/api/v1/auth/org/create", { orgName: "行政部", orgCode: "XZ", orgType: "department", status: "1" })).id as number;
      // Another tenant's department of the same kind must stay invisible to this tenant's import.
      await ok("/api/v1/auth/org/create", { orgName: "财务部", orgCode: "CW", orgType: "department", status: "1" }, other.token);
      await ok(`${Z}/userInfo/create`, { userCode: "E001", userName: "老员工" });
      const response = await app.api.handle(new Request(`${ORIGIN}${Z}/userInfo/importTemplate`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
      expect(response.status).toBe(200);
      const template = new ExcelJS.Workbook();
      await template.xlsx.load(await response.arrayBuffer());
      headers = (template.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("the template offers the diner's form fields", () => {
      expect(headers).toEqual(expect.arrayContaining(["人员编号*", "姓名*", "性别", "手机号", "部门", "人员类别"]));
      // Pictures and fields a form cannot set are not columns.
      expect(headers).not.toContain("人脸照片");
      expect(headers.some((h) => h.startsWith("审核状态"))).toBe(false);
    });

    test("a dry run reports a duplicate code, an unknown department and a bad phone by row, and writes nothing", async () => {
      const before = { diners: await count("user_info"), accounts: await count("user_account"), logs: await count("operation_log") };
      const body = await file([
        { 人员编号: "N001", 姓名: "张三", 手机号: "13800000001", 部门: "行政部" },
        { 人员编号: "E001", 姓名: "李四" }, // row 3: already in the table
        { 人员编号: "N001", 姓名: "王五" }, // row 4: same code as row 2
        { 人员编号: "N004", 姓名: "赵六", 部门: "后勤部" }, // row 5: no such department
        { 人员编号: "N005", 姓名: "钱七", 部门: "财务部" }, // row 6: the other tenant's department
        { 人员编号: "N006", 姓名: "孙八", 手机号: "1380000" }, // row 7: not a phone number
        { 人员编号: "N007", 姓名: "周九", 部门: "XZ", 性别: "女" },
      ]);
      const { http, body: report } = await importDiners(body, true);
      expect(http).toBe(200);
      expect(report.data).toMatchObject({ dryRun: true, total: 7, valid: 2, invalid: 5, imported: 0 });
      const reasons = reasonsOf(report.data);
      expect(Object.keys(reasons).map(Number)).toEqual([3, 4, 5, 6, 7]);
      expect(reasons[3]).toBe(importMessages.duplicateInTable("人员编号", "E001"));
      expect(reasons[4]).toBe(importMessages.duplicateInFile("人员编号", 2));
      expect(reasons[5]).toBe(importMessages.relationMissing("部门", "后勤部"));
      expect(reasons[6]).toBe(importMessages.relationMissing("部门", "财务部"));
      expect(reasons[7]).toBe("手机号应为 1 开头的 11 位数字");
      expect({ diners: await count("user_info"), accounts: await count("user_account"), logs: await count("operation_log") }).toEqual(before);

      // The real import of the same file refuses it whole.
      const refused = await importDiners(body, false);
      expect(refused.http).toBe(400);
      expect(refused.body.message).toBe(importMessages.refused(5));
      expect(await count("user_info")).toBe(before.diners);
      expect(await count("user_account")).toBe(before.accounts);
    });

    test("the import creates every diner with a cash and a subsidy account at balance 0", async () => {
      const diners = Array.from({ length: 1_203 }, (_, i) => ({ 人员编号: `M${String(i).padStart(4, "0")}`, 姓名: `食客${i}`, 部门: i % 2 ? "行政部" : "", 人员类别: "正式员工" }));
      const { body } = await importDiners(await file(diners), false);
      expect(body, JSON.stringify(body).slice(0, 500)).toMatchObject({ status: 200, data: { dryRun: false, total: 1_203, imported: 1_203, invalid: 0 } });

      const page = await app.call<{ records: Row[]; total: number }>("GET", `${Z}/userInfo/findPage?userCode=M00&pageSize=100&sort=userCode,asc`, { token });
      expect(page.body.data.total).toBe(100);
      expect(page.body.data.records[1]).toMatchObject({ userCode: "M0001", userName: "食客1", deptId: dept, staffType: "正式员工", userStatus: "1", userInfoRoleType: "user", auditStatus: "0" });

      const accounts = await app.database.db
        .selectFrom("user_account as a")
        .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "a.tenant_id").onRef("u.id", "=", "a.user_info_id"))
        .select(["u.user_code", "a.account_type", "a.balance"])
        .where("a.tenant_id", "=", 1)
        .where("u.user_code", "like", "M%")
        .execute();
      expect(accounts).toHaveLength(2 * 1_203);
      expect(accounts.every((a) => Number(a.balance) === 0)).toBe(true);
      const types = new Map<string, string[]>();
      for (const a of accounts) types.set(a.user_code, [...(types.get(a.user_code) ?? []), String(a.account_type)].sort());
      expect(types.size).toBe(1_203);
      expect([...types.values()].every((t) => t.join() === "cash,subsidy")).toBe(true);

      // An imported diner's account takes a top-up like any other.
      const id = page.body.data.records[0].id as number;
      const charge = await ok(`${Z}/userAccountCharge/create`, { userInfoId: id, amount: 1000 });
      expect(charge).toMatchObject({ balance: 1000 });
      expect(await count("user_info", other.tenantId)).toBe(0);
    });
  });
}
