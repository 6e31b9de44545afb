import { sql } from "kysely";
import type { Db } from "../../db";
import { BusiType } from "../zhct/ledger";
import { dayOf, monthOf, nextMonth } from "../zhct/months";
import { PointsChange } from "../zhct/points";
import { ApprovedStatus } from "../zhct/tickets";
import type { Filters, QueryResult, ReportQuery, Row } from "./query";
import { codePointOrder, minuteOf, orgNames, ROW_LIMIT, sumOf, zhOrder } from "./helpers";

/**
 * The queries of resources/report/settlement.ts (decision 032). Same rules as queries.ts: integer fen and points,
 * orders by `order_date`, ledger lines by China day numbers, the same SQL on SQLite and PostgreSQL; what a figure
 * means is in decision 032.
 */

const NO_DEPT = "未分配部门";

/** The diner filters of a report (department, staff type, one diner) on a query joined to `user_info as u`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function whereDiner<Q extends { where: (...args: any[]) => Q }>(q: Q, f: Filters): Q {
  if (f.deptId !== undefined) q = q.where(sql.ref("u.dept_id"), "=", f.deptId);
  if (f.staffType !== undefined) q = q.where(sql.ref("u.staff_type"), "=", f.staffType);
  if (f.userInfoId !== undefined) q = q.where(sql.ref("u.id"), "=", f.userInfoId);
  return q;
}


const mealTicketSummary: ReportQuery = async (db, tenantId, f) => {
  // Whether an approved ticket has expired is judged today (China day), whatever the period.
  const today = dayOf(Date.now());
  const approved = sql`t.approved_status = ${sql.lit(ApprovedStatus.PASSED)}`;
  const left = sql`t.ticket_count - t.used_count`;
  let tickets = db
    .selectFrom("meal_ticket as t")
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "t.tenant_id").onRef("u.id", "=", "t.user_info_id"))
    .where("t.tenant_id", "=", tenantId)
    .where("t.applied_at", ">=", f.start)
    .where("t.applied_at", "<", f.end);
  let uses = db
    .selectFrom("meal_ticket_use as us")
    .innerJoin("meal_ticket as t", (j) => j.onRef("t.tenant_id", "=", "us.tenant_id").onRef("t.id", "=", "us.ticket_id"))
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "us.tenant_id").onRef("u.id", "=", "us.user_info_id"))
    .where("us.tenant_id", "=", tenantId)
    .where("us.used_at", ">=", f.start)
    .where("us.used_at", "<", f.end);
  if (f.ticketType !== undefined) {
    tickets = tickets.where("t.ticket_type", "=", Number(f.ticketType));
    uses = uses.where("t.ticket_type", "=", Number(f.ticketType));
  }
  const [issued, used] = await Promise.all([
    whereDiner(tickets, f)
      .select([
        "t.ticket_type",
        "u.dept_id",
        sumOf(sql`t.ticket_count`).as("applied"),
        sumOf(sql`case when ${approved} then t.ticket_count else 0 end`).as("approved"),
        sumOf(sql`case when ${approved} and t.valid_to < ${today} then ${left} else 0 end`).as("expired"),
        sumOf(sql`case when ${approved} and (t.valid_to is null or t.valid_to >= ${today}) then ${left} else 0 end`).as("unused"),
      ])
      .groupBy(["t.ticket_type", "u.dept_id"])
      .execute(),
    whereDiner(uses, f)
      .select([
        "t.ticket_type",
        "u.dept_id",
        sumOf(sql`case when us.returned_at is null then 1 else 0 end`).as("used"),
        sumOf(sql`case when us.returned_at is null then us.amount else 0 end`).as("usedAmount"),
        sumOf(sql`case when us.returned_at is null then 0 else 1 end`).as("returned"),
      ])
      .groupBy(["t.ticket_type", "u.dept_id"])
      .execute(),
  ]);
  const names = await orgNames(db, tenantId, [...issued, ...used].map((r) => r.dept_id ?? null));
  const rows = new Map<string, Row>();
  const rowOf = (type: number, deptId: number | null) => {
    const key = `${type}|${deptId}`;
    let row = rows.get(key);
    if (!row) {
      row = { ticketType: String(type), deptId: deptId === null ? null : String(deptId), deptName: deptId === null ? NO_DEPT : (names.get(deptId) ?? ""), applied: 0, approved: 0, expired: 0, unused: 0, used: 0, usedAmount: 0, returned: 0 };
      rows.set(key, row);
    }
    return row;
  };
  for (const r of issued) Object.assign(rowOf(Number(r.ticket_type), r.dept_id ?? null), { applied: Number(r.applied), approved: Number(r.approved), expired: Number(r.expired), unused: Number(r.unused) });
  for (const r of used) Object.assign(rowOf(Number(r.ticket_type), r.dept_id ?? null), { used: Number(r.used), usedAmount: Number(r.usedAmount), returned: Number(r.returned) });
  const list = [...rows.values()];
  list.sort((a, b) => Number(a.ticketType) - Number(b.ticketType) || (a.deptId === null ? 1 : b.deptId === null ? -1 : zhOrder(String(a.deptName), String(b.deptName))));
  return { rows: list };
};

const mealTicketDetail: ReportQuery = async (db, tenantId, f) => {
  const uses = () => {
    let q = db
      .selectFrom("meal_ticket_use as us")
      .innerJoin("meal_ticket as t", (j) => j.onRef("t.tenant_id", "=", "us.tenant_id").onRef("t.id", "=", "us.ticket_id"))
      .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "us.tenant_id").onRef("u.id", "=", "us.user_info_id"))
      .innerJoin("meal_order as o", (j) => j.onRef("o.tenant_id", "=", "us.tenant_id").onRef("o.id", "=", "us.order_id"))
      .where("us.tenant_id", "=", tenantId)
      .where("us.used_at", ">=", f.start)
      .where("us.used_at", "<", f.end)
      .where("us.returned_at", "is", null);
    if (f.ticketType !== undefined) q = q.where("t.ticket_type", "=", Number(f.ticketType));
    return whereDiner(q, f);
  };
  const [rows, totals] = await Promise.all([
    uses()
      .select(["o.order_no", "us.used_at", "u.user_code", "u.user_name", "u.dept_id", "t.ticket_type", "o.order_date", "us.meal_type", "us.amount"])
      .orderBy("us.used_at")
      .orderBy("us.id")
      .limit(ROW_LIMIT + 1)
      .execute(),
    uses().select([sql<number>`count(*)`.as("uses"), sumOf(sql`us.amount`).as("amount")]).executeTakeFirstOrThrow(),
  ]);
  const depts = await orgNames(db, tenantId, rows.map((r) => r.dept_id ?? null));
  const count = Number(totals.uses);
  return {
    rows: rows.slice(0, ROW_LIMIT).map((r) => ({
      orderNo: r.order_no,
      usedAt: minuteOf(Number(r.used_at)),
      userCode: r.user_code,
      userName: r.user_name,
      deptName: r.dept_id ? (depts.get(r.dept_id) ?? "") : "",
      ticketType: String(r.ticket_type),
      day: r.order_date,
      mealType: r.meal_type ?? null,
      uses: 1,
      amount: Number(r.amount),
    })),
    totals: { uses: count, amount: Number(totals.amount) },
    truncated: Math.max(0, count - ROW_LIMIT),
  };
};

/** The months of the filters (a month report's; a day range is read as the months it touches). */
const monthsOfFilters = (f: Filters) => ({ fromMonth: f.fromMonth ?? monthOf(f.start), toMonth: f.toMonth ?? monthOf(f.end - 1) });

