// The warehouse's stock (issue 40): with BENCH_STOCK_GOODS goods (default 2,000), BENCH_STOCK_WAREHOUSES warehouses
// (20) and BENCH_STOCK_LINES movement lines (1,000,000) seeded, approving a 350-line stock-in and a 350-line stock-out
// (FEFO over several batches a line) through the API, each beside the same approval without HTTP as the floor (the
// transition service timed inside the server's own warm process, server/benchHook.ts); stock-out approvals per second
// through the API against a bare handler in that same process running the same transaction; the stock screen's and
// the batch screen's p95, the batch screen also without migration 0058's index.
// Targets (issue 40): stock-in < 200 ms, stock-out < 300 ms, API ≥ 70 % of the bare handler, screens p95 < 300 ms.
// Issue 41: receiving a 100-line purchase order whole (`purchse/receive`: the receipt, its stock-in approved, the
// order's lines and status, the price checks) < 150 ms, beside the same receipt without HTTP.
// Alone: `npm run bench -- stock` (or BENCH_CASES=stock); BENCH_USERS and BENCH_ROWS shrink the shared seed.
import { BASE, HOOK_PORT, TENANT, apiCall as api, env, hookCall as hook, loadRound, log, padded, series } from "../lib.mjs";

const GOODS = Number(env.BENCH_STOCK_GOODS ?? 2_000);
const WAREHOUSES = Number(env.BENCH_STOCK_WAREHOUSES ?? 20);
const LINES = Number(env.BENCH_STOCK_LINES ?? 1_000_000);
/** Lines of the timed documents. */
const DOC_LINES = Math.min(350, GOODS);
/** Submitted one-line stock-outs the throughput rounds approve, seeded (each approval needs a document of its own). */
const POOL = Math.min(Number(env.BENCH_STOCK_POOL ?? 20_000), Number(env.BENCH_STOCK_WAREHOUSES ?? 20) * Number(env.BENCH_STOCK_GOODS ?? 2_000));
const REPEATS = Number(env.BENCH_STOCK_DOCS ?? 5);
const SAMPLES = Number(env.BENCH_STOCK_SAMPLES ?? 60);
// Ids of their own, apart from the other scenarios' (500–900 million).
const GOODS_BASE = 910_000_000;
const WAREHOUSE_BASE = 911_000_000;
/** The pool's stock-outs are POOL_BASE + 1…POOL. */
const POOL_BASE = 912_000_000;
const Z = "/api/v1/zhhq";
const HOOK = `http://127.0.0.1:${HOOK_PORT}`;
/** Migration 0058's index, which the batch screen's default order walks. */
const EXPIRY_INDEX = "stock_batch_expiry_date_id_idx";
const DAY = 86_400_000;
const chinaDay = (at) => new Date(at + 8 * 3600_000).toISOString().slice(0, 10);

/** Warehouse w (1…WAREHOUSES) and goods g (1…GOODS); a goods' unit price in fen. */
const warehouseId = (w) => WAREHOUSE_BASE + w;
const goodsId = (g) => GOODS_BASE + g;
const priceOf = (g) => 100 + (g % 500);

/** Batches a warehouse × goods holds, and movements on it (10 receipts, then 15 issues of 1 unit on its first 5). */
const BATCHES = 10;
const PER_KEY = 25;
/** The keys (warehouse × goods) that hold stock: LINES / 25 of them, all 40,000 by default. */
const KEYS = Math.min(WAREHOUSES * GOODS, Math.ceil(LINES / PER_KEY));
// Ids of their own, below 2^31 (PostgreSQL's integer arithmetic over generate_series).
const IN_BASE = 913_000_000;
const POOL_LINE_BASE = 914_000_000;
const IN_LINE_BASE = 920_000_000;
const BATCH_BASE = 930_000_000;
const LINE_BASE = 940_000_000;
const REAL_BASE = 950_000_000;
const OUT_DOC_BASE = 960_000_000;

/**
 * Warehouses, goods and their stock as approvals leave it, written directly: per warehouse × goods (key k: warehouse
 * (k − 1) % W + 1, goods (k − 1) / W + 1) ten batches of 5 units received by ten stock-ins (one per warehouse and
 * batch, a line per goods), then fifteen issues of 1 unit from its five earliest-expiring batches, so each key holds
 * 35 units: 2 in each of its first five batches, 5 in the others. A stock-out line of 10 thus consumes five batches
 * (FEFO). The movement lines carry their quantity and amount after, as the ledger writes them; stock_real and
 * stock_batch are their sums. Then POOL submitted one-line stock-outs of 1 unit (one per key) for the throughput.
 */
