import type { ModuleScreens, ScreenRoute } from "../modules";
import { reportPath, reportPrintPath, reports, type ReportDef } from "./index";

/** Declared reports' screens: each one's page in the shell, and its print view alone on the page (decision 030). */
export const reportPages = (defs: readonly ReportDef[]) =>
  defs.flatMap((def): ScreenRoute[] => [
    { path: reportPath(def).slice(1), file: "routes/report/report.tsx", id: `${def.module}/${def.entity}` },
    { path: reportPrintPath(def).slice(1), file: "routes/report/report.tsx", id: `${def.module}/${def.entity}:print`, bare: true },
  ]);

/**
 * 报表's menu groups and its own screens (decision 062): read by the route table, the seeded menus and the group
 * pages' loaders, never by a page's scripts, so they are kept apart from the declarations every list page loads.
 */
export const reportScreens = {
  menuGroups: [
    {
      subsystem: "report",
      path: "/report",
      title: "报表",
      icon: "chart-bar",
      sort: 40,
      home: "/report/dailyordersummary/index",
      sections: [
        { title: "订单与菜品", screens: ["dailyordersummary", "dailyorderdetail", "foodcount", "userfood", "canteencounts", "pointsorderstats"] },
        { title: "就餐与预约", screens: ["personaldining", "deptdining", "deptbooking", "cardswipe", "noswipe", "deliverycount"] },
        { title: "账户与充值", screens: ["userconsumption", "personalledger", "chargedailyreport", "accounttypedaily", "chargemachine", "bankreconcile"] },
        { title: "结算与补贴", screens: ["monthlysettlementuser", "monthlysettlementmerchant", "teachersubsidy", "staffpointsmonthly", "mealticketsummary", "mealticketdetail"] },
      ],
    },
  ],
  screens: [
    ...reportPages(reports),
    { path: "report/bankreconcile/index", file: "routes/report/bank.tsx", id: "report/bankReconcile" },
    { path: "report/bankreconcile/print", file: "routes/report/bank.tsx", id: "report/bankReconcile:print", bare: true },
  ],
} satisfies ModuleScreens;
