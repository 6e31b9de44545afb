import type { ModuleScreens } from "../modules";
import { reportPages } from "../report/screens";
import { scReports } from "./reports";

/** 收支管理's menu group (decision 062, issue 37) and its reports' pages under it (decision 030). */
export const scScreens = {
  menuGroups: [
    {
      subsystem: "sc",
      path: "/sc",
      title: "收支管理",
      icon: "report-money",
      sort: 38,
      home: "/sc/scincome/index",
      sections: [
        { title: "收入与支出", screens: ["scincome", "scpurchase", "sccostexpense", "scmerchantfinance"] },
        { title: "分析", screens: ["sccostexpense/orderCostCount", "sccostexpense/profitCount", "sccostexpense/foodCostVariance"] },
        { title: "基础资料", screens: ["scproduct", "scproductcategorie", "scsupplier"] },
      ],
    },
  ],
  screens: [
    { path: "sc/scincome/generate", file: "routes/sc/income-generate.tsx", id: "sc/incomeGenerate" },
    { path: "sc/sccostexpense/generate", file: "routes/sc/cost-generate.tsx", id: "sc/costGenerate" },
    ...reportPages(scReports),
  ],
} as const satisfies ModuleScreens;
