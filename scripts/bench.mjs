// `npm run bench`: builds the production app, seeds a benchmark database at scale, and measures the API,
// server rendering, bundle sizes and (with Chromium) Lighthouse. Loopback only; every run is bounded.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import pg from "pg";

const env = process.env;
const USERS = Number(env.BENCH_USERS ?? 20_000);
const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 4);
const LIGHTHOUSE_RUNS = Number(env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const PORT = Number(env.BENCH_PORT ?? 3600);
const BARE_PORT = PORT + 1;
const ADMIN_PASSWORD = "Bench-Admin-Pass-2026";
const dir = "bench/data";
const TENANT = 1;
const OTHER_TENANT = 2;
// The list query under test: 20 rows, one filter, newest first, a late page.
/** `BENCH_CASES=menus` runs only the canteen's cases (with small BENCH_USERS / BENCH_ROWS, a quick check). */
const ONLY_MENUS = env.BENCH_CASES === "menus";
/** `BENCH_CASES=settle` runs only the month settlement (bench/settle.ts, BENCH_SETTLE_DINERS diners, default 20,000). */
const ONLY_SETTLE = env.BENCH_CASES === "settle";
const SETTLE_DINERS = Number(env.BENCH_SETTLE_DINERS ?? 20_000);
const FIND_PAGE_QUERY = { pageSize: 20, pageNum: 100, action: "update", sort: "time,desc" };

const log = (...args) => console.error("[bench]", ...args);
const enc = (s) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;

function build() {
  log("building the production app…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("build failed");
}

function startServer(databaseUrl) {
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
    env: {
      ...env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      CANTEEN_CAPTCHA: "off",
      CANTEEN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CANTEEN_BENCH: "1",
      LOGIN_RATE_PER_MINUTE: "100000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  return {
    child,
    ready: (async () => {
      for (let i = 0; i < 240; i++) {
        if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
        try {
          if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return;
        } catch {
          // not yet
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`server did not start:\n${output}`);
    })(),
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))),
  };
}

// Large tables are filled with SQL set operations so seeding a million rows takes seconds.
function seedSql(dialect) {
  const series = (n) =>
    dialect === "sqlite"
      ? `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s`
      : `select i from generate_series(1, ${n}) as i`;
  const now = Date.now();
  const name = (prefix, width) =>
    dialect === "sqlite" ? `'${prefix}' || substr('0000000' || i, -${width})` : `'${prefix}' || lpad(i::text, ${width}, '0')`;
  return [
    `insert into tenant (id, tenant_name, tenant_code, status, created_at, updated_at) values (${OTHER_TENANT}, '第二租户', 'second', 1, ${now}, ${now}) on conflict do nothing`,
    `insert into "user" (tenant_id, id, user_name, password_hash, pwd_security_level, real_name, user_code, phone, sex, org_id, status, created_at, updated_at)
       select case when i % 10 = 0 then ${OTHER_TENANT} else ${TENANT} end, 100000 + i, ${name("bench", 6)},
              (select password_hash from "user" where id = 1), 2, ${name("职工", 6)}, ${name("U", 6)},
              ${name("1380000", 4)}, i % 2, null, case when i % 7 = 0 then 2 else 1 end, ${now} - i * 1000, ${now} - i * 1000
       from (${series(USERS + Math.ceil(USERS / 9))}) as s`,
    `insert into login_name (user_name, tenant_id, user_id) select user_name, tenant_id, id from "user" where id > 100000`,
    `insert into operation_log (tenant_id, id, user_id, user_name, module, entity, entity_id, action, changes, ip, created_at)
       select ${TENANT}, 10000000 + i, 1, 'admin', 'zhct', 'zhct/mealOrder', i,
              case i % 3 when 0 then 'create' when 1 then 'update' else 'delete' end,
              '{"amount":[1200,1500]}', '127.0.0.1', ${now} - i * 60
       from (${series(ROWS)}) as s`,
  ];
}

async function assertPortFree() {
  const answered = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(() => true, () => false);
  if (answered) throw new Error(`port ${PORT} is already serving; stop that server or set BENCH_PORT`);
}

async function prepareSqlite(file) {
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
  db.transaction(() => seedSql("sqlite").forEach((s) => db.exec(s)))();
  db.exec("analyze");
  db.close();
}

