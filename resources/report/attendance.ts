import { defineReport, department, diner, MEAL_TYPES, mealType, payFlag, period, restaurant, stall, topUpChannel, type ReportColumn, type ReportDef } from "./define";

/**
 * Attendance reports (decision 033): who ate, where and how often — card swipes, no-swipes, delivery, bookings,
 * top-up devices. A "meal" is an order still kept: not cancelled nor fully refunded.
 */

const dayToOrders = { report: "dailyOrderDetail", params: { from: "day", to: "day" } };
const toLedger = { report: "personalLedger", params: { userCode: "userCode" } };

export const cardSwipe = defineReport({
  entity: "cardSwipe",
  screen: "cardswipe",
  title: "刷卡统计",
  description: "每天、餐厅、餐别在收银台与设备上就餐的次数（刷卡与刷脸、扫码等其他方式）、人数与实收，不含已取消的订单。合计的就餐人数为期间内不重复的人数。点击日期查看当天的订单。",
  filters: [period, restaurant, department, mealType, payFlag],
  columns: [
    { key: "day", label: "日期", kind: "text", link: dayToOrders },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "cardSwipes", label: "刷卡次数", kind: "count", total: true },
    { key: "otherSwipes", label: "其他方式次数", kind: "count", total: true },
    { key: "swipes", label: "就餐次数", kind: "count", total: true },
    { key: "diners", label: "就餐人数", kind: "count", total: true },
    { key: "amount", label: "实收金额", kind: "money", total: true },
  ],
  chart: { kind: "bar", x: "day", series: ["swipes"], title: "每日就餐次数" },
});

export const noSwipe = defineReport({
  entity: "noSwipe",
  screen: "noswipe",
  title: "未刷卡统计",
  description: "有预约（已预约、未完成）或默认订餐（已生成或生成失败）、但当天该餐别没有有效订单的人员。当天餐次未结束时，列出的是尚未就餐的人员。点击人员查看其账户流水。",
  filters: [period, restaurant, department, mealType, diner],
  columns: [
    { key: "day", label: "日期", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "userCode", label: "人员编号", kind: "text", link: toLedger },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "source", label: "来源", kind: "text" },
    { key: "count", label: "人次", kind: "count", total: true },
  ],
});

export const deliveryCount = defineReport({
  entity: "deliveryCount",
  screen: "deliverycount",
  title: "送餐人数统计",
  description: "外卖订单按日期、配送点与配送时段统计的送餐人数、订单数与实收，不含已取消的订单。点击日期查看当天的订单。",
  filters: [period, restaurant, mealType],
  columns: [
    { key: "day", label: "日期", kind: "text", link: dayToOrders },
    { key: "pointName", label: "配送点", kind: "text" },
    { key: "slotName", label: "配送时段", kind: "text" },
    { key: "diners", label: "送餐人数", kind: "count", total: true },
    { key: "orders", label: "订单数", kind: "count", total: true },
    { key: "amount", label: "实收金额", kind: "money", total: true },
  ],
});

export const deptBooking = defineReport({
  entity: "deptBooking",
  screen: "deptbooking",
  title: "部门预约统计",
  description: "期间内各部门人员的预约：预约数 = 已取消 + 已完成 + 预约未就餐 + 待就餐；预约人数为有未取消预约的人数。点击部门查看其人员的就餐，点击预约未就餐查看名单。",
  filters: [period, restaurant, department, mealType],
  columns: [
    { key: "deptName", label: "部门", kind: "text", link: { report: "personalDining", params: { deptId: "deptId" } } },
    { key: "diners", label: "预约人数", kind: "count", total: true },
    { key: "booked", label: "预约数", kind: "count", total: true },
    { key: "cancelled", label: "已取消", kind: "count", total: true },
    { key: "completed", label: "已完成", kind: "count", total: true },
    { key: "notDined", label: "预约未就餐", kind: "count", total: true, link: { report: "noSwipe", params: { deptId: "deptId" } } },
    { key: "pending", label: "待就餐", kind: "count", total: true },
  ],
  chart: { kind: "bar", x: "deptName", series: ["completed", "notDined"], title: "各部门预约就餐情况" },
});

