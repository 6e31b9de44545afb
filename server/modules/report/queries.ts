import { sql, type SelectQueryBuilder } from "kysely";
import { MEAL_TYPES } from "../../../resources/report/index";
import type { Db } from "../../db";
import type { Database } from "../../db/schema";
import { BusiType } from "../zhct/ledger";
import { ORDER_DOC_TYPE } from "../zhct/payments";
import { dayNoOf, dayOfNo, LEDGER_DAY_ACCOUNTS, ledgerDaySums } from "../zhct/ledgerDays";
import { notCountedStatuses } from "../zhct/orderDays";
import { chargeDaily } from "../zhct/reports";
import type { Filters, QueryResult, ReportQuery, Row } from "./query";
import { deptPeriods, dinerPeriods, periodKept } from "./dinerPeriods";
import { attendanceQueries } from "./queries-attendance";
import { codePointOrder, minuteOf, orgNames, ROW_LIMIT, sumOf, zhOrder } from "./helpers";
import { settlementQueries } from "./queries-settlement";

export { minuteOf, ROW_LIMIT };

/**
 * The reports' queries (decision 030). Orders are grouped by their `order_date` (YYYY-MM-DD text, the China day of
 * the sale) and ledger lines by `ledgerDayNo`: the same expressions on SQLite and PostgreSQL. Sums are integer fen.
 * An order's 实收 is what it still keeps: paid_amount − refunded_amount (a cancel refunds all of it, a complaint a part).
 */

type OrderQuery = SelectQueryBuilder<Database, "meal_order", object>;

/** The orders the filters select: the tenant's, of the period's days, and of the chosen restaurant, meal, payment, diner. */
function ordersOf(db: Db, tenantId: number, f: Filters): OrderQuery {
  let q = db.selectFrom("meal_order").where("meal_order.tenant_id", "=", tenantId).where("meal_order.order_date", ">=", f.from).where("meal_order.order_date", "<=", f.to);
  if (f.restaurantId !== undefined) q = q.where("meal_order.restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) q = q.where("meal_order.meal_type", "=", f.mealType);
  if (f.payFlag !== undefined) q = q.where("meal_order.pay_flag", "=", Number(f.payFlag));
  if (f.userInfoId !== undefined) q = q.where("meal_order.user_info_id", "=", f.userInfoId);
  return q as unknown as OrderQuery;
}

const net = sql<number>`meal_order.paid_amount - meal_order.refunded_amount`;
const KNOWN_MEALS = MEAL_TYPES.filter(([t]) => t !== "none").map(([t]) => t);


const dailyOrderSummary: ReportQuery = async (db, tenantId, f) => {
  // The orders each day keeps per restaurant, meal type and payment method (decision 041 addendum): every filter of
  // this report is in that key, so a month is a few hundred rows instead of its orders.
  let q = db.selectFrom("order_day").where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to);
  if (f.restaurantId !== undefined) q = q.where("restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) q = q.where("meal_type", "=", f.mealType);
  if (f.payFlag !== undefined) q = q.where("pay_flag", "=", Number(f.payFlag));
  const kept = sql<number>`paid - refunded`;
  const rows = await q
    .select([
      "order_date as day",
      sumOf(sql`placed`).as("orders"),
      sumOf(sql`cancelled`).as("cancelled"),
      sumOf(sql`paid`).as("paid"),
      sumOf(sql`refunded`).as("refunded"),
      sumOf(kept).as("net"),
      ...KNOWN_MEALS.map((type) => sumOf(sql`case when meal_type = ${sql.lit(type)} then ${kept} else 0 end`).as(`net_${type}`)),
      // Orders sold by amount (no meal time) and any other meal type.
      sumOf(sql`case when meal_type in (${sql.join(KNOWN_MEALS.map((t) => sql.lit(t)))}) then 0 else ${kept} end`).as("net_none"),
    ])
    .groupBy("order_date")
    .orderBy("order_date")
    .execute();
  return { rows: rows.map((r) => numbers(r as Row, ["day"])) };
};

/** Every value a number except the named text columns (PostgreSQL answers sums and counts as text). */
function numbers(row: Row, texts: string[]): Row {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, texts.includes(k) || v === null ? v : Number(v)]));
}

