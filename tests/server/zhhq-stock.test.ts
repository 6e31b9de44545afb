import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

/**
 * The warehouse's stock as terminals, scales and the screens call it (issue 40, decision 068): the four stock
 * documents and the three queries by the issue's exact field names, FEFO with expired batches refused, the returns'
 * limits, the floor, the workflow's 409s, tenants and permissions. The stock ledger's check is clean after each test.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const day = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);

for (const dialect of dialects) {
  describe(`${dialect}: 智慧后勤 stock documents and the stock ledger`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `st${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `sto${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("the contract: a stock-in answers id, docNo and status 0; approval makes batches, stock and movements with the issue's fields", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const unitId = (await api.ok<{ id: number }>("unit/create", { unitName: `千克${api.uid().slice(-6)}` })).id;
      const rice = await api.goods({ unitId, shelfLifeDays: 180 });
      const oil = await api.goods();
      const created = await api.create("warehouseIn", {
        warehouseId,
        supplierId,
        docDate: day(0),
        lines: [
          { goodsId: rice, quantity: 12.345, price: 385, productionDate: day(-10) },
          { goodsId: oil, quantity: 2, price: 15000, batchNo: "OIL-1", expiryDate: day(300) },
        ],
      });
      expect(created).toMatchObject({ id: expect.any(Number), docNo: expect.stringMatching(/^RK\d{8}-\d{4}$/), status: "0" });
      // A line without an expiry date takes its production date plus the goods' shelf life; the amount is price × quantity.
      const draft = await api.info("warehouseIn", created.id);
      expect(draft.lines.map((l) => [l.goodsId, l.quantity, l.price, l.amount, l.expiryDate])).toEqual([
        [rice, 12.345, 385, 4753, day(170)],
        [oil, 2, 15000, 30000, day(300)],
      ]);
      expect(await api.step("warehouseIn", "submit", { id: created.id })).toMatchObject({ status: 200, data: { status: "1" } });
      expect(await api.step("warehouseIn", "approve", { id: created.id })).toMatchObject({ status: 200, data: { status: "2" } });
      const approved = await api.info("warehouseIn", created.id);
      expect(approved.status).toBe("2");
      expect(approved.lines[0]).toMatchObject({ id: expect.any(Number), batchNo: `${created.docNo}-1` });

      // The average cost in fen per unit, half up: 4753 / 12.345 = 385.01.
      expect(await api.records("warehouseReal", { warehouseId, goodsId: rice })).toEqual([expect.objectContaining({ warehouseId, goodsId: rice, quantity: 12.345, amount: 4753, averagePrice: 385 })]);
      expect(await api.records("warehouseRealDetail", { warehouseId, goodsId: oil })).toEqual([
        expect.objectContaining({ batchNo: "OIL-1", expiryDate: day(300), quantity: 2, amount: 30000 }),
      ]);
      const [movement] = await api.records("warehouseLedger", { warehouseId, goodsId: rice });
      expect(movement).toMatchObject({ quantity: 12.345, amount: 4753, quantityAfter: 12.345, amountAfter: 4753, docType: "zhhq/warehouseIn", docId: created.id, batchNo: `${created.docNo}-1` });
      expect(movement.createdAt).toEqual(expect.any(Number));
    });

    test("a stock-out consumes first expiry first, then first received; its cost is what it consumed and getInfo shows the allocations", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      // Received in this order: a late expiry, an early one, one without expiry, and a second with the early expiry.
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId, quantity: 10, price: 100, batchNo: "LATE", expiryDate: day(60) },
          { goodsId, quantity: 10, price: 200, batchNo: "EARLY-A", expiryDate: day(5) },
          { goodsId, quantity: 10, price: 300, batchNo: "NONE" },
        ],
      });
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 3, price: 333, batchNo: "EARLY-B", expiryDate: day(5) }] });
      const out = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 12.5 }] });
      const shown = await api.info("warehouseOut", out);
      // A client that does not say what a stock-out is for is taking goods for use (领用出库), dated today.
      expect(shown).toMatchObject({ outKind: "1", docDate: day(0), repairNo: null });
      expect(shown.lines[0].allocations).toEqual([
        { batchNo: "EARLY-A", quantity: 10, amount: 2000 },
        { batchNo: "EARLY-B", quantity: 2.5, amount: 833 },
      ]);
      expect(shown.lines[0].amount).toBe(2833);
      // The part of EARLY-B left keeps the rest of its amount exactly: 999 − 833.
      const batches = await api.batches(warehouseId, goodsId);
      expect(batches.find((b) => b.batchNo === "EARLY-B")).toMatchObject({ quantity: 0.5, amount: 166 });
      // Emptying it gives up exactly what it has left, whatever the rounding of the first part.
      const second = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 0.5 }, { goodsId, quantity: 1 }] });
      expect((await api.info("warehouseOut", second)).lines.map((l) => l.allocations)).toEqual([
        [{ batchNo: "EARLY-B", quantity: 0.5, amount: 166 }],
        [{ batchNo: "LATE", quantity: 1, amount: 100 }],
      ]);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 19, amount: 900 + 3000 });
      // Movements newest first, the stock after each in posting order.
      const movements = await api.movements(warehouseId, goodsId);
      expect(movements[0]).toMatchObject({ quantityAfter: 19, amountAfter: 3900, docType: "zhhq/warehouseOut" });
      expect(movements).toHaveLength(4 + 4);
    });

    test("expired batches are never issued: a stock-out only they could cover is refused naming the batch; a shortage names the goods and what is there", async () => {
      const warehouseId = await api.warehouse();
      const unitName = `袋${api.uid().slice(-6)}`;
      const unitId = (await api.ok<{ id: number }>("unit/create", { unitName })).id;
      const goodsId = await api.goods({ goodsName: `面粉${api.uid()}`, unitId });
      const goodsName = ((await api.get("goods/getInfo", { id: goodsId })).data as Row).goodsName as string;
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId, quantity: 4, price: 100, batchNo: "OLD", expiryDate: day(-1) },
          { goodsId, quantity: 5, price: 100, batchNo: "GOOD", expiryDate: day(10) },
        ],
      });
      const before = await api.movements(warehouseId, goodsId);
      const expired = await api.approve("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 7 }] });
      expect(expired.answer).toMatchObject({ status: 409, message: `批次 OLD 已于 ${day(-1)} 过期，过期物资不能出库` });
      const short = await api.approve("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 9.5 }] });
      expect(short.answer).toMatchObject({ status: 409, message: `库存不足：${goodsName} 仓库现有 9${unitName}` });
      // Refused whole: nothing posted, the documents still wait for approval.
      expect(await api.movements(warehouseId, goodsId)).toEqual(before);
      expect((await api.info("warehouseOut", short.id)).status).toBe("1");
      const two = await api.approve("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 3 }, { goodsId, quantity: 3 }] });
      expect(two.answer).toMatchObject({ status: 409 });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 9, amount: 900 });
      // What the good batch covers goes out of it alone.
      const fits = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 5 }] });
      expect((await api.info("warehouseOut", fits)).lines[0].allocations).toEqual([{ batchNo: "GOOD", quantity: 5, amount: 500 }]);
    });

    test("a return to the supplier is limited by what its line received less what went back, and by what is left of the batch", async () => {
      const warehouseId = await api.warehouse();
      const supplierId = await api.supplier();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, supplierId, lines: [{ goodsId, quantity: 10, price: 333, batchNo: "R1" }] });
      const inLine = (await api.info("warehouseIn", inId)).lines[0];
      const first = await api.approved("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 4 }] });
      const shown = await api.info("warehouseInReturn", first);
      expect(shown).toMatchObject({ warehouseId, supplierId, status: "2" });
      expect(shown.lines[0]).toMatchObject({ goodsId, quantity: 4, amount: 1332 });
      // Over the limit is refused as the return is written, at the line's quantity (decision 071).
      expectField(await api.post("warehouseInReturn/create", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 6.001 }] }), "lines.0.quantity", "第 1 行退货数量超过可退数量 6");
      // Two returns within the limit as it stands: one waits as a draft, one is submitted.
      const draftReturn = await api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 6 }] });
      const submitted = await api.create("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 1.001 }] });
      expect(await api.step("warehouseInReturn", "submit", { id: submitted.id })).toMatchObject({ status: 200 });
      // What was issued from the batch cannot go back to the supplier either: the limit moved since they were written.
      await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 5 }] });
      // What is left (1) is claimed by the return submitted before it (decision 069).
      expectField(await api.step("warehouseInReturn", "submit", { id: draftReturn.id }), "lines.0.quantity", "第 1 行退货数量超过可退数量 0（另有待审核的退货 1.001）");
      expect((await api.info("warehouseInReturn", draftReturn.id)).status).toBe("0");
      const issued = await api.step("warehouseInReturn", "approve", { id: submitted.id });
      expect(issued).toMatchObject({ status: 409, message: "第 1 行退货数量超过可退数量 1" });
      // Rejected, it claims nothing any more: what is left goes back by another return.
      expect(await api.step("warehouseInReturn", "reject", { id: submitted.id, reason: "批次已部分出库" })).toMatchObject({ status: 200 });
      await api.approved("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 1 }] });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 0, amount: 0 });
      // A draft stock-in is no source of returns.
      const draft = await api.create("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 1, price: 1 }] });
      const draftLine = (await api.info("warehouseIn", draft.id)).lines[0];
      expectField(await api.post("warehouseInReturn/create", { warehouseInId: draft.id, lines: [{ inLineId: draftLine.id, quantity: 1 }] }), "warehouseInId", "入库单尚未审核，不能退");
      // A line of another stock-in is refused on its field.
      expectField(await api.post("warehouseInReturn/create", { warehouseInId: inId, lines: [{ inLineId: draftLine.id, quantity: 1 }] }), "lines.0.inLineId", "该明细不属于所选入库单");
    });

    test("a return from a stock-out goes back into the batches it came from at their cost, at most what its line issued less what came back", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId, quantity: 2, price: 100, batchNo: "A", expiryDate: day(3) },
          { goodsId, quantity: 2, price: 150, batchNo: "B", expiryDate: day(4) },
        ],
      });
      const outId = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 3 }] });
      const outLine = (await api.info("warehouseOut", outId)).lines[0];
      expect(outLine.amount).toBe(200 + 150);
      const back = await api.approved("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 1.5 }] });
      // The last batch issued comes back first: all of B's one unit, then half of A's two.
      expect((await api.info("warehouseOutReturn", back)).lines[0]).toMatchObject({ goodsId, quantity: 1.5, amount: 150 + 50, allocations: [
        { batchNo: "B", quantity: 1, amount: 150 },
        { batchNo: "A", quantity: 0.5, amount: 50 },
      ] });
      // Two lines of one source line share its limit; the second is refused at its quantity as it is written.
      expectField(
        await api.post("warehouseOutReturn/create", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 1 }, { outLineId: outLine.id, quantity: 0.501 }] }),
        "lines.1.quantity",
        "第 2 行退库数量超过可退数量 0.5",
      );
      const legacy = await api.create("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 1 }] });
      const late = await api.create("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 1 }] });
      expect(await api.step("warehouseOutReturn", "submit", { id: late.id })).toMatchObject({ status: 200 });
      // A submitted return claims its quantity (decision 069): what is left beside it is what another may take.
      expectField(
        await api.post("warehouseOutReturn/create", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 0.501 }] }),
        "lines.0.quantity",
        "第 1 行退库数量超过可退数量 0.5（另有待审核的退库 1）",
      );
      await api.approved("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 0.5 }] });
      expect(await api.step("warehouseOutReturn", "approve", { id: late.id })).toMatchObject({ status: 200 });
      // A return submitted before submits counted claims: the approval counts again and refuses what no longer fits.
      await db.updateTable("warehouse_out_return").set({ status: 1 }).where("id", "=", legacy.id).execute();
      expect(await api.step("warehouseOutReturn", "approve", { id: legacy.id })).toMatchObject({ status: 409, message: "第 1 行退库数量超过可退数量 0" });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 4, amount: 500 });
      const batches = await api.batches(warehouseId, goodsId);
      expect(batches.map((b) => [b.batchNo, b.quantity, b.amount])).toEqual([["A", 2, 200], ["B", 2, 300]]);
    });

    test("the workflow: a wrong status is 409, a reject needs a reason, a rejected document is edited and submitted again, an approved one never edited", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const doc = await api.create("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 1, price: 100 }] });
      expect(await api.step("warehouseIn", "approve", { id: doc.id })).toMatchObject({ status: 409, message: "当前状态为「草稿」，不能审核" });
      expect(await api.step("warehouseIn", "submit", { id: doc.id })).toMatchObject({ status: 200 });
      expect(await api.step("warehouseIn", "submit", { id: doc.id })).toMatchObject({ status: 409, message: "当前状态为「待审核」，不能提交" });
      expectField(await api.step("warehouseIn", "reject", { id: doc.id }), "reason", "请输入驳回原因");
      expect(await api.step("warehouseIn", "reject", { id: doc.id, reason: "单价有误" })).toMatchObject({ status: 200, data: { status: "3" } });
      const rejected = await api.info("warehouseIn", doc.id);
      expect((rejected.history as Row[]).at(-1)).toMatchObject({ action: "reject", reason: "单价有误", toStatusLabel: "已驳回" });
      const edited = await api.ok<Row>("warehouseIn/update", { id: doc.id, version: rejected.version, lines: [{ id: rejected.lines[0].id, price: 120 }] });
      expect(edited).toMatchObject({ status: "3" });
      await api.step("warehouseIn", "submit", { id: doc.id });
      expect(await api.step("warehouseIn", "approve", { id: doc.id })).toMatchObject({ status: 200 });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 1, amount: 120 });
      const approved = await api.info("warehouseIn", doc.id);
      expect(await api.post("warehouseIn/update", { id: doc.id, version: approved.version, remark: "改" })).toMatchObject({ status: 409, message: "当前状态为「已审核」，不能修改" });
      expect(await api.step("warehouseIn", "reject", { id: doc.id, reason: "晚了" })).toMatchObject({ status: 409 });
      expect(await api.step("warehouseIn", "approve", { id: doc.id })).toMatchObject({ status: 409, message: "当前状态为「已审核」，不能审核" });
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 1, amount: 120 });
    });

    test("bad quantities are 400 naming the field: more than 3 places, zero, negative, over 1,000,000, not a number", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      for (const [quantity, message] of [
        [1.2345, /最多 3 位小数/],
        [0, /大于 0/],
        [-1, /负数|大于 0/],
        [1_000_000.001, /1000000|1,000,000|不能大于|最多/],
        ["abc", /数字/],
      ] as Array<[unknown, RegExp]>) {
        expectField(await api.post("warehouseOut/create", { warehouseId, lines: [{ goodsId, quantity }] }), "lines.0.quantity", message);
      }
      expectField(await api.post("warehouseIn/create", { warehouseId, lines: [{ goodsId, quantity: 1, price: 1.5 }] }), "lines.0.price", /整数|分/);
      // The document date may be earlier than today, never later.
      expectField(await api.post("warehouseIn/create", { warehouseId, docDate: day(1), lines: [{ goodsId, quantity: 1, price: 1 }] }), "docDate", "单据日期不能晚于今天");
      expect(await api.create("warehouseIn", { warehouseId, docDate: day(-3), lines: [{ goodsId, quantity: 1, price: 1 }] })).toMatchObject({ docDate: day(-3) });
      // A value outside a dictionary, and a warehouse that is not one, are named too.
      expectField(await api.post("warehouseOut/create", { warehouseId, outKind: "9", lines: [{ goodsId, quantity: 1 }] }), "outKind", /出库类型/);
      expectField(await api.post("warehouseOut/create", { warehouseId: goodsId, lines: [{ goodsId, quantity: 1 }] }), "warehouseId", /仓库/);
    });

    test("tenants: another tenant's documents, stock and movements are invisible and untouchable", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 5, price: 10 }] });
      const draft = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
      const as = other.token;
      for (const doc of ["warehouseIn", "warehouseOut"] as const) {
        expect(await api.get(`${doc}/findPage`, {}, as)).toMatchObject({ status: 200, data: { total: 0 } });
      }
      expect((await api.get("warehouseIn/getInfo", { id: inId }, as)).status).toBe(404);
      expect((await api.step("warehouseOut", "submit", { id: draft.id }, as)).status).toBe(404);
      expect((await api.post("warehouseOut/create", { warehouseId, lines: [{ goodsId, quantity: 1 }] }, as)).status).toBe(400);
      const inLine = (await api.info("warehouseIn", inId)).lines[0];
      expect((await api.post("warehouseInReturn/create", { warehouseInId: inId, lines: [{ inLineId: inLine.id, quantity: 1 }] }, as)).status).toBe(400);
      for (const view of ["warehouseReal", "warehouseRealDetail", "warehouseLedger"]) {
        expect(await api.records(view, { warehouseId }, as)).toEqual([]);
        expect((await api.records(view, { warehouseId })).length).toBeGreaterThan(0);
      }
    });

    test("领用餐厅/部门: a stock-out defaults to its warehouse's restaurant, takes another kitchen or a department, is listed by it, and refuses another tenant's or no org on its field", async () => {
      const org = async (orgName: string, orgType: string, as = tenant.token) =>
        (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: as, body: { orgName: `${orgName}${api.uid()}`, orgType, status: "1" } })).body.data.id;
      const central = await org("中心餐厅", "restaurant");
      const kitchen = await org("二食堂", "restaurant");
      const office = await org("行政部", "department");
      const warehouseId = (await api.ok<{ id: number }>("warehouse/create", { warehouseName: `中心仓${api.uid()}`, restaurantId: central })).id;
      const goodsId = await api.goods();
      // Issue 40's body, without a receiver: the warehouse's restaurant takes it.
      const plain = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] });
      expect(await api.info("warehouseOut", plain.id)).toMatchObject({ receiverOrgId: central, receiverOrgIdLabel: expect.stringMatching(/^中心餐厅/) });
      const toKitchen = await api.create("warehouseOut", { warehouseId, receiverOrgId: kitchen, lines: [{ goodsId, quantity: 1 }] });
      const toOffice = await api.create("warehouseOut", { warehouseId, receiverOrgId: office, lines: [{ goodsId, quantity: 1 }] });
      expect(await api.info("warehouseOut", toOffice.id)).toMatchObject({ receiverOrgId: office });
      // A draft edited without naming it keeps its receiver.
      await api.ok("warehouseOut/update", { id: toKitchen.id, version: (await api.info("warehouseOut", toKitchen.id)).version, remark: "改备注" });
      expect(await api.info("warehouseOut", toKitchen.id)).toMatchObject({ receiverOrgId: kitchen, remark: "改备注" });
      // The list filters by it.
      expect((await api.records("warehouseOut", { receiverOrgId: kitchen })).map((r) => r.id)).toEqual([toKitchen.id]);
      expect((await api.records("warehouseOut", { receiverOrgId: central })).map((r) => r.id)).toEqual([plain.id]);
      // A warehouse serving no restaurant leaves it empty.
      const bare = await api.create("warehouseOut", { warehouseId: await api.warehouse(), lines: [{ goodsId, quantity: 1 }] });
      expect((await api.info("warehouseOut", bare.id)).receiverOrgId ?? null).toBeNull();
      // Another tenant's org, one that does not exist, and an org that is neither a kitchen nor a department: 400 on the field, nothing written.
      const before = (await api.records("warehouseOut")).length;
      const foreign = await org("别家餐厅", "restaurant", other.token);
      const top = await org("总公司", "org");
      for (const receiverOrgId of [foreign, 987_654_321, top]) {
        expectField(await api.post("warehouseOut/create", { warehouseId, receiverOrgId, lines: [{ goodsId, quantity: 1 }] }), "receiverOrgId", /领用餐厅\/部门/);
      }
      const { version } = await api.info("warehouseOut", toKitchen.id);
      expectField(await api.post("warehouseOut/update", { id: toKitchen.id, version, receiverOrgId: foreign }), "receiverOrgId", /领用餐厅\/部门/);
      expect((await api.records("warehouseOut")).length).toBe(before);
      expect(await api.info("warehouseOut", toKitchen.id)).toMatchObject({ receiverOrgId: kitchen });
    });

    test("permissions by code: a keeper who may create and submit stock-outs cannot approve them; without the pages, nothing", async () => {
      const rows = await db.selectFrom("menu").select(["id", "permission"]).where("permission", "like", "zhhq:%").execute();
      const menu = new Map(rows.map((r: Row) => [r.permission as string, Number(r.id)]));
      for (const doc of ["warehouseIn", "warehouseOut", "warehouseInReturn", "warehouseOutReturn"]) {
        for (const action of ["view", "create", "update", "export", "submit", "approve", "reject"]) expect(menu.has(`zhhq:${doc}:${action}`), `${doc}:${action}`).toBe(true);
      }
      for (const view of ["warehouseReal", "warehouseRealDetail", "warehouseLedger"]) expect(menu.has(`zhhq:${view}:view`), view).toBe(true);
      const role = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", tenant.token, { roleCode: "keeper", roleName: "仓管员", roleType: "user", status: "1" });
      const codes = ["zhhq:warehouseOut:view", "zhhq:warehouseOut:create", "zhhq:warehouseOut:submit", "zhhq:warehouseReal:view"];
      await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", tenant.token, { roleId: role.id, menuIds: codes.map((c) => menu.get(c)) });
      const signIn = async (userName: string, roleIds: unknown[]) => {
        await expectOk(app, "POST", "/api/v1/auth/user/create", tenant.token, { user: { userName, realName: userName, status: "1", password: "First-Pass-2026" }, roleIds });
        const token = await loginAs(app, userName, "First-Pass-2026");
        await expectOk(app, "POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "First-Pass-2026", newPassword: "Second-Pass-2026" });
        return token;
      };
      const keeper = await signIn(`stkeeper${dialect}`, [role.id]);
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 3, price: 10 }] });
      const doc = await api.create("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 1 }] }, keeper);
      expect(await api.step("warehouseOut", "submit", { id: doc.id }, keeper)).toMatchObject({ status: 200 });
      for (const [action, body] of [["approve", { id: doc.id }], ["reject", { id: doc.id, reason: "不行" }]] as const) {
        expect(await api.step("warehouseOut", action, body, keeper)).toMatchObject({ status: 403 });
      }
      expect((await api.get("warehouseReal/findPage", { warehouseId }, keeper)).status).toBe(200);
      for (const path of ["warehouseRealDetail/findPage", "warehouseLedger/findPage", "warehouseIn/findPage"]) expect((await api.get(path, {}, keeper)).status, path).toBe(403);
      expect((await api.post("warehouseIn/create", { warehouseId, lines: [{ goodsId, quantity: 1, price: 1 }] }, keeper)).status).toBe(403);
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 3, amount: 30 });
      const nobody = await signIn(`stnobody${dialect}`, []);
      expect((await api.get("warehouseOut/findPage", {}, nobody)).status).toBe(403);
      expect((await api.get("warehouseOut/getInfo", { id: doc.id }, nobody)).status).toBe(403);
    });

    test("the ledger's check names a warehouse × goods and a batch whose stock differs from its movements", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 2, price: 100, batchNo: "DRIFT" }] });
      const batch = await db.selectFrom("stock_batch").select(["id", "quantity"]).where("goods_id", "=", goodsId).executeTakeFirstOrThrow();
      const real = await db.selectFrom("stock_real").select(["quantity"]).where("goods_id", "=", goodsId).executeTakeFirstOrThrow();
      await db.updateTable("stock_batch").set({ quantity: 1 }).where("id", "=", batch.id).execute();
      await db.updateTable("stock_real").set({ amount: 7 }).where("goods_id", "=", goodsId).execute();
      try {
        expect(await stockLedger.check(db, tenant.tenantId)).toEqual(
          expect.arrayContaining([
            { tenantId: tenant.tenantId, key: { warehouseId, goodsId }, measure: "amount", balance: 7, lines: 200 },
            { tenantId: tenant.tenantId, key: { batchId: batch.id }, measure: "quantity", balance: 1, lines: 2000 },
          ]),
        );
      } finally {
        await db.updateTable("stock_batch").set({ quantity: batch.quantity }).where("id", "=", batch.id).execute();
        await db.updateTable("stock_real").set({ amount: 200, quantity: real.quantity }).where("goods_id", "=", goodsId).execute();
      }
    });
  });
}
