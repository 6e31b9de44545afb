import { PostgresAdapter, sql, type Kysely } from "kysely";
import { newId, type Db } from "../../db";
import { insertRow, preparedQuery } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { ApiError, Status } from "../../http/envelope";
import { countLedgerMonth } from "./dinerMonths";
import { countLedgerDay } from "./ledgerDays";

/**
 * The money ledger (decision 017). Every change of a balance goes through `post`: one ledger line and a conditional
 * update of the account, inside the caller's transaction, which `inWriteTransaction` opens (BEGIN IMMEDIATE on
 * SQLite). Nothing here edits or deletes a line; a mistake is undone by a line of the opposite sign (`reversalOf`).
 *
 * The interface is kept stable for the modules built on it (month settlement, auto charge, the cashier): add, do
 * not rename.
 */

export type AccountType = "cash" | "subsidy";
export const ACCOUNT_TYPES: readonly AccountType[] = ["cash", "subsidy"];

/** Dictionary busiType (resources/dicts.ts). */
export const BusiType = {
  TOP_UP: 0,
  REFUND: 1,
  CONSUME: 2,
  REVERSAL: 3,
  GRANT: 4,
  CLEAR: 5,
  CONSUME_RETURN: 6,
} as const;
export type BusiTypeValue = (typeof BusiType)[keyof typeof BusiType];

/** Dictionary userAccountFlag 500: what the system does by itself (grants, clearing). */
export const PAY_FLAG_AUTO = 500;

export const ledgerMessages = {
  insufficient: "余额不足",
  accountMissing: "该人员没有此账户",
  dinerMissing: "人员不存在",
  lockedMonth: (month: string) => `${month} 已正式结算，不能再记入该月的流水`,
  zero: "金额不能为 0",
  reversed: "该流水已冲正",
  reversalOfReversal: "冲正流水不能再冲正",
};

export type Trx = Kysely<Database>;

/** A movement of one account. `amount` is signed fen: positive puts money in. */
export interface Posting {
  tenantId: number;
  userInfoId: number;
  accountType: AccountType;
  amount: number;
  busiType: BusiTypeValue;
  payFlag: number;
  operatorId?: number | null;
  operatorName?: string | null;
  /** The document the line belongs to (a charge, an order, a grant run). */
  docType?: string | null;
  docId?: number | null;
  idempotencyKey?: string | null;
  /** The line this one undoes. */
  reversalOf?: number | null;
  remark?: string | null;
  /** When the movement counts (its month); now unless given (a grant dated to its day). */
  occurredAt?: number;
  /**
   * How far below zero the balance may go (fen, ≥ 0). 0 unless a pay-limit rule grants credit: the pay-limit module
   * (issue 12, another part) passes it; nothing else should.
   */
  creditLimit?: number;
}

export interface LedgerLine {
  id: number;
  accountId: number;
  accountType: AccountType;
  amount: number;
  balanceAfter: number;
  busiType: BusiTypeValue;
  occurredAt: number;
}

/**
 * Whether a moment lies inside a formal (locked) month of the tenant. No month is locked until the month-settle
 * module registers its check with `setLockedMonthCheck`; it runs inside the posting's transaction, so a month
 * made formal concurrently is seen (its settle takes the same write lock on SQLite; on PostgreSQL it must lock the
 * settle row it reads).
 */
export type LockedMonthCheck = (trx: Trx, tenantId: number, occurredAt: number) => Promise<string | null>;
let lockedMonth: LockedMonthCheck = async () => null;

/** Registers the check of formal months (returns the month's name, `2026-05`, when locked; null otherwise). */
export function setLockedMonthCheck(check: LockedMonthCheck): void {
  lockedMonth = check;
}

/** Opens the diner's accounts (cash and subsidy) with a zero balance; existing ones are kept. */
export async function openAccounts(trx: Trx, tenantId: number, userInfoId: number, now: number, operatorId: number | null = null): Promise<void> {
  await openAccountsOf(trx, tenantId, [userInfoId], now, operatorId);
}

