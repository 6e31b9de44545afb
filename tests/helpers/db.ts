import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { migrateToLatest, openDatabase, type DatabaseHandle, type Dialect } from "../../server/db";

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestDatabase extends DatabaseHandle {
  url: string;
  /** PostgreSQL: the suite's schema. */
  schema?: string;
  destroy(): Promise<void>;
}

/** The same database opened again, as another process would: connections of its own, nothing else shared. */
export function openAgain(database: TestDatabase): Promise<DatabaseHandle> {
  return openDatabase(database.url, database.schema ? { schema: database.schema } : {});
}

/**
 * A database of its own for one suite: a temporary SQLite file or a PostgreSQL schema, removed afterwards; migrated
 * unless `migrate` is false.
 */
export async function createTestDatabase(dialect: Dialect, { migrate = true } = {}): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "canteen-test-"));
    const url = join(dir, "test.db");
    const handle = await openDatabase(url);
    if (migrate) await migrateToLatest(handle.db);
    return {
      ...handle,
      url,
      destroy: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = await openDatabase(url, { schema });
  if (migrate) await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    schema,
    destroy: async () => {
      await handle.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
