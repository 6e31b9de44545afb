import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { serverModules } from "../../server/modules";
import { checkLedgers, describeDrift } from "../../server/modules/ledgerCheck";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type StockClient, type StockDoc } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * A stock document's header keeps its lines' amount (`amountTotal`, decision 094), which 直接成本分摊 and 经营毛利 read
 * instead of the lines: after every write of the lines — create, an edited draft, approval's FEFO costing across
 * batches, a return to the store and to the supplier, a refused approval — the header a client reads holds the Σ of
 * the lines it reads, and `npm run ledger:check` names a header whose total was edited by hand.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const day = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);
const KEPT = ["入库单表头合计", "入库退货单表头合计", "出库单表头合计", "出库退库单表头合计"];

for (const dialect of dialects) {
  describe(`${dialect}: the stock documents' kept totals`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `kt${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
      expect((await checkLedgers(db, serverModules, tenant.tenantId)).flatMap((c) => c.drifts)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    /** The header's kept total as getInfo answers it, after checking it is the Σ of the lines getInfo answers. */
    async function kept(doc: StockDoc, id: number): Promise<number> {
      const read = await api.info(doc, id);
      expect(read.amountTotal, `${doc} ${id}: the header's total is the lines' sum`).toBe(read.lines.reduce((sum, l) => sum + Number(l.amount ?? 0), 0));
      return Number(read.amountTotal);
    }

    test("created, edited as a draft, approved with FEFO across batches, returned: the header holds its lines' sum each time", async () => {
      const warehouseId = await api.warehouse();
      const rice = await api.goods();
      const oil = await api.goods();

      // Create: a stock-in's amounts are known from its prices.
      const stockIn = await api.create("warehouseIn", { warehouseId, lines: [{ goodsId: rice, quantity: 10, price: 100 }, { goodsId: oil, quantity: 3, price: 333 }] });
      expect(stockIn.amountTotal).toBe(1000 + 999);
      expect(await kept("warehouseIn", stockIn.id)).toBe(1999);

      // Edit the draft: a line's quantity alone, a line removed, a line added; then the header alone.
      let read = await api.info("warehouseIn", stockIn.id);
      await api.ok("warehouseIn/update", { id: stockIn.id, version: read.version, lines: [{ id: read.lines[0].id, quantity: 12 }, { goodsId: oil, quantity: 5, price: 200 }] });
      expect(await kept("warehouseIn", stockIn.id)).toBe(1200 + 1000);
      read = await api.info("warehouseIn", stockIn.id);
      await api.ok("warehouseIn/update", { id: stockIn.id, version: read.version, remark: "只改备注" });
      expect(await kept("warehouseIn", stockIn.id)).toBe(2200);
      expect(await api.step("warehouseIn", "submit", { id: stockIn.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseIn", "approve", { id: stockIn.id })).toMatchObject({ status: 200, data: { status: "2", amountTotal: 2200 } });
      expect(await kept("warehouseIn", stockIn.id)).toBe(2200);
      // A second batch of rice that expires first.
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId: rice, quantity: 4, price: 150, batchNo: "EARLY", expiryDate: day(5) }] });

      // A stock-out's draft has no cost yet: 0, after create and after an edit.
      const out = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId: rice, quantity: 6 }] });
      expect(await kept("warehouseOut", out.id)).toBe(0);
      read = await api.info("warehouseOut", out.id);
      await api.ok("warehouseOut/update", { id: out.id, version: read.version, lines: [{ id: read.lines[0].id, quantity: 7 }] });
      expect(await kept("warehouseOut", out.id)).toBe(0);
      // Approval costs it first expiry first: 4 of EARLY (600) and 3 of the first batch's 12 (300).
      expect(await api.step("warehouseOut", "submit", { id: out.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseOut", "approve", { id: out.id })).toMatchObject({ status: 200, data: { amountTotal: 900 } });
      expect((await api.info("warehouseOut", out.id)).lines[0].allocations).toEqual([
        { batchNo: "EARLY", quantity: 4, amount: 600 },
        { batchNo: `${stockIn.docNo}-1`, quantity: 3, amount: 300 },
      ]);
      expect(await kept("warehouseOut", out.id)).toBe(900);

      // A return to the store comes back from the last batch issued, at its cost: 2 of the 3 (200).
      const outLine = (await api.info("warehouseOut", out.id)).lines[0].id;
      const back = await api.create("warehouseOutReturn", { warehouseOutId: out.id, lines: [{ outLineId: outLine, quantity: 2 }] });
      expect(await kept("warehouseOutReturn", back.id)).toBe(0);
      expect(await api.step("warehouseOutReturn", "submit", { id: back.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseOutReturn", "approve", { id: back.id })).toMatchObject({ status: 200 });
      expect(await kept("warehouseOutReturn", back.id)).toBe(200);

      // A return to the supplier: 1 of the oil's 5 (1000) is 200.
      const oilLine = (await api.info("warehouseIn", stockIn.id)).lines.find((l) => l.goodsId === oil)?.id;
      const returned = await api.approved("warehouseInReturn", { warehouseInId: stockIn.id, lines: [{ inLineId: oilLine, quantity: 1 }] });
      expect(await kept("warehouseInReturn", returned)).toBe(200);
    });

    test("an approval refused for a shortage leaves the header as its lines are: nothing costed, nothing kept", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 2, price: 500 }] });
      const { id, answer } = await api.approve("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }, { goodsId, quantity: 5 }] });
      expect(answer.status).toBe(409);
      expect(await kept("warehouseOut", id)).toBe(0);
      // Rejected, edited within the stock and approved again: the header follows.
      expect(await api.step("warehouseOut", "reject", { id, reason: "库存不足" })).toMatchObject({ status: 200 });
      const read = await api.info("warehouseOut", id);
      await api.ok("warehouseOut/update", { id, version: read.version, lines: [{ id: read.lines[0].id }, { id: read.lines[1].id, quantity: 0.5 }] });
      expect(await api.step("warehouseOut", "submit", { id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseOut", "approve", { id })).toMatchObject({ status: 200 });
      expect(await kept("warehouseOut", id)).toBe(500 + 250);
    });

    test("the ledger check compares every kept total with its lines and names a header edited by hand", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const id = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 1, price: 1234 }] });
      const checks = await checkLedgers(db, serverModules, tenant.tenantId);
      expect(checks.map((c) => c.ledger)).toEqual(expect.arrayContaining(KEPT));

      await sql`update warehouse_in set amount_total = amount_total + 7 where tenant_id = ${tenant.tenantId} and id = ${id}`.execute(db);
      const drifted = (await checkLedgers(db, serverModules, tenant.tenantId)).find((c) => c.ledger === "入库单表头合计");
      expect(drifted?.drifts).toEqual([{ tenantId: tenant.tenantId, key: { documentId: id }, measure: "amount", balance: 1241, lines: 1234 }]);
      expect(describeDrift("入库单表头合计", drifted!.drifts[0])).toContain("相差 7");
      await sql`update warehouse_in set amount_total = amount_total - 7 where tenant_id = ${tenant.tenantId} and id = ${id}`.execute(db);
    });
  });
}
