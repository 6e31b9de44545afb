// The scenarios `npm run bench` runs, in this order. To add one, write a module beside these (see README,
// Performance) and list it here; `BENCH_CASES=name,name` runs a chosen few.
import api from "./api.mjs";
import bytes from "./bytes.mjs";
import menuSize from "./menu-size.mjs";
import menus from "./menus.mjs";
import pages from "./pages.mjs";

export const scenarios = [api, pages, menuSize, menus, bytes];
