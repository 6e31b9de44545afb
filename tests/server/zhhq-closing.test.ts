import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Transfers, stocktakes and the month's stock account as API clients call them (issue 41, decision 073): a transfer
 * keeps its batches, expiry dates and costs through transit and conserves quantity and amount; an open stocktake
 * freezes its warehouse (409 naming the sheet) and its approval makes the stock equal the count; a formal month
 * refuses a back-dated document, generating twice gives the same rows, and closings chain. The ledger's check is clean
 * after each test.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const day = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);
const thisMonth = () => day(0).slice(0, 7);
function monthBefore(month: string, n = 1): string {
  const [y, m] = month.split("-").map(Number);
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

for (const dialect of dialects) {
  describe(`${dialect}: transfers, stocktakes and the month's stock account`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let own: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `cl${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `clo${dialect}`);
      // A tenant of its own for the month's account: its formal months would refuse the other tests' back-dated documents.
      own = await createTenantWithAdmin(app, superToken, `clm${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    /** The transit warehouse's stock of a goods (the transit warehouse is found by the ledger's rows). */
    async function transitStock(goodsId: number, as = api) {
      const rows = await as.records("warehouseReal", { goodsId });
      const transit = await db.selectFrom("warehouse").select("id").where("warehouse_code", "=", "ZT-IN-TRANSIT").where("tenant_id", "=", tenant.tenantId).executeTakeFirst();
      const row = rows.find((r) => Number(r.warehouseId) === Number(transit?.id));
      return { quantity: Number(row?.quantity ?? 0), amount: Number(row?.amount ?? 0) };
    }

    test("a transfer: out of the source into transit first expiry first, then into the destination with the same batches, dates and costs", async () => {
      const a = await api.warehouse();
      const b = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId: a,
        lines: [
          { goodsId, quantity: 5, price: 300, batchNo: "LATE", expiryDate: day(60) },
          { goodsId, quantity: 4, price: 250, batchNo: "EARLY", expiryDate: day(10) },
        ],
      });
      const created = await api.create("warehouseTransfer", { fromWarehouseId: a, toWarehouseId: b, lines: [{ goodsId, quantity: 6 }] });
      expect(created).toMatchObject({ id: expect.any(Number), docNo: expect.stringMatching(/^DB\d{8}-\d{4}$/), status: "0" });
      expect(await api.step("warehouseTransfer", "submit", { id: created.id })).toMatchObject({ status: 200, data: { status: "1" } });
      expect(await api.step("warehouseTransfer", "approve", { id: created.id })).toMatchObject({ status: 200, data: { status: "2" } });
      // EARLY (4 × 250 = 1000) whole, then 2 of LATE (2/5 of 1500 = 600).
      expect(await api.stock(a, goodsId)).toEqual({ quantity: 3, amount: 900 });
      expect(await transitStock(goodsId)).toEqual({ quantity: 6, amount: 1600 });
      expect(await api.stock(b, goodsId)).toEqual({ quantity: 0, amount: 0 });
      const inTransit = await api.info("warehouseTransfer", created.id);
      expect(inTransit.lines[0]).toMatchObject({ quantity: 6, sentQuantity: 6, transitQuantity: 6, receivedQuantity: 0, amount: 1600 });
      // What is in transit is nobody's to issue: a stock-out there is refused.
      const transitId = Number((await db.selectFrom("warehouse").select("id").where("warehouse_code", "=", "ZT-IN-TRANSIT").where("tenant_id", "=", tenant.tenantId).executeTakeFirst())?.id);
      const { answer: fromTransit } = await api.approve("warehouseOut", { warehouseId: transitId, lines: [{ goodsId, quantity: 1 }] });
      expect(fromTransit).toMatchObject({ status: 409, message: "调拨在途仓库的物资只能由调拨单调出、收货" });

      expect(await api.step("warehouseTransfer", "receive", { id: created.id })).toMatchObject({ status: 200, data: { status: "3" } });
      expect(await api.stock(a, goodsId)).toEqual({ quantity: 3, amount: 900 });
      expect(await transitStock(goodsId)).toEqual({ quantity: 0, amount: 0 });
      expect(await api.stock(b, goodsId)).toEqual({ quantity: 6, amount: 1600 });
      const arrived = (await api.batches(b, goodsId)).map((r) => [r.batchNo, r.expiryDate, r.price, r.quantity, r.amount]);
      expect(arrived.sort()).toEqual([
        ["EARLY", day(10), 250, 4, 1000],
        ["LATE", day(60), 300, 2, 600],
      ]);
      const received = await api.info("warehouseTransfer", created.id);
      expect(received.lines[0]).toMatchObject({ sentQuantity: 6, transitQuantity: 0, receivedQuantity: 6 });
      // 调拨明细 (warehousetransferdetail): the line as received, found by either warehouse, its status and its number.
      const detail = (query: Row) => api.get("warehouseTransferDetail", { from: day(-1), to: day(1), ...query });
      const row = { docNo: created.docNo, status: "3", quantity: 6000, sentQuantity: 6000, transitQuantity: 0, receivedQuantity: 6000, amount: 1600 };
      for (const query of [{ docNo: created.docNo }, { warehouseId: a }, { warehouseId: b, status: "3" }]) {
        const answer = await detail(query);
        expect(answer, JSON.stringify(query)).toMatchObject({ status: 200 });
        expect((answer.data as { rows: Row[] }).rows.filter((r) => r.docNo === created.docNo)).toEqual([expect.objectContaining(row)]);
      }
      expect(((await detail({ docNo: created.docNo, status: "2" })).data as { rows: Row[] }).rows).toEqual([]);
      expect(((await detail({ docNo: created.docNo, from: day(2), to: day(3) })).data as { rows: Row[] }).rows).toEqual([]);
      expectField(await detail({ status: "9" }), "status", /状态/);
      // Received twice: the workflow's 409.
      expect(await api.step("warehouseTransfer", "receive", { id: created.id })).toMatchObject({ status: 409 });
    });

    test("a transfer's bad input: the same warehouse, more than in stock, another tenant's warehouse", async () => {
      const a = await api.warehouse();
      const goodsId = await api.goods();
      expectField(await api.post("warehouseTransfer/create", { fromWarehouseId: a, toWarehouseId: a, lines: [{ goodsId, quantity: 1 }] }), "toWarehouseId", "调入仓库不能与调出仓库相同");
      const b = await api.warehouse();
      const { answer } = await api.approve("warehouseTransfer", { fromWarehouseId: a, toWarehouseId: b, lines: [{ goodsId, quantity: 1 }] });
      expect(answer).toMatchObject({ status: 409, message: expect.stringMatching(/^库存不足：.+ 仓库现有 0$/) });
      const foreign = await api.warehouse(other.token);
      expect(await api.post("warehouseTransfer/create", { fromWarehouseId: a, toWarehouseId: foreign, lines: [{ goodsId, quantity: 1 }] })).toMatchObject({ status: 400 });
    });

    test("a stocktake: the book of every batch, the warehouse frozen while it is open, approval makes the stock equal the count", async () => {
      const warehouseId = await api.warehouse();
      const rice = await api.goods();
      const oil = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId: rice, quantity: 10, price: 400, batchNo: "R1", expiryDate: day(30) },
          { goodsId: oil, quantity: 4, price: 1500, batchNo: "O1", expiryDate: day(90) },
        ],
      });
      const sheet = await api.ok<{ id: number; docNo: string; status: string; lines: Row[] }>("warehouseCheck/create", { warehouseId });
      expect(sheet).toMatchObject({ id: expect.any(Number), docNo: expect.stringMatching(/^PD\d{8}-\d{4}$/), status: "0" });
      expect(sheet.lines.map((l) => [l.goodsId, l.batchNo, l.bookQuantity]).sort()).toEqual(
        [
          [rice, "R1", 10],
          [oil, "O1", 4],
        ].sort(),
      );
      for (const line of sheet.lines) expect(line.id).toEqual(expect.any(Number));

      // Frozen: every other posting there is refused, naming the sheet; a second sheet too.
      const { answer: out } = await api.approve("warehouseOut", { warehouseId, lines: [{ goodsId: rice, quantity: 1 }] });
      expect(out).toMatchObject({ status: 409, message: `仓库正在盘点（盘点单 ${sheet.docNo}），盘点结束前不能出入库` });
      const { answer: stockIn } = await api.approve("warehouseIn", { warehouseId, lines: [{ goodsId: rice, quantity: 1, price: 1 }] });
      expect(stockIn).toMatchObject({ status: 409, message: `仓库正在盘点（盘点单 ${sheet.docNo}），盘点结束前不能出入库` });
      expect(await api.post("warehouseCheck/create", { warehouseId })).toMatchObject({ status: 409, message: `该仓库已有未完成的盘点单 ${sheet.docNo}` });

      const riceLine = sheet.lines.find((l) => l.goodsId === rice) as Row;
      const oilLine = sheet.lines.find((l) => l.goodsId === oil) as Row;
      // A loss of 2.5 of rice (2.5/10 of 4000 = 1000) and a gain of 1 oil at its price (1500).
      const updated = await api.ok<{ lines: Row[] }>("warehouseCheck/update", { id: sheet.id, lines: [{ id: riceLine.id, countedQuantity: 7.5 }] });
      expect(updated.lines.find((l) => l.id === riceLine.id)).toMatchObject({ countedQuantity: 7.5, diffQuantity: -2.5 });
      await api.ok("warehouseCheck/update", { id: sheet.id, lines: [{ id: oilLine.id, countedQuantity: 5 }] });
      const counted = await api.info("warehouseCheck", sheet.id);
      expect(counted.lines.map((l) => [l.goodsId, l.countedQuantity, l.diffQuantity]).sort()).toEqual(
        [
          [rice, 7.5, -2.5],
          [oil, 5, 1],
        ].sort(),
      );
      expectField(await api.post("warehouseCheck/update", { id: sheet.id, lines: [{ id: 1, countedQuantity: 1 }] }), "lines.0.id", "第 1 行盘点明细不存在");
      expect(await api.step("warehouseCheck", "submit", { id: sheet.id })).toMatchObject({ status: 200, data: { status: "1" } });
      expect(await api.step("warehouseCheck", "approve", { id: sheet.id })).toMatchObject({ status: 200, data: { status: "2" } });
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 7.5, amount: 3000 });
      expect(await api.stock(warehouseId, oil)).toEqual({ quantity: 5, amount: 7500 });
      const approved = await api.info("warehouseCheck", sheet.id);
      expect(approved.lines.map((l) => [l.goodsId, l.diffAmount]).sort()).toEqual(
        [
          [rice, -1000],
          [oil, 1500],
        ].sort(),
      );
      // Unfrozen.
      await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId: rice, quantity: 1 }] });
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 6.5, amount: 2600 });
    });

    test("a stocktake cancelled unfreezes its warehouse and posts nothing; goods types narrow the sheet", async () => {
      const warehouseId = await api.warehouse();
      const typeId = (await api.ok<{ id: number }>("goodsType/create", { typeName: `干货${api.uid()}` })).id;
      const rice = await api.goods({ goodsTypeId: typeId });
      const oil = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId: rice, quantity: 3, price: 100 }, { goodsId: oil, quantity: 2, price: 100 }] });
      const sheet = await api.ok<{ id: number; lines: Row[] }>("warehouseCheck/create", { warehouseId, goodsTypeId: typeId });
      expect(sheet.lines.map((l) => [l.goodsId, l.bookQuantity])).toEqual([[rice, 3]]);
      await api.ok("warehouseCheck/update", { id: sheet.id, lines: [{ id: sheet.lines[0].id, countedQuantity: 0 }] });
      expect(await api.step("warehouseCheck", "cancel", { id: sheet.id })).toMatchObject({ status: 200, data: { status: "3" } });
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 3, amount: 300 });
      await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId: rice, quantity: 1 }] });
      expectField(await api.post("warehouseCheck/create", {}), "warehouseId", /仓库/);
      expectField(await api.post("warehouseCheck/create", { warehouseId, lines: [{ countedQuantity: 1 }] }), "lines", "盘点明细按账面自动生成，开单时不能填写");
      expect(await api.post("warehouseCheck/create", { warehouseId: await api.warehouse(other.token) })).toMatchObject({ status: 400 });
    });

    test("the month's stock account: generate twice gives the same rows, a formal month refuses a back-dated document, closings chain", async () => {
      const m = stockClient(app, () => own.token);
      const warehouseId = await m.warehouse();
      const goodsId = await m.goods();
      const now = thisMonth();
      const last = monthBefore(now);
      const earlier = monthBefore(now, 2);
      await m.approved("warehouseIn", { warehouseId, docDate: `${earlier}-15`, lines: [{ goodsId, quantity: 10, price: 100 }] });
      await m.approved("warehouseIn", { warehouseId, docDate: `${last}-03`, lines: [{ goodsId, quantity: 5, price: 120 }] });
      await m.approved("warehouseOut", { warehouseId, docDate: `${last}-20`, lines: [{ goodsId, quantity: 4 }] });

      // An earlier month with movements must be formal first.
      expect(await m.post("warehouseAccountMonthSettle/confirm", { month: last })).toMatchObject({ status: 409, message: `${earlier} 尚未结账，请先将其转正式` });
      expect(await m.post("warehouseAccountMonthSettle/confirm", { month: now })).toMatchObject({ status: 409, message: `${now} 尚未结束，不能转正式` });

      const first = await m.ok<Row>("warehouseAccountMonthSettle/generate", { month: last });
      expect(first).toMatchObject({ month: last, rowCount: 1, status: 0 });
      const rows = await m.records("warehouseAccountMonthSettle", { month: last, warehouseId, goodsId });
      const strip = (list: Row[]) => list.map((r) => ({ ...r, id: undefined, createdAt: undefined, updatedAt: undefined }));
      // Opening 10 (1000), in 5 (600), out 4 first expiry first (FEFO: none, so receipt order: 4 of the 1000 → 400).
      expect(rows).toEqual([
        expect.objectContaining({ month: last, warehouseId, goodsId, openingQuantity: 10, openingAmount: 1000, inQuantity: 5, inAmount: 600, outQuantity: 4, outAmount: 400, closingQuantity: 11, closingAmount: 1200, status: "0" }),
      ]);
      await m.ok("warehouseAccountMonthSettle/generate", { month: last });
      expect(strip(await m.records("warehouseAccountMonthSettle", { month: last, warehouseId, goodsId }))).toEqual(strip(rows));

      expect(await m.ok("warehouseAccountMonthSettle/confirm", { month: earlier })).toMatchObject({ month: earlier, status: 1 });
      expect(await m.ok("warehouseAccountMonthSettle/confirm", { month: last })).toMatchObject({ month: last, status: 1 });
      expect(await m.records("warehouseAccountMonthSettle", { month: last })).toEqual([expect.objectContaining({ status: "1", closingQuantity: 11 })]);
      // A formal month refuses a back-dated document, and generating it again.
      const { answer } = await m.approve("warehouseIn", { warehouseId, docDate: `${last}-28`, lines: [{ goodsId, quantity: 1, price: 1 }] });
      expect(answer).toMatchObject({ status: 409, message: `${last} 已结账` });
      expect(await m.post("warehouseAccountMonthSettle/generate", { month: last })).toMatchObject({ status: 409, message: `${last} 已结账` });
      expect(await m.post("warehouseAccountMonthSettle/confirm", { month: last })).toMatchObject({ status: 409, message: `${last} 已结账` });
      // Today still posts; this month's opening is the formal month's closing.
      await m.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
      await m.ok("warehouseAccountMonthSettle/generate", { month: now });
      const [current] = await m.records("warehouseAccountMonthSettle", { month: now, warehouseId, goodsId });
      expect(current).toMatchObject({ openingQuantity: 11, openingAmount: 1200, outQuantity: 1, closingQuantity: 10 });
      // Bad months: 400 naming the field; the future: 400.
      expectField(await m.post("warehouseAccountMonthSettle/generate", { month: "2026-13" }), "month", "月份格式应为 YYYY-MM");
      expectField(await m.post("warehouseAccountMonthSettle/generate", { month: "9999-01" }), "month", "9999-01 尚未开始，不能生成");
      // Another tenant sees none of it.
      expect(await m.records("warehouseAccountMonthSettle", { month: last }, tenant.token)).toEqual([]);
    });

    test("warnings: goods under or over their thresholds, batches expiring within zhhq.expiry.warnDays and expired, each with its quantity", async () => {
      const warehouseId = await api.warehouse();
      const low = await api.goods();
      const high = await api.goods();
      const fresh = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId,
        docDate: day(-30),
        lines: [
          { goodsId: low, quantity: 2, price: 100, batchNo: "LOW-1", expiryDate: day(3) },
          { goodsId: high, quantity: 50, price: 100, batchNo: "HIGH-1", expiryDate: day(-2) },
          { goodsId: fresh, quantity: 5, price: 100, batchNo: "FRESH-1", expiryDate: day(9) },
        ],
      });
      await api.ok("goodsThreshold/create", { warehouseId, goodsId: low, lowerQuantity: 5, upperQuantity: 100 });
      await api.ok("goodsThreshold/create", { warehouseId, goodsId: high, lowerQuantity: 1, upperQuantity: 40 });
      await api.ok("goodsThreshold/create", { warehouseId, goodsId: fresh, lowerQuantity: 1, upperQuantity: 40 });
      const shown = async () => {
        const answer = await api.get("warehouseWarning/findPage", { warehouseId });
        expect(answer).toMatchObject({ status: 200 });
        return answer.data as { records: Row[]; counts: Row; warnDays: number };
      };
      let found = await shown();
      expect(found.warnDays).toBe(7);
      // Supplier licences are no warehouse's: a warehouse's warnings count none (decision 081).
      expect(found.counts).toEqual({ expired: 1, expiring: 1, low: 1, high: 1, licence: 0, insurance: 0, inspection: 0 });
      expect(found.records.map((r) => [r.kind, r.goodsId, r.batchNo, r.quantity, r.days])).toEqual([
        ["expired", high, "HIGH-1", 50, -2],
        ["expiring", low, "LOW-1", 2, 3],
        ["low", low, null, 2, null],
        ["high", high, null, 50, null],
      ]);
      // The tenant's parameter widens the window: FRESH-1 (9 days) is then expiring too.
      const param = await app.call<{ id: number }>("POST", "/api/v1/sys/parameterConfig/create", { token: tenant.token, body: { paramName: "临期预警天数", paramCode: "zhhq.expiry.warnDays", paramValue: "10" } });
      expect(param.body.status, JSON.stringify(param.body)).toBe(200);
      found = await shown();
      expect(found.warnDays).toBe(10);
      expect(found.counts).toEqual({ expired: 1, expiring: 2, low: 1, high: 1, licence: 0, insurance: 0, inspection: 0 });
      const expiring = await api.get("warehouseWarning/findPage", { warehouseId, kind: "expiring" });
      expect((expiring.data as { records: Row[] }).records.map((r) => r.batchNo)).toEqual(["LOW-1", "FRESH-1"]);
      expect(await api.get("warehouseWarning/findPage", { kind: "nope" })).toMatchObject({ status: 400 });
      // Another tenant's warnings are its own.
      const theirs = await api.get("warehouseWarning/findPage", {}, other.token);
      expect((theirs.data as { records: Row[] }).records).toEqual([]);
      expect((await app.call("POST", "/api/v1/sys/parameterConfig/deleteBatch", { token: tenant.token, body: { ids: [param.body.data.id] } })).body.status).toBe(200);
    });
  });
}
