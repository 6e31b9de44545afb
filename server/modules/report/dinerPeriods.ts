import { PostgresAdapter, sql, type RawBuilder } from "kysely";
import type { Db } from "../../db";
import { COUNTED_MEALS } from "../zhct/dinerMonths";
import { notCountedStatuses } from "../zhct/orderDays";
import { dayOf, dayStart, monthRange, nextMonth } from "../zhct/months";
import type { Filters } from "./query";

/**
 * A period of order dates per diner, read from the days and months the orders keep (decision 041): its whole months
 * from `diner_month_order`, the days at its edges from `diner_day_order`. An edge month is read whichever way is
 * shorter: its days inside the period added, or the whole month less its days outside. The last 30 days to today are
 * then this month less its days still to come (none yet) and the last days of the month before: a few days of rows
 * per diner instead of a month of orders and their ledger lines.
 */

const DAY = 86_400_000;

export interface PeriodParts {
  /** Whole months read from the months' table, as a range (the months of a period are consecutive). */
  months: [string, string] | null;
  /** Day ranges to add, and to take away from those months. */
  add: Array<[string, string]>;
  subtract: Array<[string, string]>;
}

export function periodParts(from: string, to: string): PeriodParts {
  const parts: PeriodParts = { months: null, add: [], subtract: [] };
  if (from > to) return parts;
  const whole = (month: string) => (parts.months = [parts.months?.[0] ?? month, month]);
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = nextMonth(month)) {
    const { start, end } = monthRange(month);
    const [first, last] = [dayOf(start), dayOf(end - 1)];
    const [a, b] = [from > first ? from : first, to < last ? to : last];
    // China keeps no daylight saving: a month is a whole number of days.
    const [inside, all] = [(dayStart(b) - dayStart(a)) / DAY + 1, Math.round((end - start) / DAY)];
    if (inside <= all - inside) {
      parts.add.push([a, b]);
      continue;
    }
    whole(month);
    if (a > first) parts.subtract.push([first, dayOf(dayStart(a) - DAY)]);
    if (b < last) parts.subtract.push([dayOf(dayStart(b) + DAY), last]);
  }
  return parts;
}

/** The kept days and months carry no restaurant, stall, meal type or payment method: those filters read the orders. */
export const periodKept = (f: Filters) => f.restaurantId === undefined && f.stallId === undefined && f.mealType === undefined && f.payFlag === undefined;

export interface DinerPeriod {
  userInfoId: number;
  userCode: string;
  userName: string;
  deptId: number | null;
  /** Orders placed, orders that count (meals), 实收 (paid − refunded). */
  placed: number;
  orders: number;
  net: number;
  /** With `accounts`: what the orders took from each account, net of what came back. */
  cash?: number;
  subsidy?: number;
  /** With `meals`: meals per meal type (`none`: the others), and order dates with a meal. */
  meals?: Record<(typeof COUNTED_MEALS)[number] | "none", number>;
  days?: number;
}

/** The figures a report needs besides the orders and 实收: each costs a sum per row of the period's pieces. */
export interface PeriodFigures {
  accounts?: boolean;
  meals?: boolean;
  /** Counter and device sales that count (刷卡统计). */
  swipes?: boolean;
}

const MEAL_COLUMNS = [...COUNTED_MEALS, "none"] as const;

/**
 * The period's figures per diner with an order placed in it: `select user_info_id, <sums>` from the months and days
 * that make it up, grouped by diner. Null when the period has no day. `ordered`: with the orders placed, those that
 * count and 实收 (every report but 刷卡统计's count of diners wants them).
 */
