import { PostgresAdapter, sql, type SelectQueryBuilder } from "kysely";
import { MEAL_TYPES } from "../../../resources/report/define";
import type { Db } from "../../db";
import type { Database } from "../../db/schema";
import { BusiType } from "../zhct/ledger";
import { notCountedStatuses, SWIPE_SOURCES } from "../zhct/orderDays";
import type { Filters, QueryResult, ReportQuery, Row } from "./query";
import { dinedPage, periodDiners, periodKept, placePeriods, type PlacePeriod } from "./dinerPeriods";
import { codePointOrder, dinersOf, orgNames, ROW_LIMIT, sumOf, zhOrder } from "./helpers";

/**
 * The attendance reports' queries (decision 033): who ate, where and how often. Like queries.ts they group orders
 * by `order_date` (the China day written at the sale) and read sums as integer fen through `Number()`. A "meal" is
 * an order still kept: not cancelled nor fully refunded (mealOrderStatus 2 and 4). This module imports nothing from
 * queries.ts, which imports it: loaded first on its own, it would otherwise meet that module half-evaluated.
 */

const TAKEAWAY = 3;
/** A top-up that names no device was made in the back office (decision 033). */
export const BACK_OFFICE = "后台";

type OrderQuery = SelectQueryBuilder<Database, "meal_order", object>;

const kept = sql<boolean>`meal_order.order_status not in (${notCountedStatuses})`;
const net = sql<number>`meal_order.paid_amount - meal_order.refunded_amount`;
const KNOWN_MEALS = MEAL_TYPES.filter(([t]) => t !== "none").map(([t]) => t);
/** The diner an order is grouped by, kept off the (diner, day) index: see `byDiner` in queries.ts (not imported, see above). */
const byDiner = sql<number>`+meal_order.user_info_id`;
const mealRank = (t: unknown) => {
  const i = MEAL_TYPES.findIndex(([m]) => m === t);
  return i < 0 ? MEAL_TYPES.length : i;
};

/**
 * The kept orders the filters select. A department is a look-up of its diners, not a join per order: the orders stay
 * on their covering index (migration 0030, decision 036) and the diners are named after the sums.
 */
function mealsOf(db: Db, tenantId: number, f: Filters): OrderQuery {
  let q = db
    .selectFrom("meal_order")
    .where("meal_order.tenant_id", "=", tenantId)
    .where("meal_order.order_date", ">=", f.from)
    .where("meal_order.order_date", "<=", f.to)
    .where(kept);
  if (f.restaurantId !== undefined) q = q.where("meal_order.restaurant_id", "=", f.restaurantId);
  if (f.stallId !== undefined) q = q.where("meal_order.stall_id", "=", f.stallId);
  if (f.mealType !== undefined) q = q.where("meal_order.meal_type", "=", f.mealType);
  if (f.payFlag !== undefined) q = q.where("meal_order.pay_flag", "=", Number(f.payFlag));
  if (f.deptId !== undefined) {
    const diners = db.selectFrom("user_info").select("user_info.id").where("user_info.tenant_id", "=", tenantId).where("user_info.dept_id", "=", f.deptId);
    q = q.where("meal_order.user_info_id", "in", diners);
  }
  if (f.userInfoId !== undefined) q = q.where("meal_order.user_info_id", "=", f.userInfoId);
  return q as unknown as OrderQuery;
}

const nameOf = (names: Map<number, string>, id: number | string | null, none = "") => (id === null ? none : (names.get(Number(id)) ?? ""));

/** Sums of the named columns over the rows. */
const sums = (rows: Row[], keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + Number(r[k] ?? 0), 0)]));
const limited = (rows: Row[], totals: Row): QueryResult => ({ rows: rows.slice(0, ROW_LIMIT), totals, truncated: Math.max(0, rows.length - ROW_LIMIT) });

const cardSwipe: ReportQuery = async (db, tenantId, f) => {
  const { rows, totals } = periodKept(f) && f.deptId === undefined && f.userInfoId === undefined ? await keptSwipes(db, tenantId, f) : await orderSwipes(db, tenantId, f);
  const names = await orgNames(db, tenantId, rows.map((r) => r.restaurant_id));
  const records: Row[] = rows.map((r) => ({
    day: r.day,
    restaurantName: nameOf(names, r.restaurant_id),
    mealType: r.meal_type,
    cardSwipes: r.cardSwipes,
    otherSwipes: r.swipes - r.cardSwipes,
    swipes: r.swipes,
    diners: r.diners,
    amount: r.amount,
  }));
  records.sort((a, b) => codePointOrder(String(a.day), String(b.day)) || zhOrder(String(a.restaurantName), String(b.restaurantName)) || mealRank(a.mealType) - mealRank(b.mealType));
  return { rows: records, totals: { cardSwipes: totals.cardSwipes, otherSwipes: totals.swipes - totals.cardSwipes, swipes: totals.swipes, diners: totals.diners, amount: totals.amount } };
};

