// The warehouse's stock (issue 40): with BENCH_STOCK_GOODS goods (default 2,000), BENCH_STOCK_WAREHOUSES warehouses
// (20) and BENCH_STOCK_LINES movement lines (1,000,000) seeded, approving a 350-line stock-in and a 350-line stock-out
// (FEFO over several batches a line) through the API, each beside the same approval without HTTP (bench/stock.ts: the
// transition service called in a process of its own) as the floor; stock-out approvals per second through the API
// against a bare handler running the same transition; the stock screen's and the batch screen's p95.
// Targets (issue 40): stock-in < 200 ms, stock-out < 300 ms, API ≥ 70 % of the bare handler, screens p95 < 300 ms.
// Alone: `npm run bench -- stock` (or BENCH_CASES=stock); BENCH_USERS and BENCH_ROWS shrink the shared seed.
import { spawn } from "node:child_process";
import { BARE_PORT, BASE, TENANT, env, loadRound, log, padded, series } from "../lib.mjs";

const GOODS = Number(env.BENCH_STOCK_GOODS ?? 2_000);
const WAREHOUSES = Number(env.BENCH_STOCK_WAREHOUSES ?? 20);
const LINES = Number(env.BENCH_STOCK_LINES ?? 1_000_000);
/** Lines of the timed documents. */
const DOC_LINES = Math.min(350, GOODS);
/** Submitted one-line stock-outs the throughput rounds approve, seeded (each approval needs a document of its own). */
const POOL = Number(env.BENCH_STOCK_POOL ?? 20_000);
const REPEATS = Number(env.BENCH_STOCK_DOCS ?? 5);
const SAMPLES = Number(env.BENCH_STOCK_SAMPLES ?? 60);
// Ids of their own, apart from the other scenarios' (500–900 million).
const GOODS_BASE = 910_000_000;
const WAREHOUSE_BASE = 911_000_000;
/** The pool's stock-outs are POOL_BASE + 1…POOL. */
const POOL_BASE = 912_000_000;
const Z = "/api/v1/zhhq";
const DAY = 86_400_000;
const chinaDay = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 10);

/** Warehouse w (1…WAREHOUSES) and goods g (1…GOODS); a goods' unit price in fen. */
const warehouseId = (w) => WAREHOUSE_BASE + w;
const goodsId = (g) => GOODS_BASE + g;
const priceOf = (g) => 100 + (g % 500);

/**
 * Per warehouse × goods, BATCHES batches of 5 units received (one movement each), and on the earliest-expiring half
 * three issues of 1 unit each: every key has 35 units left, 2 in each of its first five batches, so a stock-out line of
 * 10 consumes five batches (FEFO). LINES / (WAREHOUSES × GOODS) movements a key: 25 by default.
 */
function stockSql(dialect) {
  const now = Date.now();
  const audit = `${now}, ${now}`;
  const s = (n) => series(dialect, n);
  return [
    `insert into warehouse (tenant_id, id, warehouse_code, name, status, created_at, updated_at)
       select ${TENANT}, ${WAREHOUSE_BASE} + i, ${padded(dialect, "BW", 3)}, ${padded(dialect, "压测仓库", 3)}, 1, ${audit} from (${s(WAREHOUSES)}) as s`,
    `insert into goods (tenant_id, id, goods_code, goods_name, shelf_life_days, reference_price, status, created_at, updated_at)
       select ${TENANT}, ${GOODS_BASE} + i, ${padded(dialect, "BG", 5)}, ${padded(dialect, "压测物资", 5)}, 365, 100 + (i % 500), 1, ${audit} from (${s(GOODS)}) as s`,
    ...movementSql(dialect, now),
  ];
}

/** The stock's batches, balances and movement lines, and the pool of submitted one-line stock-outs. */
function movementSql(dialect, now) {
  void dialect;
  void now;
  void LINES;
  void POOL;
  // Filled once the stock ledger's tables exist (wt-stock): see the report.
  return [];
}

