import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defineDocument, printOf, type DocumentDef } from "../../resources/document";
import { documents } from "../../resources/index";
import { purchse } from "../../resources/zhhq/purchase";
import { warehouseCheck, warehouseTransfer } from "../../resources/zhhq/closing";
import { warehouseIn, warehouseInReturn, warehouseOut, warehouseOutReturn } from "../../resources/zhhq/stock";
import { adminToken, createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

/**
 * Printing stock documents (issue 35, decision 082): what each declaration prints, and `GET …/print` as the print view
 * calls it — the document with the title it is printed for (the receipt title, else the tenant's name) and each line's
 * unit, behind the document's view permission, another tenant's document a 404.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const STOCK_DOCUMENTS: DocumentDef[] = [warehouseIn, warehouseOut, warehouseInReturn, warehouseOutReturn, warehouseTransfer, warehouseCheck, purchse];

describe("the print declarations", () => {
  test("every stock document prints its warehouse, lines with units, an amount in capitals and the keeper's, receiver's and approver's lines", () => {
    for (const doc of STOCK_DOCUMENTS) {
      const print = doc.print;
      expect(print, doc.title).toBeDefined();
      expect(print?.header.some((f) => /[wW]arehouseId$/.test(f)), doc.title).toBe(true);
      expect(print?.date, doc.title).toBe("docDate");
      expect(print?.unit, doc.title).toEqual({ relation: "goodsId", field: "unitId" });
      expect(print?.amount, doc.title).toEqual(expect.any(String));
      // 制单 and 审核 are filled from the history; a keeper's and a receiver's line between them.
      expect(print?.signatures.map((s) => s.by), doc.title).toEqual(["create", undefined, doc === warehouseTransfer ? "receive" : undefined, "approve"]);
      expect(print?.signatures.map((s) => s.label).at(-1)).toBe("审核");
    }
    // The stocktake sheet is counted by hand while 盘点中: the count and what follows from it print blank.
    expect(warehouseCheck.print?.blank).toEqual({ columns: ["countedQuantity", "diffQuantity", "diffAmount"], statuses: ["0"] });
    // A document that declares no print still prints: its shown fields and its first money total.
    for (const doc of documents) expect(printOf(doc).columns.length, doc.title).toBeGreaterThan(0);
  });

  test("a print naming what the document lacks stops the start", () => {
    const spec = (print: NonNullable<Parameters<typeof defineDocument>[0]["print"]>) => () =>
      defineDocument({
        module: "t",
        entity: "p",
        screen: "p",
        screenBase: "/t",
        title: "测试单",
        header: { table: "t_p", fields: [{ name: "docDate", label: "日期", type: "date" }] },
        lines: { table: "t_p_line", fields: [{ name: "amount", label: "金额", type: "money" }, { name: "note", label: "说明", type: "text" }] },
        numbering: { prefix: "T" },
        workflow: { statuses: [{ value: "0", label: "草稿", color: "gray" }], initial: "0", editable: ["0"], transitions: [] },
        print,
      });
    expect(spec({ header: ["docDate"], columns: ["amount"], amount: "amount", signatures: [] })).not.toThrow();
    expect(spec({ header: ["nope"], columns: ["amount"], signatures: [] })).toThrow("print: no header field nope");
    expect(spec({ header: [], columns: ["nope"], signatures: [] })).toThrow("print: no line field nope");
    expect(spec({ header: [], columns: ["amount"], amount: "note", signatures: [] })).toThrow("not a money line field");
    expect(spec({ header: [], columns: ["amount"], blank: { columns: ["note"], statuses: ["0"] }, signatures: [] })).toThrow("blank column note is not a column");
    expect(spec({ header: [], columns: ["amount"], signatures: [{ label: "审核", by: "approve" }] })).toThrow("no step approve");
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: GET …/print`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `pr${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `pro${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("a stock-in prints for the tenant (its receipt title once set), with each quantity's unit and who made and approved it", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const kilo = (await api.ok<{ id: number }>("unit/create", { unitName: `千克${api.uid().slice(-6)}` })).id;
      const rice = await api.goods({ unitId: kilo });
      const loose = await api.goods();
      const id = await api.approved("warehouseIn", {
        warehouseId,
        supplierId,
        lines: [
          { goodsId: rice, quantity: 12.345, price: 1000 },
          { goodsId: loose, quantity: 1, price: 2 },
        ],
      });
      const printed = await api.get("warehouseIn/print", { id });
      expect(printed.status, JSON.stringify(printed)).toBe(200);
      const data = printed.data as Row & { lines: Row[]; history: Row[] };
      const unitName = ((await api.get("unit/getInfo", { id: kilo })).data as Row).unitName;
      expect(data).toMatchObject({ id, title: `租户pr${dialect}`, status: "2", warehouseId, supplierId, supplierIdLabel: expect.any(String) });
      expect(data.lines.map((l) => [l.goodsId, l.quantity, l.amount, l.unit])).toEqual([
        [rice, 12.345, 12345, unitName],
        [loose, 1, 2, null],
      ]);
      expect(data.history.map((h) => h.action)).toEqual(["create", "submit", "approve"]);
      // The receipt title the cashier's slips print is the title of every printed document too.
      await expectOk(app, "POST", "/api/v1/sys/parameterConfig/create", tenant.token, { paramCode: "zhct.receipt.title", paramName: "回单抬头", paramValue: " 市一中学生食堂 " });
      expect(((await api.get("warehouseIn/print", { id })).data as Row).title).toBe("市一中学生食堂");
    });

    test("another tenant's document is a 404, a bad id a 400, and printing needs the document's view permission", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const id = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 2, price: 50 }] });
      const out = (await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] })).id;
      expect((await api.get("warehouseIn/print", { id }, other.token)).status).toBe(404);
      expect(await api.get("warehouseIn/print", { id: "x" })).toMatchObject({ status: 400 });

      const rows = await db.selectFrom("menu").select(["id", "permission"]).where("permission", "=", "zhhq:warehouseOut:view").execute();
      const role = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", tenant.token, { roleCode: "printer", roleName: "出库查看", roleType: "user", status: "1" });
      await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", tenant.token, { roleId: role.id, menuIds: rows.map((r: Row) => r.id) });
      const userName = `prviewer${dialect}`;
      await expectOk(app, "POST", "/api/v1/auth/user/create", tenant.token, { user: { userName, realName: userName, status: "1", password: "First-Pass-2026" }, roleIds: [role.id] });
      const first = await loginAs(app, userName, "First-Pass-2026");
      await expectOk(app, "POST", "/api/v1/auth/user/modifyPasswd", first, { oldPassword: "First-Pass-2026", newPassword: "Second-Pass-2026" });
      const viewer = await loginAs(app, userName, "Second-Pass-2026");
      expect((await api.get("warehouseOut/print", { id: out }, viewer)).status).toBe(200);
      expect((await api.get("warehouseIn/print", { id }, viewer)).status).toBe(403);
    });

    test("a stocktake sheet prints its book quantities with units", async () => {
      const warehouseId = await api.warehouse();
      const bag = (await api.ok<{ id: number }>("unit/create", { unitName: `袋${api.uid().slice(-6)}` })).id;
      const flour = await api.goods({ unitId: bag });
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId: flour, quantity: 7.5, price: 300, batchNo: "F1" }] });
      const sheet = await api.ok<{ id: number }>("warehouseCheck/create", { warehouseId });
      const data = (await api.get("warehouseCheck/print", { id: sheet.id })).data as Row & { lines: Row[] };
      expect(data.status).toBe("0");
      expect(data.lines).toEqual([expect.objectContaining({ goodsId: flour, batchNo: "F1", bookQuantity: 7.5, unit: expect.stringMatching(/^袋/) })]);
      expect(await api.step("warehouseCheck", "cancel", { id: sheet.id })).toMatchObject({ status: 200 });
    });
  });
}
