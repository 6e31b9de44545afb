// `npm run soak`: memory under sustained load (issue 16). Starts the production server on a fresh database, signs
// in, then loads the list pages with autocannon while it samples the server's resident memory every few seconds:
//   1. server time per list page: one connection, so latency is the server's time per request;
//   2. a soak of SOAK_MINUTES (10) at SOAK_CONNECTIONS (50), rotating over list pages;
//   3. idle for SOAK_IDLE_SECONDS (60): memory should return near where it started;
//   4. a burst of 100 connections for 60 s, then idle again.
// It passes when the soak's plateau (first and last minute) stays under SOAK_TARGET_MIB (450, issue 39: a canteen's
// small server beside its database), the soak ends within 50 MiB of its first-minute plateau and the idle memory after
// it is within 50 MiB of the start (plus the heap V8 keeps warm); the numbers go to bench/results/soak-<dialect>.json.
// `SOAK_DATABASE_URL=postgres://…` runs it on PostgreSQL (schema `soak`).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { SERVER_NODE_FLAGS } from "./bench/lib.mjs";

const env = process.env;
const PORT = Number(env.SOAK_PORT ?? 3700);
const MINUTES = Number(env.SOAK_MINUTES ?? 10);
const CONNECTIONS = Number(env.SOAK_CONNECTIONS ?? 50);
const BURST_CONNECTIONS = Number(env.SOAK_BURST_CONNECTIONS ?? 100);
const BURST_SECONDS = Number(env.SOAK_BURST_SECONDS ?? 60);
const IDLE_SECONDS = Number(env.SOAK_IDLE_SECONDS ?? 60);
const SAMPLE_MS = 5000;
const TOLERANCE_MIB = 50;
const TARGET_MIB = Number(env.SOAK_TARGET_MIB ?? 450);
// Node flags after the server's own (the last of a flag wins), e.g. `--max-old-space-size=4096` to soak without
// decision 097's heap limit.
const NODE_ARGS = env.SOAK_NODE_ARGS ? env.SOAK_NODE_ARGS.split(/\s+/).filter(Boolean) : [];
const ADMIN_PASSWORD = "Soak-Admin-Pass-2026";
const dir = "bench/soak";
const base = `http://127.0.0.1:${PORT}`;
const log = (...args) => console.error("[soak]", ...args);
const enc = (s) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The list pages staff keep open all day; each answers 20 rows.
const PAGES = ["/admin/auth/user/index", "/admin/auth/role/index", "/admin/auth/org/index", "/admin/sys/operationlog/index", "/zhct/food/index"];

async function databaseUrl() {
  const url = env.SOAK_DATABASE_URL;
  if (!url) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return { dialect: "sqlite", url: `${dir}/soak.db` };
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("drop schema if exists soak cascade");
  await admin.query("create schema soak");
  await admin.end();
  return { dialect: "postgres", url: `${url}${url.includes("?") ? "&" : "?"}options=-c%20search_path%3Dsoak` };
}

function startServer(url) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...NODE_ARGS, "scripts/start.mjs", "--no-build"], {
    env: { ...env, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATABASE_URL: url, CANTEEN_CAPTCHA: "off", CANTEEN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOGIN_RATE_PER_MINUTE: "100000" },
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
        if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
        await sleep(250);
      }
      throw new Error(`server did not start:\n${output}`);
    })(),
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))),
  };
}

/** Resident memory of the server process in MiB, as the operating system counts it. */
function rssMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
}

async function api(token, path, body) {
  const response = await fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const envelope = await response.json();
  if (envelope.status !== 200) throw new Error(`${path}: ${envelope.message}`);
  return envelope.data;
}

async function signInAndSeed() {
  const login = await (await fetch(`${base}/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username: enc("admin"), password: enc(ADMIN_PASSWORD) }) })).json();
  const token = login.data.token;
  await api(token, "/api/v1/auth/user/modifyPasswd", { oldPassword: ADMIN_PASSWORD, newPassword: `${ADMIN_PASSWORD}!` });
  // Enough rows that every list page shows a full first page (the writes also fill the operation log).
  const org = await api(token, "/api/v1/auth/org/create", { orgName: "压测餐厅", orgType: "restaurant", sort: 0, status: "1" });
  const category = await api(token, "/api/v1/zhct/foodType/create", { typeName: "压测分类", sort: 0, status: "1" });
  for (let i = 0; i < 40; i++) {
    await api(token, "/api/v1/auth/org/create", { orgName: `压测部门${i}`, orgType: "department", parentId: org.id, sort: i, status: "1" });
    await api(token, "/api/v1/auth/role/create", { roleName: `压测角色${i}`, roleCode: `soak${i}`, roleType: "user", status: "1" });
    await api(token, "/api/v1/zhct/food/create", { foodName: `压测菜品${i}`, foodTypeId: category.id, restaurantId: org.id, price: 500 + i, onShelf: "1", unit: "份" });
    await api(token, "/api/v1/auth/user/create", { userName: `soak${i}`, realName: `压测职工${i}`, password: "Soak-User-Pass-2026", orgId: org.id, status: "1" });
  }
  return token;
}

function load({ connections, seconds, token }) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: base, connections, duration: seconds, timeout: 60, headers: { Cookie: `Admin-Token=${token}` }, requests: PAGES.map((path) => ({ method: "GET", path })) },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > result.timeouts) return reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`));
        // A page that takes longer than the timeout is counted (and fails the verdict) but does not stop the soak.
        resolve({ pagesPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, mean: Math.round(result.latency.mean * 10) / 10, timeouts: result.timeouts });
      },
    );
  });
}

