// Stocktaking and the month's stock account (issue 41, decision 073): with BENCH_CLOSING_GOODS goods (default 2,000)
// in BENCH_CLOSING_WAREHOUSES warehouses (20) and BENCH_CLOSING_LINES movement lines (1,000,000) over three months,
// approving a 5,000-line stocktake (the first warehouse's batches: 3 for each of its first 1,000 goods, 2 for the
// rest; one line in ten counted differently) and 生成 of the current month (every warehouse × goods: 40,000 rows),
// each through the API and without HTTP (the same work timed inside the server's own warm process,
// server/benchHook.ts), alternated within a round. Targets (issue 41): stocktake < 2 s, month < 5 s.
// The receipt of a 100-line purchase order (issue 41's third figure) is measured by the stock scenario.
// Alone: `npm run bench -- closing`. Run apart from `stock`: 生成 counts every movement of the tenant.
import { TENANT, apiCall as api, env, hookCall as hook, log, padded, series } from "../lib.mjs";

const GOODS = Number(env.BENCH_CLOSING_GOODS ?? 2_000);
const WAREHOUSES = Number(env.BENCH_CLOSING_WAREHOUSES ?? 20);
const LINES = Number(env.BENCH_CLOSING_LINES ?? 1_000_000);
/** Goods of the first warehouse holding a third batch: its sheet has 3 × this + 2 × the rest lines (5,000). */
const THREE_BATCH_GOODS = Math.min(1_000, GOODS);
// Ids of their own, apart from the other scenarios' (500–960 million) and below 2^31.
const GOODS_BASE = 1_101_000_000;
const WAREHOUSE_BASE = 1_102_000_000;
const IN_BASE = 1_103_000_000;
const IN_LINE_BASE = 1_104_000_000;
const BATCH_BASE = 1_105_000_000;
const LINE_BASE = 1_110_000_000;
const REAL_BASE = 1_120_000_000;
const KEYS = WAREHOUSES * GOODS;
const Z = "/api/v1/zhhq";
const DAY = 86_400_000;
const chinaDay = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * Per warehouse × goods (key k: warehouse (k − 1) % W + 1, goods (k − 1) / W + 1) two batches, three for the first
 * warehouse's first THREE_BATCH_GOODS goods, each received by its warehouse's one stock-in; movement line i adds 1
 * unit at its batch's price to key (i − 1) % keys, its batches in turn, dated in one of the last three months in
 * turn. Batches (written first: the lines refer to them) and balances are the sums of their lines, the ledger's
 * invariant; the lines' "after" figures are left 0, which no timed work reads.
 */
