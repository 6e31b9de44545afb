import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from "kysely";

/**
 * A table as plain facts: what a migration written by `npm run migration:new` creates, and what the schema test
 * reads back from either database. Migrations keep their own copy of these facts (they are released as written);
 * `declaredTable` (server/db/declared.ts) derives the current ones from a declaration.
 */
export type ColumnType = "text" | "integer" | "bigint";

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  notNull: boolean;
  default?: string | number;
}

export interface ForeignKeySpec {
  columns: string[];
  table: string;
  to: string[];
  onDelete?: "cascade";
}

export interface TableSpec {
  name: string;
  /** Tenant tables start with tenant_id and are keyed by (tenant_id, id). */
  tenant: boolean;
  columns: ColumnSpec[];
  unique: string[][];
  foreignKeys: ForeignKeySpec[];
  /** Lookups by a relation (and the foreign key checks of a delete) that no unique key already serves. */
  indexes: string[][];
}

const keyName = (table: string, columns: string[], suffix: string) => `${table}_${columns.filter((c) => c !== "tenant_id").join("_")}_${suffix}`;

const constraints = (column: ColumnSpec) => (c: ColumnDefinitionBuilder) => {
  const built = column.notNull ? c.notNull() : c;
  return column.default !== undefined ? built.defaultTo(column.default) : built;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createTable(db: Kysely<any>, spec: TableSpec): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let table: CreateTableBuilder<any, any> = db.schema.createTable(spec.name);
  for (const column of spec.columns) {
    table = table.addColumn(column.name, column.type, constraints(column));
  }
  table = table.addPrimaryKeyConstraint(`${spec.name}_pk`, spec.tenant ? ["tenant_id", "id"] : ["id"]);
  for (const columns of spec.unique) table = table.addUniqueConstraint(keyName(spec.name, columns, "uq"), columns);
  for (const fk of spec.foreignKeys) {
    table = table.addForeignKeyConstraint(keyName(spec.name, fk.columns, "fk"), fk.columns, fk.table, fk.to, (c) =>
      fk.onDelete ? c.onDelete(fk.onDelete) : c,
    );
  }
  await table.execute();
  for (const columns of spec.indexes) await db.schema.createIndex(keyName(spec.name, columns, "idx")).on(spec.name).columns(columns).execute();
}

/** Adds columns to a released table (a field added to a declaration). Nullable or with a default, as SQLite requires. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function addColumns(db: Kysely<any>, table: string, columns: ColumnSpec[]): Promise<void> {
  for (const column of columns) {
    await db.schema.alterTable(table).addColumn(column.name, column.type, constraints(column)).execute();
  }
}

/**
 * Adds a nullable relation column with its foreign key and lookup index to a released table (what `migration:new`
 * refuses), then runs `fill` before the key is checked. PostgreSQL adds the constraint; SQLite cannot add one to a
 * table it has, so the table is rebuilt under its own name as SQLite's ALTER TABLE page describes: keys off and
 * references left as written (other tables' keys name the table, which exists again), rows copied, indexes
 * recreated, keys checked before the commit. Migrations on SQLite run outside a transaction, so the pragmas apply.
 */
export async function addRelationColumn(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  table: string,
  column: ColumnSpec,
  fk: ForeignKeySpec,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fill: (db: Kysely<any>) => Promise<void>,
): Promise<void> {
  const fkName = keyName(table, fk.columns, "fk");
  const index = keyName(table, fk.columns, "idx");
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The migrator runs each PostgreSQL migration in a transaction of its own.
    await addColumns(db, table, [column]);
    await fill(db);
    await db.schema.alterTable(table).addForeignKeyConstraint(fkName, fk.columns, fk.table, fk.to).execute();
    await db.schema.createIndex(index).on(table).columns(fk.columns).execute();
    return;
  }
  const old = `${table}_before_${column.name}`;
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    const off = (await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0];
    if (off?.foreign_keys !== 0) throw new Error(`${table}: foreign keys cannot be turned off inside a transaction`);
    await db.transaction().execute(async (trx) => {
      await addColumns(trx, table, [column]);
      await fill(trx);
      const created = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(trx)).rows[0].sql;
      const indexes = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(trx)).rows;
      const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(", ");
      const key = `, constraint "${fkName}" foreign key (${quoted(fk.columns)}) references "${fk.table}" (${quoted(fk.to)})`;
      await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(trx);
      await sql.raw(created.replace(/\)\s*$/, `${key})`)).execute(trx);
      await sql`insert into ${sql.table(table)} select * from ${sql.table(old)}`.execute(trx);
      await sql`drop table ${sql.table(old)}`.execute(trx);
      for (const { sql: text } of indexes) await sql.raw(text).execute(trx);
      await trx.schema.createIndex(index).on(table).columns(fk.columns).execute();
      const broken = (await sql`select * from pragma_foreign_key_check(${table})`.execute(trx)).rows;
      if (broken.length) throw new Error(`${table}: ${broken.length} rows break a foreign key after the rebuild`);
    });
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/**
 * Undoes `addRelationColumn`: the lookup index, the foreign key, then the column. SQLite will not drop a column a
 * foreign key names, nor drop the key alone, so the table is rebuilt without the key `addRelationColumn` wrote, the
 * same way, before the column goes.
 */
