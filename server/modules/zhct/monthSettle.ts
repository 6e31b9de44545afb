import { sql } from "kysely";
import { permissionCode } from "../../../resources/define";
import { z } from "../../../resources/z";
import { userAccountMonthSettle } from "../../../resources/zhct/settle";
import { newId, type Db, type Dialect } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { recordOperation } from "../resource/operationLog";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { lockMonth, isFormal, SettleStatus } from "./formalMonths";
import { BusiType, type Trx } from "./ledger";
import { MONTH_PATTERN, monthRange, previousMonth } from "./months";

/**
 * Monthly settlement of the accounts (decision 022). 生成 recomputes a month from the ledger into 暂存 rows, one per
 * account; 转正式 checks the rows still match the ledger and locks the month: from then on `post` refuses any line
 * dated into it (formalMonths.ts's check, the money ledger's locked periods).
 */

export const settleMessages = {
  month: "月份格式应为 2026-05",
  future: "不能结算未来的月份",
  formalAlready: (month: string) => `${month} 已正式结算，不能重新生成`,
  notGenerated: (month: string) => `${month} 还没有生成结算，请先生成`,
  previousNotFormal: (prev: string) => `请先将 ${prev} 转正式`,
  chainBroken: (prev: string, month: string) => `${prev} 的期末余额与 ${month} 的期初不一致，请先重新生成 ${prev}`,
  changed: (month: string) => `${month} 的流水在生成后有变化，请重新生成后再转正式`,
};

export interface SettleRow {
  accountId: number;
  userInfoId: number;
  accountType: string;
  opening: number;
  topUp: number;
  refund: number;
  reversal: number;
  subsidyGrant: number;
  subsidyClear: number;
  consume: number;
  closing: number;
}

const AMOUNTS = ["opening", "topUp", "refund", "reversal", "subsidyGrant", "subsidyClear", "consume", "closing"] as const;