interface Swipes {
  cardSwipes: number;
  swipes: number;
  diners: number;
  amount: number;
}
type SwipeRow = Swipes & { day: string; restaurant_id: number | null; meal_type: string | null };

/** The sales each day keeps per restaurant and meal (decision 043), and the period's diners from the kept days and months. */
async function keptSwipes(db: Db, tenantId: number, f: Filters): Promise<{ rows: SwipeRow[]; totals: Swipes }> {
  const [days, diners] = await Promise.all([
    db
      .selectFrom("swipe_day")
      .select(["order_date", "restaurant_id", "meal_type", "swipes", "card_swipes", "amount", "diners"])
      .where("tenant_id", "=", tenantId)
      .where("order_date", ">=", f.from)
      .where("order_date", "<=", f.to)
      .where("swipes", ">", 0)
      .execute(),
    periodDiners(db, tenantId, f, "swipes"),
  ]);
  const rows = days.map((d) => ({
    day: d.order_date,
    // 0 and '' are the key's "none".
    restaurant_id: Number(d.restaurant_id) || null,
    meal_type: d.meal_type || null,
    cardSwipes: Number(d.card_swipes),
    swipes: Number(d.swipes),
    diners: Number(d.diners),
    amount: Number(d.amount),
  }));
  const sum = (key: keyof Swipes) => rows.reduce((s, r) => s + r[key], 0);
  return { rows, totals: { cardSwipes: sum("cardSwipes"), swipes: sum("swipes"), amount: sum("amount"), diners } };
}

/** The same from the orders, for the filters the kept days do not carry (restaurant, department, meal type, payment method). */
async function orderSwipes(db: Db, tenantId: number, f: Filters): Promise<{ rows: SwipeRow[]; totals: Swipes }> {
  const swipes = () => mealsOf(db, tenantId, f).where("meal_order.order_source", "in", SWIPE_SOURCES);
  const figures = [
    sumOf(sql`case when meal_order.card_no is not null then 1 else 0 end`).as("cardSwipes"),
    sql<number>`count(*)`.as("swipes"),
    sql<number>`count(distinct meal_order.user_info_id)`.as("diners"),
    sumOf(net).as("amount"),
  ] as const;
  const [rows, all] = await Promise.all([
    swipes()
      .select(["meal_order.order_date as day", "meal_order.restaurant_id", "meal_order.meal_type", ...figures])
      .groupBy(["meal_order.order_date", "meal_order.restaurant_id", "meal_order.meal_type"])
      .execute(),
    swipes().select(figures).executeTakeFirstOrThrow(),
  ]);
  const numbers = (r: { cardSwipes: unknown; swipes: unknown; diners: unknown; amount: unknown }): Swipes => ({ cardSwipes: Number(r.cardSwipes), swipes: Number(r.swipes), diners: Number(r.diners), amount: Number(r.amount) });
  // A diner who ate on two days is one diner of the period: the total is counted, not summed.
  return { rows: rows.map((r) => ({ day: r.day, restaurant_id: r.restaurant_id === null ? null : Number(r.restaurant_id), meal_type: r.meal_type === null ? null : String(r.meal_type), ...numbers(r) })), totals: numbers(all) };
}

