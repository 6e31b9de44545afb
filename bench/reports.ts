/**
 * Reports at volume (issue 15, decisions 035 and 036): the demo generator at bench size (BENCH_REPORTS_DINERS,
 * default 20,000 diners; BENCH_REPORTS_DAYS, default 43: about 1,000,000 orders) into a database of its own (argument:
 * a SQLite file, default bench/data/reports.db, or a postgres:// URL, then schema bench_reports), then each report of
 * resources/report through the API handler (in process, signed in as the demo admin) for the last 30 days (the
 * monthly ones for the last month), BENCH_REPORTS_RUNS times (default 20): p50 and p95. The reports of `hand` also
 * run as hand-written SQL for the same figures in a bare handler (the driver alone: no validation, no engine; its rows
 * answered as JSON and read back, as the API's answer is), and the ratio bare p50 / API p50 is printed. Prints one
 * JSON line last.
 */
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { reports } from "../resources/report/index";
import { loadConfig } from "../server/config";
import { migrateToLatest, openDatabase } from "../server/db";
import { seedDemo } from "../server/modules/zhct/demo";
import { seed } from "../server/modules/seed";
import { createApi } from "../server/http/api";
import { encodeLoginField } from "../server/modules/auth/session";
import { periodParts } from "../server/modules/report/dinerPeriods";
import { recountDinerMonths } from "../server/modules/zhct/dinerMonths";
import { dayNoOf, recountLedgerDays } from "../server/modules/zhct/ledgerDays";
import { TICKET_PAY_FLAGS } from "../server/modules/zhct/payments";
import { dayOf, dayStart } from "../server/modules/zhct/months";

const DINERS = Number(process.env.BENCH_REPORTS_DINERS ?? 20_000);
const DAYS = Number(process.env.BENCH_REPORTS_DAYS ?? 43);
const RUNS = Number(process.env.BENCH_REPORTS_RUNS ?? 20);
// Ledger lines in all (issue 15: 3,000,000): the demo's own, then the accounts' history before them (ledgerHistory).
const LEDGER_LINES = Number(process.env.BENCH_REPORTS_LEDGER_LINES ?? 3_000_000);
// BENCH_REPORTS_ONLY=foodCount,userConsumption times only those reports.
const ONLY = process.env.BENCH_REPORTS_ONLY ? new Set(process.env.BENCH_REPORTS_ONLY.split(",").map((s) => s.trim())) : null;
const target = process.argv[2] ?? "bench/data/reports.db";
const postgres = target.startsWith("postgres");
const SCHEMA = "bench_reports";
// BENCH_REPORTS_REUSE=1 times the reports again on the SQLite file a previous run seeded (same sizes), skipping the seed.
const REUSE = process.env.BENCH_REPORTS_REUSE === "1" && !target.startsWith("postgres");
const log = (s: string) => console.error(`[reports] ${s}`);

let file = target;
if (postgres) {
  const admin = new pg.Client({ connectionString: target });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
  file = `${target}${target.includes("?") ? "&" : "?"}options=-c%20search_path%3D${SCHEMA}`;
} else if (!REUSE) {
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
}
const handle = await openDatabase(file);
await migrateToLatest(handle.db);
async function seeded() {
  const tenant = await handle.db.selectFrom("tenant").select("id").where("tenant_code", "=", "demo").executeTakeFirstOrThrow();
  const count = async (table: "meal_order" | "meal_order_item" | "user_account_ledger") =>
    Number((await handle.db.selectFrom(table).select(sql<number>`count(*)`.as("n")).where("tenant_id", "=", tenant.id).executeTakeFirstOrThrow()).n);
  // The seed's last day is the day it ran (a reuse the same day times the same month).
  return { tenantId: tenant.id, userName: "demo", to: dayOf(Date.now()), orders: await count("meal_order"), orderItems: await count("meal_order_item"), ledgerLines: await count("user_account_ledger"), seconds: 0 };
}
/**
 * The issue's 3,000,000 ledger lines: the demo's canteen writes about 1.1 per order (most meals are paid from the
 * subsidy alone), so the rest is the accounts' history from the year before the orders in the database (decision
 * 048): pairs of a cash top-up and a meal paid from it, spread over the 365 days before the demo's first day, so every
 * balance and every later line's balance_after stay true. The kept months and days are recounted from the lines.
 */
