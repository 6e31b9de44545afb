import { sql } from "kysely";
import { permissionCode } from "../../../resources/define";
import { dailyOrderSummary, MEAL_TYPES } from "../../../resources/report/index";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { BusiType } from "../zhct/ledger";
import { ComplaintStatus } from "../zhct/mealOrderComplaints";
import { dayOf, dayStart } from "../zhct/months";
import { runReport } from "./engine";

/**
 * The home page's canteen figures for the user's tenant (issue 15): today's orders by meal, top-ups, diners who ate,
 * complaints waiting, and 30 days of orders. The order figures are the daily summary report's own answer, so the
 * dashboard and the report it links to cannot disagree.
 */
export async function dashboardFigures(ctx: SessionContext) {
  const db = ctx.services.db;
  const tenantId = ctx.session.tenantId;
  const today = dayOf(ctx.now);
  const from = dayOf(dayStart(today) - 29 * 86_400_000);
  const trend = await runReport(ctx, dailyOrderSummary, { from, to: today });
  const [byMeal, topUps, diners, complaints] = await Promise.all([
    db
      .selectFrom("meal_order")
      .select([sql<string>`coalesce(meal_type, 'none')`.as("meal_type"), sql<number>`count(*)`.as("orders"), sql<number>`coalesce(sum(paid_amount - refunded_amount), 0)`.as("net")])
      .where("tenant_id", "=", tenantId)
      .where("order_date", "=", today)
      .groupBy(sql`coalesce(meal_type, 'none')`)
      .execute(),
    db
      .selectFrom("user_account_ledger")
      .select([sql<number>`count(*)`.as("count"), sql<number>`coalesce(sum(amount), 0)`.as("amount")])
      .where("tenant_id", "=", tenantId)
      .where("busi_type", "=", BusiType.TOP_UP)
      .where("occurred_at", ">=", dayStart(today))
      .where("occurred_at", "<", dayStart(today) + 86_400_000)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("meal_order")
      .select(sql<number>`count(distinct user_info_id)`.as("n"))
      .where("tenant_id", "=", tenantId)
      .where("order_date", "=", today)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("meal_order_complaints")
      .select(sql<number>`count(*)`.as("n"))
      .where("tenant_id", "=", tenantId)
      .where("status", "=", ComplaintStatus.UNPROCESSED)
      .executeTakeFirstOrThrow(),
  ]);
  const known = new Set<string>(MEAL_TYPES.map(([t]) => t));
  const meals = MEAL_TYPES.map(([type, label]) => {
    const rows = byMeal.filter((r) => (type === "none" ? !known.has(r.meal_type) || r.meal_type === "none" : r.meal_type === type));
    return { mealType: type, label, orders: rows.reduce((s, r) => s + Number(r.orders), 0), net: rows.reduce((s, r) => s + Number(r.net), 0) };
  });
  return {
    today,
    from,
    orders: meals.reduce((s, m) => s + m.orders, 0),
    net: meals.reduce((s, m) => s + m.net, 0),
    meals,
    topUpCount: Number(topUps.count),
    topUp: Number(topUps.amount),
    activeDiners: Number(diners.n),
    complaintsWaiting: Number(complaints.n),
    trend: trend.rows.map((r) => ({ day: String(r.day), orders: Number(r.orders), net: Number(r.net) })),
  };
}

export const dashboardEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/report/dashboard",
    summary: "首页餐厅概览：本租户今天按餐别的订单数与实收、充值、就餐人数、待处理申诉，及最近 30 天每日订单与实收（分）",
    // The figures are those of the daily summary report: whoever may open it may see them.
    access: permission(permissionCode(dailyOrderSummary, "view")),
    handle: (ctx) => dashboardFigures(ctx as SessionContext),
  }),
];
