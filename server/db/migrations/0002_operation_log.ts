import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("operation_log")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint")
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("module", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "bigint")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("changes", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("operation_log_pk", ["tenant_id", "id"])
    .execute();
  await db.schema.createIndex("operation_log_time_idx").on("operation_log").columns(["tenant_id", "created_at"]).execute();
  await db.schema.createIndex("operation_log_entity_idx").on("operation_log").columns(["tenant_id", "entity", "entity_id"]).execute();

  // A super admin may work inside another tenant; the session remembers which.
  await db.schema.alterTable("session").addColumn("acting_tenant_id", "bigint").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("session").dropColumn("acting_tenant_id").execute();
  await db.schema.dropTable("operation_log").execute();
}
