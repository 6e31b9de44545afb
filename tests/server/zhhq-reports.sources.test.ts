import ExcelJS from "exceljs";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, chinaMonth, DAY_MS } from "../../resources/chinaTime";
import { warehouseCheck } from "../../resources/zhhq/closing";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { purchaseClient, type PurchaseClient } from "../helpers/purchase";
import type { Row } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * 采购统计, 盘点统计 and 维修统计 (issue 35): every total recounted here from the rows they are read from — the order
 * lines, the stocktakes' ledger lines, the repairs and their work records — in SQL of its own, on both databases;
 * and each export read back as the sheet a manager opens.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Answer = { rows: Row[]; totals: Row; filters: Record<string, string> };

const num = (v: unknown) => Number(v ?? 0);
const thisMonth = () => chinaMonth(Date.now());
const lastMonth = () => chinaMonth(Date.now() - 40 * DAY_MS);

for (const dialect of dialects) {
  describe(`${dialect}: 采购统计, 盘点统计, 维修统计 against their sources`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: PurchaseClient;
    let db: AnyDb;

    const report = async (name: string, query: Row = {}, token = tenant.token) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return (await app.call<Answer>("GET", `/api/v1/zhhq/${name}?${params}`, { token })).body;
    };
    const answer = async (name: string, query: Row = {}) => {
      const body = await report(name, query);
      expect(body, JSON.stringify(body)).toMatchObject({ status: 200 });
      return body.data;
    };
    /** The export of the same query, read back: its header row and its rows of cells. */
    const sheetOf = async (name: string, query: Row) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const response = await app.api.handle(new Request(`http://canteen.test/api/v1/zhhq/${name}/export?${params}`, { headers: { Authorization: `Bearer ${tenant.token}` } }), "127.0.0.1");
      expect(response.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = workbook.worksheets[0];
      const cells = (i: number) => (sheet.getRow(i).values as unknown[]).slice(1);
      return { header: cells(3) as string[], rows: Array.from({ length: sheet.rowCount - 3 }, (_, i) => cells(i + 4)) };
    };
    const sum = async (query: ReturnType<typeof sql>) => num((await sql<{ s: number }>`${query}`.execute(db)).rows[0].s);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rs${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rso${dialect}`);
      api = purchaseClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("采购统计: ordered, received and confirmed per month, supplier and goods equal the order lines; a goods' price by month", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const riceCode = `RICE${api.uid()}`;
      const rice = await api.goods({ goodsCode: riceCode });
      const oil = await api.goods();
      await api.contract(supplierId, rice, 500);
      await api.contract(supplierId, oil, 1000);
      const lineOf = async (orderId: number, goodsId: number) => (await api.orderInfo(orderId)).lines.find((l) => l.goodsId === goodsId)?.id;

      // Last month: 10 kg of rice at 4.00, all received, confirmed for payment.
      const old = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: rice, quantity: 10, price: 400 }] });
      expect(await api.receive({ id: old, lines: [{ purchseLineId: await lineOf(old, rice), quantity: 10 }] })).toMatchObject({ status: 200 });
      expect(await api.post("purchse/confirm", { id: old })).toMatchObject({ status: 200 });
      await db.updateTable("purchase_order").set({ doc_date: `${lastMonth()}-15` }).where("tenant_id", "=", tenant.tenantId).where("id", "=", old).execute();
      // This month: rice at the contract's 5.00 half received, oil not yet; a draft and an order closed unreceived do not count.
      const open = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: rice, quantity: 20 }, { goodsId: oil, quantity: 3 }] });
      expect(await api.receive({ id: open, lines: [{ purchseLineId: await lineOf(open, rice), quantity: 8 }] })).toMatchObject({ status: 200 });
      await api.order({ supplierId, warehouseId, lines: [{ goodsId: rice, quantity: 99 }] });
      const closed = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: oil, quantity: 50 }] });
      expect(await api.post("purchse/close", { id: closed, reason: "供应商缺货" })).toMatchObject({ status: 200 });

      const both = await answer("purchaseReport", { fromMonth: lastMonth(), toMonth: thisMonth(), supplierId });
      const counted = sql`from purchase_order_line l join purchase_order h on h.tenant_id = l.tenant_id and h.id = l.document_id
        where h.tenant_id = ${tenant.tenantId} and (h.status in ('2', '3', '4') or h.confirmed_at is not null)`;
      expect(num(both.totals.orderAmount)).toBe(await sum(sql`select coalesce(sum(l.amount), 0) as s ${counted}`));
      expect(num(both.totals.receivedAmount)).toBe(await sum(sql`select coalesce(sum(l.received_amount), 0) as s ${counted}`));
      expect(num(both.totals.confirmedAmount)).toBe(await sum(sql`select coalesce(sum(l.received_amount), 0) as s ${counted} and h.confirmed_at is not null`));
      expect(num(both.totals.orderCount)).toBe(await sum(sql`select count(distinct h.id) as s ${counted}`));
      // 4000 + 10000 + 3000 ordered; 4000 + 4000 received; 4000 confirmed; two orders (one of two goods).
      expect(both.totals).toMatchObject({ orderAmount: 17_000, receivedAmount: 8_000, confirmedAmount: 4_000, orderCount: 2 });
      expect(both.rows.map((r) => [r.month, r.goodsCode === riceCode ? "rice" : "oil", r.orderQuantity, r.avgPrice, r.receivedQuantity])).toEqual([
        [lastMonth(), "rice", 10_000, 400, 10_000],
        // In order of goods code: the oil's G… before RICE….
        [thisMonth(), "oil", 3_000, 1000, 0],
        [thisMonth(), "rice", 20_000, 500, 8_000],
      ]);
      // One goods: its rows only, the month of its order date.
      const riceOnly = await answer("purchaseReport", { fromMonth: thisMonth(), toMonth: thisMonth(), goodsCode: riceCode });
      expect(riceOnly.rows.map((r) => r.month)).toEqual([thisMonth()]);
      expect(riceOnly.totals).toMatchObject({ orderAmount: 10_000, orderCount: 1 });

      const sheet = await sheetOf("purchaseReport", { fromMonth: lastMonth(), toMonth: thisMonth(), supplierId });
      const at = (label: string) => sheet.header.indexOf(label);
      const totalsRow = sheet.rows[sheet.rows.length - 1];
      expect(totalsRow[0]).toBe("合计");
      expect(totalsRow[at("采购金额")]).toBe(170);
      expect(totalsRow[at("已确认金额")]).toBe(40);
      expect(sheet.rows[0][at("采购数量")]).toBe(10);
      expect(sheet.rows[0][at("采购均价")]).toBe(4);

      expectField(await report("purchaseReport", { supplierId }, other.token), "supplierId", "所选供应商不存在");
      expectField(await report("purchaseReport", { fromMonth: "2026-13" }), "fromMonth", "月份格式应为 2026-05");
    });

    test("盘点统计: each stocktake's gains and losses per goods equal its ledger lines", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const rice = await api.goods();
      const oil = await api.goods();
      await api.approved("warehouseIn", { warehouseId, supplierId, lines: [{ goodsId: rice, quantity: 10, price: 450 }, { goodsId: oil, quantity: 4, price: 1200 }] });
      const sheet = await api.ok<{ id: number; docNo: string; lines: Row[] }>("warehouseCheck/create", { warehouseId });
      const lineFor = (goodsId: number) => sheet.lines.find((l) => l.goodsId === goodsId)?.id;
      // Rice counted 7.5 (2.5 kg lost), oil 5 (1 found).
      await api.ok("warehouseCheck/update", { id: sheet.id, lines: [{ id: lineFor(rice), countedQuantity: 7.5 }, { id: lineFor(oil), countedQuantity: 5 }] });
      expect(await api.step("warehouseCheck", "submit", { id: sheet.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseCheck", "approve", { id: sheet.id })).toMatchObject({ status: 200 });

      const today = chinaDay(Date.now());
      const checks = await answer("warehouseCheckReport", { from: today, to: today, warehouseId });
      const ledger = (where: ReturnType<typeof sql>) =>
        sum(sql`select coalesce(sum(amount), 0) as s from stock_line where tenant_id = ${tenant.tenantId} and doc_type = ${warehouseCheck.docType} and warehouse_id = ${warehouseId} and ${where}`);
      expect(num(checks.totals.gainAmount)).toBe(await ledger(sql`quantity > 0`));
      expect(num(checks.totals.lossAmount)).toBe(-(await ledger(sql`quantity < 0`)));
      expect(num(checks.totals.netAmount)).toBe(await ledger(sql`1 = 1`));
      expect(checks.totals).toMatchObject({ gainAmount: 1200, lossAmount: 1125, netAmount: 75 });
      expect(checks.rows.map((r) => [r.docNo, r.docDate, r.gainQuantity, r.lossQuantity])).toEqual(
        expect.arrayContaining([
          [sheet.docNo, today, 0, 2_500],
          [sheet.docNo, today, 1_000, 0],
        ]),
      );
      // Yesterday had none.
      expect((await answer("warehouseCheckReport", { from: chinaDay(Date.now() - DAY_MS), to: chinaDay(Date.now() - DAY_MS), warehouseId })).rows).toEqual([]);

      const exported = await sheetOf("warehouseCheckReport", { from: today, to: today, warehouseId });
      const last = exported.rows[exported.rows.length - 1];
      expect(last[exported.header.indexOf("盘亏金额")]).toBe(11.25);
      expect(last[exported.header.indexOf("净盈亏金额")]).toBe(0.75);
      expect(exported.rows.map((r) => r[exported.header.indexOf("盘亏数量")]).slice(0, 2).sort()).toEqual([0, 2.5]);
      expectField(await report("warehouseCheckReport", { warehouseId }, other.token), "warehouseId", "所选仓库不存在");
    });

    test("维修统计: counts, parts cost, hours, times and ratings per month, type, place and worker equal the repairs and their records", async () => {
      const H = "/api/v1/zhhq";
      const ok = async (path: string, body: Row) => {
        const r = await app.call<Row & { id: number }>("POST", `${H}/${path}`, { token: tenant.token, body });
        expect(r.body, path).toMatchObject({ status: 200 });
        return r.body.data;
      };
      const worker = `张电工${api.uid()}`;
      const create = (repairType: string) => ok("repair/create", { placeType: "other", place: "二楼", repairType, content: "坏了", reporterName: "王" });
      const done = async (repairType: string, hours: number, rating: number | null) => {
        const r = await create(repairType);
        await ok("repair/accept", { id: r.id, workerName: worker });
        await ok("repair/start", { id: r.id });
        await ok("repairDetail/create", { repairId: r.id, note: "修", hours });
        await ok("repair/finish", { id: r.id, finishNote: "好了" });
        if (rating !== null) await ok("repair/rate", { id: r.id, rating });
        return r.id;
      };
      const a = await done("water_electric", 1.5, 5);
      const b = await done("water_electric", 0.5, 4);
      await done("door_window", 2, null);
      const rejected = await create("water_electric");
      await ok("repair/reject", { id: rejected.id, reason: "重复报修" });
      await create("water_electric");
      // Times as the repair keeps them (minutes from report to acceptance, from acceptance to finish).
      await db.updateTable("repair").set({ accept_minutes: 30, finish_minutes: 120, parts_cost: 1550 }).where("tenant_id", "=", tenant.tenantId).where("id", "=", a).execute();
      await db.updateTable("repair").set({ accept_minutes: 10, finish_minutes: 61, parts_cost: 0 }).where("tenant_id", "=", tenant.tenantId).where("id", "=", b).execute();

      const month = thisMonth();
      const all = await answer("repairDetailReport", { fromMonth: month, toMonth: month });
      const own = (what: ReturnType<typeof sql>, where: ReturnType<typeof sql> = sql`1 = 1`) => sum(sql`select ${what} as s from repair where tenant_id = ${tenant.tenantId} and ${where}`);
      expect(num(all.totals.repairs)).toBe(await own(sql`count(*)`));
      expect(num(all.totals.finished)).toBe(await own(sql`count(finished_at)`));
      expect(num(all.totals.rejected)).toBe(await own(sql`count(*)`, sql`repair_status = 9`));
      expect(num(all.totals.partsCost)).toBe(await own(sql`coalesce(sum(parts_cost), 0)`));
      expect(num(all.totals.ratings)).toBe(await own(sql`count(rating)`));
      expect(num(all.totals.hours)).toBe(await sum(sql`select coalesce(sum(hours), 0) as s from repair_detail where tenant_id = ${tenant.tenantId}`));
      expect(all.totals).toMatchObject({ repairs: 5, finished: 3, rejected: 1, partsCost: 1550, hours: 4_000, ratings: 2, avgRating: 4_500 });

      const water = all.rows.find((r) => r.repairType === "water_electric" && r.workerName === worker);
      // Two repairs by the worker: 30 and 10 minutes to accept, 120 and 61 to finish (90.5 → 91), rated 5 and 4.
      expect(water).toMatchObject({ month, placeType: "other", repairs: 2, finished: 2, partsCost: 1550, hours: 2_000, avgAcceptMinutes: 20, avgFinishMinutes: 91, ratings: 2, avgRating: 4_500 });
      expect(all.rows.find((r) => r.repairType === "water_electric" && r.workerName === "（未受理）")).toMatchObject({ repairs: 2, rejected: 1, finished: 0, avgAcceptMinutes: null });

      const byWorker = await answer("repairDetailReport", { fromMonth: month, toMonth: month, workerName: worker, repairType: "door_window" });
      expect(byWorker.rows).toEqual([expect.objectContaining({ repairType: "door_window", repairs: 1, hours: 2_000, avgRating: null })]);
      // Last month had none: the empty state, not an error.
      expect((await answer("repairDetailReport", { fromMonth: lastMonth(), toMonth: lastMonth() })).rows).toEqual([]);

      const exported = await sheetOf("repairDetailReport", { fromMonth: month, toMonth: month, workerName: worker, repairType: "water_electric" });
      expect(exported.rows[0][exported.header.indexOf("报修类型")]).toBe("水电");
      expect(exported.rows[0][exported.header.indexOf("平均评分")]).toBe(4.5);
      expect(exported.rows[0][exported.header.indexOf("配件成本")]).toBe(15.5);
      expectField(await report("repairDetailReport", { repairType: "bogus" }), "repairType", "报修类型不是可选的值");
      expect((await report("repairDetailReport", { fromMonth: month, toMonth: month }, other.token)).data.rows).toEqual([]);
    });
  });
}
