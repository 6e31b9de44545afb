import { AsyncResource } from "node:async_hooks";
import { PostgresAdapter, sql, type Kysely } from "kysely";
import { newId, type Db, type Dialect } from "../../db";
import { insertRow, preparedQuery } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { ApiError, Status } from "../../http/envelope";
import { countLedgerMonth } from "./dinerMonths";
import { countLedgerDay } from "./ledgerDays";

/**
 * The money ledger (decision 017). Every change of a balance goes through `post`: one ledger line and a conditional
 * update of the account, inside the caller's transaction, which `inLedgerTransaction` opens (BEGIN IMMEDIATE on
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

/**
 * Runs `work` in one transaction. On PostgreSQL a plain transaction: `post`'s conditional UPDATE locks the account
 * row and re-checks the balance. On SQLite the work joins a group commit (decision 037): the movements waiting when
 * the connection comes free, and those that arrive while the group is young (decision 050), run one after another,
 * each in a SAVEPOINT of one BEGIN IMMEDIATE transaction, and the group ends in one COMMIT (one disk sync with
 * `synchronous = FULL`). A movement that throws rolls back only its savepoint; every promise settles only after the
 * COMMIT has returned, so nothing is acknowledged before it is on disk. IMMEDIATE takes the write lock first, so two
 * processes on one file queue on busy_timeout instead of one failing with SQLITE_BUSY when its read turns into a
 * write.
 */
export async function inLedgerTransaction<T>(db: Db, dialect: Dialect, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (dialect === "postgres") return db.transaction().execute(work);
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.submit(work);
}

/** How many groups a database's ledger has committed and how many movements they held (tests, the bench). */
export function groupCommitStats(db: Db): { commits: number; movements: number; waiting: number } {
  const group = groups.get(db);
  return { commits: group?.commits ?? 0, movements: group?.movements ?? 0, waiting: group?.waitingCount ?? 0 };
}

// A bound on one group, so a burst cannot hold the write lock for long; the rest go in the next group.
const GROUP_LIMIT = 200;
// How long after its BEGIN a group still takes in the movements that arrive while it runs (decision 050). Every
// answer waits for its group's COMMIT, so one turned away waits for the rest of this group and then its own: the
// longer a group stays open the longer that wait can be under a steady stream, and a group closed at once makes a
// terminal that paid a moment late wait a whole group (p99 twice p50 at 20 terminals).
export const GROUP_JOIN_MS = 15;

interface Movement {
  work: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

const groups = new WeakMap<Db, GroupCommit>();

class GroupCommit {
  private readonly waiting: Movement[] = [];
  private scheduled = false;
  commits = 0;
  movements = 0;

  constructor(private readonly db: Db) {}

  get waitingCount(): number {
    return this.waiting.length;
  }

  submit<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The work runs inside the group's flush, but must see its own request's async context (AsyncLocalStorage:
      // a booking's payment hooks read the reservation from it), not that of whichever request started the group.
      this.waiting.push({ work: AsyncResource.bind(work), resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * A group starts two turns of the event loop after its first movement, not at once: better-sqlite3's COMMIT blocks
   * the loop while the disk syncs, the requests that came meanwhile are read in one go after it, and each reaches
   * `submit` within that turn (its reads run synchronously underneath Kysely's promises); the second turn lets
   * those read a moment later join too (measured: 2.8 → 3.4 top-ups per commit at 4 connections, 10.7 → 16.8
   * payments at 20 terminals). An idle loop passes two turns in microseconds.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => setImmediate(() => void this.flush()));
  }

  /**
   * One group of those waiting. The connection is Kysely's only writer: while a group holds it no other request
   * reads or writes through it (nothing sees a group's uncommitted rows). A request reads its session, permissions
   * and Idempotency-Key on the reader (readerOf), so one that arrives meanwhile can still join this group.
   */
  private async flush(): Promise<void> {
    try {
      await this.db
        .connection()
        .execute((conn) => this.group(conn))
        .catch(() => {}); // each movement of the group has been answered with the error
    } finally {
      this.scheduled = false;
      if (this.waiting.length) this.schedule();
    }
  }

  private async group(conn: Trx): Promise<void> {
    const group: Movement[] = [];
    const fail = (error: unknown) => {
      for (const m of group) m.reject(error);
    };
    // Taken before BEGIN, so a refused BEGIN (SQLITE_BUSY after busy_timeout) answers these and no others.
    group.push(...this.waiting.splice(0, GROUP_LIMIT));
    try {
      await sql`begin immediate`.execute(conn);
    } catch (error) {
      fail(error);
      return;
    }
    let refusal: unknown; // the movement's error while its savepoint is being undone
    const joinUntil = performance.now() + GROUP_JOIN_MS;
    try {
      for (let i = 0; i < group.length; i++) {
        const movement = group[i];
        await sql`savepoint ledger_movement`.execute(conn);
        try {
          movement.outcome = { ok: true, value: await movement.work(conn) };
          await sql`release ledger_movement`.execute(conn);
        } catch (error) {
          movement.outcome = { ok: false, error };
          refusal = error;
          await sql`rollback to ledger_movement`.execute(conn);
          await sql`release ledger_movement`.execute(conn);
          refusal = undefined;
        }
        // A movement's statements never give the event loop a turn (better-sqlite3 answers synchronously), so
        // without this one the requests that came meanwhile would be read only after the COMMIT. Read now, they
        // reach `submit` and join this group while it is young, up to the bound.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (group.length < GROUP_LIMIT && this.waiting.length && performance.now() < joinUntil) group.push(...this.waiting.splice(0, GROUP_LIMIT - group.length));
      }
      await sql`commit`.execute(conn);
    } catch (error) {
      // ROLLBACK TO or COMMIT failed: SQLite may have ended the transaction itself (SQLITE_FULL, an I/O error).
      // Nothing of the group is kept, so every movement in it hears the error, those that had succeeded too.
      await sql`rollback`.execute(conn).catch(() => {});
      fail(refusal ?? error);
      return;
    }
    this.commits++;
    this.movements += group.length;
    for (const m of group) {
      const outcome = m.outcome as NonNullable<Movement["outcome"]>;
      if (outcome.ok) m.resolve(outcome.value);
      else m.reject(outcome.error);
    }
  }
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
 * the day (decision 044) count the line. Call inside `inLedgerTransaction`.
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
 * together cannot pay. Call inside `inLedgerTransaction`; the lines come back in the order written.
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