const noSwipe: ReportQuery = async (db, tenantId, f) => {
  // A diner's kept order of that day and meal type, at any counter: the meal was served.
  const notServed = (day: string, user: string, meal: string) =>
    sql<boolean>`not exists (select 1 from meal_order o where o.tenant_id = ${tenantId} and o.user_info_id = ${sql.ref(user)} and o.order_date = ${sql.ref(day)} and o.meal_type = ${sql.ref(meal)} and o.order_status not in (${notCountedStatuses}))`;
  // A department's diners, looked up only when the filter names one (the names are read for the rows found).
  const ofDept = (deptId: number) => db.selectFrom("user_info").select("user_info.id").where("user_info.tenant_id", "=", tenantId).where("user_info.dept_id", "=", deptId);
  let booked = db
    .selectFrom("appointment_detail as a")
    .innerJoin("meal_times as m", (j) => j.onRef("m.tenant_id", "=", "a.tenant_id").onRef("m.id", "=", "a.meal_times_id"))
    .where("a.tenant_id", "=", tenantId)
    .where("a.appointment_date", ">=", f.from)
    .where("a.appointment_date", "<=", f.to)
    // 已预约 and never completed by a payment; a cancelled booking expects nobody.
    .where("a.appointment_status", "=", 1)
    .where(notServed("a.appointment_date", "a.user_info_id", "m.meal_type"));
  if (f.restaurantId !== undefined) booked = booked.where("m.restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) booked = booked.where("m.meal_type", "=", f.mealType);
  if (f.deptId !== undefined) booked = booked.where("a.user_info_id", "in", ofDept(f.deptId));
  if (f.userInfoId !== undefined) booked = booked.where("a.user_info_id", "=", f.userInfoId);
  // A default order exists for a day once that day was generated: made (已生成) or refused (失败, e.g. 余额不足).
  // Skipped ones are diners on leave or already ordering; several runs of a day count once.
  let defaulted = db
    .selectFrom("user_order_default_generate_detail as g")
    .leftJoin("user_order_default as d", (j) => j.onRef("d.tenant_id", "=", "g.tenant_id").onRef("d.user_info_id", "=", "g.user_info_id").onRef("d.meal_type", "=", "g.meal_type"))
    .where("g.tenant_id", "=", tenantId)
    .where("g.order_date", ">=", f.from)
    .where("g.order_date", "<=", f.to)
    .where("g.result", "in", [1, 3])
    .where(notServed("g.order_date", "g.user_info_id", "g.meal_type"));
  if (f.restaurantId !== undefined) defaulted = defaulted.where("d.restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) defaulted = defaulted.where("g.meal_type", "=", f.mealType);
  if (f.deptId !== undefined) defaulted = defaulted.where("g.user_info_id", "in", ofDept(f.deptId));
  if (f.userInfoId !== undefined) defaulted = defaulted.where("g.user_info_id", "=", f.userInfoId);
  const [bookings, defaults] = await Promise.all([
    booked.select(["a.user_info_id", "a.appointment_date as day", "m.meal_type", "m.restaurant_id"]).execute(),
    defaulted.select(["g.user_info_id", "g.order_date as day", "g.meal_type", "d.restaurant_id"]).distinct().execute(),
  ]);
  const diners = await dinersOf(db, tenantId, [...bookings, ...defaults].map((r) => r.user_info_id));
  const names = await orgNames(db, tenantId, [...bookings, ...defaults].map((r) => r.restaurant_id));
  const row = (r: { user_info_id: number; day: string; meal_type: unknown; restaurant_id: number | null }, source: string): Row => {
    const d = diners.get(Number(r.user_info_id));
    return { day: r.day, mealType: r.meal_type as string, restaurantName: nameOf(names, r.restaurant_id), userCode: d?.userCode ?? "", userName: d?.userName ?? "", deptName: d?.deptName ?? "", source, count: 1 };
  };
  const records = [...bookings.map((r) => row(r, "预约")), ...defaults.map((r) => row(r, "默认订餐"))];
  records.sort((a, b) => codePointOrder(String(a.day), String(b.day)) || mealRank(a.mealType) - mealRank(b.mealType) || codePointOrder(String(a.userCode), String(b.userCode)) || codePointOrder(String(a.source), String(b.source)));
  return limited(records, sums(records, ["count"]));
};

const deliveryCount: ReportQuery = async (db, tenantId, f) => {
  const rows = await mealsOf(db, tenantId, f)
    .where("meal_order.order_type", "=", TAKEAWAY)
    .innerJoin("meal_order_delivery as d", (j) => j.onRef("d.tenant_id", "=", "meal_order.tenant_id").onRef("d.order_id", "=", "meal_order.id"))
    .innerJoin("delivery_point as p", (j) => j.onRef("p.tenant_id", "=", "d.tenant_id").onRef("p.id", "=", "d.delivery_point_id"))
    .innerJoin("delivery_time as s", (j) => j.onRef("s.tenant_id", "=", "d.tenant_id").onRef("s.id", "=", "d.delivery_time_id"))
    .select([
      "meal_order.order_date as day",
      "p.point_name",
      "s.slot_name",
      "s.begin_time",
      "s.end_time",
      sql<number>`count(distinct meal_order.user_info_id)`.as("diners"),
      sql<number>`count(*)`.as("orders"),
      sumOf(net).as("amount"),
    ])
    .groupBy(["meal_order.order_date", "p.id", "p.point_name", "s.id", "s.slot_name", "s.begin_time", "s.end_time"])
    .execute();
  const records: Row[] = rows.map((r) => ({
    day: r.day,
    pointName: r.point_name,
    slotName: `${r.slot_name}（${r.begin_time}–${r.end_time}）`,
    diners: Number(r.diners),
    orders: Number(r.orders),
    amount: Number(r.amount),
  }));
  records.sort((a, b) => codePointOrder(String(a.day), String(b.day)) || zhOrder(String(a.pointName), String(b.pointName)) || zhOrder(String(a.slotName), String(b.slotName)));
  // Each row's diners are those of one day, point and slot: a delivery headcount adds up across rows.
  return { rows: records };
};

const deptBooking: ReportQuery = async (db, tenantId, f) => {
  const status = (s: number, marked?: boolean) =>
    sumOf(sql`case when a.appointment_status = ${sql.lit(s)}${marked === undefined ? sql`` : marked ? sql` and a.order_appointment_status = 4` : sql` and (a.order_appointment_status is null or a.order_appointment_status <> 4)`} then 1 else 0 end`);
  let q = db
    .selectFrom("appointment_detail as a")
    .innerJoin("meal_times as m", (j) => j.onRef("m.tenant_id", "=", "a.tenant_id").onRef("m.id", "=", "a.meal_times_id"))
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "a.tenant_id").onRef("u.id", "=", "a.user_info_id"))
    .where("a.tenant_id", "=", tenantId)
    .where("a.appointment_date", ">=", f.from)
    .where("a.appointment_date", "<=", f.to);
  if (f.restaurantId !== undefined) q = q.where("m.restaurant_id", "=", f.restaurantId);
  if (f.mealType !== undefined) q = q.where("m.meal_type", "=", f.mealType);
  if (f.deptId !== undefined) q = q.where("u.dept_id", "=", f.deptId);
  const rows = await q
    .select([
      "u.dept_id",
      sql<number>`count(distinct case when a.appointment_status <> 0 then a.user_info_id end)`.as("diners"),
      sql<number>`count(*)`.as("booked"),
      status(0).as("cancelled"),
      status(2).as("completed"),
      status(1, true).as("notDined"),
      status(1, false).as("pending"),
    ])
    .groupBy("u.dept_id")
    .execute();
  const names = await orgNames(db, tenantId, rows.map((r) => r.dept_id));
  const records = rows.map((r) => ({
    deptId: r.dept_id === null ? null : String(r.dept_id),
    deptName: r.dept_id === null ? "未分配部门" : nameOf(names, r.dept_id),
    diners: Number(r.diners),
    booked: Number(r.booked),
    cancelled: Number(r.cancelled),
    completed: Number(r.completed),
    notDined: Number(r.notDined),
    pending: Number(r.pending),
  }));
  records.sort((a, b) => (a.deptId === null ? 1 : b.deptId === null ? -1 : zhOrder(a.deptName, b.deptName)));
  return { rows: records };
};

