import { defineReport, department, diner, months, period, restaurant, staffType, ticketType, type ReportDef } from "./define";

/**
 * Settlement reports (decision 032): meal tickets, monthly settlement per user and per merchant, teacher subsidy,
 * points. What each figure means is written in its description and in decision 032.
 */

export const mealTicketSummary = defineReport({
  entity: "mealTicketSummary",
  screen: "mealticketsummary",
  title: "餐券使用汇总",
  description:
    "按餐券类型与部门：期间内申请的张数与审批通过的张数，其中已过期未用与仍可用的张数（按当前状态）；期间内的使用次数与金额（不含已退回的），及被退回的次数。点击部门查看使用明细。",
  filters: [period, ticketType, department],
  columns: [
    { key: "ticketType", label: "餐券类型", kind: "enum", dict: "ticketType" },
    { key: "deptName", label: "部门", kind: "text", link: { report: "mealTicketDetail", params: { ticketType: "ticketType", deptId: "deptId" } } },
    { key: "applied", label: "申请张数", kind: "count", total: true },
    { key: "approved", label: "通过张数", kind: "count", total: true },
    { key: "expired", label: "过期未用张数", kind: "count", total: true },
    { key: "unused", label: "可用张数", kind: "count", total: true },
    { key: "used", label: "使用次数", kind: "count", total: true },
    { key: "usedAmount", label: "使用金额", kind: "money", total: true },
    { key: "returned", label: "退回次数", kind: "count", total: true },
  ],
  chart: { kind: "pie", x: "ticketType", series: ["usedAmount"], title: "各类餐券使用金额占比" },
});

export const mealTicketDetail = defineReport({
  entity: "mealTicketDetail",
  screen: "mealticketdetail",
  title: "餐券使用明细",
  description: "期间内每一次餐券支付（按使用时间，不含订单取消后退回的）。点击人员编号查看其订单。",
  filters: [period, ticketType, department, diner],
  columns: [
    { key: "orderNo", label: "订单号", kind: "text" },
    { key: "usedAt", label: "使用时间", kind: "text" },
    { key: "userCode", label: "人员编号", kind: "text", link: { report: "dailyOrderDetail", params: { userCode: "userCode" } } },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "ticketType", label: "餐券类型", kind: "enum", dict: "ticketType" },
    { key: "day", label: "就餐日期", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "uses", label: "次数", kind: "count", total: true },
    { key: "amount", label: "金额", kind: "money", total: true },
  ],
});

export const monthlySettlementUser = defineReport({
  entity: "monthlySettlementUser",
  screen: "monthlysettlementuser",
  title: "月度结算-人员",
  description:
    "每位人员在所选月份（按就餐日期）的订单：实付按支付来源分列（现金账户、补贴账户、餐券、其他），退款与实收（实收 = 实付 − 退款）。点击人员查看其账户流水。",
  filters: [months, department, diner],
  columns: [
    { key: "userCode", label: "人员编号", kind: "text", link: { report: "personalLedger", params: { userCode: "userCode" } } },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "paid", label: "实付金额", kind: "money", total: true },
    { key: "cash", label: "现金账户", kind: "money", total: true },
    { key: "subsidy", label: "补贴账户", kind: "money", total: true },
    { key: "ticket", label: "餐券", kind: "money", total: true },
    { key: "other", label: "其他", kind: "money", total: true },
    { key: "refunded", label: "退款金额", kind: "money", total: true },
    { key: "net", label: "实收金额", kind: "money", total: true },
  ],
});

