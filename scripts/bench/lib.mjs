// Shared parts of `npm run bench`: the server under test, seeding, load generation and the yardsticks. A scenario
// (scripts/bench/scenarios/*.mjs) uses these; scripts/bench.mjs runs the scenarios and writes the table.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import pg from "pg";

export const env = process.env;
export const USERS = Number(env.BENCH_USERS ?? 20_000);
export const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
export const SECONDS = Number(env.BENCH_SECONDS ?? 8);
export const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 4);
export const LIGHTHOUSE_RUNS = Number(env.BENCH_LIGHTHOUSE_RUNS ?? 3);
export const PORT = Number(env.BENCH_PORT ?? 3600);
export const BARE_PORT = PORT + 1;
/** The bench's server answers a document step without HTTP here, in its own process (server/benchHook.ts). */
export const HOOK_PORT = PORT + 3;
export const ADMIN_PASSWORD = "Bench-Admin-Pass-2026";
export const dir = "bench/data";
export const TENANT = 1;
export const OTHER_TENANT = 2;
export const BASE = `http://127.0.0.1:${PORT}`;

export const log = (...args) => console.error("[bench]", ...args);
export const enc = (s) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export function build() {
  log("building the production app…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("build failed");
}

/**
 * `npm start` on PORT; `{ port, args }` start another entry on the same build (e.g. react-router-serve), `stdout:
 * "ignore"` drops a server's log lines (morgan writes one per request, which the bench would otherwise read under load);
 * `readySeconds` is how long it may take to answer /healthz (a server migrating a large database takes minutes).
 */
/**
 * The Node flags the server runs with wherever an operator starts it (`npm start`, `npm run serve`, the systemd unit):
 * a heap sized for a small server (decision 097). The bench and the soak measure that server.
 */
export const SERVER_NODE_FLAGS = ["--max-old-space-size=1024"];

export function startServer(databaseUrl, { port = PORT, args = ["scripts/start.mjs", "--no-build"], stdout = "pipe", readySeconds = 60 } = {}) {
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the servers under a scenario (Node refuses
  // --cpu-prof in NODE_OPTIONS); each writes its profile when the bench stops it.
  const nodeArgs = env.BENCH_NODE_ARGS ? env.BENCH_NODE_ARGS.split(/\s+/).filter(Boolean) : [];
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, ...args], {
    env: {
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      CANTEEN_CAPTCHA: "off",
      CANTEEN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CANTEEN_BENCH: "1",
      ...(port === PORT ? { CANTEEN_BENCH_PORT: String(HOOK_PORT) } : {}),
      LOGIN_RATE_PER_MINUTE: "100000",
    },
    stdio: ["ignore", stdout, "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  let stopping = false;
  // A server that quits under a scenario is otherwise only an ECONNREFUSED: say how it ended and what it said last.
  child.once("exit", (code, signal) => {
    if (!stopping) console.error(`[bench] the server on port ${port} exited (${signal ?? `code ${code}`}) under the bench; its last output:\n${output.slice(-4000)}`);
  });
  return {
    child,
    ready: (async () => {
      for (let i = 0; i < readySeconds * 4; i++) {
        if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
        try {
          if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
        } catch {
          // not yet
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`server did not start:\n${output}`);
    })(),
    stop: () => {
      stopping = true;
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM"))));
    },
  };
}

/** SQL giving the rows i = 1…n (a column `i`), for seeding with set operations. */
export const series = (dialect, n) =>
  dialect === "sqlite"
    ? `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s`
    : `select i from generate_series(1, ${n}) as i`;

/** SQL text `prefix` followed by i zero-padded to `width` digits. */
export const padded = (dialect, prefix, width) =>
  dialect === "sqlite" ? `'${prefix}' || substr('0000000' || i, -${width})` : `'${prefix}' || lpad(i::text, ${width}, '0')`;

// Large tables are filled with SQL set operations so seeding a million rows takes seconds.
export function seedSql(dialect) {
  const now = Date.now();
  const name = (prefix, width) => padded(dialect, prefix, width);
  return [
    `insert into tenant (id, tenant_name, tenant_code, status, created_at, updated_at) values (${OTHER_TENANT}, '第二租户', 'second', 1, ${now}, ${now}) on conflict do nothing`,
    `insert into "user" (tenant_id, id, user_name, password_hash, pwd_security_level, real_name, user_code, phone, sex, org_id, status, created_at, updated_at)
       select case when i % 10 = 0 then ${OTHER_TENANT} else ${TENANT} end, 100000 + i, ${name("bench", 6)},
              (select password_hash from "user" where id = 1), 2, ${name("职工", 6)}, ${name("U", 6)},
              ${name("1380000", 4)}, i % 2, null, case when i % 7 = 0 then 2 else 1 end, ${now} - i * 1000, ${now} - i * 1000
       from (${series(dialect, USERS + Math.ceil(USERS / 9))}) as s`,
    `insert into login_name (user_name, tenant_id, user_id) select user_name, tenant_id, id from "user" where id > 100000`,
    `insert into operation_log (tenant_id, id, user_id, user_name, module, entity, entity_id, action, changes, ip, created_at)
       select ${TENANT}, 10000000 + i, 1, 'admin', 'zhct', 'zhct/mealOrder', i,
              case i % 3 when 0 then 'create' when 1 then 'update' else 'delete' end,
              '{"amount":[1200,1500]}', '127.0.0.1', ${now} - i * 60
       from (${series(dialect, ROWS)}) as s`,
  ];
}

/**
 * Runs a bench script of bench/ (TypeScript, through vite-node) with `target` as its argument and resolves to the JSON
 * of its last stdout line. Seeding takes minutes at full size: its stderr lines that begin with `prefix` are passed
 * on, so the run shows it is alive.
 */
export function runScript(script, target, prefix) {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["vite-node", script, target], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => {
      stderr = (stderr + c).slice(-20_000);
      for (const line of String(c).split("\n")) if (line.startsWith(prefix)) log(line);
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = stdout.split("\n").filter((l) => l.startsWith("{")).at(-1);
      if (code !== 0 || !line) return reject(new Error(`${script} failed (${code}):\n${stderr}`));
      resolve(JSON.parse(line));
    });
  });
}

export async function assertPortFree() {
  const answered = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(() => true, () => false);
  if (answered) throw new Error(`port ${PORT} is already serving; stop that server or set BENCH_PORT`);
}

/** Migrates and seeds `file` afresh, then adds the bulk rows: seedSql's and the scenarios' `seed(dialect)` statements. */
export async function prepareSqlite(file, more = () => []) {
  await assertPortFree();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = startServer(file); // migrates and seeds the base data
  await server.ready;
  await server.stop();
  log(`seeding SQLite: ${USERS} users, ${ROWS} operation-log rows…`);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.transaction(() => [...seedSql("sqlite"), ...more("sqlite")].forEach((s) => db.exec(s)))();
  db.exec("analyze");
  db.close();
}

/** As prepareSqlite, in the schema `bench` of `url` (dropped first); returns the URL that selects the schema. */
export async function preparePostgres(url, more = () => []) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("drop schema if exists bench cascade");
  await admin.query("create schema bench");
  await admin.end();
  const schemaUrl = `${url}${url.includes("?") ? "&" : "?"}options=-c%20search_path%3Dbench`;
  const server = startServer(schemaUrl);
  await server.ready;
  await server.stop();
  log(`seeding PostgreSQL: ${USERS} users, ${ROWS} operation-log rows…`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("set search_path = bench");
  for (const statement of [...seedSql("postgres"), ...more("postgres")]) await client.query(statement);
  // Vacuumed as well as analysed: a database in service is autovacuumed, and without the visibility map every
  // index-only scan of the fresh seed reads the table too.
  await client.query("vacuum (analyze)");
  await client.end();
  return schemaUrl;
}

export async function signIn() {
  const login = await fetch(`http://127.0.0.1:${PORT}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: enc("admin"), password: enc(ADMIN_PASSWORD) }),
  });
  const token = (await login.json()).data.token;
  await fetch(`http://127.0.0.1:${PORT}/api/v1/auth/user/modifyPasswd`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ oldPassword: ADMIN_PASSWORD, newPassword: `${ADMIN_PASSWORD}!` }),
  });
  return token;
}

