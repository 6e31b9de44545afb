// 智慧后勤's reports (issue 35, decision 076) at the stock scenario's volume: its seed (BENCH_STOCK_GOODS goods, 2,000 by
// default; 1,000,000 movement lines over 40,000 warehouse × goods), the lines then spread over the last 365 days
// (≈ 2,700 a day; their "after" columns no longer chain, which no report reads), and each report's API p50/p95 over
// BENCH_STOCK_REPORT_SAMPLES sequential requests (default 10, after 2 unmeasured): the last 30 days or this month,
// for all 20 warehouses and for one. Target (issue 35): p95 < 500 ms. The ledger's kept days (`stock_day`, decision
// 090) are counted from the spread lines as the projection's recount counts them (its SQL, written out here, as the
// seed writes stock_real and stock_batch as their sums). A report answers a page (its first 5,000 rows) with totals
// over every row: what the report page's loader gets.
// Alone: `npm run bench -- stockreports` (or BENCH_CASES=stockreports).
import stock from "./stock.mjs";
import { BASE, env, log } from "../lib.mjs";

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

/** The stock scenario's first warehouse (its WAREHOUSE_BASE + 1). */
const ONE_WAREHOUSE = 911_000_001;

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
  ["check", "/api/v1/zhhq/warehouseCheckReport"],
  ["repair", "/api/v1/zhhq/repairDetailReport"],
  ["warning", "/api/v1/zhhq/warehouseWarning/findPage"],
];

export default {
  name: "stockreports",
  title: "智慧后勤 reports over 1,000,000 stock movement lines",
  sizes: stock.sizes,
  seed: (dialect) => {
    log(`${dialect}: the stock scenario's seed for the reports…`);
    const now = Date.now();
    return [...stock.seed(dialect), `update stock_line set occurred_at = ${now} - (id % 365) * ${DAY} - 3600000 where tenant_id = 1 and id >= 940000000 and id < 950000000`, STOCK_DAYS];
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
