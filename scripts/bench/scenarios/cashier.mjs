// Payments per second at the cashier (issue 13, decision 021): `POST /api/v1/zhct/cashier/pay` from 20 terminals at
// once, with BENCH_ORDERS orders (default 1,000,000) already in meal_order, against a bare handler that runs the same
// transaction's statements. Targets: p99 < 50 ms on SQLite, the API ≥ 60 % of the bare handler.
import autocannon from "autocannon";
import Database from "better-sqlite3";
import pg from "pg";
import { BARE_PORT, BASE, SECONDS, TENANT, env, log, padded, series, serveBare } from "../lib.mjs";

const ORDERS = Number(env.BENCH_ORDERS ?? 1_000_000);
const DINERS = Number(env.BENCH_CASHIER_DINERS ?? 20_000);
const TERMINALS = Number(env.BENCH_TERMINALS ?? 20);
// Ids of their own, apart from the ledger scenario's (500–700 million), so both may be chosen together.
const DINER_BASE = 800_000_000;
const ACCOUNT_BASE = 810_000_000;
const LINE_BASE = 820_000_000;
const ORDER_BASE = 830_000_000;
const RESTAURANT = 899_000_001;
const MEAL_TIME = 899_000_002;
const MENU_TYPE = 899_000_003;
const MENU = 899_000_004;
const FOOD_TYPE = 899_000_005;
const FOODS = [899_000_010, 899_000_011, 899_000_012];
const MENU_ITEMS = [899_000_020, 899_000_021, 899_000_022];
const PRICES = [1200, 300, 100];
const PAY_LIMIT = 899_000_030;
const STAFF_TYPE = "正式员工";
const BALANCE = 100_000_000;
const DAY = 86_400_000;

const chinaDay = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * A restaurant open all day with today's published menu of three dishes, a pay limit for the diners' staff type (so
 * its checks run: meals per day, amount per meal), DINERS diners with 1,000,000.00 in cash (one top-up line each,
 * so ledger = balance), and ORDERS past orders over the last 200 days, spread over the diners.
 */