function perDinerSums(tenantId: number, f: Filters, want: PeriodFigures, ordered = true): { sums: string[]; query: RawBuilder<unknown> } | null {
  const parts = periodParts(f.from, f.to);
  const ofDiner = f.userInfoId === undefined ? sql`` : sql` and user_info_id = ${f.userInfoId}`;
  // Each figure as a row of the months or the days gives it; only `days` differs (a day counts when it had a meal).
  const wanted: Array<[string, RawBuilder<unknown>]> = [
    ...((ordered ? [["placed", sql`placed`], ["orders", sql`orders`], ["net", sql`(paid - refunded)`]] : []) as Array<[string, RawBuilder<unknown>]>),
    ...(want.accounts ? ([["cash", sql`(cash - cash_back)`], ["subsidy", sql`(subsidy - subsidy_back)`]] as Array<[string, RawBuilder<unknown>]>) : []),
    ...(want.meals ? MEAL_COLUMNS.map((m): [string, RawBuilder<unknown>] => [`meals_${m}`, sql.ref(`meals_${m}`)]) : []),
    ...(want.swipes ? ([["swipes", sql`swipes`]] as Array<[string, RawBuilder<unknown>]>) : []),
  ];
  const dayHadMeal = sql`(case when orders > 0 then 1 else 0 end)`;
  const figures = (sign: "" | "-", of: "month" | "day") =>
    sql.join([
      ...wanted.map(([name, value]) => sql`${sql.raw(sign)}${value} as ${sql.ref(name)}`),
      ...(want.meals ? [sql`${sql.raw(sign)}${of === "month" ? sql`days` : dayHadMeal} as days`] : []),
    ]);
  const pieces = [
    ...(parts.months ? [sql`select user_info_id, ${figures("", "month")} from diner_month_order where tenant_id = ${tenantId} and month >= ${parts.months[0]} and month <= ${parts.months[1]}${ofDiner}`] : []),
    ...parts.add.map(([a, b]) => sql`select user_info_id, ${figures("", "day")} from diner_day_order where tenant_id = ${tenantId} and order_date >= ${a} and order_date <= ${b}${ofDiner}`),
    ...parts.subtract.map(([a, b]) => sql`select user_info_id, ${figures("-", "day")} from diner_day_order where tenant_id = ${tenantId} and order_date >= ${a} and order_date <= ${b}${ofDiner}`),
  ];
  if (!pieces.length) return null;
  const sums = [...wanted.map(([name]) => name), ...(want.meals ? ["days"] : [])];
  return {
    sums,
    query: sql`select user_info_id, ${sql.join(sums.map((s) => sql`sum(${sql.ref(s)}) as ${sql.ref(s)}`))} from (${sql.join(pieces, sql` union all `)}) parts group by user_info_id`,
  };
}

/**
 * Every diner with an order in the period (of the department, or the one diner, when the filters say), named in the
 * same statement. Call only when `periodKept(f)`.
 */
export async function dinerPeriods(db: Db, tenantId: number, f: Filters, want: PeriodFigures = {}): Promise<DinerPeriod[]> {
  const per = perDinerSums(tenantId, f, want);
  if (!per) return [];
  const result = await sql<Record<string, string | number | null>>`
    select p.user_info_id, u.user_code, u.user_name, u.dept_id, ${sql.join(per.sums.map((s) => sql`p.${sql.ref(s)}`))}
    from (${per.query}) p
    join user_info u on u.tenant_id = ${tenantId} and u.id = p.user_info_id
    where p.placed > 0${f.deptId === undefined ? sql`` : sql` and u.dept_id = ${f.deptId}`}`.execute(db);
  return result.rows.map((r) => ({
    userInfoId: Number(r.user_info_id),
    userCode: String(r.user_code),
    userName: String(r.user_name),
    deptId: r.dept_id === null ? null : Number(r.dept_id),
    placed: Number(r.placed),
    orders: Number(r.orders),
    net: Number(r.net),
    ...(want.accounts ? { cash: Number(r.cash), subsidy: Number(r.subsidy) } : {}),
    ...(want.meals ? { meals: Object.fromEntries(MEAL_COLUMNS.map((m) => [m, Number(r[`meals_${m}`])])) as NonNullable<DinerPeriod["meals"]>, days: Number(r.days) } : {}),
  }));
}

/**
 * The same per department, summed in the statement (a department's diners are never brought out one by one): the
 * diners with an order placed, of whom `diners` had a meal, their meals and 实收. Call only when `periodKept(f)`.
 */