async function preparePostgres(url) {
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
  for (const statement of seedSql("postgres")) await client.query(statement);
  await client.query("analyze");
  await client.end();
  return schemaUrl;
}

async function signIn() {
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

function load(url, headers = {}, seconds = SECONDS) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 });
    });
  });
}

/**
 * Two cases measured in the order A B B A, half the time each: the machine's speed drifts over a run (up to 2× on
 * these shared cores), and a case measured after the other would carry the drift into their ratio.
 */
async function loadPair([urlA, headersA], [urlB, headersB]) {
  const half = Math.max(1, Math.round(SECONDS / 2));
  // A second of each first, unmeasured, so neither pays for warming the code paths.
  await load(urlA, headersA, 1);
  await load(urlB, headersB, 1);
  const a1 = await load(urlA, headersA, half);
  const b1 = await load(urlB, headersB, half);
  const b2 = await load(urlB, headersB, half);
  const a2 = await load(urlA, headersA, half);
  const merge = (x, y) => ({ rps: Math.round((x.rps + y.rps) / 2), p50: Math.round((x.p50 + y.p50) / 2), p99: Math.max(x.p99, y.p99) });
  return [merge(a1, a2), merge(b1, b2)];
}

/**
 * The same findPage query with raw SQL: no token, validation, permission or envelope. Its values are bound, as the
 * API binds them: a value written into the SQL text makes a different statement (SQLite runs this page about 20 µs
 * faster with literals), and a handler that takes its filter from a request would not write it into the SQL.
 */
function findPageStatements() {
  const { pageSize, pageNum, action } = FIND_PAGE_QUERY;
  const offset = (pageNum - 1) * pageSize;
  // The engine's capped total: a row beyond 10,000 means "more"; only below that are rows counted.
  const where = (p) => `from operation_log where tenant_id = ${p()} and action = ${p()}`;
  return {
    statements: [
      { sql: (p) => `select * from operation_log where tenant_id = ${p()} and action = ${p()} order by created_at desc, id desc limit ${p()} offset ${p()}`, args: [TENANT, action, pageSize, offset] },
      { sql: (p) => `select coalesce((select 10001 ${where(p)} limit 1 offset 10000), (select count(*) ${where(p)})) as total`, args: [TENANT, action, TENANT, action] },
    ],
    answer: ([records, [count]]) => ({ records, total: Number(count.total) }),
  };
}

/**
 * A server answering every request with the results of `statements` (bound values; compiled once on SQLite). They
 * run together on PostgreSQL, as the API runs a page and its total, unless `sequential`: then a statement's text
 * and values may follow from the results before it, as the API's second query follows its first.
 */
