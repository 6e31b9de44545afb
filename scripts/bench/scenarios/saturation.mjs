// Issue 39: no request left hanging under saturation. BENCH_SATURATION_CONNECTIONS (100) connections for
// BENCH_SATURATION_SECONDS (60) on the users list page, the sign-in page and the users API, one after the other; a
// request unanswered after 30 s is a client timeout. The target: every request answered within 10 s, or refused at
// once with 503 and Retry-After (decision 057), so the max and the timeouts are the figures that count.
import autocannon from "autocannon";
import { BASE, env, log } from "../lib.mjs";
import { LIST_PATH, USER_QUERY } from "./pages.mjs";

const CONNECTIONS = Number(env.BENCH_SATURATION_CONNECTIONS ?? 100);
const SECONDS = Number(env.BENCH_SATURATION_SECONDS ?? 60);
const TIMEOUT_SECONDS = 30;

function saturate(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, timeout: TIMEOUT_SECONDS }, (error, r) => {
      if (error) return reject(error);
      const busy = r.statusCodeStats?.["503"]?.count ?? 0;
      resolve({ requests: r.requests.total, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, busy, other: r.non2xx - busy, timeouts: r.timeouts, errors: r.errors - r.timeouts });
    });
  });
}

const CASES = [
  ["list", "users list page", LIST_PATH, "cookie"],
  ["login", "sign-in page", "/login", null],
  ["api", "users API", `/api/v1/auth/user/findPage?${USER_QUERY}`, "auth"],
];

export default {
  name: "saturation",
  title: `${CONNECTIONS} connections for ${SECONDS} s`,
  once: true,
  async run(ctx) {
    const out = {};
    for (const [key, , path, headers] of CASES) {
      out[key] = await saturate(`${BASE}${path}`, headers ? ctx[headers] : {});
      log(key, JSON.stringify(out[key]));
    }
    return out;
  },
  rows: (r) =>
    CASES.map(([key, title]) => {
      const x = r[key];
      return [
        `${title}, ${CONNECTIONS} connections × ${SECONDS} s: requests, p50 / p99 / max, 503, other non-2xx, timeouts (${TIMEOUT_SECONDS} s), errors`,
        `${x.requests} (${x.rps} req/s), ${x.p50} / ${x.p99} / ${x.max} ms, ${x.busy}, ${x.other}, ${x.timeouts}, ${x.errors}`,
      ];
    }),
};
