import ExcelJS from "exceljs";
import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import { warehouseIn, warehouseInReturn, warehouseOut, warehouseOutReturn } from "../../resources/zhhq/stock";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * 智慧后勤's reports (issue 35, decision 076): every total equals the stock ledger's movement lines, recounted here
 * in SQL of their own; each row's closing is its opening + in − out; the filters refuse another tenant's rows. And
 * the supplier licence rule of a stock-in: in force, missing, lapsed, and the tenant that only warns.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Answer = { rows: Row[]; totals: Row; filters: Record<string, string> };

const today = () => chinaDay(Date.now());
const num = (v: unknown) => Number(v ?? 0);

for (const dialect of dialects) {
  describe(`${dialect}: 智慧后勤 reports against the stock ledger`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;
    let db: AnyDb;
    let superToken: string;

    const report = async (name: string, query: Row = {}, token = tenant.token) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return (await app.call<Answer>("GET", `/api/v1/zhhq/${name}?${params}`, { token })).body;
    };
    const answer = async (name: string, query: Row = {}) => {
      const body = await report(name, query);
      expect(body, JSON.stringify(body)).toMatchObject({ status: 200 });
      return body.data;
    };
    /** A sum over the tenant's stock lines, in SQL of its own. */
    const lineSum = async (what: "quantity" | "amount", where: ReturnType<typeof sql>) =>
      num((await sql<{ s: number }>`select coalesce(sum(${sql.ref(what)}), 0) as s from stock_line where tenant_id = ${tenant.tenantId} and ${where}`.execute(db)).rows[0].s);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rp${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rpo${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("库存日报, 月报, 入库统计 and 出库统计 equal the ledger's lines, by their own sums", async () => {
      const restaurantId = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `报表餐厅${api.uid()}`, orgType: "restaurant", status: "1" } })).body.data.id;
      const warehouseId = (await api.ok<{ id: number }>("warehouse/create", { warehouseName: `报表仓${api.uid()}`, restaurantId })).id;
      const rice = await api.goods({ goodsCode: `RICE${api.uid()}` });
      const oil = await api.goods();
      const supplierId = await api.supplier();
      const useType = (await api.ok<{ id: number }>("outUseType/create", { typeName: `厨房领用${api.uid()}` })).id;

      const firstIn = await api.approved("warehouseIn", { warehouseId, supplierId, lines: [{ goodsId: rice, quantity: 100, price: 450, batchNo: "R-OLD" }] });
      // The first delivery was three days ago: today's opening is its stock.
      await db.updateTable("stock_line").set({ occurred_at: sql`occurred_at - ${3 * DAY_MS}` }).where("tenant_id", "=", tenant.tenantId).where("doc_id", "=", firstIn).execute();
      // History written behind the ledger's back: its kept days are counted again from the lines, as after a migration.
      await stockLedger.recount(db, tenant.tenantId);
      const secondIn = await api.approved("warehouseIn", {
        warehouseId,
        supplierId,
        lines: [
          { goodsId: rice, quantity: 50, price: 500, batchNo: "R-NEW" },
          { goodsId: oil, quantity: 20.5, price: 1299 },
        ],
      });
      const outId = await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, lines: [{ goodsId: rice, quantity: 120 }, { goodsId: oil, quantity: 3.25 }] });
      const inLines = (await api.info("warehouseIn", secondIn)).lines;
      await api.approved("warehouseInReturn", { warehouseInId: secondIn, lines: [{ inLineId: inLines[1].id, quantity: 1.5 }] });
      const outLines = (await api.info("warehouseOut", outId)).lines;
      await api.approved("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLines[0].id, quantity: 10 }] });

      const ofDoc = (type: string) => sql`doc_type = ${type}`;
      const since = (from: number) => sql`occurred_at >= ${from}`;
      const startOfToday = Date.now() - (Date.now() + 8 * 3600_000) % DAY_MS;

      // 库存日报 of today: in, out and closing are the lines'; opening is the ledger before today.
      const daily = await answer("warehouseDailyReport", { from: today(), to: today(), warehouseId });
      expect(daily.rows.length).toBe(2);
      expect(num(daily.totals.inAmount)).toBe(await lineSum("amount", sql`${since(startOfToday)} and quantity > 0 and warehouse_id = ${warehouseId}`));
      expect(num(daily.totals.outAmount)).toBe(-(await lineSum("amount", sql`${since(startOfToday)} and quantity < 0 and warehouse_id = ${warehouseId}`)));
      expect(num(daily.totals.openingAmount)).toBe(await lineSum("amount", sql`occurred_at < ${startOfToday} and warehouse_id = ${warehouseId}`));
      expect(num(daily.totals.openingAmount)).toBe(45_000);
      expect(num(daily.totals.closingAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));
      for (const row of daily.rows) {
        expect(num(row.closingQuantity)).toBe(num(row.openingQuantity) + num(row.inQuantity) - num(row.outQuantity));
        expect(num(row.closingAmount)).toBe(num(row.openingAmount) + num(row.inAmount) - num(row.outAmount));
        expect(row.day).toBe(today());
      }
      const riceRow = daily.rows.find((r) => r.goodsCode === String(daily.rows.find((x) => String(x.goodsCode).startsWith("RICE"))?.goodsCode));
      // 100 + 50 in − 120 out + 10 back: 40 kg left; opening 100, in 50 + 10, out 120.
      expect(riceRow).toMatchObject({ openingQuantity: 100_000, inQuantity: 60_000, outQuantity: 120_000, closingQuantity: 40_000 });
      // Over the four days, the first delivery is in and the opening is nothing.
      const fourDays = await answer("warehouseDailyReport", { from: chinaDay(Date.now() - 4 * DAY_MS), to: today(), warehouseId });
      expect(fourDays.rows.length).toBe(3);
      expect(num(fourDays.totals.inAmount) - num(fourDays.totals.outAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));

      // 库存月报 of next month (nothing moves): the goods in store, opening = closing = the ledger's balance.
      const next = new Date(Date.now() + 8 * 3600_000);
      const nextMonth = `${next.getUTCMonth() === 11 ? next.getUTCFullYear() + 1 : next.getUTCFullYear()}-${String((next.getUTCMonth() + 1) % 12 + 1).padStart(2, "0")}`;
      const month = await answer("warehouseMonthReport", { fromMonth: nextMonth, toMonth: nextMonth, warehouseId });
      expect(month.rows.length).toBe(2);
      expect(num(month.totals.openingAmount)).toBe(await lineSum("amount", sql`warehouse_id = ${warehouseId}`));
      expect(num(month.totals.closingAmount)).toBe(num(month.totals.openingAmount));
      expect(num(month.totals.inAmount)).toBe(0);

      // 入库统计: stock-ins and returns to the supplier are the lines of those documents.
      const ins = await answer("warehouseInReport", { from: chinaDay(Date.now() - 4 * DAY_MS), to: today(), supplierId });
      expect(num(ins.totals.inAmount)).toBe(await lineSum("amount", ofDoc(warehouseIn.docType)));
      expect(num(ins.totals.returnAmount)).toBe(-(await lineSum("amount", ofDoc(warehouseInReturn.docType))));
      expect(num(ins.totals.netAmount)).toBe(45_000 + 25_000 + 26_630 - 1949);
      expect(num(ins.totals.inCount)).toBe(3);
      // 出库统计: stock-outs at their batches' cost, less what came back, by use type and the warehouse's restaurant.
      const outs = await answer("warehouseOutReport", { from: today(), to: today(), outUseTypeId: useType, receiverOrgId: restaurantId });
      expect(num(outs.totals.outAmount)).toBe(-(await lineSum("amount", ofDoc(warehouseOut.docType))));
      expect(num(outs.totals.returnAmount)).toBe(await lineSum("amount", ofDoc(warehouseOutReturn.docType)));
      expect(num(outs.totals.outCount)).toBe(2);
      expect(outs.rows.every((r) => String(r.receiverName).startsWith("报表餐厅"))).toBe(true);

      // The export is the same answer as a sheet.
      const response = await app.api.handle(
        new Request(`http://canteen.test/api/v1/zhhq/warehouseDailyReport/export?from=${today()}&to=${today()}&warehouseId=${warehouseId}`, { headers: { Authorization: `Bearer ${tenant.token}` } }),
        "127.0.0.1",
      );
      expect(response.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = workbook.worksheets[0];
      const totalsRow = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
      expect(totalsRow[0]).toBe("合计");
      // 期末金额 in yuan, and a quantity in its unit (kg, not thousandths).
      expect(totalsRow[12]).toBe(num(daily.totals.closingAmount) / 100);
      expect((sheet.getRow(4).values as unknown[]).slice(1)[11]).toBe(num(daily.rows[0].closingQuantity) / 1000);

      // Another tenant's rows and unknown codes are refused on their field.
      expectField(await report("warehouseDailyReport", { warehouseId }, other.token), "warehouseId", "所选仓库不存在");
      expectField(await report("warehouseInReport", { goodsCode: "NO-SUCH" }), "goodsCode", "该物资编码不存在");
      expectField(await report("warehouseOutReport", { outUseTypeId: "abc" }), "outUseTypeId", /出库用途/);
      expect((await report("warehouseInReport", { nope: 1 })).status).toBe(400);

      // One warehouse, two kitchens and a department: each stock-out (and what came back from it) is its receiver's.
      const kitchen = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `二号厨房${api.uid()}`, orgType: "restaurant", status: "1" } })).body.data.id;
      const office = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `办公室${api.uid()}`, orgType: "department", status: "1" } })).body.data.id;
      const toKitchen = await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, receiverOrgId: kitchen, lines: [{ goodsId: rice, quantity: 5 }] });
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, receiverOrgId: office, lines: [{ goodsId: oil, quantity: 1 }] });
      const kitchenLine = (await api.info("warehouseOut", toKitchen)).lines[0];
      await api.approved("warehouseOutReturn", { warehouseOutId: toKitchen, lines: [{ outLineId: kitchenLine.id, quantity: 2 }] });
      const receiverSum = async (receiver: number, type: string) =>
        num((await sql<{ s: number }>`select coalesce(sum(l.amount), 0) as s from stock_line l
          left join warehouse_out_return r on r.tenant_id = l.tenant_id and r.id = l.doc_id and l.doc_type = ${warehouseOutReturn.docType}
          join warehouse_out o on o.tenant_id = l.tenant_id and o.id = case when l.doc_type = ${warehouseOut.docType} then l.doc_id else r.warehouse_out_id end
          where l.tenant_id = ${tenant.tenantId} and l.doc_type = ${type} and o.receiver_org_id = ${receiver}`.execute(db)).rows[0].s);
      for (const [receiver, name] of [[kitchen, "二号厨房"], [office, "办公室"], [restaurantId, "报表餐厅"]] as const) {
        const mine = await answer("warehouseOutReport", { from: today(), to: today(), receiverOrgId: receiver });
        expect(mine.rows.length).toBeGreaterThan(0);
        expect(mine.rows.every((r) => String(r.receiverName).startsWith(name))).toBe(true);
        expect(num(mine.totals.outAmount)).toBe(-(await receiverSum(receiver, warehouseOut.docType)));
        expect(num(mine.totals.returnAmount)).toBe(await receiverSum(receiver, warehouseOutReturn.docType));
      }
      const byReceiver = await answer("warehouseOutReport", { from: today(), to: today(), warehouseId });
      expect(new Set(byReceiver.rows.map((r) => String(r.receiverName).slice(0, 3)))).toEqual(new Set(["二号厨", "办公室", "报表餐"]));
      expect(num(byReceiver.totals.netAmount)).toBe(-(await lineSum("amount", sql`doc_type in (${warehouseOut.docType}, ${warehouseOutReturn.docType})`)));
      expectField(await report("warehouseOutReport", { receiverOrgId: kitchen }, other.token), "receiverOrgId", /领用部门/);
    });

    test("库存月报: a formal month is its settlement's rows (by document date), an open month the ledger's days (by posting)", async () => {
      // A tenant of its own: a formal month refuses every later back-dated document of the tenant.
      const mine = await createTenantWithAdmin(app, superToken, `rpf${dialect}`);
      const m = stockClient(app, () => mine.token);
      const warehouseId = await m.warehouse();
      const goodsId = await m.goods();
      const supplierId = await m.supplier();
      const now = new Date(Date.now() + 8 * 3600_000);
      const thisMonth = now.toISOString().slice(0, 7);
      now.setUTCDate(1);
      now.setUTCMonth(now.getUTCMonth() - 1);
      const lastMonth = now.toISOString().slice(0, 7);
      // Dated last month, posted today; and today's.
      await m.approved("warehouseIn", { warehouseId, supplierId, docDate: `${lastMonth}-15`, lines: [{ goodsId, quantity: 10, price: 300 }] });
      await m.approved("warehouseIn", { warehouseId, supplierId, lines: [{ goodsId, quantity: 5, price: 300 }] });
      await m.ok("warehouseAccountMonthSettle/confirm", { month: lastMonth });
      const settled = (await db.selectFrom("stock_month_settle").selectAll().where("tenant_id", "=", mine.tenantId).where("month", "=", lastMonth).execute()) as Row[];
      expect(settled).toHaveLength(1);

      const both = (await app.call<Answer>("GET", `/api/v1/zhhq/warehouseMonthReport?fromMonth=${lastMonth}&toMonth=${thisMonth}`, { token: mine.token })).body.data;
      const figures = (r: Row) => [r.openingQuantity, r.openingAmount, r.inQuantity, r.inAmount, r.outQuantity, r.outAmount, r.closingQuantity, r.closingAmount].map(num);
      const [formal, open] = both.rows;
      expect(formal.month).toBe(lastMonth);
      const s = settled[0];
      expect(figures(formal)).toEqual([s.opening_quantity, s.opening_amount, s.in_quantity, s.in_amount, s.out_quantity, s.out_amount, s.closing_quantity, s.closing_amount].map(num));
      expect(figures(formal)).toEqual([0, 0, 10_000, 3000, 0, 0, 10_000, 3000]);
      // This month is the ledger's: both stock-ins were posted in it.
      expect(open.month).toBe(thisMonth);
      expect(figures(open)).toEqual([0, 0, 15_000, 4500, 0, 0, 15_000, 4500]);
      expect(num(both.totals.closingAmount)).toBe(7500);
    });

    test("traceability: a delivery's batch to its stock-outs and the meals of the days it fed, and back from the restaurant and a day", async () => {
      const restaurantId = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `追溯餐厅${api.uid()}`, orgType: "restaurant", status: "1" } })).body.data.id;
      const elsewhere = (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `别的餐厅${api.uid()}`, orgType: "restaurant", status: "1" } })).body.data.id;
      const warehouseId = (await api.ok<{ id: number }>("warehouse/create", { warehouseName: `厨房仓${api.uid()}`, restaurantId })).id;
      const goodsId = await api.goods({ goodsName: `猪肉${api.uid()}` });
      const supplierId = await api.supplier();
      const useType = (await api.ok<{ id: number }>("outUseType/create", { typeName: `后厨领用${api.uid()}` })).id;
      const d = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);
      const batchNo = `TR${api.uid()}`;
      const inId = await api.approved("warehouseIn", { warehouseId, supplierId, docDate: d(-5), lines: [{ goodsId, quantity: 30, price: 2800, batchNo }] });
      // Issued on days −4 and −2 (back-dated stock-outs): the meals it could have fed are days −4 … −1.
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, docDate: d(-4), lines: [{ goodsId, quantity: 10 }] });
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, docDate: d(-2), lines: [{ goodsId, quantity: 5 }] });
      // The canteen's orders, as the order table holds them: days −6 … 0 in the restaurant, one elsewhere, one cancelled.
      const diners = await db.selectFrom("user_info").select("id").where("tenant_id", "=", tenant.tenantId).limit(1).execute();
      let dinerId = diners[0] ? Number(diners[0].id) : 0;
      if (!dinerId) {
        dinerId = Date.now();
        await db.insertInto("user_info").values({ tenant_id: tenant.tenantId, id: dinerId, user_code: `TR${dinerId}`, user_name: "追溯食客", created_at: Date.now(), updated_at: Date.now() }).execute();
      }
      let serial = 0;
      const order = async (day: string, restaurant: number, status = 1, mealType = "lunch") => {
        serial += 1;
        await db
          .insertInto("meal_order")
          .values({ tenant_id: tenant.tenantId, id: Date.now() * 100 + serial, order_no: `TRO${Date.now()}${serial}`, user_info_id: dinerId, order_date: day, meal_type: mealType, restaurant_id: restaurant, amount: 1500, paid_amount: 1500, pay_flag: 1, order_source: "cashier", order_status: status, paid_at: Date.now(), created_at: Date.now(), updated_at: Date.now() })
          .execute();
      };
      for (const offset of [-6, -4, -3, -3, -1, 0]) await order(d(offset), restaurantId);
      await order(d(-2), restaurantId, 1, "dinner");
      await order(d(-3), restaurantId, 2);
      await order(d(-3), elsewhere);

      const trace = await answer("batchTrace", { batchNo });
      const stages = trace.rows.map((r) => [r.stage, r.day, r.docTitle, r.quantity ?? r.mealType]);
      expect(stages).toEqual([
        ["来源", d(-5), "入库单", 30_000],
        ["去向", d(-4), "出库单", -10_000],
        ["去向", d(-2), "出库单", -5_000],
        ["供餐", d(-4), "", "lunch"],
        ["供餐", d(-3), "", "lunch"],
        ["供餐", d(-2), "", "dinner"],
        ["供餐", d(-1), "", "lunch"],
      ]);
      const source = trace.rows[0];
      expect(source.party).toMatch(/^供应商/);
      expect(source.docNo).toBe(String((await api.info("warehouseIn", inId)).docNo));
      expect(String(source.note)).toMatch(/单价 28\.00 元；仓管 .+；当日资质：营业执照 Q.+、食品经营许可证 Q/);
      expect(String(trace.rows[1].party)).toMatch(/^后厨领用.+ · 追溯餐厅/);
      // Two lunches on day −3 (the cancelled one and the other restaurant's left out), by one diner.
      expect(trace.rows[4]).toMatchObject({ orders: 2, diners: 1 });
      expect(trace.totals).toMatchObject({ orders: 5, diners: 4 });
      // By supplier and the delivery's date, the same batch.
      expect((await answer("batchTrace", { supplierId, from: d(-5), to: d(0) })).rows.filter((r) => r.batchNo === batchNo)).toHaveLength(7);

      // Back: the restaurant's meals of day −1 could have been fed by the batch (its last stock-out was day −2); day 0 not.
      const back = await answer("restaurantTrace", { restaurantId, from: d(-1), to: d(-1) });
      expect(back.rows).toEqual([
        expect.objectContaining({ batchNo, firstIssue: d(-4), lastIssue: d(-2), issuedQuantity: 15_000, issuedAmount: 42_000, inDay: d(-5), supplierName: expect.stringMatching(/^供应商/) }),
      ]);
      expect((await answer("restaurantTrace", { restaurantId, from: d(0), to: d(0) })).rows).toEqual([]);
      expect((await answer("restaurantTrace", { restaurantId, from: d(-7), to: d(-5) })).rows).toEqual([]);
      expect((await answer("restaurantTrace", { restaurantId: elsewhere, from: d(-4), to: d(-1) })).rows).toEqual([]);
      // Another tenant sees none of it.
      expect((await report("batchTrace", { batchNo }, other.token)).data.rows).toEqual([]);
    });

    test("traceability follows a stock-out to the kitchen that took it (领用餐厅, a stall's restaurant), not its warehouse's; a department's stays the warehouse's", async () => {
      const org = async (orgName: string, orgType: string, parentId?: number) =>
        (await app.call<{ id: number }>("POST", "/api/v1/auth/org/create", { token: tenant.token, body: { orgName: `${orgName}${api.uid()}`, orgType, status: "1", ...(parentId ? { parentId } : {}) } })).body.data.id;
      const home = await org("仓库餐厅", "restaurant");
      const taker = await org("领用餐厅", "restaurant");
      const stall = await org("面点档口", "stall", taker);
      const office = await org("行政部", "department");
      const warehouseId = (await api.ok<{ id: number }>("warehouse/create", { warehouseName: `中心仓${api.uid()}`, restaurantId: home })).id;
      const goodsId = await api.goods({ goodsName: `牛肉${api.uid()}` });
      const useType = (await api.ok<{ id: number }>("outUseType/create", { typeName: `领用${api.uid()}` })).id;
      const d = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);
      const batchNo = `RV${api.uid()}`;
      await api.approved("warehouseIn", { warehouseId, supplierId: await api.supplier(), docDate: d(-12), lines: [{ goodsId, quantity: 10, price: 6000, batchNo }] });
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, receiverOrgId: taker, docDate: d(-11), lines: [{ goodsId, quantity: 2 }] });
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, receiverOrgId: stall, docDate: d(-9), lines: [{ goodsId, quantity: 1 }] });
      await api.approved("warehouseOut", { warehouseId, outUseTypeId: useType, receiverOrgId: office, docDate: d(-7), lines: [{ goodsId, quantity: 3 }] });
      const dinerId = Number((await db.selectFrom("user_info").select("id").where("tenant_id", "=", tenant.tenantId).limit(1).executeTakeFirstOrThrow()).id);
      let serial = 0;
      for (const [offset, restaurant] of [[-11, taker], [-10, taker], [-9, taker], [-8, taker], [-11, home], [-7, home], [-6, home], [-5, home]]) {
        serial += 1;
        await db
          .insertInto("meal_order")
          .values({ tenant_id: tenant.tenantId, id: Date.now() * 100 + 50 + serial, order_no: `RVO${Date.now()}${serial}`, user_info_id: dinerId, order_date: d(offset), meal_type: "lunch", restaurant_id: restaurant, amount: 1500, paid_amount: 1500, pay_flag: 1, order_source: "cashier", order_status: 1, paid_at: Date.now(), created_at: Date.now(), updated_at: Date.now() })
          .execute();
      }

      const trace = await answer("batchTrace", { batchNo });
      const out = trace.rows.filter((r) => r.stage === "去向").map((r) => String(r.party).split(" · ")[1].slice(0, 4));
      expect(out).toEqual(["领用餐厅", "领用餐厅", "仓库餐厅"]);
      // The taker's meals from its first stock-out (−11) through the stall's (−9) + 1; the warehouse's restaurant's
      // from the department's (−7) + 1: not its own meal of day −11, which the batch never reached.
      const meals = trace.rows.filter((r) => r.stage === "供餐").map((r) => [String(r.party).slice(0, 4), r.day]);
      expect(meals).toEqual([
        ["领用餐厅", d(-11)],
        ["领用餐厅", d(-10)],
        ["领用餐厅", d(-9)],
        ["领用餐厅", d(-8)],
        ["仓库餐厅", d(-7)],
        ["仓库餐厅", d(-6)],
      ]);
      // And back: the taker's kitchen received the batch; the warehouse's restaurant only through the department.
      const back = await answer("restaurantTrace", { restaurantId: taker, from: d(-8), to: d(-8) });
      expect(back.rows).toEqual([expect.objectContaining({ batchNo, firstIssue: d(-11), lastIssue: d(-9), issuedQuantity: 3_000 })]);
      const homeBack = await answer("restaurantTrace", { restaurantId: home, from: d(-6), to: d(-6) });
      expect(homeBack.rows).toEqual([expect.objectContaining({ batchNo, firstIssue: d(-7), lastIssue: d(-7), issuedQuantity: 3_000 })]);
      expect((await answer("restaurantTrace", { restaurantId: home, from: d(-10), to: d(-10) })).rows).toEqual([]);
    });

    test("a stock-in needs its supplier's licences in force on its date: refused with 409 naming the licence, or noted where the tenant only warns", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const supplierId = (await api.ok<{ id: number }>("supplier/create", { supplierName: `无证供应商${api.uid()}` })).id;
      const body = { warehouseId, supplierId, lines: [{ goodsId, quantity: 1, price: 100 }] };

      const missing = await api.approve("warehouseIn", body);
      expect(missing.answer.status).toBe(409);
      expect(missing.answer.message).toMatch(/^供应商「无证供应商.+」资质不符，不能入库：缺少营业执照；缺少食品经营许可证或食品生产许可证$/);

      await api.ok("supplierQualification/create", { supplierId, qualType: "1", qualNo: "BL-1", issuer: "市监局", validFrom: "2020-01-01" });
      await api.ok("supplierQualification/create", { supplierId, qualType: "2", qualNo: "JY-7", validFrom: "2020-01-01", validTo: chinaDay(Date.now() - DAY_MS) });
      const lapsed = await api.approve("warehouseIn", body);
      expect(lapsed.answer.status).toBe(409);
      expect(lapsed.answer.message).toContain(`食品经营许可证（编号 JY-7）已于 ${chinaDay(Date.now() - DAY_MS)} 到期`);
      // Nothing was posted.
      expect(await api.stock(warehouseId, goodsId)).toEqual({ quantity: 0, amount: 0 });
      // A back-dated stock-in whose day the licence covered passes.
      await api.approved("warehouseIn", { ...body, docDate: chinaDay(Date.now() - 2 * DAY_MS) });

      // The tenant that only warns: it posts, and the stock-in says why.
      await app.call("POST", "/api/v1/sys/parameterConfig/create", { token: tenant.token, body: { paramCode: "zhhq.supplier.qualificationCheck", paramName: "供应商资质检查", paramValue: "warn" } });
      const warned = await api.approved("warehouseIn", body);
      expect((await api.info("warehouseIn", warned)).qualificationNote).toMatch(/^资质预警：食品经营许可证（编号 JY-7）已于/);
      expect((await api.stock(warehouseId, goodsId)).quantity).toBe(2);

      // A food production licence in force is as good as an operating licence.
      await db.deleteFrom("parameter_config").where("tenant_id", "=", tenant.tenantId).where("param_code", "=", "zhhq.supplier.qualificationCheck").execute();
      await api.ok("supplierQualification/create", { supplierId, qualType: "3", qualNo: "SC-9", validFrom: "2020-01-01", validTo: "2099-12-31" });
      const passed = await api.approved("warehouseIn", body);
      expect((await api.info("warehouseIn", passed)).qualificationNote ?? null).toBeNull();

      // 资质预警 lists the lapsed licence and one lapsing within 30 days, not one renewed or far off.
      await api.ok("supplierQualification/create", { supplierId, qualType: "4", qualNo: "JJ-10", validTo: chinaDay(Date.now() + 10 * DAY_MS) });
      await api.ok("supplierQualification/create", { supplierId, qualType: "9", qualNo: "QT-40", validTo: chinaDay(Date.now() + 40 * DAY_MS) });
      await api.ok("supplierQualification/create", { supplierId, qualType: "1", qualNo: "BL-OLD", validTo: chinaDay(Date.now() - 30 * DAY_MS) });
      const warning = await answer("supplierQualificationWarning", { supplierId });
      expect(warning.filters).toEqual({ supplierId: String(supplierId) });
      expect(warning.rows.map((r) => [r.kind, r.detail, r.daysLeft])).toEqual([
        ["资质已过期", "食品经营许可证 JY-7", -1],
        ["资质即将到期", "检验检疫证明 JJ-10", 10],
      ]);

      // 库存预警 lists them as a kind of its own (资质到期), and the home page's card counts them; not per warehouse.
      const board = await api.get("warehouseWarning/findPage", {});
      const licences = (board.data as { records: Row[]; kinds: Row[]; counts: Row }).records.filter((r) => r.kind === "licence" && String(r.subject).startsWith("无证供应商"));
      expect(licences.map((r) => [r.kindLabel, r.detail, r.expiryDate, r.days, r.link])).toEqual([
        ["资质到期", "食品经营许可证 JY-7", chinaDay(Date.now() - DAY_MS), -1, `/zhhq/supplierqualification/index?supplierId=${supplierId}`],
        ["资质到期", "检验检疫证明 JJ-10", chinaDay(Date.now() + 10 * DAY_MS), 10, `/zhhq/supplierqualification/index?supplierId=${supplierId}`],
      ]);
      const kinds = (board.data as { kinds: Row[] }).kinds;
      expect(kinds.map((k) => k.value)).toEqual(["expired", "expiring", "low", "high", "licence", "insurance", "inspection"]);
      expect(kinds.find((k) => k.value === "licence")).toMatchObject({ label: "资质到期", note: "30 天内", count: (board.data as { counts: Row }).counts.licence });
      expect(num((board.data as { counts: Row }).counts.licence)).toBeGreaterThanOrEqual(2);
      const onlyLicences = await api.get("warehouseWarning/findPage", { kind: "licence" });
      expect((onlyLicences.data as { records: Row[] }).records.every((r) => r.kind === "licence")).toBe(true);
      expect(((await api.get("warehouseWarning/findPage", { warehouseId })).data as { records: Row[] }).records.filter((r) => r.kind === "licence")).toEqual([]);
    });
  });
}
