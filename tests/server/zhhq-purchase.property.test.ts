import fc from "fast-check";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { largestRemainder } from "../../server/modules/zhhq/purchase";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { purchaseClient, type PurchaseClient } from "../helpers/purchase";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Purchasing under random sequences, through the API (issue 41's property test, decision 072): requests approved
 * with random quantities, orders from them or by hand, partial receipts (some asking more than is left), and cost
 * shares by percentage. A model keeps what each order line still expects; after every step the server agrees: each
 * line's received quantity is the model's and never above what was ordered, the stock of each goods is what arrived
 * (quantity and amount), the stock ledger's check is clean, and a share's amounts add up to the fen.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

type Op =
  | { kind: "demand"; lines: Array<{ goods: number; quantity: number; approved: number | null }> }
  | { kind: "order"; fromDemand: boolean; lines: Array<{ goods: number; quantity: number; price: number | null }> }
  | { kind: "receive"; pick: number; parts: Array<{ line: number; quantity: number; price: number | null }> }
  | { kind: "share"; pick: number; cuts: number[] };

const goods = fc.integer({ min: 0, max: 2 });
const quantity = fc.integer({ min: 1, max: 20_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("demand" as const), lines: fc.array(fc.record({ goods, quantity, approved: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }) }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("order" as const), fromDemand: fc.boolean(), lines: fc.array(fc.record({ goods, quantity, price: fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: null }) }), { maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("receive" as const), pick: fc.nat(), parts: fc.array(fc.record({ line: fc.nat(), quantity: fc.integer({ min: 1, max: 25_000 }), price: fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: null }) }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("share" as const), pick: fc.nat(), cuts: fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 0, maxLength: 4 }) }) },
);

interface ModelLine {
  id: number;
  goods: number;
  ordered: number;
  price: number;
  received: number;
}

const dec = (thousandths: number) => thousandths / 1000;
/** Quantity (thousandths) × price (fen) in fen, half up, as the server counts a line. */
const amountOf = (thousandths: number, price: number) => Math.floor((thousandths * price + 500) / 1000);

