import { permissionCode } from "../../../resources/define";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { POINTS_ADJUST_LIMIT, userAccountIntegralDetail } from "../../../resources/zhct/points";
import type { Db, Dialect } from "../../db";
import { preparedQuery } from "../../db/prepared";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { recordOperation } from "../resource/operationLog";
import { defineLedger } from "../../kernel/ledger";
import { startLeasedJob } from "../../kernel/leasedJob";
import { countPointsMonth, recountPointsMonths } from "./dinerMonths";
import { idempotent } from "../../kernel/idempotency";
import { countPointsOrderDay, recountPointsOrderDays } from "./pointsOrderDays";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { type Trx } from "./ledger";
import type { PaymentHooks } from "./payments";
import { chinaAddMonths } from "../../../resources/chinaTime";

/**
 * The diners' points (decision 025). Like money, a balance changes only through `postPoints`: one line with the
 * signed points and the balance after, and a conditional update of the diner's points account (never below zero),
 * in the caller's transaction. Lines are never edited or deleted. Points are earned by paid orders (the payment's
 * `afterPay` hook), taken back by their cancellation (`afterCancel`), expire by the strategy's rule (a job under a
 * lease) and are adjusted by staff with a reason.
 */

/** Dictionary integralChangeType. */
export const PointsChange = { EARN: 1, EXPIRE: 2, ADJUST: 3, CANCEL: 4 } as const;
export type PointsChangeValue = (typeof PointsChange)[keyof typeof PointsChange];

export const pointsMessages = {
  insufficient: "积分不足",
  dinerMissing: "人员不存在",
  zero: "积分变动不能为 0",
  adjustRange: "调整积分应为 -1000000 到 1000000 之间的整数，且不能为 0",
};

/**
 * Vouchers (加班、接待、外卖、生日、值班餐券: `userAccountFlag` 3–7) are not yuan the diner spent: they earn nothing.
 */
const VOUCHER_FLAGS = new Set([3, 4, 5, 6, 7]);

/** The same moment `months` calendar months later, China time; the 31st becomes the month's last day. */
export const addMonths = chinaAddMonths;

export interface PointsStrategy {
  id: number;
  name: string;
  pointsPerYuan: number;
  /** 0: points never expire. */
  expiryMonths: number;
}

/** The tenant's valid strategy (one at a time, `integralStrategy`), or null: no strategy, no points earned. */
export async function activeStrategy(db: Db | Trx, tenantId: number): Promise<PointsStrategy | null> {
  const [row] = await strategyRows(db, tenantId);
  return row ? { id: row.id, name: row.strategy_name, pointsPerYuan: Number(row.points_per_yuan), expiryMonths: Number(row.expiry_months) } : null;
}

/** Compiled once: every payment asks it (points earned). */
const strategyRows = preparedQuery("points active strategy", (db: Db | Trx, tenantId: number) =>
  db.selectFrom("integral_strategy").select(["id", "strategy_name", "points_per_yuan", "expiry_months"]).where("tenant_id", "=", tenantId).where("status", "=", 1).orderBy("created_at", "desc").limit(1),
);

const expiryOf = (strategy: PointsStrategy | null, at: number) => (strategy && strategy.expiryMonths > 0 ? addMonths(at, strategy.expiryMonths) : null);

export interface PointsLine {
  tenantId: number;
  userInfoId: number;
  changeType: PointsChangeValue;
  /** Signed: positive adds. 0 only for a cancellation that found nothing left to take (it still records the refund). */
  points: number;
  /** Earn: the fen paid; cancel: the fen refunded. */
  amount?: number | null;
  orderId?: number | null;
  orderNo?: string | null;
  /** When a positive line's points expire (null: never). */
  expiresAt?: number | null;
  operatorId?: number | null;
  operatorName?: string | null;
  reason?: string | null;
  occurredAt: number;
}

/**
 * The points ledger (decision 059): the diner's points account, opened by their first line, never below zero (409
 * 积分不足); a line records the balance after, the diner's month (decision 040) and the order's day count it.
 */
export const pointsLedger = defineLedger({
  name: "points",
  balances: { table: "user_integral_account", id: "id", opens: true },
  lines: { table: "user_account_integral_detail", columns: { docId: "order_id", operatorName: "operator_name", remark: "reason" } },
  key: { userInfoId: "user_info_id" },
  quantity: { balance: "balance", line: "points", after: "balance_after" },
  extra: { changeType: "change_type", fen: "amount", orderNo: "order_no", expiresAt: "expires_at" },
  allowsZero: (entry) => entry.extra?.changeType === PointsChange.CANCEL,
  projections: [
    {
      name: "dinerMonthsPoints",
      apply: (trx, line) => countPointsMonth(trx, { tenantId: line.tenantId, userInfoId: Number(line.key.userInfoId), changeType: Number(line.extra?.changeType), points: line.quantity, occurredAt: line.occurredAt }),
      recount: recountPointsMonths,
    },
    {
      name: "pointsOrderDays",
      apply: (trx, line) => countPointsOrderDay(trx, { tenantId: line.tenantId, orderId: line.docId, changeType: Number(line.extra?.changeType), points: line.quantity }),
      recount: recountPointsOrderDays,
    },
  ],
  messages: { insufficient: pointsMessages.insufficient, zero: pointsMessages.zero },
});

