import type { ReportScreen } from "../modules";

/**
 * The point of sale (issue 13, decision 023): screens over the orders that the pay service writes, with no table of
 * their own. Each is a menu page with a view permission; charging needs the pay service's own permission too.
 */
export const cashier: ReportScreen = { module: "zhct", entity: "cashier", screen: "cashier", screenBase: "/zhct", title: "收银台" };
/** A cashier's shift or day: totals by payment method and meal time, printable on an 80 mm receipt or A4. */
export const cashierPrint: ReportScreen = { module: "zhct", entity: "cashierPrint", screen: "cashierprint", screenBase: "/zhct", title: "营业报表打印" };