// 500 diners make 1,000 account rows of 9 values: well under SQLite's and PostgreSQL's bound-value limits.
const OPEN_BATCH = 500;

/** `openAccounts` for many diners (an import's), a few multi-row INSERTs instead of two per diner. */
export async function openAccountsOf(trx: Trx, tenantId: number, userInfoIds: number[], now: number, operatorId: number | null = null): Promise<void> {
  for (let start = 0; start < userInfoIds.length; start += OPEN_BATCH) {
    const rows = userInfoIds.slice(start, start + OPEN_BATCH).flatMap((userInfoId) =>
      ACCOUNT_TYPES.map((accountType) => ({ tenant_id: tenantId, id: newId(), user_info_id: userInfoId, account_type: accountType, balance: 0, created_at: now, created_by: operatorId, updated_at: now, updated_by: operatorId })),
    );
    await trx
      .insertInto("user_account")
      .values(rows)
      .onConflict((oc) => oc.columns(["tenant_id", "user_info_id", "account_type"]).doNothing())
      .execute();
  }
}

/**
 * The one way a balance changes: the account is updated only if the new balance stays at or above −creditLimit
 * (refused with 409 余额不足 otherwise), the line records the balance after, and the diner's month (decision 040) and
 * the day (decision 044) count the line. Call inside `inWriteTransaction`.
 */
export async function post(trx: Trx, posting: Posting): Promise<LedgerLine> {
  const { tenantId, amount } = posting;
  if (!Number.isSafeInteger(amount) || amount === 0) throw new ApiError(Status.BAD_REQUEST, ledgerMessages.zero);
  await lockDiner(trx, tenantId, posting.userInfoId);
  const credit = Math.max(0, posting.creditLimit ?? 0);
  const occurredAt = posting.occurredAt ?? Date.now();
  const locked = await lockedMonth(trx, tenantId, occurredAt);
  if (locked) throw new ApiError(Status.CONFLICT, ledgerMessages.lockedMonth(locked));
  const [updated] = await moveBalance(trx, amount, occurredAt, posting.operatorId ?? null, tenantId, posting.userInfoId, posting.accountType, -credit);
  if (!updated) {
    const account = await trx
      .selectFrom("user_account")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("user_info_id", "=", posting.userInfoId)
      .where("account_type", "=", posting.accountType)
      .executeTakeFirst();
    throw new ApiError(Status.CONFLICT, account ? ledgerMessages.insufficient : ledgerMessages.accountMissing);
  }
  const id = newId();
  await insertRow(trx, "user_account_ledger", {
    tenant_id: tenantId,
    id,
    user_info_id: posting.userInfoId,
    account_id: updated.id,
    account_type: posting.accountType,
    busi_type: posting.busiType,
    amount,
    balance_after: Number(updated.balance),
    pay_flag: posting.payFlag,
    operator_id: posting.operatorId ?? null,
    operator_name: posting.operatorName ?? null,
    doc_type: posting.docType ?? null,
    doc_id: posting.docId ?? null,
    idempotency_key: posting.idempotencyKey ?? null,
    reversal_of: posting.reversalOf ?? null,
    remark: posting.remark ?? null,
    occurred_at: occurredAt,
    created_at: occurredAt,
    created_by: posting.operatorId ?? null,
    updated_at: occurredAt,
    updated_by: posting.operatorId ?? null,
  });
  const counted = { tenantId, userInfoId: posting.userInfoId, accountType: posting.accountType, busiType: posting.busiType, amount, occurredAt };
  await countLedgerMonth(trx, counted);
  await countLedgerDay(trx, counted);
  return { id, accountId: updated.id, accountType: posting.accountType, amount, balanceAfter: Number(updated.balance), busiType: posting.busiType, occurredAt };
}

