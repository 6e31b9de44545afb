import fc from "fast-check";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, chinaDayNo, chinaMonth, chinaMonthRange, DAY_MS } from "../../resources/chinaTime";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * The stock ledger's kept days (`stock_day`, decision 090) under random sequences: stock-ins, stock-outs, transfers
 * sent and received, stocktakes (through the API), back-dated postings into earlier days, up to months before (the
 * ledger's own `postMany`, as a correction would post), and postings whose transaction fails after the ledger wrote
 * them. After every step each kept day equals its lines, summed here in JavaScript from `stock_line` (in and out,
 * closing as the running sum of the key's days); a failed transaction leaves the days exactly as they were; 库存日报
 * answers those days, opening = closing − in + out; and 库存月报 of three months answers a row for each month a key
 * moved in or began with stock, stock that often runs out here (decision 095).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

type Op =
  | { kind: "in"; warehouse: number; goods: number; quantity: number; price: number }
  | { kind: "out"; warehouse: number; goods: number; quantity: number }
  | { kind: "transfer"; from: number; to: number; goods: number; quantity: number; receive: boolean }
  | { kind: "count"; warehouse: number; counts: number[] }
  | { kind: "backDated"; pick: number; daysAgo: number; quantity: number }
  | { kind: "crash"; pick: number; quantity: number };

const warehouse = fc.integer({ min: 0, max: 1 });
const goods = fc.integer({ min: 0, max: 1 });
const quantity = fc.integer({ min: 1, max: 15_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("in" as const), warehouse, goods, quantity, price: fc.integer({ min: 0, max: 9_999 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("out" as const), warehouse, goods, quantity }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: warehouse, to: warehouse, goods, quantity, receive: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("count" as const), warehouse, counts: fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("backDated" as const), pick: fc.nat(), daysAgo: fc.integer({ min: 1, max: 70 }), quantity }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("crash" as const), pick: fc.nat(), quantity }) },
);

const dec = (thousandths: number) => thousandths / 1000;
const num = (v: unknown) => Number(v ?? 0);