/**
 * Its diners per place are distinct over the period, which kept days do not add up to: each diner's months per place
 * are kept instead, and read with the days at the period's edges when the period is the only filter and holds at
 * most one whole month (decision 047). Any other filter or period groups the period's orders.
 */
const canteenCounts: ReportQuery = async (db, tenantId, f) => {
  const fromKept = periodKept(f);
  // placePeriods answers null for a period it cannot read from whole months (decision 047): then the orders are grouped.
  const places = async () => (fromKept ? await placePeriods(db, tenantId, f) : null) ?? orderPlaces(db, tenantId, f);
  const [rows, diners] = await Promise.all([
    places(),
    // The period's diners, each once: from the kept days and months when the period is the only filter (decision 041).
    fromKept ? periodDiners(db, tenantId, f, "orders") : mealsOf(db, tenantId, f).select(sql<number>`count(distinct meal_order.user_info_id)`.as("n")).executeTakeFirstOrThrow().then((r) => Number(r.n)),
  ]);
  const names = await orgNames(db, tenantId, rows.flatMap((r) => [r.restaurantId, r.stallId]).filter((id) => id !== 0));
  const records: Row[] = rows.map((r) => ({
    restaurantName: r.restaurantId === 0 ? "未指定餐厅" : nameOf(names, r.restaurantId),
    stallName: r.stallId === 0 ? "" : nameOf(names, r.stallId),
    mealType: r.mealType === "" ? null : r.mealType,
    meals: r.meals,
    diners: r.diners,
    amount: r.amount,
  }));
  records.sort((a, b) => zhOrder(String(a.restaurantName), String(b.restaurantName)) || zhOrder(String(a.stallName), String(b.stallName)) || mealRank(a.mealType) - mealRank(b.mealType));
  return { rows: records, totals: { ...sums(records, ["meals", "amount"]), diners } };
};

