import { sql } from "kysely";
import type { Db } from "../../db";
import { BusiType } from "../zhct/ledger";
import { dayOf, monthOf, nextMonth } from "../zhct/months";
import { ORDER_DOC_TYPE } from "../zhct/payments";
import { PointsChange } from "../zhct/points";
import { dayOfNo, ledgerDayNo } from "../zhct/reports";
import { ApprovedStatus, TICKET_TYPE_OF_PAY_FLAG } from "../zhct/tickets";
import type { Filters, QueryResult, ReportQuery, Row } from "./engine";
import { dinersOf, minuteOf, orgNames, ROW_LIMIT, sumOf } from "./helpers";

/**
 * The queries of resources/report/settlement.ts (decision 032). Same rules as queries.ts: integer fen and points,
 * orders by `order_date`, ledger lines by China day numbers, the same SQL on SQLite and PostgreSQL; what a figure
 * means is in decision 032.
 */

/** Orders fully refunded by a cancel or a complaint (dictionary mealOrderStatus 2 and 4). */
const CANCELLED = sql.join([2, 4].map((s) => sql.lit(s)));
const TICKET_FLAGS = sql.join(Object.keys(TICKET_TYPE_OF_PAY_FLAG).map((f) => sql.lit(Number(f))));
const NO_DEPT = "未分配部门";

/** The diner filters of a report (department, staff type, one diner) on a query joined to `user_info as u`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function whereDiner<Q extends { where: (...args: any[]) => Q }>(q: Q, f: Filters): Q {
  if (f.deptId !== undefined) q = q.where(sql.ref("u.dept_id"), "=", f.deptId);
  if (f.staffType !== undefined) q = q.where(sql.ref("u.staff_type"), "=", f.staffType);
  if (f.userInfoId !== undefined) q = q.where(sql.ref("u.id"), "=", f.userInfoId);
  return q;
}

const byZh = (a: string, b: string) => a.localeCompare(b, "zh-CN");

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
  list.sort((a, b) => Number(a.ticketType) - Number(b.ticketType) || (a.deptId === null ? 1 : b.deptId === null ? -1 : byZh(String(a.deptName), String(b.deptName))));
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

/** The orders of the period's days, joined to their diner as `u`, with the diner filters. */
function ordersWithDiner(db: Db, tenantId: number, f: Filters) {
  let q = db
    .selectFrom("meal_order as o")
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "o.tenant_id").onRef("u.id", "=", "o.user_info_id"))
    .where("o.tenant_id", "=", tenantId)
    .where("o.order_date", ">=", f.from)
    .where("o.order_date", "<=", f.to);
  if (f.restaurantId !== undefined) q = q.where("o.restaurant_id", "=", f.restaurantId);
  return whereDiner(q, f);
}

/** `+o.user_info_id`: grouped off the (diner, day) index, which SQLite otherwise picks for bound days (decision 036). */
const byDiner = sql<number>`+o.user_info_id`;