function bareHandler(dialect, databaseUrl, { statements, answer, sequential = false }) {
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
  const server = createServer(async (_req, res) => {
    const body = JSON.stringify(await query());
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(BARE_PORT, "127.0.0.1", () => resolve(server)));
}

/**
 * The canteen's menus (issue 11): 4 meal types × 30 dishes for one restaurant, their weekday templates written
 * through the API, then batch-create of 31 days per meal type (3 months, median), and findByDate of a published day.
 */
const MENU_TYPES = ["breakfast", "lunch", "dinner", "midnight"];
const MENU_FOODS = 30;
const MENU_MONTHS = [["2027-01-01", "2027-01-31"], ["2027-03-01", "2027-03-31"], ["2027-05-01", "2027-05-31"]];
const MENU_DAY = "2027-01-04";

async function prepareMenus(token) {
  const call = async (path, body) => {
    const response = await fetch(`http://127.0.0.1:${PORT}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const envelope = await response.json();
    if (envelope.status !== 200) throw new Error(`${path}: ${envelope.message}`);
    return envelope.data;
  };
  const restaurant = await call("/api/v1/auth/org/create", { orgName: "压测餐厅", orgType: "restaurant", sort: 0, status: "1" });
  const category = await call("/api/v1/zhct/foodType/create", { typeName: "压测分类", sort: 0, status: "1" });
  const foods = [];
  for (let i = 0; i < MENU_FOODS; i++) {
    foods.push(await call("/api/v1/zhct/food/create", { foodName: `压测菜品${i}`, foodTypeId: category.id, restaurantId: restaurant.id, price: 500 + i * 10, onShelf: "1", unit: "份" }));
  }
  const types = [];
  for (const [n, mealType] of MENU_TYPES.entries()) {
    const template = await call("/api/v1/zhct/foodMenuTypeTemplate/create", { typeName: `压测模板${n}`, restaurantId: restaurant.id, mealType, menuMode: "2", sort: n, status: "1" });
    for (let week = 1; week <= 7; week++) {
      await Promise.all(foods.map((food, sort) => call("/api/v1/zhct/foodMenuTemplate/create", { templateTypeId: template.id, week: String(week), foodId: food.id, sort })));
    }
    types.push(await call("/api/v1/zhct/foodMenuType/create", { typeName: `压测${mealType}`, restaurantId: restaurant.id, mealType, menuMode: "2", templateTypeId: template.id, sort: n, status: "1" }));
  }
  const runs = [];
  for (const [beginDate, endDate] of MENU_MONTHS) {
    const started = performance.now();
    let rows = 0;
    for (const type of types) {
      const result = await call("/api/v1/zhct/foodMenu/batchCreate", { foodMenuTypeId: type.id, beginDate, endDate });
      rows += result.created * (1 + MENU_FOODS);
    }
    const ms = performance.now() - started;
    runs.push({ ms: Math.round(ms), rows, rowsPerSecond: Math.round(rows / (ms / 1000)) });
  }
  const menus = await (await fetch(`http://127.0.0.1:${PORT}/api/v1/zhct/foodMenu/findPage?pageSize=10&menuDateBegin=${MENU_DAY}&menuDateEnd=${MENU_DAY}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  for (const menu of menus.data.records) await call("/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  runs.sort((a, b) => a.ms - b.ms);
  return { restaurantId: restaurant.id, batch: { days: 31, mealTypes: MENU_TYPES.length, items: MENU_FOODS, runs, median: runs[1] } };
}

/** findByDate's two queries (server/modules/zhct/menus.ts) with raw SQL: the day's menus, then their items. */
function findByDateStatements(restaurantId) {
  return {
    sequential: true,
    statements: [
      {
        sql: (p) => `select m.id, m.menu_date, m.food_menu_type_id, t.type_name, m.meal_type, m.restaurant_id, t.stall_id, t.meal_time_id
          from food_menu as m inner join food_menu_type as t on t.tenant_id = m.tenant_id and t.id = m.food_menu_type_id
          where m.tenant_id = ${p()} and m.menu_date = ${p()} and m.status = ${p()} and m.restaurant_id = ${p()} order by t.sort, m.id`,
        args: [TENANT, MENU_DAY, 1, restaurantId],
      },
      {
        sql: (p, [menus]) => `select i.food_menu_id, i.id, i.food_id, f.food_name, f.unit, f.image, f.dish_class, i.price, i.quota, i.sold_count
          from food_menu_item as i inner join food as f on f.tenant_id = i.tenant_id and f.id = i.food_id
          where i.tenant_id = ${p()} and i.food_menu_id in (${menus.map(() => p()).join(", ")}) order by i.food_menu_id, i.sort, i.id`,
        args: ([menus]) => [TENANT, ...menus.map((m) => m.id)],
      },
    ],
    answer: ([menus, items]) => menus.map((m) => ({ ...m, items: items.filter((i) => i.food_menu_id === m.id) })),
  };
}

/** The object literal assigned to `name` in the page's bootstrap script. */
function inlineObject(html, name) {
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
async function pageBytes(path, token) {
  const html = await (await fetch(`http://127.0.0.1:${PORT}${path}`, { headers: { Cookie: `Admin-Token=${token}` } })).text();
  const urls = new Set();
  for (const match of html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)) urls.add(match[1]);
  const manifest = inlineObject(html, "window.__reactRouterManifest");
  const routeModules = new Set([...html.matchAll(/import \* as route\d+ from "([^"]+)"/g)].map((m) => m[1]));
  const entries = [manifest.entry, ...Object.values(manifest.routes).filter((route) => routeModules.has(route.module))];
  for (const entry of entries) for (const url of [entry.module, ...(entry.imports ?? []), ...(entry.css ?? [])]) urls.add(url);
  const total = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
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

async function runLighthouse(paths, token) {
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

async function measure(dialect, databaseUrl, bareUrl) {
  const server = startServer(databaseUrl);
  await server.ready;
  try {
    const token = await signIn();
    const auth = { Authorization: `Bearer ${token}` };
    const cookie = { Cookie: `Admin-Token=${token}` };
    const query = new URLSearchParams(Object.entries(FIND_PAGE_QUERY).map(([k, v]) => [k, String(v)])).toString();
    const userQuery = "pageSize=20&sort=userName,asc&pageNum=200";
    const result = {};
    if (!ONLY_MENUS) {
      const bare = await bareHandler(dialect, bareUrl, findPageStatements());
      log(`${dialect}: API findPage vs bare handler…`);
      const [api, raw] = await loadPair([`http://127.0.0.1:${PORT}/api/v1/sys/operationLog/findPage?${query}`, auth], [`http://127.0.0.1:${BARE_PORT}/`, {}]);
      await new Promise((r) => bare.close(r));
      log(`${dialect}: list SSR vs plain table…`);
      const [ssr, plain] = await loadPair([`http://127.0.0.1:${PORT}/admin/auth/user/index?${userQuery}`, cookie], [`http://127.0.0.1:${PORT}/bench/plain/auth/user?${userQuery}`, cookie]);
      result.api = { findPage: api, bare: raw, ratio: Number((api.rps / raw.rps).toFixed(2)) };
      result.ssr = { list: ssr, plain, ratio: Number((ssr.rps / plain.rps).toFixed(2)) };
    }
    log(`${dialect}: menus, batch create (31 days × ${MENU_TYPES.length} meal types × ${MENU_FOODS} dishes)…`);
    const menus = await prepareMenus(token);
    const bareMenus = await bareHandler(dialect, bareUrl, findByDateStatements(menus.restaurantId));
    log(`${dialect}: findByDate vs bare handler…`);
    const [day, rawDay] = await loadPair([`http://127.0.0.1:${PORT}/api/v1/zhct/foodMenu/findByDate?date=${MENU_DAY}&restaurantId=${menus.restaurantId}`, auth], [`http://127.0.0.1:${BARE_PORT}/`, {}]);
    await new Promise((r) => bareMenus.close(r));
    result.menus = { batch: menus.batch, findByDate: day, bare: rawDay, ratio: Number((day.rps / rawDay.rps).toFixed(2)) };
    log(JSON.stringify(result));
    if (dialect === "sqlite" && !ONLY_MENUS) {
      result.bytes = { login: await pageBytes("/login", ""), list: await pageBytes(`/admin/auth/user/index?${userQuery}`, token) };
      log("Lighthouse (mobile)…");
      result.lighthouse = await runLighthouse({ login: "/login", list: `/admin/auth/user/index?${userQuery}` }, token);
    }
    return result;
  } finally {
    await server.stop();
  }
}

/** Month settlement in a database of its own (bench/settle.ts): seconds to generate a month and to make it formal. */
function measureSettlement(target) {
  log(`month settlement of ${SETTLE_DINERS} diners (${target.startsWith("postgres") ? "PostgreSQL" : "SQLite"})…`);
  const run = spawnSync("npx", ["vite-node", "bench/settle.ts", target], { encoding: "utf8", env: { ...env, BENCH_SETTLE_DINERS: String(SETTLE_DINERS) }, maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`settlement bench failed:\n${run.stderr}`);
  const result = JSON.parse(run.stdout.split("\n").filter((l) => l.startsWith("{")).at(-1));
  log(JSON.stringify(result));
  return result;
}

const settlementCell = (r) => (r?.settlement ? `generate ${r.settlement.generateSeconds} s, make formal ${r.settlement.formalSeconds} s (${r.settlement.accounts} accounts, ${r.settlement.ledgerLines} lines)` : "—");

if (ONLY_SETTLE) {
  mkdirSync(dir, { recursive: true });
  const only = { sqlite: { settlement: measureSettlement(join(dir, "settle.db")) } };
  if (env.BENCH_DATABASE_URL) only.postgres = { settlement: measureSettlement(env.BENCH_DATABASE_URL) };
  console.log(`| measure | SQLite | PostgreSQL |\n|---|---|---|\n| month settlement, ${SETTLE_DINERS} diners | ${settlementCell(only.sqlite)} | ${only.postgres ? settlementCell(only.postgres) : "not run"} |`);
  process.exit(0);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function table(results) {
  const lines = ["| measure | SQLite | PostgreSQL |", "|---|---|---|"];
  const cell = (r) => (r ? `${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms` : "—");
  const both = (label, pick) => lines.push(`| ${label} | ${pick(results.sqlite) ?? "—"} | ${results.postgres ? (pick(results.postgres) ?? "—") : "not run"} |`);
  const menuRows = (r) => {
    const m = r.menus.batch.median;
    return `${m.ms} ms, ${m.rows} rows, ${m.rowsPerSecond} rows/s`;
  };
  const menuLines = () => {
    both("batch-create menus, 31 days × 4 meal types × 30 dishes (median of 3)", menuRows);
    both("API findByDate (4 published menus × 30 dishes)", (r) => cell(r.menus.findByDate));
    both("bare handler, same query", (r) => cell(r.menus.bare));
    both("findByDate / bare", (r) => `${Math.round(r.menus.ratio * 100)} %`);
    return lines.join("\n");
  };
  if (ONLY_MENUS) return menuLines();
  both(`month settlement, ${SETTLE_DINERS} diners`, settlementCell);
  both("API findPage (20 rows, 1 filter, sorted, page 100)", (r) => cell(r.api.findPage));
  both("bare handler, same query", (r) => cell(r.api.bare));
  both("API / bare", (r) => `${Math.round(r.api.ratio * 100)} %`);
  both("list page SSR (users, 20 rows)", (r) => cell(r.ssr.list));
  both("plain Mantine Table page, same rows", (r) => cell(r.ssr.plain));
  both("list SSR / plain", (r) => `${Math.round(r.ssr.ratio * 100)} %`);
  const b = results.sqlite.bytes;
  lines.push(`| JS sign-in page, before it is interactive (raw / gzip) | ${kb(b.login.js.raw)} / ${kb(b.login.js.gzip)} | |`);
  lines.push(`| CSS sign-in page (raw / gzip) | ${kb(b.login.css.raw)} / ${kb(b.login.css.gzip)} | |`);
  lines.push(`| JS list page, before it is interactive (raw / gzip) | ${kb(b.list.js.raw)} / ${kb(b.list.js.gzip)} | |`);
  lines.push(`| CSS list page (raw / gzip) | ${kb(b.list.css.raw)} / ${kb(b.list.css.gzip)} | |`);
  const lh = results.sqlite.lighthouse;
  for (const page of ["login", "list"]) {
    const r = lh?.[page];
    const skipped = LIGHTHOUSE_RUNS < 1 ? "not run" : "no Chromium";
    lines.push(`| Lighthouse mobile, ${page === "login" ? "sign-in" : "list"} page (median of ${LIGHTHOUSE_RUNS}) | ${r ? `score ${r.score}, LCP ${r.lcp} ms, TBT ${r.tbt} ms, CLS ${r.cls}` : skipped} | |`);
    if (r?.jsAll) lines.push(`| JS ${page === "login" ? "sign-in" : "list"} page, all scripts fetched until settled (Lighthouse, transfer) | ${kb(r.jsAll)} | |`);
  }
  return menuLines();
}

build();
const started = Date.now();
const sqliteFile = join(dir, "bench.db");
await prepareSqlite(sqliteFile);
const results = { sqlite: await measure("sqlite", sqliteFile, sqliteFile) };
if (!ONLY_MENUS) results.sqlite.settlement = measureSettlement(join(dir, "settle.db"));
if (env.BENCH_DATABASE_URL) {
  const url = await preparePostgres(env.BENCH_DATABASE_URL);
  results.postgres = await measure("postgres", url, url);
  if (!ONLY_MENUS) results.postgres.settlement = measureSettlement(env.BENCH_DATABASE_URL);
}
const report = {
  date: new Date().toISOString(),
  node: process.version,
  sizes: { users: USERS, operationLogRows: ROWS },
  load: { connections: CONNECTIONS, seconds: SECONDS },
  findPageQuery: FIND_PAGE_QUERY,
  results,
  seconds: Math.round((Date.now() - started) / 1000),
};
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/latest.json", `${JSON.stringify(report, null, 2)}\n`);
console.log(table(results));
console.log(`\nwritten: bench/results/latest.json (${statSync("bench/results/latest.json").size} bytes)`);