/** A call to the API as `auth` (a GET without `body`): its envelope's data, or an error naming the path. */
export async function apiCall(auth, path, body) {
  const response = await fetch(`${BASE}${path}`, { method: body ? "POST" : "GET", headers: { "Content-Type": "application/json", ...auth }, body: body ? JSON.stringify(body) : undefined });
  const answer = await response.json();
  if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer).slice(0, 500)}`);
  return answer.data;
}

/** Work without HTTP in the server under test (server/benchHook.ts): a step, its floor, a receipt, 生成, CPU time. */
export async function hookCall(path, body) {
  const response = await fetch(`http://127.0.0.1:${HOOK_PORT}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`bench hook ${path}: ${JSON.stringify(answer).slice(0, 500)}`);
  return answer;
}

/** GETs `url` under load; with `body` (a function), POSTs a fresh JSON body each request (e.g. a random diner). */
export function load(url, headers = {}, seconds = SECONDS, body = undefined) {
  const post = body ? { method: "POST", headers: { "Content-Type": "application/json", ...headers }, requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }] } : { headers };
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, ...post }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 });
    });
  });
}

/**
 * Cases measured in the order A B … B A, half the time each: the machine's speed drifts over a run (up to 2× on
 * these shared cores), and a case measured after the other would carry the drift into their ratio. A case is
 * `[url, headers, before, body]`; `before` (optional) runs before each of its measurements (e.g. switching seeded
 * data); `body` (optional) makes the case a POST of that function's result, as `load` does.
 */