const monthlySettlementUser: ReportQuery = async (db, tenantId, f) => {
  // The diners' months as their orders keep them (decision 040): one row per diner and month, not every order.
  const { fromMonth, toMonth } = monthsOfFilters(f);
  const orders = await whereDiner(
    db
      .selectFrom("diner_month_order as m")
      .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "m.tenant_id").onRef("u.id", "=", "m.user_info_id"))
      .where("m.tenant_id", "=", tenantId)
      .where("m.month", ">=", fromMonth)
      .where("m.month", "<=", toMonth),
    f,
  )
    .select([
      "u.user_code",
      "u.user_name",
      "u.dept_id",
      sumOf(sql`m.orders`).as("orders"),
      sumOf(sql`m.paid`).as("paid"),
      sumOf(sql`m.ticket`).as("ticket"),
      sumOf(sql`m.refunded`).as("refunded"),
      sumOf(sql`m.cash`).as("cash"),
      sumOf(sql`m.subsidy`).as("subsidy"),
    ])
    .groupBy(["m.user_info_id", "u.user_code", "u.user_name", "u.dept_id"])
    .execute();
  // The diners are named in the same statement (the join is there for the filters): 20,000 ids in a second query's
  // IN list cost more than the sums.
  const depts = await orgNames(db, tenantId, orders.map((o) => o.dept_id ?? null));
  const rows = orders.map((o) => {
    const [paid, cash, subsidy, ticket] = [Number(o.paid), Number(o.cash), Number(o.subsidy), Number(o.ticket)];
    return {
      userCode: o.user_code,
      userName: o.user_name,
      deptName: o.dept_id ? (depts.get(Number(o.dept_id)) ?? "") : "",
      orders: Number(o.orders),
      paid,
      cash,
      subsidy,
      ticket,
      other: paid - cash - subsidy - ticket,
      refunded: Number(o.refunded),
      net: paid - Number(o.refunded),
    };
  });
  rows.sort((a, b) => codePointOrder(a.userCode, b.userCode));
  return { rows };
};

