import type { ModuleDeclaration, ScreenRoute } from "../modules";
import { bankReconcile } from "./bank";
import { reports } from "./index";

/** Every declared report: its page in the shell, and its print view alone on the page (decision 030). */
const reportScreens = reports.flatMap((def): ScreenRoute[] => [
  { path: `report/${def.screen}/index`, file: "routes/report/report.tsx", id: `report/${def.entity}` },
  { path: `report/${def.screen}/print`, file: "routes/report/report.tsx", id: `report/${def.entity}:print`, bare: true },
]);

/** 报表: the declared reports, and 银行对账, which takes a file, so it is not a declared report (decision 034). */
export const reportModule = {
  name: "report",
  resources: [],
  reports: [...reports, bankReconcile],
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
    ...reportScreens,
    { path: "report/bankreconcile/index", file: "routes/report/bank.tsx", id: "report/bankReconcile" },
    { path: "report/bankreconcile/print", file: "routes/report/bank.tsx", id: "report/bankReconcile:print", bare: true },
  ],
} satisfies ModuleDeclaration<"report">;
