import { accountType, defineReport, department, diner, MEAL_TYPES, mealType, payFlag, period, restaurant, type ReportColumn, type ReportDef } from "./define";
import { settlementReports } from "./settlement";
import { attendanceReports } from "./attendance";

export * from "./define";

/**
 * Reports as data (issue 15, decision 030): a declaration names the report's filters, columns, totals, drill-down
 * links and chart; the engine (server/modules/report) validates the filters, runs the report's query, adds the
 * totals row and writes the XLSX; one route module (app/routes/report/report.tsx) draws every report, its print
 * view and its chart. This file is shared by the server and the pages, so it holds no query.
 */

export const dailyOrderSummary = defineReport({
  entity: "dailyOrderSummary",
  screen: "dailyordersummary",
  title: "订单日汇总",
  description: "按就餐日期汇总订单：笔数、实付、退款与实收（实收 = 实付 − 退款），并按餐别分列实收。点击日期查看当天的订单。",
  filters: [period, restaurant, mealType, payFlag],
  columns: [
    { key: "day", label: "日期", kind: "text", link: { report: "dailyOrderDetail", params: { from: "day", to: "day" } } },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "cancelled", label: "取消数", kind: "count", total: true },
    { key: "paid", label: "实付金额", kind: "money", total: true },
    { key: "refunded", label: "退款金额", kind: "money", total: true },
    { key: "net", label: "实收金额", kind: "money", total: true },
    ...MEAL_TYPES.map(([type, label]): ReportColumn => ({ key: `net_${type}`, label: `${label}实收`, kind: "money", total: true })),
  ],
  chart: { kind: "bar", x: "day", series: ["net"], title: "每日实收" },
});

export const dailyOrderDetail = defineReport({
  entity: "dailyOrderDetail",
  screen: "dailyorderdetail",
  title: "订单日明细",
  description: "期间内的每一笔订单（按下单时间），合计为全部符合条件的订单。",
  filters: [period, restaurant, mealType, payFlag, diner],
  columns: [
    { key: "orderNo", label: "订单号", kind: "text" },
    { key: "paidAt", label: "下单时间", kind: "text" },
    { key: "userCode", label: "人员编号", kind: "text", link: { report: "personalLedger", params: { userCode: "userCode" } } },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "payFlag", label: "支付方式", kind: "enum", dict: "userAccountFlag" },
    { key: "orderStatus", label: "订单状态", kind: "enum", dict: "mealOrderStatus" },
    { key: "orders", label: "笔数", kind: "count", total: true },
    { key: "paid", label: "实付金额", kind: "money", total: true },
    { key: "refunded", label: "退款金额", kind: "money", total: true },
    { key: "net", label: "实收金额", kind: "money", total: true },
  ],
});

export const foodCount = defineReport({
  entity: "foodCount",
  screen: "foodcount",
  title: "菜品销量统计",
  description: "每天、餐厅、餐别、菜品的销售份数与金额（不含已取消或全额退款的订单）。",
  filters: [period, restaurant, mealType],
  columns: [
    { key: "day", label: "日期", kind: "text" },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "foodName", label: "菜品", kind: "text" },
    { key: "quantity", label: "份数", kind: "count", total: true },
    { key: "amount", label: "金额", kind: "money", total: true },
  ],
});

export const userConsumption = defineReport({
  entity: "userConsumption",
  screen: "userconsumption",
  title: "个人消费统计",
  description: "每位就餐人员期间内的订单与实收，及从现金、补贴账户扣款的净额（账户流水：消费减消费退回）。点击人员查看其账户流水。",
  filters: [period, department, restaurant, diner],
  columns: [
    { key: "userCode", label: "人员编号", kind: "text", link: { report: "personalLedger", params: { userCode: "userCode" } } },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "net", label: "实收金额", kind: "money", total: true },
    { key: "cash", label: "现金账户消费", kind: "money", total: true },
    { key: "subsidy", label: "补贴账户消费", kind: "money", total: true },
  ],
});

