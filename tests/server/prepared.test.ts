import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertRow, runPrepared } from "../../server/db/prepared";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

for (const dialect of dialects) {
  describe(dialect, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const now = Date.now();
      await database.db
        .insertInto("tenant")
        .values([1, 2, 3].map((id) => ({ id: 900 + id, tenant_name: `食堂${id}`, tenant_code: `c${id}`, status: id === 3 ? 0 : 1, created_at: now, updated_at: now })))
        .execute();
    });
    afterAll(() => database.destroy());

    const enabledByCode = (code: string) =>
      runPrepared<{ id: number }>(database.db, "test enabled tenant by code", [code], ([value]) =>
        database.db.selectFrom("tenant").select("id").where("tenant_code", "=", value as string).where("status", "=", 1),
      );

    test("a shape compiled once runs with each call's arguments, and keeps its own constants", async () => {
      expect(await enabledByCode("c1")).toEqual([{ id: 901 }]);
      expect(await enabledByCode("c2")).toEqual([{ id: 902 }]);
      // c3 is disabled: the constant status = 1 of the shape still applies.
      expect(await enabledByCode("c3")).toEqual([]);
    });

    test("an argument used twice is sent in both places", async () => {
      const between = (id: number) =>
        runPrepared<{ id: number }>(database.db, "test tenant around id", [id], ([value]) =>
          database.db.selectFrom("tenant").select("id").where("id", ">=", value as number).where("id", "<=", value as number),
        );
      expect(await between(902)).toEqual([{ id: 902 }]);
      expect(await between(903)).toEqual([{ id: 903 }]);
    });

    test("a shape compiled on the database is not compiled again inside a transaction", async () => {
      let builds = 0;
      const byId = (db: typeof database.db, id: number) =>
        runPrepared<{ tenant_code: string }>(db, "test tenant code by id", [id], ([value]) => {
          builds++;
          return db.selectFrom("tenant").select("tenant_code").where("id", "=", value as number);
        });
      expect(await byId(database.db, 901)).toEqual([{ tenant_code: "c1" }]);
      expect(await database.db.transaction().execute((trx) => byId(trx, 902))).toEqual([{ tenant_code: "c2" }]);
      expect(await database.db.connection().execute((conn) => byId(conn, 903))).toEqual([{ tenant_code: "c3" }]);
      expect(builds).toBe(1);
    });

    test("insertRow writes each row's own values, an undefined one as null", async () => {
      const now = Date.now();
      await insertRow(database.db, "tenant", { id: 911, tenant_name: "食堂11", tenant_code: "c11", status: 1, remark: "甲", created_at: now, updated_at: now });
      await insertRow(database.db, "tenant", { id: 912, tenant_name: "食堂12", tenant_code: "c12", status: 0, remark: undefined, created_at: now, updated_at: now });
      const rows = await database.db.selectFrom("tenant").select(["id", "tenant_name", "status", "remark"]).where("id", "in", [911, 912]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: 911, tenant_name: "食堂11", status: 1, remark: "甲" },
        { id: 912, tenant_name: "食堂12", status: 0, remark: null },
      ]);
    });

    test("a builder that does not pass an argument to Kysely as a value is refused", async () => {
      await expect(
        runPrepared(database.db, "test misuse", ["c1"], ([value]) =>
          database.db.selectFrom("tenant").select("id").where("tenant_code", "=", String(value)),
        ),
      ).rejects.toThrow(/does not use each of its 1 arguments/);
    });
  });
}
