import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { migrateToLatest } from "../../server/db";
import * as receiver from "../../server/db/migrations/0084_zhhq_stock_out_receiver";
import { readTable } from "../../server/db/tables";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

/**
 * Migration 0084 (issue 35): a stock-out made before 领用餐厅/部门 existed went to the restaurant its warehouse serves,
 * and is filled so; one from a warehouse serving none stays empty. Its `down` takes the column, its key and its index
 * away on both databases, and `up` again fills the same.
 */

const BEFORE = "0079_sc_merchant_finance";
const audit = { created_at: 1, created_by: null, updated_at: 1, updated_by: null };

for (const dialect of dialects) {
  describe(`migration 0084 on ${dialect}`, () => {
    let database: TestDatabase;
    afterEach(async () => database?.destroy());

    test("fills each old stock-out's receiver with its warehouse's restaurant, none where the warehouse serves none; down and up again", async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = database.db as unknown as Kysely<any>;
      await migrateToLatest(database.db, BEFORE);
      await db.insertInto("tenant").values({ id: 84, tenant_name: "迁移食堂", tenant_code: "m84", status: 1, ...audit }).execute();
      for (const [id, name] of [[841, "一食堂"], [842, "二食堂"]] as const)
        await db.insertInto("org").values({ tenant_id: 84, id, org_name: name, org_type: "restaurant", status: 1, ...audit }).execute();
      for (const [id, restaurant] of [[1, 841], [2, 842], [3, null]] as const)
        await db.insertInto("warehouse").values({ tenant_id: 84, id, warehouse_code: `W${id}`, name: `仓${id}`, restaurant_id: restaurant, ...audit }).execute();
      for (const [id, warehouse] of [[11, 1], [12, 1], [21, 2], [31, 3]] as const)
        await db.insertInto("warehouse_out").values({ tenant_id: 84, id, doc_no: `CK${id}`, status: 2, warehouse_id: warehouse, doc_date: "2026-11-01", ...audit }).execute();

      // Up to this migration only: a later one may build on its column (0089's covering index of a day's stock-outs
      // names the receiver), and migrations go down in the reverse order they went up.
      await migrateToLatest(database.db, "0084_zhhq_stock_out_receiver");
      const filled = async () =>
        (await db.selectFrom("warehouse_out").select(["id", "receiver_org_id"]).where("tenant_id", "=", 84).orderBy("id").execute()).map((r) => [Number(r.id), r.receiver_org_id === null ? null : Number(r.receiver_org_id)]);
      expect(await filled()).toEqual([[11, 841], [12, 841], [21, 842], [31, null]]);
      const after = await readTable(db, dialect, "warehouse_out");
      expect(after?.foreignKeys).toContainEqual({ columns: ["tenant_id", "receiver_org_id"], table: "org", to: ["tenant_id", "id"] });
      // The key holds: a receiver that is no org of the tenant is refused.
      await expect(db.updateTable("warehouse_out").set({ receiver_org_id: 999 }).where("tenant_id", "=", 84).where("id", "=", 31).execute()).rejects.toThrow(/foreign key/i);

      await receiver.down(db);
      const down = await readTable(db, dialect, "warehouse_out");
      expect(down?.columns.map((c) => c.name)).not.toContain("receiver_org_id");
      expect(down?.foreignKeys.map((k) => k.columns.join())).not.toContain("tenant_id,receiver_org_id");
      // Every other key, index and row is as it was.
      expect(down?.foreignKeys).toEqual(after?.foreignKeys.filter((k) => !k.columns.includes("receiver_org_id")));
      expect(down?.unique).toEqual(after?.unique);
      expect(Number((await db.selectFrom("warehouse_out").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n)).toBe(4);
      const indexes = dialect === "sqlite" ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'warehouse_out'`.execute(db)).rows.map((r) => r.name) : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'warehouse_out' and schemaname = current_schema()`.execute(db)).rows.map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(["warehouse_out_status_idx", "warehouse_out_warehouse_id_idx"]));
      expect(indexes).not.toContain("warehouse_out_receiver_org_id_idx");
      if (dialect === "sqlite") expect((await sql`select * from pragma_foreign_key_check('warehouse_out')`.execute(db)).rows).toEqual([]);

      await receiver.up(db);
      expect(await filled()).toEqual([[11, 841], [12, 841], [21, 842], [31, null]]);
      expect((await readTable(db, dialect, "warehouse_out"))?.foreignKeys).toEqual(after?.foreignKeys);
    });
  });
}
