// The scenarios `npm run bench` runs, in this order (those that run once, after the load rounds). To add one, write a
// module beside these (see README, Performance) and list it here; `BENCH_CASES=name,name` runs a chosen few.
import api from "./api.mjs";
import bytes from "./bytes.mjs";
import importXlsx from "./import.mjs";
import ledger from "./ledger.mjs";
import menuSize from "./menu-size.mjs";
import menus from "./menus.mjs";
import pages from "./pages.mjs";
import servers from "./servers.mjs";
import settle from "./settle.mjs";
import stock from "./stock.mjs";
import stockReports from "./stock-reports.mjs";
import cashier from "./cashier.mjs";
import closing from "./closing.mjs";
import render from "./render.mjs";
import reports from "./reports.mjs";
import saturation from "./saturation.mjs";
import sc from "./sc.mjs";

export const scenarios = [api, pages, render, menuSize, menus, ledger, servers, bytes, importXlsx, settle, cashier, reports, sc, stock, closing, stockReports, saturation];
