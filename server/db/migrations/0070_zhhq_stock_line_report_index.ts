// Issue 35, decision 076: the stock reports read a period's movement lines of a tenant by their posting time, with
// what they group and sum (warehouse, goods, type, quantity, amount). The declared indexes lead with the warehouse ×
// goods (decision 068), so a period without a warehouse read every line of the tenant; this covering index is one
// ordered range per period. 批次追溯 finds batches by their number (a keeper types it, an inspector asks for it):
// stock_batch by (tenant, batch_no). Created the way 0029 and 0030 create theirs. Released migrations are not edited.
import type { Kysely } from "kysely";

const INDEX = "stock_line_report_idx";
const BATCH_NO_INDEX = "stock_batch_batch_no_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(INDEX).on("stock_line").columns(["tenant_id", "occurred_at", "warehouse_id", "goods_id", "doc_type", "quantity", "amount"]).execute();
  await db.schema.createIndex(BATCH_NO_INDEX).on("stock_batch").columns(["tenant_id", "batch_no"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(BATCH_NO_INDEX).execute();
  await db.schema.dropIndex(INDEX).execute();
}
