import fc from "fast-check";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaDay } from "../../resources/chinaTime";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Transfers, stocktakes and month accounts under random sequences, through the API (issue 41's property tests,
 * decision 073). After every step: the ledger equals the stock (its check, every key and batch); a transfer's
 * approval and its receipt leave source + transit + destination unchanged in quantity and amount; stock changes only
 * by stock-ins and stocktakes' differences; last month's closing is this month's opening and this month's closing is
 * the stock; generating a month twice gives the same rows. And concurrently, on both databases: a stocktake opened
 * while stock-outs are being approved refuses the ones after it and has every one before it in its book.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

type Op =
  | { kind: "in"; warehouse: number; goods: number; quantity: number; price: number; lastMonth: boolean }
  | { kind: "transfer"; from: number; to: number; goods: number; quantity: number }
  | { kind: "receive"; pick: number }
  | { kind: "count"; warehouse: number; counts: number[] };

const warehouse = fc.integer({ min: 0, max: 2 });
const goods = fc.integer({ min: 0, max: 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("in" as const), warehouse, goods, quantity: fc.integer({ min: 1, max: 20_000 }), price: fc.integer({ min: 0, max: 9_999 }), lastMonth: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: warehouse, to: warehouse, goods, quantity: fc.integer({ min: 1, max: 15_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("receive" as const), pick: fc.nat() }) },
  // Each count is the book's share in percent (0: all lost, 150: half again found).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("count" as const), warehouse, counts: fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 6 }) }) },
);

const dec = (thousandths: number) => thousandths / 1000;

