import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * What a draft shows and what a submitted return claims (issue 40, decision 069): a stock-in draft's line amount is
 * price × quantity after every update, whichever of the two the update sends; a submitted return is a claim on its
 * source line's limit, so a second return cannot be submitted (nor written) into the same room, while approval still
 * counts what is posted and has the last word.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

for (const dialect of dialects) {
  describe(`${dialect}: drafts and the claims of submitted returns`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `dr${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("a stock-in draft's line amount follows an update that sends only the quantity, or only the price", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const draft = await api.create("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 2, price: 300 }, { goodsId, quantity: 1.5, price: 1001 }] });
      let read = await api.info("warehouseIn", draft.id);
      expect(read.lines.map((l) => l.amount)).toEqual([600, 1502]);

      await api.ok("warehouseIn/update", { id: draft.id, version: read.version, lines: [{ id: read.lines[0].id, quantity: 2.5 }, { id: read.lines[1].id }] });
      read = await api.info("warehouseIn", draft.id);
      expect(read.lines.map((l) => [l.quantity, l.price, l.amount])).toEqual([
        [2.5, 300, 750],
        [1.5, 1001, 1502],
      ]);
      await api.ok("warehouseIn/update", { id: draft.id, version: read.version, lines: [{ id: read.lines[0].id }, { id: read.lines[1].id, price: 2000 }] });
      read = await api.info("warehouseIn", draft.id);
      expect(read.lines.map((l) => l.amount)).toEqual([750, 3000]);
      // A header-only update leaves the lines (and their amounts) as they are.
      await api.ok("warehouseIn/update", { id: draft.id, version: read.version, remark: "改备注" });
      read = await api.info("warehouseIn", draft.id);
      expect(read.lines.map((l) => l.amount)).toEqual([750, 3000]);

      // What the draft showed is what approval posts.
      expect(await api.step("warehouseIn", "submit", { id: draft.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseIn", "approve", { id: draft.id })).toMatchObject({ status: 200 });
      expect((await api.info("warehouseIn", draft.id)).lines.map((l) => l.amount)).toEqual([750, 3000]);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 4, amount: 3750 });
    });

    test("a submitted return to the supplier is a claim: the second is refused at submit and at writing, until the first is rejected", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 100 }] });
      const inLineId = (await api.info("warehouseIn", inId)).lines[0].id;
      // Two drafts may each be within the limit: a draft claims nothing.
      const first = await api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId, quantity: 6 }] });
      const second = await api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId, quantity: 6 }] });
      expect(await api.step("warehouseInReturn", "submit", { id: first.id })).toMatchObject({ status: 200 });
      expectField(await api.step("warehouseInReturn", "submit", { id: second.id }), "lines.0.quantity", "第 1 行退货数量超过可退数量 4（另有待审核的退货 6）");
      expect((await api.info("warehouseInReturn", second.id)).status).toBe("0");
      // Written now, a return counts the claim too; the picker says what is claimed and what is left.
      expectField(await api.post("warehouseInReturn/create", { warehouseInId: inId, lines: [{ inLineId, quantity: 4.001 }] }), "lines.0.quantity", "第 1 行退货数量超过可退数量 4（另有待审核的退货 6）");
      const options = ((await api.get("warehouseInReturn/lineOptions", { field: "inLineId", warehouseInId: inId })).data as { records: Array<Record<string, unknown>> }).records;
      expect(options[0]).toMatchObject({ returnable: 4, label: expect.stringMatching(/ · 已收 10 · 待审核 6 · 可退 4$/) });

      // Rejected, the first claims nothing: the second is submitted and approved; the first then no longer fits.
      expect(await api.step("warehouseInReturn", "reject", { id: first.id, reason: "数量有误" })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseInReturn", "submit", { id: second.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseInReturn", "approve", { id: second.id })).toMatchObject({ status: 200 });
      expectField(await api.step("warehouseInReturn", "submit", { id: first.id }), "lines.0.quantity", "第 1 行退货数量超过可退数量 4");
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 4, amount: 400 });
    });

    test("a submitted return to the store claims what its stock-out line issued", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 100 }] });
      const outId = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 5 }] });
      const outLineId = (await api.info("warehouseOut", outId)).lines[0].id;
      const first = await api.create("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId, quantity: 3 }] });
      const second = await api.create("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId, quantity: 2.5 }] });
      expect(await api.step("warehouseOutReturn", "submit", { id: first.id })).toMatchObject({ status: 200 });
      expectField(await api.step("warehouseOutReturn", "submit", { id: second.id }), "lines.0.quantity", "第 1 行退库数量超过可退数量 2（另有待审核的退库 3）");
      // Updated within what is left, it is submitted; both are approved.
      const read = await api.info("warehouseOutReturn", second.id);
      await api.ok("warehouseOutReturn/update", { id: second.id, version: read.version, lines: [{ id: read.lines[0].id, outLineId, quantity: 2 }] });
      expect(await api.step("warehouseOutReturn", "submit", { id: second.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseOutReturn", "approve", { id: first.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseOutReturn", "approve", { id: second.id })).toMatchObject({ status: 200 });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 10, amount: 1000 });
    });

    test("two returns of one line submitted at once: one is, the other is refused", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 100 }] });
      const inLineId = (await api.info("warehouseIn", inId)).lines[0].id;
      const drafts = await Promise.all([0, 1, 2, 3].map(() => api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId, quantity: 6 }] })));
      const answers = await Promise.all(drafts.map((d) => api.step("warehouseInReturn", "submit", { id: d.id })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    });

    test("approval stays the final word: a submitted return whose batch was issued since is refused whole", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 100, batchNo: "FINAL-1" }] });
      const inLineId = (await api.info("warehouseIn", inId)).lines[0].id;
      const back = await api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId, quantity: 4 }] });
      expect(await api.step("warehouseInReturn", "submit", { id: back.id })).toMatchObject({ status: 200 });
      await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 8 }] });
      const answer = await api.step("warehouseInReturn", "approve", { id: back.id });
      expect(answer).toMatchObject({ status: 409, message: "第 1 行退货数量超过可退数量 2" });
      expect((await api.info("warehouseInReturn", back.id)).status).toBe("1");
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 2, amount: 200 });
    });
  });
}
