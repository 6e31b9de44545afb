import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { documents } from "../../resources/index";
import { migrateToLatest } from "../../server/db";
import * as keptTotals from "../../server/db/migrations/0089_stock_document_kept_totals";
import { readTable } from "../../server/db/tables";
import { keptTotalDrifts } from "../../server/kernel/transitions";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

/**
 * Migration 0089 (issue 37, decision 094): the four stock documents written before their headers kept their lines'
 * amount get it from their lines — each tenant's own, a draft whose lines have no cost yet 0, a document without
 * lines 0 — and the ledger check finds nothing to report; the cost reports' date index is made. Its `down` takes the
 * columns and the indexes away, and `up` fills and makes the same.
 */

const BEFORE = "0088_zhhq_stock_day";
const audit = { created_at: 1, created_by: null, updated_at: 1, updated_by: null };
const HEADERS = ["warehouse_in", "warehouse_in_return", "warehouse_out", "warehouse_out_return"];

for (const dialect of dialects) {
  describe(`migration 0089 on ${dialect}`, () => {
    let database: TestDatabase;
    afterEach(async () => database?.destroy());

    test("fills each stock document's amount_total from its own lines; down and up again", async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = database.db as unknown as Kysely<any>;
      await migrateToLatest(database.db, BEFORE);
      // Two tenants whose rows have the same ids: a header sums its own tenant's lines only.
      for (const tenant of [89, 90]) {
        const t = { tenant_id: tenant, ...audit };
        const k = tenant === 89 ? 1 : 10;
        await db.insertInto("tenant").values({ id: tenant, tenant_name: `迁移${tenant}`, tenant_code: `m${tenant}`, status: 1, ...audit }).execute();
        await db.insertInto("warehouse").values({ ...t, id: 1, warehouse_code: "W1", name: "仓库" }).execute();
        await db.insertInto("goods").values({ ...t, id: 1, goods_code: "G1", goods_name: "大米" }).execute();
        const header = { ...t, status: 2, warehouse_id: 1, doc_date: "2026-11-01" };
        const line = (id: number, documentId: number, lineNo: number, amount: number | null) => ({ ...t, id, document_id: documentId, line_no: lineNo, goods_id: 1, quantity: 1000, amount });
        await db.insertInto("warehouse_in").values([{ ...header, id: 11, doc_no: "RK11" }, { ...header, id: 12, doc_no: "RK12" }]).execute();
        await db.insertInto("warehouse_in_line").values([{ ...line(111, 11, 1, 300 * k), price: 300 * k }, { ...line(112, 11, 2, 700 * k), price: 700 * k }]).execute();
        await db.insertInto("warehouse_out").values([{ ...header, id: 21, doc_no: "CK21" }, { ...header, id: 22, doc_no: "CK22", status: 0 }]).execute();
        await db.insertInto("warehouse_out_line").values([line(211, 21, 1, 250 * k), line(212, 21, 2, 50 * k), line(221, 22, 1, null)]).execute();
        await db.insertInto("warehouse_in_return").values({ ...header, id: 31, doc_no: "RT31", warehouse_in_id: 11 }).execute();
        await db.insertInto("warehouse_in_return_line").values({ ...line(311, 31, 1, 120 * k), in_line_id: 111 }).execute();
        await db.insertInto("warehouse_out_return").values({ ...header, id: 41, doc_no: "TK41", warehouse_out_id: 21 }).execute();
        await db.insertInto("warehouse_out_return_line").values({ ...line(411, 41, 1, 30 * k), out_line_id: 211 }).execute();
      }

      await migrateToLatest(database.db);
      const filled = async () => {
        const all: Array<[string, number, number, number]> = [];
        for (const table of HEADERS) {
          const rows = await db.selectFrom(table).select(["tenant_id", "id", "amount_total"]).orderBy("tenant_id").orderBy("id").execute();
          all.push(...rows.map((r): [string, number, number, number] => [table, Number(r.tenant_id), Number(r.id), Number(r.amount_total)]));
        }
        return all;
      };
      const expected = [
        ["warehouse_in", 89, 11, 1000],
        ["warehouse_in", 89, 12, 0],
        ["warehouse_in", 90, 11, 10000],
        ["warehouse_in", 90, 12, 0],
        ["warehouse_in_return", 89, 31, 120],
        ["warehouse_in_return", 90, 31, 1200],
        ["warehouse_out", 89, 21, 300],
        ["warehouse_out", 89, 22, 0],
        ["warehouse_out", 90, 21, 3000],
        ["warehouse_out", 90, 22, 0],
        ["warehouse_out_return", 89, 41, 30],
        ["warehouse_out_return", 90, 41, 300],
      ];
      expect(await filled()).toEqual(expected);
      const kept = documents.filter((d) => d.keptTotals.length);
      expect(kept.map((d) => d.header.table).sort()).toEqual(HEADERS);
      for (const doc of kept) expect(await keptTotalDrifts(db, doc)).toEqual([]);
      const column = async (table: string) => (await readTable(db, dialect, table))?.columns.find((c) => c.name === "amount_total");
      for (const table of HEADERS) expect(await column(table)).toMatchObject({ name: "amount_total", type: "bigint", notNull: true });
      const indexes = async () =>
        dialect === "sqlite"
          ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name like 'warehouse_out%'`.execute(db)).rows.map((r) => r.name)
          : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename like 'warehouse_out%' and schemaname = current_schema()`.execute(db)).rows.map((r) => r.name);
      expect(await indexes()).toEqual(expect.arrayContaining(["warehouse_out_day_idx", "warehouse_out_return_day_idx", "warehouse_out_status_idx"]));

      await keptTotals.down(db);
      for (const table of HEADERS) expect(await column(table)).toBeUndefined();
      expect(await indexes()).not.toEqual(expect.arrayContaining(["warehouse_out_day_idx"]));
      expect(await indexes()).not.toEqual(expect.arrayContaining(["warehouse_out_return_day_idx"]));
      expect(Number((await db.selectFrom("warehouse_out_line").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n)).toBe(6);

      await keptTotals.up(db);
      expect(await filled()).toEqual(expected);
      expect(await indexes()).toEqual(expect.arrayContaining(["warehouse_out_day_idx", "warehouse_out_return_day_idx"]));
    });
  });
}
