import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * A stocktake's count as an XLSX round trip (issue 41): the sheet downloaded, filled, imported; the lines' counts are
 * the file's. A bad row, a file that is not XLSX, a sheet no longer counting, another tenant's sheet: nothing applied.
 */

const API = "/api/v1/zhhq/warehouseCheck";
const day = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);

for (const dialect of dialects) {
  describe(`${dialect}: 盘点表 download and 实盘数量 import`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `cs${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `cso${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    const download = (id: number, token = tenant.token) => app.api.handle(new Request(`${ORIGIN}${API}/countSheet?id=${id}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
    async function upload(id: number, bytes: Uint8Array<ArrayBuffer>, token = tenant.token) {
      const response = await app.api.handle(
        new Request(`${ORIGIN}${API}/importCount?id=${id}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }, body: bytes }),
        "127.0.0.1",
      );
      return (await response.json()) as { status: number; message: string; data: Row | null };
    }
    /** The downloaded sheet with 实盘数量 set per row (by 批次号), as a keeper would fill it. */
    async function filled(response: Response, counts: Record<string, unknown>, edit?: (sheet: ExcelJS.Worksheet, col: (h: string) => number) => void) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const sheet = workbook.worksheets[0];
      const headers = (sheet.getRow(1).values as unknown[]).map(String);
      const col = (h: string) => headers.indexOf(h);
      sheet.eachRow((row, n) => {
        const batch = String(row.getCell(col("批次号")).value);
        if (n > 1 && batch in counts) row.getCell(col("实盘数量")).value = counts[batch] as ExcelJS.CellValue;
      });
      edit?.(sheet, col);
      return new Uint8Array(await workbook.xlsx.writeBuffer());
    }
    const counts = async (id: number) => Object.fromEntries(((await api.info("warehouseCheck", id)).lines as Row[]).map((l) => [l.batchNo, l.countedQuantity]));

    test("download → fill → import: the lines' counts are the file's, blank rows left as they were; approval makes stock the count", async () => {
      const warehouseId = await api.warehouse();
      const rice = await api.goods();
      const oil = await api.goods();
      const salt = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId: rice, quantity: 10, price: 400, batchNo: "R1", expiryDate: day(30) },
          { goodsId: oil, quantity: 4, price: 1500, batchNo: "O1", expiryDate: day(90) },
          { goodsId: salt, quantity: 2, price: 100, batchNo: "S1" },
        ],
      });
      const sheet = await api.ok<{ id: number; docNo: string; lines: Row[] }>("warehouseCheck/create", { warehouseId });
      const saltLine = sheet.lines.find((l) => l.batchNo === "S1") as Row;
      await api.ok("warehouseCheck/update", { id: sheet.id, lines: [{ id: saltLine.id, countedQuantity: 1.5 }] });

      const response = await download(sheet.id);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toContain("spreadsheetml");
      const read = new ExcelJS.Workbook();
      await read.xlsx.load(await response.clone().arrayBuffer());
      const rows = read.worksheets[0].getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
      expect(rows[0]).toEqual(["明细ID（勿改）", "物资编码", "物资名称", "规格", "单位", "批次号", "到期日期", "账面数量", "实盘数量"]);
      const byBatch = Object.fromEntries(rows.slice(1).map((r) => [r[5], r]));
      expect(byBatch.R1[7]).toBe(10);
      expect(byBatch.R1[8]).toBeUndefined();
      expect(byBatch.S1[8]).toBe(1.5);
      expect(byBatch.R1[0]).toBe(String(sheet.lines.find((l) => l.batchNo === "R1")?.id));

      // Numbers as a keeper types them, and as text; salt's row left blank keeps its 1.5.
      const answer = await upload(sheet.id, await filled(response, { R1: 7.125, O1: "5", S1: null }));
      expect(answer).toMatchObject({ status: 200 });
      expect(await counts(sheet.id)).toEqual({ R1: 7.125, O1: 5, S1: 1.5 });

      expect(await api.step("warehouseCheck", "submit", { id: sheet.id })).toMatchObject({ status: 200 });
      // Submitted: no longer counting, so neither the download nor an import (409, as the update).
      expect((await download(sheet.id)).status).toBe(409);
      expect(await upload(sheet.id, await oneCount(sheet.lines[0].id as number))).toMatchObject({ status: 409 });
      expect(await api.step("warehouseCheck", "approve", { id: sheet.id })).toMatchObject({ status: 200 });
      expect((await api.stock(warehouseId, rice)).quantity).toBe(7.125);
      expect((await api.stock(warehouseId, oil)).quantity).toBe(5);
      expect((await api.stock(warehouseId, salt)).quantity).toBe(1.5);
    });

    /** A file in the shape of a sheet's, counting one line (for a sheet that no longer gives one). */
    async function oneCount(lineId: number): Promise<Uint8Array<ArrayBuffer>> {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("x");
      sheet.addRow(["明细ID（勿改）", "实盘数量"]);
      sheet.addRow([String(lineId), 1]);
      return new Uint8Array(await workbook.xlsx.writeBuffer());
    }

    test("a bad row, a line of another sheet, a non-XLSX or oversized file, another tenant's sheet: nothing applied", async () => {
      const warehouseId = await api.warehouse();
      const rice = await api.goods();
      const oil = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId: rice, quantity: 10, price: 400, batchNo: "R1" },
          { goodsId: oil, quantity: 4, price: 1500, batchNo: "O1" },
        ],
      });
      const sheet = await api.ok<{ id: number; lines: Row[] }>("warehouseCheck/create", { warehouseId });
      const before = await counts(sheet.id);
      const file = () => download(sheet.id);

      const bad = await upload(sheet.id, await filled(await file(), { R1: 3, O1: "1.2345" }));
      expect(bad).toMatchObject({ status: 400, message: "有 1 行数据有误，未导入任何数据" });
      expect(bad.data).toMatchObject({ errors: [{ row: expect.any(Number), reasons: ["实盘数量最多 3 位小数"] }] });
      for (const [value, reason] of [
        [-1, "实盘数量不能为负数"],
        [1_000_000.001, "实盘数量不能大于 1000000"],
        ["十", "实盘数量必须是数字"],
      ] as const) {
        const answer = await upload(sheet.id, await filled(await file(), { R1: 3, O1: value }));
        expect(answer).toMatchObject({ status: 400, data: { errors: [{ reasons: [reason] }] } });
      }
      const foreign = await upload(
        sheet.id,
        await filled(await file(), { R1: 3 }, (s, col) => {
          const row = s.addRow([]);
          row.getCell(col("明细ID（勿改）")).value = "1";
          row.getCell(col("实盘数量")).value = 2;
        }),
      );
      expect(foreign).toMatchObject({ status: 400, data: { errors: [{ row: 4, reasons: ["明细ID「1」不是本盘点单的明细"] }] } });
      expect(await upload(sheet.id, new TextEncoder().encode("明细ID,实盘数量\n1,2\n"))).toMatchObject({ status: 400, message: "只能导入 .xlsx 格式的 Excel 文件，请使用下载的模板" });
      const huge = new Uint8Array(10 * 1024 * 1024 + 1);
      huge.set([0x50, 0x4b, 0x03, 0x04]);
      expect(await upload(sheet.id, huge)).toMatchObject({ status: 400, message: "导入文件不能超过 10M" });
      expect(await counts(sheet.id)).toEqual(before);

      // Another tenant's sheet: as if none.
      expect((await download(sheet.id, other.token)).status).toBe(404);
      expect(await upload(sheet.id, await filled(await file(), { R1: 3 }), other.token)).toMatchObject({ status: 404 });
      expect(await counts(sheet.id)).toEqual(before);
    });
  });
}