function closingSql(dialect) {
  const now = Date.now();
  const audit = `${now}, ${now}`;
  const s = (n) => series(dialect, n);
  const months = [0, 1, 2].map((k) => `'${chinaDay(now - k * 31 * DAY)}'`);
  const batchesOf = `case when w = 1 and g <= ${THREE_BATCH_GOODS} then 3 else 2 end`;
  // Slot b (1…3) of every key; a key's slots beyond its batches are left out where used.
  const batchSlots = `select i, k, b, (k - 1) % ${WAREHOUSES} + 1 as w, (k - 1) / ${WAREHOUSES} + 1 as g
    from (select i, (i - 1) / 3 + 1 as k, (i - 1) % 3 + 1 as b from (${s(KEYS * 3)}) as s0) as s1`;
  const batch = `${BATCH_BASE} + (k - 1) * 3 + b`;
  const inLine = `${IN_LINE_BASE} + (k - 1) * 3 + b`;
  const price = "(100 + (g + b) % 500)";
  return [
    `insert into warehouse (tenant_id, id, warehouse_code, name, status, created_at, updated_at)
       select ${TENANT}, ${WAREHOUSE_BASE} + i, ${padded(dialect, "CW", 3)}, ${padded(dialect, "盘点压测仓库", 3)}, 1, ${audit} from (${s(WAREHOUSES)}) as s`,
    `insert into goods (tenant_id, id, goods_code, goods_name, shelf_life_days, reference_price, status, created_at, updated_at)
       select ${TENANT}, ${GOODS_BASE} + i, ${padded(dialect, "CG", 5)}, ${padded(dialect, "盘点压测物资", 5)}, 365, 100 + (i % 500), 1, ${audit} from (${s(GOODS)}) as s`,
    `insert into warehouse_in (tenant_id, id, doc_no, status, warehouse_id, doc_date, version, created_at, updated_at)
       select ${TENANT}, ${IN_BASE} + i, ${padded(dialect, "CRK", 6)}, 2, ${WAREHOUSE_BASE} + i, ${months[2]}, 3, ${audit} from (${s(WAREHOUSES)}) as s`,
    `insert into warehouse_in_line (tenant_id, id, document_id, line_no, goods_id, quantity, price, amount, batch_no, expiry_date, created_at, updated_at)
       select ${TENANT}, ${inLine}, ${IN_BASE} + w, (g - 1) * 3 + b, ${GOODS_BASE} + g, 0, ${price}, 0, 'C' || k || '-' || b, '2099-01-01', ${audit}
       from (${batchSlots}) as s where b <= ${batchesOf}`,
    // Batch b of key k holds the lines below that fall on it: the key's n-th line (n = 1…N) falls on batch (n − 1) % nb + 1.
    `insert into stock_batch (tenant_id, id, warehouse_id, goods_id, batch_no, expiry_date, price, quantity, amount, received_at, in_line_id, created_at, updated_at)
       select ${TENANT}, ${batch}, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, 'C' || k || '-' || b, '2099-01-01', ${price}, 1000 * c, c * ${price}, ${now}, ${inLine}, ${audit}
       from (select k, b, w, g, case when b <= lines then (lines - b) / nb + 1 else 0 end as c
             from (select k, b, w, g, ${batchesOf} as nb, case when k <= ${LINES} then (${LINES} - k) / ${KEYS} + 1 else 0 end as lines from (${batchSlots}) as s0) as s1
             where b <= nb) as s`,
    // Line i: key (i − 1) % keys + 1, its ((i − 1) / keys)-th batch in turn, month (i − 1) % 3.
    `insert into stock_line (tenant_id, id, warehouse_id, goods_id, batch_id, batch_no, quantity, amount, quantity_after, amount_after, doc_type, doc_id, doc_line_id, doc_date, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${LINE_BASE} + i, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, ${batch}, 'C' || k || '-' || b, 1000, ${price}, 0, 0,
              'zhhq/warehouseIn', ${IN_BASE} + w, ${inLine}, case (i - 1) % 3 when 0 then ${months[0]} when 1 then ${months[1]} else ${months[2]} end, 'bench', ${now}, ${audit}
       from (select i, k, w, g, (n - 1) % (${batchesOf}) + 1 as b from (select i, k, n, (k - 1) % ${WAREHOUSES} + 1 as w, (k - 1) / ${WAREHOUSES} + 1 as g
             from (select i, (i - 1) % ${KEYS} + 1 as k, (i - 1) / ${KEYS} + 1 as n from (${s(LINES)}) as s0) as s1) as s2) as s`,
    `insert into stock_real (tenant_id, id, warehouse_id, goods_id, quantity, amount, created_at, updated_at)
       select tenant_id, ${REAL_BASE} + (warehouse_id - ${WAREHOUSE_BASE}) + (goods_id - ${GOODS_BASE} - 1) * ${WAREHOUSES}, warehouse_id, goods_id, sum(quantity), sum(amount), ${audit}
       from stock_batch where tenant_id = ${TENANT} and warehouse_id > ${WAREHOUSE_BASE} and warehouse_id <= ${WAREHOUSE_BASE + WAREHOUSES}
       group by tenant_id, warehouse_id, goods_id`,
  ];
}



/**
 * A submitted stocktake of the first warehouse, counted: of every ten lines one gains a unit and one loses one, so
 * the sheets of a run leave the stock as they found it. Returns its id and line count.
 */
async function countedSheet(auth) {
  const sheet = await api(auth, `${Z}/warehouseCheck/create`, { warehouseId: WAREHOUSE_BASE + 1 });
  const lines = sheet.lines.map((l, i) => ({ id: l.id, countedQuantity: l.bookQuantity + (i % 10 === 0 ? 1 : i % 10 === 5 ? -1 : 0) }));
  await api(auth, `${Z}/warehouseCheck/update`, { id: sheet.id, lines });
  await api(auth, `${Z}/warehouseCheck/submit`, { id: sheet.id });
  return { id: sheet.id, lines: lines.length };
}

