import { sql, type Kysely, type RawBuilder } from "kysely";
import { preparedQuery } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { inTransaction } from "../../db/transaction";
import { monthOf, monthRange, nextMonth } from "./months";
import { notCountedStatuses, SWIPE_SOURCES } from "./orderDays";

/**
 * Each diner's month in totals (tables diner_month_ledger, diner_month_points and diner_month_order, decision 040),
 * kept in the transaction of the line or the order they count: the monthly reports per diner (月度个人结算, 教师补贴,
 * 员工积分月结) read a month of 20,000 diners as 20,000-odd rows instead of a million orders or ledger lines. The
 * orders are kept per day too (diner_day_order, decision 041), so a period of days is its whole months plus or minus
 * the days at its edges (report/dinerPeriods.ts). Each diner's month is kept per restaurant, stall and meal type as
 * well (diner_place_month, decision 047): 食堂消费次数统计 counts a place's diners of a period from it.
 *
 * A month is the China month: of the line's `occurred_at` for ledger and points lines, of the order's `order_date`
 * for orders. Every upsert touches rows of one diner only, after the caller has locked that diner's account or order
 * (PostgreSQL) or taken the write lock (SQLite), so two payments of a diner wait for each other and never deadlock.
 */

type Trx = Kysely<Database>;


/** Adds one ledger line to its diner's month (`post` calls it for every line). */
export async function countLedgerMonth(trx: Trx, line: { tenantId: number; userInfoId: number; accountType: string; busiType: number; amount: number; occurredAt: number }): Promise<void> {
  await addLedgerMonth(trx, line.tenantId, line.accountType, monthOf(line.occurredAt), line.userInfoId, line.busiType, line.amount);
}

/** The upsert of `countLedgerMonth`, compiled once: it runs for every ledger line. */
const addLedgerMonth = preparedQuery("diner month ledger add", (trx: Trx, tenantId: number, accountType: string, month: string, userInfoId: number, busiType: number, amount: number) =>
  trx
    .insertInto("diner_month_ledger")
    .values({ tenant_id: tenantId, account_type: accountType, month, user_info_id: userInfoId, busi_type: busiType, amount, lines: 1 })
    .onConflict((oc) =>
      oc.columns(["tenant_id", "user_info_id", "account_type", "month", "busi_type"]).doUpdateSet({
        amount: sql`diner_month_ledger.amount + excluded.amount`,
        lines: sql`diner_month_ledger.lines + 1`,
      }),
    ),
);

/** Adds one points line to its diner's month (`postPoints` calls it for every line). */
export async function countPointsMonth(trx: Trx, line: { tenantId: number; userInfoId: number; changeType: number; points: number; occurredAt: number }): Promise<void> {
  await addPointsMonth(trx, line.tenantId, monthOf(line.occurredAt), line.userInfoId, line.changeType, line.points);
}

const addPointsMonth = preparedQuery("diner month points add", (trx: Trx, tenantId: number, month: string, userInfoId: number, changeType: number, points: number) =>
  trx
    .insertInto("diner_month_points")
    .values({ tenant_id: tenantId, month, user_info_id: userInfoId, change_type: changeType, points, lines: 1 })
    .onConflict((oc) =>
      oc.columns(["tenant_id", "user_info_id", "month", "change_type"]).doUpdateSet({
        points: sql`diner_month_points.points + excluded.points`,
        lines: sql`diner_month_points.lines + 1`,
      }),
    ),
);

/** The meal types with a column of their own; any other (and none: an amount-only sale) counts under meals_none. */
export const COUNTED_MEALS = ["breakfast", "lunch", "dinner", "midnight"] as const;

/** What an order changes in its diner's day and month: each figure signed, 0 where it does not change. */
export interface OrderMonthChange {
  tenantId: number;
  userInfoId: number;
  orderDate: string;
  /** The order's meal type: the meal it counts as. */
  mealType: string | null;
  /** Where it was sold: the diner's month per restaurant, stall and meal type counts it there (diner_place_month). */
  restaurantId: number | null;
  stallId: number | null;
  /** +1 when paid (an order placed). */
  placed?: number;
  /** +1 when paid, −1 when it stops counting (cancelled, or refunded in full). */
  orders?: number;
  paid?: number;
  /** Paid with a meal ticket (userAccountFlag 3–7). */
  ticket?: number;
  refunded?: number;
  /** Fen the payment took from the cash and the subsidy account (its 消费 lines, as positive fen). */
  cash?: number;
  subsidy?: number;
  /** Fen a cancel or a refund gave back to each account (its 消费退回 lines, positive). */
  cashBack?: number;
  subsidyBack?: number;
  /** +1 when a counter or device sale is paid, −1 when it stops counting (刷卡统计's diners of a period). */
  swipes?: number;
}