const monthlySettlementUser: ReportQuery = async (db, tenantId, f) => {
  const [orders, accounts] = await Promise.all([
    ordersWithDiner(db, tenantId, f)
      .select([
        byDiner.as("user_info_id"),
        sumOf(sql`case when o.order_status in (${CANCELLED}) then 0 else 1 end`).as("orders"),
        sumOf(sql`o.paid_amount`).as("paid"),
        sumOf(sql`case when o.pay_flag in (${TICKET_FLAGS}) then o.paid_amount else 0 end`).as("ticket"),
        sumOf(sql`o.refunded_amount`).as("refunded"),
      ])
      .groupBy(byDiner)
      .execute(),
    // What paying took from each account: the orders' consumption lines (returns are the refunds column).
    ordersWithDiner(db, tenantId, f)
      .innerJoin("user_account_ledger as l", (j) => j.onRef("l.tenant_id", "=", "o.tenant_id").on(sql<boolean>`l.doc_id = +o.id`).on("l.doc_type", "=", ORDER_DOC_TYPE))
      .where("l.busi_type", "=", BusiType.CONSUME)
      .select([byDiner.as("user_info_id"), "l.account_type", sumOf(sql`l.amount`).as("amount")])
      .groupBy([byDiner, "l.account_type"])
      .execute(),
  ]);
  const diners = await dinersOf(db, tenantId, orders.map((o) => o.user_info_id));
  // A map, not a search per diner (quadratic: 4.8 s for 20,000 diners, decision 036).
  const byAccount = new Map(accounts.map((a) => [`${a.user_info_id}:${a.account_type}`, Number(a.amount)]));
  const taken = (id: number, type: string) => -(byAccount.get(`${id}:${type}`) ?? 0);
  const rows = orders.map((o) => {
    const d = diners.get(o.user_info_id);
    const paid = Number(o.paid);
    const [cash, subsidy, ticket] = [taken(o.user_info_id, "cash"), taken(o.user_info_id, "subsidy"), Number(o.ticket)];
    return {
      userCode: d?.userCode ?? "",
      userName: d?.userName ?? "",
      deptName: d?.deptName ?? "",
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
  rows.sort((a, b) => a.userCode.localeCompare(b.userCode));
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
  let orders = db.selectFrom("meal_order").where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to);
  if (f.restaurantId !== undefined) orders = orders.where("restaurant_id", "=", f.restaurantId);
  const sales = await orders
    .select(["restaurant_id", sumOf(sql`case when order_status in (${CANCELLED}) then 0 else 1 end`).as("orders"), sumOf(sql`paid_amount - refunded_amount`).as("sales")])
    .groupBy("restaurant_id")
    .execute();
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
  rows.sort((a, b) => last(a.merchantName) - last(b.merchantName) || byZh(String(a.merchantName), String(b.merchantName)) || byZh(String(a.restaurantName), String(b.restaurantName)));
  return { rows };
};

const teacherSubsidy: ReportQuery = async (db, tenantId, f) => {
  const within = (busi: number[], what: ReturnType<typeof sql>) =>
    sumOf(sql`case when l.occurred_at >= ${sql.lit(f.start)} and l.busi_type in (${sql.join(busi.map((b) => sql.lit(b)))}) then ${what} else 0 end`);
  const lines = await whereDiner(
    db
      .selectFrom("user_account_ledger as l")
      .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "l.tenant_id").onRef("u.id", "=", "l.user_info_id"))
      .where("l.tenant_id", "=", tenantId)
      .where("l.account_type", "=", "subsidy")
      .where("l.occurred_at", "<", f.end),
    f,
  )
    .select([
      "l.user_info_id",
      sumOf(sql`case when l.occurred_at < ${sql.lit(f.start)} then l.amount else 0 end`).as("opening"),
      sumOf(sql`case when l.occurred_at >= ${sql.lit(f.start)} then 1 else 0 end`).as("moves"),
      within([BusiType.GRANT], sql.lit(1)).as("grants"),
      within([BusiType.GRANT], sql`l.amount`).as("granted"),
      within([BusiType.CONSUME, BusiType.CONSUME_RETURN], sql`l.amount`).as("used"),
      within([BusiType.CLEAR], sql`l.amount`).as("cleared"),
      within([BusiType.TOP_UP, BusiType.REFUND, BusiType.REVERSAL], sql`l.amount`).as("other"),
      sumOf(sql`l.amount`).as("closing"),
    ])
    .groupBy("l.user_info_id")
    .execute();
  const shown = lines.filter((l) => Number(l.opening) !== 0 || Number(l.moves) > 0);
  const diners = await dinersOf(db, tenantId, shown.map((l) => l.user_info_id));
  const rows = shown.map((l) => {
    const d = diners.get(l.user_info_id);
    return {
      userCode: d?.userCode ?? "",
      userName: d?.userName ?? "",
      staffType: d?.staffType ?? "",
      deptName: d?.deptName ?? "",
      // The drill-down opens this diner's subsidy account only.
      accountType: "subsidy",
      opening: Number(l.opening),
      grants: Number(l.grants),
      granted: Number(l.granted),
      used: -Number(l.used),
      cleared: -Number(l.cleared),
      other: Number(l.other),
      closing: Number(l.closing),
    };
  });
  rows.sort((a, b) => a.userCode.localeCompare(b.userCode));
  return { rows };
};

/** The months of a range, YYYY-MM, in order. */
function monthsOf(from: string, to: string): string[] {
  const list: string[] = [];
  for (let m = from; m <= to; m = nextMonth(m)) list.push(m);
  return list;
}

