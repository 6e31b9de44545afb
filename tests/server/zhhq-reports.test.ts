import ExcelJS from "exceljs";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { warehouseIn, warehouseInReturn, warehouseOut, warehouseOutReturn } from "../../resources/zhhq/stock";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * 智慧后勤's reports (issue 35, decision 076): every total equals the stock ledger's movement lines, recounted here
 * in SQL of their own; each row's closing is its opening + in − out; the filters refuse another tenant's rows. And
 * the supplier licence rule of a stock-in: in force, missing, lapsed, and the tenant that only warns.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Answer = { rows: Row[]; totals: Row; filters: Record<string, string> };

const today = () => chinaDay(Date.now());
const num = (v: unknown) => Number(v ?? 0);

for (const dialect of dialects) {
  describe(`${dialect}: 智慧后勤 reports against the stock ledger`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    const report = async (name: string, query: Row = {}, token = tenant.token) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return (await app.call<Answer>("GET", `/api/v1/report/${name}?${params}`, { token })).body;
    };
    const answer = async (name: string, query: Row = {}) => {
      const body = await report(name, query);
      expect(body, JSON.stringify(body)).toMatchObject({ status: 200 });
      return body.data;
    };
    /** A sum over the tenant's stock lines, in SQL of its own. */
    const lineSum = async (what: "quantity" | "amount", where: ReturnType<typeof sql>) =>
      num((await sql<{ s: number }>`select coalesce(sum(${sql.ref(what)}), 0) as s from stock_line where tenant_id = ${tenant.tenantId} and ${where}`.execute(db)).rows[0].s);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rp${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rpo${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("库存日报, 月报, 入库统计 and 出库统计 equal the ledger's lines, by their own sums", async () => {
      const restaurantId = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `报表餐厅${api.uid()}`, orgType: "restaurant", status: "1" } })).body.data.id;
      const warehouseId = (await api.ok<{ id: number }>("warehouse/create", { warehouseName: `报表仓${api.uid()}`, restaurantId })).id;
      const rice = await api.goods({ goodsCode: `RICE${api.uid()}` });
      const oil = await api.goods();
      const supplierId = await api.supplier();
      const useType = (await api.ok<{ id: number }>("outUseType/create", { typeName: `厨房领用${api.uid()}` })).id;

      const firstIn = await api.approved("warehouseIn", { warehouseId, supplierId, lines: [{ goodsId: rice, quantity: 100, price: 450, batchNo: "R-OLD" }] });
      // The first delivery was three days ago: today's opening is its stock.
      await db.updateTable("stock_line").set({ occurred_at: sql`occurred_at - ${3 * DAY_MS}` }).where("tenant_id", "=", tenant.tenantId).where("doc_id", "=", firstIn).execute();
      const secondIn = await api.approved("warehouseIn", {
        warehouseId,
        supplierId,
        lines: [
          { goodsId: rice, quantity: 50, price: 500, batchNo: "R-NEW" },
          { goodsId: oil, quantity: 20.5, price: 1299 },
        ],
      });
      const outId = await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, lines: [{ goodsId: rice, quantity: 120 }, { goodsId: oil, quantity: 3.25 }] });
      const inLines = (await api.info("warehouseIn", secondIn)).lines;
      await api.approved("warehouseInReturn", { warehouseInId: secondIn, lines: [{ inLineId: inLines[1].id, quantity: 1.5 }] });
      const outLines = (await api.info("warehouseOut", outId)).lines;
      await api.approved("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLines[0].id, quantity: 10 }] });

      const ofDoc = (type: string) => sql`doc_type = ${type}`;
      const since = (from: number) => sql`occurred_at >= ${from}`;
      const startOfToday = Date.now() - (Date.now() + 8 * 3600_000) % DAY_MS;

      // 库存日报 of today: in, out and closing are the lines'; opening is the ledger before today.
      const daily = await answer("warehouseDailyReport", { from: today(), to: today(), warehouseId });
      expect(daily.rows.length).toBe(2);
      expect(num(daily.totals.inAmount)).toBe(await lineSum("amount", sql`${since(startOfToday)} and quantity > 0 and warehouse_id = ${warehouseId}`));
      expect(num(daily.totals.outAmount)).toBe(-(await lineSum("amount", sql`${since(startOfToday)} and quantity < 0 and warehouse_id = ${warehouseId}`)));
      expect(num(daily.totals.openingAmount)).toBe(await lineSum("amount", sql`occurred_at < ${startOfToday} and warehouse_id = ${warehouseId}`));
      expect(num(daily.totals.openingAmount)).toBe(45_000);
      expect(num(daily.totals.closingAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));
      for (const row of daily.rows) {
        expect(num(row.closingQuantity)).toBe(num(row.openingQuantity) + num(row.inQuantity) - num(row.outQuantity));
        expect(num(row.closingAmount)).toBe(num(row.openingAmount) + num(row.inAmount) - num(row.outAmount));
        expect(row.day).toBe(today());
      }
      const riceRow = daily.rows.find((r) => r.goodsCode === String(daily.rows.find((x) => String(x.goodsCode).startsWith("RICE"))?.goodsCode));
      // 100 + 50 in − 120 out + 10 back: 40 kg left; opening 100, in 50 + 10, out 120.
      expect(riceRow).toMatchObject({ openingQuantity: 100_000, inQuantity: 60_000, outQuantity: 120_000, closingQuantity: 40_000 });
      // Over the four days, the first delivery is in and the opening is nothing.
      const fourDays = await answer("warehouseDailyReport", { from: chinaDay(Date.now() - 4 * DAY_MS), to: today(), warehouseId });
      expect(fourDays.rows.length).toBe(3);
      expect(num(fourDays.totals.inAmount) - num(fourDays.totals.outAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));

      // 库存月报 of next month (nothing moves): the goods in store, opening = closing = the ledger's balance.
      const next = new Date(Date.now() + 8 * 3600_000);
      const nextMonth = `${next.getUTCMonth() === 11 ? next.getUTCFullYear() + 1 : next.getUTCFullYear()}-${String((next.getUTCMonth() + 1) % 12 + 1).padStart(2, "0")}`;
      const month = await answer("warehouseMonthReport", { fromMonth: nextMonth, toMonth: nextMonth, warehouseId });
      expect(month.rows.length).toBe(2);
      expect(num(month.totals.openingAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));
      expect(num(month.totals.closingAmount)).toBe(num(month.totals.openingAmount));
      expect(num(month.totals.inAmount)).toBe(0);

      // 入库统计: stock-ins and returns to the supplier are the lines of those documents.
      const ins = await answer("warehouseInReport", { from: chinaDay(Date.now() - 4 * DAY_MS), to: today(), supplierId });
      expect(num(ins.totals.inAmount)).toBe(await lineSum("amount", ofDoc(warehouseIn.docType)));
      expect(num(ins.totals.returnAmount)).toBe(-(await lineSum("amount", ofDoc(warehouseInReturn.docType))));
      expect(num(ins.totals.netAmount)).toBe(45_000 + 25_000 + 26_630 - 1949);
      expect(num(ins.totals.inCount)).toBe(3);
      // 出库统计: stock-outs at their batches' cost, less what came back, by use type and the warehouse's restaurant.
      const outs = await answer("warehouseOutReport", { from: today(), to: today(), outUseTypeId: useType, restaurantId });
      expect(num(outs.totals.outAmount)).toBe(-(await lineSum("amount", ofDoc(warehouseOut.docType))));
      expect(num(outs.totals.returnAmount)).toBe(await lineSum("amount", ofDoc(warehouseOutReturn.docType)));
      expect(num(outs.totals.outCount)).toBe(2);
      expect(outs.rows.every((r) => String(r.restaurantName).startsWith("报表餐厅"))).toBe(true);

      // The export is the same answer as a sheet.
      const response = await app.api.handle(
        new Request(`http://canteen.test/api/v1/report/warehouseDailyReport/export?from=${today()}&to=${today()}&warehouseId=${warehouseId}`, { headers: { Authorization: `Bearer ${tenant.token}` } }),
        "127.0.0.1",
      );
      expect(response.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = workbook.worksheets[0];
      const totalsRow = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
      expect(totalsRow[0]).toBe("合计");
      // 期末金额 in yuan, and a quantity in its unit (kg, not thousandths).
      expect(totalsRow[12]).toBe(num(daily.totals.closingAmount) / 100);
      expect((sheet.getRow(4).values as unknown[]).slice(1)[11]).toBe(num(daily.rows[0].closingQuantity) / 1000);

      // Another tenant's rows and unknown codes are refused on their field.
      expectField(await report("warehouseDailyReport", { warehouseId }, other.token), "warehouseId", "所选仓库不存在");
      expectField(await report("warehouseInReport", { goodsCode: "NO-SUCH" }), "goodsCode", "该物资编码不存在");
      expectField(await report("warehouseOutReport", { outUseTypeId: "abc" }), "outUseTypeId", /出库用途/);
      expect((await report("warehouseInReport", { nope: 1 })).status).toBe(400);
    });

    test("a stock-in needs its supplier's licences in force on its date: refused with 409 naming the licence, or noted where the tenant only warns", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const supplierId = (await api.ok<{ id: number }>("supplier/create", { supplierName: `无证供应商${api.uid()}` })).id;
      const body = { warehouseId, supplierId, lines: [{ goodsId, quantity: 1, price: 100 }] };

      const missing = await api.approve("warehouseIn", body);
      expect(missing.answer.status).toBe(409);
      expect(missing.answer.message).toMatch(/^供应商「无证供应商.+」资质不符，不能入库：缺少营业执照；缺少食品经营许可证或食品生产许可证$/);

      await api.ok("supplierQualification/create", { supplierId, qualType: "1", qualNo: "BL-1", issuer: "市监局", validFrom: "2020-01-01" });
      await api.ok("supplierQualification/create", { supplierId, qualType: "2", qualNo: "JY-7", validFrom: "2020-01-01", validTo: chinaDay(Date.now() - DAY_MS) });
      const lapsed = await api.approve("warehouseIn", body);
      expect(lapsed.answer.status).toBe(409);
      expect(lapsed.answer.message).toContain(`食品经营许可证（编号 JY-7）已于 ${chinaDay(Date.now() - DAY_MS)} 到期`);
      // Nothing was posted.
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 0, amount: 0 });
      // A back-dated stock-in whose day the licence covered passes.
      await api.approved("warehouseIn", { ...body, docDate: chinaDay(Date.now() - 2 * DAY_MS) });

      // The tenant that only warns: it posts, and the stock-in says why.
      await app.call("POST", "/api/v1/sys/parameterConfig/create", { token: tenant.token, body: { paramCode: "zhhq.supplier.qualificationCheck", paramName: "供应商资质检查", paramValue: "warn" } });
      const warned = await api.approved("warehouseIn", body);
      expect((await api.info("warehouseIn", warned)).qualificationNote).toMatch(/^资质预警：食品经营许可证（编号 JY-7）已于/);
      expect((await api.stock(warehouseId, goodsId)).quantity).toBe(2);

      // A food production licence in force is as good as an operating licence.
      await db.deleteFrom("parameter_config").where("tenant_id", "=", tenant.tenantId).where("param_code", "=", "zhhq.supplier.qualificationCheck").execute();
      await api.ok("supplierQualification/create", { supplierId, qualType: "3", qualNo: "SC-9", validFrom: "2020-01-01", validTo: "2099-12-31" });
      const passed = await api.approved("warehouseIn", body);
      expect((await api.info("warehouseIn", passed)).qualificationNote ?? null).toBeNull();
    });
  });
}