/** Runs `work` while sampling the server's memory; returns the work's result and the samples (seconds, MiB). */
async function sampled(pid, work) {
  const started = Date.now();
  const samples = [];
  const timer = setInterval(() => samples.push([Math.round((Date.now() - started) / 1000), rssMiB(pid)]), SAMPLE_MS);
  try {
    return { result: await work(), samples };
  } finally {
    clearInterval(timer);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  if (!process.argv.includes("--no-build")) {
    log("building the production app…");
    if (spawnSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] }).status !== 0) throw new Error("build failed");
  }
  const { dialect, url } = await databaseUrl();
  const server = startServer(url);
  await server.ready;
  const pid = server.child.pid;
  try {
    const token = await signInAndSeed();
    // Warm every page once so the start is measured after the code has loaded, as an operator's server runs.
    await load({ connections: 2, seconds: 5, token });
    await sleep(5000);
    const start = rssMiB(pid);
    log(`${dialect}: RSS at start ${start} MiB`);
    const single = await load({ connections: 1, seconds: 10, token });
    log(`one connection: ${single.pagesPerSecond} pages/s, mean ${single.mean} ms per page`);

    log(`soak: ${CONNECTIONS} connections for ${MINUTES} min…`);
    const soak = await sampled(pid, () => load({ connections: CONNECTIONS, seconds: MINUTES * 60, token }));
    const firstMinute = soak.samples.filter(([t]) => t >= 30 && t <= 60).map(([, m]) => m);
    const plateau = median(firstMinute);
    const lastMinute = soak.samples.filter(([t]) => t >= MINUTES * 60 - 60).map(([, m]) => m);
    const end = median(lastMinute);
    const peak = Math.max(...soak.samples.map(([, m]) => m));
    log(`soak: ${soak.result.pagesPerSecond} pages/s, p50 ${soak.result.p50} ms, p99 ${soak.result.p99} ms, max ${soak.result.max} ms, ${soak.result.timeouts} over 60 s; RSS plateau ${plateau}, peak ${peak}, end ${end} MiB`);
    const idle = await sampled(pid, () => sleep(IDLE_SECONDS * 1000));
    const afterSoak = idle.samples.at(-1)[1];
    log(`after ${IDLE_SECONDS} s idle: ${afterSoak} MiB`);

    log(`burst: ${BURST_CONNECTIONS} connections for ${BURST_SECONDS} s…`);
    const burst = await sampled(pid, () => load({ connections: BURST_CONNECTIONS, seconds: BURST_SECONDS, token }));
    const burstPeak = Math.max(...burst.samples.map(([, m]) => m));
    const idle2 = await sampled(pid, () => sleep(IDLE_SECONDS * 1000));
    const afterBurst = idle2.samples.at(-1)[1];
    log(`burst: ${burst.result.pagesPerSecond} pages/s, p50 ${burst.result.p50} ms, p99 ${burst.result.p99} ms; RSS peak ${burstPeak}, after idle ${afterBurst} MiB`);

    const verdict = {
      underTarget: Math.max(plateau, end) <= TARGET_MIB,
      flat: end - plateau <= TOLERANCE_MIB,
      returns: afterSoak - start <= TOLERANCE_MIB && afterBurst - start <= TOLERANCE_MIB,
      noTimeouts: soak.result.timeouts === 0 && burst.result.timeouts === 0,
    };
    const report = {
      dialect, pages: PAGES, connections: CONNECTIONS, minutes: MINUTES, targetMiB: TARGET_MIB, renders: env.MAX_RENDERS_AT_ONCE ?? "default", start, single,
      soak: { ...soak.result, plateau, peak, end, afterIdle: afterSoak, samples: soak.samples },
      burst: { connections: BURST_CONNECTIONS, seconds: BURST_SECONDS, ...burst.result, peak: burstPeak, afterIdle: afterBurst },
      verdict,
    };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(`bench/results/soak-${dialect}.json`, `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify({ dialect, start, single, soak: { ...soak.result, plateau, peak, end, afterIdle: afterSoak }, burst: report.burst, verdict }, null, 2));
    if (!verdict.underTarget) log(`RSS plateau ${Math.max(plateau, end)} MiB is over the ${TARGET_MIB} MiB target`);
    if (Object.values(verdict).includes(false)) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