/** 食堂消费次数统计's rows from the period's orders themselves, as `placePeriods` reads them from the kept months. */
async function orderPlaces(db: Db, tenantId: number, f: Filters): Promise<PlacePeriod[]> {
  // `+restaurant_id`: grouped by the restaurant's own index, SQLite read every order of the tenant through it (1.3 s
  // for 20,000 diners); the period's orders are one pass of the covering index by day.
  const byRestaurant = sql<number | null>`+meal_order.restaurant_id`;
  const rows = await mealsOf(db, tenantId, f)
    .select([byRestaurant.as("restaurant_id"), "meal_order.stall_id", "meal_order.meal_type", sql<number>`count(*)`.as("meals"), sql<number>`count(distinct meal_order.user_info_id)`.as("diners"), sumOf(net).as("amount")])
    .groupBy([byRestaurant, "meal_order.stall_id", "meal_order.meal_type"])
    .execute();
  return rows.map((r) => ({ restaurantId: Number(r.restaurant_id ?? 0), stallId: Number(r.stall_id ?? 0), mealType: String(r.meal_type ?? ""), meals: Number(r.meals), diners: Number(r.diners), amount: Number(r.amount) }));
}

const chargeMachine: ReportQuery = async (db, tenantId, f) => {
  const of = (type: number, what: "count" | "amount") => sumOf(sql`case when busi_type = ${sql.lit(type)} then ${what === "amount" ? sql.ref("amount") : sql.lit(1)} else 0 end`);
  let q = db.selectFrom("user_account_charge").where("tenant_id", "=", tenantId).where("charged_at", ">=", f.start).where("charged_at", "<", f.end);
  if (f.channel !== undefined) q = q.where("channel", "=", f.channel);
  const rows = await q
    .select([
      sql<string>`coalesce(device_code, '')`.as("device"),
      sql<string>`coalesce(operator_name, '')`.as("operator"),
      sql<string>`coalesce(channel, '')`.as("channel"),
      of(BusiType.TOP_UP, "count").as("topUpCount"),
      of(BusiType.TOP_UP, "amount").as("topUp"),
      of(BusiType.REFUND, "count").as("refundCount"),
      of(BusiType.REFUND, "amount").as("refund"),
      of(BusiType.REVERSAL, "count").as("reversalCount"),
      of(BusiType.REVERSAL, "amount").as("reversal"),
    ])
    .groupBy([sql`coalesce(device_code, '')`, sql`coalesce(operator_name, '')`, sql`coalesce(channel, '')`])
    .execute();
  // A terminal by its registered name (its code when it is not registered); a top-up without one was the back office's.
  const codes = [...new Set(rows.map((r) => r.device).filter(Boolean))];
  const named = codes.length ? await db.selectFrom("device").select(["device_code", "device_name"]).where("tenant_id", "=", tenantId).where("device_code", "in", codes).execute() : [];
  const deviceNames = new Map(named.map((d) => [d.device_code, d.device_name]));
  const records: Row[] = rows.map((r) => {
    const [topUp, refund, reversal] = [Number(r.topUp), Number(r.refund), Number(r.reversal)];
    return {
      device: r.device ? (deviceNames.get(r.device) ?? r.device) : BACK_OFFICE,
      operatorName: r.operator,
      channel: r.channel,
      topUpCount: Number(r.topUpCount),
      topUp,
      refundCount: Number(r.refundCount),
      refund,
      reversalCount: Number(r.reversalCount),
      reversal,
      // The documents hold positive amounts; what stays in the accounts is the top-ups less what left again.
      net: topUp - refund - reversal,
    };
  });
  // The back office first, then the terminals, each by its operators.
  const terminal = (r: Row) => (r.device === BACK_OFFICE ? "" : String(r.device));
  records.sort((a, b) => zhOrder(terminal(a), terminal(b)) || zhOrder(String(a.operatorName), String(b.operatorName)) || String(a.channel).localeCompare(String(b.channel)));
  return { rows: records };
};