const dailyOrderDetail: ReportQuery = async (db, tenantId, f) => {
  // The page's orders are chosen from the covering index alone (migration 0030): reading each order's row and its
  // diner before the sort cost a random read per order of the month, and only 5,001 of them are shown.
  const page = ordersOf(db, tenantId, f).select("meal_order.id").orderBy("meal_order.paid_at").orderBy("meal_order.id").limit(ROW_LIMIT + 1);
  const [rows, totals] = await Promise.all([
    db
      .selectFrom("meal_order")
      .innerJoin("user_info", (j) => j.onRef("user_info.tenant_id", "=", "meal_order.tenant_id").onRef("user_info.id", "=", "meal_order.user_info_id"))
      .where("meal_order.tenant_id", "=", tenantId)
      .where("meal_order.id", "in", page)
      .select([
        "meal_order.order_no",
        "meal_order.paid_at",
        "user_info.user_code",
        "user_info.user_name",
        "meal_order.restaurant_id",
        "meal_order.meal_type",
        "meal_order.pay_flag",
        "meal_order.order_status",
        "meal_order.paid_amount",
        "meal_order.refunded_amount",
      ])
      .orderBy("meal_order.paid_at")
      .orderBy("meal_order.id")
      .execute(),
    ordersOf(db, tenantId, f)
      .select([sql<number>`count(*)`.as("orders"), sumOf(sql`meal_order.paid_amount`).as("paid"), sumOf(sql`meal_order.refunded_amount`).as("refunded"), sumOf(net).as("net")])
      .executeTakeFirstOrThrow(),
  ]);
  const names = await orgNames(db, tenantId, rows.map((r) => r.restaurant_id));
  const count = Number(totals.orders);
  return {
    rows: rows.slice(0, ROW_LIMIT).map((r) => ({
      orderNo: r.order_no,
      paidAt: minuteOf(Number(r.paid_at)),
      userCode: r.user_code,
      userName: r.user_name,
      restaurantName: r.restaurant_id === null ? "" : (names.get(r.restaurant_id) ?? ""),
      mealType: r.meal_type,
      payFlag: String(r.pay_flag),
      orderStatus: String(r.order_status),
      orders: 1,
      paid: Number(r.paid_amount),
      refunded: Number(r.refunded_amount),
      net: Number(r.paid_amount) - Number(r.refunded_amount),
    })),
    totals: { orders: count, paid: Number(totals.paid), refunded: Number(totals.refunded), net: Number(totals.net) },
    truncated: Math.max(0, count - ROW_LIMIT),
  };
};

const foodCount: ReportQuery = async (db, tenantId, f) => {
  // The day's totals the orders keep (decision 038): a month of 2,000,000 items is a few thousand rows here.
  let q = db.selectFrom("food_sales_day").where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to).where("quantity", ">", 0);
  if (f.restaurantId !== undefined) q = q.where("restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) q = q.where("meal_type", "=", f.mealType);
  const sold = await q.select(["order_date as day", "restaurant_id", "meal_type", "food_name", "quantity", "amount"]).execute();
  // An order without a restaurant or a meal type is kept under 0 and '' (the table's key has no nulls).
  const rows = sold.map((r) => ({ ...r, restaurant_id: Number(r.restaurant_id) || null, meal_type: r.meal_type === "" ? null : r.meal_type }));
  const names = await orgNames(db, tenantId, rows.map((r) => r.restaurant_id));
  const records = rows.map((r) => ({
    day: r.day,
    restaurantName: r.restaurant_id === null ? "" : (names.get(r.restaurant_id) ?? ""),
    mealType: r.meal_type,
    foodName: r.food_name,
    quantity: Number(r.quantity),
    amount: Number(r.amount),
  }));
  const meal = (t: unknown) => MEAL_TYPES.findIndex(([m]) => m === t);
  records.sort((a, b) => codePointOrder(a.day, b.day) || zhOrder(a.restaurantName, b.restaurantName) || meal(a.mealType) - meal(b.mealType) || b.quantity - a.quantity || zhOrder(a.foodName, b.foodName));
  return { rows: records };
};

/** The orders of a department's diners: a look-up of the diners, not a join per order (the orders stay on the covering index). */
function ofDept<Q extends OrderQuery>(db: Db, tenantId: number, f: Filters, q: Q): Q {
  if (f.deptId === undefined) return q;
  const diners = db.selectFrom("user_info").select("user_info.id").where("user_info.tenant_id", "=", tenantId).where("user_info.dept_id", "=", f.deptId);
  return q.where("meal_order.user_info_id", "in", diners) as Q;
}

/**
 * The diner an order is grouped by, written `+user_info_id` so SQLite does not group along the (diner, day) index:
 * with the period's days as bound parameters its planner cannot tell a month from a day, and chose that index to skip
 * the sort, then read every order of the tenant's history row by row (3 s for a month of 20,000 diners, against
 * 0.3 s on the covering day index and a sort). PostgreSQL reads it as the same bigint.
 */
const byDiner = sql<number>`+meal_order.user_info_id`;