/**
 * A restaurant's net sales split by its shares in whole fen: each gets ⌊sales × share / 100⌋, and the fen left over
 * (fewer than the number of shares) go one each to the largest remainders, ties to the larger share, then to the
 * earlier row. So the parts always sum to the sales exactly.
 */
export function splitByShares(sales: number, shares: number[]): number[] {
  const parts = shares.map((p) => Math.floor((sales * p) / 100));
  let left = sales - parts.reduce((s, p) => s + p, 0);
  const order = shares.map((p, i) => ({ i, p, rem: (sales * p) % 100 })).sort((a, b) => b.rem - a.rem || b.p - a.p || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

const UNASSIGNED = "未分配";

const monthlySettlementMerchant: ReportQuery = async (db, tenantId, f) => {
  // The orders each day keeps per restaurant (decision 041 addendum); restaurant 0 is an order without one.
  let orders = db.selectFrom("order_day").where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to);
  if (f.restaurantId !== undefined) orders = orders.where("restaurant_id", "=", f.restaurantId);
  const kept = await orders
    .select(["restaurant_id", sumOf(sql`placed - cancelled`).as("orders"), sumOf(sql`paid - refunded`).as("sales")])
    .groupBy("restaurant_id")
    .execute();
  const sales = kept.map((s) => ({ ...s, restaurant_id: Number(s.restaurant_id) || null }));
  const restaurantIds = sales.map((s) => s.restaurant_id).filter((id): id is number => id !== null);
  const divides = restaurantIds.length
    ? await db
        .selectFrom("merchant_divide as d")
        .innerJoin("merchant as m", (j) => j.onRef("m.tenant_id", "=", "d.tenant_id").onRef("m.id", "=", "d.merchant_id"))
        .select(["d.restaurant_id", "d.stall_id", "d.share_percent", "m.merchant_name"])
        .where("d.tenant_id", "=", tenantId)
        .where("d.restaurant_id", "in", restaurantIds)
        .orderBy("d.id")
        .execute()
    : [];
  const names = await orgNames(db, tenantId, [...restaurantIds, ...divides.map((d) => d.stall_id ?? null)]);
  const rows: Row[] = [];
  for (const s of sales) {
    const amount = Number(s.sales);
    const mine = divides.filter((d) => d.restaurant_id === s.restaurant_id);
    const shares = mine.map((d) => ({ merchantName: d.merchant_name, stallName: d.stall_id ? (names.get(d.stall_id) ?? "") : "", sharePercent: Number(d.share_percent) }));
    const assigned = shares.reduce((sum, d) => sum + d.sharePercent, 0);
    // Shares short of 100 % (or none, or sales without a restaurant) leave the rest to no merchant, shown as such.
    if (assigned < 100) shares.push({ merchantName: UNASSIGNED, stallName: "", sharePercent: 100 - assigned });
    const parts = splitByShares(amount, shares.map((d) => d.sharePercent));
    shares.forEach((d, i) =>
      rows.push({
        ...d,
        restaurantId: s.restaurant_id === null ? null : String(s.restaurant_id),
        restaurantName: s.restaurant_id === null ? "未指定餐厅" : (names.get(s.restaurant_id) ?? ""),
        orders: Number(s.orders),
        sales: amount,
        amount: parts[i],
      }),
    );
  }
  const last = (name: unknown) => (name === UNASSIGNED ? 1 : 0);
  rows.sort((a, b) => last(a.merchantName) - last(b.merchantName) || zhOrder(String(a.merchantName), String(b.merchantName)) || zhOrder(String(a.restaurantName), String(b.restaurantName)));
  return { rows };
};

const teacherSubsidy: ReportQuery = async (db, tenantId, f) => {
  // The subsidy accounts with the months kept by the ledger (decision 040), in one statement (one snapshot): the
  // opening is the balance less every line from the first month on, the closing the balance less the lines after
  // the last month. Lines are never edited, so this is the sum of the lines before, without reading them.
  const { fromMonth, toMonth } = monthsOfFilters(f);
  const within = (busi: number[] | null, what: "amount" | "lines") =>
    sumOf(sql`case when m.month <= ${toMonth}${busi ? sql` and m.busi_type in (${sql.join(busi.map((b) => sql.lit(b)))})` : sql``} then ${sql.ref(`m.${what}`)} else 0 end`);
  const accounts = await whereDiner(
    db
      .selectFrom("user_account as a")
      .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "a.tenant_id").onRef("u.id", "=", "a.user_info_id"))
      .leftJoin("diner_month_ledger as m", (j) =>
        j.onRef("m.tenant_id", "=", "a.tenant_id").onRef("m.account_type", "=", "a.account_type").onRef("m.user_info_id", "=", "a.user_info_id").on("m.month", ">=", fromMonth),
      )
      .where("a.tenant_id", "=", tenantId)
      .where("a.account_type", "=", "subsidy"),
    f,
  )
    .select([
      "u.user_code",
      "u.user_name",
      "u.staff_type",
      "u.dept_id",
      "a.balance",
      sumOf(sql`m.amount`).as("fromFirst"),
      sumOf(sql`case when m.month > ${toMonth} then m.amount else 0 end`).as("afterLast"),
      within(null, "lines").as("moves"),
      within([BusiType.GRANT], "lines").as("grants"),
      within([BusiType.GRANT], "amount").as("granted"),
      within([BusiType.CONSUME, BusiType.CONSUME_RETURN], "amount").as("used"),
      within([BusiType.CLEAR], "amount").as("cleared"),
      within([BusiType.TOP_UP, BusiType.REFUND, BusiType.REVERSAL], "amount").as("other"),
    ])
    .groupBy(["a.user_info_id", "a.balance", "u.user_code", "u.user_name", "u.staff_type", "u.dept_id"])
    .execute();
  // One pass over 20,000 accounts: the rows straight from the statement's, with no copy of each in between.
  const depts = await orgNames(db, tenantId, [...new Set(accounts.map((l) => l.dept_id ?? null))]);
  const rows: Row[] = [];
  for (const l of accounts) {
    const balance = Number(l.balance);
    const opening = balance - Number(l.fromFirst);
    const moves = Number(l.moves);
    if (opening === 0 && moves === 0) continue;
    rows.push({
      userCode: l.user_code,
      userName: l.user_name,
      staffType: l.staff_type ?? "",
      deptName: l.dept_id ? (depts.get(Number(l.dept_id)) ?? "") : "",
      // The drill-down opens this diner's subsidy account only.
      accountType: "subsidy",
      opening,
      grants: Number(l.grants),
      granted: Number(l.granted),
      used: -Number(l.used),
      cleared: -Number(l.cleared),
      other: Number(l.other),
      closing: balance - Number(l.afterLast),
    });
  }
  rows.sort((a, b) => codePointOrder(String(a.userCode), String(b.userCode)));
  return { rows };
};