export async function deptPeriods(db: Db, tenantId: number, f: Filters): Promise<Array<{ deptId: number | null; diners: number; orders: number; net: number }>> {
  const per = perDinerSums(tenantId, f, {});
  if (!per) return [];
  const result = await sql<Record<string, string | number | null>>`
    select u.dept_id, sum(case when p.orders > 0 then 1 else 0 end) as diners, sum(p.orders) as orders, sum(p.net) as net
    from (${per.query}) p
    join user_info u on u.tenant_id = ${tenantId} and u.id = p.user_info_id
    where p.placed > 0${f.deptId === undefined ? sql`` : sql` and u.dept_id = ${f.deptId}`}
    group by u.dept_id`.execute(db);
  return result.rows.map((r) => ({ deptId: r.dept_id === null ? null : Number(r.dept_id), diners: Number(r.diners), orders: Number(r.orders), net: Number(r.net) }));
}

export interface DinedPage {
  rows: Array<{ userCode: string; userName: string; deptName: string; orders: number; net: number; days: number; meals: NonNullable<DinerPeriod["meals"]> }>;
  /** Diners with a meal in the period, shown or not. */
  count: number;
  /** Their meals per type, meals, days and 实收, all of them. */
  totals: { meals: NonNullable<DinerPeriod["meals"]>; orders: number; days: number; net: number };
}

/**
 * The diners with a meal in the period, the first `limit` by 人员编号 (in code-point order on both databases), with
 * their count and the sums over all of them, in one statement: only the page leaves the database, not every diner.
 * Call only when `periodKept(f)`.
 */
export async function dinedPage(db: Db, tenantId: number, f: Filters, limit: number): Promise<DinedPage> {
  const per = perDinerSums(tenantId, f, { meals: true });
  const none = { rows: [], count: 0, totals: { meals: Object.fromEntries(MEAL_COLUMNS.map((m) => [m, 0])) as NonNullable<DinerPeriod["meals"]>, orders: 0, days: 0, net: 0 } };
  if (!per) return none;
  const byCode = db.getExecutor().adapter instanceof PostgresAdapter ? sql`u.user_code collate "C"` : sql`u.user_code`;
  const figures = ["orders", "net", "days", ...MEAL_COLUMNS.map((m) => `meals_${m}`)];
  const result = await sql<Record<string, string | number | null>>`
    select u.user_code, u.user_name, coalesce(d.org_name, '') as dept_name, ${sql.join(figures.map((s) => sql`p.${sql.ref(s)}`))},
      count(*) over () as all_diners, ${sql.join(figures.map((s) => sql`sum(p.${sql.ref(s)}) over () as ${sql.ref(`all_${s}`)}`))}
    from (${per.query}) p
    join user_info u on u.tenant_id = ${tenantId} and u.id = p.user_info_id
    left join org d on d.tenant_id = ${tenantId} and d.id = u.dept_id
    where p.orders > 0${f.deptId === undefined ? sql`` : sql` and u.dept_id = ${f.deptId}`}
    order by ${byCode}
    limit ${limit}`.execute(db);
  const first = result.rows[0];
  if (!first) return none;
  const meals = (r: Record<string, unknown>, prefix: string) => Object.fromEntries(MEAL_COLUMNS.map((m) => [m, Number(r[`${prefix}meals_${m}`])])) as NonNullable<DinerPeriod["meals"]>;
  return {
    rows: result.rows.map((r) => ({ userCode: String(r.user_code), userName: String(r.user_name), deptName: String(r.dept_name), orders: Number(r.orders), net: Number(r.net), days: Number(r.days), meals: meals(r, "") })),
    count: Number(first.all_diners),
    totals: { meals: meals(first, "all_"), orders: Number(first.all_orders), days: Number(first.all_days), net: Number(first.all_net) },
  };
}

/**
 * The period's diners, each once: those with a meal in it (`orders`, 食堂消费次数统计's total) or with a counter or
 * device sale that counts (`swipes`, 刷卡统计's). Call only when `periodKept(f)`.
 */
