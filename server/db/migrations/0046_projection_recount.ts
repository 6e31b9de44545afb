import type { Kysely } from "kysely";

/**
 * The projections a migration asks to have counted (./recounts.ts) wait here until the server counts them after the
 * last migration. Migrations 0034 and 0037–0039 made the table when they ran on a database with data to count; a
 * database made since has it from here, so the server reads it without asking whether it exists.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("projection_recount").ifNotExists().addColumn("name", "varchar(64)", (c) => c.primaryKey()).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("projection_recount").ifExists().execute();
}