export async function dropRelationColumn(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  table: string,
  column: ColumnSpec,
  fk: ForeignKeySpec,
): Promise<void> {
  const fkName = keyName(table, fk.columns, "fk");
  await db.schema.dropIndex(keyName(table, fk.columns, "idx")).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.alterTable(table).dropConstraint(fkName).execute();
    await dropColumns(db, table, [column]);
    return;
  }
  const old = `${table}_before_${column.name}`;
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const created = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(trx)).rows[0].sql;
      const key = created.indexOf(`, constraint "${fkName}" foreign key`);
      if (key < 0) throw new Error(`${table}: no foreign key ${fkName} to drop`);
      const indexes = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(trx)).rows;
      await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(trx);
      await sql.raw(created.slice(0, key).replace(/\s*$/, ")")).execute(trx);
      await sql`insert into ${sql.table(table)} select * from ${sql.table(old)}`.execute(trx);
      await sql`drop table ${sql.table(old)}`.execute(trx);
      for (const { sql: text } of indexes) await sql.raw(text).execute(trx);
      await dropColumns(trx, table, [column]);
    });
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropColumns(db: Kysely<any>, table: string, columns: ColumnSpec[]): Promise<void> {
  for (const column of columns) await db.schema.alterTable(table).dropColumn(column.name).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropTables(db: Kysely<any>, specs: TableSpec[]): Promise<void> {
  for (const spec of [...specs].reverse()) await db.schema.dropTable(spec.name).execute();
}

export interface ReadTable {
  columns: ColumnSpec[];
  unique: string[][];
  foreignKeys: ForeignKeySpec[];
}

/** What the database holds for a table: columns in order, unique keys and foreign keys, the same on both dialects. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readTable(db: Kysely<any>, dialect: "sqlite" | "postgres", table: string): Promise<ReadTable | null> {
  if (dialect === "sqlite") {
    const columns = (await sql<{ name: string; type: string; notnull: number; pk: number }>`select * from pragma_table_info(${table})`.execute(db)).rows;
    if (!columns.length) return null;
    const indexes = (await sql<{ name: string; unique: number; origin: string }>`select * from pragma_index_list(${table})`.execute(db)).rows;
    const unique: string[][] = [];
    for (const index of indexes.filter((i) => i.unique && i.origin === "u")) {
      const parts = (await sql<{ seqno: number; name: string }>`select * from pragma_index_info(${index.name})`.execute(db)).rows;
      unique.push(parts.sort((a, b) => a.seqno - b.seqno).map((p) => p.name));
    }
    const fkRows = (await sql<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string }>`select * from pragma_foreign_key_list(${table})`.execute(db)).rows;
    const foreignKeys = new Map<number, ForeignKeySpec>();
    for (const row of fkRows.sort((a, b) => a.id - b.id || a.seq - b.seq)) {
      const fk = foreignKeys.get(row.id) ?? { columns: [], table: row.table, to: [], ...(row.on_delete === "CASCADE" ? { onDelete: "cascade" as const } : {}) };
      fk.columns.push(row.from);
      fk.to.push(row.to);
      foreignKeys.set(row.id, fk);
    }
    return {
      columns: columns.map((c) => ({ name: c.name, type: c.type.toLowerCase() as ColumnType, notNull: c.notnull === 1 })),
      unique,
      foreignKeys: [...foreignKeys.values()],
    };
  }
  const columns = (
    await sql<{ name: string; type: string; nullable: string }>`
      select column_name as name, data_type as type, is_nullable as nullable from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)
  ).rows;
  if (!columns.length) return null;
  const constraints = (
    await sql<{ type: string; columns: string[]; target: string | null; to: string[] | null; on_delete: string }>`
      select c.contype as type,
        array(select a.attname from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
        t.relname as target,
        array(select a.attname from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i)::text[] as to,
        c.confdeltype as on_delete
      from pg_constraint c join pg_class r on r.oid = c.conrelid left join pg_class t on t.oid = c.confrelid
      where r.relname = ${table} and r.relnamespace = current_schema()::regnamespace and c.contype in ('u', 'f')
      order by c.conname`.execute(db)
  ).rows;
  return {
    columns: columns.map((c) => ({ name: c.name, type: c.type as ColumnType, notNull: c.nullable === "NO" })),
    unique: constraints.filter((c) => c.type === "u").map((c) => c.columns),
    foreignKeys: constraints
      .filter((c) => c.type === "f")
      .map((c) => ({ columns: c.columns, table: c.target as string, to: c.to as string[], ...(c.on_delete === "c" ? { onDelete: "cascade" as const } : {}) })),
  };
}
