import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Stock under races and retries (issue 40's concurrency tests, decision 068), on both databases: approvals at once
 * against too little stock never take it below zero, a document approved ten times at once posts once, and a retried
 * approval with the same Idempotency-Key answers the first answer and posts nothing. The ledger's check stays clean.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

for (const dialect of dialects) {
  describe(`${dialect}: stock approvals at once`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `sr${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("100 stock-outs of 1 approved at once against 50 in stock: exactly 50 approved, stock 0", { timeout: 120_000 }, async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      // Five batches, so the approvals race over FEFO's whole walk and not one row.
      await api.approved("warehouseIn", { warehouseId, lines: [1, 2, 3, 4, 5].map((n) => ({ goodsId, quantity: 10, price: 100 + n, batchNo: `B${n}`, expiryDate: `2099-0${n}-01` })) });
      const ids: number[] = [];
      for (let i = 0; i < 100; i++) {
        const { id } = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
        expect(await api.step("warehouseOut", "submit", { id })).toMatchObject({ status: 200 });
        ids.push(id);
      }
      const answers = await Promise.all(ids.map((id) => api.step("warehouseOut", "approve", { id })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(50);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(50);
      for (const answer of refused) expect(answer).toMatchObject({ status: 409, message: expect.stringMatching(/^库存不足：.+ 仓库现有 0$/) });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 0, amount: 0 });
      const batches = await api.batches(warehouseId, goodsId);
      expect(batches.every((b) => b.quantity === 0 && b.amount === 0)).toBe(true);
      const shown = await Promise.all(ids.map((id) => api.info("warehouseOut", id)));
      expect(shown.filter((d) => d.status === "2")).toHaveLength(50);
      expect(shown.filter((d) => d.status === "1")).toHaveLength(50);
      // What went out cost what came in, to the fen.
      expect(shown.filter((d) => d.status === "2").reduce((sum, d) => sum + Number(d.lines[0].amount), 0)).toBe(10 * (101 + 102 + 103 + 104 + 105));
      // Each approved stock-out consumed exactly one unit of one batch.
      const movements = await api.movements(warehouseId, goodsId);
      expect(movements.filter((m) => m.docType === "zhhq/warehouseOut")).toHaveLength(50);
    });

    test("10 approvals of one document at once post once; the others hear 409", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const { id } = await api.create("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 7, price: 50 }, { goodsId, quantity: 1, price: 60 }] });
      await api.step("warehouseIn", "submit", { id });
      const answers = await Promise.all(Array.from({ length: 10 }, () => api.step("warehouseIn", "approve", { id })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 8, amount: 410 });
      expect(await api.movements(warehouseId, goodsId)).toHaveLength(2);
      expect(await api.batches(warehouseId, goodsId)).toHaveLength(2);
    });

    test("the same Idempotency-Key twice posts once and answers the first answer, even at once", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 30 }] });
      const { id } = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 4 }] });
      await api.step("warehouseOut", "submit", { id });
      const key = `approve-${id}`;
      const [first, second] = await Promise.all([0, 1].map(() => api.step("warehouseOut", "approve", { id }, tenant.token, { "Idempotency-Key": key })));
      expect(first).toMatchObject({ status: 200, data: { status: "2" } });
      expect(second).toEqual(first);
      const third = await api.step("warehouseOut", "approve", { id }, tenant.token, { "Idempotency-Key": key });
      expect(third).toEqual(first);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 6, amount: 180 });
      expect((await api.movements(warehouseId, goodsId)).filter((m) => m.docType === "zhhq/warehouseOut")).toHaveLength(1);
      // A create retried with its key makes one document.
      const body = { warehouseId, lines: [{ goodsId, quantity: 1 }] };
      const a = await api.post("warehouseOut/create", body, tenant.token, { "Idempotency-Key": `create-${id}` });
      const b = await api.post("warehouseOut/create", body, tenant.token, { "Idempotency-Key": `create-${id}` });
      expect(b).toEqual(a);
    });
  });
}