/** The one way a points balance changes: a line of `pointsLedger`. Call inside `inWriteTransaction` (or the payment's transaction). */
export async function postPoints(trx: Trx, line: PointsLine): Promise<{ id: number; balanceAfter: number }> {
  const posted = await pointsLedger.post(trx, {
    tenantId: line.tenantId,
    key: { userInfoId: line.userInfoId },
    quantity: line.points,
    docType: null,
    docId: line.orderId ?? null,
    operatorId: line.operatorId,
    operatorName: line.operatorName,
    remark: line.reason,
    occurredAt: line.occurredAt,
    extra: { changeType: line.changeType, fen: line.amount ?? null, orderNo: line.orderNo ?? null, expiresAt: line.points > 0 ? (line.expiresAt ?? null) : null },
  });
  return { id: posted.id, balanceAfter: posted.balanceAfter };
}

/** A diner's points balance (0 before their first line). */
export async function pointsBalance(db: Db | Trx, tenantId: number, userInfoId: number): Promise<number> {
  const row = await db.selectFrom("user_integral_account").select("balance").where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId).executeTakeFirst();
  return Number(row?.balance ?? 0);
}

// ---- Earning and taking back: the payment's hooks -------------------------------------------------------------

/** What the payment tells the points hooks about a paid (or cancelled) order. */
export interface PointsOrder {
  tenantId: number;
  id: number;
  orderNo?: string | null;
  /** The diner who paid; an order without one (a walk-in paid in cash) earns nothing. */
  userInfoId: number | null;
  /** Fen the diner paid for the order. */
  paidFen: number;
  payFlag: number | string;
}

const yuanText = (fen: number) => (fen / 100).toFixed(2);

/**
 * The payment's `afterPay` hook: the order earns ⌊paid yuan × the strategy's points per yuan⌋ (counted in fen, so
 * 12.34 yuan at 10 a yuan earns 123), once per order. Nothing without a valid strategy, for vouchers or for a zero
 * amount.
 */
export async function earnPointsForOrder(trx: Trx, order: PointsOrder, now = Date.now()): Promise<{ id: number; points: number } | null> {
  const paid = Math.trunc(Number(order.paidFen));
  if (!order.userInfoId || !(paid > 0) || VOUCHER_FLAGS.has(Number(order.payFlag))) return null;
  const strategy = await activeStrategy(trx, order.tenantId);
  if (!strategy || strategy.pointsPerYuan <= 0) return null;
  const points = Math.floor((paid * strategy.pointsPerYuan) / 100);
  if (points <= 0) return null;
  const earned = await trx
    .selectFrom("user_account_integral_detail")
    .select("id")
    .where("tenant_id", "=", order.tenantId)
    .where("order_id", "=", order.id)
    .where("change_type", "=", PointsChange.EARN)
    .executeTakeFirst();
  if (earned) return null;
  const line = await postPoints(trx, {
    tenantId: order.tenantId,
    userInfoId: order.userInfoId,
    changeType: PointsChange.EARN,
    points,
    amount: paid,
    orderId: order.id,
    orderNo: order.orderNo ?? null,
    expiresAt: expiryOf(strategy, now),
    operatorName: "系统",
    reason: `消费 ${yuanText(paid)} 元，${strategy.name}：每元 ${strategy.pointsPerYuan} 积分`,
    occurredAt: now,
  });
  return { id: line.id, points };
}

/**
 * The payment's `afterCancel` hook: takes back what the refunded part of the order earned. After refunds totalling
 * R of a paid P the order keeps ⌊earned × (P − R) / P⌋ points; each refund takes the difference it makes. If the
 * diner has already spent or lost (expired) those points, only what the balance holds is taken (never below zero),
 * and the line says what was due: the rest is forgiven. A cancellation line of 0 points still records the refund,
 * so later partial refunds count from it.
 */
