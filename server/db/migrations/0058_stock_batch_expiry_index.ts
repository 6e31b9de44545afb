// Issue 40: the batch screen (批次库存, /zhhq/warehouserealdetail) lists a tenant's batches by expiry, then id, when no
// warehouse is chosen; the (tenant, warehouse, goods, expiry) index of 0057 does not serve that order, so a page sorted
// 400,000 batches. This index walks them in the list's order (the declaration's `indexes` says the same). Released
// migrations are not edited.
import type { Kysely } from "kysely";

const INDEX = "stock_batch_expiry_date_id_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(INDEX).on("stock_batch").columns(["tenant_id", "expiry_date", "id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(INDEX).ifExists().execute();
}