export const monthlySettlementMerchant = defineReport({
  entity: "monthlySettlementMerchant",
  screen: "monthlysettlementmerchant",
  title: "月度结算-商户",
  description:
    "每家餐厅所选月份的实收按商户分账比例分给各商户（整分；分不尽的分按余数从大到小逐分补足，合计恰等于实收）；未配满 100% 的部分列为“未分配”。点击餐厅查看每日订单。",
  filters: [months, restaurant],
  columns: [
    { key: "merchantName", label: "商户", kind: "text" },
    { key: "restaurantName", label: "餐厅", kind: "text", link: { report: "dailyOrderSummary", params: { restaurantId: "restaurantId" } } },
    { key: "stallName", label: "档口", kind: "text" },
    { key: "sharePercent", label: "分成比例（%）", kind: "count" },
    { key: "orders", label: "餐厅订单数", kind: "count" },
    { key: "sales", label: "餐厅实收", kind: "money" },
    { key: "amount", label: "商户结算金额", kind: "money", total: true },
  ],
  chart: { kind: "pie", x: "merchantName", series: ["amount"], title: "各商户结算金额占比" },
});

export const teacherSubsidy = defineReport({
  entity: "teacherSubsidy",
  screen: "teachersubsidy",
  title: "教师补贴",
  description:
    "所选人员类别（如 教师）每人补贴账户在所选月份的期初余额、补贴发放、就餐使用（消费减消费退回）、月末清零、其他变动（充值、退款、冲正）与期末余额（期末 = 期初 + 发放 − 使用 − 清零 + 其他）。点击人员查看其补贴账户流水。",
  filters: [months, staffType, department, diner],
  columns: [
    { key: "userCode", label: "人员编号", kind: "text", link: { report: "personalLedger", params: { userCode: "userCode", accountType: "accountType" } } },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "staffType", label: "人员类别", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "opening", label: "期初余额", kind: "money", total: true },
    { key: "grants", label: "发放次数", kind: "count", total: true },
    { key: "granted", label: "补贴发放", kind: "money", total: true },
    { key: "used", label: "就餐使用", kind: "money", total: true },
    { key: "cleared", label: "清零", kind: "money", total: true },
    { key: "other", label: "其他变动", kind: "money", total: true },
    { key: "closing", label: "期末余额", kind: "money", total: true },
  ],
});

export const staffPointsMonthly = defineReport({
  entity: "staffPointsMonthly",
  screen: "staffpointsmonthly",
  title: "员工积分月结",
  description:
    "每位人员每月的积分：期初、消费获得、取消扣回、过期、人工调整（可正可负）与期末（期末 = 期初 + 获得 − 扣回 − 过期 + 调整）。只列有积分或有变动的人员与月份。",
  filters: [months, staffType, department, diner],
  columns: [
    { key: "month", label: "月份", kind: "text" },
    { key: "userCode", label: "人员编号", kind: "text" },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "opening", label: "期初积分", kind: "count", total: true },
    { key: "earned", label: "消费获得", kind: "count", total: true },
    { key: "takenBack", label: "取消扣回", kind: "count", total: true },
    { key: "expired", label: "过期", kind: "count", total: true },
    { key: "adjusted", label: "人工调整", kind: "count", total: true },
    { key: "closing", label: "期末积分", kind: "count", total: true },
  ],
});

export const pointsOrderStats = defineReport({
  entity: "pointsOrderStats",
  screen: "pointsorderstats",
  title: "积分订单统计",
  description: "每天每家餐厅获得积分的订单：订单数、实付金额、获得的积分与其后取消扣回的积分（净积分 = 获得 − 扣回）。点击日期查看当天的订单。",
  filters: [period, restaurant],
  columns: [
    { key: "day", label: "日期", kind: "text", link: { report: "dailyOrderDetail", params: { from: "day", to: "day", restaurantId: "restaurantId" } } },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "paid", label: "实付金额", kind: "money", total: true },
    { key: "earned", label: "获得积分", kind: "count", total: true },
    { key: "takenBack", label: "扣回积分", kind: "count", total: true },
    { key: "net", label: "净积分", kind: "count", total: true },
  ],
  chart: { kind: "bar", x: "day", series: ["paid"], title: "每日积分订单实付" },
});

export const settlementReports: ReportDef[] = [mealTicketSummary, mealTicketDetail, monthlySettlementUser, monthlySettlementMerchant, teacherSubsidy, staffPointsMonthly, pointsOrderStats];