const ORDER_FIGURES = ["placed", "orders", "paid", "ticket", "refunded", "cash", "subsidy", "cash_back", "subsidy_back", ...COUNTED_MEALS.map((m) => `meals_${m}` as const), "meals_none", "swipes"] as const;
type OrderFigure = (typeof ORDER_FIGURES)[number];

/** Each figure as `table.figure + excluded.figure`: the upserts add. */
const adding = (table: string, figures: readonly string[]) => Object.fromEntries(figures.map((f) => [f, sql`${sql.ref(`${table}.${f}`)} + ${sql.ref(`excluded.${f}`)}`]));

/**
 * Adds an order's change to its diner's day and month. The day's row answers whether the diner still has a meal that
 * day, so the month's days follow it: a day's first counted order adds one, its last one leaving takes one away.
 */
export async function countOrderMonth(trx: Trx, change: OrderMonthChange): Promise<void> {
  const orders = change.orders ?? 0;
  const meal = COUNTED_MEALS.find((m) => m === change.mealType) ?? "none";
  const figures: Record<OrderFigure, number> = {
    placed: change.placed ?? 0,
    orders,
    paid: change.paid ?? 0,
    ticket: change.ticket ?? 0,
    refunded: change.refunded ?? 0,
    cash: change.cash ?? 0,
    subsidy: change.subsidy ?? 0,
    cash_back: change.cashBack ?? 0,
    subsidy_back: change.subsidyBack ?? 0,
    meals_breakfast: 0,
    meals_lunch: 0,
    meals_dinner: 0,
    meals_midnight: 0,
    meals_none: 0,
    swipes: change.swipes ?? 0,
  };
  figures[`meals_${meal}`] = orders;
  if (Object.values(figures).every((n) => n === 0)) return;
  const values = ORDER_FIGURES.map((f) => figures[f]);
  const [day] = await addDinerDay(trx, change.tenantId, change.orderDate, change.userInfoId, ...values);
  const after = Number(day.orders);
  const before = after - orders;
  const days = before <= 0 && after > 0 ? 1 : before > 0 && after <= 0 ? -1 : 0;
  await addDinerMonth(trx, change.tenantId, change.orderDate.slice(0, 7), change.userInfoId, days, ...values);
  const place = { meals: orders, amount: figures.paid - figures.refunded };
  if (place.meals === 0 && place.amount === 0) return;
  await addDinerPlaceMonth(trx, change.tenantId, change.orderDate.slice(0, 7), change.restaurantId ?? 0, change.stallId ?? 0, change.mealType ?? "", change.userInfoId, place.meals, place.amount);
}

/** The figures of `ORDER_FIGURES`' placeholders, by name. */
const figuresOf = (values: number[]) => Object.fromEntries(ORDER_FIGURES.map((f, i) => [f, values[i]])) as Record<OrderFigure, number>;

// The upserts of `countOrderMonth`, compiled once: every payment, cancel and refund runs them.
const addDinerDay = preparedQuery("diner day order add", (trx: Trx, tenantId: number, orderDate: string, userInfoId: number, ...values: number[]) =>
  trx
    .insertInto("diner_day_order")
    .values({ tenant_id: tenantId, order_date: orderDate, user_info_id: userInfoId, ...figuresOf(values) })
    .onConflict((oc) => oc.columns(["tenant_id", "order_date", "user_info_id"]).doUpdateSet(adding("diner_day_order", ORDER_FIGURES)))
    .returning("orders"),
);
const addDinerMonth = preparedQuery("diner month order add", (trx: Trx, tenantId: number, month: string, userInfoId: number, days: number, ...values: number[]) =>
  trx
    .insertInto("diner_month_order")
    .values({ tenant_id: tenantId, month, user_info_id: userInfoId, ...figuresOf(values), days })
    .onConflict((oc) => oc.columns(["tenant_id", "month", "user_info_id"]).doUpdateSet(adding("diner_month_order", [...ORDER_FIGURES, "days"]))),
);
const addDinerPlaceMonth = preparedQuery(
  "diner place month add",
  (trx: Trx, tenantId: number, month: string, restaurantId: number, stallId: number, mealType: string, userInfoId: number, meals: number, amount: number) =>
    trx
      .insertInto("diner_place_month")
      .values({ tenant_id: tenantId, month, restaurant_id: restaurantId, stall_id: stallId, meal_type: mealType, user_info_id: userInfoId, meals, amount })
      .onConflict((oc) => oc.columns(["tenant_id", "month", "restaurant_id", "stall_id", "meal_type", "user_info_id"]).doUpdateSet(adding("diner_place_month", ["meals", "amount"]))),
);