function stockSql(dialect) {
  const now = Date.now();
  const audit = `${now}, ${now}`;
  const s = (n) => series(dialect, n);
  const day = (offset) => `'${chinaDay(now + offset * DAY)}'`;
  const expiry = (b) => `case ${b} ${Array.from({ length: BATCHES }, (_, i) => `when ${i + 1} then ${day(30 * (i + 1))}`).join(" ")} end`;
  const price = "(100 + g % 500)";
  // i → key k and batch b; k → warehouse w and goods g.
  const keyed = (n, per) => `select i, k, b, (k - 1) % ${WAREHOUSES} + 1 as w, (k - 1) / ${WAREHOUSES} + 1 as g from (select i, (i - 1) / ${per} + 1 as k, (i - 1) % ${per} + 1 as b from (${s(n)}) as s0) as s1`;
  const inDoc = `${IN_BASE} + (w - 1) * ${BATCHES} + b`;
  const inLine = `${IN_LINE_BASE} + (k - 1) * ${BATCHES} + b`;
  const batch = `${BATCH_BASE} + (k - 1) * ${BATCHES} + b`;
  const start = now - 60 * DAY;
  return [
    `insert into warehouse (tenant_id, id, warehouse_code, name, status, created_at, updated_at)
       select ${TENANT}, ${WAREHOUSE_BASE} + i, ${padded(dialect, "BW", 3)}, ${padded(dialect, "压测仓库", 3)}, 1, ${audit} from (${s(WAREHOUSES)}) as s`,
    `insert into goods (tenant_id, id, goods_code, goods_name, shelf_life_days, reference_price, status, created_at, updated_at)
       select ${TENANT}, ${GOODS_BASE} + i, ${padded(dialect, "BG", 5)}, ${padded(dialect, "压测物资", 5)}, 365, 100 + (i % 500), 1, ${audit} from (${s(GOODS)}) as s`,
    `insert into warehouse_in (tenant_id, id, doc_no, status, warehouse_id, doc_date, version, created_at, updated_at)
       select ${TENANT}, ${IN_BASE} + i, ${padded(dialect, "BRK", 6)}, 2, ${WAREHOUSE_BASE} + (i - 1) / ${BATCHES} + 1, ${day(-60)}, 3, ${audit} from (${s(WAREHOUSES * BATCHES)}) as s`,
    `insert into warehouse_in_line (tenant_id, id, document_id, line_no, goods_id, quantity, price, amount, batch_no, production_date, expiry_date, created_at, updated_at)
       select ${TENANT}, ${inLine}, ${inDoc}, g, ${GOODS_BASE} + g, 5000, ${price}, 5 * ${price}, 'S' || k || '-' || b, ${day(-61)}, ${expiry("b")}, ${audit}
       from (${keyed(KEYS * BATCHES, BATCHES)}) as s`,
    `insert into stock_batch (tenant_id, id, warehouse_id, goods_id, batch_no, production_date, expiry_date, price, quantity, amount, received_at, in_line_id, created_at, updated_at)
       select ${TENANT}, ${batch}, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, 'S' || k || '-' || b, ${day(-61)}, ${expiry("b")}, ${price},
              case when b <= 5 then 2000 else 5000 end, case when b <= 5 then 2 else 5 end * ${price}, ${start}, ${inLine}, ${audit}
       from (${keyed(KEYS * BATCHES, BATCHES)}) as s`,
    `insert into stock_real (tenant_id, id, warehouse_id, goods_id, quantity, amount, created_at, updated_at)
       select ${TENANT}, ${REAL_BASE} + k, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, 35000, 35 * ${price}, ${audit} from (${keyed(KEYS, 1)}) as s`,
    // The receipts: movement b of key k, after it 5·b units.
    `insert into stock_line (tenant_id, id, warehouse_id, goods_id, batch_id, batch_no, quantity, amount, quantity_after, amount_after, doc_type, doc_id, doc_line_id, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${LINE_BASE} + (k - 1) * ${PER_KEY} + b, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g, ${batch}, 'S' || k || '-' || b, 5000, 5 * ${price}, 5000 * b, 5 * ${price} * b,
              'zhhq/warehouseIn', ${inDoc}, ${inLine}, 'bench', ${start} + b * 60000, ${audit}
       from (${keyed(KEYS * BATCHES, BATCHES)}) as s`,
    // The issues: movement j (1…15) of key k takes 1 unit from batch (j − 1) / 3 + 1, after it 50 − j units.
    `insert into stock_line (tenant_id, id, warehouse_id, goods_id, batch_id, batch_no, quantity, amount, quantity_after, amount_after, doc_type, doc_id, doc_line_id, operator_name, occurred_at, created_at, updated_at)
       select ${TENANT}, ${LINE_BASE} + (k - 1) * ${PER_KEY} + ${BATCHES} + b, ${WAREHOUSE_BASE} + w, ${GOODS_BASE} + g,
              ${BATCH_BASE} + (k - 1) * ${BATCHES} + (b - 1) / 3 + 1, 'S' || k || '-' || ((b - 1) / 3 + 1), -1000, -${price}, 50000 - 1000 * b, (50 - b) * ${price},
              'zhhq/warehouseOut', ${OUT_DOC_BASE} + b, ${OUT_DOC_BASE} + (k - 1) * 16 + b, 'bench', ${start} + (${BATCHES} + b) * 60000, ${audit}
       from (${keyed(KEYS * (PER_KEY - BATCHES), PER_KEY - BATCHES)}) as s`,
    // The pool: submitted stock-out i takes 1 unit of key i.
    `insert into warehouse_out (tenant_id, id, doc_no, status, warehouse_id, doc_date, version, created_at, updated_at)
       select ${TENANT}, ${POOL_BASE} + i, ${padded(dialect, "BCK", 6)}, 1, ${WAREHOUSE_BASE} + w, ${day(0)}, 2, ${audit} from (${keyed(Math.min(POOL, KEYS), 1)}) as s`,
    `insert into warehouse_out_line (tenant_id, id, document_id, line_no, goods_id, quantity, created_at, updated_at)
       select ${TENANT}, ${POOL_LINE_BASE} + i, ${POOL_BASE} + i, 1, ${GOODS_BASE} + g, 1000, ${audit} from (${keyed(Math.min(POOL, KEYS), 1)}) as s`,
  ];
}

