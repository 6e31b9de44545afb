import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
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

/** The first admin's password in the databases `createTestApp` seeds (the "seeded" template's). */
export const ADMIN_PASSWORD = "Initial-Pass-2026";

/** The templates a run's suites copy (tests/helpers/templates.ts builds them once, in vitest's global set-up). */
export const TEMPLATE_ENV = { sqlite: "CANTEEN_TEST_TEMPLATES_SQLITE", postgres: "CANTEEN_TEST_TEMPLATES_POSTGRES" } as const;
/** A template migrated to the latest, or migrated and seeded as `createTestApp` seeds (its admin password). */
export type Template = "migrated" | "seeded";
/** The PostgreSQL templates' one schema: a copy keeps it, so the suite works in a schema of that name. */
export const TEMPLATE_SCHEMA = "test_template";

/**
 * The SQLite file or PostgreSQL database a run's template is kept in, from the directory or database-name prefix that
 * the global set-up passes in TEMPLATE_ENV; undefined outside vitest's run (the suite then migrates its own).
 */
export function templateOf(dialect: Dialect, template: Template): string | undefined {
  const where = process.env[TEMPLATE_ENV[dialect]];
  if (!where) return undefined;
  return dialect === "sqlite" ? join(where, `${template}.db`) : `${where}_${template}`;
}

const postgresAt = (url: string, database: string) => {
  const address = new URL(url);
  address.pathname = `/${database}`;
  return address.toString();
};

/**
 * A database of its own for one suite: a temporary SQLite file or a PostgreSQL schema, removed afterwards; migrated
 * unless `migrate` is false. A migrated one is a copy of the run's template (migrated once a run, and seeded once when
 * `template` is "seeded"): the migrations and the seed ran in this run all the same, and a copy costs a file copy
 * or a `create database … template` instead of every migration and the seed again for each suite.
 */
export async function createTestDatabase(dialect: Dialect, { migrate = true, template = "migrated" as Template } = {}): Promise<TestDatabase> {
  const copyOf = migrate ? templateOf(dialect, template) : undefined;
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "canteen-test-"));
    const url = join(dir, "test.db");
    if (copyOf) copyFileSync(copyOf, url);
    const handle = await openDatabase(url);
    if (migrate && !copyOf) await migrateToLatest(handle.db);
    return {
      ...handle,
      url,
      destroy: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL as string;
  if (copyOf) {
    // A database of its own, copied from the template with the template's schema in it.
    const name = `${copyOf}_${randomBytes(6).toString("hex")}`;
    await onServer(serverUrl, `create database ${name} template ${copyOf}`);
    const url = postgresAt(serverUrl, name);
    const handle = await openDatabase(url, { schema: TEMPLATE_SCHEMA });
    return {
      ...handle,
      url,
      schema: TEMPLATE_SCHEMA,
      destroy: async () => {
        await handle.close();
        await onServer(serverUrl, `drop database ${name} with (force)`);
      },
    };
  }
  const url = await workerDatabase(serverUrl, `vitest_${process.env.VITEST_POOL_ID ?? 0}`);
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

/** One statement on the server's own database (`create database` and `drop database` run outside any other). */
export async function onServer(url: string, statement: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}
