import type { Kysely } from "kysely";

/**
 * Reports at volume (issue 15, decision 036): a month of a large canteen is ~700,000 orders, ~2,000,000 items and
 * as many ledger lines. Read through the narrow indexes, every order of the month cost a random read of its table row
 * (and every order line one more): the reports spent their time there, not in the sums. These indexes hold every
 * column the order, item and ledger reports read, so a month is one ordered pass over an index:
 *
 * - orders by day with what the filters (restaurant, stall, meal, payment, source, card, takeaway), the sums, the detail's order (paid_at, id) and the joins (id) need;
 * - an order's items with what 菜品统计 sums;
 * - an order's ledger lines with what 个人消费统计 splits by account (replaces 0029's, which it extends: the cancel's
 *   look-up by document still finds its prefix);
 * - ledger lines by time with what the daily ledger reports group and sum.
 */
const ORDER_REPORT = ["tenant_id", "order_date", "order_status", "meal_type", "restaurant_id", "stall_id", "pay_flag", "order_source", "user_info_id", "paid_amount", "refunded_amount", "paid_at", "id", "card_no", "order_type"];
const ITEM_REPORT = ["tenant_id", "meal_order_id", "food_id", "food_name", "quantity", "subtotal"];
const LEDGER_DOC = ["tenant_id", "doc_type", "doc_id", "busi_type", "account_type", "amount"];
const LEDGER_TIME = ["tenant_id", "occurred_at", "busi_type", "account_type", "pay_flag", "amount", "operator_name"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("meal_order_report_idx").on("meal_order").columns(ORDER_REPORT).execute();
  await db.schema.createIndex("meal_order_item_report_idx").on("meal_order_item").columns(ITEM_REPORT).execute();
  await db.schema.dropIndex("user_account_ledger_doc_type_doc_id_idx").execute();
  await db.schema.createIndex("user_account_ledger_doc_report_idx").on("user_account_ledger").columns(LEDGER_DOC).execute();
  await db.schema.createIndex("user_account_ledger_time_report_idx").on("user_account_ledger").columns(LEDGER_TIME).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("user_account_ledger_time_report_idx").execute();
  await db.schema.dropIndex("user_account_ledger_doc_report_idx").execute();
  await db.schema.createIndex("user_account_ledger_doc_type_doc_id_idx").on("user_account_ledger").columns(["tenant_id", "doc_type", "doc_id"]).execute();
  await db.schema.dropIndex("meal_order_item_report_idx").execute();
  await db.schema.dropIndex("meal_order_report_idx").execute();
}
