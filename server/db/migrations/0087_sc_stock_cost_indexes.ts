// Issue 37's benchmark (bench/results/2026-11-29-sc.md): 直接成本分摊 and 经营毛利 sum a period's approved stock-outs
// per day and kitchen. warehouse_out had no index by document date, so every period read the tenant's headers by
// status (all of them approved); and each of the period's lines (≈ 700,000 in a month of a large canteen) cost a read
// of its table row for its amount. Headers by (tenant, doc_date), and a document's lines with their amount, make a
// period one range of headers and one index-only pass over their lines. Created the way 0070 creates its own; the
// declared (tenant, document) index stays for the documents' own reads. Released migrations are not edited.
import type { Kysely } from "kysely";

const HEADER_INDEX = "warehouse_out_doc_date_idx";
const LINE_INDEX = "warehouse_out_line_document_amount_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(HEADER_INDEX).on("warehouse_out").columns(["tenant_id", "doc_date"]).execute();
  await db.schema.createIndex(LINE_INDEX).on("warehouse_out_line").columns(["tenant_id", "document_id", "amount"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(LINE_INDEX).execute();
  await db.schema.dropIndex(HEADER_INDEX).execute();
}
