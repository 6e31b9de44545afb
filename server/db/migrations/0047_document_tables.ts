import type { Kysely } from "kysely";

/**
 * What every document shares (issue 34, decision 060): the status history — who moved which document from which
 * status to which, when and why — and the numbering sequences, one row per tenant, document type and China day
 * (`RK20261128-0001`). One pair of tables for all document types, keyed by `doc_type` (`module/entity`), so a new
 * document needs only its own header and line tables.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("document_status_history")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("id", "bigint", (c) => c.notNull())
    .addColumn("doc_type", "text", (c) => c.notNull())
    .addColumn("doc_id", "bigint", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("operator_id", "bigint")
    .addColumn("operator_name", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("document_status_history_pk", ["tenant_id", "id"])
    .addForeignKeyConstraint("document_status_history_tenant_fk", ["tenant_id"], "tenant", ["id"])
    .execute();
  // A document's detail page reads its history in order.
  await db.schema
    .createIndex("document_status_history_doc_idx")
    .on("document_status_history")
    .columns(["tenant_id", "doc_type", "doc_id", "created_at"])
    .execute();
  await db.schema
    .createTable("document_sequence")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("doc_type", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("last_value", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("document_sequence_pk", ["tenant_id", "doc_type", "day"])
    .addForeignKeyConstraint("document_sequence_tenant_fk", ["tenant_id"], "tenant", ["id"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("document_sequence").ifExists().execute();
  await db.schema.dropTable("document_status_history").ifExists().execute();
}