async function ledgerHistory(tenantId: number, lines: number): Promise<number> {
  const pairs = Math.floor(lines / 2);
  const first = await handle.db.selectFrom("user_account_ledger").select(sql<number>`min(occurred_at)`.as("at")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow();
  const before = Number(first.at);
  const span = 365 * 86_400_000;
  const series = postgres ? `select i from generate_series(1, ${pairs}) as i` : `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${pairs}) select i from s`;
  // The last pair ends an hour before the first line of the demo.
  const at = `${before} - ${span} - 7200000 + (cast(s.i as bigint) * ${Math.floor(span / pairs)}) + j.j * 3600000`;
  const amount = `(1000 + (s.i % 21) * 100)`;
  await sql
    .raw(
      `insert into user_account_ledger (tenant_id, id, user_info_id, account_id, account_type, busi_type, amount, balance_after, pay_flag, operator_name, remark, occurred_at, created_at, updated_at)
      select ${tenantId}, 1000000 + 2 * s.i + j.j, a.user_info_id, a.id, 'cash', case when j.j = 0 then 0 else 2 end, case when j.j = 0 then ${amount} else -${amount} end,
        case when j.j = 0 then ${amount} else 0 end, 0, '历史', '历史流水', ${at}, ${at}, ${at}
      from (${series}) s
      join (select id, user_info_id, row_number() over (order by id) - 1 as k from user_account where tenant_id = ${tenantId} and account_type = 'cash') a on a.k = s.i % ${DINERS}
      cross join (select 0 as j union all select 1) j`,
    )
    .execute(handle.db);
  await recountDinerMonths(handle.db, TICKET_PAY_FLAGS, tenantId);
  await recountLedgerDays(handle.db, tenantId);
  return pairs * 2;
}
if (!REUSE) await seed(handle.db, { adminPassword: "Bench-Reports-Pass-2026" });
const demo = REUSE ? await seeded() : await seedDemo(handle.db, { diners: DINERS, days: DAYS, password: "Bench-Demo-Pass-2026", log });
log(`seeded ${demo.orders} orders, ${demo.ledgerLines} ledger lines in ${demo.seconds.toFixed(0)} s`);
if (demo.ledgerLines < LEDGER_LINES - 1) {
  const started = Date.now();
  demo.ledgerLines += await ledgerHistory(demo.tenantId, LEDGER_LINES - demo.ledgerLines);
  log(`ledger history: ${demo.ledgerLines} lines in all (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
// PostgreSQL: vacuum too, so the index-only scans the reports rely on find the pages all-visible.
if (postgres) await sql`vacuum analyze`.execute(handle.db);
else await sql`analyze`.execute(handle.db);

const api = createApi({ db: handle.db, dialect: handle.dialect, config: loadConfig({ CANTEEN_CAPTCHA: "off", LOGIN_RATE_PER_MINUTE: "1000" }) });
const call = async (method: string, path: string, token?: string, body?: unknown) => {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const response = await api.handle(new Request(`http://bench${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), "127.0.0.1");
  return (await response.json()) as { status: number; data: never; message: string };
};
const login = await call("POST", "/login", undefined, { username: encodeLoginField(demo.userName), password: encodeLoginField(REUSE ? "Bench-Demo-Pass-2026!" : "Bench-Demo-Pass-2026") });
const token = (login.data as { token: string }).token;
if (!REUSE) await call("POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "Bench-Demo-Pass-2026", newPassword: "Bench-Demo-Pass-2026!" });

const to = demo.to;
const from = dayOf(dayStart(to) - 29 * 86_400_000);
const start = dayStart(from);
const end = dayStart(to) + 86_400_000;
const month = to.slice(0, 7);

/** The bare handler: the driver alone, `?` placeholders (numbered for PostgreSQL). */
interface Bare {
  all(text: string, ...params: unknown[]): Promise<unknown[]>;
  get(text: string, ...params: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}
function bareHandler(): Bare {
  if (!postgres) {
    const lite = new Database(file, { readonly: true });
    return { all: async (text, ...params) => lite.prepare(text).all(...params), get: async (text, ...params) => lite.prepare(text).get(...params), close: async () => void lite.close() };
  }
  const pool = new pg.Pool({ connectionString: file, max: 2 });
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  const all = async (text: string, ...params: unknown[]) => (await pool.query({ text: numbered(text), values: params })).rows;
  return { all, get: async (text, ...params) => (await all(text, ...params))[0], close: () => pool.end() };
}
const bare = bareHandler();
const busiest = (await bare.get("select u.user_code, u.id from meal_order o join user_info u on u.tenant_id = o.tenant_id and u.id = o.user_info_id where o.tenant_id = ? group by u.id, u.user_code order by count(*) desc limit 1", demo.tenantId)) as { user_code: string; id: number };
const T = demo.tenantId;
/**
 * The same figures as the report's query, written by hand the way one would write it for speed (the reference for
 * the engine's overhead): aggregates on the orders before the diners are named, the page of the detail chosen on ids.
 */
const PAGE = `select id from meal_order where tenant_id = ? and order_date between ? and ? order by paid_at, id limit 5001`;
// The period per diner from the kept months and days (decision 041), as the reports read it: whole months, and days
// added or taken away at the edges (the same split, periodParts; the SQL by hand).
const parts = periodParts(from, to);
const MEALS = ["meals_breakfast", "meals_lunch", "meals_dinner", "meals_midnight", "meals_none"];
/** The period's figures per diner: [name, from a month row, from a day row]; each report sums only those it shows. */
const FIGURE: Record<string, [string, string]> = {
  placed: ["placed", "placed"],
  orders: ["orders", "orders"],
  net: ["paid - refunded", "paid - refunded"],
  cash: ["cash - cash_back", "cash - cash_back"],
  subsidy: ["subsidy - subsidy_back", "subsidy - subsidy_back"],
  ...Object.fromEntries(MEALS.map((m) => [m, [m, m]])),
  days: ["days", "case when orders > 0 then 1 else 0 end"],
  swipes: ["swipes", "swipes"],
};
/** The period's figures per diner, summed from its pieces (`named`: with the diner's code, name and department). */
function period(names: string[], named = true): [string, unknown[]] {
  const select = (row: 0 | 1, sign: string) => names.map((n) => `${sign}(${FIGURE[n][row]}) as ${n}`).join(", ");
  const pieces = [
    ...(parts.months ? [[`select user_info_id, ${select(0, "")} from diner_month_order where tenant_id = ? and month between ? and ?`, T, ...parts.months]] : []),
    ...parts.add.map(([a, b]) => [`select user_info_id, ${select(1, "")} from diner_day_order where tenant_id = ? and order_date between ? and ?`, T, a, b]),
    ...parts.subtract.map(([a, b]) => [`select user_info_id, ${select(1, "-")} from diner_day_order where tenant_id = ? and order_date between ? and ?`, T, a, b]),
  ];
  const sums = `select user_info_id, ${names.map((n) => `sum(${n}) as ${n}`).join(", ")} from (${pieces.map((p) => p[0]).join(" union all ")}) parts group by user_info_id`;
  if (!named) return [sums, pieces.flatMap((p) => p.slice(1))];
  const text = `select p.*, u.user_code, u.user_name, u.dept_id from (${sums}) p join user_info u on u.tenant_id = ? and u.id = p.user_info_id where p.placed > 0`;
  return [text, [...pieces.flatMap((p) => p.slice(1)), T]];
}
const [CONSUMPTION, CONSUMPTION_PARAMS] = period(["placed", "orders", "net", "cash", "subsidy"]);
const [BY_DEPT, BY_DEPT_PARAMS] = period(["placed", "orders", "net"]);
const [DINING, DINING_PARAMS] = period(["placed", "orders", "net", ...MEALS, "days"]);
const [SWIPERS, SWIPERS_PARAMS] = period(["swipes"], false);
const [EATERS, EATERS_PARAMS] = period(["orders"], false);
// 食堂消费次数统计 (decision 047): the whole month per place from the diners' months there, and the edge days' orders
// per place and diner, each looked up in its diner's month (the period holds at most one whole month).
const placeMonth = parts.months?.[0] ?? "";
const edgeDays = [...parts.add.map((range) => ["", range] as const), ...parts.subtract.map((range) => ["-", range] as const)];
const PLACES = `select r, s, m, sum(n), sum(d), sum(a) from (
    select restaurant_id as r, stall_id as s, meal_type as m, sum(meals) as n, sum(case when meals > 0 then 1 else 0 end) as d, sum(amount) as a from diner_place_month where tenant_id = ? and month = ? group by restaurant_id, stall_id, meal_type
    union all
    select e.r, e.s, e.m, sum(e.n), sum((case when coalesce(pm.meals, 0) + e.n > 0 then 1 else 0 end) - (case when coalesce(pm.meals, 0) > 0 then 1 else 0 end)), sum(e.a)
    from (select r, s, m, u, sum(n) as n, sum(a) as a from (${edgeDays
      .map(([sign]) => `select coalesce(restaurant_id, 0) as r, coalesce(stall_id, 0) as s, coalesce(meal_type, '') as m, user_info_id as u, ${sign}1 as n, ${sign}(paid_amount - refunded_amount) as a from meal_order where tenant_id = ? and order_date between ? and ? and order_status not in (2, 4)`)
      .join(" union all ")}) p group by r, s, m, u) e
    left join diner_place_month pm on pm.tenant_id = ? and pm.month = ? and pm.restaurant_id = e.r and pm.stall_id = e.s and pm.meal_type = e.m and pm.user_info_id = e.u
    group by e.r, e.s, e.m
  ) x group by r, s, m having sum(n) > 0`;
const PLACES_PARAMS = [T, placeMonth, ...edgeDays.flatMap(([, [a, b]]) => [T, a, b]), T, placeMonth];
const hand: Record<string, () => Promise<unknown>> = {
  // The orders each day keeps per restaurant, meal type and payment method (decision 041 addendum), read as the report reads them.
  dailyOrderSummary: () => bare.all(`select order_date, sum(placed), sum(cancelled), sum(paid), sum(refunded), sum(paid - refunded),
      sum(case when meal_type = 'breakfast' then paid - refunded else 0 end), sum(case when meal_type = 'lunch' then paid - refunded else 0 end),
      sum(case when meal_type = 'dinner' then paid - refunded else 0 end), sum(case when meal_type = 'midnight' then paid - refunded else 0 end),
      sum(case when meal_type in ('breakfast', 'lunch', 'dinner', 'midnight') then 0 else paid - refunded end)
      from order_day where tenant_id = ? and order_date between ? and ? group by order_date order by order_date`, T, from, to),
  monthlySettlementMerchant: () => Promise.all([
    bare.all(`select restaurant_id, sum(placed - cancelled), sum(paid - refunded) from order_day where tenant_id = ? and order_date between ? and ? group by restaurant_id`, T, `${month}-01`, `${month}-31`),
    bare.all(`select d.restaurant_id, d.stall_id, d.share_percent, m.merchant_name from merchant_divide d join merchant m on m.tenant_id = d.tenant_id and m.id = d.merchant_id where d.tenant_id = ? order by d.id`, T),
  ]),
  dailyOrderDetail: () => Promise.all([
    bare.all(`select o.order_no, o.paid_at, u.user_code, u.user_name, r.org_name, o.meal_type, o.pay_flag, o.order_status, o.paid_amount, o.refunded_amount from meal_order o
      join user_info u on u.tenant_id = o.tenant_id and u.id = o.user_info_id left join org r on r.tenant_id = o.tenant_id and r.id = o.restaurant_id
      where o.tenant_id = ? and o.id in (${PAGE}) order by o.paid_at, o.id`, T, T, from, to),
    bare.get(`select count(*), sum(paid_amount), sum(refunded_amount), sum(paid_amount - refunded_amount) from meal_order where tenant_id = ? and order_date between ? and ?`, T, from, to),
  ]),
  // The day's dish totals the orders keep (decision 038), read as the report reads them.
  foodCount: () => bare.all(`select order_date, restaurant_id, meal_type, food_name, quantity, amount from food_sales_day
      where tenant_id = ? and order_date between ? and ? and quantity > 0`, T, from, to),
  userConsumption: () => bare.all(CONSUMPTION, ...CONSUMPTION_PARAMS),
  deptDining: () => bare.all(`select dept_id, sum(case when orders > 0 then 1 else 0 end), sum(orders), sum(net) from (${BY_DEPT}) d group by dept_id`, ...BY_DEPT_PARAMS),
  // The first 5,000 diners by code, with the count and the totals of them all (as the screen shows them).
  personalDining: () =>
    bare.all(`select *, count(*) over (), ${["orders", "net", "days", ...MEALS].map((n) => `sum(${n}) over ()`).join(", ")} from (${DINING}) d where orders > 0 order by user_code limit 5000`, ...DINING_PARAMS),
  personalLedger: () => Promise.all([
    bare.get(`select sum(amount) from user_account_ledger where tenant_id = ? and user_info_id = ? and occurred_at < ?`, T, busiest.id, start),
    bare.all(`select occurred_at, account_type, busi_type, pay_flag, operator_name, remark, amount from user_account_ledger where tenant_id = ? and user_info_id = ? and occurred_at >= ? and occurred_at < ? order by occurred_at, id`, T, busiest.id, start, end),
  ]),
  chargeDailyReport: () => bare.all(`select (occurred_at + 28800000) / 86400000, pay_flag, coalesce(operator_name, ''), sum(case when busi_type = 0 then 1 else 0 end), sum(case when busi_type = 0 then amount else 0 end),
      sum(case when busi_type = 1 then 1 else 0 end), sum(case when busi_type = 1 then amount else 0 end), sum(case when busi_type = 3 then amount else 0 end)
      from user_account_ledger where tenant_id = ? and occurred_at >= ? and occurred_at < ? and busi_type in (0, 1, 3) group by 1, 2, 3`, T, start, end),
  // The first diners by code and their dishes of the period through the (diner, day) index, and the day's dishes
  // sold for the totals (decision 045): the statements the report's first round runs.
  userFood: () =>
    Promise.all([
      bare.all(
        `select d.user_code, d.user_name, d.dept_id, o.restaurant_id, i.food_name, sum(i.quantity), sum(i.subtotal)
        from (select id, user_code, user_name, dept_id from user_info where tenant_id = ? order by user_code limit 200) d
        join meal_order o on o.tenant_id = ? and o.user_info_id = d.id and o.order_date between ? and ? and o.order_status not in (2, 4)
        join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = +o.id
        group by d.id, d.user_code, d.user_name, d.dept_id, o.restaurant_id, i.food_id, i.food_name`,
        T,
        T,
        from,
        to,
      ),
      bare.get(`select sum(quantity), sum(amount) from food_sales_day where tenant_id = ? and order_date between ? and ?`, T, from, to),
    ]),
  // The ledger's days (decision 044): a day's rows (one per shard of the diners) summed, each account's columns.
  accountTypeDaily: () =>
    bare.all(
      `select day_no, ${["cash", "subsidy"].map((a) => `sum(${a}_lines), sum(${a}_top_up), sum(${a}_grant), sum(${a}_consume + ${a}_consume_return), sum(${a}_refund), sum(${a}_reversal + ${a}_clear)`).join(", ")}
      from ledger_day where tenant_id = ? and day_no >= ? and day_no < ? group by day_no order by day_no`,
      T,
      dayNoOf(start),
      dayNoOf(end),
    ),
  // The counter and device sales each day keeps (decision 043), and the period's diners with one from their days and months.
  cardSwipe: () =>
    Promise.all([
      bare.all(`select order_date, restaurant_id, meal_type, swipes, card_swipes, amount, diners from swipe_day where tenant_id = ? and order_date between ? and ? and swipes > 0`, T, from, to),
      bare.get(`select count(*) from (${SWIPERS}) p where swipes > 0`, ...SWIPERS_PARAMS),
    ]),
  canteenCounts: () =>
    Promise.all([
      bare.all(PLACES, ...PLACES_PARAMS).then((rows) => bare.all(`select id, org_name from org where tenant_id = ? and id in (${(rows as Array<Record<string, unknown>>).flatMap((r) => Object.values(r).slice(0, 2)).map(Number).join(", ") || "0"})`, T)),
      bare.get(`select count(*) from (${EATERS}) p where orders > 0`, ...EATERS_PARAMS),
    ]),
  // The orders' points per day and restaurant (decision 040 addendum), read as the report reads them.
  pointsOrderStats: () => bare.all(`select order_date, restaurant_id, orders, paid, earned, taken_back from points_order_day where tenant_id = ? and order_date between ? and ? and orders > 0`, T, from, to),
  // The diners' months (decision 040), read as the reports read them, the diners named in the same statement.
  monthlySettlementUser: () => bare.all(`select u.user_code, u.user_name, u.dept_id, sum(m.orders), sum(m.paid), sum(m.ticket), sum(m.refunded), sum(m.cash), sum(m.subsidy)
      from diner_month_order m join user_info u on u.tenant_id = m.tenant_id and u.id = m.user_info_id where m.tenant_id = ? and m.month between ? and ? group by m.user_info_id, u.user_code, u.user_name, u.dept_id`, T, month, month),
  teacherSubsidy: () => bare.all(`select u.user_code, u.user_name, u.dept_id, a.balance - coalesce(sum(m.amount), 0), a.balance - coalesce(sum(case when m.month > ? then m.amount else 0 end), 0),
      coalesce(sum(case when m.month <= ? then m.lines else 0 end), 0), coalesce(sum(case when m.month <= ? and m.busi_type = 4 then m.lines else 0 end), 0),
      coalesce(sum(case when m.month <= ? and m.busi_type = 4 then m.amount else 0 end), 0), coalesce(sum(case when m.month <= ? and m.busi_type in (2, 6) then m.amount else 0 end), 0),
      coalesce(sum(case when m.month <= ? and m.busi_type = 5 then m.amount else 0 end), 0), coalesce(sum(case when m.month <= ? and m.busi_type in (0, 1, 3) then m.amount else 0 end), 0)
      from user_account a join user_info u on u.tenant_id = a.tenant_id and u.id = a.user_info_id
      left join diner_month_ledger m on m.tenant_id = a.tenant_id and m.account_type = a.account_type and m.user_info_id = a.user_info_id and m.month >= ?
      where a.tenant_id = ? and a.account_type = 'subsidy' group by a.user_info_id, a.balance, u.user_code, u.user_name, u.dept_id`, month, month, month, month, month, month, month, month, T),
  staffPointsMonthly: () => bare.all(`select a.user_info_id, a.balance, u.user_code, u.user_name, u.dept_id, m.month, m.change_type, m.points, m.lines from user_integral_account a
      join user_info u on u.tenant_id = a.tenant_id and u.id = a.user_info_id left join diner_month_points m on m.tenant_id = a.tenant_id and m.user_info_id = a.user_info_id and m.month >= ?
      where a.tenant_id = ?`, month, T),
  // Tickets applied for and uses made in the period, per ticket type and department (expiry judged today).
  mealTicketSummary: () => Promise.all([
    bare.all(`select t.ticket_type, u.dept_id, sum(t.ticket_count), sum(case when t.approved_status = 1 then t.ticket_count else 0 end),
        sum(case when t.approved_status = 1 and t.valid_to < ? then t.ticket_count - t.used_count else 0 end),
        sum(case when t.approved_status = 1 and (t.valid_to is null or t.valid_to >= ?) then t.ticket_count - t.used_count else 0 end)
      from meal_ticket t join user_info u on u.tenant_id = t.tenant_id and u.id = t.user_info_id
      where t.tenant_id = ? and t.applied_at >= ? and t.applied_at < ? group by t.ticket_type, u.dept_id`, to, to, T, start, end),
    bare.all(`select t.ticket_type, u.dept_id, sum(case when us.returned_at is null then 1 else 0 end), sum(case when us.returned_at is null then us.amount else 0 end), sum(case when us.returned_at is null then 0 else 1 end)
      from meal_ticket_use us join meal_ticket t on t.tenant_id = us.tenant_id and t.id = us.ticket_id join user_info u on u.tenant_id = us.tenant_id and u.id = us.user_info_id
      where us.tenant_id = ? and us.used_at >= ? and us.used_at < ? group by t.ticket_type, u.dept_id`, T, start, end),
  ]),
  // The first 5,000 uses kept in the period with their order and diner, and the count and sum of them all.
  mealTicketDetail: () => Promise.all([
    bare.all(`select o.order_no, us.used_at, u.user_code, u.user_name, d.org_name, t.ticket_type, o.order_date, us.meal_type, us.amount
      from meal_ticket_use us join meal_ticket t on t.tenant_id = us.tenant_id and t.id = us.ticket_id join user_info u on u.tenant_id = us.tenant_id and u.id = us.user_info_id
        join meal_order o on o.tenant_id = us.tenant_id and o.id = us.order_id left join org d on d.tenant_id = u.tenant_id and d.id = u.dept_id
      where us.tenant_id = ? and us.used_at >= ? and us.used_at < ? and us.returned_at is null order by us.used_at, us.id limit 5001`, T, start, end),
    bare.get(`select count(*), sum(amount) from meal_ticket_use where tenant_id = ? and used_at >= ? and used_at < ? and returned_at is null`, T, start, end),
  ]),
  // Bookings still 已预约 and default orders made or refused, of a day and meal type the diner has no kept order of;
  // then the names of those diners.
  noSwipe: async () => {
    const missed = (await Promise.all([
      bare.all(`select a.user_info_id, a.appointment_date, m.meal_type, m.restaurant_id
        from appointment_detail a join meal_times m on m.tenant_id = a.tenant_id and m.id = a.meal_times_id
        where a.tenant_id = ? and a.appointment_date between ? and ? and a.appointment_status = 1
          and not exists (select 1 from meal_order o where o.tenant_id = a.tenant_id and o.user_info_id = a.user_info_id and o.order_date = a.appointment_date and o.meal_type = m.meal_type and o.order_status not in (2, 4))`, T, from, to),
      bare.all(`select distinct g.user_info_id, g.order_date, g.meal_type, d.restaurant_id
        from user_order_default_generate_detail g left join user_order_default d on d.tenant_id = g.tenant_id and d.user_info_id = g.user_info_id and d.meal_type = g.meal_type
        where g.tenant_id = ? and g.order_date between ? and ? and g.result in (1, 3)
          and not exists (select 1 from meal_order o where o.tenant_id = g.tenant_id and o.user_info_id = g.user_info_id and o.order_date = g.order_date and o.meal_type = g.meal_type and o.order_status not in (2, 4))`, T, from, to),
    ])).flat() as Array<{ user_info_id: number }>;
    const ids = [...new Set(missed.map((r) => r.user_info_id))];
    return [missed, ids.length ? await bare.all(`select u.id, u.user_code, u.user_name, d.org_name from user_info u left join org d on d.tenant_id = u.tenant_id and d.id = u.dept_id where u.tenant_id = ? and u.id in (${ids.map(() => "?").join(", ")})`, T, ...ids) : []];
  },
  // Bookings of the period per department, by what became of them.
  deptBooking: () => bare.all(`select d.org_name, count(distinct case when a.appointment_status <> 0 then a.user_info_id end), count(*),
      sum(case when a.appointment_status = 0 then 1 else 0 end), sum(case when a.appointment_status = 2 then 1 else 0 end),
      sum(case when a.appointment_status = 1 and a.order_appointment_status = 4 then 1 else 0 end),
      sum(case when a.appointment_status = 1 and (a.order_appointment_status is null or a.order_appointment_status <> 4) then 1 else 0 end)
    from appointment_detail a join meal_times m on m.tenant_id = a.tenant_id and m.id = a.meal_times_id join user_info u on u.tenant_id = a.tenant_id and u.id = a.user_info_id
      left join org d on d.tenant_id = u.tenant_id and d.id = u.dept_id
    where a.tenant_id = ? and a.appointment_date between ? and ? group by u.dept_id, d.org_name`, T, from, to),
  // Takeaways kept in the period per day, delivery point and time slot.
  deliveryCount: () => bare.all(`select o.order_date, p.point_name, s.slot_name, s.begin_time, s.end_time, count(distinct o.user_info_id), count(*), sum(o.paid_amount - o.refunded_amount)
    from meal_order o join meal_order_delivery d on d.tenant_id = o.tenant_id and d.order_id = o.id join delivery_point p on p.tenant_id = d.tenant_id and p.id = d.delivery_point_id
      join delivery_time s on s.tenant_id = d.tenant_id and s.id = d.delivery_time_id
    where o.tenant_id = ? and o.order_date between ? and ? and o.order_status not in (2, 4) and o.order_type = 3
    group by o.order_date, p.id, p.point_name, s.id, s.slot_name, s.begin_time, s.end_time`, T, from, to),
  // The period's top-up documents per terminal (named from the device register) and operator.
  chargeMachine: () => bare.all(`select coalesce(c.device_code, ''), max(d.device_name), coalesce(c.operator_name, ''), sum(case when c.busi_type = 0 then 1 else 0 end), sum(case when c.busi_type = 0 then c.amount else 0 end),
      sum(case when c.busi_type = 1 then 1 else 0 end), sum(case when c.busi_type = 1 then c.amount else 0 end), sum(case when c.busi_type = 3 then 1 else 0 end), sum(case when c.busi_type = 3 then c.amount else 0 end)
    from user_account_charge c left join device d on d.tenant_id = c.tenant_id and d.device_code = c.device_code
    where c.tenant_id = ? and c.charged_at >= ? and c.charged_at < ? group by coalesce(c.device_code, ''), coalesce(c.operator_name, '')`, T, start, end),
};

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
};
// Runs before the timed ones, for the API and the bare handler alike: a server answers reports warm, and the first
// calls of a report compile its code (a 1 ms report took 4 ms over ten runs after one).
const WARM_UP = 5;
async function time(run: () => unknown) {
  for (let i = 0; i < WARM_UP; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95) };
}

const results: Record<string, { p50: number; p95: number; rows: number; bare?: { p50: number; p95: number }; ratio?: number }> = {};
for (const report of reports) {
  if (ONLY && !ONLY.has(report.entity)) continue;
  const monthly = report.filters.some((f) => f.kind === "monthRange");
  const query = new URLSearchParams(monthly ? { fromMonth: month, toMonth: month } : { from, to });
  for (const f of report.filters) if (f.kind === "diner" && f.required) query.set(f.name, busiest.user_code);
  let rows = 0;
  const api = await time(async () => {
    const answer = await call("GET", `/api/v1/report/${report.entity}?${query}`, token);
    if (answer.status !== 200) throw new Error(`${report.entity}: ${answer.message}`);
    rows = (answer.data as { rows: unknown[] }).rows.length;
  });
  results[report.entity] = { ...api, rows };
  if (hand[report.entity]) {
    const run = hand[report.entity];
    // A handler answers: its rows as the JSON body of a response, which the caller reads, as `call` reads the API's.
    const b = await time(async () => (await new Response(JSON.stringify({ status: 200, data: await run() })).json()) as unknown);
    results[report.entity].bare = b;
    results[report.entity].ratio = Math.round((b.p50 / api.p50) * 100) / 100;
  }
  log(`${report.entity}: ${JSON.stringify(results[report.entity])}`);
}
await bare.close();
await handle.close();
// The million orders are not left in the operator's PostgreSQL (the SQLite file stays for BENCH_REPORTS_REUSE).
if (postgres) {
  const admin = new pg.Client({ connectionString: target });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.end();
}
console.log(JSON.stringify({ dialect: handle.dialect, diners: DINERS, days: DAYS, orders: demo.orders, orderItems: demo.orderItems, ledgerLines: demo.ledgerLines, seedSeconds: demo.seconds, from, to, runs: RUNS, results }));