/** Each account of the tenant in `month`, from the ledger: the sum before the month, the month's lines by kind. */
export async function computeMonth(trx: Trx | Db, tenantId: number, month: string): Promise<SettleRow[]> {
  const { start, end } = monthRange(month);
  const accounts = await trx.selectFrom("user_account").select(["id", "user_info_id", "account_type"]).where("tenant_id", "=", tenantId).execute();
  const inMonth = (types: number[]) =>
    sql<number>`coalesce(sum(case when occurred_at >= ${start} and busi_type in (${sql.join(types)}) then amount else 0 end), 0)`;
  const sums = await trx
    .selectFrom("user_account_ledger")
    .select([
      "account_id",
      sql<number>`coalesce(sum(case when occurred_at < ${start} then amount else 0 end), 0)`.as("opening"),
      inMonth([BusiType.TOP_UP]).as("top_up"),
      inMonth([BusiType.REFUND]).as("refund"),
      inMonth([BusiType.REVERSAL]).as("reversal"),
      inMonth([BusiType.GRANT]).as("subsidy_grant"),
      inMonth([BusiType.CLEAR]).as("subsidy_clear"),
      inMonth([BusiType.CONSUME, BusiType.CONSUME_RETURN]).as("consume"),
      sql<number>`coalesce(sum(amount), 0)`.as("closing"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("occurred_at", "<", end)
    .groupBy("account_id")
    .execute();
  const byAccount = new Map(sums.map((s) => [s.account_id, s]));
  return accounts.map((a) => {
    const s = byAccount.get(a.id);
    return {
      accountId: a.id,
      userInfoId: a.user_info_id,
      accountType: String(a.account_type),
      opening: Number(s?.opening ?? 0),
      topUp: Number(s?.top_up ?? 0),
      refund: Number(s?.refund ?? 0),
      reversal: Number(s?.reversal ?? 0),
      subsidyGrant: Number(s?.subsidy_grant ?? 0),
      subsidyClear: Number(s?.subsidy_clear ?? 0),
      consume: Number(s?.consume ?? 0),
      closing: Number(s?.closing ?? 0),
    };
  });
}

const keyOf = (r: { userInfoId: number; accountType: string }) => `${r.userInfoId}:${r.accountType}`;

async function storedRows(trx: Trx, tenantId: number, month: string) {
  const rows = await trx.selectFrom("user_account_month_settle").selectAll().where("tenant_id", "=", tenantId).where("month", "=", month).execute();
  return rows.map((r) => ({
    userInfoId: r.user_info_id,
    accountType: String(r.account_type),
    opening: Number(r.opening),
    topUp: Number(r.top_up),
    refund: Number(r.refund),
    reversal: Number(r.reversal),
    subsidyGrant: Number(r.subsidy_grant),
    subsidyClear: Number(r.subsidy_clear),
    consume: Number(r.consume),
    closing: Number(r.closing),
    settleStatus: Number(r.settle_status),
  }));
}

/** The closing of the month before (where it was settled) must be this month's opening, account by account. */
async function checkChain(trx: Trx, tenantId: number, month: string, rows: SettleRow[], requireFormal: boolean) {
  const prev = previousMonth(month);
  const before = await storedRows(trx, tenantId, prev);
  if (!before.length) return;
  if (requireFormal && before.some((r) => r.settleStatus !== SettleStatus.FORMAL)) throw new ApiError(Status.CONFLICT, settleMessages.previousNotFormal(prev));
  const closing = new Map(before.map((r) => [keyOf(r), r.closing]));
  for (const row of rows) {
    const last = closing.get(keyOf(row));
    if (last !== undefined ? last !== row.opening : row.opening !== 0) throw new ApiError(Status.CONFLICT, settleMessages.chainBroken(prev, month));
  }
}

function checkMonth(month: unknown, now: number): string {
  if (typeof month !== "string" || !MONTH_PATTERN.test(month)) throw fieldError("month", settleMessages.month);
  if (monthRange(month).start > now) throw fieldError("month", settleMessages.future);
  return month;
}

export interface SettleBy {
  now: number;
  operatorId?: number | null;
}

/** 生成: the month's 暂存 rows recomputed from the ledger (refused once the month is formal). */
export async function generateMonth(db: Db, dialect: Dialect, tenantId: number, monthInput: string, by: SettleBy) {
  const month = checkMonth(monthInput, by.now);
  return inWriteTransaction(db, dialect, async (trx) => {
    await lockMonth(trx, tenantId, month, "exclusive");
    if (await isFormal(trx, tenantId, month)) throw new ApiError(Status.CONFLICT, settleMessages.formalAlready(month));
    const rows = await computeMonth(trx, tenantId, month);
    await checkChain(trx, tenantId, month, rows, false);
    await trx.deleteFrom("user_account_month_settle").where("tenant_id", "=", tenantId).where("month", "=", month).execute();
    const operator = by.operatorId ?? null;
    // 500 rows per statement keeps well under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto("user_account_month_settle")
        .values(
          rows.slice(i, i + 500).map((r) => ({
            tenant_id: tenantId,
            id: newId(),
            month,
            user_info_id: r.userInfoId,
            account_type: r.accountType,
            opening: r.opening,
            top_up: r.topUp,
            refund: r.refund,
            reversal: r.reversal,
            subsidy_grant: r.subsidyGrant,
            subsidy_clear: r.subsidyClear,
            consume: r.consume,
            closing: r.closing,
            settle_status: SettleStatus.TEMPORARY,
            generated_at: by.now,
            created_at: by.now,
            created_by: operator,
            updated_at: by.now,
            updated_by: operator,
          })),
        )
        .execute();
    }
    return { month, count: rows.length, settleStatus: String(SettleStatus.TEMPORARY), ...totals(rows) };
  });
}

function totals(rows: SettleRow[]) {
  return { opening: rows.reduce((s, r) => s + r.opening, 0), closing: rows.reduce((s, r) => s + r.closing, 0) };
}

/** 转正式: the stored rows must still equal the ledger and the month before must be formal; then the month is locked. */
export async function makeFormal(db: Db, dialect: Dialect, tenantId: number, monthInput: string, by: SettleBy) {
  const month = checkMonth(monthInput, by.now);
  return inWriteTransaction(db, dialect, async (trx) => {
    await lockMonth(trx, tenantId, month, "exclusive");
    const stored = await storedRows(trx, tenantId, month);
    if (!stored.length) throw new ApiError(Status.CONFLICT, settleMessages.notGenerated(month));
    if (stored.every((r) => r.settleStatus === SettleStatus.FORMAL)) throw new ApiError(Status.CONFLICT, settleMessages.formalAlready(month));
    const rows = await computeMonth(trx, tenantId, month);
    const byKey = new Map(stored.map((r) => [keyOf(r), r]));
    const same = rows.length === stored.length && rows.every((r) => {
      const s = byKey.get(keyOf(r));
      return s && AMOUNTS.every((k) => s[k] === r[k]);
    });
    if (!same) throw new ApiError(Status.CONFLICT, settleMessages.changed(month));
    await checkChain(trx, tenantId, month, rows, true);
    await trx
      .updateTable("user_account_month_settle")
      .set({ settle_status: SettleStatus.FORMAL, updated_at: by.now, updated_by: by.operatorId ?? null })
      .where("tenant_id", "=", tenantId)
      .where("month", "=", month)
      .execute();
    return { month, count: rows.length, settleStatus: String(SettleStatus.FORMAL), ...totals(rows) };
  });
}

/** The months settled so far, newest first: rows, status and totals (the generate/formal screen). */
export async function settledMonths(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom("user_account_month_settle")
    .select([
      "month",
      (eb) => eb.fn.countAll<number>().as("count"),
      (eb) => eb.fn.min<number>("settle_status").as("status"),
      (eb) => eb.fn.sum<number>("opening").as("opening"),
      (eb) => eb.fn.sum<number>("closing").as("closing"),
      (eb) => eb.fn.max<number>("generated_at").as("generated_at"),
    ])
    .where("tenant_id", "=", tenantId)
    .groupBy("month")
    .orderBy("month", "desc")
    .limit(36)
    .execute();
  return rows.map((r) => ({ month: r.month, count: Number(r.count), settleStatus: String(r.status), opening: Number(r.opening), closing: Number(r.closing), generatedAt: Number(r.generated_at) }));
}

const monthBody = z.strictObject({ month: z.string({ error: settleMessages.month }).max(7, { error: settleMessages.month }) });

async function run(ctx: SessionContext, month: string, action: "generate" | "formal") {
  const by = { now: ctx.now, operatorId: ctx.session.userId };
  const result = await (action === "generate" ? generateMonth : makeFormal)(ctx.services.db, ctx.services.dialect, ctx.session.tenantId, month, by);
  await recordOperation(ctx.services.db, ctx, userAccountMonthSettle, null, action, { month: result.month, count: result.count });
  return result;
}

const C = "/api/v1/zhct/userAccountMonthSettle";
export const monthSettleEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: `${C}/generate`,
    summary: "生成月结：按流水重新计算该月每个账户的期初、充值、退款、冲正、补贴、清零、消费与期末（暂存）",
    access: permission(permissionCode(userAccountMonthSettle, "generate")),
    body: monthBody,
    handle: (ctx, { body }) => run(ctx as SessionContext, body.month, "generate"),
  }),
  endpoint({
    method: "POST",
    path: `${C}/formal`,
    summary: "转正式：核对该月结算与流水一致、上月已正式，然后锁定该月（不能再记入该月的流水）",
    access: permission(permissionCode(userAccountMonthSettle, "formal")),
    body: monthBody,
    handle: (ctx, { body }) => run(ctx as SessionContext, body.month, "formal"),
  }),
  endpoint({
    method: "GET",
    path: `${C}/months`,
    summary: "已结算的月份：人数、状态（最低）、期初与期末合计",
    access: permission(permissionCode(userAccountMonthSettle, "view")),
    handle: (ctx) => settledMonths(ctx.services.db, (ctx as SessionContext).session.tenantId),
  }),
];