function cashierSql(dialect) {
  const now = Date.now();
  const today = chinaDay(now);
  const s = (n) => series(dialect, n);
  const audit = `${now}, ${now}`;
  const day = dialect === "sqlite" ? (expr) => `date(${expr} / 1000 + 8 * 3600, 'unixepoch')` : (expr) => `to_char(to_timestamp(${expr} / 1000.0 + 8 * 3600) at time zone 'UTC', 'YYYY-MM-DD')`;
  return [
    `insert into org (tenant_id, id, parent_id, org_name, org_type, sort, status, created_at, updated_at) values (${TENANT}, ${RESTAURANT}, null, '压测餐厅', 'restaurant', 0, 1, ${audit})`,
    `insert into meal_times (tenant_id, id, restaurant_id, meal_time_name, meal_type, begin_time, end_time, order_days_ahead, standard_price, status, created_at, updated_at)
       values (${TENANT}, ${MEAL_TIME}, ${RESTAURANT}, '全天', 'lunch', '00:00', '23:59', 0, 0, 1, ${audit})`,
    `insert into food_type (tenant_id, id, type_name, sort, status, created_at, updated_at) values (${TENANT}, ${FOOD_TYPE}, '压测菜', 0, 1, ${audit})`,
    ...FOODS.map((id, i) => `insert into food (tenant_id, id, food_name, food_type_id, restaurant_id, price, on_shelf, created_at, updated_at) values (${TENANT}, ${id}, '压测菜${i + 1}', ${FOOD_TYPE}, ${RESTAURANT}, ${PRICES[i]}, 1, ${audit})`),
    `insert into food_menu_type (tenant_id, id, type_name, restaurant_id, meal_type, menu_mode, meal_time_id, sort, status, created_at, updated_at)
       values (${TENANT}, ${MENU_TYPE}, '压测午餐', ${RESTAURANT}, 'lunch', 2, ${MEAL_TIME}, 0, 1, ${audit})`,
    `insert into food_menu (tenant_id, id, menu_date, food_menu_type_id, restaurant_id, meal_type, status, created_at, updated_at) values (${TENANT}, ${MENU}, '${today}', ${MENU_TYPE}, ${RESTAURANT}, 'lunch', 1, ${audit})`,
    ...MENU_ITEMS.map((id, i) => `insert into food_menu_item (tenant_id, id, food_menu_id, food_id, price, quota, sold_count, sort, created_at, updated_at) values (${TENANT}, ${id}, ${MENU}, ${FOODS[i]}, ${PRICES[i]}, null, 0, ${i}, ${audit})`),
    `insert into pay_limit_config (tenant_id, id, staff_type, meal_type, max_meals_per_day, max_amount_per_meal, cash_allowed, subsidy_allowed, allow_credit, credit_limit, status, created_at, updated_at)
       values (${TENANT}, ${PAY_LIMIT}, '${STAFF_TYPE}', 'lunch', 50, 1000000, 1, 1, 0, 0, 1, ${audit})`,
    `insert into user_info (tenant_id, id, user_code, user_name, user_info_role_type, staff_type, audit_status, user_status, created_at, updated_at)
       select ${TENANT}, ${DINER_BASE} + i, ${padded(dialect, "K", 6)}, ${padded(dialect, "收银客", 6)}, 'user', '${STAFF_TYPE}', 1, 1, ${audit} from (${s(DINERS)}) as s`,
    `insert into user_account (tenant_id, id, user_info_id, account_type, balance, created_at, updated_at)
       select ${TENANT}, ${ACCOUNT_BASE} + i, ${DINER_BASE} + i, 'cash', ${BALANCE}, ${audit} from (${s(DINERS)}) as s`,
    `insert into user_account (tenant_id, id, user_info_id, account_type, balance, created_at, updated_at)
       select ${TENANT}, ${ACCOUNT_BASE} + ${DINERS} + i, ${DINER_BASE} + i, 'subsidy', 0, ${audit} from (${s(DINERS)}) as s`,
    `insert into user_account_ledger (tenant_id, id, user_info_id, account_id, account_type, busi_type, amount, balance_after, pay_flag, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${LINE_BASE} + i, ${DINER_BASE} + i, ${ACCOUNT_BASE} + i, 'cash', 0, ${BALANCE}, ${BALANCE}, 0, 'bench', ${now} - 300 * ${DAY}, ${audit} from (${s(DINERS)}) as s`,
    // Past orders (paid from outside this database's ledger: only the table's size and indexes matter here).
    `insert into meal_order (tenant_id, id, order_no, user_info_id, order_date, meal_times_id, meal_type, restaurant_id, order_type, amount, paid_amount, refunded_amount,
                             pay_flag, pay_result, order_source, order_status, cashier_id, cashier_name, device_code, paid_at, created_at, updated_at)
       select ${TENANT}, ${ORDER_BASE} + i, ${padded(dialect, "H", 12)}, ${DINER_BASE} + (i % ${DINERS}) + 1, ${day(`(${now} - 1 * ${DAY} - (i % 200) * ${DAY})`)},
              ${MEAL_TIME}, 'lunch', ${RESTAURANT}, 1, 1500, 1500, 0, 0, 1, 'cashier', 1, 1, 'admin', 'POS-' || (i % ${TERMINALS}),
              ${now} - ${DAY} - (i % 200) * ${DAY}, ${audit}
       from (${s(ORDERS)}) as s`,
  ];
}

const bodyOf = () => ({
  userInfoId: DINER_BASE + 1 + Math.floor(Math.random() * DINERS),
  mealTimesId: MEAL_TIME,
  items: [
    { foodId: FOODS[0], quantity: 1 },
    { foodId: FOODS[2], quantity: 1 + Math.floor(Math.random() * 2) },
  ],
  deviceCode: "POS-BENCH",
});

let keys = 0;
/** TERMINALS terminals POSTing payments, each with a fresh body and Idempotency-Key, for `seconds`. */
function loadPay(url, headers, seconds) {
  const run = String(Date.now());
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: TERMINALS,
        duration: seconds,
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, "Idempotency-Key": `bench-${run}-${++keys}` }, body: JSON.stringify(bodyOf()) }) }],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        resolve({ rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 });
      },
    );
  });
}

