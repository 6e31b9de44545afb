// The users list page against two yardsticks served by the same server (issue 5, issue 17): the same rows in a
// plain Mantine Table inside our shell, and a bare page (AppShell with header, navbar and a Table, no shell).
import { BASE, htmlBytes, loadRound } from "../lib.mjs";

export const USER_QUERY = "pageSize=20&sort=userName,asc&pageNum=200";
export const LIST_PATH = `/admin/auth/user/index?${USER_QUERY}`;
/** Issue 17: a 20-row list page is at most 40 KB of HTML. */
const HTML_BUDGET = 40 * 1024;

export default {
  name: "pages",
  title: "list page SSR against the plain and bare pages",
  async run({ cookie, token }) {
    const [list, plain, bare] = await loadRound(
      [`${BASE}${LIST_PATH}`, cookie],
      [`${BASE}/bench/plain/auth/user?${USER_QUERY}`, cookie],
      [`${BASE}/bench/bare/auth/user?${USER_QUERY}`, cookie],
    );
    const html = await htmlBytes(LIST_PATH, token);
    return { list, plain, bare, ratioPlain: list.rps / plain.rps, ratioBare: list.rps / bare.rps, htmlRaw: html.raw, htmlGzip: html.gzip };
  },
  rows: (s) => [
    ["list page SSR (users, 20 rows)", s.load("list")],
    ["plain Mantine Table page in the shell, same rows", s.load("plain")],
    ["bare page (AppShell + Table, no shell), same rows", s.load("bare")],
    ["list SSR / plain", s.percent("ratioPlain")],
    ["list SSR / bare", s.percent("ratioBare")],
    ["list page HTML (raw / gzip)", `${s.kb("htmlRaw")} / ${s.kb("htmlGzip")}, ${s.median("htmlRaw") <= HTML_BUDGET ? "within" : "over"} the 40 KB target`],
  ],
};
