// Script and style bytes the sign-in and list pages load before they are interactive (issue 5, issue 17), and
// Lighthouse mobile on both. Not load tests: measured once, on SQLite.
import { LIGHTHOUSE_RUNS, kb, log, pageBytes, runLighthouse } from "../lib.mjs";
import { LIST_PATH } from "./pages.mjs";

const PAGES = { login: ["sign-in", "/login"], list: ["list", LIST_PATH] };

export default {
  name: "bytes",
  title: "page weight and Lighthouse",
  once: true,
  dialects: ["sqlite"],
  async run({ token }) {
    const result = {};
    for (const [name, [, path]] of Object.entries(PAGES)) result[name] = await pageBytes(path, name === "login" ? "" : token);
    log("Lighthouse (mobile)…");
    result.lighthouse = await runLighthouse(Object.fromEntries(Object.entries(PAGES).map(([name, [, path]]) => [name, path])), token);
    return result;
  },
  rows: (r) =>
    Object.entries(PAGES).flatMap(([name, [label]]) => {
      const b = r[name];
      const lh = r.lighthouse?.[name];
      const rows = [
        [`JS ${label} page, before it is interactive (raw / gzip)`, `${kb(b.js.raw)} / ${kb(b.js.gzip)}`],
        [`CSS ${label} page (raw / gzip)`, `${kb(b.css.raw)} / ${kb(b.css.gzip)}`],
        [`Lighthouse mobile, ${label} page (median of ${LIGHTHOUSE_RUNS})`, lh ? `score ${lh.score}, LCP ${lh.lcp} ms, TBT ${lh.tbt} ms, CLS ${lh.cls}` : LIGHTHOUSE_RUNS < 1 ? "not run" : "no Chromium"],
      ];
      if (lh?.jsAll) rows.push([`JS ${label} page, all scripts fetched until settled (Lighthouse, transfer)`, kb(lh.jsAll)]);
      return rows;
    }),
};