/** As loadRound: a warm-up second each, then A B and B A, half the time each, so drift lands on both. */
async function round(cases) {
  const half = Math.max(1, Math.round(SECONDS / 2));
  for (const [url, headers] of cases) await loadPay(url, headers, 1);
  const first = [];
  for (const [url, headers] of cases) first.push(await loadPay(url, headers, half));
  const second = [];
  for (const [url, headers] of [...cases].reverse()) second.unshift(await loadPay(url, headers, half));
  return cases.map((_, i) => ({ rps: Math.round((first[i].rps + second[i].rps) / 2), p50: Math.round((first[i].p50 + second[i].p50) / 2), p99: Math.max(first[i].p99, second[i].p99) }));
}

/**
 * The payment as a bare handler: the statements `pay` runs for this body, in one transaction (BEGIN IMMEDIATE and
 * synchronous=FULL on SQLite) — the idempotency key, diner, meal time, the day's menus and items, the pay-limit rule,
 * the day's meal count and amount, the sold counts, the accounts, the formal-month check, the account
 * update and ledger line, the diner's day and months, the canteen's day, the order and its items, the operation log, the key's answer and the balance after —
 * without authentication, validation, Kysely or the hooks.
 */
async function barePay(dialect, databaseUrl) {
  let id = Date.now() * 4096;
  const today = chinaDay(Date.now());
  const statements = {
    keyFind: "select request_hash, response from idempotency_key where tenant_id = $1 and idem_key = $2",
    keyInsert: "insert into idempotency_key (tenant_id, idem_key, request_hash, response, created_at) values ($1, $2, $3, 'null', $4)",
    diner: "select id, user_name, staff_type, dept_id, user_status, restaurant_ids from user_info where tenant_id = $1 and id = $2",
    mealTime: "select id, meal_time_name, meal_type, restaurant_id, begin_time, end_time, status from meal_times where tenant_id = $1 and id = $2",
    menus: "select m.id, m.meal_type, t.stall_id, t.meal_time_id from food_menu m join food_menu_type t on t.tenant_id = m.tenant_id and t.id = m.food_menu_type_id where m.tenant_id = $1 and m.menu_date = $2 and m.status = 1 and m.restaurant_id = $3 order by t.sort, m.id",
    items: "select i.food_menu_id, i.id, i.food_id, f.food_name, i.price, i.quota, i.sold_count from food_menu_item i join food f on f.tenant_id = i.tenant_id and f.id = i.food_id where i.tenant_id = $1 and i.food_menu_id in ($2) order by i.food_menu_id, i.sort, i.id",
    limit: "select * from pay_limit_config where tenant_id = $1 and staff_type = $2 and meal_type in ($3, 'all') and status = 1",
    count: "select count(*) as n from meal_order where tenant_id = $1 and user_info_id = $2 and order_date = $3 and order_status != 2 and meal_times_id is not null and meal_type = $4",
    spent: "select coalesce(sum(amount - refunded_amount), 0) as spent from meal_order where tenant_id = $1 and user_info_id = $2 and order_date = $3 and order_status != 2 and meal_times_id = $4",
    sold: "update food_menu_item set sold_count = sold_count + $1 where tenant_id = $2 and id = $3 and (quota is null or sold_count + $1 <= quota)",
    total: "select coalesce(sum(balance), 0) as total from user_account where tenant_id = $1 and user_info_id = $2",
    accounts: "select account_type, balance from user_account where tenant_id = $1 and user_info_id = $2 and account_type in ('subsidy', 'cash')",
    formal: "select id from user_account_month_settle where tenant_id = $1 and month = $2 and settle_status = 1 limit 1",
    update: "update user_account set balance = balance + $1, updated_at = $2 where tenant_id = $3 and user_info_id = $4 and account_type = 'cash' and balance + $1 >= 0 returning id, balance",
    line: "insert into user_account_ledger (tenant_id, id, user_info_id, account_id, account_type, busi_type, amount, balance_after, pay_flag, operator_name, doc_type, doc_id, idempotency_key, occurred_at, created_at, updated_at) values ($1, $2, $3, $4, 'cash', 2, $5, $6, 0, 'bare', 'mealOrder', $7, $8, $9, $9, $9)",
    order: `insert into meal_order (tenant_id, id, order_no, user_info_id, order_date, meal_times_id, meal_type, restaurant_id, order_type, amount, paid_amount, refunded_amount, pay_flag, pay_result, order_source, order_status, cashier_id, cashier_name, device_code, paid_at, created_at, updated_at)
            values ($1, $2, $3, $4, $5, $6, 'lunch', $7, 1, $8, $8, 0, 0, 1, 'cashier', 1, 1, 'bare', $9, $10, $10, $10)`,
    item: "insert into meal_order_item (tenant_id, id, meal_order_id, food_id, food_name, price, quantity, subtotal, food_menu_item_id, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)",
    // The day's dish sales (decision 038): one upsert of the order's two dishes, sorted by dish as the API writes them.
    sales: `insert into food_sales_day (tenant_id, order_date, restaurant_id, meal_type, food_id, food_name, quantity, amount)
            values ($1, $2, $3, 'lunch', $4, $5, $6, $7), ($1, $2, $3, 'lunch', $8, $9, $10, $11)
            on conflict (tenant_id, order_date, restaurant_id, meal_type, food_id, food_name)
            do update set quantity = food_sales_day.quantity + excluded.quantity, amount = food_sales_day.amount + excluded.amount`,
    // The diner's month (decision 040): the ledger line's and the order's, as `post` and `pay` write them.
    ledgerMonth: `insert into diner_month_ledger (tenant_id, account_type, month, user_info_id, busi_type, amount, lines) values ($1, 'cash', $2, $3, 2, $4, 1)
            on conflict (tenant_id, user_info_id, account_type, month, busi_type)
            do update set amount = diner_month_ledger.amount + excluded.amount, lines = diner_month_ledger.lines + 1`,
    // The ledger's day (decision 044): the row of the day and the diner's shard.
    ledgerDay: `insert into ledger_day (tenant_id, day_no, shard, cash_consume, cash_lines) values ($1, $2, $3, $4, 1)
            on conflict (tenant_id, day_no, shard) do update set cash_consume = ledger_day.cash_consume + excluded.cash_consume, cash_lines = ledger_day.cash_lines + 1`,
    // The diner's day (decision 041), whose count of meals says whether the month gains a day.
    orderDinerDay: `insert into diner_day_order (tenant_id, order_date, user_info_id, placed, orders, paid, ticket, refunded, cash, subsidy, cash_back, subsidy_back, meals_breakfast, meals_lunch, meals_dinner, meals_midnight, meals_none, swipes)
            values ($1, $2, $3, 1, 1, $4, 0, 0, $4, 0, 0, 0, 0, 1, 0, 0, 0, 1)
            on conflict (tenant_id, order_date, user_info_id)
            do update set placed = diner_day_order.placed + 1, orders = diner_day_order.orders + 1, paid = diner_day_order.paid + excluded.paid, cash = diner_day_order.cash + excluded.cash,
              meals_lunch = diner_day_order.meals_lunch + 1, swipes = diner_day_order.swipes + 1 returning orders`,
    orderMonth: `insert into diner_month_order (tenant_id, month, user_info_id, placed, orders, paid, ticket, refunded, cash, subsidy, meals_lunch, days, swipes) values ($1, $2, $3, 1, 1, $4, 0, 0, $4, 0, 1, $5, 1)
            on conflict (tenant_id, month, user_info_id)
            do update set placed = diner_month_order.placed + 1, orders = diner_month_order.orders + 1, paid = diner_month_order.paid + excluded.paid, cash = diner_month_order.cash + excluded.cash,
              meals_lunch = diner_month_order.meals_lunch + 1, days = diner_month_order.days + excluded.days, swipes = diner_month_order.swipes + 1`,
    // The diner's month at this restaurant, stall and meal (decision 047).
    placeMonth: `insert into diner_place_month (tenant_id, month, restaurant_id, stall_id, meal_type, user_info_id, meals, amount) values ($1, $2, $3, $4, 'lunch', $5, 1, $6)
            on conflict (tenant_id, month, restaurant_id, stall_id, meal_type, user_info_id) do update set meals = diner_place_month.meals + 1, amount = diner_place_month.amount + excluded.amount`,
    // The canteen's day (decision 041 addendum), shared by every payment of the restaurant and meal.
    orderDay: `insert into order_day (tenant_id, order_date, restaurant_id, meal_type, pay_flag, placed, cancelled, paid, refunded) values ($1, $2, $3, 'lunch', 0, 1, 0, $4, 0)
            on conflict (tenant_id, order_date, restaurant_id, meal_type, pay_flag) do update set placed = order_day.placed + 1, paid = order_day.paid + excluded.paid`,
    // The counter's day (decision 043): whether the diner already had a sale at this meal, then the shared row.
    swipeOthers: `select count(*) as n from meal_order where tenant_id = $1 and user_info_id = $2 and order_date = $3 and order_source in ('cashier', 'device') and order_status not in (2, 4)
            and id != $4 and restaurant_id = $5 and meal_type = 'lunch'`,
    swipeDay: `insert into swipe_day (tenant_id, order_date, restaurant_id, meal_type, swipes, card_swipes, amount, diners) values ($1, $2, $3, 'lunch', 1, 0, $4, $5)
            on conflict (tenant_id, order_date, restaurant_id, meal_type) do update set swipes = swipe_day.swipes + 1, amount = swipe_day.amount + excluded.amount, diners = swipe_day.diners + excluded.diners`,
    log: "insert into operation_log (tenant_id, id, user_id, user_name, module, entity, entity_id, action, changes, ip, created_at) values ($1, $2, 1, 'bare', 'zhct', 'zhct/mealOrder', $3, 'pay', $4, '127.0.0.1', $5)",
    keyAnswer: "update idempotency_key set response = $1 where tenant_id = $2 and idem_key = $3",
  };
  // The work of one payment over `q(name, args)` (all rows) — the same on both databases.
  const pay = async (q, body) => {
    const now = Date.now();
    const key = `bare-${++id}`;
    await q("keyInsert", [TENANT, key, key, now]);
    const [diner] = await q("diner", [TENANT, body.userInfoId]);
    const [meal] = await q("mealTime", [TENANT, body.mealTimesId]);
    const menus = await q("menus", [TENANT, today, meal.restaurant_id]);
    const offered = await q("items", [TENANT, menus[0].id]);
    await q("limit", [TENANT, diner.staff_type, meal.meal_type]);
    await q("count", [TENANT, diner.id, today, meal.meal_type]);
    const items = body.items.map((w) => ({ ...offered.find((o) => Number(o.food_id) === w.foodId), quantity: w.quantity }));
    const amount = items.reduce((sum, i) => sum + Number(i.price) * i.quantity, 0);
    await q("spent", [TENANT, diner.id, today, meal.id]);
    for (const item of items) await q("sold", [item.quantity, TENANT, item.id]);
    await q("accounts", [TENANT, diner.id]);
    await q("formal", [TENANT, today.slice(0, 7)]);
    const orderId = ++id;
    const [account] = await q("update", [-amount, now, TENANT, diner.id]);
    await q("line", [TENANT, ++id, diner.id, account.id, -amount, account.balance, orderId, key, now]);
    await q("ledgerMonth", [TENANT, today.slice(0, 7), diner.id, -amount]);
    await q("ledgerDay", [TENANT, Math.floor((now + 8 * 3600_000) / 86_400_000), (Math.floor(diner.id / 4096) + (diner.id % 64)) % 16, -amount]);
    await q("order", [TENANT, orderId, `B${orderId}`, diner.id, today, meal.id, meal.restaurant_id, amount, body.deviceCode, now]);
    for (const item of items) await q("item", [TENANT, ++id, orderId, item.food_id, item.food_name, item.price, item.quantity, Number(item.price) * item.quantity, item.id, now]);
    const [first, second] = [...items].sort((a, b) => Number(a.food_id) - Number(b.food_id));
    await q("sales", [TENANT, today, meal.restaurant_id, first.food_id, first.food_name, first.quantity, Number(first.price) * first.quantity, second.food_id, second.food_name, second.quantity, Number(second.price) * second.quantity]);
    const [day] = await q("orderDinerDay", [TENANT, today, diner.id, amount]);
    await q("orderMonth", [TENANT, today.slice(0, 7), diner.id, amount, Number(day.orders) === 1 ? 1 : 0]);
    await q("placeMonth", [TENANT, today.slice(0, 7), meal.restaurant_id, menus[0].stall_id ?? 0, diner.id, amount]);
    await q("orderDay", [TENANT, today, meal.restaurant_id, amount]);
    const [others] = await q("swipeOthers", [TENANT, diner.id, today, orderId, meal.restaurant_id]);
    await q("swipeDay", [TENANT, today, meal.restaurant_id, amount, Number(others.n) === 0 ? 1 : 0]);
    await q("log", [TENANT, ++id, orderId, JSON.stringify({ amount }), now]);
    const [after] = await q("total", [TENANT, diner.id]);
    const answer = { orderId, orderNo: `B${orderId}`, amount, balance: Number(after.total) };
    await q("keyAnswer", [JSON.stringify(answer), TENANT, key]);
    return answer;
  };
  let transact;
  let closeDb;
  if (dialect === "sqlite") {
    const db = new Database(databaseUrl);
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = FULL");
    Object.assign(statements, { beginImmediate: "begin immediate", commit: "commit", rollback: "rollback" });
    const prepared = Object.fromEntries(Object.entries(statements).map(([name, text]) => [name, db.prepare(text.replace(/\$\d+/g, "?"))]));
    // better-sqlite3 binds by position: a statement that names $1 twice gets its value twice.
    const order = Object.fromEntries(Object.entries(statements).map(([name, text]) => [name, [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]) - 1)]));
    const q = (name, args) => {
      const statement = prepared[name];
      const bound = order[name].map((i) => args[i]);
      return statement.reader ? statement.all(...bound) : (statement.run(...bound), []);
    };
    // One connection, as the API's SQLite has: payments queue for it (pay awaits between statements, so without the
    // queue a second BEGIN would land inside the first transaction). The key is looked up before the write lock, as
    // `idempotent` does.
    let queue = Promise.resolve();
    const once = async (body) => {
      q("keyFind", [TENANT, "bare-none"]);
      q("beginImmediate", []);
      try {
        const out = await pay(q, body);
        q("commit", []);
        return out;
      } catch (error) {
        q("rollback", []);
        throw error;
      }
    };
    transact = (body) => {
      const next = queue.then(() => once(body));
      queue = next.catch(() => {});
      return next;
    };
    closeDb = async () => db.close();
  } else {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    transact = async (body) => {
      await pool.query(statements.keyFind, [TENANT, "bare-none"]);
      const client = await pool.connect();
      try {
        await client.query("begin");
        const out = await pay(async (name, args) => (await client.query(statements[name], args)).rows, body);
        await client.query("commit");
        return out;
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    };
    closeDb = () => pool.end();
  }
  const server = await serveBare(transact);
  return { close: async () => (await new Promise((r) => server.close(r)), await closeDb()) };
}

export default {
  name: "cashier",
  title: `cashier/pay at ${TERMINALS} terminals against a bare transaction`,
  sizes: { cashierOrders: ORDERS, cashierDiners: DINERS, terminals: TERMINALS },
  seed: (dialect) => {
    log(`${dialect}: ${DINERS} cashier diners and ${ORDERS} orders too…`);
    return cashierSql(dialect);
  },
  async run({ dialect, bareUrl, auth }) {
    const bare = await barePay(dialect, bareUrl);
    try {
      const [api, raw] = await round([
        [`${BASE}/api/v1/zhct/cashier/pay`, auth],
        [`http://127.0.0.1:${BARE_PORT}/`, {}],
      ]);
      return { pay: api, bare: raw, ratio: api.rps / raw.rps };
    } finally {
      await bare.close();
    }
  },
  rows: (s) => [
    [`API cashier/pay, ${TERMINALS} terminals (${ORDERS} orders, ${DINERS} diners)`, s.load("pay")],
    ["bare handler, same statements", s.load("bare")],
    ["cashier/pay API / bare", s.percent("ratio")],
  ],
};