const notCancelled = sql<number>`case when meal_order.order_status in (${notCountedStatuses}) then 0 else 1 end`;

/** Per diner of the filtered orders: orders not cancelled, and 实收. Summed on the order index, named afterwards. */
const perDiner = (db: Db, tenantId: number, f: Filters) =>
  ofDept(db, tenantId, f, ordersOf(db, tenantId, f))
    .select([byDiner.as("user_info_id"), sql<number>`sum(${notCancelled})`.as("orders"), sumOf(net).as("net")])
    .groupBy(byDiner);

interface DinerConsumption {
  userInfoId: number;
  userCode: string;
  userName: string;
  deptId: number | null;
  orders: number;
  net: number;
  cash: number;
  subsidy: number;
}

/** Per diner of the period, from the kept days and months (decision 041) when the filters allow, else from the orders. */
async function dinerConsumption(db: Db, tenantId: number, f: Filters): Promise<DinerConsumption[]> {
  if (periodKept(f)) return (await dinerPeriods(db, tenantId, f, { accounts: true })).map((d) => ({ ...d, cash: d.cash ?? 0, subsidy: d.subsidy ?? 0 }));
  const [orders, accounts] = await Promise.all([
    db
      .selectFrom(perDiner(db, tenantId, f).as("a"))
      .innerJoin("user_info", (j) => j.on("user_info.tenant_id", "=", tenantId).onRef("user_info.id", "=", "a.user_info_id"))
      .select(["a.user_info_id", "a.orders", "a.net", "user_info.user_code", "user_info.user_name", "user_info.dept_id"])
      .execute(),
    // What the same orders took from each account: their consumption lines less what was returned to it.
    ofDept(db, tenantId, f, ordersOf(db, tenantId, f))
      .innerJoin("user_account_ledger as l", (j) =>
        j.onRef("l.tenant_id", "=", "meal_order.tenant_id").on("l.doc_type", "=", ORDER_DOC_TYPE).on(sql<boolean>`l.doc_id = +meal_order.id`),
      )
      .where("l.busi_type", "in", [BusiType.CONSUME, BusiType.CONSUME_RETURN])
      .select([byDiner.as("user_info_id"), "l.account_type", sumOf(sql`l.amount`).as("amount")])
      .groupBy([byDiner, "l.account_type"])
      .execute(),
  ]);
  // A map, not a search per diner: with thousands of diners a search made the report quadratic (decision 035).
  const byAccount = new Map(accounts.map((a) => [`${a.user_info_id}:${a.account_type}`, Number(a.amount)]));
  const taken = (id: number, type: string) => -(byAccount.get(`${id}:${type}`) ?? 0);
  return orders.map((o) => ({
    userInfoId: Number(o.user_info_id),
    userCode: o.user_code,
    userName: o.user_name,
    deptId: o.dept_id === null ? null : Number(o.dept_id),
    orders: Number(o.orders),
    net: Number(o.net),
    cash: taken(o.user_info_id, "cash"),
    subsidy: taken(o.user_info_id, "subsidy"),
  }));
}

const userConsumption: ReportQuery = async (db, tenantId, f) => {
  const diners = await dinerConsumption(db, tenantId, f);
  const depts = await orgNames(db, tenantId, diners.map((d) => d.deptId));
  const rows = diners.map((d) => ({
    userCode: d.userCode,
    userName: d.userName,
    deptName: d.deptId ? (depts.get(d.deptId) ?? "") : "",
    orders: d.orders,
    net: d.net,
    cash: d.cash,
    subsidy: d.subsidy,
  }));
  rows.sort((a, b) => codePointOrder(a.userCode, b.userCode));
  return { rows };
};

const deptDining: ReportQuery = async (db, tenantId, f) => {
  // A diner counts when one of their orders was kept. From the kept days and months the statement sums per department
  // itself; from the orders (the filters those do not carry) per diner first.
  const depts = periodKept(f) ? await deptPeriods(db, tenantId, f) : perDept(await ordersPerDiner(db, tenantId, f));
  const names = await orgNames(db, tenantId, depts.map((d) => d.deptId));
  const records = depts.map(({ deptId, ...r }) => ({
    deptId: deptId === null ? null : String(deptId),
    deptName: deptId === null ? "未分配部门" : (names.get(deptId) ?? String(deptId)),
    ...r,
  }));
  records.sort((a, b) => (a.deptId === null ? 1 : b.deptId === null ? -1 : zhOrder(a.deptName, b.deptName)));
  return { rows: records };
};

