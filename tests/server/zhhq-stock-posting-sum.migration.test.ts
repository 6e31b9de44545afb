import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { CHINA_OFFSET_MS, DAY_MS } from "../../resources/chinaTime";
import { migrateToLatest } from "../../server/db";
import * as postingSum from "../../server/db/migrations/0091_zhhq_stock_posting_sum";
import { runRequestedRecounts } from "../../server/modules/projections";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

/**
 * Migration 0091 (issue 35, decision 099): the stock moved before the postings kept their sums per warehouse and day
 * is counted once after the migrations — each tenant's own lines, in and out apart, by China day — and the ledger
 * check finds nothing; a kept sum edited by hand is named with its warehouse, day and figure. `down` takes the table
 * and the opened-at-nothing index away; `up` asks for the count again.
 */

const BEFORE = "0090_zhhq_report_indexes";
const audit = { created_at: 1, created_by: null, updated_at: 1, updated_by: null };
// 2026-11-02 00:30 and 23:30 China time: one China day, two UTC days.
const NOV_2 = Date.UTC(2026, 10, 2) - CHINA_OFFSET_MS;
const dayNo = (ms: number) => Math.floor((ms + CHINA_OFFSET_MS) / DAY_MS);

for (const dialect of dialects) {
  describe(`migration 0091 on ${dialect}`, () => {
    let database: TestDatabase;
    afterEach(async () => database?.destroy());

    test("counts each tenant's lines per warehouse and China day; the check names a kept sum edited by hand; down and up again", async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = database.db as unknown as Kysely<any>;
      await migrateToLatest(database.db, BEFORE);
      let id = 0;
      for (const tenant of [91, 92]) {
        const t = { tenant_id: tenant, ...audit };
        const k = tenant === 91 ? 1 : 10;
        await db.insertInto("tenant").values({ id: tenant, tenant_name: `迁移${tenant}`, tenant_code: `m${tenant}`, status: 1, ...audit }).execute();
        await db.insertInto("warehouse").values([1, 2].map((w) => ({ ...t, id: w, warehouse_code: `W${w}`, name: `仓库${w}` }))).execute();
        await db.insertInto("goods").values({ ...t, id: 1, goods_code: "G1", goods_name: "大米" }).execute();
        await db.insertInto("warehouse_in").values({ ...t, id: 1, doc_no: "RK1", status: 2, warehouse_id: 1, doc_date: "2026-11-02" }).execute();
        await db.insertInto("warehouse_in_line").values({ ...t, id: 1, document_id: 1, line_no: 1, goods_id: 1, quantity: 1000, price: 100, amount: 100 }).execute();
        const batch = { ...t, goods_id: 1, price: 100, quantity: 0, amount: 0, received_at: NOV_2, in_line_id: 1 };
        await db.insertInto("stock_batch").values([1, 2].map((w) => ({ ...batch, id: w, warehouse_id: w, batch_no: `B${w}` }))).execute();
        const line = (warehouseId: number, quantity: number, amount: number, occurredAt: number) => ({
          ...t,
          id: ++id,
          warehouse_id: warehouseId,
          goods_id: 1,
          batch_id: warehouseId,
          batch_no: `B${warehouseId}`,
          quantity,
          amount,
          quantity_after: 0,
          amount_after: 0,
          doc_type: "zhhq/warehouseIn",
          doc_id: 1,
          doc_line_id: id,
          operator_name: "迁移",
          occurred_at: occurredAt,
        });
        await db
          .insertInto("stock_line")
          .values([
            line(1, 5000 * k, 500 * k, NOV_2 + 30 * 60_000),
            line(1, -2000 * k, -200 * k, NOV_2 + 23.5 * 3600_000),
            line(1, 1000 * k, 100 * k, NOV_2 + 23.5 * 3600_000),
            line(2, 3000 * k, 330 * k, NOV_2 + DAY_MS),
          ])
          .execute();
      }

      await migrateToLatest(database.db);
      expect(await runRequestedRecounts(database.db)).toContain("stockPostingSums");
      const kept = async () =>
        (await db.selectFrom("stock_posting_sum").selectAll().orderBy("tenant_id").orderBy("warehouse_id").orderBy("day_no").execute()).map((r) => ({
          tenant: Number(r.tenant_id),
          warehouse: Number(r.warehouse_id),
          day: Number(r.day_no),
          // The first of the lines the row sums: its key beside the warehouse and day.
          line: Number(r.line_id),
          figures: [r.in_quantity, r.in_amount, r.out_quantity, r.out_amount].map(Number),
        }));
      const expected = [91, 92].flatMap((tenant) => {
        const [k, first] = tenant === 91 ? [1, 1] : [10, 5];
        return [
          { tenant, warehouse: 1, day: dayNo(NOV_2), line: first, figures: [6000 * k, 600 * k, 2000 * k, 200 * k] },
          { tenant, warehouse: 2, day: dayNo(NOV_2) + 1, line: first + 3, figures: [3000 * k, 330 * k, 0, 0] },
        ];
      });
      expect(await kept()).toEqual(expected);
      // The lines were written here without their balances: only the warehouses' days are this migration's.
      const warehouseDayDrifts = async (tenant: number) => (await stockLedger.check(db, tenant)).filter((d) => "day" in d.key && !("goodsId" in d.key));
      expect(await warehouseDayDrifts(91)).toEqual([]);

      await sql`update stock_posting_sum set out_amount = out_amount + 7 where tenant_id = 92 and warehouse_id = 1`.execute(db);
      expect(await warehouseDayDrifts(92)).toEqual([{ tenantId: 92, key: { warehouseId: 1, day: "2026-11-02", figure: "out_amount" }, measure: "amount", balance: 2007, lines: 2000 }]);
      // A posting's own row beside the counted one: the day is the sum of its rows.
      await sql`update stock_posting_sum set out_amount = out_amount - 7 where tenant_id = 92 and warehouse_id = 1`.execute(db);
      await db.insertInto("stock_posting_sum").values({ tenant_id: 92, warehouse_id: 2, day_no: dayNo(NOV_2) + 1, line_id: 999, in_quantity: 0, in_amount: 0, out_quantity: 0, out_amount: 0 }).execute();
      expect(await warehouseDayDrifts(92)).toEqual([]);

      await postingSum.down(db);
      const tables = async () =>
        dialect === "sqlite"
          ? (await sql<{ name: string }>`select name from sqlite_master where name in ('stock_posting_sum', 'stock_day_opened_empty_idx')`.execute(db)).rows.map((r) => r.name)
          : (await sql<{ name: string }>`select relname as name from pg_class where relname in ('stock_posting_sum', 'stock_day_opened_empty_idx') and relnamespace = current_schema()::regnamespace`.execute(db)).rows.map((r) => r.name);
      expect(await tables()).toEqual([]);
      await postingSum.up(db);
      expect((await tables()).sort()).toEqual(["stock_day_opened_empty_idx", "stock_posting_sum"]);
      expect(await runRequestedRecounts(database.db)).toEqual(["stockPostingSums"]);
      expect(await kept()).toEqual(expected);
    });
  });
}
