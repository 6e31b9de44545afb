import { sql, type Kysely } from "kysely";
import { runPrepared } from "../../db/prepared";
import type { Database, LedgerDayFigure } from "../../db/schema";
import { inTransaction } from "../../db/transaction";
import { CHINA_OFFSET_MS, chinaDayNo, DAY_MS } from "../../../resources/chinaTime";

/**
 * The ledger's lines per China day, account and business type (table ledger_day, decision 044), counted by `post` in
 * the line's own transaction: 账户类型日统计 reads a few hundred rows for a month instead of its millions of lines.
 *
 * A day has one row per shard of the diners (`shardOf`). Every transaction that moves
 * money moves one diner's, so it writes one row, whatever accounts and business types its lines have: two of them
 * can wait for each other's row on PostgreSQL but never deadlock, and diners of different shards do not wait at all.
 * The figures are columns, one per account and business type (and the lines per account), for the same reason.
 */

type Trx = Kysely<Database>;

export const LEDGER_DAY_SHARDS = 16;

/** The accounts with columns (ledger.ts's ACCOUNT_TYPES, which imports this module). */
const ACCOUNTS = ["cash", "subsidy"] as const;
/** The column of each business type, by its value in the dictionary busiType (ledger.ts's BusiType). */
const BUSI_COLUMNS = ["top_up", "refund", "consume", "reversal", "grant", "clear", "consume_return", "dorm_fee"] as const;
type Account = (typeof ACCOUNTS)[number];


/**
 * The shard of a diner: their id's millisecond plus its sequence, modulo the shards. An id is milliseconds × 4096 +
 * instance × 64 + a sequence that starts at 0 each millisecond (newId), so its low bits alone would put nearly every
 * diner in shard 0; diners imported together share milliseconds, so the sequence is added.
 */
export const shardOf = (userInfoId: number) => (Math.floor(userInfoId / 4096) + (userInfoId % 64)) % LEDGER_DAY_SHARDS;
const lineShard = sql<number>`(user_info_id / 4096 + user_info_id % 64) % ${sql.lit(LEDGER_DAY_SHARDS)}`;

/** The China day of a moment as a day number: days since 1970-01-01. */
export const dayNoOf = chinaDayNo;
/** A day number as its day, YYYY-MM-DD. */
export const dayOfNo = (dayNo: number | string) => new Date(Number(dayNo) * DAY_MS).toISOString().slice(0, 10);
/**
 * The China day of a ledger line, as a day number, in SQL: the same integer division on both databases. Literals, not
 * parameters: PostgreSQL must see the same expression in the select and the group by.
 */
export const ledgerDayNo = sql<number>`(occurred_at + ${sql.lit(CHINA_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;

const figureOf = (account: string, busiType: number): LedgerDayFigure => {
  const busi = BUSI_COLUMNS[busiType];
  if (!ACCOUNTS.includes(account as Account) || busi === undefined) throw new Error(`ledger_day has no column for ${account} ${busiType}`);
  return `${account as Account}_${busi}`;
};

/** Adds one ledger line to its day (`post` calls it for every line, after its diner's month). */
export async function countLedgerDay(trx: Trx, line: { tenantId: number; userInfoId: number; accountType: string; busiType: number; amount: number; occurredAt: number }): Promise<void> {
  const figure = figureOf(line.accountType, line.busiType);
  const lines = `${line.accountType as Account}_lines` as const;
  const add = (column: LedgerDayFigure) => sql`${sql.ref(`ledger_day.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  // Compiled once per figure (see runPrepared): it runs for every ledger line.
  await runPrepared(trx, `ledger day add ${figure}`, [line.tenantId, dayNoOf(line.occurredAt), shardOf(line.userInfoId), line.amount], ([tenantId, dayNo, shard, amount]) =>
    trx
      .insertInto("ledger_day")
      .values({ tenant_id: tenantId as number, day_no: dayNo as number, shard: shard as number, [figure]: amount as number, [lines]: 1 })
      .onConflict((oc) => oc.columns(["tenant_id", "day_no", "shard"]).doUpdateSet({ [figure]: add(figure), [lines]: add(lines) })),
  );
}

/** Sums of one account's figures over a period's rows (SQL), by the names the columns have without the account. */
export function ledgerDaySums(account: Account) {
  return [...BUSI_COLUMNS, "lines" as const].map((figure) => sql<number>`coalesce(sum(${sql.ref(`${account}_${figure}`)}), 0)`.as(`${account}_${figure}`));
}

export const LEDGER_DAY_ACCOUNTS = ACCOUNTS;
/** Every figure column of ledger_day. */
export const LEDGER_DAY_FIGURES = ACCOUNTS.flatMap((account) => (["lines", ...BUSI_COLUMNS] as const).map((figure): LedgerDayFigure => `${account}_${figure}`));

/** Counts the days afresh from the lines, one tenant's or (migration 0038) all: the demo generator writes in bulk. */
export async function recountLedgerDays(db: Kysely<Database>, tenantId?: number): Promise<void> {
  const figures = ACCOUNTS.flatMap((account) => [
    { column: `${account}_lines`, value: sql`sum(case when account_type = ${sql.lit(account)} then 1 else 0 end)` },
    ...BUSI_COLUMNS.map((busi, busiType) => ({ column: `${account}_${busi}`, value: sql`sum(case when account_type = ${sql.lit(account)} and busi_type = ${sql.lit(busiType)} then amount else 0 end)` })),
  ]);
  await inTransaction(db, async (trx) => {
    let clear = trx.deleteFrom("ledger_day");
    if (tenantId !== undefined) clear = clear.where("tenant_id", "=", tenantId);
    await clear.execute();
    await sql`
      insert into ledger_day (tenant_id, day_no, shard, ${sql.join(figures.map((f) => sql.ref(f.column)))})
      select tenant_id, ${ledgerDayNo}, ${lineShard}, ${sql.join(figures.map((f) => f.value))}
      from user_account_ledger
      where ${tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`}
      group by tenant_id, ${ledgerDayNo}, ${lineShard}`.execute(trx);
  });
}
