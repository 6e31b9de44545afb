// Issue 39: no request left hanging under saturation. BENCH_SATURATION_CONNECTIONS (100) connections for
// BENCH_SATURATION_SECONDS (60) on the users list page, the sign-in page and the users API, one after the other
// (BENCH_SATURATION_CASES=login,api: only these, in this order); a request unanswered after 30 s is a client timeout.
// The target: every request answered within 10 s, or refused at once with 503 and Retry-After (decision 057), so the
// max and the timeouts are the figures that count.
// BENCH_BASELINE names another checkout with a build of its own (e.g. `git archive main` unpacked and built): its
// server, on the same database, is measured alternately with this one in the same run (A B B A per case), the
// before beside the after on the same minutes of a shared machine.
import { join } from "node:path";
import autocannon from "autocannon";
import { BASE, PORT, env, log, startServer } from "../lib.mjs";
import { LIST_PATH, USER_QUERY } from "./pages.mjs";

const CONNECTIONS = Number(env.BENCH_SATURATION_CONNECTIONS ?? 100);
const SECONDS = Number(env.BENCH_SATURATION_SECONDS ?? 60);
const TIMEOUT_SECONDS = 30;
const BASELINE = env.BENCH_BASELINE;
const BASELINE_PORT = PORT + 6;

function saturate(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, timeout: TIMEOUT_SECONDS }, (error, r) => {
      if (error) return reject(error);
      const busy = r.statusCodeStats?.["503"]?.count ?? 0;
      resolve({ requests: r.requests.total, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, busy, other: r.non2xx - busy, timeouts: r.timeouts, errors: r.errors - r.timeouts });
    });
  });
}

const ALL_CASES = [
  ["list", "users list page", LIST_PATH, "cookie"],
  ["login", "sign-in page", "/login", null],
  ["api", "users API", `/api/v1/auth/user/findPage?${USER_QUERY}`, "auth"],
];
const CASES = env.BENCH_SATURATION_CASES
  ? env.BENCH_SATURATION_CASES.split(",").map((key) => {
      const found = ALL_CASES.find((c) => c[0] === key.trim());
      if (!found) throw new Error(`BENCH_SATURATION_CASES: ${key} is none of ${ALL_CASES.map((c) => c[0]).join(", ")}`);
      return found;
    })
  : ALL_CASES;

export default {
  name: "saturation",
  title: `${CONNECTIONS} connections for ${SECONDS} s`,
  once: true,
  async run(ctx) {
    const baseline = BASELINE ? startServer(ctx.databaseUrl, { port: BASELINE_PORT, args: [join(BASELINE, "scripts/start.mjs"), "--no-build"], stdout: "ignore" }) : null;
    try {
      await baseline?.ready;
      const out = {};
      for (const [key, , path, headers] of CASES) {
        const order = baseline ? ["", "baseline", "baseline", ""] : [""];
        for (const which of order) {
          const result = await saturate(`${which ? `http://127.0.0.1:${BASELINE_PORT}` : BASE}${path}`, headers ? ctx[headers] : {});
          log(`${key}${which && ` (${which})`}`, JSON.stringify(result));
          (out[`${key}${which}`] ??= []).push(result);
        }
      }
      return out;
    } finally {
      await baseline?.stop();
    }
  },
  rows: (r) =>
    CASES.flatMap(([key, title]) =>
      ["", "baseline"].flatMap((which) =>
        (r[`${key}${which}`] ?? []).map((x) => [
          `${title}${which && " (baseline)"}, ${CONNECTIONS} connections × ${SECONDS} s: requests, p50 / p99 / max, 503, other non-2xx, timeouts (${TIMEOUT_SECONDS} s), errors`,
          `${x.requests} (${x.rps} req/s), ${x.p50} / ${x.p99} / ${x.max} ms, ${x.busy}, ${x.other}, ${x.timeouts}, ${x.errors}`,
        ]),
      ),
    ),
};