/** The account's conditional update in `post`, compiled once: it runs for every movement. */
const moveBalance = preparedQuery("ledger move balance", (trx: Trx, amount: number, at: number, operatorId: number | null, tenantId: number, userInfoId: number, accountType: AccountType, floor: number) =>
  trx
    .updateTable("user_account")
    .set({ balance: sql`balance + ${amount}`, updated_at: at, updated_by: operatorId })
    .where("tenant_id", "=", tenantId)
    .where("user_info_id", "=", userInfoId)
    .where("account_type", "=", accountType)
    .where(sql<boolean>`balance + ${amount} >= ${floor}`)
    .returning(["id", "balance"]),
);

const dinersLocked = new WeakMap<Trx, Set<number>>();

/**
 * PostgreSQL: locks the diner's row for the rest of the transaction (SQLite writes one transaction at a time). Every
 * transaction that moves a diner's money takes this lock before any of their accounts (`post` and `deduct` do, `pay`
 * first of all), so a diner's payments, cancels, refunds and top-ups queue here, one at a time, whatever order they
 * then touch the cash and subsidy accounts in: without it a refund (cash, then subsidy) and a payment (subsidy, then
 * cash) of one diner deadlocked. NO KEY UPDATE, not UPDATE: the ledger's and the orders' foreign keys take KEY SHARE
 * on this row, which FOR UPDATE would make a top-up wait on while it holds the account a payment waits for.
 */
export async function lockDiner(trx: Trx, tenantId: number, userInfoId: number): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  let locked = dinersLocked.get(trx);
  if (!locked) dinersLocked.set(trx, (locked = new Set()));
  if (locked.has(userInfoId)) return;
  await trx.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where("id", "=", userInfoId).forNoKeyUpdate().execute();
  locked.add(userInfoId);
}