/** The months of a range, YYYY-MM, in order. */
function monthsOf(from: string, to: string): string[] {
  const list: string[] = [];
  for (let m = from; m <= to; m = nextMonth(m)) list.push(m);
  return list;
}

const staffPointsMonthly: ReportQuery = async (db, tenantId, f) => {
  // The points accounts with the months their lines keep from the first month on (decision 040), in one statement
  // (one snapshot): the opening is the balance less all of them, the flows are those up to the last month.
  const { fromMonth, toMonth } = monthsOfFilters(f);
  const accounts = await whereDiner(
    db
      .selectFrom("user_integral_account as a")
      .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "a.tenant_id").onRef("u.id", "=", "a.user_info_id"))
      .leftJoin("diner_month_points as m", (j) => j.onRef("m.tenant_id", "=", "a.tenant_id").onRef("m.user_info_id", "=", "a.user_info_id").on("m.month", ">=", fromMonth))
      .where("a.tenant_id", "=", tenantId),
    f,
  )
    .select(["a.user_info_id", "a.balance", "u.user_code", "u.user_name", "u.dept_id", "m.month", "m.change_type", "m.points", "m.lines"])
    .execute();
  // Each diner once, with their opening and their flows per month of the range (by the month's place in it).
  const months = monthsOf(fromMonth, toMonth);
  const monthAt = new Map(months.map((month, i) => [month, i]));
  type Flow = { earned: number; takenBack: number; expired: number; adjusted: number; any: boolean };
  type Diner = { userCode: string; userName: string; deptId: number | null; opening: number; flows: Array<Flow | undefined> };
  const diners = new Map<number, Diner>();
  for (const r of accounts) {
    const id = Number(r.user_info_id);
    let diner = diners.get(id);
    if (!diner) diners.set(id, (diner = { userCode: r.user_code, userName: r.user_name, deptId: r.dept_id ?? null, opening: Number(r.balance), flows: [] }));
    if (r.month === null) continue;
    const n = Number(r.points);
    diner.opening -= n;
    const at = monthAt.get(r.month);
    if (at === undefined) continue;
    const flow = (diner.flows[at] ??= { earned: 0, takenBack: 0, expired: 0, adjusted: 0, any: false });
    flow.any ||= Number(r.lines) > 0;
    const type = Number(r.change_type);
    if (type === PointsChange.EARN) flow.earned += n;
    else if (type === PointsChange.CANCEL) flow.takenBack -= n;
    else if (type === PointsChange.EXPIRE) flow.expired -= n;
    else flow.adjusted += n;
  }
  const depts = await orgNames(db, tenantId, [...diners.values()].map((d) => d.deptId));
  const ordered = [...diners.values()].sort((a, b) => codePointOrder(a.userCode, b.userCode));
  const rows: Row[] = [];
  const totals = { month: "合计", opening: 0, earned: 0, takenBack: 0, expired: 0, adjusted: 0, closing: 0 };
  for (const d of ordered) {
    const deptName = d.deptId ? (depts.get(Number(d.deptId)) ?? "") : "";
    let balance = d.opening;
    totals.opening += balance;
    for (const [i, month] of months.entries()) {
      const flow = d.flows[i];
      const closing = balance + (flow ? flow.earned - flow.takenBack - flow.expired + flow.adjusted : 0);
      if (balance !== 0 || flow?.any) {
        rows.push({ month, userCode: d.userCode, userName: d.userName, deptName, opening: balance, earned: flow?.earned ?? 0, takenBack: flow?.takenBack ?? 0, expired: flow?.expired ?? 0, adjusted: flow?.adjusted ?? 0, closing });
      }
      for (const k of ["earned", "takenBack", "expired", "adjusted"] as const) totals[k] += flow?.[k] ?? 0;
      balance = closing;
    }
    totals.closing += balance;
  }
  // By month; within a month the diners stay in the order they were made in, by code (the sort is stable).
  rows.sort((a, b) => codePointOrder(String(a.month), String(b.month)));
  // Over several months the opening and closing are the period's (first month's and last month's), not a sum of months.
  return { rows, totals };
};

