import type { Kysely } from "kysely";

/**
 * One counter of the menus, grants and dictionaries every instance on the database shares (decision 019): a write
 * that changes what a user's shell shows adds one in its own transaction, so each instance knows its cached menus
 * are stale by reading one row instead of rebuilding them for every page.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shell_generation")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("generation", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("shell_generation").values({ id: 1, generation: 1 }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shell_generation").execute();
}