/**
 * 用户菜品统计 (decision 045): a month of a large canteen is half a million diner-and-dish rows, and grouping them
 * took seconds. The page is made diner by diner instead, in 人员编号 order (code points on both databases): the next
 * diners' orders of the period through the (diner, day) index, until the next diner's dishes would pass the row limit.
 * The totals come from the day's dishes sold (decision 038) when the filters are among its key, from the orders
 * otherwise. The rows left out are not counted (counting them is the grouping this avoids): the answer says there are some.
 */
const userFood: ReportQuery = async (db, tenantId, f) => {
  const [page, totals] = await Promise.all([userFoodPage(db, tenantId, f), userFoodTotals(db, tenantId, f)]);
  return { rows: page.rows, totals, more: page.more };
};

/**
 * The page of 用户菜品统计: `limit` rows of whole diners. The diners are read `batch` at a time (200), then four times
 * as many each round while the page is not full (a narrow filter).
 */
export async function userFoodPage(db: Db, tenantId: number, f: Filters, { limit = ROW_LIMIT, batch: first = 200 } = {}): Promise<{ rows: Row[]; more: boolean }> {
  const byCode = db.getExecutor().adapter instanceof PostgresAdapter ? sql`user_info.user_code collate "C"` : sql`user_info.user_code`;
  const rows: Row[] = [];
  let after: string | null = null;
  for (let batch = first; ; batch *= 4) {
    let diners = db.selectFrom("user_info").select(["id", "user_code", "user_name", "dept_id"]).where("tenant_id", "=", tenantId);
    if (f.deptId !== undefined) diners = diners.where("dept_id", "=", f.deptId);
    if (f.userInfoId !== undefined) diners = diners.where("id", "=", f.userInfoId);
    if (after !== null) diners = diners.where(sql<boolean>`${byCode} > ${after}`);
    const next = await diners.orderBy(byCode).limit(batch).execute();
    if (!next.length) return { rows, more: false };
    const foods = await mealsOf(db, tenantId, { ...f, deptId: undefined, userInfoId: undefined })
      .where("meal_order.user_info_id", "in", next.map((d) => d.id))
      .innerJoin("meal_order_item as i", (j) => j.onRef("i.tenant_id", "=", "meal_order.tenant_id").on(sql<boolean>`i.meal_order_id = +meal_order.id`))
      // Per restaurant too: each restaurant has its own dishes, often of the same name (米饭), told apart by where.
      .select(["meal_order.user_info_id", "meal_order.restaurant_id", "i.food_name", sumOf(sql`i.quantity`).as("quantity"), sumOf(sql`i.subtotal`).as("amount")])
      .groupBy(["meal_order.user_info_id", "meal_order.restaurant_id", "i.food_id", "i.food_name"])
      .execute();
    const ofDiner = new Map<number, typeof foods>();
    for (const r of foods) {
      const id = Number(r.user_info_id);
      if (!ofDiner.has(id)) ofDiner.set(id, []);
      ofDiner.get(id)?.push(r);
    }
    const names = await orgNames(db, tenantId, [...next.map((d) => d.dept_id ?? null), ...foods.map((r) => r.restaurant_id ?? null)]);
    for (const diner of next) {
      const dishes = ofDiner.get(Number(diner.id));
      if (!dishes) continue;
      const full = rows.length + dishes.length > limit;
      // Whole diners only, unless the first alone passes the limit.
      if (full && rows.length) return { rows, more: true };
      const deptName = diner.dept_id ? (names.get(Number(diner.dept_id)) ?? "") : "";
      const mine = dishes
        .map((r) => ({ userCode: diner.user_code, userName: diner.user_name, deptName, restaurantName: r.restaurant_id ? (names.get(Number(r.restaurant_id)) ?? "") : "", foodName: r.food_name, quantity: Number(r.quantity), amount: Number(r.amount) }))
        .sort((a, b) => b.quantity - a.quantity || zhOrder(a.foodName, b.foodName) || zhOrder(a.restaurantName, b.restaurantName));
      rows.push(...mine.slice(0, limit));
      if (full) return { rows, more: true };
    }
    after = next[next.length - 1].user_code;
    if (next.length < batch) return { rows, more: false };
  }
}

