import { sql, type Kysely } from "kysely";
import { permissionCode, resourceKey } from "../../../resources/define";
import { scIncome } from "../../../resources/sc/master";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { idempotent } from "../../kernel/idempotency";
import type { ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { parsePeriod } from "../zhct/reports";
import { closedMonthGuard, refuseClosedMonths } from "./closedMonths";

/**
 * Income generated from the canteen's orders (issue 37, decision 075). The source is what every canteen report of
 * takings reads: the orders kept per day, restaurant, meal type and payment method (`order_day`, decision 041
 * addendum), counted by pay, cancel and refund in their own transactions — 实收 = paid − refunded (订单日汇总's net),
 * 就餐份数 = placed − cancelled. A period's generated rows are replaced, never added to: generating twice gives the same
 * rows, and a refund made since changes its order's day when the day is generated again.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** sourceKind of the rows the orders make, and of those typed in (dictionary scIncomeSource). */
export const INCOME_FROM_ORDERS = 1;
export const INCOME_MANUAL = 2;

export const incomeMessages = {
  generated: "订单生成的收入不能修改或删除，请重新生成该日期",
};

export interface OrderTakings {
  day: string;
  restaurantId: number;
  payFlag: number;
  /** Orders paid less those that stopped counting (cancelled or refunded in full). */
  meals: number;
  /** Fen: paid − refunded. */
  amount: number;
}

/**
 * The orders' takings per day, restaurant and payment method over `from`–`to` (China days, inclusive), from the kept
 * days: what income is generated from, and what the reports of 收支 divide by. Orders without a restaurant (kept under
 * 0) are left out: no row of 收支 can name where they were sold.
 */
export async function orderTakings(db: AnyDb, tenantId: number, from: string, to: string, restaurantIds?: number[]): Promise<OrderTakings[]> {
  let q = db
    .selectFrom("order_day")
    .where("tenant_id", "=", tenantId)
    .where("order_date", ">=", from)
    .where("order_date", "<=", to)
    .where("restaurant_id", "!=", 0);
  if (restaurantIds) q = q.where("restaurant_id", "in", restaurantIds.length ? restaurantIds : [0]);
  const rows = (await q
    .select([
      "order_date",
      "restaurant_id",
      "pay_flag",
      sql<number>`coalesce(sum(placed - cancelled), 0)`.as("meals"),
      sql<number>`coalesce(sum(paid - refunded), 0)`.as("amount"),
    ])
    .groupBy(["order_date", "restaurant_id", "pay_flag"])
    .orderBy("order_date")
    .orderBy("restaurant_id")
    .orderBy("pay_flag")
    .execute()) as Row[];
  return rows
    .map((r) => ({ day: String(r.order_date), restaurantId: Number(r.restaurant_id), payFlag: Number(r.pay_flag), meals: Number(r.meals), amount: Number(r.amount) }))
    .filter((r) => r.meals !== 0 || r.amount !== 0);
}

export interface GenerateIncomeResult {
  from: string;
  to: string;
  /** Rows written. */
  rows: number;
  /** Generated rows of the period that were there before (replaced). */
  removed: number;
  meals: number;
  amount: number;
}

/** Replaces the generated income of `from`–`to` with the orders' takings, in one write transaction. */
export async function generateIncome(ctx: SessionContext, from: string, to: string, body: unknown): Promise<GenerateIncomeResult> {
  const tenantId = ctx.session.tenantId;
  return idempotent(ctx, body, async (trx) => {
    const db = trx as unknown as AnyDb;
    const takings = await orderTakings(db, tenantId, from, to);
    // Neither a month's rows that would go nor those that would come may lie in a place's confirmed month.
    const kept = (await db
      .selectFrom(scIncome.table)
      .select(["income_date", "restaurant_id"])
      .distinct()
      .where("tenant_id", "=", tenantId)
      .where("source_kind", "=", INCOME_FROM_ORDERS)
      .where("income_date", ">=", from)
      .where("income_date", "<=", to)
      .execute()) as Row[];
    await refuseClosedMonths(db, tenantId, [
      ...kept.map((r) => ({ placeId: Number(r.restaurant_id), month: String(r.income_date).slice(0, 7) })),
      ...takings.map((t) => ({ placeId: t.restaurantId, month: t.day.slice(0, 7) })),
    ]);
    const removed = await db
      .deleteFrom(scIncome.table)
      .where("tenant_id", "=", tenantId)
      .where("source_kind", "=", INCOME_FROM_ORDERS)
      .where("income_date", ">=", from)
      .where("income_date", "<=", to)
      .executeTakeFirst();
    const now = ctx.now;
    const rows = takings.map((t) => ({
      tenant_id: tenantId,
      id: newId(),
      income_date: t.day,
      restaurant_id: t.restaurantId,
      source_kind: INCOME_FROM_ORDERS,
      pay_flag: t.payFlag,
      source: "食堂订单",
      meals: t.meals,
      amount: t.amount,
      remark: null,
      created_at: now,
      created_by: ctx.session.userId,
      updated_at: now,
      updated_by: ctx.session.userId,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto(scIncome.table).values(rows.slice(i, i + 500)).execute();
    const result: GenerateIncomeResult = {
      from,
      to,
      rows: rows.length,
      removed: Number(removed.numDeletedRows),
      meals: takings.reduce((s, t) => s + t.meals, 0),
      amount: takings.reduce((s, t) => s + t.amount, 0),
    };
    await recordOperation(db, ctx, scIncome, null, "generate", result);
    return result;
  });
}

const generateBody = z.strictObject({
  from: fieldSchema({ name: "from", label: "开始日期", type: "date", required: true }, false),
  to: fieldSchema({ name: "to", label: "结束日期", type: "date", required: true }, false),
});

export const incomeEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/sc/scIncome/generate",
    summary:
      "按订单生成收入：from–to（含，最多 366 天）每天、餐厅、支付方式一行，金额 = 实付 − 退款（分），份数 = 订单数 − 取消数；替换该期间此前生成的行，重复执行结果相同 → { from, to, rows, removed, meals, amount }",
    access: permission(permissionCode(scIncome, "generate")),
    body: generateBody,
    handle: async (context, { body }) => {
      const ctx = context as SessionContext;
      const { from, to } = parsePeriod({ from: body.from as string, to: body.to as string }, ctx.now);
      return generateIncome(ctx, from, to, body);
    },
  }),
];

/** A generated row is the orders' figure: only generating again changes it. A typed-in row is 手工录入. */
const refuseGenerated = (current: Row) => {
  if (Number(current.source_kind) === INCOME_FROM_ORDERS) throw new ApiError(Status.CONFLICT, incomeMessages.generated);
};

export const incomeServices: Record<string, ResourceService> = {
  [resourceKey(scIncome)]: {
    ...closedMonthGuard((row) => String(row.income_date).slice(0, 7)),
    beforeCreate(_ctx, values) {
      values.sourceKind = String(INCOME_MANUAL);
    },
    beforeUpdate(_ctx, _values, current) {
      refuseGenerated(current);
    },
    beforeDelete(_ctx, current) {
      refuseGenerated(current);
    },
  },
};
