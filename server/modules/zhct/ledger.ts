import { PostgresAdapter, type Kysely } from "kysely";
import { newId, type Db } from "../../db";
import { preparedQuery } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { ApiError, Status } from "../../http/envelope";
import { defineLedger, type LedgerEntry, type PostedLine, type ReversalBy } from "../../kernel/ledger";
import { countLedgerMonth, recountLedgerMonths } from "./dinerMonths";
import { formalMonthOf } from "./formalMonths";
import { countLedgerDay, recountLedgerDays } from "./ledgerDays";

/**
 * The money ledger (decisions 017, 059): an instance of the kernel's `defineLedger`. Every change of a balance goes
 * through `post`: one ledger line and a conditional update of the account, inside the caller's transaction, which
 * `inWriteTransaction` opens (BEGIN IMMEDIATE on SQLite). Nothing edits or deletes a line; a mistake is undone by a
 * line of the opposite sign (`reverse`).
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
  /** A dormitory's water, electricity and rent share paid from the canteen account (issue 36, decision 074). */
  DORM_FEE: 7,
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
  /** How a top-up's money came in, or a refund's went out: a code of the tenant's `topUpChannel` (decision 064). */
  channel?: string | null;
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

/** A money line as the money ledger's projections read it. */
const counted = (line: PostedLine) => ({
  tenantId: line.tenantId,
  userInfoId: Number(line.key.userInfoId),
  accountType: String(line.key.accountType),
  busiType: Number(line.extra?.busiType),
  amount: line.quantity,
  occurredAt: line.occurredAt,
});

/**
 * The money ledger (decision 059): a diner's account per account type, never below −creditLimit (409 余额不足), not
 * into a formal month; a line records the balance after, and the diner's month (decision 040) and the day (decision
 * 044) count it.
 */
export const moneyLedger = defineLedger({
  name: "money",
  balances: { table: "user_account", id: "id", opens: false },
  lines: {
    table: "user_account_ledger",
    columns: { balanceId: "account_id", operatorId: "operator_id", operatorName: "operator_name", docType: "doc_type", docId: "doc_id", idempotencyKey: "idempotency_key", reversalOf: "reversal_of", remark: "remark" },
  },
  key: { userInfoId: "user_info_id", accountType: "account_type" },
  quantity: { balance: "balance", line: "amount", after: "balance_after" },
  extra: { busiType: "busi_type", payFlag: "pay_flag", channel: "channel" },
  floor: (entry) => -Math.max(0, entry.creditLimit ?? 0),
  lockedPeriod: formalMonthOf,
  lockFirst: (trx, entry) => lockDiner(trx, entry.tenantId, Number(entry.key.userInfoId)),
  reversalExtra: (extra) => ({ busiType: BusiType.REVERSAL, payFlag: Number(extra.payFlag), channel: extra.channel ?? null }),
  projections: [
    { name: "dinerMonthsLedger", apply: (trx, line) => countLedgerMonth(trx, counted(line)), recount: recountLedgerMonths },
    { name: "ledgerDays", apply: (trx, line) => countLedgerDay(trx, counted(line)), recount: recountLedgerDays },
  ],
  messages: {
    insufficient: ledgerMessages.insufficient,
    zero: ledgerMessages.zero,
    missing: ledgerMessages.accountMissing,
    locked: ledgerMessages.lockedMonth,
    reversed: ledgerMessages.reversed,
    reversalOfReversal: ledgerMessages.reversalOfReversal,
  },
});

const lineOf = (line: PostedLine): LedgerLine => ({
  id: line.id,
  accountId: line.balanceId as number,
  accountType: line.key.accountType as AccountType,
  amount: line.quantity,
  balanceAfter: line.balanceAfter,
  busiType: line.extra?.busiType as BusiTypeValue,
  occurredAt: line.occurredAt,
});

/** The money ledger's line of a posting. */
const entryOf = (posting: Posting): LedgerEntry => ({
  tenantId: posting.tenantId,
  key: { userInfoId: posting.userInfoId, accountType: posting.accountType },
  quantity: posting.amount,
  docType: posting.docType ?? null,
  docId: posting.docId ?? null,
  occurredAt: posting.occurredAt,
  operatorId: posting.operatorId,
  operatorName: posting.operatorName,
  remark: posting.remark,
  idempotencyKey: posting.idempotencyKey,
  reversalOf: posting.reversalOf,
  creditLimit: posting.creditLimit,
  extra: { busiType: posting.busiType, payFlag: posting.payFlag, channel: posting.channel ?? null },
});

/** The one way a balance changes: a line of `moneyLedger`. Call inside `inWriteTransaction`. */
export async function post(trx: Trx, posting: Posting): Promise<LedgerLine> {
  return lineOf(await moneyLedger.post(trx, entryOf(posting)));
}

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
export async function reverse(trx: Trx, tenantId: number, lineId: number, by: ReversalBy = {}): Promise<LedgerLine> {
  return lineOf(await moneyLedger.reverse(trx, tenantId, lineId, by));
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
  const account = await db.selectFrom("user_account").select(["user_info_id", "account_type"]).where("tenant_id", "=", tenantId).where("id", "=", accountId).executeTakeFirstOrThrow();
  return moneyLedger.compare(db, tenantId, { userInfoId: account.user_info_id, accountType: account.account_type });
}
