import type { Kysely } from "kysely";

// A ticket names the host it was issued for; only that host may exchange it (decision 011). Tickets live 60 s, so
// the ones issued before this column existed have expired and may be dropped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("login_ticket").execute();
  await db.schema.alterTable("login_ticket").addColumn("audience", "text", (c) => c.notNull().defaultTo("")).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_ticket").dropColumn("audience").execute();
}