function monthBefore(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

for (const dialect of dialects) {
  describe(`${dialect}: transfers, stocktakes and month accounts under random sequences (fast-check)`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `cp${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    /** Every warehouse's (transit's too) stock of a goods, as the ledger's balances hold it. */
    async function stockOf(goodsId: number): Promise<Map<number, { q: number; a: number }>> {
      const rows = (await db.selectFrom("stock_real").select(["warehouse_id", "quantity", "amount"]).where("tenant_id", "=", tenant.tenantId).where("goods_id", "=", goodsId).execute()) as Row[];
      return new Map(rows.map((r) => [Number(r.warehouse_id), { q: Number(r.quantity), a: Number(r.amount) }]));
    }
    const total = (stock: Map<number, { q: number; a: number }>) => [...stock.values()].reduce((s, v) => ({ q: s.q + v.q, a: s.a + v.a }), { q: 0, a: 0 });

    test("transfers out and in, stocktakes and month accounts: ledger = stock, transfers conserve, closings chain, generate is idempotent", { timeout: 900_000 }, async () => {
      const thisMonth = chinaDay(Date.now()).slice(0, 7);
      const lastMonth = monthBefore(thisMonth);
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
          const warehouses = [await api.warehouse(), await api.warehouse(), await api.warehouse()];
          const goodsIds = [await api.goods(), await api.goods()];
          /** What came in and what stocktakes found or lost, per goods: the only changes of the whole stock. */
          const expected = goodsIds.map(() => ({ q: 0, a: 0 }));
          const pending: number[] = [];
          for (const o of ops) {
            if (o.kind === "in") {
              const body = { warehouseId: warehouses[o.warehouse], docDate: o.lastMonth ? `${lastMonth}-15` : undefined, lines: [{ goodsId: goodsIds[o.goods], quantity: dec(o.quantity), price: o.price }] };
              const id = await api.approved("warehouseIn", body);
              const [line] = (await api.info("warehouseIn", id)).lines;
              expected[o.goods].q += o.quantity;
              expected[o.goods].a += Number(line.amount);
            } else if (o.kind === "transfer") {
              if (o.from === o.to) continue;
              const goodsId = goodsIds[o.goods];
              const before = total(await stockOf(goodsId));
              const { id, answer } = await api.approve("warehouseTransfer", { fromWarehouseId: warehouses[o.from], toWarehouseId: warehouses[o.to], lines: [{ goodsId, quantity: dec(o.quantity) }] });
              const held = (await stockOf(goodsId)).get(warehouses[o.from])?.q ?? 0;
              if (answer.status !== 200) {
                expect(answer, JSON.stringify(answer)).toMatchObject({ status: 409, message: expect.stringMatching(/^库存不足/) });
                expect(held).toBeLessThan(o.quantity);
              } else {
                pending.push(id);
                const [line] = (await api.info("warehouseTransfer", id)).lines;
                expect(line).toMatchObject({ sentQuantity: dec(o.quantity), transitQuantity: dec(o.quantity), receivedQuantity: 0 });
              }
              expect(total(await stockOf(goodsId))).toEqual(before);
            } else if (o.kind === "receive") {
              if (!pending.length) continue;
              const id = pending.splice(o.pick % pending.length, 1)[0];
              const shown = await api.info("warehouseTransfer", id);
              const goodsId = Number(shown.lines[0].goodsId);
              const before = await stockOf(goodsId);
              expect((await api.step("warehouseTransfer", "receive", { id })).status).toBe(200);
              const after = await stockOf(goodsId);
              expect(total(after)).toEqual(total(before));
              // The destination gained exactly what the transfer had sent, at its cost.
              const to = Number(shown.toWarehouseId);
              expect((after.get(to)?.q ?? 0) - (before.get(to)?.q ?? 0)).toBe(Math.round(Number(shown.lines[0].sentQuantity) * 1000));
              expect((after.get(to)?.a ?? 0) - (before.get(to)?.a ?? 0)).toBe(Number(shown.lines[0].amount));
            } else {
              const sheet = await api.ok<{ id: number; lines: Row[] }>("warehouseCheck/create", { warehouseId: warehouses[o.warehouse] });
              const lines = sheet.lines.map((l, i) => ({ id: l.id, countedQuantity: dec(Math.floor((Math.round(Number(l.bookQuantity) * 1000) * (o.counts[i % o.counts.length] ?? 100)) / 100)) }));
              if (lines.length) await api.ok("warehouseCheck/update", { id: sheet.id, lines });
              expect((await api.step("warehouseCheck", "submit", { id: sheet.id })).status).toBe(200);
              expect((await api.step("warehouseCheck", "approve", { id: sheet.id })).status).toBe(200);
              for (const l of (await api.info("warehouseCheck", sheet.id)).lines) {
                const g = goodsIds.indexOf(Number(l.goodsId));
                expected[g].q += Math.round(Number(l.diffQuantity) * 1000);
                expected[g].a += Number(l.diffAmount);
                // The stock of the batch is the count.
                const [batch] = (await db.selectFrom("stock_batch").select("quantity").where("tenant_id", "=", tenant.tenantId).where("id", "=", Number(l.batchId)).execute()) as Row[];
                expect(Number(batch.quantity)).toBe(Math.round(Number(l.countedQuantity) * 1000));
              }
            }
            expect(await stockLedger.check(db, tenant.tenantId)).toEqual([]);
          }
          for (const [g, goodsId] of goodsIds.entries()) expect(total(await stockOf(goodsId))).toEqual(expected[g]);

          // The months: this one's opening is the last one's closing, its closing the stock; twice, the same rows.
          await api.ok("warehouseAccountMonthSettle/generate", { month: lastMonth });
          await api.ok("warehouseAccountMonthSettle/generate", { month: thisMonth });
          for (const goodsId of goodsIds) {
            const last = await api.records("warehouseAccountMonthSettle", { month: lastMonth, goodsId, pageSize: 100 });
            const now = await api.records("warehouseAccountMonthSettle", { month: thisMonth, goodsId, pageSize: 100 });
            const stock = await stockOf(goodsId);
            for (const row of now) {
              const before = last.find((r) => r.warehouseId === row.warehouseId);
              expect([row.openingQuantity, row.openingAmount]).toEqual([before?.closingQuantity ?? 0, before?.closingAmount ?? 0]);
              const held = stock.get(Number(row.warehouseId));
              expect([Math.round(Number(row.closingQuantity) * 1000), row.closingAmount]).toEqual([held?.q ?? 0, held?.a ?? 0]);
              expect(Number(row.closingQuantity)).toBeCloseTo(Number(row.openingQuantity) + Number(row.inQuantity) - Number(row.outQuantity), 3);
            }
            for (const row of last) if (!now.some((r) => r.warehouseId === row.warehouseId)) expect([row.closingQuantity, row.closingAmount]).toEqual([0, 0]);
            const again = await api.ok("warehouseAccountMonthSettle/generate", { month: thisMonth });
            expect(again).toMatchObject({ month: thisMonth });
            const strip = (rows: Row[]) => rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest).sort((a, b) => Number(a.warehouseId) - Number(b.warehouseId));
            expect(strip(await api.records("warehouseAccountMonthSettle", { month: thisMonth, goodsId, pageSize: 100 }))).toEqual(strip(now));
          }
        }),
        { numRuns: dialect === "postgres" ? 6 : 12 },
      );
    });

    test("a stocktake opened while stock-outs are being approved refuses the ones after it and has every one before it in its book", { timeout: 300_000 }, async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 100, price: 250, batchNo: "RACE-1" }] });
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        const { id } = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
        expect((await api.step("warehouseOut", "submit", { id })).status).toBe(200);
        ids.push(id);
      }
      const approvals = ids.map((id, i) => (async () => {
        // Spread over the sheet's opening: a third before it starts, the rest around and after it.
        if (i >= 10) await new Promise((resolve) => setTimeout(resolve, (i - 10) * 3));
        return api.step("warehouseOut", "approve", { id });
      })());
      const opening = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        return api.post("warehouseCheck/create", { warehouseId });
      })();
      const [answers, sheetAnswer] = await Promise.all([Promise.all(approvals), opening]);
      expect(sheetAnswer).toMatchObject({ status: 200 });
      const sheet = sheetAnswer.data as { docNo: string; lines: Row[] };
      const approved = answers.filter((a) => a.status === 200).length;
      for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toMatchObject({ status: 409, message: `仓库正在盘点（盘点单 ${sheet.docNo}），盘点结束前不能出入库` });
      // Nothing approved is missing from the book, nothing refused is in it: the book is the stock.
      expect(sheet.lines.map((l) => l.bookQuantity)).toEqual([100 - approved]);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 100 - approved, amount: 250 * (100 - approved) });
      const shown = await Promise.all(ids.map((id) => api.info("warehouseOut", id)));
      expect(shown.filter((d) => d.status === "2")).toHaveLength(approved);
      expect(await stockLedger.check(db, tenant.tenantId)).toEqual([]);
    });
  });
}
