import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { day, purchaseClient, type PurchaseClient } from "../helpers/purchase";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Purchasing as the issue writes its API (issue 41, decision 072), on both databases: a request approved with a
 * changed quantity, an order from it at the contract price, receipts in part that post stock-ins through the stock
 * ledger, more than ordered refused, a dearer price flagged and audited before the order may be confirmed, the
 * confirmed order locked, and its cost shared to the fen. The stock ledger's check is clean after each test.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

for (const dialect of dialects) {
  describe(`${dialect}: 智慧后勤 purchasing`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: PurchaseClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `pu${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `puo${dialect}`);
      api = purchaseClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("request → approve with a changed quantity → order at the contract price → two receipts → 已到货, stock posted by stock-ins", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const rice = await api.goods();
      const oil = await api.goods();
      await api.contract(supplierId, rice, 500);
      await api.contract(supplierId, oil, 1000);

      const demand = await api.ok<{ id: number; docNo: string; status: string }>("purchseDemand/create", {
        warehouseId,
        needDate: day(3),
        lines: [
          { goodsId: rice, quantity: 10 },
          { goodsId: oil, quantity: 4 },
        ],
      });
      expect(demand).toMatchObject({ docNo: expect.stringMatching(/^SQ\d{8}-\d{4}$/), status: "0" });
      // An order cannot be built from a request that is not approved.
      expectField(await api.post("purchse/create", { supplierId, warehouseId, demandIds: [demand.id], lines: [] }), "demandIds", /尚未审核/);
      await api.ok("purchseDemand/submit", { id: demand.id });
      const demandInfo = (await api.get("purchseDemand/getInfo", { id: demand.id })).data as { lines: Array<{ id: number }> };
      const approved = await api.post("purchseDemand/approveAdjusted", { id: demand.id, lines: [{ id: demandInfo.lines[1]?.id, approvedQuantity: 3 }] });
      expect(approved).toMatchObject({ status: 200, data: { status: "2" } });
      const afterApproval = (await api.get("purchseDemand/getInfo", { id: demand.id })).data as { lines: Array<{ quantity: number; approvedQuantity: number }> };
      expect(afterApproval.lines.map((l) => [l.quantity, l.approvedQuantity])).toEqual([
        [10, 10],
        [4, 3],
      ]);

      // The order takes the request's approved quantities at the contract prices.
      const orderId = await api.order({ supplierId, warehouseId, expectedDate: day(2), demandIds: [demand.id], lines: [] });
      let order = await api.orderInfo(orderId);
      expect(order.status).toBe("0");
      expect(order.lines.map((l) => [l.goodsId, l.quantity, l.price, l.receivedQuantity])).toEqual([
        [rice, 10, 500, 0],
        [oil, 3, 1000, 0],
      ]);
      expect(order.lines.map((l) => l.amount)).toEqual([5000, 3000]);
      expectField(await api.post("purchse/create", { supplierId, warehouseId, demandIds: [demand.id], lines: [] }), "demandIds", /已下单/);
      // A request is ordered into its own warehouse.
      expectField(await api.post("purchse/create", { supplierId, warehouseId: await api.warehouse(), demandIds: [demand.id], lines: [] }), "demandIds", /不是本采购单仓库的申请/);

      // Nothing is received before the order is approved.
      const [riceLine, oilLine] = order.lines;
      expect(await api.receive({ id: orderId, lines: [{ purchseLineId: riceLine?.id, quantity: 1 }] })).toMatchObject({ status: 409, message: "采购单当前为「草稿」，不能收货" });
      await api.ok("purchse/submit", { id: orderId });
      await api.ok("purchse/approve", { id: orderId });

      const half = await api.receive({ id: orderId, lines: [{ purchseLineId: riceLine?.id, quantity: 5, batchNo: "RICE-1", productionDate: day(-2), expiryDate: day(100) }] });
      expect(half).toMatchObject({ status: 200, data: { warehouseInId: expect.any(Number) } });
      order = await api.orderInfo(orderId);
      expect(order.status).toBe("3");
      expect(order.lines.map((l) => l.receivedQuantity)).toEqual([5, 0]);
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 5, amount: 2500 });
      const stockIn = await api.info("warehouseIn", half.data.warehouseInId);
      expect(stockIn).toMatchObject({ status: "2", warehouseId, supplierId });
      expect(stockIn.lines).toEqual([expect.objectContaining({ goodsId: rice, quantity: 5, price: 500, amount: 2500, batchNo: "RICE-1", expiryDate: day(100) })]);
      expect(await api.batches(warehouseId, rice)).toEqual([expect.objectContaining({ batchNo: "RICE-1", quantity: 5 })]);

      // More than is still to come is refused, and nothing moves.
      const over = await api.receive({ id: orderId, lines: [{ purchseLineId: riceLine?.id, quantity: 5.001 }] });
      expect(over).toMatchObject({ status: 409, message: expect.stringMatching(/^第 1 行（物资.+）收货数量超过未到数量 5$/) });
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 5, amount: 2500 });
      // One order line received as two batches in one receipt: the line that takes it past what is left is named,
      // with what was left for it after the line before; nothing of either line moves.
      const split = await api.receive({
        id: orderId,
        lines: [
          { purchseLineId: oilLine?.id, quantity: 1 },
          { purchseLineId: riceLine?.id, quantity: 3, batchNo: "RICE-2" },
          { purchseLineId: riceLine?.id, quantity: 2.5, batchNo: "RICE-3" },
        ],
      });
      expect(split).toMatchObject({ status: 409, message: expect.stringMatching(/^第 3 行（物资.+）收货数量超过未到数量 2$/) });
      expect((await api.orderInfo(orderId)).lines.map((l) => l.receivedQuantity)).toEqual([5, 0]);
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 5, amount: 2500 });
      expect(await api.stock(warehouseId, oil)).toEqual({ quantity: 0, amount: 0 });

      const rest = await api.receive({
        id: orderId,
        lines: [
          { purchseLineId: riceLine?.id, quantity: 5 },
          { purchseLineId: oilLine?.id, quantity: 3 },
        ],
      });
      expect(rest).toMatchObject({ status: 200 });
      order = await api.orderInfo(orderId);
      expect(order.status).toBe("4");
      expect(order.lines.map((l) => l.receivedQuantity)).toEqual([10, 3]);
      expect(await api.stock(warehouseId, rice)).toEqual({ quantity: 10, amount: 5000 });
      expect(await api.stock(warehouseId, oil)).toEqual({ quantity: 3, amount: 3000 });
      expect(await api.receive({ id: orderId, lines: [{ purchseLineId: oilLine?.id, quantity: 1 }] })).toMatchObject({ status: 409, message: "采购单当前为「已到货」，不能收货" });
      // Nothing was dearer: the order may be confirmed, and is then locked.
      expect(await api.post("purchse/confirm", { id: orderId })).toMatchObject({ status: 200, data: { status: "5" } });
      expect((await api.orderInfo(orderId)).confirmedAt).toEqual(expect.any(Number));
    });

    test("a line without a price takes the contract price valid on the order date; none → 400 naming the line", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const priced = await api.goods();
      const unpriced = await api.goods();
      await api.ok("supplierGoods/create", { supplierId, goodsId: priced, price: 300, validFrom: day(-60), validTo: day(-31) });
      await api.ok("supplierGoods/create", { supplierId, goodsId: priced, price: 320, validFrom: day(-30) });
      const answer = await api.post("purchse/create", { supplierId, warehouseId, lines: [{ goodsId: priced, quantity: 1 }, { goodsId: unpriced, quantity: 2 }] });
      expectField(answer, "lines.1.price", /^第 2 行（物资.+）没有填写单价，该供应商在订单日期也没有有效的合同价$/);
      // A back-dated order takes the price valid then.
      const id = await api.order({ supplierId, warehouseId, docDate: day(-40), lines: [{ goodsId: priced, quantity: 1 }, { goodsId: unpriced, quantity: 2, price: 99 }] });
      expect((await api.orderInfo(id)).lines.map((l) => [l.price, l.contractPrice])).toEqual([
        [300, 300],
        [99, null],
      ]);
      expectField(await api.post("purchse/create", { supplierId, warehouseId, lines: [] }), "lines", "请至少填写 1 行采购明细，或选择已审核的采购申请");
    });

    test("a price above the contract by more than the tolerance is flagged; the order is confirmed only once it is audited", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const fish = await api.goods();
      const salt = await api.goods();
      await api.contract(supplierId, fish, 1000);
      await api.contract(supplierId, salt, 200);
      const orderId = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: fish, quantity: 2 }, { goodsId: salt, quantity: 1 }] });
      const [fishLine, saltLine] = (await api.orderInfo(orderId)).lines;
      // Fish 6% above its contract (over the default 5%), salt 5% above (within it).
      expect(await api.receive({ id: orderId, lines: [{ purchseLineId: fishLine?.id, quantity: 2, price: 1060 }, { purchseLineId: saltLine?.id, quantity: 1, price: 210 }] })).toMatchObject({ status: 200 });
      const audits = await api.records("purchsePriceAudit", { purchseId: orderId });
      expect(audits).toEqual([expect.objectContaining({ goodsId: fish, supplierId, price: 1060, contractPrice: 1000, overPercent: 6, status: "0" })]);
      expect(await api.post("purchse/confirm", { id: orderId })).toMatchObject({ status: 409, message: "该采购单有 1 行价格待审核，审核后才能确认" });
      expectField(await api.post("purchsePriceAudit/reject", { id: audits[0]?.id }), "reason", /驳回原因/);
      expect(await api.post("purchsePriceAudit/approve", { id: audits[0]?.id })).toMatchObject({ status: 200, data: { status: "1" } });
      expect(await api.post("purchsePriceAudit/approve", { id: audits[0]?.id })).toMatchObject({ status: 409, message: "该价格当前为「已通过」，不能通过" });
      expect(await api.post("purchse/confirm", { id: orderId })).toMatchObject({ status: 200, data: { status: "5" } });
      expect(await api.post("purchse/update", { id: orderId, version: 99, remark: "改" })).toMatchObject({ status: 409 });
    });

    test("the tenant's tolerance and the last price: 20% lets the contract's +10% pass, but +25% over the last delivery is flagged", async () => {
      const set = await app.call("POST", "/api/v1/sys/parameterConfig/create", { token: tenant.token, body: { paramCode: "zhhq.purchase.priceTolerancePercent", paramName: "采购价格容差（%）", paramValue: "20" } });
      expect(set.body, JSON.stringify(set.body)).toMatchObject({ status: 200 });
      try {
        const warehouseId = await api.warehouse();
        const supplierId = await api.supplier();
        const beef = await api.goods();
        await api.contract(supplierId, beef, 1000);
        const first = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: beef, quantity: 1, price: 1000 }] });
        const [line1] = (await api.orderInfo(first)).lines;
        // The contract's +10%: within 20%.
        expect(await api.receive({ id: first, lines: [{ purchseLineId: line1?.id, quantity: 1, price: 1100 }] })).toMatchObject({ status: 200 });
        expect(await api.records("purchsePriceAudit", { purchseId: first })).toEqual([]);
        // A contract price lowered to 1000 again, but the last delivery was 1100... 1400 is 40% over the contract and 27% over the last.
        const second = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: beef, quantity: 1 }] });
        const [line2] = (await api.orderInfo(second)).lines;
        expect(await api.receive({ id: second, lines: [{ purchseLineId: line2?.id, quantity: 1, price: 1400 }] })).toMatchObject({ status: 200 });
        expect(await api.records("purchsePriceAudit", { purchseId: second })).toEqual([expect.objectContaining({ contractPrice: 1000, lastPrice: 1100, overPercent: 40 })]);
      } finally {
        const [param] = (await app.call<{ records: Array<{ id: number }> }>("GET", "/api/v1/sys/parameterConfig/findPage?paramCode=zhhq.purchase.priceTolerancePercent", { token: tenant.token })).body.data.records;
        if (param) await app.call("GET", `/api/v1/sys/parameterConfig/delete?id=${param.id}`, { token: tenant.token });
      }
    });

    test("a receipt retried with its Idempotency-Key posts once; a request rejected needs a reason", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const goodsId = await api.goods();
      const orderId = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId, quantity: 4, price: 250 }] });
      const [line] = (await api.orderInfo(orderId)).lines;
      const body = { id: orderId, lines: [{ purchseLineId: line?.id, quantity: 3 }] };
      const first = await api.receive(body, tenant.token, { "Idempotency-Key": `receive-${orderId}` });
      const again = await api.receive(body, tenant.token, { "Idempotency-Key": `receive-${orderId}` });
      expect(first).toMatchObject({ status: 200 });
      expect(again).toEqual(first);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 3, amount: 750 });
      expect((await api.orderInfo(orderId)).lines[0]?.receivedQuantity).toBe(3);

      const demand = await api.ok<{ id: number }>("purchseDemand/create", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
      await api.ok("purchseDemand/submit", { id: demand.id });
      expectField(await api.post("purchseDemand/reject", { id: demand.id }), "reason", /驳回原因/);
      expect(await api.post("purchseDemand/reject", { id: demand.id, reason: "库存够用" })).toMatchObject({ status: 200, data: { status: "3" } });
    });

    test("a cost share by percentage splits the received amount by the largest remainder; by amount it must total it", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const goodsId = await api.goods();
      const orderId = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId, quantity: 1, price: 10_000 }] });
      const merchants: number[] = [];
      for (let i = 0; i < 3; i++) {
        const made = await app.call<{ id: number }>("POST", "/api/v1/sys/merchant/create", { token: tenant.token, body: { merchantCode: `M${api.uid()}`, merchantName: `商户${api.uid()}`, status: "1" } });
        expect(made.body, JSON.stringify(made.body)).toMatchObject({ status: 200 });
        merchants.push(made.body.data.id);
      }
      expectField(await api.post("purchseShare/create", { purchseId: orderId, method: "1", lines: [{ merchantId: merchants[0], percent: 100 }] }), "purchseId", "采购单尚未到货，不能分摊");
      const [line] = (await api.orderInfo(orderId)).lines;
      await api.ok("purchse/receive", { id: orderId, lines: [{ purchseLineId: line?.id, quantity: 1, price: 10_001 }] });

      const thirds = merchants.map((merchantId, i) => ({ merchantId, percent: i === 2 ? 33.334 : 33.333 }));
      expectField(await api.post("purchseShare/create", { purchseId: orderId, method: "1", lines: thirds.slice(0, 2) }), "lines", "比例合计应为 100，现为 66.666");
      expectField(await api.post("purchseShare/create", { purchseId: orderId, method: "1", lines: [{ percent: 100 }] }), "lines.0.restaurantId", "请选择餐厅/档口或商户（二选一）");
      const share = await api.ok<{ id: number }>("purchseShare/create", { purchseId: orderId, method: "1", lines: thirds });
      const info = (await api.get("purchseShare/getInfo", { id: share.id })).data as { totalAmount: number; lines: Array<{ amount: number }> };
      expect(info.totalAmount).toBe(10_001);
      // 10001 × 33.333% = 3333.63, × 33.334% = 3333.73: the 2 fen left go to the largest remainders (the third, then the first of the tie).
      expect(info.lines.map((l) => l.amount)).toEqual([3334, 3333, 3334]);
      await api.ok("purchseShare/submit", { id: share.id });
      expect(await api.post("purchseShare/approve", { id: share.id })).toMatchObject({ status: 200, data: { status: "2" } });

      expectField(await api.post("purchseShare/create", { purchseId: orderId, method: "2", lines: [{ merchantId: merchants[0], amount: 5000 }, { merchantId: merchants[1], amount: 5000 }] }), "lines", "金额合计应为 100.01 元，现为 100.00 元");
      expect(await api.post("purchseShare/create", { purchseId: orderId, method: "2", lines: [{ merchantId: merchants[0], amount: 5001 }, { merchantId: merchants[1], amount: 5000 }] })).toMatchObject({ status: 200 });
    });

    test("another tenant sees and receives none of it", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const goodsId = await api.goods();
      const orderId = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId, quantity: 2, price: 100 }] });
      const [line] = (await api.orderInfo(orderId)).lines;
      expect(await api.get("purchse/getInfo", { id: orderId }, other.token)).toMatchObject({ status: 404 });
      expect(await api.receive({ id: orderId, lines: [{ purchseLineId: line?.id, quantity: 1 }] }, other.token)).toMatchObject({ status: 404 });
      // Its own order cannot name this tenant's line.
      const theirs = purchaseClient(app, () => other.token);
      const theirOrder = await theirs.approvedOrder({ supplierId: await theirs.supplier(), warehouseId: await theirs.warehouse(), lines: [{ goodsId: await theirs.goods(), quantity: 2, price: 100 }] });
      expectField(await theirs.receive({ id: theirOrder, lines: [{ purchseLineId: line?.id, quantity: 1 }] }), "lines.0.purchseLineId", "该明细不属于所选采购单");
      expect((await api.orderInfo(orderId)).lines[0]?.receivedQuantity).toBe(0);
      expect(await api.records("purchsePriceAudit", {}, other.token)).toEqual([]);
    });
  });
}