export async function loadRound(...cases) {
  const half = Math.max(1, Math.round(SECONDS / 2));
  const measure = async ([url, headers, before, body], seconds) => {
    if (before) await before();
    return load(url, headers, seconds, body);
  };
  // A second of each first, unmeasured, so none pays for warming the code paths.
  for (const c of cases) await measure(c, 1);
  const first = [];
  for (const c of cases) first.push(await measure(c, half));
  const second = [];
  for (const c of [...cases].reverse()) second.unshift(await measure(c, half));
  const merge = (x, y) => ({ rps: Math.round((x.rps + y.rps) / 2), p50: Math.round((x.p50 + y.p50) / 2), p99: Math.max(x.p99, y.p99) });
  return cases.map((_, i) => merge(first[i], second[i]));
}

/** The HTML of a page as a signed-in browser gets it: raw and gzip bytes. */
export async function htmlBytes(path, token) {
  const html = Buffer.from(await (await fetch(`${BASE}${path}`, { headers: { Cookie: `Admin-Token=${token}` } })).arrayBuffer());
  return { raw: html.length, gzip: gzipSync(html, { level: 6 }).length };
}

/**
 * A server answering every request with the results of `statements` (bound values; compiled once on SQLite). They
 * run together on PostgreSQL, as the API runs a page and its total, unless `sequential`: then a statement's text
 * and values may follow from the results before it, as the API's second query follows its first.
 */
export function bareHandler(dialect, databaseUrl, { statements, answer, sequential = false }) {
  // Each call gives the next placeholder of one statement: `?` on SQLite, `$1`, `$2`… on PostgreSQL.
  const placeholders = () => {
    let n = 0;
    return () => (dialect === "sqlite" ? "?" : `$${++n}`);
  };
  const argsOf = (statement, results) => (typeof statement.args === "function" ? statement.args(results) : statement.args);
  let run;
  if (dialect === "sqlite") {
    const db = new Database(databaseUrl, { readonly: true });
    const compiled = new Map();
    const prepare = (text) => compiled.get(text) ?? compiled.set(text, db.prepare(text)).get(text);
    run = async (statement, results) => prepare(statement.sql(placeholders(), results)).all(...argsOf(statement, results));
  } else {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    run = async (statement, results) => (await pool.query(statement.sql(placeholders(), results), argsOf(statement, results))).rows;
  }
  const query = async () => {
    if (!sequential) return answer(await Promise.all(statements.map((statement) => run(statement, []))));
    const results = [];
    for (const statement of statements) results.push(await run(statement, results));
    return answer(results);
  };
  return serveBare(query);
}

/** A server on BARE_PORT answering each request with `respond(body)` as JSON (`body`: the request's JSON, if any). */
export function serveBare(respond) {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", async () => {
      const body = JSON.stringify(await respond(text ? JSON.parse(text) : undefined));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(BARE_PORT, "127.0.0.1", () => resolve(server)));
}

/** The object literal assigned to `name` in the page's bootstrap script. */
export function inlineObject(html, name) {
  const start = html.indexOf("{", html.indexOf(`${name} = `));
  let depth = 0;
  for (let i = start; i < html.length; i++) {
    if (html[i] === "{") depth++;
    else if (html[i] === "}" && --depth === 0) return JSON.parse(html.slice(start, i + 1));
  }
  throw new Error(`${name} not found`);
}

