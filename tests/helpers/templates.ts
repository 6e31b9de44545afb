import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { migrateToLatest, openDatabase, type Dialect } from "../../server/db";
import { seed } from "../../server/modules/seed";
import { ADMIN_PASSWORD, onServer, TEMPLATE_ENV, TEMPLATE_SCHEMA, templateOf } from "./db";

/**
 * vitest's global set-up: the run's templates, migrated and migrated-and-seeded, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL, that every suite's database copies (tests/helpers/db.ts). Migrating and seeding took
 * a suite 10–30 s per database on a loaded machine; a copy takes a fraction of a second.
 */
export default async function buildTemplates() {
  const dir = mkdtempSync(join(tmpdir(), "canteen-templates-"));
  process.env[TEMPLATE_ENV.sqlite] = dir;
  const serverUrl = process.env.TEST_DATABASE_URL;
  // Runs that share a machine share its PostgreSQL too: a run's templates carry its process id, so one run never
  // drops another's (two runs at one port base did), and a stopped run's are dropped by the next while it is gone.
  if (serverUrl) {
    process.env[TEMPLATE_ENV.postgres] = `${TEMPLATE_PREFIX}${process.pid}`;
    await dropLeftTemplates(serverUrl);
  }
  await Promise.all([buildSqlite(), ...(serverUrl ? [buildPostgres(serverUrl)] : [])]);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (serverUrl) for (const template of ["seeded", "migrated"] as const) await dropTemplate(serverUrl, "postgres", template);
  };
}

async function buildSqlite() {
  const work = join(process.env[TEMPLATE_ENV.sqlite] as string, "work.db");
  const handle = await openDatabase(work);
  await migrateToLatest(handle.db);
  await handle.close();
  // A file of one piece (no WAL beside it), as a copy needs.
  const file = new SQLite(work);
  file.prepare("VACUUM INTO ?").run(templateOf("sqlite", "migrated"));
  file.close();
  const seeded = await openDatabase(work);
  await seed(seeded.db, { adminPassword: ADMIN_PASSWORD });
  await seeded.close();
  const again = new SQLite(work);
  again.prepare("VACUUM INTO ?").run(templateOf("sqlite", "seeded"));
  again.close();
}

const TEMPLATE_PREFIX = "canteen_template_";

/** Templates of runs whose process is gone (stopped before their teardown). */
async function dropLeftTemplates(serverUrl: string) {
  const names = await onServer(serverUrl, `select datname from pg_database where datname like '${TEMPLATE_PREFIX}%'`);
  for (const { datname } of names as Array<{ datname: string }>) {
    const pid = Number(new RegExp(`^${TEMPLATE_PREFIX}(\\d+)_`).exec(datname)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await onServer(serverUrl, `drop database if exists ${datname} with (force)`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function dropTemplate(serverUrl: string, dialect: Dialect, template: "migrated" | "seeded") {
  await onServer(serverUrl, `drop database if exists ${templateOf(dialect, template)} with (force)`);
}

async function buildPostgres(serverUrl: string) {
  const migrated = templateOf("postgres", "migrated") as string;
  const seeded = templateOf("postgres", "seeded") as string;
  for (const template of ["seeded", "migrated"] as const) await dropTemplate(serverUrl, "postgres", template);
  await onServer(serverUrl, `create database ${migrated}`);
  const at = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  await onServer(at(migrated), `create schema ${TEMPLATE_SCHEMA}`);
  const handle = await openDatabase(at(migrated), { schema: TEMPLATE_SCHEMA });
  await migrateToLatest(handle.db);
  await handle.close();
  await onServer(serverUrl, `create database ${seeded} template ${migrated}`);
  const seededHandle = await openDatabase(at(seeded), { schema: TEMPLATE_SCHEMA });
  await seed(seededHandle.db, { adminPassword: ADMIN_PASSWORD });
  await seededHandle.close();
}
