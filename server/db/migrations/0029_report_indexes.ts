import type { Kysely } from "kysely";

/**
 * Reports (decision 030): the ledger lines of an order are found by the order (个人消费统计 splits an order's 实收
 * by account; a cancel finds what to return). Without this index both read every line of the tenant.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("user_account_ledger_doc_type_doc_id_idx").on("user_account_ledger").columns(["tenant_id", "doc_type", "doc_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("user_account_ledger_doc_type_doc_id_idx").execute();
}
