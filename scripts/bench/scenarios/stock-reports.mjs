// 智慧后勤's reports (issue 35, decision 076) at the stock scenario's volume: its seed (BENCH_STOCK_GOODS goods, 2,000 by
// default; 1,000,000 movement lines over 40,000 warehouse × goods), the lines then spread over the last 365 days
// (≈ 2,700 a day; their "after" columns no longer chain, which no report reads), and each report's API p50/p95 over
// BENCH_STOCK_REPORT_SAMPLES sequential requests (default 10, after 2 unmeasured): the last 30 days or this month,
// for all 20 warehouses and for one. Target (issue 35): p95 < 500 ms.
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
    rows = answer.data.rows.length;
    if (i >= 2) ms.push(performance.now() - started);
  }
  return { p50: Math.round(p(ms, 0.5)), p95: Math.round(p(ms, 0.95)), rows };
}

/** The stock scenario's first warehouse (its WAREHOUSE_BASE + 1). */
const ONE_WAREHOUSE = 911_000_001;

const CASES = () => [
  ["dailyOne", `/api/v1/report/warehouseDailyReport?warehouseId=${ONE_WAREHOUSE}`],
  ["dailyAll", "/api/v1/report/warehouseDailyReport"],
  ["monthOne", `/api/v1/report/warehouseMonthReport?warehouseId=${ONE_WAREHOUSE}`],
  ["monthAll", "/api/v1/report/warehouseMonthReport"],
  ["inAll", "/api/v1/report/warehouseInReport"],
  ["outAll", "/api/v1/report/warehouseOutReport"],
  ["outOne", `/api/v1/report/warehouseOutReport?warehouseId=${ONE_WAREHOUSE}`],
  ["traceBatch", "/api/v1/report/batchTrace?batchNo=S1-1"],
  ["restaurantTrace", "/api/v1/report/restaurantTrace"],
  ["warning", "/api/v1/report/warehouseWarning"],
];

export default {
  name: "stockreports",
  title: "智慧后勤 reports over 1,000,000 stock movement lines",
  sizes: stock.sizes,
  seed: (dialect) => {
    log(`${dialect}: the stock scenario's seed for the reports…`);
    const now = Date.now();
    return [...stock.seed(dialect), `update stock_line set occurred_at = ${now} - (id % 365) * ${DAY} - 3600000 where tenant_id = 1 and id >= 940000000 and id < 950000000`];
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