export async function takeBackPointsForOrder(
  trx: Trx,
  order: Pick<PointsOrder, "tenantId" | "id" | "orderNo">,
  refundFen: number,
  now = Date.now(),
  /** The order's refunds in all, this one included, when the order keeps them (partial refunds this hook did not see count too). */
  refundedTotal?: number,
): Promise<{ id: number; points: number } | null> {
  const refund = Math.trunc(Number(refundFen));
  if (!(refund > 0) && refundedTotal === undefined) return null;
  const lines = await trx
    .selectFrom("user_account_integral_detail")
    .select(["user_info_id", "change_type", "points", "amount"])
    .where("tenant_id", "=", order.tenantId)
    .where("order_id", "=", order.id)
    .where("change_type", "in", [PointsChange.EARN, PointsChange.CANCEL])
    .execute();
  const earn = lines.find((l) => Number(l.change_type) === PointsChange.EARN);
  if (!earn) return null;
  const earned = Number(earn.points);
  const paid = Number(earn.amount);
  const before = Math.min(paid, lines.filter((l) => Number(l.change_type) === PointsChange.CANCEL).reduce((s, l) => s + Number(l.amount ?? 0), 0));
  if (before >= paid) return null;
  const after = Math.min(paid, refundedTotal ?? before + refund);
  if (after <= before) return null;
  const keep = (refunded: number) => Math.floor((earned * (paid - refunded)) / paid);
  const due = keep(before) - keep(after);
  const balance = await pointsBalance(trx, order.tenantId, earn.user_info_id);
  const taken = Math.min(due, balance);
  const line = await postPoints(trx, {
    tenantId: order.tenantId,
    userInfoId: earn.user_info_id,
    changeType: PointsChange.CANCEL,
    points: -taken,
    amount: after - before,
    orderId: order.id,
    orderNo: order.orderNo ?? null,
    operatorName: "系统",
    reason: taken < due ? `退款 ${yuanText(after - before)} 元，应扣回 ${due} 积分，积分余额不足，实扣 ${taken}` : `退款 ${yuanText(after - before)} 元，扣回 ${taken} 积分`,
    occurredAt: now,
  });
  return { id: line.id, points: -taken };
}

// An order paid through the ledger earns on what it took; one paid otherwise (a meal ticket) earns nothing. A
// cancellation or a part refund (a complaint upheld) counts from the order's own refunded total.
/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const pointsPaymentHooks: PaymentHooks = {
  async afterPay(trx, order) {
    if (order.paidBy.kind !== "ledger") return;
    await earnPointsForOrder(trx, { tenantId: order.tenantId, id: order.id, orderNo: order.orderNo, userInfoId: order.userInfoId, paidFen: order.paidAmount, payFlag: order.payFlag });
  },
  async afterCancel(trx, order, refundFen) {
    await takeBackPointsForOrder(trx, order, refundFen, Date.now(), order.refundedAmount);
  },
  async afterRefund(trx, order, refundFen) {
    await takeBackPointsForOrder(trx, order, refundFen, Date.now(), order.refundedAmount);
  },
};

// ---- Expiry ---------------------------------------------------------------------------------------------------

export interface ReplayLine {
  points: number;
  changeType: number;
  expiresAt: number | null;
  occurredAt: number;
}

/**
 * How many of a diner's points have expired by `now` and not yet been written off, replaying their lines in order:
 * each positive line is a lot with its expiry; a spending (adjustment down, cancellation) takes from the lots that
 * expire soonest (those that never expire last), which is the diner's best case; an expiry line takes the lots that
 * were due at its time. What is left in lots due by `now` is what expires. Replaying the written expiry lines is
 * what makes a second run find nothing.
 */
export function pointsToExpire(lines: ReplayLine[], now: number): number {
  const lots: Array<{ left: number; expiresAt: number }> = [];
  const byExpiry = () => lots.sort((a, b) => a.expiresAt - b.expiresAt);
  for (const line of lines) {
    if (line.points > 0) {
      lots.push({ left: line.points, expiresAt: line.expiresAt ?? Number.POSITIVE_INFINITY });
      continue;
    }
    let need = -line.points;
    byExpiry();
    const from = line.changeType === PointsChange.EXPIRE ? [...lots.filter((l) => l.expiresAt <= line.occurredAt), ...lots.filter((l) => l.expiresAt > line.occurredAt)] : lots;
    for (const lot of from) {
      if (need === 0) break;
      const take = Math.min(lot.left, need);
      lot.left -= take;
      need -= take;
    }
  }
  return lots.filter((l) => l.expiresAt <= now).reduce((sum, l) => sum + l.left, 0);
}

/**
 * Writes off the points due by `now` for every diner of every tenant who has some, one diner per transaction: the
 * diner's lines are replayed inside the transaction, after the account row is locked (PostgreSQL) or the write lock
 * taken (SQLite), so two runs at once, or a rerun, expire each point once.
 */
