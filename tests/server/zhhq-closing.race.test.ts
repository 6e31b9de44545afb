import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaDay } from "../../resources/chinaTime";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row } from "../helpers/stock";
import { createTenantWithAdmin } from "../helpers/tenants";

/**
 * A posting dated into a month that has no row of the month's account yet, racing 转正式 of that month (decision 085):
 * whichever goes first, the formal month's rows hold every movement dated into it — the approval is in them, or it
 * was refused `YYYY-MM 已结账`. Before the month's advisory lock, on PostgreSQL the posting's guard found no row to
 * hold, and could commit a line into a month already made formal without it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function lastMonth(): string {
  const [y, m] = chinaDay(Date.now()).slice(0, 7).split("-").map(Number);
  const index = y * 12 + (m - 1) - 1;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

for (const dialect of dialects) {
  describe(`${dialect}: a back-dated posting racing 转正式 of its month`, () => {
    let app: TestApp;
    let db: AnyDb;
    let superToken: string;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      superToken = await adminToken(app);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("the formal month's rows hold every line dated into it, whichever of the two went first", async () => {
      const month = lastMonth();
      for (let round = 0; round < 4; round++) {
        // A tenant a round: its month has no row yet, and no earlier month with movements stands open.
        const tenant = await createTenantWithAdmin(app, superToken, `race${dialect}${round}`);
        const api = stockClient(app, () => tenant.token);
        const warehouseId = await api.warehouse();
        const goods = [];
        for (let i = 0; i < 20; i++) goods.push(await api.goods());
        const { id } = await api.create("warehouseIn", { warehouseId, docDate: `${month}-10`, lines: goods.map((goodsId) => ({ goodsId, quantity: 2, price: 150 })) });
        expect(await api.step("warehouseIn", "submit", { id })).toMatchObject({ status: 200 });

        const [approval, confirm] = await Promise.all([api.step("warehouseIn", "approve", { id }), api.post("warehouseAccountMonthSettle/confirm", { month })]);
        expect(confirm).toMatchObject({ status: 200, data: { month, status: 1 } });
        if (approval.status !== 200) expect(approval).toMatchObject({ status: 409, message: `${month} 已结账` });

        const lines = (await db
          .selectFrom("stock_line")
          .select([db.fn.count<number>("id").as("n"), db.fn.sum<number>("quantity").as("q")])
          .where("tenant_id", "=", tenant.tenantId)
          .where("doc_date", "like", `${month}-%`)
          .executeTakeFirstOrThrow()) as Row;
        const rows = await api.records("warehouseAccountMonthSettle", { month, pageSize: 100 });
        const inQuantity = rows.reduce((sum, r) => sum + Number(r.inQuantity), 0);
        expect(inQuantity).toBe(Number(lines.q ?? 0) / 1000);
        expect(Number(lines.n)).toBe(approval.status === 200 ? 20 : 0);
        expect(await stockLedger.check(db, tenant.tenantId)).toEqual([]);
      }
    }, 240_000);
  });
}
