// 智慧后勤's reports (issue 35, decision 076) at the stock scenario's volume: its seed (BENCH_STOCK_GOODS goods, 2,000 by
// default; 1,000,000 movement lines, all posted 60 days ago within half an hour) and each report's API p50/p95 over
// BENCH_STOCK_REPORT_SAMPLES sequential requests (default 15, after 2 unmeasured): the heavy case, a period or month
// that holds every line (40,000 warehouse × goods rows), and the everyday one, the last 30 days (no line in it: the
// opening balances are the ledger's balances less the lines since). Target (issue 35): p95 < 500 ms.
// Alone: `npm run bench -- stockreports` (or BENCH_CASES=stockreports).
import stock from "./stock.mjs";
import { BASE, env, log } from "../lib.mjs";

const SAMPLES = Number(env.BENCH_STOCK_REPORT_SAMPLES ?? 15);
const DAY = 86_400_000;
const chinaDay = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 10);

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

const CASES = () => {
  const posted = Date.now() - 60 * DAY;
  const day = chinaDay(posted);
  const month = day.slice(0, 7);
  const around = `from=${chinaDay(posted - 10 * DAY)}&to=${chinaDay(posted + 19 * DAY)}`;
  return [
    ["dailyAll", `/api/v1/report/warehouseDailyReport?${around}`],
    ["dailyRecent", "/api/v1/report/warehouseDailyReport"],
    ["monthAll", `/api/v1/report/warehouseMonthReport?fromMonth=${month}&toMonth=${month}`],
    ["monthNow", "/api/v1/report/warehouseMonthReport"],
    ["inAll", `/api/v1/report/warehouseInReport?${around}`],
    ["outAll", `/api/v1/report/warehouseOutReport?${around}`],
    ["traceBatch", "/api/v1/report/batchTrace?batchNo=S1-1"],
    ["warning", "/api/v1/report/warehouseWarning"],
  ];
};

export default {
  name: "stockreports",
  title: "智慧后勤 reports over 1,000,000 stock movement lines",
  sizes: stock.sizes,
  seed: (dialect) => {
    log(`${dialect}: the stock scenario's seed for the reports…`);
    return stock.seed(dialect);
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
