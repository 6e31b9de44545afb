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

/**
 * 理论与实际成本 (decision 088): what the dishes sold should have used by their recipes against what the warehouse issued
 * to the kitchen, per goods, largest absolute variance first; dishes sold without a recipe are rows of their own.
 */
export const foodCostVariance = defineReport({
  ...sc,
  entity: "foodCostVariance",
  screen: "sccostexpense/foodCostVariance",
  title: "理论与实际成本",
  description:
    "理论成本 = 期间内售出菜品份数（已取消、全额退款的订单不计）× 用料每份用量 × 物资平均成本（期间内该物资入库的加权平均成本，期间内无入库时取截至期末的全部入库）；实际成本 = 期间内出库到该餐厅及其档口的领用出库成本减退库（按库存成本）。差异 = 实际 − 理论，按差异绝对值从大到小；未配用料的菜品单列其售出份数，不计入成本。",
  filters: [period, { ...restaurant, label: "餐厅" }],
  columns: [
    { key: "kind", label: "类别", kind: "text" },
    { key: "goodsCode", label: "物资编码", kind: "text" },
    { key: "name", label: "物资/菜品", kind: "text" },
    { key: "unitName", label: "单位", kind: "text" },
    { key: "portions", label: "售出份数", kind: "count", total: true },
    { key: "averageCost", label: "平均成本（元/单位）", kind: "money" },
    { key: "theoreticalQuantity", label: "理论用量", kind: "quantity" },
    { key: "theoreticalCost", label: "理论成本", kind: "money", total: true },
    { key: "actualQuantity", label: "实际用量", kind: "quantity" },
    { key: "actualCost", label: "实际成本", kind: "money", total: true },
    { key: "variance", label: "差异（实际−理论）", kind: "money", total: true },
    { key: "varianceRate", label: "差异率", kind: "text" },
  ],
  chart: { kind: "bar", x: "name", series: ["theoreticalCost", "actualCost"], title: "各物资理论与实际成本" },
});

export const scReports = [orderCostCount, profitCount, foodCostVariance];