const pointsOrderStats: ReportQuery = async (db, tenantId, f) => {
  // The orders' points per order day and restaurant as `postPoints` keeps them (decision 040 addendum): a take-back
  // counts on its order's day, whenever the refund happened.
  let days = db.selectFrom("points_order_day").where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to).where("orders", ">", 0);
  if (f.restaurantId !== undefined) days = days.where("restaurant_id", "=", f.restaurantId);
  const earning = await days.select(["order_date", "restaurant_id", "orders", "paid", "earned", "taken_back"]).execute();
  const names = await orgNames(db, tenantId, earning.map((r) => (Number(r.restaurant_id) === 0 ? null : r.restaurant_id)));
  const rows = earning.map((r) => {
    const restaurantId = Number(r.restaurant_id) === 0 ? null : Number(r.restaurant_id);
    const [earned, takenBack] = [Number(r.earned), Number(r.taken_back)];
    return {
      day: r.order_date,
      restaurantId: restaurantId === null ? null : String(restaurantId),
      restaurantName: restaurantId === null ? "" : (names.get(restaurantId) ?? ""),
      orders: Number(r.orders),
      paid: Number(r.paid),
      earned,
      takenBack,
      net: earned - takenBack,
    };
  });
  rows.sort((a, b) => codePointOrder(a.day, b.day) || zhOrder(a.restaurantName, b.restaurantName));
  return { rows };
};

export const settlementQueries: Record<string, (db: Db, tenantId: number, f: Filters) => Promise<QueryResult>> = {
  mealTicketSummary,
  mealTicketDetail,
  monthlySettlementUser,
  monthlySettlementMerchant,
  teacherSubsidy,
  staffPointsMonthly,
  pointsOrderStats,
};
