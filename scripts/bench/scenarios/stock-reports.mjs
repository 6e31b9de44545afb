// 智慧后勤's reports (issue 35, decision 076) at the stock scenario's volume: its seed (BENCH_STOCK_GOODS goods, 2,000 by
// default; 1,000,000 movement lines over 40,000 warehouse × goods), the lines then spread over the last 365 days
// (≈ 2,700 a day; their "after" columns no longer chain, which no report reads), and each report's API p50/p95 over
// BENCH_STOCK_REPORT_SAMPLES sequential requests (default 10, after 2 unmeasured): the last 30 days or this month,
// for all 20 warehouses and for one. Target (issue 35): p95 < 500 ms. The ledger's kept days (`stock_day`, decision
// 090) and its postings' sums (`stock_posting_sum`, decision 099) are counted from the spread lines as the projections'
// recounts count them (their SQL, written out here, as the seed writes stock_real and stock_batch as their sums). A
// report answers a page (its first 5,000 rows) with totals over every row: what the report page's loader gets.
// Alone: `npm run bench -- stockreports` (or BENCH_CASES=stockreports).
import stock from "./stock.mjs";
import { BASE, TENANT, env, log, padded, series } from "../lib.mjs";

const SAMPLES = Number(env.BENCH_STOCK_REPORT_SAMPLES ?? 10);
const DAY = 86_400_000;

const p = (values, q) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * q) - 1)];

