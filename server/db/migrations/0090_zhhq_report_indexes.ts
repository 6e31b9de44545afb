// Issue 35, decision 095: the reports' reads at a year's volume. 库存月报 counts, per month, the keys that neither moved
// nor held stock by the days that closed at nothing (a key's stock ran out): a partial index holds just those days
// (a few in a hundred), so the count reads them and not every day of the tenant. 采购统计 reads the orders of its
// months by their date, and 维修统计 the repairs of its months by when they were reported: both read every order line
// or repair of the tenant before (the declared indexes lead with status, supplier, warehouse; restaurant, dormitory).
// Created the way 0070 creates its own. Released migrations are not edited.
import { sql, type Kysely } from "kysely";

const EMPTY_DAYS = "stock_day_empty_idx";
const ORDER_DATE = "purchase_order_doc_date_idx";
const REPAIR_CREATED = "repair_created_at_idx";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex(EMPTY_DAYS)
    .on("stock_day")
    .columns(["tenant_id", "day_no", "warehouse_id", "goods_id"])
    .where(sql.ref("closing_quantity"), "=", 0)
    .where(sql.ref("closing_amount"), "=", 0)
    .execute();
  await db.schema.createIndex(ORDER_DATE).on("purchase_order").columns(["tenant_id", "doc_date"]).execute();
  await db.schema.createIndex(REPAIR_CREATED).on("repair").columns(["tenant_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [REPAIR_CREATED, ORDER_DATE, EMPTY_DAYS]) await db.schema.dropIndex(index).execute();
}