describe("largestRemainder", () => {
  test("the shares add up to the total, and each is within a fen of its exact part", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 20 }), (total, weights) => {
        fc.pre(weights.some((w) => w > 0));
        const shares = largestRemainder(total, weights);
        const sum = weights.reduce((a, b) => a + b, 0);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        shares.forEach((share, i) => expect(Math.abs(share - (total * (weights[i] as number)) / sum)).toBeLessThan(1));
      }),
    );
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: purchasing under random sequences (fast-check)`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: PurchaseClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `pp${dialect}`);
      api = purchaseClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("requests, orders and partial receipts: received ≤ ordered, stock = what arrived, shares add up to the fen", { timeout: 600_000 }, async () => {
      const made = await app.call<{ id: number }>("POST", "/api/v1/sys/merchant/create", { token: tenant.token, body: { merchantCode: `M${api.uid()}`, merchantName: "分摊商户", status: "1" } });
      const merchantId = made.body.data.id;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          const warehouseId = await api.warehouse();
          const supplierId = await api.supplier();
          const goodsIds = [await api.goods(), await api.goods(), await api.goods()];
          // Goods 0 and 1 have contract prices; goods 2 has none, so its lines need a price.
          const contracts = [400, 1234, null];
          for (const [i, price] of contracts.entries()) if (price !== null) await api.contract(supplierId, goodsIds[i] as number, price);
          const orders: Array<{ id: number; lines: ModelLine[] }> = [];
          const demands: number[] = [];
          const arrived = goodsIds.map(() => ({ quantity: 0, amount: 0 }));
          for (const step of ops) {
            if (step.kind === "demand") {
              const { id } = await api.ok<{ id: number }>("purchseDemand/create", { warehouseId, lines: step.lines.map((l) => ({ goodsId: goodsIds[l.goods], quantity: dec(l.quantity) })) });
              await api.ok("purchseDemand/submit", { id });
              const info = (await api.get("purchseDemand/getInfo", { id })).data as { lines: Array<{ id: number }> };
              const changed = step.lines.flatMap((l, i) => (l.approved === null ? [] : [{ id: info.lines[i]?.id, approvedQuantity: dec(l.approved) }]));
              if (changed.length) await api.ok("purchseDemand/approveAdjusted", { id, lines: changed });
              else await api.ok("purchseDemand/approve", { id });
              demands.push(id);
            } else if (step.kind === "order") {
              const demandIds = step.fromDemand && demands.length ? [demands.shift() as number] : [];
              const lines = step.lines.map((l) => ({ goodsId: goodsIds[l.goods], quantity: dec(l.quantity), ...(l.price === null ? {} : { price: l.price }) }));
              const answer = await api.post("purchse/create", { supplierId, warehouseId, demandIds, lines });
              const unpriced = step.lines.findIndex((l) => l.price === null && contracts[l.goods] === null);
              if (unpriced >= 0) {
                expect(answer, JSON.stringify(answer)).toMatchObject({ status: 400 });
                continue;
              }
              if (answer.status === 400) {
                // Only a request's line without a contract price, or nothing at all to order, is refused.
                expect(JSON.stringify(answer)).toMatch(/没有有效的合同价|请至少填写 1 行采购明细/);
                continue;
              }
              expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
              const id = (answer.data as { id: number }).id;
              await api.ok("purchse/submit", { id });
              await api.ok("purchse/approve", { id });
              const info = await api.orderInfo(id);
              orders.push({ id, lines: info.lines.map((l) => ({ id: l.id, goods: goodsIds.indexOf(l.goodsId), ordered: Math.round(l.quantity * 1000), price: l.price, received: 0 })) });
              for (const [i, l] of step.lines.entries()) {
                expect(info.lines[i]?.price).toBe(l.price ?? contracts[l.goods]);
              }
            } else if (step.kind === "receive") {
              if (!orders.length) continue;
              const order = orders[step.pick % orders.length] as (typeof orders)[number];
              const parts = step.parts.map((p) => ({ line: order.lines[p.line % order.lines.length] as ModelLine, quantity: p.quantity, price: p.price }));
              const asked = new Map<number, number>();
              for (const p of parts) asked.set(p.line.id, (asked.get(p.line.id) ?? 0) + p.quantity);
              const fits = [...asked.entries()].every(([id, q]) => {
                const line = order.lines.find((l) => l.id === id) as ModelLine;
                return line.received + q <= line.ordered;
              });
              const done = order.lines.every((l) => l.received === l.ordered);
              const answer = await api.receive({ id: order.id, lines: parts.map((p) => ({ purchseLineId: p.line.id, quantity: dec(p.quantity), ...(p.price === null ? {} : { price: p.price }) })) });
              if (done) {
                expect(answer).toMatchObject({ status: 409, message: "采购单当前为「已到货」，不能收货" });
              } else if (!fits) {
                expect(answer).toMatchObject({ status: 409, message: expect.stringMatching(/收货数量超过未到数量/) });
              } else {
                expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
                for (const p of parts) {
                  p.line.received += p.quantity;
                  const slot = arrived[p.line.goods] as { quantity: number; amount: number };
                  slot.quantity += p.quantity;
                  slot.amount += amountOf(p.quantity, p.price ?? p.line.price);
                }
              }
            } else {
              const received = orders.filter((o) => o.lines.some((l) => l.received > 0));
              if (!received.length) continue;
              const order = received[step.pick % received.length] as (typeof orders)[number];
              const cuts = [0, ...[...step.cuts].sort((a, b) => a - b), 100_000];
              const percents = cuts.slice(1).map((c, i) => c - (cuts[i] as number));
              const answer = await api.post("purchseShare/create", { purchseId: order.id, method: "1", lines: percents.map((p) => ({ merchantId, percent: dec(p) })) });
              expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
              const share = (await api.get("purchseShare/getInfo", { id: (answer.data as { id: number }).id })).data as { totalAmount: number; lines: Array<{ amount: number }> };
              const info = await api.orderInfo(order.id);
              expect(share.totalAmount).toBe(info.lines.reduce((a, l) => a + Number(l.receivedAmount), 0));
              expect(share.lines.reduce((a, l) => a + l.amount, 0)).toBe(share.totalAmount);
            }
            // After every step: the server's lines are the model's, never above what was ordered; stock is what arrived.
            for (const order of orders) {
              const info = await api.orderInfo(order.id);
              for (const [i, line] of order.lines.entries()) {
                const shown = info.lines[i] as (typeof info.lines)[number];
                expect(Math.round(shown.receivedQuantity * 1000)).toBe(line.received);
                expect(shown.receivedQuantity).toBeLessThanOrEqual(shown.quantity);
              }
              const complete = order.lines.every((l) => l.received === l.ordered);
              expect(info.status).toBe(complete ? "4" : order.lines.some((l) => l.received > 0) ? "3" : "2");
            }
            for (const [i, goodsId] of goodsIds.entries()) {
              const slot = arrived[i] as { quantity: number; amount: number };
              expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: dec(slot.quantity), amount: slot.amount });
            }
          }
          expect(await stockLedger.check(db)).toEqual([]);
        }),
        { numRuns: dialect === "postgres" ? 8 : 15 },
      );
    });
  });
}
