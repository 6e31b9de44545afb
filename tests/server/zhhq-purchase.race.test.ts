import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { purchaseClient, type PurchaseClient } from "../helpers/purchase";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Receipts racing (issue 41's concurrency test, decision 072), on both databases: receipts of one order line at once
 * never receive more than was ordered — the others hear 409 and post nothing — and receipts of different lines at once
 * all arrive, leaving the order 已到货. Orders built from one approved request at once: one takes it, the others are
 * refused at demandIds and write nothing. The stock ledger's check stays clean.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

for (const dialect of dialects) {
  describe(`${dialect}: purchase receipts at once`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: PurchaseClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `pr${dialect}`);
      api = purchaseClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("two receipts of the same line racing never receive more than ordered", { timeout: 120_000 }, async () => {
      for (let round = 0; round < 5; round++) {
        const warehouseId = await api.warehouse();
        const goodsId = await api.goods();
        const orderId = await api.approvedOrder({ supplierId: await api.supplier(), warehouseId, lines: [{ goodsId, quantity: 10, price: 120 }] });
        const [line] = (await api.orderInfo(orderId)).lines;
        const answers = await Promise.all([7, 6].map((quantity) => api.receive({ id: orderId, lines: [{ purchseLineId: line?.id, quantity }] })));
        expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
        const refused = answers.find((a) => a.status !== 200);
        expect(refused).toMatchObject({ status: 409, message: expect.stringMatching(/收货数量超过未到数量 [34]$/) });
        const won = answers[0]?.status === 200 ? 7 : 6;
        const order = await api.orderInfo(orderId);
        expect(order.lines[0]?.receivedQuantity).toBe(won);
        expect(order.status).toBe("3");
        expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: won, amount: won * 120 });
        expect(await api.movements(warehouseId, goodsId)).toHaveLength(1);
      }
    });

    test("20 receipts of 1 at once against an order line of 10: exactly 10 arrive; different lines at once all arrive", { timeout: 120_000 }, async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const other = await api.goods();
      const orderId = await api.approvedOrder({ supplierId: await api.supplier(), warehouseId, lines: [{ goodsId, quantity: 10, price: 100 }, { goodsId: other, quantity: 3, price: 10 }] });
      const [line, otherLine] = (await api.orderInfo(orderId)).lines;
      const answers = await Promise.all(Array.from({ length: 20 }, () => api.receive({ id: orderId, lines: [{ purchseLineId: line?.id, quantity: 1 }] })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(10);
      expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.data.warehouseInId)).size).toBe(10);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 10, amount: 1000 });
      const others = await Promise.all([1, 1, 1].map((quantity) => api.receive({ id: orderId, lines: [{ purchseLineId: otherLine?.id, quantity }] })));
      expect(others.map((a) => a.status)).toEqual([200, 200, 200]);
      const order = await api.orderInfo(orderId);
      expect(order.status).toBe("4");
      expect(order.lines.map((l) => l.receivedQuantity)).toEqual([10, 3]);
    });
    test("orders built from one approved request at once: exactly one takes it, the others are 400 at demandIds", { timeout: 120_000 }, async () => {
      for (let round = 0; round < 3; round++) {
        const warehouseId = await api.warehouse();
        const supplierId = await api.supplier();
        const goodsId = await api.goods();
        await api.contract(supplierId, goodsId, 100);
        const demand = await api.ok<{ id: number }>("purchseDemand/create", { warehouseId, lines: [{ goodsId, quantity: 4 }] });
        await api.ok("purchseDemand/submit", { id: demand.id });
        await api.ok("purchseDemand/approve", { id: demand.id });
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => api.post("purchse/create", { supplierId, warehouseId, demandIds: [demand.id], lines: [{ goodsId, quantity: 1, price: 100 }] })),
        );
        expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
        for (const refused of answers.filter((a) => a.status !== 200)) expectField(refused, "demandIds", /已下单/);
        const lines = await db.selectFrom("purchase_order_line").select(["document_id", "demand_id"]).where("demand_id", "=", demand.id).execute();
        expect(lines).toHaveLength(1);
        // The refused orders wrote nothing: one order of this warehouse, with its hand line and the request's.
        expect(await db.selectFrom("purchase_order").select("id").where("warehouse_id", "=", warehouseId).execute()).toHaveLength(1);
      }
    });
  });
}
