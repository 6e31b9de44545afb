import type { Kysely } from "kysely";

/**
 * Sign-in attempts per client address, shared by every instance on the database (decision 013). No key: rows are
 * only counted and pruned, and two instances recording the same address in the same millisecond must both count.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("login_rate_hit")
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("login_rate_hit_ip_at").on("login_rate_hit").columns(["ip", "at"]).execute();
  await db.schema.createIndex("login_rate_hit_at").on("login_rate_hit").column("at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("login_rate_hit").execute();
}