/**
 * Script and style bytes a page loads before it is interactive (raw and gzip), from the build's manifest: the
 * stylesheets in the HTML, and the modules its bootstrap imports (entry and matched routes) with their static
 * imports as React Router's manifest lists them. Code a page loads later (lazily) is not counted here.
 */
export async function pageBytes(path, token) {
  const html = await (await fetch(`http://127.0.0.1:${PORT}${path}`, { headers: { Cookie: `Admin-Token=${token}` } })).text();
  const urls = new Set();
  for (const match of html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)) urls.add(match[1]);
  // A page that is not hydrated (the sign-in page, decision 019) has no manifest and loads no modules.
  if (html.includes("window.__reactRouterManifest")) {
    const manifest = inlineObject(html, "window.__reactRouterManifest");
    const routeModules = new Set([...html.matchAll(/import \* as route\d+ from "([^"]+)"/g)].map((m) => m[1]));
    const entries = [manifest.entry, ...Object.values(manifest.routes).filter((route) => routeModules.has(route.module))];
    for (const entry of entries) for (const url of [entry.module, ...(entry.imports ?? []), ...(entry.css ?? [])]) urls.add(url);
  }
  const total = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  if (!html.includes("window.__reactRouterManifest")) {
    // Its inline scripts are then all its code (the captcha's refresh).
    const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
    total.js.raw += Buffer.byteLength(inline);
    total.js.gzip += inline ? gzipSync(inline, { level: 9 }).length : 0;
  }
  for (const url of urls) {
    const file = join("build/client", url);
    if (!existsSync(file)) continue;
    const content = readFileSync(file);
    const kind = url.endsWith(".css") ? "css" : "js";
    total[kind].raw += content.length;
    total[kind].gzip += gzipSync(content, { level: 9 }).length;
  }
  return total;
}

export async function runLighthouse(paths, token) {
  if (!existsSync("/usr/bin/chromium") || LIGHTHOUSE_RUNS < 1) return null;
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const results = {};
  for (const [name, path] of Object.entries(paths)) {
    const runs = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      const chrome = await chromeLauncher.launch({
        chromePath: "/usr/bin/chromium",
        chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      });
      try {
        const result = await lighthouse(
          `http://127.0.0.1:${PORT}${path}`,
          { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], extraHeaders: name === "login" ? undefined : { Cookie: `Admin-Token=${token}` } },
        );
        const audits = result.lhr.audits;
        if (result.lhr.runtimeError) {
          // A failed trace (NO_NAVSTART now and then) has no metrics; the median is taken over the runs that worked.
          log("lighthouse:", result.lhr.runtimeError.message);
          continue;
        }
        const value = (id) => audits[id]?.numericValue ?? Number.NaN;
        // All scripts the page fetched until it settled, including code loaded after hydration.
        const scripts = audits["resource-summary"]?.details?.items?.find((item) => item.resourceType === "script");
        runs.push({
          jsAll: scripts ? scripts.transferSize : null,
          score: result.lhr.categories.performance.score,
          lcp: Math.round(value("largest-contentful-paint")),
          tbt: Math.round(value("total-blocking-time")),
          cls: Number(value("cumulative-layout-shift").toFixed(3)),
        });
      } finally {
        await chrome.kill();
      }
    }
    runs.sort((a, b) => a.score - b.score);
    results[name] = runs.length ? runs[Math.floor(runs.length / 2)] : null;
  }
  return results;
}

/** A process's resident memory now (kB), from /proc. */
export function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : 0;
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * p) - 1)];

/**
 * p50/p95 of `samples` sequential GETs of each path, taken in turn (A B A B …) so the machine's drift lands on every
 * path alike: one request at a time on loopback, so each time is the server's own for that page.
 */
export async function alternatingTimes(paths, headers, samples) {
  const ms = paths.map(() => []);
  for (let i = 0; i < samples + 2; i++) {
    for (const [at, path] of paths.entries()) {
      const started = performance.now();
      const response = await fetch(`${BASE}${path}`, { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      if (i >= 2) ms[at].push(performance.now() - started); // the first two warm the route
    }
  }
  return ms.map((times) => ({ p50: Math.round(percentile(times, 0.5)), p95: Math.round(percentile(times, 0.95)) }));
}
