import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

/**
 * The rules a distributed PostgreSQL (Citus) needs to shard the tenant tables by `tenant_id` and keep the global
 * ones as reference tables (docs/distributing.md), read from the live, migrated schema.
 */

/** Tables without `tenant_id`: small, read by every tenant, copied whole to each node. */
const GLOBAL_TABLES = [
  "captcha", // sign-in before any tenant is known
  "dict",
  "dict_item",
  "instance_lease", // one row per running instance
  "job_lease", // one row per scheduled job (the monthly grants): which instance runs it now
  "kysely_migration",
  "kysely_migration_lock",
  "login_lock", // per user name; names are unique across tenants
  "login_rate_hit", // per client address, before any tenant is known
  "menu",
  "projection_recount", // the kept projections migrations asked to have counted, counted at start-up (decision 058)
  "shell_generation", // one row: the counter of menus, grants and dictionaries every instance's shell cache checks
  "subsystem",
  "tenant",
];

/**
 * Tenant tables that break a rule, from released migrations (not rewritten): why each is so, and what a
 * distribution does about it (docs/distributing.md).
 */
const KNOWN_EXCEPTIONS: Record<string, { why: string; problems: string[] }> = {
  login_log: {
    why: "a failed sign-in of an unknown name has no tenant; rows are keyed by their own id (distributed by id)",
    problems: ["tenant_id may be null", "primary key (id) does not start with tenant_id"],
  },
  login_name: {
    why: "sign-in finds the tenant from the name, so it is read by name before any tenant is known (a reference table)",
    problems: ["primary key (user_name) does not start with tenant_id", "foreign key login_name_user_fk → user cannot be kept unless the table is sharded by tenant_id"],
  },
  login_ticket: {
    why: "a ticket is looked up by its hash before the tenant is known (distributed by ticket_hash)",
    problems: ["primary key (ticket_hash) does not start with tenant_id", "foreign key login_ticket_user_fk → user cannot be kept unless the table is sharded by tenant_id"],
  },
  session: {
    why: "every request finds its session by the token's hash before the tenant is known (distributed by token_hash)",
    problems: ["primary key (token_hash) does not start with tenant_id", "foreign key session_user_fk → user cannot be kept unless the table is sharded by tenant_id"],
  },
};

interface Table {
  name: string;
  tenantColumn: boolean;
  tenantNotNull: boolean;
  primaryKey: string[] | null;
  uniques: { name: string; columns: string[] }[];
  foreignKeys: { name: string; columns: string[]; references: string; referencedColumns: string[] }[];
}

async function readSchema(database: TestDatabase): Promise<Table[]> {
  const { db } = database;
  const columnsOf = (oid: string, keys: string) => sql`(select array_agg(col.attname::text order by key.n) from unnest(${sql.raw(keys)}) with ordinality as key(attnum, n) join pg_attribute col on col.attrelid = ${sql.raw(oid)} and col.attnum = key.attnum)`;
  const tables = await sql<{ oid: number; name: string }>`
    select c.oid, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') order by c.relname`.execute(db);
  const result: Table[] = [];
  for (const { oid, name } of tables.rows) {
    const tenant = await sql<{ attnotnull: boolean }>`select attnotnull from pg_attribute where attrelid = ${oid} and attname = 'tenant_id' and not attisdropped`.execute(db);
    const indexes = await sql<{ name: string; primary: boolean; columns: string[] }>`
      select ic.relname as name, i.indisprimary as primary, ${columnsOf("i.indrelid", "i.indkey::int2[]")} as columns
      from pg_index i join pg_class ic on ic.oid = i.indexrelid where i.indrelid = ${oid} and i.indisunique`.execute(db);
    const fks = await sql<{ name: string; columns: string[]; references: string; referenced_columns: string[] }>`
      select k.conname as name, ${columnsOf("k.conrelid", "k.conkey")} as columns, r.relname as references,
        ${columnsOf("k.confrelid", "k.confkey")} as referenced_columns
      from pg_constraint k join pg_class r on r.oid = k.confrelid where k.conrelid = ${oid} and k.contype = 'f'`.execute(db);
    result.push({
      name,
      tenantColumn: tenant.rows.length > 0,
      tenantNotNull: tenant.rows[0]?.attnotnull ?? false,
      primaryKey: indexes.rows.find((i) => i.primary)?.columns ?? null,
      uniques: indexes.rows.filter((i) => !i.primary).map((i) => ({ name: i.name, columns: i.columns })),
      foreignKeys: fks.rows.map((k) => ({ name: k.name, columns: k.columns, references: k.references, referencedColumns: k.referenced_columns })),
    });
  }
  return result;
}

function violations(tables: Table[]): Record<string, string[]> {
  const tenantTables = new Set(tables.filter((t) => t.tenantColumn).map((t) => t.name));
  const found: Record<string, string[]> = {};
  const add = (table: string, problem: string) => (found[table] ??= []).push(problem);
  for (const t of tables) {
    if (!t.tenantColumn) {
      for (const fk of t.foreignKeys) if (tenantTables.has(fk.references)) add(t.name, `global table refers to tenant table ${fk.references}`);
      continue;
    }
    if (!t.tenantNotNull) add(t.name, "tenant_id may be null");
    if (t.primaryKey?.[0] !== "tenant_id") add(t.name, `primary key (${t.primaryKey?.join(", ") ?? "none"}) does not start with tenant_id`);
    for (const u of t.uniques) if (u.columns[0] !== "tenant_id") add(t.name, `unique index ${u.name} (${u.columns.join(", ")}) does not start with tenant_id`);
    for (const fk of t.foreignKeys) {
      // A foreign key to a global (reference) table is fine; between tenant tables it must stay within a tenant.
      if (!tenantTables.has(fk.references)) continue;
      if (fk.columns[0] !== "tenant_id" || fk.referencedColumns[0] !== "tenant_id") {
        add(t.name, `foreign key ${fk.name} (${fk.columns.join(", ")}) → ${fk.references} (${fk.referencedColumns.join(", ")}) does not start with tenant_id`);
      } else if (t.primaryKey?.[0] !== "tenant_id") {
        // A table sharded by another key is not co-located with the tenant table it refers to.
        add(t.name, `foreign key ${fk.name} → ${fk.references} cannot be kept unless the table is sharded by tenant_id`);
      }
    }
  }
  return found;
}

describe.runIf(process.env.TEST_DATABASE_URL)("postgres: the schema can be distributed by tenant", () => {
  let database: TestDatabase;
  let tables: Table[];
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    tables = await readSchema(database);
  });
  afterAll(() => database.destroy());

  test("the tables without tenant_id are the listed global ones", () => {
    expect(tables.filter((t) => !t.tenantColumn).map((t) => t.name)).toEqual([...GLOBAL_TABLES].sort());
  });

  test("every tenant table's primary key, unique indexes and foreign keys start with tenant_id, but the known exceptions", () => {
    expect(tables.filter((t) => t.tenantColumn).length).toBeGreaterThan(10);
    const found = violations(tables);
    expect(found).toEqual(Object.fromEntries(Object.entries(KNOWN_EXCEPTIONS).map(([table, known]) => [table, known.problems])));
  });

  test("the check sees a violation when there is one", async () => {
    await sql`create table citus_probe (tenant_id bigint not null, id bigint primary key, code text unique)`.execute(database.db);
    try {
      expect(violations(await readSchema(database)).citus_probe).toEqual([
        "primary key (id) does not start with tenant_id",
        "unique index citus_probe_code_key (code) does not start with tenant_id",
      ]);
    } finally {
      await sql`drop table citus_probe`.execute(database.db);
    }
  });
});
