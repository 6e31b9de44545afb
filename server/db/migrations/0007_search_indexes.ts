import type { Kysely } from "kysely";

// The operation log is the largest table: searched by operation and by person, newest first.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("operation_log_action_idx").on("operation_log").columns(["tenant_id", "action", "created_at"]).execute();
  await db.schema.createIndex("operation_log_user_idx").on("operation_log").columns(["tenant_id", "user_name", "created_at"]).execute();
  await db.schema.createIndex("user_created_idx").on("user").columns(["tenant_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("user_created_idx").execute();
  await db.schema.dropIndex("operation_log_user_idx").execute();
  await db.schema.dropIndex("operation_log_action_idx").execute();
}
