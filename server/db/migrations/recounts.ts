import type { Kysely } from "kysely";

/**
 * A migration that adds a kept projection (a day or month roll-up) asks for it to be counted from its source rows,
 * here, instead of calling the module that keeps it: a migration means the same thing in a year, and the module's
 * code is by then another. The server counts what was asked once the last migration has run, with the code that now
 * keeps it (`server/modules/projections.ts`), so a projection that later migrations reshaped is counted in its final
 * shape. On a new database there is nothing to count.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function requestRecount(db: Kysely<any>, ...projections: string[]): Promise<void> {
  await db.schema.createTable("projection_recount").ifNotExists().addColumn("name", "varchar(64)", (c) => c.primaryKey()).execute();
  await db
    .insertInto("projection_recount")
    .values(projections.map((name) => ({ name })))
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}