function perDept(diners: Array<{ deptId: number | null; orders: number; net: number }>) {
  const byDept = new Map<number | null, { diners: number; orders: number; net: number }>();
  for (const d of diners) {
    const dept = byDept.get(d.deptId) ?? { diners: 0, orders: 0, net: 0 };
    byDept.set(d.deptId, { diners: dept.diners + (d.orders > 0 ? 1 : 0), orders: dept.orders + d.orders, net: dept.net + d.net });
  }
  return [...byDept].map(([deptId, r]) => ({ deptId, ...r }));
}

/** Per diner of the filtered orders, with their department: orders not cancelled and 实收. */
async function ordersPerDiner(db: Db, tenantId: number, f: Filters) {
  const rows = await db
    .selectFrom(perDiner(db, tenantId, f).as("a"))
    .innerJoin("user_info", (j) => j.on("user_info.tenant_id", "=", tenantId).onRef("user_info.id", "=", "a.user_info_id"))
    .select(["user_info.dept_id", "a.orders", "a.net"])
    .execute();
  return rows.map((r) => ({ deptId: r.dept_id === null ? null : Number(r.dept_id), orders: Number(r.orders), net: Number(r.net) }));
}

const personalLedger: ReportQuery = async (db, tenantId, f) => {
  const lines = () => {
    let q = db.selectFrom("user_account_ledger").where("tenant_id", "=", tenantId).where("user_info_id", "=", f.userInfoId as number);
    if (f.accountType !== undefined) q = q.where("account_type", "=", f.accountType);
    return q;
  };
  const [before, within] = await Promise.all([
    lines().select(sumOf(sql`amount`).as("opening")).where("occurred_at", "<", f.start).executeTakeFirstOrThrow(),
    lines()
      .select(["occurred_at", "account_type", "busi_type", "pay_flag", "operator_name", "remark", "amount"])
      .where("occurred_at", ">=", f.start)
      .where("occurred_at", "<", f.end)
      .orderBy("occurred_at")
      .orderBy("id")
      .execute(),
  ]);
  let balance = Number(before.opening);
  const rows: Row[] = [{ occurredAt: f.from, remark: "期初余额", balance }];
  for (const line of within) {
    const amount = Number(line.amount);
    balance += amount;
    rows.push({
      occurredAt: minuteOf(Number(line.occurred_at)),
      accountType: line.account_type,
      busiType: String(line.busi_type),
      payFlag: String(line.pay_flag),
      operatorName: line.operator_name ?? "",
      remark: line.remark ?? "",
      income: amount > 0 ? amount : null,
      expense: amount < 0 ? -amount : null,
      balance,
    });
  }
  rows.push({ occurredAt: f.to, remark: "期末余额", balance });
  return { rows };
};

const chargeDailyReport: ReportQuery = async (db, tenantId, f) => {
  const report = await chargeDaily(db, tenantId, { from: f.from, to: f.to }, f.start);
  return { rows: report.records as unknown as Row[], totals: report.totals };
};

/** The ledger's days (decision 044): a day and account with lines is a row; its columns group the business types. */
const accountTypeDaily: ReportQuery = async (db, tenantId, f) => {
  const accounts = LEDGER_DAY_ACCOUNTS.filter((a) => f.accountType === undefined || a === f.accountType);
  const days = await db
    .selectFrom("ledger_day")
    .select(["day_no", ...accounts.flatMap((a) => ledgerDaySums(a))])
    .where("tenant_id", "=", tenantId)
    .where("day_no", ">=", dayNoOf(f.start))
    .where("day_no", "<", dayNoOf(f.end))
    .groupBy("day_no")
    .orderBy("day_no")
    .execute();
  const rows = days.flatMap((day) => {
    const figures = day as unknown as Record<string, number | string>;
    return accounts.flatMap((account): Row[] => {
      const of = (...busi: string[]) => busi.reduce((sum, b) => sum + Number(figures[`${account}_${b}`]), 0);
      if (of("lines") === 0) return [];
      const [topUp, grant, consume, refund, other] = [of("top_up"), of("grant"), of("consume", "consume_return"), of("refund"), of("reversal", "clear")];
      const dormFee = of("dorm_fee");
      return [{ day: dayOfNo(day.day_no), accountType: account, topUp, grant, consume, refund, other, dormFee, net: topUp + grant + consume + refund + other + dormFee }];
    });
  });
  return { rows };
};

export const reportQueries: Record<string, (db: Db, tenantId: number, f: Filters) => Promise<QueryResult>> = {
  dailyOrderSummary,
  dailyOrderDetail,
  foodCount,
  userConsumption,
  deptDining,
  personalLedger,
  chargeDailyReport,
  accountTypeDaily,
  ...settlementQueries,
  ...attendanceQueries,
};
