// Reports at volume (issue 15, decisions 035 and 036): bench/reports.ts seeds the demo generator at bench size into a
// database of its own (bench/data/reports.db, or schema bench_reports on PostgreSQL) and times every report of
// resources/report through the API handler for a month, the first eight against hand-written SQL in a bare handler.
// Sizes: BENCH_REPORTS_DINERS (20,000), BENCH_REPORTS_DAYS (43: about 1,000,000 orders), BENCH_REPORTS_RUNS (20).
// Each dialect's answer is also written to bench/results/reports-<dialect>.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dir, env, log, runScript } from "../lib.mjs";

const DINERS = Number(env.BENCH_REPORTS_DINERS ?? 20_000);

export default {
  name: "reports",
  title: `reports on the demo generator at ${DINERS} diners`,
  once: true,
  sizes: { reportsDiners: DINERS },
  async run({ dialect }) {
    // The bench's own database is left alone: reports.ts migrates and seeds a fresh one (the PostgreSQL URL
    // unscoped, since it picks its own schema).
    const target = dialect === "sqlite" ? join(dir, "reports.db") : env.BENCH_DATABASE_URL;
    log(`${dialect}: bench/reports.ts ${dialect === "sqlite" ? target : "(schema bench_reports)"} (seeds its own database)…`);
    const result = await runScript("bench/reports.ts", target, "[reports]");
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(`bench/results/reports-${dialect}.json`, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...result }, null, 2)}\n`);
    return result;
  },
  rows: (r) => [
    [`reports data set`, `${r.diners} diners, ${r.days} days: ${r.orders} orders, ${r.ledgerLines} ledger lines (seeded in ${Math.round(r.seedSeconds)} s)`],
    ...Object.entries(r.results).map(([name, x]) => [`report ${name} (${r.from}…${r.to})`, `p50 ${x.p50} ms, p95 ${x.p95} ms${x.bare ? `; bare SQL p50 ${x.bare.p50} ms, API/bare ${Math.round(x.ratio * 100)} %` : ""}`]),
  ],
};