/** A `vite-node bench/stock.ts …` process; resolves with its last JSON line (`floor`) or once it says ready (`bare`). */
function stockProcess(args, { untilReady = false } = {}) {
  const child = spawn("npx", ["vite-node", "bench/stock.ts", ...args], { env: { ...env, CANTEEN_JOBS: "off" }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr = (stderr + c).slice(-20_000)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const done = new Promise((resolve, reject) => {
    child.stdout.on("data", () => untilReady && stdout.includes("ready") && resolve(null));
    child.once("exit", (code) => {
      const line = stdout.split("\n").filter((l) => l.startsWith("{")).at(-1);
      if (untilReady || code !== 0 || !line) return reject(new Error(`bench/stock.ts ${args[0]} failed (${code}):\n${stderr}`));
      resolve(JSON.parse(line));
    });
  });
  return { done, stop: async () => (child.exitCode === null && child.kill("SIGTERM"), await exited) };
}

const api = async (auth, path, body) => {
  const response = await fetch(`${BASE}${path}`, { method: body ? "POST" : "GET", headers: { "Content-Type": "application/json", ...auth }, body: body ? JSON.stringify(body) : undefined });
  const answer = await response.json();
  if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer).slice(0, 500)}`);
  return answer.data;
};

let round = 0;
let outs = 0;
/**
 * A submitted 350-line document of `kind`. Each stock-out takes a block of goods in a warehouse no other took (100
 * such blocks at the default sizes; a run takes 12 per round), so runs never empty each other's batches.
 */
async function submitted(auth, kind, n) {
  const k = kind === "out" ? outs++ : n;
  const w = 1 + (k % WAREHOUSES);
  const blocks = Math.floor(GOODS / DOC_LINES);
  const first = (Math.floor(k / WAREHOUSES) % blocks) * DOC_LINES;
  const goods = Array.from({ length: DOC_LINES }, (_, i) => first + i + 1);
  const today = Date.now();
  const body =
    kind === "in"
      ? { warehouseId: warehouseId(w), docDate: chinaDay(today), lines: goods.map((g) => ({ goodsId: goodsId(g), quantity: 12.5, price: priceOf(g), batchNo: `BENCH-${n}-${g}`, expiryDate: chinaDay(today + 400 * DAY) })) }
      : { warehouseId: warehouseId(w), docDate: chinaDay(today), lines: goods.map((g) => ({ goodsId: goodsId(g), quantity: 10 })) };
  const doc = kind === "in" ? "warehouseIn" : "warehouseOut";
  const { id } = await api(auth, `${Z}/${doc}/create`, body);
  await api(auth, `${Z}/${doc}/submit`, { id });
  return id;
}

/** Milliseconds of one API approval, measured by the client (HTTP on loopback included). */
async function approveTimed(auth, kind, id) {
  const started = performance.now();
  await api(auth, `${Z}/${kind === "in" ? "warehouseIn" : "warehouseOut"}/approve`, { id });
  return performance.now() - started;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : Number.NaN;
};
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

/** p50/p95 of SAMPLES sequential GETs of a page as a signed-in browser asks for it. */
async function pageTimes(path, cookie) {
  const ms = [];
  for (let i = 0; i < SAMPLES + 3; i++) {
    const started = performance.now();
    const response = await fetch(`${BASE}${path}`, { headers: cookie });
    await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    if (i >= 3) ms.push(performance.now() - started); // the first three warm the route
  }
  return { p50: Math.round(median(ms)), p95: Math.round(p95(ms)) };
}

/** The pool's next submitted stock-out (seeded ids): the API and the bare handler never approve the same one. */
let poolNext = 0;
const poolDoc = () => {
  if (poolNext >= POOL) throw new Error("the pool of submitted stock-outs is used up: raise BENCH_STOCK_POOL");
  return { id: POOL_BASE + ++poolNext };
};

export default {
  name: "stock",
  title: "stock approvals (350 lines, FEFO) and the stock screens",
  sizes: { stockGoods: GOODS, stockWarehouses: WAREHOUSES, stockMovementLines: LINES, stockOutPool: POOL },
  seed: (dialect) => {
    log(`${dialect}: ${GOODS} goods, ${WAREHOUSES} warehouses, ${LINES} stock movements, ${POOL} submitted stock-outs…`);
    return stockSql(dialect);
  },
  async run({ databaseUrl, auth, cookie }) {
    const n = ++round;
    // Approvals one at a time (a document of 350 lines is one request): REPEATS of each through the API, and as many
    // by bench/stock.ts, after one it does unmeasured (its process starts cold; the server is warm).
    const docs = { in: [], out: [], floorIn: [], floorOut: [] };
    for (let i = 0; i <= REPEATS; i++) {
      docs.in.push(await submitted(auth, "in", n * 1000 + i));
      docs.floorIn.push(await submitted(auth, "in", n * 1000 + 500 + i));
      docs.out.push(await submitted(auth, "out", n * 1000 + i));
      docs.floorOut.push(await submitted(auth, "out", n * 1000 + 500 + i));
    }
    const apiIn = [];
    const apiOut = [];
    for (let i = 0; i <= REPEATS; i++) {
      const tIn = await approveTimed(auth, "in", docs.in[i]);
      const tOut = await approveTimed(auth, "out", docs.out[i]);
      if (i > 0) {
        apiIn.push(tIn);
        apiOut.push(tOut);
      }
    }
    const floorIn = (await stockProcess(["floor", databaseUrl, "warehouseIn", docs.floorIn.join(",")]).done).ms.slice(1);
    const floorOut = (await stockProcess(["floor", databaseUrl, "warehouseOut", docs.floorOut.join(",")]).done).ms.slice(1);

    // Throughput: one-line stock-outs from the seeded pool, each request a document of its own and a key of its own.
    const bare = stockProcess(["bare", databaseUrl, String(BARE_PORT), "warehouseOut"], { untilReady: true });
    await bare.done;
    let throughput;
    try {
      const [viaApi, viaBare] = await loadRound([`${BASE}${Z}/warehouseOut/approve`, auth, undefined, poolDoc], [`http://127.0.0.1:${BARE_PORT}/`, {}, undefined, poolDoc]);
      throughput = { api: viaApi, bare: viaBare, ratio: viaApi.rps / viaBare.rps };
    } finally {
      await bare.stop();
    }

    const real = await pageTimes("/zhhq/warehousereal/index", cookie);
    const detail = await pageTimes("/zhhq/warehouserealdetail/index", cookie);
    return {
      inApi: Math.round(median(apiIn)),
      inFloor: Math.round(median(floorIn)),
      outApi: Math.round(median(apiOut)),
      outFloor: Math.round(median(floorOut)),
      ...throughput,
      realP50: real.p50,
      realP95: real.p95,
      detailP50: detail.p50,
      detailP95: detail.p95,
    };
  },
  rows: (s) => [
    [`approve a ${DOC_LINES}-line stock-in, API (${LINES} movements; target < 200 ms)`, `${s.num("inApi")} ms`],
    ["the same approval without HTTP (floor)", `${s.num("inFloor")} ms`],
    [`approve a ${DOC_LINES}-line stock-out (FEFO, 5 batches a line), API (target < 300 ms)`, `${s.num("outApi")} ms`],
    ["the same approval without HTTP (floor)", `${s.num("outFloor")} ms`],
    ["API stock-out approvals (1 line)", s.load("api")],
    ["bare handler, same transition", s.load("bare")],
    ["stock-out approvals API / bare (target ≥ 70 %)", s.percent("ratio")],
    ["stock screen /zhhq/warehousereal/index p50 / p95 (target p95 < 300 ms)", `${s.num("realP50")} / ${s.num("realP95")} ms`],
    ["batch screen /zhhq/warehouserealdetail/index p50 / p95", `${s.num("detailP50")} / ${s.num("detailP95")} ms`],
  ],
};

