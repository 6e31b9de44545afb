// `npm run bench`: builds the production app, seeds a benchmark database at scale, and runs the scenarios of
// scripts/bench/scenarios against the server on loopback. Load-tested scenarios run BENCH_REPEAT times (default 3),
// interleaved, and the table shows each figure's median with the spread of the runs. Every run is bounded.
import Database from "better-sqlite3";
import pg from "pg";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONNECTIONS, ROWS, SECONDS, USERS, build, dir, env, kb, log, prepareSqlite, preparePostgres, signIn, startServer } from "./bench/lib.mjs";
import { FIND_PAGE_QUERY } from "./bench/scenarios/api.mjs";
import { scenarios } from "./bench/scenarios/index.mjs";

const REPEAT = Math.max(1, Number(env.BENCH_REPEAT ?? 3));
// `menus` alone was the canteen's quick check before the cases were modules; it still means that.
// `npm run bench -- stock ledger` names them as arguments instead.
const named = process.argv.slice(2).join(",") || env.BENCH_CASES;
const chosen = named ? new Set(named.split(",").map((s) => s.trim()).filter(Boolean)) : null;
const selected = scenarios.filter((s) => !chosen || chosen.has(s.name));
if (!selected.length) throw new Error(`BENCH_CASES names none of: ${scenarios.map((s) => s.name).join(", ")}`);

/** Runs SQL against the benchmark database beside the server (seeding and switching a scenario's data). */
function executor(dialect, databaseUrl) {
  if (dialect === "sqlite") {
    const db = new Database(databaseUrl);
    db.pragma("busy_timeout = 5000");
    return { exec: async (sql) => void db.exec(sql), close: async () => db.close() };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  return { exec: async (sql) => void (await pool.query(sql)), close: () => pool.end() };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median and spread of each figure over the runs: numbers, and load results ({rps, p50, p99}). */
function summarize(runs) {
  const pick = (key, field) => runs.map((r) => (field ? r[key][field] : r[key]));
  const spread = (values, digits = 0, scale = 1) => {
    const f = (v) => (v * scale).toFixed(digits);
    return values.length > 1 ? ` (${f(Math.min(...values))}–${f(Math.max(...values))})` : "";
  };
  return {
    median: (key, field) => median(pick(key, field)),
    load: (key) => {
      const rps = pick(key, "rps");
      return `${Math.round(median(rps))} req/s${spread(rps)}, p50 ${Math.round(median(pick(key, "p50")))} ms, p99 ${Math.round(median(pick(key, "p99")))} ms`;
    },
    percent: (key) => `${Math.round(median(pick(key)) * 100)} %${spread(pick(key), 0, 100)}`,
    num: (key) => String(Math.round(median(pick(key)))),
    kb: (key) => kb(median(pick(key))),
  };
}

async function measure(dialect, databaseUrl) {
  const server = startServer(databaseUrl);
  await server.ready;
  const db = executor(dialect, databaseUrl);
  try {
    const token = await signIn();
    const ctx = { dialect, databaseUrl, bareUrl: databaseUrl, pid: server.child.pid, token, auth: { Authorization: `Bearer ${token}` }, cookie: { Cookie: `Admin-Token=${token}` }, exec: db.exec };
    const mine = selected.filter((s) => !s.dialects || s.dialects.includes(dialect));
    for (const scenario of mine) if (scenario.setup) await scenario.setup(ctx);
    const runs = Object.fromEntries(mine.map((s) => [s.name, []]));
    // Repeats are interleaved, so a slow minute of the machine lands on every scenario rather than on one.
    for (let round = 1; round <= REPEAT; round++) {
      for (const scenario of mine.filter((s) => !s.once)) {
        log(`${dialect}: ${scenario.title} (run ${round} of ${REPEAT})…`);
        const result = await scenario.run(ctx);
        log(JSON.stringify(result));
        runs[scenario.name].push(result);
      }
    }
    for (const scenario of mine.filter((s) => s.once)) {
      log(`${dialect}: ${scenario.title}…`);
      runs[scenario.name].push(await scenario.run(ctx));
    }
    return runs;
  } finally {
    await db.close();
    await server.stop();
  }
}

function table(results) {
  const lines = ["| measure | SQLite | PostgreSQL |", "|---|---|---|"];
  for (const scenario of selected) {
    const rowsOf = (runs) => (runs?.length ? scenario.rows(scenario.once ? runs[0] : summarize(runs)) : null);
    const sqlite = rowsOf(results.sqlite?.[scenario.name]) ?? [];
    const postgres = rowsOf(results.postgres?.[scenario.name]);
    const onPostgres = !scenario.dialects || scenario.dialects.includes("postgres");
    sqlite.forEach(([label, value], i) => {
      const other = results.postgres ? (postgres?.[i]?.[1] ?? "") : "not run";
      lines.push(`| ${label} | ${value} | ${onPostgres ? other : ""} |`);
    });
  }
  return lines.join("\n");
}

// BENCH_BUILD=0 measures the build as it is (when it is current, or while other servers serve from it).
if (env.BENCH_BUILD !== "0") build();
const started = Date.now();
const sqliteFile = join(dir, "bench.db");
// The chosen scenarios' own bulk rows (e.g. the ledger's lines) are seeded with the rest, before the server starts.
const seeds = (dialect) => selected.flatMap((s) => (s.seed && (!s.dialects || s.dialects.includes(dialect)) ? s.seed(dialect) : []));
await prepareSqlite(sqliteFile, seeds);
const results = { sqlite: await measure("sqlite", sqliteFile) };
if (env.BENCH_DATABASE_URL) results.postgres = await measure("postgres", await preparePostgres(env.BENCH_DATABASE_URL, seeds));
const report = {
  date: new Date().toISOString(),
  node: process.version,
  sizes: Object.assign({ users: USERS, operationLogRows: ROWS }, ...selected.map((s) => s.sizes ?? {})),
  load: { connections: CONNECTIONS, seconds: SECONDS, repeat: REPEAT },
  findPageQuery: FIND_PAGE_QUERY,
  results,
  seconds: Math.round((Date.now() - started) / 1000),
};
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/latest.json", `${JSON.stringify(report, null, 2)}\n`);
console.log(table(results));
console.log(`\nwritten: bench/results/latest.json (${statSync("bench/results/latest.json").size} bytes)`);
