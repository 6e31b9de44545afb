import * as http from "node:http";
import { expect, test } from "@playwright/test";
import { processDatabase } from "./support/databases";
import { adminSession, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer } from "./support/processes";

/*
 * Issue 40's crash test, over the exact API terminals call: the real server killed with SIGKILL in the middle of a
 * stream of stock approvals (stock-ins and stock-outs at once) loses none it acknowledged, posts none by half, and
 * after the restart the stock (per warehouse × goods and per batch) is the sum of the ledger's movements and what
 * the approved documents put in and took out. It reads what an API client reads (warehouseReal, warehouseRealDetail,
 * warehouseLedger, getInfo), so it proves the contract whatever the tables are called.
 */

const Z = "/api/v1/zhhq";
/** Dictionary docStatus (issue 40): 0 草稿, 1 待审核, 2 已审核, 3 已驳回. */
const APPROVED = 2;
/** Each goods has one unit price, so any mix of batches a stock-out consumes costs quantity × price exactly. */
const PRICE = 200;
const PRIMED = 10_000;
const IN_QUANTITY = 2.5;
const OUT_QUANTITY = 1.5;

interface Movement {
  quantity: number;
  amount: number;
  quantityAfter: number;
  amountAfter: number;
  docType: string;
  docId: number;
  batchNo: string;
}
interface Approval {
  kind: "in" | "out";
  id: number;
  key: string;
  lines: Array<{ goodsId: number; quantity: number }>;
  answer?: Answer;
}

const ok = (a: Answer) => a.status === 200 && a.body?.status === 200;
const dataOf = <T>(a: Answer): T => {
  expect(a.body?.status, JSON.stringify(a.body)).toBe(200);
  return a.body?.data as T;
};
/** China today plus `days`, as the API takes dates. */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
/** Thousandths, so sums of decimals compare exactly. */
const milli = (q: number) => Math.round(q * 1000);

/** Every record of a findPage query, page by page (the API gives at most 100 a page). */
async function all<T>(port: number, token: string, path: string): Promise<T[]> {
  const records: T[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = dataOf<{ records: T[]; total: number }>(await send(port, "GET", `${path}&pageNum=${pageNum}&pageSize=100`, { token }));
    records.push(...page.records);
    if (page.records.length < 100 || records.length >= page.total) return records;
  }
}

