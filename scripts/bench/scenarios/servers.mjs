// `npm start` against `react-router-serve ./build/server/index.js` (decision 020), both on the same database at once,
// alternated: the API's findPage and the users list page. Neither request asks for gzip, so both servers send the
// same bytes and the difference is the listener (ours: an API read's short path; theirs: Express, morgan's log line
// per request, compression's checks, and every body passed through a counting stream).
import { BASE, PORT, loadRound, startServer } from "../lib.mjs";
import { FIND_PAGE_QUERY } from "./api.mjs";
import { LIST_PATH } from "./pages.mjs";

const SERVE_PORT = PORT + 2;
const API_PATH = `/api/v1/sys/operationLog/findPage?${new URLSearchParams(Object.entries(FIND_PAGE_QUERY).map(([k, v]) => [k, String(v)]))}`;

export default {
  name: "servers",
  title: "npm start against react-router-serve",
  async run({ databaseUrl, auth, cookie }) {
    // Started for each run and stopped after it, so its dispatchers do not run beside the other scenarios.
    const serve = startServer(databaseUrl, { port: SERVE_PORT, args: ["node_modules/@react-router/serve/bin.js", "./build/server/index.js"], stdout: "ignore" });
    try {
      await serve.ready;
      const other = `http://127.0.0.1:${SERVE_PORT}`;
      const [startApi, serveApi] = await loadRound([`${BASE}${API_PATH}`, auth], [`${other}${API_PATH}`, auth]);
      const [startList, serveList] = await loadRound([`${BASE}${LIST_PATH}`, cookie], [`${other}${LIST_PATH}`, cookie]);
      return { startApi, serveApi, apiRatio: serveApi.rps / startApi.rps, startList, serveList, listRatio: serveList.rps / startList.rps };
    } finally {
      await serve.stop();
    }
  },
  rows: (s) => [
    ["API findPage, `npm start`", s.load("startApi")],
    ["API findPage, `react-router-serve`", s.load("serveApi")],
    ["react-router-serve / npm start, API", s.percent("apiRatio")],
    ["list page SSR, `npm start`", s.load("startList")],
    ["list page SSR, `react-router-serve`", s.load("serveList")],
    ["react-router-serve / npm start, list page", s.percent("listRatio")],
  ],
};