/** Milliseconds of one approval without HTTP, timed inside the server process: [wall, CPU]. */
async function floorTimed(kind, id) {
  const { ms, cpu } = await hook("/floor", { entity: kind === "in" ? "warehouseIn" : "warehouseOut", step: "approve", ids: [id] });
  return [ms[0], cpu[0]];
}

/**
 * [wall ms, the server's CPU ms] of `work` (API requests, one at a time): the CPU the server process spent meanwhile,
 * which the other work on a shared machine inflates far less than the wall clock.
 */
async function withCpu(work) {
  const before = (await hook("/cpu", {})).us;
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  return [ms, ((await hook("/cpu", {})).us - before) / 1000];
}


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

/** Lines of the timed purchase orders (issue 41: a receipt of a 100-line order). */
const ORDER_LINES = Math.min(100, GOODS);
let orders = 0;
/** An approved ORDER_LINES-line purchase order of a bench supplier into a warehouse, on goods no other order took. */
async function approvedOrder(auth, supplierId) {
  const k = orders++;
  const w = 1 + (k % WAREHOUSES);
  const blocks = Math.floor(GOODS / ORDER_LINES);
  const first = (Math.floor(k / WAREHOUSES) % blocks) * ORDER_LINES;
  const lines = Array.from({ length: ORDER_LINES }, (_, i) => ({ goodsId: goodsId(first + i + 1), quantity: 20, price: priceOf(first + i + 1) }));
  const { id } = await api(auth, `${Z}/purchse/create`, { supplierId, warehouseId: warehouseId(w), lines });
  await api(auth, `${Z}/purchse/submit`, { id });
  await api(auth, `${Z}/purchse/approve`, { id });
  return id;
}

/** [wall, server CPU] milliseconds of receiving an order whole through the API. */
async function receiveTimed(auth, id) {
  const order = await api(auth, `${Z}/purchse/getInfo?id=${id}`);
  const body = { id, lines: order.lines.map((l) => ({ purchseLineId: l.id, quantity: l.quantity })) };
  return withCpu(() => api(auth, `${Z}/purchse/receive`, body));
}