/**
 * One API request: [wall ms measured by the client (HTTP on loopback included), the server's CPU ms meanwhile (it
 * serves nothing else), its answer's data]. CPU time is what a loaded machine inflates far less than the wall clock.
 */
const timedApi = async (auth, path, body) => {
  const before = (await hook("/cpu", {})).us;
  const started = performance.now();
  const data = await api(auth, path, body);
  const ms = performance.now() - started;
  return [ms, ((await hook("/cpu", {})).us - before) / 1000, data];
};

/** One piece of work without HTTP, timed inside the server's process: [wall ms, CPU ms]. */
const timedHook = async (path, body) => {
  const { ms, cpu } = await hook(path, body);
  return [ms[0], cpu[0]];
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : Number.NaN;
};

let round = 0;

export default {
  name: "closing",
  title: "a 5,000-line stocktake approved and the month's stock account generated",
  sizes: { closingGoods: GOODS, closingWarehouses: WAREHOUSES, closingMovementLines: LINES },
  seed: (dialect) => {
    log(`${dialect}: ${GOODS} goods, ${WAREHOUSES} warehouses, ${LINES} stock movements over three months…`);
    return closingSql(dialect);
  },
  async run({ auth }) {
    const n = ++round;
    // One sheet at a time (an open sheet freezes its warehouse): API then floor in odd rounds, floor then API in
    // even ones, so the machine's drift lands on both. The first round's first pair warms the path, unmeasured.
    const month = chinaDay(Date.now()).slice(0, 7);
    const result = { sheetLines: 0, monthRows: 0, checkApi: [], checkFloor: [], monthApi: [], monthFloor: [] };
    const pairs = n === 1 ? 2 : 1;
    for (let p = 0; p < pairs; p++) {
      const order = n % 2 ? ["api", "floor"] : ["floor", "api"];
      for (const way of order) {
        const sheet = await countedSheet(auth);
        result.sheetLines = sheet.lines;
        const times = way === "api" ? await timedApi(auth, `${Z}/warehouseCheck/approve`, { id: sheet.id }) : await timedHook("/floor", { entity: "warehouseCheck", step: "approve", ids: [sheet.id] });
        if (n > 1 || p > 0) result[way === "api" ? "checkApi" : "checkFloor"].push(times);
      }
      for (const way of [...order, ...[...order].reverse()]) {
        let times;
        if (way === "api") {
          times = await timedApi(auth, `${Z}/warehouseAccountMonthSettle/generate`, { month });
          result.monthRows = times[2].rowCount;
        } else times = await timedHook("/generate", { months: [month] });
        if (n > 1 || p > 0) result[way === "api" ? "monthApi" : "monthFloor"].push(times);
      }
    }
    const wall = (key) => Math.round(median(result[key].map(([ms]) => ms)));
    const cpu = (key) => Math.round(median(result[key].map(([, c]) => c)));
    return {
      sheetLines: result.sheetLines,
      monthRows: result.monthRows,
      ...Object.fromEntries(["checkApi", "checkFloor", "monthApi", "monthFloor"].flatMap((key) => [[key, wall(key)], [`${key}Cpu`, cpu(key)]])),
    };
  },
  // Wall-clock ms, then the server's CPU ms of the same work in brackets.
  rows: (s) => [
    [`approve a stocktake of ${s.num("sheetLines")} lines, API (${LINES} movements; target < 2 s) [server CPU]`, `${s.num("checkApi")} ms [${s.num("checkApiCpu")}]`],
    ["the same approval without HTTP, in the server's process (floor)", `${s.num("checkFloor")} ms [${s.num("checkFloorCpu")}]`],
    [`生成 the month (${s.num("monthRows")} warehouse × goods rows), API (target < 5 s)`, `${s.num("monthApi")} ms [${s.num("monthApiCpu")}]`],
    ["the same without HTTP, in the server's process (floor)", `${s.num("monthFloor")} ms [${s.num("monthFloorCpu")}]`],
  ],
};