for (const dialect of ["sqlite", "postgres"] as const) {
  test.describe(`SIGKILL during stock approvals on ${dialect}`, () => {
    test.skip(dialect === "postgres" && !postgresUrl, "TEST_DATABASE_URL is not set");
    test.setTimeout(180_000);

    test("no acknowledged stock-in or stock-out is lost or half-posted, stock equals the ledger per batch and per goods, and retries with the same keys post once", async () => {
      const database = await processDatabase(dialect, "canteen-stock-crash-");
      let server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);
        const post = (path: string, body: unknown, headers?: Record<string, string>, agent?: http.Agent) => send(server.port, "POST", `${Z}/${path}`, { token, body, headers, agent });
        const warehouseId = dataOf<{ id: number }>(await post("warehouse/create", { warehouseName: "断电测试仓" })).id;
        const supplierId = dataOf<{ id: number }>(await post("supplier/create", { supplierName: "断电测试供应商" })).id;
        // A delivery needs the supplier's licences in force (decision 076).
        for (const qualType of ["1", "2"]) await post("supplierQualification/create", { supplierId, qualType, qualNo: `QC-${qualType}`, validFrom: "2020-01-01" });
        const goods: number[] = [];
        for (const n of [1, 2, 3]) goods.push(dataOf<{ id: number }>(await post("goods/create", { goodsCode: `CRASH-${n}`, goodsName: `断电物资${n}` })).id);

        /** Creates and submits a document; its approval is what the stream measures. */
        const prepare = async (kind: "in" | "out", lines: Approval["lines"], n: number, agent?: http.Agent): Promise<number> => {
          const body =
            kind === "in"
              ? { warehouseId, supplierId, lines: lines.map((l, i) => ({ ...l, price: PRICE, batchNo: `B${n}-${i}`, productionDate: day(-1), expiryDate: day(10 + (n % 50)) })) }
              : { warehouseId, lines };
          const doc = kind === "in" ? "warehouseIn" : "warehouseOut";
          const id = dataOf<{ id: number }>(await post(`${doc}/create`, body, undefined, agent)).id;
          dataOf(await post(`${doc}/submit`, { id }, undefined, agent));
          return id;
        };
        const approve = (a: Approval, agent?: http.Agent) => post(`${a.kind === "in" ? "warehouseIn" : "warehouseOut"}/approve`, { id: a.id }, { "Idempotency-Key": a.key }, agent);

        // A stock far larger than the stream takes out, in batches that expire last: every stock-out is covered, and
        // FEFO takes the stream's own younger-expiring batches first, across several of them.
        const primed: Approval = { kind: "in", id: 0, key: "crash-primed", lines: goods.map((goodsId) => ({ goodsId, quantity: PRIMED })) };
        primed.id = dataOf<{ id: number }>(
          await post("warehouseIn/create", { warehouseId, supplierId, lines: goods.map((goodsId, i) => ({ goodsId, quantity: PRIMED, price: PRICE, batchNo: `P-${i}`, expiryDate: day(3000) })) }),
        ).id;
        dataOf(await post("warehouseIn/submit", { id: primed.id }));
        primed.answer = await approve(primed);
        expect(ok(primed.answer), JSON.stringify(primed.answer.body)).toBe(true);

        const sent: Approval[] = [];
        let stop = false;
        const writer = async (w: number) => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          for (let i = 0; !stop; i++) {
            const kind = (w + i) % 2 === 0 ? "in" : "out";
            const lines = goods.map((goodsId) => ({ goodsId, quantity: kind === "in" ? IN_QUANTITY : OUT_QUANTITY }));
            let approval: Approval;
            try {
              approval = { kind, lines, key: `crash-${w}-${i}`, id: await prepare(kind, lines, w * 10_000 + i, agent) };
            } catch {
              break; // the server died while the draft was made: nothing of it was approved
            }
            sent.push(approval);
            try {
              approval.answer = await approve(approval, agent);
            } catch {
              // the connection died with the process: not acknowledged
            }
          }
          agent.destroy();
        };
        const writers = [0, 1, 2, 3].map(writer);
        // Kill once a good stream of approvals has been acknowledged, in the middle of more.
        const acked = () => sent.filter((s) => s.answer && ok(s.answer)).length;
        const started = Date.now();
        while (acked() < 40 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 20));
        server.child.kill("SIGKILL");
        await server.exited;
        stop = true;
        await Promise.all(writers);

        const answered = sent.filter((s) => s.answer);
        // A refusal would make the count below meaningless: the stream stays within the stock, so every answer is a 200.
        expect(answered.filter((s) => !ok(s.answer as Answer)).map((s) => [s.answer?.status, s.answer?.body?.message])).toEqual([]);
        const acknowledged = sent.filter((s) => s.answer && ok(s.answer));
        expect(acknowledged.length).toBeGreaterThanOrEqual(40);
        expect(acknowledged.filter((s) => s.kind === "out").length).toBeGreaterThan(0);

        server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
        await waitHealthy(server);
        const get = <T>(path: string) => send(server.port, "GET", `${Z}/${path}`, { token }).then((a) => dataOf<T>(a));
        const docPath = (a: Approval) => (a.kind === "in" ? "warehouseIn" : "warehouseOut");

        // Every acknowledged approval survived: the document says 已审核 and each stock-out line its batches.
        for (const a of [primed, ...acknowledged]) {
          const info = await get<{ status: number | string; lines: Array<{ id: number; quantity: number; allocations?: Array<{ batchNo: string; quantity: number; amount: number }> }> }>(`${docPath(a)}/getInfo?id=${a.id}`);
          expect(Number(info.status), `${docPath(a)} ${a.id}`).toBe(APPROVED);
          if (a.kind === "out") {
            for (const line of info.lines) {
              expect(milli((line.allocations ?? []).reduce((s, x) => s + x.quantity, 0)), `${a.id} line ${line.id}`).toBe(milli(line.quantity));
              expect((line.allocations ?? []).reduce((s, x) => s + x.amount, 0)).toBe(Math.round(line.quantity * PRICE));
            }
          }
        }

        // The clients retry what was not acknowledged with the same keys: each approval lands once (the first answer
        // again when it had committed before the kill, a fresh approval when it had not).
        for (const a of sent.filter((s) => !s.answer || !ok(s.answer))) {
          const retry = await send(server.port, "POST", `${Z}/${docPath(a)}/approve`, { token, body: { id: a.id }, headers: { "Idempotency-Key": a.key } });
          expect(retry.body?.status, JSON.stringify(retry.body)).toBe(200);
        }
        // Retrying an acknowledged one again posts nothing either.
        for (const a of acknowledged.slice(0, 5)) {
          const again = await send(server.port, "POST", `${Z}/${docPath(a)}/approve`, { token, body: { id: a.id }, headers: { "Idempotency-Key": a.key } });
          expect(again.body?.status, JSON.stringify(again.body)).toBe(200);
        }

        const ins = sent.filter((s) => s.kind === "in").length;
        const outs = sent.filter((s) => s.kind === "out").length;
        for (const goodsId of goods) {
          const query = `warehouseId=${warehouseId}&goodsId=${goodsId}`;
          const movements = await all<Movement>(server.port, token, `${Z}/warehouseLedger/findPage?${query}`);
          const [real] = await get<{ records: Array<{ warehouseId: number; goodsId: number; quantity: number; amount: number }> }>(`warehouseReal/findPage?${query}`).then((p) => p.records);
          const batches = await all<{ batchNo: string; expiryDate: string; quantity: number; amount: number }>(server.port, token, `${Z}/warehouseRealDetail/findPage?${query}`);

          // What the approved documents put in and took out, each exactly once.
          const expected = milli(PRIMED) + ins * milli(IN_QUANTITY) - outs * milli(OUT_QUANTITY);
          expect(milli(real.quantity), `goods ${goodsId}`).toBe(expected);
          expect(real.amount).toBe((expected * PRICE) / 1000);
          // Stock is the sum of the ledger's movements, quantity and amount.
          expect(movements.reduce((s, m) => s + milli(m.quantity), 0)).toBe(expected);
          expect(movements.reduce((s, m) => s + m.amount, 0)).toBe(real.amount);
          // The newest movement carries the stock after it (the ledger answers newest first).
          expect({ quantity: milli(movements[0].quantityAfter), amount: movements[0].amountAfter }).toEqual({ quantity: expected, amount: real.amount });
          // One approval, one set of movements: every document's lines posted whole, once.
          const byDoc = new Map<string, number>();
          for (const m of movements) byDoc.set(`${m.docType}#${m.docId}`, (byDoc.get(`${m.docType}#${m.docId}`) ?? 0) + milli(m.quantity));
          const sums = [...byDoc.values()];
          expect(sums.filter((q) => q === milli(IN_QUANTITY)).length, "stock-ins posted").toBe(ins);
          expect(sums.filter((q) => q === -milli(OUT_QUANTITY)).length, "stock-outs posted").toBe(outs);
          expect(sums.filter((q) => q === milli(PRIMED)).length).toBe(1);
          expect(byDoc.size).toBe(ins + outs + 1);
          // Per batch: what the batch screen says is the sum of that batch's movements, never below zero, and the
          // batches add up to the stock.
          const ledgerBatches = new Map<string, { quantity: number; amount: number }>();
          for (const m of movements) {
            const b = ledgerBatches.get(m.batchNo) ?? { quantity: 0, amount: 0 };
            ledgerBatches.set(m.batchNo, { quantity: b.quantity + milli(m.quantity), amount: b.amount + m.amount });
          }
          for (const b of batches) {
            expect(b.quantity).toBeGreaterThanOrEqual(0);
            expect({ quantity: milli(b.quantity), amount: b.amount }, b.batchNo).toEqual(ledgerBatches.get(b.batchNo));
          }
          for (const [batchNo, b] of ledgerBatches) if (b.quantity !== 0) expect(batches.map((x) => x.batchNo), batchNo).toContain(batchNo);
          expect(batches.reduce((s, b) => s + milli(b.quantity), 0)).toBe(expected);
          expect(batches.reduce((s, b) => s + b.amount, 0)).toBe(real.amount);
        }
        expect(server.output()).not.toMatch(/SQLITE_BUSY|database is locked/);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });
  });
}
