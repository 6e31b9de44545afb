// Issue 36, decision 083: a notice to residents lists its outbox messages (送达情况) by the notice they came from;
// the outbox's own index leads with its dispatcher's scan (state, next attempt). The declaration's `indexes` says the
// same. Released migrations are not edited.
import type { Kysely } from "kysely";

const INDEX = "user_info_send_message_related_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(INDEX).on("user_info_send_message").columns(["tenant_id", "related_entity", "related_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(INDEX).ifExists().execute();
}
