import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { chinaMonth, DAY_MS } from "../../resources/chinaTime";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { purchaseClient, type PurchaseClient } from "../helpers/purchase";
import type { Row } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * 采购统计 with more rows than its page: the answer is the first rows in the report's order (month, supplier by its
 * Chinese name, goods code), and the totals, the count of the rows left out and the price trend's months cover every
 * row. The page is 3 rows in this file; the report reads the same page size wherever it reads it.
 */
const { PAGE } = vi.hoisted(() => ({ PAGE: 3 }));
vi.mock("../../server/modules/report/helpers", async (importOriginal) => ({ ...(await importOriginal<typeof import("../../server/modules/report/helpers")>()), ROW_LIMIT: PAGE }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Answer = { rows: Row[]; totals: Row; truncated: number; more: boolean; chartRows?: Row[] };

const thisMonth = () => chinaMonth(Date.now());
const lastMonth = () => chinaMonth(Date.now() - 40 * DAY_MS);

for (const dialect of dialects) {
  describe(`${dialect}: 采购统计's page of a longer answer`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let api: PurchaseClient;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      tenant = await createTenantWithAdmin(app, await adminToken(app), `pp${dialect}`);
      api = purchaseClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("the first rows in order, with totals, the rows left out and each month's prices over all of them", async () => {
      const warehouseId = await api.warehouse();
      // Created first, named last: the order is by name (李 before 张), not by id.
      const zhang = await api.supplier();
      const li = await api.supplier();
      const db = app.database.db as AnyDb;
      await db.updateTable("supplier").set({ supplier_name: "张记粮油" }).where("tenant_id", "=", tenant.tenantId).where("id", "=", zhang).execute();
      await db.updateTable("supplier").set({ supplier_name: "李记蔬菜" }).where("tenant_id", "=", tenant.tenantId).where("id", "=", li).execute();
      const uid = api.uid();
      const [a, b] = [await api.goods({ goodsCode: `A${uid}` }), await api.goods({ goodsCode: `B${uid}` })];
      for (const supplierId of [zhang, li]) for (const goodsId of [a, b]) await api.contract(supplierId, goodsId, 100);
      // Each supplier: an order of both goods last month (10 and 20 units) and this month (30 and 40).
      const orders: number[] = [];
      for (const supplierId of [zhang, li]) {
        const old = await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: b, quantity: 20, price: 200 }, { goodsId: a, quantity: 10, price: 100 }] });
        await db.updateTable("purchase_order").set({ doc_date: `${lastMonth()}-15` }).where("tenant_id", "=", tenant.tenantId).where("id", "=", old).execute();
        orders.push(old, await api.approvedOrder({ supplierId, warehouseId, lines: [{ goodsId: a, quantity: 30, price: 300 }, { goodsId: b, quantity: 40, price: 400 }] }));
      }

      const answer = (await app.call<Answer>("GET", `/api/v1/zhhq/purchaseReport?fromMonth=${lastMonth()}&toMonth=${thisMonth()}`, { token: tenant.token })).body;
      expect(answer.status).toBe(200);
      const data = answer.data!;
      // Of 8 rows (2 months × 2 suppliers × 2 goods), the first 3.
      expect(data.rows.map((r) => [r.month, r.supplierName, r.goodsCode, r.orderQuantity])).toEqual([
        [lastMonth(), "李记蔬菜", `A${uid}`, 10_000],
        [lastMonth(), "李记蔬菜", `B${uid}`, 20_000],
        [lastMonth(), "张记粮油", `A${uid}`, 10_000],
      ]);
      expect(data.truncated).toBe(5);
      expect(data.more).toBe(true);
      // 2 × (10 × 1.00 + 20 × 2.00 + 30 × 3.00 + 40 × 4.00) yuan, in fen; four orders.
      expect(data.totals).toMatchObject({ orderAmount: 60_000, receivedAmount: 0, confirmedAmount: 0, orderCount: orders.length });
      expect(data.chartRows).toEqual([
        { month: lastMonth(), orderAmount: 10_000, orderQuantity: 60_000 },
        { month: thisMonth(), orderAmount: 50_000, orderQuantity: 140_000 },
      ]);

      // One supplier's: its first month's 2 rows are short of the page, which goes on into the next month.
      const one = (await app.call<Answer>("GET", `/api/v1/zhhq/purchaseReport?fromMonth=${lastMonth()}&toMonth=${thisMonth()}&supplierId=${li}`, { token: tenant.token })).body.data!;
      expect(one.rows.map((r) => [r.month, r.supplierName, r.goodsCode, r.orderQuantity, r.orderCount])).toEqual([
        [lastMonth(), "李记蔬菜", `A${uid}`, 10_000, 1],
        [lastMonth(), "李记蔬菜", `B${uid}`, 20_000, 1],
        [thisMonth(), "李记蔬菜", `A${uid}`, 30_000, 1],
      ]);
      expect(one.truncated).toBe(1);
      expect(one.totals).toMatchObject({ orderAmount: 30_000, orderCount: 2 });
      expect(one.chartRows).toEqual([
        { month: lastMonth(), orderAmount: 5_000, orderQuantity: 30_000 },
        { month: thisMonth(), orderAmount: 25_000, orderQuantity: 70_000 },
      ]);
    });
  });
}