/** [wall, server CPU] milliseconds of one API approval, the wall measured by the client (HTTP on loopback included). */
async function approveTimed(auth, kind, id) {
  return withCpu(() => api(auth, `${Z}/${kind === "in" ? "warehouseIn" : "warehouseOut"}/approve`, { id }));
}

/** The server's CPU milliseconds per one-line stock-out approval, CPU_SAMPLES of them one at a time through `via`. */
const CPU_SAMPLES = Number(env.BENCH_STOCK_CPU_SAMPLES ?? 40);
async function cpuPerApproval(auth, via) {
  const [, cpu] = await withCpu(async () => {
    for (let i = 0; i < CPU_SAMPLES; i++) {
      if (via === "api") await api(auth, `${Z}/warehouseOut/approve`, poolDoc());
      else await hook("/step", { entity: "warehouseOut", step: "approve", ...poolDoc() });
    }
  });
  return cpu / CPU_SAMPLES;
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
  // Each database is seeded with its own pool: the second starts from its first document again.
  setup() {
    poolNext = 0;
  },
  seed: (dialect) => {
    log(`${dialect}: ${GOODS} goods, ${WAREHOUSES} warehouses, ${LINES} stock movements, ${POOL} submitted stock-outs…`);
    return stockSql(dialect);
  },
  async run({ auth, cookie, exec }) {
    const n = ++round;
    // Approvals one at a time (a document of 350 lines is one request), each through the API and then the same
    // approval of a twin document without HTTP, in the same warm server process, the first pair unmeasured: the
    // floor is the transaction itself, timed inside the process (server/benchHook.ts), under the same conditions.
    const docs = { in: [], out: [], floorIn: [], floorOut: [] };
    for (let i = 0; i <= REPEATS; i++) {
      docs.in.push(await submitted(auth, "in", n * 1000 + i));
      docs.out.push(await submitted(auth, "out", n * 1000 + i));
      docs.floorIn.push(await submitted(auth, "in", n * 1000 + 500 + i));
      docs.floorOut.push(await submitted(auth, "out", n * 1000 + 500 + i));
    }
    // Each list holds [wall, CPU] pairs.
    const apiIn = [];
    const apiOut = [];
    const floorIn = [];
    const floorOut = [];
    for (let i = 0; i <= REPEATS; i++) {
      const times = [
        await approveTimed(auth, "in", docs.in[i]),
        await floorTimed("in", docs.floorIn[i]),
        await approveTimed(auth, "out", docs.out[i]),
        await floorTimed("out", docs.floorOut[i]),
      ];
      if (i > 0) [apiIn, floorIn, apiOut, floorOut].forEach((list, j) => list.push(times[j]));
    }

    // Receipts of a 100-line purchase order, through the API and without HTTP (each order received once).
    const { id: supplierId } = await api(auth, `${Z}/supplier/create`, { supplierName: `压测供应商${n}-${Date.now()}` });
    // A receipt is a delivery: its supplier's licences must be in force (decision 076).
    for (const qualType of ["1", "2"]) await api(auth, `${Z}/supplierQualification/create`, { supplierId, qualType, qualNo: `BENCH-${n}-${qualType}`, validFrom: "2020-01-01" });
    const apiOrders = [];
    const floorOrders = [];
    for (let i = 0; i <= REPEATS; i++) apiOrders.push(await approvedOrder(auth, supplierId));
    for (let i = 0; i < 2 * REPEATS; i++) floorOrders.push(await approvedOrder(auth, supplierId));
    const apiReceive = [];
    for (let i = 0; i <= REPEATS; i++) {
      const t = await receiveTimed(auth, apiOrders[i]);
      if (i > 0) apiReceive.push(t);
    }
    const received = await hook("/receive", { ids: floorOrders });
    const floorReceive = received.ms.slice(REPEATS).map((ms, i) => [ms, received.cpu[REPEATS + i]]);

    // Throughput: one-line stock-outs from the seeded pool, each request a document of its own and a key of its own,
    // through the API and through the bare handler in the same server process (same build, database handle and
    // transaction), measured A B B A.
    const [viaApi, viaBare] = await loadRound(
      [`${BASE}${Z}/warehouseOut/approve`, auth, undefined, poolDoc],
      [`${HOOK}/step`, {}, undefined, () => ({ entity: "warehouseOut", step: "approve", ...poolDoc() })],
    );
    // The same approvals one at a time, A B B A, for the server's CPU each: on a loaded machine the rates above
    // follow the other work as much as ours; CPU per approval is what the server would spend on a quiet one.
    const cpuApi = [await cpuPerApproval(auth, "api")];
    const cpuBare = [await cpuPerApproval(auth, "bare"), await cpuPerApproval(auth, "bare")];
    cpuApi.push(await cpuPerApproval(auth, "api"));
    const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
    const throughput = { api: viaApi, bare: viaBare, ratio: viaApi.rps / viaBare.rps, cpuApi: mean(cpuApi), cpuBare: mean(cpuBare), cpuRatio: mean(cpuBare) / mean(cpuApi) };

    const real = await pageTimes("/zhhq/warehousereal/index", cookie);
    const detail = await pageTimes("/zhhq/warehouserealdetail/index", cookie);
    // The batch screen again without migration 0058's index (expiry, id), then the index made again: the same
    // page, data and server, so what the index buys is seen in one run.
    await exec(`drop index ${EXPIRY_INDEX}`);
    let unindexed;
    try {
      unindexed = await pageTimes("/zhhq/warehouserealdetail/index", cookie);
    } finally {
      await exec(`create index ${EXPIRY_INDEX} on stock_batch (tenant_id, expiry_date, id)`);
    }
    const wall = (pairs) => Math.round(median(pairs.map(([ms]) => ms)));
    const cpu = (pairs) => Math.round(median(pairs.map(([, c]) => c)));
    return {
      inApi: wall(apiIn),
      inFloor: wall(floorIn),
      outApi: wall(apiOut),
      outFloor: wall(floorOut),
      receiveApi: wall(apiReceive),
      receiveFloor: wall(floorReceive),
      inApiCpu: cpu(apiIn),
      inFloorCpu: cpu(floorIn),
      outApiCpu: cpu(apiOut),
      outFloorCpu: cpu(floorOut),
      receiveApiCpu: cpu(apiReceive),
      receiveFloorCpu: cpu(floorReceive),
      ...throughput,
      realP50: real.p50,
      realP95: real.p95,
      detailP50: detail.p50,
      detailP95: detail.p95,
      unindexedP50: unindexed.p50,
      unindexedP95: unindexed.p95,
    };
  },
  // Wall-clock ms, then the server's CPU ms of the same work (load-robust) in brackets.
  rows: (s) => [
    [`approve a ${DOC_LINES}-line stock-in, API (${LINES} movements; target < 200 ms) [server CPU]`, `${s.num("inApi")} ms [${s.num("inApiCpu")}]`],
    ["the same approval without HTTP, in the server's process (floor)", `${s.num("inFloor")} ms [${s.num("inFloorCpu")}]`],
    [`approve a ${DOC_LINES}-line stock-out (FEFO, 5 batches a line), API (target < 300 ms)`, `${s.num("outApi")} ms [${s.num("outApiCpu")}]`],
    ["the same approval without HTTP, in the server's process (floor)", `${s.num("outFloor")} ms [${s.num("outFloorCpu")}]`],
    [`receive a ${ORDER_LINES}-line purchase order whole, API (posts its stock-in; target < 150 ms)`, `${s.num("receiveApi")} ms [${s.num("receiveApiCpu")}]`],
    ["the same receipt without HTTP, in the server's process (floor)", `${s.num("receiveFloor")} ms [${s.num("receiveFloorCpu")}]`],
    ["API stock-out approvals (1 line)", s.load("api")],
    ["bare handler in the server's process, same transaction", s.load("bare")],
    ["stock-out approvals API / bare (target ≥ 70 %)", s.percent("ratio")],
    ["server CPU per one-line approval, API / bare handler (ms)", `${s.median("cpuApi").toFixed(2)} / ${s.median("cpuBare").toFixed(2)}`],
    ["bare / API CPU per approval (the rate ratio a CPU-bound quiet server would give)", s.percent("cpuRatio")],
    ["stock screen /zhhq/warehousereal/index p50 / p95 (target p95 < 300 ms)", `${s.num("realP50")} / ${s.num("realP95")} ms`],
    ["batch screen /zhhq/warehouserealdetail/index p50 / p95 (target p95 < 300 ms)", `${s.num("detailP50")} / ${s.num("detailP95")} ms`],
    ["the same without the (expiry, id) index of migration 0058", `${s.num("unindexedP50")} / ${s.num("unindexedP95")} ms`],
  ],
};

