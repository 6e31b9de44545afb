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
  // Each running instance's number, put into the ids it makes so two instances never make the same id. A lease:
  // renewed while the instance runs, free again once it expires (an instance that crashed).
  await db.schema
    .createTable("instance_lease")
    .addColumn("instance_no", "integer", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("instance_lease").execute();
  await db.schema.dropTable("login_rate_hit").execute();
}
