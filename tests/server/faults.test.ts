import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Db } from "../../server/db";
import { databaseFault } from "../../server/db/faults";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";

async function rows(db: Db, table: "org" | "operation_log") {
  return Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
}

// Disk full is simulated with SQLite's max_page_count: past it SQLite answers SQLITE_FULL exactly as on a full disk
// (decision 013; e2e/faults.spec.ts fills a real tmpfs when it can mount one).
describe("sqlite: storage full", () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await createTestApp("sqlite");
    token = await adminToken(app);
  });
  afterAll(() => app.close());

  test("a write that does not fit answers 503 存储空间不足, leaves nothing behind, and writes again once there is room", async () => {
    const { db } = app.database;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const create = (i: number) =>
      app.call("POST", "/api/v1/auth/org/create", { token, body: { orgName: `满盘机构${i}`, orgCode: `FULL${i}`, orgType: "org", status: "1", remark: "备注".repeat(200) } });
    const [{ page_count }] = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows;
    await sql.raw(`pragma max_page_count = ${page_count}`).execute(db);
    try {
      let refused = null;
      for (let i = 0; i < 200 && !refused; i++) {
        const before = { org: await rows(db, "org"), log: await rows(db, "operation_log") };
        const result = await create(i);
        if (result.http === 200) continue;
        refused = result;
        expect(result.http).toBe(503);
        expect(result.body).toEqual({ status: 503, message: "存储空间不足，数据未保存", data: null });
        // The org and its operation-log row went together or not at all.
        expect({ org: await rows(db, "org"), log: await rows(db, "operation_log") }).toEqual(before);
      }
      expect(refused).not.toBeNull();
      const logged = errors.mock.calls.map((c) => c.join(" ")).join("\n");
      expect(logged).toContain("存储空间不足");
      expect(logged).not.toContain("cannot rollback");
      expect(errors.mock.calls.length).toBe(1);
    } finally {
      await sql.raw("pragma max_page_count = 1073741823").execute(db);
      errors.mockRestore();
    }
    const again = await create(999);
    expect(again.body.status).toBe(200);
    expect((await app.call("GET", "/api/v1/auth/org/findPage?orgName=满盘机构999", { token })).body).toMatchObject({ data: { total: 1 } });
  });
});

describe("which errors are database faults", () => {
  test("connection losses and PostgreSQL shutdown codes are 'unavailable', SQLITE_FULL is 'full', the rest are not faults", () => {
    const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
    expect(databaseFault(withCode("terminating connection due to administrator command", "57P01"))).toBe("unavailable");
    expect(databaseFault(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe("unavailable");
    expect(databaseFault(new Error("Connection terminated unexpectedly"))).toBe("unavailable");
    expect(databaseFault(withCode("cannot execute INSERT in a read-only transaction", "25006"))).toBe("unavailable");
    expect(databaseFault(withCode("database or disk is full", "SQLITE_FULL"))).toBe("full");
    expect(databaseFault(withCode('duplicate key value violates unique constraint "x"', "23505"))).toBeNull();
    expect(databaseFault(withCode("UNIQUE constraint failed: org.id", "SQLITE_CONSTRAINT_PRIMARYKEY"))).toBeNull();
    expect(databaseFault(new TypeError("x is undefined"))).toBeNull();
  });
});
