// API findPage against a bare handler running the same SQL with the same bound values (issue 5: at least 70 %).
import { BARE_PORT, BASE, TENANT, bareHandler, loadRound } from "../lib.mjs";

// The list query under test: 20 rows, one filter, newest first, a late page.
export const FIND_PAGE_QUERY = { pageSize: 20, pageNum: 100, action: "update", sort: "time,desc" };

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

export default {
  name: "api",
  title: "API findPage against a bare handler",
  async run({ dialect, bareUrl, auth }) {
    const bare = await bareHandler(dialect, bareUrl, findPageStatements());
    try {
      const query = new URLSearchParams(Object.entries(FIND_PAGE_QUERY).map(([k, v]) => [k, String(v)])).toString();
      const [api, raw] = await loadRound([`${BASE}/api/v1/sys/operationLog/findPage?${query}`, auth], [`http://127.0.0.1:${BARE_PORT}/`, {}]);
      return { findPage: api, bare: raw, ratio: api.rps / raw.rps };
    } finally {
      await new Promise((r) => bare.close(r));
    }
  },
  rows: (s) => [
    ["API findPage (20 rows, 1 filter, sorted, page 100)", s.load("findPage")],
    ["bare handler, same query", s.load("bare")],
    ["API / bare", s.percent("ratio")],
  ],
};
