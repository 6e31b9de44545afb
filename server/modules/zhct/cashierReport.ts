import { sql } from "kysely";
import { permissionCode } from "../../../resources/define";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { cashierPrint } from "../../../resources/zhct/cashier";
import type { Db } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { dayOf, dayStart } from "./months";
import { receiptTitle } from "../sys/receiptTitle";
import { staffName } from "./settings";
import { chinaWallClock, chinaWallClockToMillis, DAY_MS } from "../../../resources/chinaTime";

/**
 * A cashier's shift or day (decision 023): the orders taken at the counter (`meal_order`, source cashier) whose
 * sale time falls in [from, to), summed by payment method and by meal time. Refunds are what has been given back of
 * those orders (cancellations and partial refunds), so a printed shift always adds up: net = paid − refunded.
 */

export const cashierReportMessages = {
  time: "时间格式应为 2026-05-01T08:00",
  range: "开始时间应早于结束时间",
  tooLong: "时间范围最多 31 天",
  restaurant: "所选餐厅不存在",
  cashier: "所选收银员不存在",
};

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
/** Orders the counter took; the devices' and the app's have summaries of their own. */
const SOURCE = "cashier";

export const summaryQuery = z.strictObject({
  from: fieldSchema({ name: "from", label: "开始时间", type: "text", max: 16 }, false),
  to: fieldSchema({ name: "to", label: "结束时间", type: "text", max: 16 }, false),
  restaurantId: fieldSchema({ name: "restaurantId", label: "餐厅", type: "relation" }, false),
  cashierId: fieldSchema({ name: "cashierId", label: "收银员", type: "number", min: 0, max: Number.MAX_SAFE_INTEGER }, false),
});

/** `2026-05-01T08:00` (China time, as a datetime-local input sends it) → epoch ms, or a 400 naming the field. */
function instantOf(value: string | null | undefined, field: string, fallback: number): number {
  const text = value?.trim();
  if (!text) return fallback;
  const at = LOCAL.test(text) ? (chinaWallClockToMillis(text) ?? Number.NaN) : Number.NaN;
  if (Number.isNaN(at) || localOf(at) !== text) throw fieldError(field, cashierReportMessages.time);
  return at;
}

const localOf = (at: number) => chinaWallClock(at).slice(0, 16);

export interface Totals {
  count: number;
  amount: number;
  refundCount: number;
  refunded: number;
  net: number;
}

const zero = (): Totals => ({ count: 0, amount: 0, refundCount: 0, refunded: 0, net: 0 });
function add(into: Totals, row: Totals) {
  into.count += row.count;
  into.amount += row.amount;
  into.refundCount += row.refundCount;
  into.refunded += row.refunded;
  into.net += row.net;
}

