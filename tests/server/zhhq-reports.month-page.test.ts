import { sql, type Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { chinaDayStart, chinaMonth, chinaMonthRange } from "../../resources/chinaTime";
import { warehouseIn, warehouseOut } from "../../resources/zhhq/stock";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * 库存月报 over several months, a formal one and open ones, with more rows than its page (decision 095): the page is
 * the first rows in the report's order (month, warehouse by its Chinese name, goods code) and the totals and the
 * count of the rows left out cover every row. Expected here from the ledger's own lines (an open month: by posting
 * day) and the formal month's settlement, in JavaScript of its own. The page is 5 rows in this file, so a handful of
 * keys fills several pages; the queries read the same page size wherever they read it.
 */
const { PAGE } = vi.hoisted(() => ({ PAGE: 5 }));
vi.mock("../../server/modules/report/helpers", async (importOriginal) => ({ ...(await importOriginal<typeof import("../../server/modules/report/helpers")>()), ROW_LIMIT: PAGE }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Answer = { rows: Row[]; totals: Row; truncated: number };

const num = (v: unknown) => Number(v ?? 0);
const FIGURES = ["openingQuantity", "openingAmount", "inQuantity", "inAmount", "outQuantity", "outAmount", "closingQuantity", "closingAmount"] as const;
const AMOUNTS = ["openingAmount", "inAmount", "outAmount", "closingAmount"] as const;
const zh = new Intl.Collator("zh-CN").compare;

/** The month `back` months before this one (China time), YYYY-MM. */
function monthBack(back: number): string {
  let month = chinaMonth(Date.now());
  for (let i = 0; i < back; i++) month = chinaMonth(chinaMonthRange(month).start - 1);
  return month;
}

for (const dialect of dialects) {
  describe(`${dialect}: 库存月报's page over formal and open months`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      tenant = await createTenantWithAdmin(app, await adminToken(app), `mp${dialect}`);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("the first rows in order, and totals and the count over every row, equal the ledger's and the settlement's", async () => {
      const api = stockClient(app, () => tenant.token);
      // Warehouses by name as Chinese sorts them: 丙 (bǐng), 甲 (jiǎ), 乙 (yǐ); goods by code: G1, G2, G3.
      const warehouse = async (warehouseName: string) => (await api.ok<{ id: number }>("warehouse/create", { warehouseName })).id;
      const [jia, yi, bing] = [await warehouse("甲仓"), await warehouse("乙仓"), await warehouse("丙仓")];
      const [g3, g1, g2] = [await api.goods({ goodsCode: "G3" }), await api.goods({ goodsCode: "G1" }), await api.goods({ goodsCode: "G2" })];
      const supplierId = await api.supplier();
      const [m3, m2, m1, m0] = [monthBack(3), monthBack(2), monthBack(1), monthBack(0)];
      /** A document dated `day` of a past month and posted on it, as though approved that day. */
      const dated = async (doc: "warehouseIn" | "warehouseOut", day: string, body: Row) => {
        const id = await api.approved(doc, { ...body, docDate: day });
        await db
          .updateTable("stock_line")
          .set({ occurred_at: chinaDayStart(day) + 10 * 3600_000 })
          .where("tenant_id", "=", tenant.tenantId)
          .where("doc_type", "=", (doc === "warehouseIn" ? warehouseIn : warehouseOut).docType)
          .where("doc_id", "=", id)
          .execute();
      };
      const stockIn = (warehouseId: number, goodsId: number, quantity: number, price: number) => ({ warehouseId, supplierId, lines: [{ goodsId, quantity, price }] });
      const stockOut = (warehouseId: number, goodsId: number, quantity: number) => ({ warehouseId, lines: [{ goodsId, quantity }] });

      await dated("warehouseIn", `${m3}-10`, stockIn(bing, g1, 10, 100));
      await dated("warehouseIn", `${m3}-10`, stockIn(jia, g2, 5, 200));
      await dated("warehouseIn", `${m3}-11`, stockIn(yi, g3, 4, 50));
      await stockLedger.recount(db, tenant.tenantId);
      expect((await api.post("warehouseAccountMonthSettle/confirm", { month: m3 })).status).toBe(200);
      // Two months back 甲仓 issues all of G2 (its stock is nothing from then on) and 乙仓 all of G3 (nothing until this
      // month brings more); a month back G1 first comes to 甲仓, runs out and comes again within the month.
      await dated("warehouseIn", `${m2}-12`, stockIn(bing, g2, 3, 300));
      await dated("warehouseOut", `${m2}-13`, stockOut(jia, g2, 5));
      await dated("warehouseOut", `${m2}-14`, stockOut(yi, g3, 4));
      await dated("warehouseIn", `${m1}-05`, stockIn(jia, g1, 2, 100));
      await dated("warehouseOut", `${m1}-06`, stockOut(bing, g1, 4));
      await dated("warehouseOut", `${m1}-07`, stockOut(jia, g1, 2));
      await dated("warehouseIn", `${m1}-09`, stockIn(jia, g1, 1, 120));
      await stockLedger.recount(db, tenant.tenantId);
      await api.approved("warehouseIn", stockIn(yi, g1, 1, 10));
      await api.approved("warehouseOut", stockOut(bing, g2, 1));
      await api.approved("warehouseIn", stockIn(yi, g3, 2, 60));

      // Every row of the four months, from the lines (open months) and the settlement (the formal one).
      const names = new Map([[jia, "甲仓"], [yi, "乙仓"], [bing, "丙仓"]]);
      const codes = new Map([[g1, "G1"], [g2, "G2"], [g3, "G3"]]);
      const lines = (await db.selectFrom("stock_line").select(["warehouse_id", "goods_id", "quantity", "amount", "occurred_at"]).where("tenant_id", "=", tenant.tenantId).execute()) as Row[];
      const settled = (await db.selectFrom("stock_month_settle").selectAll().where("tenant_id", "=", tenant.tenantId).where("month", "=", m3).execute()) as Row[];
      const keys = [...new Set(lines.map((l) => `${l.warehouse_id}:${l.goods_id}`))].map((k) => k.split(":").map(Number));
      const expected: Row[] = settled.map((s) => ({
        month: m3,
        warehouseName: names.get(num(s.warehouse_id)),
        goodsCode: codes.get(num(s.goods_id)),
        ...Object.fromEntries(FIGURES.map((f) => [f, num(s[f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)])])),
      }));
      for (const month of [m2, m1, m0]) {
        const { start, end } = chinaMonthRange(month);
        for (const [warehouseId, goodsId] of keys) {
          const mine = lines.filter((l) => num(l.warehouse_id) === warehouseId && num(l.goods_id) === goodsId);
          const sum = (pick: (l: Row) => boolean, what: "quantity" | "amount") => mine.filter(pick).reduce((s, l) => s + num(l[what]), 0);
          const within = (l: Row) => num(l.occurred_at) >= start && num(l.occurred_at) < end;
          const before = (l: Row) => num(l.occurred_at) < start;
          const [openingQ, openingA] = [sum(before, "quantity"), sum(before, "amount")];
          if (!mine.some(within) && openingQ === 0 && openingA === 0) continue;
          const [inQ, inA] = [sum((l) => within(l) && num(l.quantity) > 0, "quantity"), sum((l) => within(l) && num(l.quantity) > 0, "amount")];
          const [outQ, outA] = [0 - sum((l) => within(l) && num(l.quantity) < 0, "quantity") || 0, 0 - sum((l) => within(l) && num(l.quantity) < 0, "amount") || 0];
          expected.push({ month, warehouseName: names.get(warehouseId), goodsCode: codes.get(goodsId), openingQuantity: openingQ, openingAmount: openingA, inQuantity: inQ, inAmount: inA, outQuantity: outQ, outAmount: outA, closingQuantity: openingQ + inQ - outQ, closingAmount: openingA + inA - outA });
        }
      }
      expected.sort((a, b) => String(a.month).localeCompare(String(b.month)) || zh(String(a.warehouseName), String(b.warehouseName)) || String(a.goodsCode).localeCompare(String(b.goodsCode)));
      // The formal month's 3 keys; then 4, 3 and 5: 甲仓's G2 is no row once it holds nothing, its G1 none before it came;
      // 乙仓's G3 none in the month it held nothing between running out and coming again.
      expect(expected.map((r) => r.month)).toEqual([m3, m3, m3, m2, m2, m2, m2, m1, m1, m1, m0, m0, m0, m0, m0]);
      expect(expected.filter((r) => r.month === m1).map((r) => `${r.warehouseName}${r.goodsCode}`)).toEqual(["丙仓G1", "丙仓G2", "甲仓G1"]);
      expect(expected.filter((r) => r.month === m0).map((r) => `${r.warehouseName}${r.goodsCode}`)).toEqual(["丙仓G1", "丙仓G2", "甲仓G1", "乙仓G1", "乙仓G3"]);

      const report = async (query: Row) => {
        const params = new URLSearchParams(Object.entries({ fromMonth: m3, toMonth: m0, ...query }).map(([k, v]) => [k, String(v)]));
        const body = (await app.call<Answer>("GET", `/api/v1/zhhq/warehouseMonthReport?${params}`, { token: tenant.token })).body;
        expect(body.status, JSON.stringify(body)).toBe(200);
        return body.data;
      };
      const shown = (r: Row) => ({ month: r.month, warehouseName: r.warehouseName, goodsCode: r.goodsCode, ...Object.fromEntries(FIGURES.map((f) => [f, num(r[f])])) });
      const totals = (rows: Row[]) => Object.fromEntries(AMOUNTS.map((f) => [f, rows.reduce((s, r) => s + num(r[f]), 0)]));
      for (const [query, rows] of [
        [{}, expected],
        // One warehouse: its page runs through the formal month and two open ones.
        [{ warehouseId: bing }, expected.filter((r) => r.warehouseName === "丙仓")],
        [{ goodsCode: "G1" }, expected.filter((r) => r.goodsCode === "G1")],
      ] as const) {
        const answer = await report(query);
        expect(answer.rows.map(shown), JSON.stringify(query)).toEqual(rows.slice(0, PAGE));
        expect(answer.truncated).toBe(Math.max(0, rows.length - PAGE));
        expect(Object.fromEntries(AMOUNTS.map((f) => [f, num(answer.totals[f])]))).toEqual(totals(rows));
      }
      // The open months alone: the page is the first of them, cut inside a month.
      const open = expected.filter((r) => r.month !== m3);
      const fromOpen = await report({ fromMonth: m2 });
      expect(fromOpen.rows.map(shown)).toEqual(open.slice(0, PAGE));
      expect(fromOpen.truncated).toBe(open.length - PAGE);
      expect(Object.fromEntries(AMOUNTS.map((f) => [f, num(fromOpen.totals[f])]))).toEqual(totals(open));
      // This month alone fits the page; its closing is the ledger's balance.
      const now = await report({ fromMonth: m0 });
      expect(now.rows.map(shown)).toEqual(expected.filter((r) => r.month === m0));
      expect(now.truncated).toBe(0);
      expect(num(now.totals.closingAmount)).toBe(num((await sql<{ s: number }>`select coalesce(sum(amount), 0) as s from stock_line where tenant_id = ${tenant.tenantId}`.execute(db)).rows[0].s));
    });
  });
}