for (const dialect of dialects) {
  describe(`${dialect}: the stock ledger's kept days under random postings (fast-check)`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `sd${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    /** The kept days of these warehouses, as `w:g:dayNo` → [in q, in a, out q, out a, closing q, closing a]. */
    const keptDays = async (warehouseIds: number[]) =>
      new Map(
        ((await db.selectFrom("stock_day").selectAll().where("tenant_id", "=", tenant.tenantId).where("warehouse_id", "in", warehouseIds).execute()) as Row[]).map((r) => [
          `${r.warehouse_id}:${r.goods_id}:${r.day_no}`,
          ["in_quantity", "in_amount", "out_quantity", "out_amount", "closing_quantity", "closing_amount"].map((c) => num(r[c])),
        ]),
      );
    /** The same from the movement lines. */
    const linesDays = async (warehouseIds: number[]) => {
      const lines = (await db
        .selectFrom("stock_line")
        .select(["warehouse_id", "goods_id", "quantity", "amount", "occurred_at"])
        .where("tenant_id", "=", tenant.tenantId)
        .where("warehouse_id", "in", warehouseIds)
        .execute()) as Row[];
      const days = new Map<string, number[]>();
      for (const l of lines) {
        const k = `${l.warehouse_id}:${l.goods_id}:${chinaDayNo(num(l.occurred_at))}`;
        const day = days.get(k) ?? [0, 0, 0, 0, 0, 0];
        if (num(l.quantity) > 0) [day[0], day[1]] = [day[0] + num(l.quantity), day[1] + num(l.amount)];
        else [day[2], day[3]] = [day[2] - num(l.quantity), day[3] - num(l.amount)];
        days.set(k, day);
      }
      const running = new Map<string, number[]>();
      for (const k of [...days.keys()].sort((a, b) => num(a.split(":")[2]) - num(b.split(":")[2]))) {
        const day = days.get(k)!;
        const key = k.split(":").slice(0, 2).join(":");
        const [q, a] = running.get(key) ?? [0, 0];
        [day[4], day[5]] = [q + day[0] - day[2], a + day[1] - day[3]];
        running.set(key, [day[4], day[5]]);
      }
      return days;
    };

    test("ins, outs, transfers, stocktakes, back-dated postings and failed transactions: every kept day is its lines'; 库存日报 and 月报 read them", { timeout: 900_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
          const warehouses = [await api.warehouse(), await api.warehouse()];
          const goodsIds = [await api.goods(), await api.goods()];
          const batchesHeld = async () =>
            (await db.selectFrom("stock_batch").select(["id", "warehouse_id", "goods_id", "batch_no"]).where("tenant_id", "=", tenant.tenantId).where("warehouse_id", "in", warehouses).orderBy("id").execute()) as Row[];
          /** A posting of the ledger's own on one of the batches, as a correction would post it. */
          const entry = (batch: Row, q: number, occurredAt: number) => ({
            tenantId: tenant.tenantId,
            key: { warehouseId: num(batch.warehouse_id), goodsId: num(batch.goods_id) },
            quantity: q,
            amount: q,
            // No stock document's: the guard reads no header and dates it by its moment.
            docType: "test/correction",
            docId: 1,
            docLineId: 1,
            occurredAt,
            operatorName: "校正",
            extra: { batchId: num(batch.id), batchNo: String(batch.batch_no) },
          });
          for (const o of ops) {
            if (o.kind === "in") {
              await api.approved("warehouseIn", { warehouseId: warehouses[o.warehouse], lines: [{ goodsId: goodsIds[o.goods], quantity: dec(o.quantity), price: o.price }] });
            } else if (o.kind === "out") {
              const { answer } = await api.approve("warehouseOut", { warehouseId: warehouses[o.warehouse], lines: [{ goodsId: goodsIds[o.goods], quantity: dec(o.quantity) }] });
              expect([200, 409]).toContain(answer.status);
            } else if (o.kind === "transfer") {
              if (o.from === o.to) continue;
              const { id, answer } = await api.approve("warehouseTransfer", { fromWarehouseId: warehouses[o.from], toWarehouseId: warehouses[o.to], lines: [{ goodsId: goodsIds[o.goods], quantity: dec(o.quantity) }] });
              expect([200, 409]).toContain(answer.status);
              if (answer.status === 200 && o.receive) expect((await api.step("warehouseTransfer", "receive", { id })).status).toBe(200);
            } else if (o.kind === "count") {
              const sheet = await api.ok<{ id: number; lines: Row[] }>("warehouseCheck/create", { warehouseId: warehouses[o.warehouse] });
              const lines = sheet.lines.map((l, i) => ({ id: l.id, countedQuantity: dec(Math.floor((Math.round(num(l.bookQuantity) * 1000) * (o.counts[i % o.counts.length] ?? 100)) / 100)) }));
              if (lines.length) await api.ok("warehouseCheck/update", { id: sheet.id, lines });
              expect((await api.step("warehouseCheck", "submit", { id: sheet.id })).status).toBe(200);
              expect((await api.step("warehouseCheck", "approve", { id: sheet.id })).status).toBe(200);
            } else {
              const batches = await batchesHeld();
              if (!batches.length) continue;
              const batch = batches[o.pick % batches.length];
              if (o.kind === "backDated") {
                // Into a day before days already kept: their closings move by it.
                await inWriteTransaction(app.database.db, app.database.dialect, (trx) => stockLedger.postMany(trx, [entry(batch, o.quantity, Date.now() - o.daysAgo * DAY_MS)]));
              } else {
                const before = await keptDays(warehouses);
                const crash = inWriteTransaction(app.database.db, app.database.dialect, async (trx) => {
                  await stockLedger.postMany(trx, [entry(batch, o.quantity, Date.now()), entry(batch, o.quantity, Date.now() - 2 * DAY_MS)]);
                  throw new Error("断电");
                });
                await expect(crash).rejects.toThrow("断电");
                expect(await keptDays(warehouses)).toEqual(before);
              }
            }
            expect(await keptDays(warehouses)).toEqual(await linesDays(warehouses));
          }
          // 库存日报 of the last week answers the kept days: each row's figures, opening = closing − in + out.
          const expected = await linesDays(warehouses);
          const answer = (await app.call<{ rows: Row[]; totals: Row }>("GET", `/api/v1/zhhq/warehouseDailyReport?from=${chinaDay(Date.now() - 6 * DAY_MS)}&to=${chinaDay(Date.now())}&warehouseId=${warehouses[0]}`, { token: tenant.token })).body;
          expect(answer.status).toBe(200);
          const mine = [...expected].filter(([k]) => k.startsWith(`${warehouses[0]}:`) && num(k.split(":")[2]) >= chinaDayNo(Date.now() - 6 * DAY_MS));
          expect(answer.data.rows.length).toBe(mine.length);
          const closing = mine.reduce((s, [, d]) => s + d[5], 0);
          expect(num(answer.data.totals.closingAmount)).toBe(closing);
          for (const row of answer.data.rows) expect(num(row.closingQuantity)).toBe(num(row.openingQuantity) + num(row.inQuantity) - num(row.outQuantity));
          // 库存月报 of the last three months (decision 095): a row per month and key that moved in it or held stock at
          // its start, from the same days; the rows and their count, and the totals over them.
          const months = [2, 1, 0].map((back) => {
            let month = chinaMonth(Date.now());
            for (let i = 0; i < back; i++) month = chinaMonth(chinaMonthRange(month).start - 1);
            return month;
          });
          const monthRows: Row[] = [];
          const keys = [...new Set([...expected.keys()].filter((k) => k.startsWith(`${warehouses[0]}:`)).map((k) => k.split(":").slice(0, 2).join(":")))];
          for (const month of months) {
            const [start, end] = [chinaDayNo(chinaMonthRange(month).start), chinaDayNo(chinaMonthRange(month).end)];
            for (const key of keys) {
              const days = [...expected].filter(([k]) => k.startsWith(`${key}:`)).map(([k, d]) => [num(k.split(":")[2]), d] as const).sort((a, b) => a[0] - b[0]);
              const last = days.filter(([day]) => day < start).at(-1)?.[1];
              const within = days.filter(([day]) => day >= start && day < end).map(([, d]) => d);
              const [openingQ, openingA] = [last?.[4] ?? 0, last?.[5] ?? 0];
              if (!within.length && openingQ === 0 && openingA === 0) continue;
              const [inA, outA] = [within.reduce((s, d) => s + d[1], 0), within.reduce((s, d) => s + d[3], 0)];
              monthRows.push({ openingAmount: openingA, inAmount: inA, outAmount: outA, closingAmount: openingA + inA - outA });
            }
          }
          const monthly = (await app.call<{ rows: Row[]; totals: Row; truncated: number }>("GET", `/api/v1/zhhq/warehouseMonthReport?fromMonth=${months[0]}&toMonth=${months[2]}&warehouseId=${warehouses[0]}`, { token: tenant.token })).body;
          expect(monthly.status).toBe(200);
          expect(monthly.data.rows.length + monthly.data.truncated).toBe(monthRows.length);
          for (const f of ["openingAmount", "inAmount", "outAmount", "closingAmount"]) expect(num(monthly.data.totals[f]), f).toBe(monthRows.reduce((s, r) => s + num(r[f]), 0));
          for (const row of monthly.data.rows) expect(num(row.closingQuantity)).toBe(num(row.openingQuantity) + num(row.inQuantity) - num(row.outQuantity));
          expect(await stockLedger.check(db, tenant.tenantId)).toEqual([]);
        }),
        { numRuns: dialect === "postgres" ? 10 : 25 },
      );
    });
  });
}