export async function cashierSummary(db: Db, tenantId: number, input: z.output<typeof summaryQuery>, now: number) {
  const today = dayStart(dayOf(now));
  const start = instantOf(input.from as string | undefined, "from", today);
  const end = instantOf(input.to as string | undefined, "to", today + DAY_MS);
  if (start >= end) throw fieldError("from", cashierReportMessages.range);
  if (end - start > 31 * DAY_MS) throw fieldError("from", cashierReportMessages.tooLong);
  const restaurantId = (input.restaurantId as number | null | undefined) || null;
  const cashierId = (input.cashierId as number | null | undefined) || null;
  // Filters name rows of this tenant: another's id is refused, never echoed back.
  const cashierUser = cashierId ? await db.selectFrom("user").select(["id", "user_name"]).where("tenant_id", "=", tenantId).where("id", "=", cashierId).executeTakeFirst() : null;
  if (cashierId && !cashierUser) throw fieldError("cashierId", cashierReportMessages.cashier);

  const inRange = db.selectFrom("meal_order").where("tenant_id", "=", tenantId).where("order_source", "=", SOURCE).where("paid_at", ">=", start).where("paid_at", "<", end);
  let orders = inRange;
  if (restaurantId) orders = orders.where("restaurant_id", "=", restaurantId);
  if (cashierId) orders = orders.where("cashier_id", "=", cashierId);
  const [groups, cashierRows, restaurants] = await Promise.all([
    orders
      .select([
        "pay_flag",
        "meal_times_id",
        (eb) => eb.fn.countAll<number>().as("n"),
        sql<number>`coalesce(sum(paid_amount), 0)`.as("paid"),
        sql<number>`coalesce(sum(case when refunded_amount > 0 then 1 else 0 end), 0)`.as("refund_n"),
        sql<number>`coalesce(sum(refunded_amount), 0)`.as("refunded"),
      ])
      .groupBy(["pay_flag", "meal_times_id"])
      .execute(),
    // Whoever took orders in the period, whatever the other filters: the choice of cashier.
    inRange.select(["cashier_id", (eb) => eb.fn.max("cashier_name").as("name")]).where("cashier_id", "is not", null).groupBy("cashier_id").execute(),
    db.selectFrom("org").select(["id", "org_name"]).where("tenant_id", "=", tenantId).where("org_type", "=", "restaurant").orderBy("sort").orderBy("id").execute(),
  ]);
  if (restaurantId && !restaurants.some((r) => r.id === restaurantId)) throw fieldError("restaurantId", cashierReportMessages.restaurant);
  const mealTimeIds = [...new Set(groups.map((g) => g.meal_times_id).filter((id): id is number => id !== null))];
  const mealTimes = mealTimeIds.length
    ? await db.selectFrom("meal_times").select(["id", "meal_time_name", "begin_time"]).where("tenant_id", "=", tenantId).where("id", "in", mealTimeIds).execute()
    : [];

  const totals = zero();
  const byPayFlag = new Map<string, Totals & { payFlag: string }>();
  const byMealTime = new Map<number | null, Totals & { mealTimesId: number | null; name: string; sortKey: string }>();
  for (const g of groups) {
    const amount = Number(g.paid);
    const refunded = Number(g.refunded);
    const row: Totals = { count: Number(g.n), amount, refundCount: Number(g.refund_n), refunded, net: amount - refunded };
    add(totals, row);
    const flag = String(g.pay_flag);
    if (!byPayFlag.has(flag)) byPayFlag.set(flag, { ...zero(), payFlag: flag });
    add(byPayFlag.get(flag) as Totals, row);
    const mealTimeId = g.meal_times_id;
    if (!byMealTime.has(mealTimeId)) {
      const m = mealTimes.find((t) => t.id === mealTimeId);
      byMealTime.set(mealTimeId, { ...zero(), mealTimesId: mealTimeId, name: m?.meal_time_name ?? (mealTimeId === null ? "不限餐次" : String(mealTimeId)), sortKey: m?.begin_time ?? "99" });
    }
    add(byMealTime.get(mealTimeId) as Totals, row);
  }
  const cashiers = cashierRows.map((c) => ({ id: Number(c.cashier_id), name: String(c.name ?? c.cashier_id) })).sort((a, b) => a.name.localeCompare(b.name, "zh-CN"));
  return {
    from: localOf(start),
    to: localOf(end),
    restaurantId,
    restaurantName: restaurants.find((r) => r.id === restaurantId)?.org_name ?? null,
    cashierId,
    // The slip names the canteen and the cashier as people read them (issue 38), not the product and a login.
    title: await receiptTitle(db, tenantId),
    cashierName: cashierUser ? await staffName(db, tenantId, cashierUser.id) : null,
    restaurants: restaurants.map((r) => ({ id: r.id, name: r.org_name })),
    cashiers,
    totals,
    byPayFlag: [...byPayFlag.values()].sort((a, b) => Number(a.payFlag) - Number(b.payFlag)),
    byMealTime: [...byMealTime.values()].sort((a, b) => a.sortKey.localeCompare(b.sortKey)).map(({ sortKey: _, ...r }) => r),
    printedAt: localOf(now).replace("T", " "),
  };
}

export const cashierReportEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/cashierPrint/summary",
    summary: "营业报表：from–to（北京时间 YYYY-MM-DDTHH:mm，默认今天）收银台订单按支付方式与餐次的笔数、收款、退款与净额（分），可按餐厅与收银员筛选",
    access: permission(permissionCode(cashierPrint, "view")),
    query: summaryQuery,
    handle: (ctx, { query }) => cashierSummary(ctx.services.db, (ctx as SessionContext).session.tenantId, query, ctx.now),
  }),
];