async function apiTimes(path, auth) {
  const ms = [];
  let rows = 0;
  for (let i = 0; i < SAMPLES + 2; i++) {
    const started = performance.now();
    const response = await fetch(`${BASE}${path}`, { headers: auth });
    const answer = await response.json();
    if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer).slice(0, 300)}`);
    rows = (answer.data.rows ?? answer.data.records ?? []).length;
    if (i >= 2) ms.push(performance.now() - started);
  }
  return { p50: Math.round(p(ms, 0.5)), p95: Math.round(p(ms, 0.95)), rows };
}

/** The China month `back` months before this one, YYYY-MM. */
function monthsBack(back) {
  const d = new Date(Date.now() + 8 * 3600_000);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - back);
  return d.toISOString().slice(0, 7);
}

/** stockDays' recount (server/modules/zhhq/stockDays.ts): the lines' China days per warehouse × goods, closing running. */
const STOCK_DAYS = `insert into stock_day (tenant_id, warehouse_id, goods_id, day_no, in_quantity, in_amount, out_quantity, out_amount, closing_quantity, closing_amount)
  select tenant_id, warehouse_id, goods_id, day_no, in_quantity, in_amount, out_quantity, out_amount,
    sum(in_quantity - out_quantity) over (partition by tenant_id, warehouse_id, goods_id order by day_no rows between unbounded preceding and current row),
    sum(in_amount - out_amount) over (partition by tenant_id, warehouse_id, goods_id order by day_no rows between unbounded preceding and current row)
  from (select tenant_id, warehouse_id, goods_id, (occurred_at + 28800000) / 86400000 as day_no,
      sum(case when quantity > 0 then quantity else 0 end) as in_quantity, sum(case when quantity > 0 then amount else 0 end) as in_amount,
      sum(case when quantity < 0 then -quantity else 0 end) as out_quantity, sum(case when quantity < 0 then -amount else 0 end) as out_amount
    from stock_line group by tenant_id, warehouse_id, goods_id, (occurred_at + 28800000) / 86400000) as d`;

/** stockPostingSums' recount (server/modules/zhhq/stockDays.ts): the lines' sums per warehouse and China day. */
const POSTING_SUMS = `insert into stock_posting_sum (tenant_id, warehouse_id, day_no, line_id, in_quantity, in_amount, out_quantity, out_amount)
  select tenant_id, warehouse_id, (occurred_at + 28800000) / 86400000, min(id),
    sum(case when quantity > 0 then quantity else 0 end), sum(case when quantity > 0 then amount else 0 end),
    sum(case when quantity < 0 then -quantity else 0 end), sum(case when quantity < 0 then -amount else 0 end)
  from stock_line group by tenant_id, warehouse_id, (occurred_at + 28800000) / 86400000`;

/** The stock scenario's first warehouse (its WAREHOUSE_BASE + 1); its warehouses and goods are these bases + 1…n. */
const ONE_WAREHOUSE = 911_000_001;
const WAREHOUSE_BASE = 911_000_000;
const GOODS_BASE = 910_000_000;
const BATCH_BASE = 930_000_000;
const { stockGoods: GOODS, stockWarehouses: WAREHOUSES } = stock.sizes;

// A year of the documents 采购统计, 盘点统计 and 维修统计 read, so they read real rows (ids apart from the stock seed's).
const SUPPLIERS = 50;
const ORDERS = Number(env.BENCH_REPORT_ORDERS ?? 20_000);
const ORDER_LINES = 10;
/** A stocktake a month per warehouse, every goods counted; one goods in ten differs by a unit. */
const SHEET_MONTHS = 12;
const REPAIRS = Number(env.BENCH_REPORT_REPAIRS ?? 20_000);
const SUPPLIER_BASE = 970_000_000;
const ORDER_BASE = 971_000_000;
const ORDER_LINE_BASE = 972_000_000;
const RECEIVE_BASE = 973_000_000;
const RECEIVE_LINE_BASE = 974_000_000;
const SHEET_BASE = 975_000_000;
const SHEET_LINE_BASE = 976_000_000;
const CHECK_MOVE_BASE = 977_000_000;
const REPAIR_BASE = 978_000_000;
const REPAIR_DETAIL_BASE = 979_000_000;

/** SQL: the China day (YYYY-MM-DD) of epoch milliseconds `ms`. */
const dayText = (dialect, ms) =>
  dialect === "sqlite" ? `strftime('%Y-%m-%d', (${ms} + 28800000) / 1000, 'unixepoch')` : `to_char(to_timestamp((${ms} + 28800000) / 1000) at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * Purchase orders (ORDERS over the last 365 days, ORDER_LINES goods each, SUPPLIERS suppliers): those of the last 5
 * days approved and awaiting delivery, the rest received whole by one receipt each, confirmed once a month old.
 * Stocktakes: a sheet per warehouse and month (SHEET_MONTHS), a line per goods, one goods in ten a unit over in the
 * odd months and under in the even ones (its ledger lines net to nothing a year, so stock_real stays their sum).
 * Repairs: REPAIRS over the year in every type and place, most finished and rated, each with a work record.
 */
function documentsSql(dialect, now) {
  const s = (n) => series(dialect, n);
  const audit = `${now}, ${now}`;
  const price = "(100 + g % 500)";
  // Order i: day back d, warehouse, supplier; line j (0…9) of order i takes goods g.
  const orderRows = `select i, i % 365 as d, i % ${WAREHOUSES} + 1 as w, i % ${SUPPLIERS} + 1 as sup from (${s(ORDERS)}) as s0`;
  const lineRows = `select i, o, j, d, ((o * 7 + j * ${Math.floor(GOODS / ORDER_LINES)}) % ${GOODS}) + 1 as g from (select i, (i - 1) / ${ORDER_LINES} + 1 as o, (i - 1) % ${ORDER_LINES} as j, ((i - 1) / ${ORDER_LINES} + 1) % 365 as d from (${s(ORDERS * ORDER_LINES)}) as s0) as s1`;
  // Day counts are multiplied as bigint: PostgreSQL's integer series would overflow at 25 days of milliseconds.
  const at = (d) => `(${now} - cast(${d} as bigint) * ${DAY} - 3600000)`;
  // Sheet i: warehouse w, month back m (0…11); line i of sheet (i − 1) / GOODS + 1 counts goods g.
  const sheets = WAREHOUSES * SHEET_MONTHS;
  const sheetRows = `select i, (i - 1) % ${WAREHOUSES} + 1 as w, (i - 1) / ${WAREHOUSES} as m from (${s(sheets)}) as s0`;
  const sheetLineRows = `select i, sh, g, (sh - 1) % ${WAREHOUSES} + 1 as w, (sh - 1) / ${WAREHOUSES} as m from (select i, (i - 1) / ${GOODS} + 1 as sh, (i - 1) % ${GOODS} + 1 as g from (${s(sheets * GOODS)}) as s0) as s1`;
  const sheetAt = (m) => `(${now} - cast(${m} * 30 + 10 as bigint) * ${DAY} - 3600000)`;
  // The goods that differ on a sheet: pair p = m / 2 of months, goods g with g % 10 = p; +1 unit in one, −1 in the other.
  const differs = `g % 10 = m / 2`;
  const diff = `case when m % 2 = 0 then 1000 else -1000 end`;
  const key = `(g - 1) * ${WAREHOUSES} + w`;
  const repairRows = `select i, i % 365 as d, i % 7 as t, i % 3 as pl, i % 10 as st, i % 12 as wk from (${s(REPAIRS)}) as s0`;
  const repairTypes = `case t when 0 then 'water_electric' when 1 then 'door_window' when 2 then 'furniture' when 3 then 'appliance' when 4 then 'kitchen' when 5 then 'network' else 'other' end`;
  const places = `case pl when 0 then 'dormitory' when 1 then 'restaurant' else 'other' end`;
  // st 0: submitted; 1: rejected; 2: accepted; 3–5: finished; 6–9: rated.
  const status = `case when st = 0 then 0 when st = 1 then 9 when st = 2 then 1 when st <= 5 then 3 else 4 end`;
  const accepted = `st >= 2`;
  const finished = `st >= 3`;
  return [
    `insert into supplier (tenant_id, id, supplier_name, created_at, updated_at)
       select ${TENANT}, ${SUPPLIER_BASE} + i, ${padded(dialect, "压测供应商", 3)}, ${audit} from (${s(SUPPLIERS)}) as s`,
    `insert into purchase_order (tenant_id, id, doc_no, status, supplier_id, warehouse_id, doc_date, confirmed_at, version, created_at, updated_at)
       select ${TENANT}, ${ORDER_BASE} + i, ${padded(dialect, "BCG", 6)}, case when d < 5 then '2' else '4' end, ${SUPPLIER_BASE} + sup, ${WAREHOUSE_BASE} + w,
              ${dayText(dialect, at("d"))}, case when d >= 30 then ${at("d")} + 7 * ${DAY} end, 3, ${audit}
       from (${orderRows}) as s`,
    `insert into purchase_order_line (tenant_id, id, document_id, line_no, goods_id, quantity, price, contract_price, amount, received_quantity, received_amount, created_at, updated_at)
       select ${TENANT}, ${ORDER_LINE_BASE} + i, ${ORDER_BASE} + o, j + 1, ${GOODS_BASE} + g, 10000, ${price}, ${price}, 10 * ${price},
              case when d < 5 then 0 else 10000 end, case when d < 5 then 0 else 10 * ${price} end, ${audit}
       from (${lineRows}) as s`,
    `insert into purchase_receive (tenant_id, id, doc_no, status, purchse_id, supplier_id, warehouse_id, doc_date, version, created_at, updated_at)
       select ${TENANT}, ${RECEIVE_BASE} + i, ${padded(dialect, "BSH", 6)}, '1', ${ORDER_BASE} + i, ${SUPPLIER_BASE} + sup, ${WAREHOUSE_BASE} + w, ${dayText(dialect, at("d"))}, 2, ${audit}
       from (${orderRows}) as s where d >= 5`,
    `insert into purchase_receive_line (tenant_id, id, document_id, line_no, purchse_line_id, goods_id, quantity, price, amount, created_at, updated_at)
       select ${TENANT}, ${RECEIVE_LINE_BASE} + i, ${RECEIVE_BASE} + o, j + 1, ${ORDER_LINE_BASE} + i, ${GOODS_BASE} + g, 10000, ${price}, 10 * ${price}, ${audit}
       from (${lineRows}) as s where d >= 5`,
    `insert into warehouse_check (tenant_id, id, doc_no, status, warehouse_id, doc_date, version, created_at, updated_at)
       select ${TENANT}, ${SHEET_BASE} + i, ${padded(dialect, "BPD", 6)}, 2, ${WAREHOUSE_BASE} + w, ${dayText(dialect, sheetAt("m"))}, 3, ${audit} from (${sheetRows}) as s`,
    `insert into warehouse_check_line (tenant_id, id, document_id, line_no, goods_id, book_quantity, counted_quantity, diff_quantity, diff_amount, created_at, updated_at)
       select ${TENANT}, ${SHEET_LINE_BASE} + i, ${SHEET_BASE} + sh, g, ${GOODS_BASE} + g, 35000,
              35000 + case when ${differs} then ${diff} else 0 end, case when ${differs} then ${diff} else 0 end, case when ${differs} then ${diff} / 1000 * ${price} else 0 end, ${audit}
       from (${sheetLineRows}) as s`,
    // The differences posted, on the key's sixth batch (one of 5 units).
    `insert into stock_line (tenant_id, id, warehouse_id, goods_id, batch_id, batch_no, quantity, amount, quantity_after, amount_after, doc_type, doc_id, doc_line_id, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${CHECK_MOVE_BASE} + i, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, ${BATCH_BASE} + (${key} - 1) * 10 + 6, 'S' || ${key} || '-6', ${diff}, ${diff} / 1000 * ${price}, 35000, 35 * ${price},
              'zhhq/warehouseCheck', ${SHEET_BASE} + sh, ${SHEET_LINE_BASE} + i, 'bench', ${sheetAt("m")}, ${audit}
       from (${sheetLineRows}) as s where ${differs}`,
    `insert into repair (tenant_id, id, repair_no, place_type, place, repair_type, content, reporter_name, repair_status, worker_name, accepted_at, finished_at,
                         accept_minutes, finish_minutes, parts_cost, rating, created_at, updated_at)
       select ${TENANT}, ${REPAIR_BASE} + i, ${padded(dialect, "BBX", 6)}, ${places}, '压测地点', ${repairTypes}, '压测报修', '压测', ${status},
              case when ${accepted} then '维修员' || wk end, case when ${accepted} then ${at("d")} + 1800000 end, case when ${finished} then ${at("d")} + 7200000 end,
              case when ${accepted} then 30 + i % 60 end, case when ${finished} then 120 + i % 240 end, case when ${finished} then (i % 20) * 500 end,
              case when st >= 6 then 3 + i % 3 end, ${at("d")}, ${now}
       from (${repairRows}) as s`,
    `insert into repair_detail (tenant_id, id, repair_id, worker_name, note, hours, created_at, updated_at)
       select ${TENANT}, ${REPAIR_DETAIL_BASE} + i, ${REPAIR_BASE} + i, '维修员' || wk, '压测维修记录', 1000 + (i % 4) * 500, ${audit}
       from (${repairRows}) as s where ${accepted}`,
  ];
}

const CASES = () => [
  ["dailyOne", `/api/v1/zhhq/warehouseDailyReport?warehouseId=${ONE_WAREHOUSE}`],
  ["dailyAll", "/api/v1/zhhq/warehouseDailyReport"],
  ["monthOne", `/api/v1/zhhq/warehouseMonthReport?warehouseId=${ONE_WAREHOUSE}`],
  ["monthAll", "/api/v1/zhhq/warehouseMonthReport"],
  ["monthYear", "/api/v1/zhhq/warehouseMonthReport?fromMonth=" + monthsBack(11) + "&toMonth=" + monthsBack(0)],
  ["inAll", "/api/v1/zhhq/warehouseInReport"],
  ["outAll", "/api/v1/zhhq/warehouseOutReport"],
  ["outOne", `/api/v1/zhhq/warehouseOutReport?warehouseId=${ONE_WAREHOUSE}`],
  ["traceBatch", "/api/v1/zhhq/batchTrace?batchNo=S1-1"],
  ["restaurantTrace", "/api/v1/zhhq/restaurantTrace"],
  ["purchase", "/api/v1/zhhq/purchaseReport"],
  ["purchaseYear", "/api/v1/zhhq/purchaseReport?fromMonth=" + monthsBack(11) + "&toMonth=" + monthsBack(0)],
  ["check", "/api/v1/zhhq/warehouseCheckReport"],
  ["repair", "/api/v1/zhhq/repairDetailReport"],
  ["repairYear", "/api/v1/zhhq/repairDetailReport?fromMonth=" + monthsBack(11) + "&toMonth=" + monthsBack(0)],
  ["warning", "/api/v1/zhhq/warehouseWarning/findPage"],
];

export default {
  name: "stockreports",
  title: "智慧后勤 reports over 1,000,000 stock movement lines",
  sizes: stock.sizes,
  seed: (dialect) => {
    log(`${dialect}: the stock scenario's seed for the reports…`);
    const now = Date.now();
    return [
      ...stock.seed(dialect),
      `update stock_line set occurred_at = ${now} - (id % 365) * ${DAY} - 3600000 where tenant_id = 1 and id >= 940000000 and id < 950000000`,
      ...documentsSql(dialect, now),
      STOCK_DAYS,
      POSTING_SUMS,
    ];
  },
  async run({ auth }) {
    const out = {};
    for (const [name, path] of CASES()) {
      const t = await apiTimes(path, auth);
      log(`  ${name}: p50 ${t.p50} ms, p95 ${t.p95} ms, ${t.rows} rows`);
      out[`${name}P50`] = t.p50;
      out[`${name}P95`] = t.p95;
      out[`${name}Rows`] = t.rows;
    }
    return out;
  },
  rows: (s) =>
    CASES().map(([name, path]) => [`${path.replace(/\?.*/, "")} ${name} (${s.num(`${name}Rows`)} rows) p50 / p95 (target p95 < 500 ms)`, `${s.num(`${name}P50`)} / ${s.num(`${name}P95`)} ms`]),
};
