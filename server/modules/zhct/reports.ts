import { sql } from "kysely";
import { permissionCode } from "../../../resources/define";
import { z } from "../../../resources/z";
import { chargeDailyReport, userInfoDept } from "../../../resources/zhct/settle";
import type { Db } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { BusiType } from "./ledger";
import { dayOfNo, ledgerDayNo } from "./ledgerDays";
import { dayOf, dayStart } from "./months";

/**
 * Reports over the ledger (decision 022): they read `user_account_ledger`, the only record of money, so their totals
 * are the ledger's by construction (and a test compares them).
 */

export const reportMessages = {
  day: "日期格式应为 2026-05-01",
  range: "开始日期不能晚于结束日期",
  tooLong: "日期范围最多 366 天",
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export interface DailyRow {
  day: string;
  /** The top-up channel's code (decision 064); empty for lines written without one. */
  channel: string;
  operatorName: string;
  topUpCount: number;
  topUp: number;
  refundCount: number;
  refund: number;
  reversal: number;
  net: number;
}

const dayQuery = z.object({
  from: z.string({ error: reportMessages.day }).optional(),
  to: z.string({ error: reportMessages.day }).optional(),
});

function parseDay(value: string | undefined, field: string, fallback: string): string {
  const day = value?.trim() || fallback;
  if (!DAY.test(day) || Number.isNaN(dayStart(day)) || dayOf(dayStart(day)) !== day) throw fieldError(field, reportMessages.day);
  return day;
}


/** A report's period: China days `from`–`to` inclusive (default the 30 days to today), at most 366 days. */
export function parsePeriod(input: { from?: string; to?: string }, now: number) {
  const to = parseDay(input.to, "to", dayOf(now));
  const from = parseDay(input.from, "from", dayOf(dayStart(to) - 29 * DAY_MS));
  if (from > to) throw fieldError("from", reportMessages.range);
  if ((dayStart(to) - dayStart(from)) / DAY_MS > 365) throw fieldError("from", reportMessages.tooLong);
  return { from, to, start: dayStart(from), end: dayStart(to) + DAY_MS };
}

/** Top-ups, refunds and reversals per China day, top-up channel and operator, from `from` to `to` (days, inclusive). */
export async function chargeDaily(db: Db, tenantId: number, input: { from?: string; to?: string }, now: number) {
  const { from, to, start, end } = parsePeriod(input, now);
  const dayNo = ledgerDayNo;
  const of = (type: number, what: "amount" | "count") => sql<number>`coalesce(sum(case when busi_type = ${type} then ${what === "amount" ? sql.ref("amount") : sql.lit(1)} else 0 end), 0)`;
  const rows = await db
    .selectFrom("user_account_ledger")
    .select([
      dayNo.as("day_no"),
      sql<string>`coalesce(channel, '')`.as("channel"),
      sql<string>`coalesce(operator_name, '')`.as("operator"),
      of(BusiType.TOP_UP, "count").as("top_up_count"),
      of(BusiType.TOP_UP, "amount").as("top_up"),
      of(BusiType.REFUND, "count").as("refund_count"),
      of(BusiType.REFUND, "amount").as("refund"),
      of(BusiType.REVERSAL, "amount").as("reversal"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("occurred_at", ">=", start)
    .where("occurred_at", "<", end)
    .where("busi_type", "in", [BusiType.TOP_UP, BusiType.REFUND, BusiType.REVERSAL])
    .groupBy([dayNo, sql`coalesce(channel, '')`, sql`coalesce(operator_name, '')`])
    .execute();
  const records: DailyRow[] = rows
    .map((r) => {
      const topUp = Number(r.top_up);
      const refund = Number(r.refund);
      const reversal = Number(r.reversal);
      return {
        day: dayOfNo(r.day_no),
        channel: r.channel,
        operatorName: r.operator,
        topUpCount: Number(r.top_up_count),
        topUp,
        refundCount: Number(r.refund_count),
        refund,
        reversal,
        net: topUp + refund + reversal,
      };
    })
    .sort((a, b) => b.day.localeCompare(a.day) || a.channel.localeCompare(b.channel) || a.operatorName.localeCompare(b.operatorName));
  const total = (key: "topUpCount" | "topUp" | "refundCount" | "refund" | "reversal" | "net") => records.reduce((s, r) => s + r[key], 0);
  return {
    from,
    to,
    records,
    totals: { topUpCount: total("topUpCount"), topUp: total("topUp"), refundCount: total("refundCount"), refund: total("refund"), reversal: total("reversal"), net: total("net") },
  };
}

export interface DeptRow {
  deptId: number | null;
  deptName: string;
  diners: number;
  cash: number;
  subsidy: number;
  balance: number;
}

/** Diners per department (and those with none): counts and the balances of their accounts. */
export async function dinersByDept(db: Db, tenantId: number) {
  const counts = await db
    .selectFrom("user_info")
    .select(["dept_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("tenant_id", "=", tenantId)
    .groupBy("dept_id")
    .execute();
  const balances = await db
    .selectFrom("user_account")
    .innerJoin("user_info", (j) => j.onRef("user_info.tenant_id", "=", "user_account.tenant_id").onRef("user_info.id", "=", "user_account.user_info_id"))
    .select([
      "user_info.dept_id",
      sql<number>`coalesce(sum(case when user_account.account_type = 'cash' then user_account.balance else 0 end), 0)`.as("cash"),
      sql<number>`coalesce(sum(case when user_account.account_type = 'subsidy' then user_account.balance else 0 end), 0)`.as("subsidy"),
    ])
    .where("user_account.tenant_id", "=", tenantId)
    .groupBy("user_info.dept_id")
    .execute();
  const ids = counts.map((c) => c.dept_id).filter((id): id is number => id !== null);
  const names = ids.length ? await db.selectFrom("org").select(["id", "org_name"]).where("tenant_id", "=", tenantId).where("id", "in", ids).execute() : [];
  const nameOf = new Map(names.map((n) => [n.id, n.org_name]));
  const byDept = new Map(balances.map((b) => [b.dept_id, b]));
  const records: DeptRow[] = counts
    .map((c) => {
      const b = byDept.get(c.dept_id);
      const cash = Number(b?.cash ?? 0);
      const subsidy = Number(b?.subsidy ?? 0);
      return { deptId: c.dept_id, deptName: c.dept_id === null ? "未分配部门" : (nameOf.get(c.dept_id) ?? String(c.dept_id)), diners: Number(c.n), cash, subsidy, balance: cash + subsidy };
    })
    .sort((a, b) => (a.deptId === null ? 1 : b.deptId === null ? -1 : a.deptName.localeCompare(b.deptName, "zh-CN")));
  const sum = (key: "diners" | "cash" | "subsidy" | "balance") => records.reduce((s, r) => s + r[key], 0);
  return { records, totals: { diners: sum("diners"), cash: sum("cash"), subsidy: sum("subsidy"), balance: sum("balance") } };
}

export const reportEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/chargeDailyReport/findPage",
    summary: "充值日报：from–to（含，默认最近 30 天，按北京时间分日）每日、充值渠道（channel，渠道代码）、操作人的充值、退款与冲正合计（分）",
    access: permission(permissionCode(chargeDailyReport, "view")),
    query: dayQuery,
    handle: (ctx, { query }) => chargeDaily(ctx.services.db, (ctx as SessionContext).session.tenantId, query, ctx.now),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/userInfoDept/findPage",
    summary: "部门人员统计：每个部门的人数与现金、补贴余额合计（分）",
    access: permission(permissionCode(userInfoDept, "view")),
    handle: (ctx) => dinersByDept(ctx.services.db, (ctx as SessionContext).session.tenantId),
  }),
];
