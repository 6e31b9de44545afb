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

const workerDatabases = new Map<string, Promise<string>>();

/**
 * The address of a PostgreSQL database for one test worker, created on first use beside the one `url` names. Kysely's
 * migrator reads the catalog of every schema in its database, and a schema that another worker drops meanwhile fails
 * that read ("schema … does not exist"); in a database of its own a worker meets only its own schemas, one at a time.
 */
export function workerDatabase(url: string, worker: string): Promise<string> {
  let created = workerDatabases.get(worker);
  if (!created) {
    created = (async () => {
      // Runs that share a machine (E2E_PORT_BASE tells them apart) share its PostgreSQL too: a database per run and worker.
      const name = `canteen_test_${process.env.E2E_PORT_BASE ?? 3210}_${worker}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } catch (error) {
        // 42P04: it exists already, from an earlier run.
        if ((error as { code?: string }).code !== "42P04") throw error;
      } finally {
        await admin.end();
      }
      const address = new URL(url);
      address.pathname = `/${name}`;
      return address.toString();
    })();
    workerDatabases.set(worker, created);
  }
  return created;
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
  const url = await workerDatabase(process.env.TEST_DATABASE_URL as string, `vitest_${process.env.VITEST_POOL_ID ?? 0}`);
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