export async function periodDiners(db: Db, tenantId: number, f: Filters, figure: "orders" | "swipes"): Promise<number> {
  const per = figure === "orders" ? perDinerSums(tenantId, f, {}) : perDinerSums(tenantId, f, { swipes: true }, false);
  if (!per) return 0;
  const result = await sql<{ n: number | string }>`select count(*) as n from (${per.query}) p where p.${sql.ref(figure)} > 0`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** What 食堂消费次数统计 shows per restaurant, stall and meal type (0, 0 and '' for none). */
export interface PlacePeriod {
  restaurantId: number;
  stallId: number;
  mealType: string;
  meals: number;
  diners: number;
  amount: number;
}

/**
 * The period's meals, 实收 and diners per restaurant, stall and meal type (decision 047), or null when the period is
 * not one this can read: more than one whole month. The whole month is summed per place straight from each diner's
 * month there (`diner_place_month`, in its key's order: no sort). The orders of the days at the period's edges are
 * grouped per place and diner, and each such diner's month row is looked up by its key: a diner counts at a place
 * when their meals there add up above 0, so an edge adds a diner the month did not have, or takes away one whose
 * only meals there were on days left out. Call only when `periodKept(f)`; the total of diners is `periodDiners`.
 */
export async function placePeriods(db: Db, tenantId: number, f: Filters): Promise<PlacePeriod[] | null> {
  const parts = periodParts(f.from, f.to);
  if (parts.months && parts.months[0] !== parts.months[1]) return null;
  const month = parts.months?.[0] ?? null;
  // The edges' orders that count, as a month's rows of one meal each: not cancelled nor refunded in full (mealOrderStatus 2, 4).
  const edges = [...parts.add.map((range) => ["", range] as const), ...parts.subtract.map((range) => ["-", range] as const)].map(
    ([sign, [a, b]]) => sql`
      select coalesce(restaurant_id, 0) as r, coalesce(stall_id, 0) as s, coalesce(meal_type, '') as m, user_info_id as u, ${sql.raw(sign)}1 as n, ${sql.raw(sign)}(paid_amount - refunded_amount) as a
      from meal_order
      where tenant_id = ${tenantId} and order_date >= ${a} and order_date <= ${b} and order_status not in (${notCountedStatuses})`,
  );
  const pieces = [
    ...(month
      ? [
          sql`select restaurant_id as r, stall_id as s, meal_type as m, sum(meals) as n, sum(case when meals > 0 then 1 else 0 end) as d, sum(amount) as a
            from diner_place_month where tenant_id = ${tenantId} and month = ${month} group by restaurant_id, stall_id, meal_type`,
        ]
      : []),
    ...(edges.length
      ? [
          sql`select e.r, e.s, e.m, sum(e.n) as n, sum((case when coalesce(pm.meals, 0) + e.n > 0 then 1 else 0 end) - (case when coalesce(pm.meals, 0) > 0 then 1 else 0 end)) as d, sum(e.a) as a
            from (select r, s, m, u, sum(n) as n, sum(a) as a from (${sql.join(edges, sql` union all `)}) p group by r, s, m, u) e
            left join diner_place_month pm on pm.tenant_id = ${tenantId} and pm.month = ${month ?? ""} and pm.restaurant_id = e.r and pm.stall_id = e.s and pm.meal_type = e.m and pm.user_info_id = e.u
            group by e.r, e.s, e.m`,
        ]
      : []),
  ];
  if (!pieces.length) return [];
  const result = await sql<{ r: number | string; s: number | string; m: string; meals: number | string; diners: number | string; amount: number | string }>`
    select r, s, m, sum(n) as meals, sum(d) as diners, sum(a) as amount from (${sql.join(pieces, sql` union all `)}) x group by r, s, m having sum(n) > 0`.execute(db);
  return result.rows.map((row) => ({ restaurantId: Number(row.r), stallId: Number(row.s), mealType: String(row.m), meals: Number(row.meals), diners: Number(row.diners), amount: Number(row.amount) }));
}