export const deptDining = defineReport({
  entity: "deptDining",
  screen: "deptdining",
  title: "部门就餐统计",
  description: "每个部门期间内就餐的人数、订单数与实收。点击部门查看其人员的消费。",
  filters: [period, restaurant, mealType],
  columns: [
    { key: "deptName", label: "部门", kind: "text", link: { report: "userConsumption", params: { deptId: "deptId" } } },
    { key: "diners", label: "就餐人数", kind: "count", total: true },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "net", label: "实收金额", kind: "money", total: true },
  ],
  chart: { kind: "bar", x: "deptName", series: ["net"], title: "各部门实收" },
});

export const personalLedger = defineReport({
  entity: "personalLedger",
  screen: "personalledger",
  title: "个人账户流水",
  description: "一位人员期间内的期初余额、每一笔账户流水与期末余额；合计为期间的净变动（期末 = 期初 + 净变动）。",
  filters: [period, { ...diner, required: true }, accountType],
  columns: [
    { key: "occurredAt", label: "时间", kind: "text" },
    { key: "accountType", label: "账户类型", kind: "enum", dict: "accountType" },
    { key: "busiType", label: "业务类型", kind: "enum", dict: "busiType" },
    { key: "payFlag", label: "支付方式", kind: "enum", dict: "userAccountFlag" },
    { key: "operatorName", label: "操作人", kind: "text" },
    { key: "remark", label: "摘要", kind: "text" },
    { key: "income", label: "收入", kind: "money", total: true },
    { key: "expense", label: "支出", kind: "money", total: true },
    { key: "balance", label: "余额", kind: "money" },
  ],
});

export const chargeDailyReport = defineReport({
  entity: "chargeDailyReport",
  screen: "chargedailyreport",
  title: "充值日报",
  description: "每天、充值渠道、操作人的充值、退款与冲正（退款与冲正为负数，净额 = 充值 + 退款 + 冲正）。",
  filters: [period],
  columns: [
    { key: "day", label: "日期", kind: "text" },
    { key: "channel", label: "充值渠道", kind: "enum", dict: "topUpChannel" },
    { key: "operatorName", label: "操作人", kind: "text" },
    { key: "topUpCount", label: "充值笔数", kind: "count", total: true },
    { key: "topUp", label: "充值金额", kind: "money", total: true },
    { key: "refundCount", label: "退款笔数", kind: "count", total: true },
    { key: "refund", label: "退款金额", kind: "money", total: true },
    { key: "reversal", label: "冲正金额", kind: "money", total: true },
    { key: "net", label: "净额", kind: "money", total: true },
  ],
});

export const accountTypeDaily = defineReport({
  entity: "accountTypeDaily",
  screen: "accounttypedaily",
  title: "账户类型日统计",
  description: "每天每种账户的资金变动（账户流水按业务类型分列；净变动为各列之和）。",
  filters: [period, accountType],
  columns: [
    { key: "day", label: "日期", kind: "text" },
    { key: "accountType", label: "账户类型", kind: "enum", dict: "accountType" },
    { key: "topUp", label: "充值", kind: "money", total: true },
    { key: "grant", label: "补贴发放", kind: "money", total: true },
    { key: "consume", label: "消费", kind: "money", total: true },
    { key: "refund", label: "退款", kind: "money", total: true },
    { key: "other", label: "冲正与清零", kind: "money", total: true },
    { key: "dormFee", label: "宿舍水电费", kind: "money", total: true },
    { key: "net", label: "净变动", kind: "money", total: true },
  ],
  chart: { kind: "pie", x: "accountType", series: ["consume"], title: "各账户消费占比" },
});

/** In the menu's order under 报表. */
export const reports: ReportDef[] = [
  dailyOrderSummary,
  dailyOrderDetail,
  foodCount,
  userConsumption,
  deptDining,
  personalLedger,
  chargeDailyReport,
  accountTypeDaily,
  ...settlementReports,
  ...attendanceReports,
];

const byName = new Map(reports.map((r) => [r.entity, r]));
export const findReport = (name: string) => byName.get(name);
/** The URL parameters a report reads (a day range is two). */
export const reportParams = (def: ReportDef) => def.filters.flatMap((f) => (f.kind === "dayRange" ? ["from", "to"] : f.kind === "monthRange" ? ["fromMonth", "toMonth"] : [f.name]));