/**
 * Counts every diner's months per restaurant, stall and meal type afresh from the orders, one tenant's or (no tenant:
 * migration 0039) all: one grouped INSERT, as `recountDinerMonths` does for the diners' months.
 */
export async function recountDinerPlaceMonths(db: Kysely<Database>, tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    await (tenantId === undefined ? trx.deleteFrom("diner_place_month") : trx.deleteFrom("diner_place_month").where("tenant_id", "=", tenantId)).execute();
    const counted = sql`order_status not in (${notCountedStatuses})`;
    await sql`
      insert into diner_place_month (tenant_id, month, restaurant_id, stall_id, meal_type, user_info_id, meals, amount)
      select tenant_id, substr(order_date, 1, 7), coalesce(restaurant_id, 0), coalesce(stall_id, 0), coalesce(meal_type, ''), user_info_id,
        sum(case when ${counted} then 1 else 0 end), sum(paid_amount - refunded_amount)
      from meal_order
      where ${tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`}
      group by tenant_id, substr(order_date, 1, 7), coalesce(restaurant_id, 0), coalesce(stall_id, 0), coalesce(meal_type, ''), user_info_id`.execute(trx);
  });
}

/** The China months from the first to the last of these moments, in order. */
function monthsBetween(first: number, last: number): string[] {
  const months: string[] = [];
  for (let m = monthOf(first); m <= monthOf(last); m = nextMonth(m)) months.push(m);
  return months;
}

/**
 * Counts every diner's months afresh from the lines and orders, one tenant's or (no tenant: migration 0033) all:
 * the demo generator writes its rows in bulk, without `post`. Each month is one grouped INSERT per table, with the
 * month's bounds in China time as numbers, so the same SQL runs on both databases. `ticketPayFlags`: the payment
 * methods that are meal tickets (payments.ts `TICKET_PAY_FLAGS`, passed in: payments imports this module).
 */
export async function recountDinerMonths(db: Kysely<Database>, ticketPayFlags: readonly number[], tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const ofTenant = tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`;
    await recountLedgerMonths(trx, tenantId);
    await recountPointsMonths(trx, tenantId);
    await (tenantId === undefined ? trx.deleteFrom("diner_month_order") : trx.deleteFrom("diner_month_order").where("tenant_id", "=", tenantId)).execute();
    await (tenantId === undefined ? trx.deleteFrom("diner_day_order") : trx.deleteFrom("diner_day_order").where("tenant_id", "=", tenantId)).execute();
    const ofOrders = tenantId === undefined ? sql`1 = 1` : sql`o.tenant_id = ${tenantId}`;
    const tickets = sql.join(ticketPayFlags.map((f) => sql.lit(f)));
    const counted = sql`o.order_status not in (${notCountedStatuses})`;
    const known = sql.join(COUNTED_MEALS.map((m) => sql.lit(m)));
    const figures = sql.join(ORDER_FIGURES.map((f) => sql.ref(f)));
    await sql`
      insert into diner_day_order (tenant_id, order_date, user_info_id, ${figures})
      select o.tenant_id, o.order_date, o.user_info_id, count(*),
        sum(case when ${counted} then 1 else 0 end),
        sum(o.paid_amount), sum(case when o.pay_flag in (${tickets}) then o.paid_amount else 0 end), sum(o.refunded_amount), 0, 0, 0, 0,
        ${sql.join(COUNTED_MEALS.map((m) => sql`sum(case when ${counted} and o.meal_type = ${sql.lit(m)} then 1 else 0 end)`))},
        sum(case when ${counted} and (o.meal_type is null or o.meal_type not in (${known})) then 1 else 0 end),
        sum(case when ${counted} and o.order_source in (${sql.join(SWIPE_SOURCES.map((s) => sql.lit(s)))}) then 1 else 0 end)
      from meal_order o
      where ${ofOrders}
      group by o.tenant_id, o.order_date, o.user_info_id`.execute(trx);
    // What paying took from each account and what cancels and refunds gave back: the orders' 消费 and 消费退回 lines
    // (doc_type ORDER_DOC_TYPE, busi_type CONSUME and CONSUME_RETURN; written out, as those modules import this one),
    // per order day, not the line's own day. The SELECT's WHERE is needed before ON CONFLICT on SQLite (its parser
    // would read ON as a join's otherwise).
    const of = (account: string, busiType: number, sign: string) => sql`sum(case when l.account_type = ${sql.lit(account)} and l.busi_type = ${sql.lit(busiType)} then ${sql.raw(sign)}l.amount else 0 end)`;
    await sql`
      insert into diner_day_order (tenant_id, order_date, user_info_id, ${figures})
      select o.tenant_id, o.order_date, o.user_info_id, 0, 0, 0, 0, 0,
        ${of("cash", 2, "-")}, ${of("subsidy", 2, "-")}, ${of("cash", 6, "")}, ${of("subsidy", 6, "")},
        ${sql.join(COUNTED_MEALS.map(() => sql`0`))}, 0, 0
      from meal_order o join user_account_ledger l on l.tenant_id = o.tenant_id and l.doc_type = 'mealOrder' and l.doc_id = o.id and l.busi_type in (2, 6)
      where ${ofOrders}
      group by o.tenant_id, o.order_date, o.user_info_id
      on conflict (tenant_id, order_date, user_info_id) do update set cash = excluded.cash, subsidy = excluded.subsidy, cash_back = excluded.cash_back, subsidy_back = excluded.subsidy_back`.execute(trx);
    // A month is its days, and its days with a meal.
    await sql`
      insert into diner_month_order (tenant_id, month, user_info_id, ${figures}, days)
      select tenant_id, substr(order_date, 1, 7), user_info_id, ${sql.join(ORDER_FIGURES.map((f) => sql`sum(${sql.ref(f)})`))}, sum(case when orders > 0 then 1 else 0 end)
      from diner_day_order
      where ${ofTenant}
      group by tenant_id, substr(order_date, 1, 7), user_info_id`.execute(trx);
  });
}