async function userFoodTotals(db: Db, tenantId: number, f: Filters): Promise<Row> {
  if (f.deptId === undefined && f.userInfoId === undefined && f.payFlag === undefined && f.stallId === undefined) {
    let sold = db.selectFrom("food_sales_day").select([sumOf(sql`quantity`).as("quantity"), sumOf(sql`amount`).as("amount")]).where("tenant_id", "=", tenantId).where("order_date", ">=", f.from).where("order_date", "<=", f.to);
    if (f.restaurantId !== undefined) sold = sold.where("restaurant_id", "=", f.restaurantId);
    if (f.mealType !== undefined) sold = sold.where("meal_type", "=", f.mealType);
    const all = await sold.executeTakeFirstOrThrow();
    return { quantity: Number(all.quantity), amount: Number(all.amount) };
  }
  const all = await mealsOf(db, tenantId, f)
    .innerJoin("meal_order_item as i", (j) => j.onRef("i.tenant_id", "=", "meal_order.tenant_id").on(sql<boolean>`i.meal_order_id = +meal_order.id`))
    .select([sumOf(sql`i.quantity`).as("quantity"), sumOf(sql`i.subtotal`).as("amount")])
    .executeTakeFirstOrThrow();
  return { quantity: Number(all.quantity), amount: Number(all.amount) };
}

const DINING_FIGURES = [...MEAL_TYPES.map(([t]) => `meals_${t}`), "meals", "days", "amount"];

const personalDining: ReportQuery = async (db, tenantId, f) => {
  if (periodKept(f)) return keptDining(db, tenantId, f);
  const records = await ordersDining(db, tenantId, f);
  // By code point, as the kept path's statement orders them on both databases.
  const code = (r: Row) => String(r.userCode);
  records.sort((a, b) => (code(a) < code(b) ? -1 : code(a) > code(b) ? 1 : 0));
  return limited(records, sums(records, DINING_FIGURES));
};

/** The diners with a meal in the period, from the kept days and months (decision 041): the page and the totals. */
async function keptDining(db: Db, tenantId: number, f: Filters): Promise<QueryResult> {
  const page = await dinedPage(db, tenantId, f, ROW_LIMIT);
  const figures = (d: { meals: Record<string, number>; orders: number; days: number; net: number }) => ({
    ...Object.fromEntries(Object.entries(d.meals).map(([type, n]) => [`meals_${type}`, n])),
    meals: d.orders,
    days: d.days,
    amount: d.net,
  });
  return {
    rows: page.rows.map((d) => ({ userCode: d.userCode, userName: d.userName, deptName: d.deptName, ...figures(d) })),
    totals: figures(page.totals),
    truncated: page.count - page.rows.length,
  };
}

/** The same from the orders, for the filters the kept days do not carry (restaurant, meal type, payment method). */
async function ordersDining(db: Db, tenantId: number, f: Filters): Promise<Row[]> {
  const rows = await mealsOf(db, tenantId, f)
    .select([
      byDiner.as("user_info_id"),
      ...KNOWN_MEALS.map((type) => sumOf(sql`case when meal_order.meal_type = ${sql.lit(type)} then 1 else 0 end`).as(`meals_${type}`)),
      sumOf(sql`case when meal_order.meal_type in (${sql.join(KNOWN_MEALS.map((t) => sql.lit(t)))}) then 0 else 1 end`).as("meals_none"),
      sql<number>`count(*)`.as("meals"),
      sql<number>`count(distinct meal_order.order_date)`.as("days"),
      sumOf(net).as("amount"),
    ])
    .groupBy(byDiner)
    .execute();
  const diners = await dinersOf(db, tenantId, rows.map((r) => r.user_info_id));
  return rows.map(({ user_info_id, ...r }) => {
    const d = diners.get(Number(user_info_id));
    const figures = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
    return { userCode: d?.userCode ?? "", userName: d?.userName ?? "", deptName: d?.deptName ?? "", ...figures };
  });
}

/** The queries of resources/report/attendance.ts, by report entity (decision 030). */
export const attendanceQueries: Record<string, (db: Db, tenantId: number, f: Filters) => Promise<QueryResult>> = {
  cardSwipe,
  noSwipe,
  deliveryCount,
  deptBooking,
  canteenCounts,
  chargeMachine,
  userFood,
  personalDining,
};
