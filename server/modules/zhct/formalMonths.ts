import { PostgresAdapter, sql } from "kysely";
import type { Db } from "../../db";
import { preparedQuery } from "../../db/prepared";
import type { Trx } from "../../kernel/writeTransaction";
import { monthOf } from "./months";

/**
 * The months month settlement has made formal (decision 022): the money ledger's locked periods (decision 059). Apart
 * from monthSettle.ts because the money ledger's declaration reads them and month settlement reads the ledger.
 */

export const SettleStatus = { TEMPORARY: 0, FORMAL: 1 } as const;

/**
 * On PostgreSQL a month's postings and its settlement take an advisory lock of the month (shared by postings,
 * exclusive by 生成/转正式), so a line cannot slip into a month between the recomputation and the lock. SQLite runs one
 * writing transaction at a time (BEGIN IMMEDIATE) already. `book` keeps one ledger's months apart from another's: the
 * money ledger's are 22 (decision 022), the stock account's 73 (decisions 073, 085).
 */
export async function lockMonth(trx: Trx, tenantId: number, month: string, mode: "shared" | "exclusive", book = 22) {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const fn = sql.raw(mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock");
  await sql`select ${fn}(${sql.lit(book)}, hashtext(${`${tenantId}:${month}`}))`.execute(trx);
}

/** Compiled once: every ledger movement asks it (`formalMonthOf`). */
const formalRows = preparedQuery("month settle formal", (trx: Trx | Db, tenantId: number, month: string) =>
  trx.selectFrom("user_account_month_settle").select("id").where("tenant_id", "=", tenantId).where("month", "=", month).where("settle_status", "=", SettleStatus.FORMAL).limit(1),
);

export async function isFormal(trx: Trx | Db, tenantId: number, month: string): Promise<boolean> {
  return (await formalRows(trx, tenantId, month)).length > 0;
}

/**
 * The formal month a moment falls in (`2026-05`), or null. It runs inside the posting's transaction and takes the
 * month's shared lock first, so a month made formal concurrently is seen.
 */
export async function formalMonthOf(trx: Trx, tenantId: number, occurredAt: number): Promise<string | null> {
  const month = monthOf(occurredAt);
  await lockMonth(trx, tenantId, month, "shared");
  return (await isFormal(trx, tenantId, month)) ? month : null;
}