export const canteenCounts = defineReport({
  entity: "canteenCounts",
  screen: "canteencounts",
  title: "食堂消费次数统计",
  description: "各餐厅、档口、餐别的消费次数、就餐人数与实收，不含已取消的订单。合计的就餐人数为期间内不重复的人数。",
  filters: [period, restaurant, stall, mealType, payFlag],
  columns: [
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "stallName", label: "档口", kind: "text" },
    { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
    { key: "meals", label: "消费次数", kind: "count", total: true },
    { key: "diners", label: "就餐人数", kind: "count", total: true },
    { key: "amount", label: "实收金额", kind: "money", total: true },
  ],
  chart: { kind: "pie", x: "restaurantName", series: ["meals"], title: "各餐厅消费次数占比" },
});

export const chargeMachine = defineReport({
  entity: "chargeMachine",
  screen: "chargemachine",
  title: "充值机汇总",
  description: "期间内每台充值设备、每位操作人、每个充值渠道的充值、退款与冲正（笔数与金额，净额 = 充值 − 退款 − 冲正）。设备按充值时终端上送的设备编号（已登记的显示设备名称）；未带设备的记在「后台」。",
  filters: [period, topUpChannel],
  columns: [
    { key: "device", label: "充值设备", kind: "text" },
    { key: "operatorName", label: "操作人", kind: "text" },
    { key: "channel", label: "充值渠道", kind: "enum", dict: "topUpChannel" },
    { key: "topUpCount", label: "充值笔数", kind: "count", total: true },
    { key: "topUp", label: "充值金额", kind: "money", total: true },
    { key: "refundCount", label: "退款笔数", kind: "count", total: true },
    { key: "refund", label: "退款金额", kind: "money", total: true },
    { key: "reversalCount", label: "冲正笔数", kind: "count", total: true },
    { key: "reversal", label: "冲正金额", kind: "money", total: true },
    { key: "net", label: "净额", kind: "money", total: true },
  ],
  chart: { kind: "pie", x: "operatorName", series: ["topUp"], title: "各操作人充值占比" },
});

export const userFood = defineReport({
  entity: "userFood",
  screen: "userfood",
  title: "用户菜品统计",
  description: "每位人员期间内在各餐厅每道菜的份数与金额（按菜品小计，不含已取消的订单）。点击人员查看其账户流水。",
  filters: [period, restaurant, department, mealType, payFlag, diner],
  columns: [
    { key: "userCode", label: "人员编号", kind: "text", link: toLedger },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    { key: "restaurantName", label: "餐厅", kind: "text" },
    { key: "foodName", label: "菜品", kind: "text" },
    { key: "quantity", label: "份数", kind: "count", total: true },
    { key: "amount", label: "金额", kind: "money", total: true },
  ],
});

export const personalDining = defineReport({
  entity: "personalDining",
  screen: "personaldining",
  title: "个人就餐统计",
  description: "每位人员期间内各餐别的就餐次数、就餐天数与实收，不含已取消的订单。点击人员查看其账户流水。",
  filters: [period, restaurant, department, mealType, payFlag, diner],
  columns: [
    { key: "userCode", label: "人员编号", kind: "text", link: toLedger },
    { key: "userName", label: "姓名", kind: "text" },
    { key: "deptName", label: "部门", kind: "text" },
    ...MEAL_TYPES.map(([type, label]): ReportColumn => ({ key: `meals_${type}`, label: `${label}次数`, kind: "count", total: true })),
    { key: "meals", label: "就餐次数", kind: "count", total: true },
    { key: "days", label: "就餐天数", kind: "count", total: true },
    { key: "amount", label: "实收金额", kind: "money", total: true },
  ],
});

/** In the menu's order under 报表. */
export const attendanceReports: ReportDef[] = [personalDining, userFood, cardSwipe, noSwipe, deptBooking, canteenCounts, deliveryCount, chargeMachine];