export async function expirePoints(db: Db, dialect: Dialect, now: number): Promise<{ diners: number; points: number }> {
  const due = await db
    .selectFrom("user_account_integral_detail as d")
    .innerJoin("user_integral_account as a", (join) => join.onRef("a.tenant_id", "=", "d.tenant_id").onRef("a.user_info_id", "=", "d.user_info_id"))
    .select(["d.tenant_id", "d.user_info_id"])
    .distinct()
    .where("d.expires_at", "<=", now)
    .where("d.points", ">", 0)
    .where("a.balance", ">", 0)
    .execute();
  let diners = 0;
  let points = 0;
  for (const { tenant_id: tenantId, user_info_id: userInfoId } of due) {
    const expired = await inWriteTransaction(db, dialect, async (trx) => {
      let account = trx.selectFrom("user_integral_account").select("balance").where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId);
      if (dialect === "postgres") account = account.forUpdate();
      const balance = Number((await account.executeTakeFirst())?.balance ?? 0);
      const lines = await trx
        .selectFrom("user_account_integral_detail")
        .select(["points", "change_type", "expires_at", "occurred_at"])
        .where("tenant_id", "=", tenantId)
        .where("user_info_id", "=", userInfoId)
        .orderBy("occurred_at")
        .orderBy("id")
        .execute();
      const amount = Math.min(balance, pointsToExpire(lines.map((l) => ({ points: Number(l.points), changeType: Number(l.change_type), expiresAt: l.expires_at === null ? null : Number(l.expires_at), occurredAt: Number(l.occurred_at) })), now));
      if (amount <= 0) return 0;
      await postPoints(trx, { tenantId, userInfoId, changeType: PointsChange.EXPIRE, points: -amount, operatorName: "系统", reason: "积分到期", occurredAt: now });
      return amount;
    });
    if (expired > 0) {
      diners++;
      points += expired;
    }
  }
  return { diners, points };
}

const JOB = "zhct.pointsExpiry";

/** Runs the expiry every `everyMs` in the instance that takes the job's lease; the replay keeps it once anyway. */
export function startPointsExpiryScheduler(db: Db, dialect: Dialect, everyMs = 10 * 60_000, leaseMs = 10 * 60_000): { stop(): Promise<void> } {
  return startLeasedJob(db, JOB, (now) => expirePoints(db, dialect, now), everyMs, leaseMs);
}

// ---- Manual adjustment ----------------------------------------------------------------------------------------

const ADJUST_LIMIT = POINTS_ADJUST_LIMIT;

export const adjustBody = z.strictObject({
  userInfoId: fieldSchema({ name: "userInfoId", label: "人员", type: "relation", required: true, min: 1 }, false),
  points: fieldSchema({ name: "points", label: "调整积分", type: "number", required: true, min: -ADJUST_LIMIT, max: ADJUST_LIMIT }, false),
  reason: fieldSchema({ name: "reason", label: "调整原因", type: "text", required: true, max: 200 }, false),
});

/** Staff add or take points with a reason (taking more than the balance is 409 积分不足). Idempotency-Key accepted. */
export async function adjustPoints(ctx: SessionContext, input: z.output<typeof adjustBody>): Promise<{ id: number; balance: number }> {
  const tenantId = ctx.session.tenantId;
  const userInfoId = input.userInfoId as number;
  const points = input.points as number;
  if (points === 0) throw fieldError("points", pointsMessages.adjustRange);
  const diner = await ctx.services.db.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where("id", "=", userInfoId).executeTakeFirst();
  if (!diner) throw fieldError("userInfoId", pointsMessages.dinerMissing);
  const strategy = points > 0 ? await activeStrategy(ctx.services.db, tenantId) : null;
  return idempotent(ctx, input, async (trx) => {
    const line = await postPoints(trx, {
      tenantId,
      userInfoId,
      changeType: PointsChange.ADJUST,
      points,
      // Points added by hand expire like earned ones, by the valid strategy's rule.
      expiresAt: expiryOf(strategy, ctx.now),
      operatorId: ctx.session.userId,
      operatorName: ctx.session.userName,
      reason: input.reason as string,
      occurredAt: ctx.now,
    });
    await recordOperation(trx, ctx, userAccountIntegralDetail, line.id, "adjust", { userInfoId, points, reason: input.reason });
    return { id: line.id, balance: line.balanceAfter };
  });
}

export const pointsEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userAccountIntegralDetail/adjust",
    summary: "积分调整：points 为正增加、为负扣减（不能扣成负数，409 积分不足），reason 必填 → { id, balance }；支持 Idempotency-Key 请求头",
    access: permission(permissionCode(userAccountIntegralDetail, "adjust")),
    body: adjustBody,
    handle: (ctx, { body }) => adjustPoints(ctx as SessionContext, body),
  }),
];