const staffPointsMonthly: ReportQuery = async (db, tenantId, f) => {
  const points = () =>
    whereDiner(
      db
        .selectFrom("user_account_integral_detail as p")
        .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "p.tenant_id").onRef("u.id", "=", "p.user_info_id"))
        .where("p.tenant_id", "=", tenantId),
      f,
    );
  const [before, within] = await Promise.all([
    points().where("p.occurred_at", "<", f.start).select(["p.user_info_id", sumOf(sql`p.points`).as("points")]).groupBy("p.user_info_id").execute(),
    // By China day in SQL (one expression on both databases); the days fold into months here.
    points()
      .where("p.occurred_at", ">=", f.start)
      .where("p.occurred_at", "<", f.end)
      .select(["p.user_info_id", "p.change_type", ledgerDayNo.as("day_no"), sumOf(sql`p.points`).as("points")])
      .groupBy(["p.user_info_id", "p.change_type", ledgerDayNo])
      .execute(),
  ]);
  const months = monthsOf(f.fromMonth ?? monthOf(f.start), f.toMonth ?? monthOf(f.end - 1));
  type Flow = { earned: number; takenBack: number; expired: number; adjusted: number; any: boolean };
  const flows = new Map<string, Flow>();
  const ids = new Set<number>();
  for (const line of within) {
    ids.add(line.user_info_id);
    const key = `${line.user_info_id}|${dayOfNo(line.day_no).slice(0, 7)}`;
    const flow = flows.get(key) ?? { earned: 0, takenBack: 0, expired: 0, adjusted: 0, any: false };
    const n = Number(line.points);
    flow.any = true;
    if (line.change_type === PointsChange.EARN) flow.earned += n;
    else if (line.change_type === PointsChange.CANCEL) flow.takenBack -= n;
    else if (line.change_type === PointsChange.EXPIRE) flow.expired -= n;
    else flow.adjusted += n;
    flows.set(key, flow);
  }
  const opening = new Map(before.map((b) => [b.user_info_id, Number(b.points)]));
  for (const id of opening.keys()) ids.add(id);
  const diners = await dinersOf(db, tenantId, [...ids]);
  const ordered = [...ids].sort((a, b) => (diners.get(a)?.userCode ?? "").localeCompare(diners.get(b)?.userCode ?? ""));
  const rows: Row[] = [];
  const totals = { month: "合计", opening: 0, earned: 0, takenBack: 0, expired: 0, adjusted: 0, closing: 0 };
  for (const id of ordered) {
    const d = diners.get(id);
    let balance = opening.get(id) ?? 0;
    totals.opening += balance;
    for (const month of months) {
      const flow = flows.get(`${id}|${month}`);
      const closing = balance + (flow ? flow.earned - flow.takenBack - flow.expired + flow.adjusted : 0);
      if (balance !== 0 || flow?.any) {
        rows.push({ month, userCode: d?.userCode ?? "", userName: d?.userName ?? "", deptName: d?.deptName ?? "", opening: balance, earned: flow?.earned ?? 0, takenBack: flow?.takenBack ?? 0, expired: flow?.expired ?? 0, adjusted: flow?.adjusted ?? 0, closing });
      }
      for (const k of ["earned", "takenBack", "expired", "adjusted"] as const) totals[k] += flow?.[k] ?? 0;
      balance = closing;
    }
    totals.closing += balance;
  }
  rows.sort((a, b) => String(a.month).localeCompare(String(b.month)) || String(a.userCode).localeCompare(String(b.userCode)));
  // Over several months the opening and closing are the period's (first month's and last month's), not a sum of months.
  return { rows, totals };
};

const pointsOrderStats: ReportQuery = async (db, tenantId, f) => {
  let orders = db.selectFrom("meal_order as o").where("o.tenant_id", "=", tenantId).where("o.order_date", ">=", f.from).where("o.order_date", "<=", f.to);
  if (f.restaurantId !== undefined) orders = orders.where("o.restaurant_id", "=", f.restaurantId);
  const [earning, lines] = await Promise.all([
    orders
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("user_account_integral_detail as p")
            .select(sql.lit(1).as("one"))
            .whereRef("p.tenant_id", "=", "o.tenant_id")
            .whereRef("p.order_id", "=", "o.id")
            .where("p.change_type", "=", PointsChange.EARN),
        ),
      )
      .select(["o.order_date", "o.restaurant_id", sql<number>`count(*)`.as("orders"), sumOf(sql`o.paid_amount`).as("paid")])
      .groupBy(["o.order_date", "o.restaurant_id"])
      .execute(),
    // A take-back counts on its order's day, whenever the cancel happened.
    orders
      .innerJoin("user_account_integral_detail as p", (j) => j.onRef("p.tenant_id", "=", "o.tenant_id").onRef("p.order_id", "=", "o.id"))
      .where("p.change_type", "in", [PointsChange.EARN, PointsChange.CANCEL])
      .select([
        "o.order_date",
        "o.restaurant_id",
        sumOf(sql`case when p.change_type = ${sql.lit(PointsChange.EARN)} then p.points else 0 end`).as("earned"),
        sumOf(sql`case when p.change_type = ${sql.lit(PointsChange.CANCEL)} then p.points else 0 end`).as("takenBack"),
      ])
      .groupBy(["o.order_date", "o.restaurant_id"])
      .execute(),
  ]);
  const names = await orgNames(db, tenantId, earning.map((r) => r.restaurant_id ?? null));
  const rows = earning.map((r) => {
    const l = lines.find((x) => x.order_date === r.order_date && x.restaurant_id === r.restaurant_id);
    const earned = Number(l?.earned ?? 0);
    const takenBack = -Number(l?.takenBack ?? 0);
    return {
      day: r.order_date,
      restaurantId: r.restaurant_id === null ? null : String(r.restaurant_id),
      restaurantName: r.restaurant_id === null ? "" : (names.get(r.restaurant_id) ?? ""),
      orders: Number(r.orders),
      paid: Number(r.paid),
      earned,
      takenBack,
      net: earned - takenBack,
    };
  });
  rows.sort((a, b) => a.day.localeCompare(b.day) || byZh(a.restaurantName, b.restaurantName));
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