/** Undoes a line with one of the opposite sign that names it, once (409 余额不足 if the money is already spent). */
export async function reverse(trx: Trx, tenantId: number, lineId: number, by: Omit<Posting, "tenantId" | "userInfoId" | "accountType" | "amount" | "busiType" | "payFlag" | "reversalOf"> = {}): Promise<LedgerLine> {
  const line = await trx
    .selectFrom("user_account_ledger")
    .select(["user_info_id", "account_type", "amount", "pay_flag", "reversal_of"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", lineId)
    .executeTakeFirstOrThrow();
  if (line.reversal_of !== null) throw new ApiError(Status.CONFLICT, ledgerMessages.reversalOfReversal);
  // The unique key on reversal_of also stops two reversals racing (the later one's transaction fails).
  const done = await trx.selectFrom("user_account_ledger").select("id").where("tenant_id", "=", tenantId).where("reversal_of", "=", lineId).executeTakeFirst();
  if (done) throw new ApiError(Status.CONFLICT, ledgerMessages.reversed);
  return post(trx, {
    ...by,
    tenantId,
    userInfoId: line.user_info_id,
    accountType: line.account_type as AccountType,
    amount: -line.amount,
    busiType: BusiType.REVERSAL,
    payFlag: Number(line.pay_flag),
    reversalOf: lineId,
  });
}

export interface Deduction extends Omit<Posting, "accountType" | "amount" | "busiType"> {
  /** Fen to take, > 0. */
  amount: number;
  busiType?: BusiTypeValue;
  /** The accounts that may pay, in the order they are spent (pay limits choose); default by the tenant setting. */
  accounts?: AccountType[];
  /** Spend subsidy before cash (the tenant setting `zhct.ledger.subsidyFirst`, read by the caller; default true). */
  subsidyFirst?: boolean;
}

/**
 * Takes `amount` from the diner's accounts in order (subsidy first unless told otherwise): each account gives what
 * it has, the last one may go into credit if `creditLimit` allows. All or nothing: 409 余额不足 when the accounts
 * together cannot pay. Call inside `inWriteTransaction`; the lines come back in the order written.
 */
export async function deduct(trx: Trx, deduction: Deduction): Promise<LedgerLine[]> {
  const { amount } = deduction;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new ApiError(Status.BAD_REQUEST, ledgerMessages.zero);
  const order = deduction.accounts ?? (deduction.subsidyFirst === false ? ["cash", "subsidy"] : ["subsidy", "cash"]);
  // Before the balances are read: with the diner locked they are the ones the postings below will change.
  await lockDiner(trx, deduction.tenantId, deduction.userInfoId);
  const rows = await trx
    .selectFrom("user_account")
    .select(["account_type", "balance"])
    .where("tenant_id", "=", deduction.tenantId)
    .where("user_info_id", "=", deduction.userInfoId)
    .where("account_type", "in", order)
    .execute();
  const balances = new Map(rows.map((r) => [r.account_type as AccountType, Number(r.balance)]));
  const lines: LedgerLine[] = [];
  let left = amount;
  const available = order.filter((type) => balances.has(type));
  for (const [index, type] of available.entries()) {
    const last = index === available.length - 1;
    const take = last ? left : Math.min(left, Math.max(0, balances.get(type) as number));
    if (take <= 0) continue;
    // post re-checks the balance in its UPDATE all the same, and a refusal undoes all.
    lines.push(await post(trx, { ...deduction, accountType: type, amount: -take, busiType: deduction.busiType ?? BusiType.CONSUME, creditLimit: last ? deduction.creditLimit : 0 }));
    left -= take;
    if (left === 0) break;
  }
  if (left > 0) throw new ApiError(Status.CONFLICT, ledgerMessages.insufficient);
  return lines;
}

/** The tenant's ledger settings, from system parameters (sys/parameterConfig) with these defaults. */
export interface LedgerSettings {
  minAmount: number;
  maxAmount: number;
  subsidyFirst: boolean;
}
export const DEFAULT_LEDGER_SETTINGS: LedgerSettings = { minAmount: 1, maxAmount: 1_000_000, subsidyFirst: true };
export const SETTING_CODES = { minAmount: "zhct.charge.minAmount", maxAmount: "zhct.charge.maxAmount", subsidyFirst: "zhct.ledger.subsidyFirst" } as const;

/** Compiled once: every top-up, refund and payment reads the settings. */
const settingRows = preparedQuery("ledger settings", (db: Db | Trx, tenantId: number) =>
  db.selectFrom("parameter_config").select(["param_code", "param_value"]).where("tenant_id", "=", tenantId).where("param_code", "in", Object.values(SETTING_CODES)),
);

export async function ledgerSettings(db: Db | Trx, tenantId: number): Promise<LedgerSettings> {
  const rows = await settingRows(db, tenantId);
  const value = (code: string) => rows.find((r) => r.param_code === code)?.param_value?.trim();
  const whole = (code: string, fallback: number) => {
    const n = Number(value(code));
    return value(code) && Number.isSafeInteger(n) && n > 0 ? n : fallback;
  };
  const subsidyFirst = value(SETTING_CODES.subsidyFirst);
  return {
    minAmount: whole(SETTING_CODES.minAmount, DEFAULT_LEDGER_SETTINGS.minAmount),
    maxAmount: whole(SETTING_CODES.maxAmount, DEFAULT_LEDGER_SETTINGS.maxAmount),
    subsidyFirst: subsidyFirst === undefined || subsidyFirst === "" ? true : !["0", "false", "否"].includes(subsidyFirst),
  };
}

/** Sum of the account's lines and its balance: equal unless something bypassed `post` (tests, audits). */
export async function checkAccount(db: Db | Trx, tenantId: number, accountId: number): Promise<{ balance: number; ledger: number }> {
  const account = await db.selectFrom("user_account").select("balance").where("tenant_id", "=", tenantId).where("id", "=", accountId).executeTakeFirstOrThrow();
  const sum = await db
    .selectFrom("user_account_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("total"))
    .where("tenant_id", "=", tenantId)
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return { balance: Number(account.balance), ledger: Number(sum.total) };
}
