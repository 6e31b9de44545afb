import { defineReport, months, period, restaurant } from "../report/define";

/**
 * 收支管理's two reports (issue 37), drawn by the one report engine (decision 030): filters in the URL, XLSX export,
 * print view, chart. Their queries are server/modules/sc/reports.ts.
 */
const sc = { module: "sc", screenBase: "/sc" } as const;

export const orderCostCount = defineReport({
  ...sc,
  entity: "orderCostCount",
  screen: "sccostexpense/orderCostCount",
  title: "直接成本分摊",
  description:
    "每天、每个餐厅/商户的直接食材成本 = 仓库出库到该餐厅的成本（领用出库减退库，按库存成本）+ 直接食材成本的采购；除以当天就餐份数（订单数减取消）得每餐成本，除以实收得每元销售成本。合计行为整个期间。",
  filters: [period, { ...restaurant, label: "餐厅" }],
  columns: [
    { key: "day", label: "日期", kind: "text" },
    { key: "placeName", label: "餐厅/商户", kind: "text" },
    { key: "meals", label: "就餐份数", kind: "count", total: true },
    { key: "sales", label: "实收金额", kind: "money", total: true },
    { key: "stockCost", label: "出库成本", kind: "money", total: true },
    { key: "purchaseCost", label: "采购食材成本", kind: "money", total: true },
    { key: "directCost", label: "直接成本", kind: "money", total: true },
    { key: "costPerMeal", label: "每餐成本", kind: "money" },
    { key: "costPerYuan", label: "每元销售成本", kind: "money" },
  ],
  chart: { kind: "bar", x: "day", series: ["directCost", "sales"], title: "每日直接成本与实收" },
});

export const profitCount = defineReport({
  ...sc,
  entity: "profitCount",
  screen: "sccostexpense/profitCount",
  title: "经营毛利",
  description: "每月、每个餐厅/商户：收入（订单生成与手工收入）− 直接成本（出库成本与食材采购）− 费用（成本费用与费用性采购）= 毛利；毛利率 = 毛利 ÷ 收入。",
  filters: [months, { ...restaurant, label: "餐厅" }],
  columns: [
    { key: "month", label: "月份", kind: "text" },
    { key: "placeName", label: "餐厅/商户", kind: "text" },
    { key: "income", label: "收入", kind: "money", total: true },
    { key: "directCost", label: "直接成本", kind: "money", total: true },
    { key: "expenses", label: "费用", kind: "money", total: true },
    { key: "margin", label: "毛利", kind: "money", total: true },
    { key: "marginRate", label: "毛利率", kind: "text" },
  ],
  chart: { kind: "bar", x: "month", series: ["income", "directCost", "expenses", "margin"], title: "各月收入、成本、费用与毛利" },
});

export const scReports = [orderCostCount, profitCount];