/** Counts the diners' ledger months afresh from the money ledger's lines (the money ledger's projection). */
export function recountLedgerMonths(db: Kysely<Database>, tenantId?: number): Promise<void> {
  return recountLineMonths(db, "user_account_ledger", "diner_month_ledger", sql`account_type, busi_type`, sql`amount`, tenantId);
}

/** Counts the diners' points months afresh from the points lines (the points ledger's projection). */
export function recountPointsMonths(db: Kysely<Database>, tenantId?: number): Promise<void> {
  return recountLineMonths(db, "user_account_integral_detail", "diner_month_points", sql`change_type`, sql`points`, tenantId);
}

/**
 * A ledger's lines per diner and China month: one grouped INSERT per month, with the month's bounds in China time as
 * numbers, so the same SQL runs on both databases.
 */
async function recountLineMonths(db: Kysely<Database>, lines: string, target: "diner_month_ledger" | "diner_month_points", key: RawBuilder<unknown>, figure: RawBuilder<unknown>, tenantId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const ofTenant = tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`;
    await (tenantId === undefined ? trx.deleteFrom(target) : trx.deleteFrom(target).where("tenant_id", "=", tenantId)).execute();
    const span = await sql<{ first: number | null; last: number | null }>`select min(occurred_at) as first, max(occurred_at) as last from ${sql.table(lines)} where ${ofTenant}`.execute(trx);
    const { first, last } = span.rows[0] ?? { first: null, last: null };
    if (first === null || last === null) return;
    for (const month of monthsBetween(Number(first), Number(last))) {
      const { start, end } = monthRange(month);
      await sql`
        insert into ${sql.table(target)} (tenant_id, month, user_info_id, ${key}, ${figure}, lines)
        select tenant_id, ${month}, user_info_id, ${key}, sum(${figure}), count(*)
        from ${sql.table(lines)}
        where ${ofTenant} and occurred_at >= ${start} and occurred_at < ${end}
        group by tenant_id, user_info_id, ${key}`.execute(trx);
    }
  });
}
