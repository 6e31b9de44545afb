/**
 * The plans of 智慧后勤's report queries at the benchmark's volume (issue 35, decision 090): each report of
 * `zhhqReportQueries` runs once for tenant 1 with its default period (the last 30 days, this month) against a
 * database the `stockreports` scenario seeded (argument: the SQLite file, default bench/data/bench.db, or a
 * postgres:// URL, then schema bench), and every statement it sent is printed with its plan (SQLite: EXPLAIN QUERY
 * PLAN; PostgreSQL: EXPLAIN ANALYZE, so with its time) and the query's own time. Read-only.
 * `npx vite-node bench/explain-stock-reports.ts [database]`
 */
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from "kysely";
import pg from "pg";
import type { Db } from "../server/db";
import { parseMonths } from "../server/modules/report/engine";
import { zhhqReportQueries } from "../server/modules/zhhq/reports";
import { parsePeriod } from "../server/modules/zhct/reports";

const target = process.argv[2] ?? "bench/data/bench.db";
const postgres = target.startsWith("postgres");
const sent: CompiledQuery[] = [];
const log = (event: { level: string; query: CompiledQuery }) => void sent.push(event.query);
const pool = postgres ? new pg.Pool({ connectionString: target, max: 4, options: "-c search_path=bench" }) : null;
const sqlite = postgres ? null : new Database(target, { readonly: true });
const db = new Kysely<never>({ dialect: pool ? new PostgresDialect({ pool }) : new SqliteDialect({ database: sqlite! }), log }) as unknown as Db;

const now = Date.now();
const days = parsePeriod({}, now);
const months = parseMonths({}, now);
const monthly = new Set(["warehouseMonthReport", "repairDetailReport"]);
const asked: Record<string, Record<string, unknown>> = { batchTrace: { keyword: "S1-1" } };

for (const [name, query] of Object.entries(zhhqReportQueries)) {
  sent.length = 0;
  const started = performance.now();
  const result = await query(db, 1, { ...(monthly.has(name) ? months : days), ...asked[name] } as never);
  const ms = Math.round(performance.now() - started);
  console.log(`\n## ${name}: ${result.rows.length} rows${result.truncated ? ` (+${result.truncated})` : ""}, ${ms} ms, ${sent.length} statements`);
  for (const q of [...sent]) {
    console.log(`\n${q.sql.replace(/\s+/g, " ").slice(0, 600)}`);
    const plan = pool
      ? (await pool.query(`explain (analyze, costs off) ${q.sql}`, q.parameters as unknown[])).rows.map((r) => r["QUERY PLAN"])
      : sqlite!.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])).map((r) => (r as { detail: string }).detail);
    for (const line of plan) console.log(`    ${line}`);
  }
}
await db.destroy();
