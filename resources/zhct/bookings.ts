import { defineResource, type FieldDef } from "../define";

/**
 * Meal bookings (预约) and special-dish reservations (特色菜预订) (spec §2 /zhct, issue 14, decision 026): a booking
 * period opens a restaurant's meal time for booking over a date range with a capacity per day; diners book a meal of a
 * day; paying for that meal completes the booking and the order records it; a booking never eaten is marked 已预约未就餐.
 * A plan offers dishes to reserve with a daily quota, paid at reservation or at pick-up. Rules:
 * server/modules/zhct/bookings.ts.
 */

/** When booking (and cancelling) closes: so many days before the meal's day, at a time of day (前一天 16:00). */
const deadlineFields = [
  { name: "deadlineDays", label: "截止提前天数", type: "number", required: true, defaultValue: 1, min: 0, max: 30, description: "0 为当天，1 为前一天" },
  { name: "deadlineTime", label: "截止时间", type: "time", required: true, defaultValue: "16:00", description: "过了截止时间不能再预约或取消" },
] as const satisfies readonly FieldDef[];

export const appointmentPeriod = defineResource({
  module: "zhct",
  entity: "appointmentPeriod",
  screen: "appointmentperiod",
  screenBase: "/zhct",
  table: "appointment_period",
  title: "预约时段",
  scope: "tenant",
  labelField: "periodName",
  defaultSort: { field: "beginDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  // The period open for a meal time on a day (every booking looks it up).
  indexes: [["mealTimesId", "beginDate"]],
  fields: [
    { name: "periodName", label: "时段名称", type: "text", required: true, filter: "like", max: 50 },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", required: true, filter: "eq", description: "所选餐厅的餐次" },
    { name: "beginDate", label: "开始日期", type: "date", required: true, sortable: true, filter: "range" },
    { name: "endDate", label: "结束日期", type: "date", required: true, sortable: true },
    { name: "capacity", label: "每日可预约人数", type: "number", required: true, min: 1, max: 100_000 },
    ...deadlineFields,
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const appointmentDetail = defineResource({
  module: "zhct",
  entity: "appointmentDetail",
  screen: "appointmentdetail",
  screenBase: "/zhct",
  table: "appointment_detail",
  title: "个人预约",
  scope: "tenant",
  labelField: "appointmentDate",
  defaultSort: { field: "appointmentDate", dir: "desc" },
  actions: ["create", "update", "export"],
  // A diner books a meal of a day once; a cancelled booking is booked again by editing it back to 已预约.
  uniqueKeys: [{ fields: ["userInfoId", "appointmentDate", "mealTimesId"], message: "该人员当天此餐次已有预约（已取消的预约可编辑恢复）" }],
  // The bookings of a meal (the capacity count, the no-show run).
  indexes: [["mealTimesId", "appointmentDate", "appointmentStatus"]],
  fields: [
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "appointmentDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", required: true, filter: "eq" },
    { name: "periodId", label: "预约时段", type: "relation", relation: "zhct/appointmentPeriod", readOnly: true, list: false },
    { name: "appointmentStatus", label: "预约状态", type: "enum", dict: "appointmentStatus", filter: "eq", defaultValue: "1", description: "已完成由就餐时的支付自动标记" },
    // 2 when the diner paid for the meal, 4 when the meal ended without it (the no-show run).
    { name: "orderAppointmentStatus", label: "就餐情况", type: "enum", dict: "orderAppointmentStatus", readOnly: true, filter: "eq" },
    { name: "orderId", label: "就餐订单", type: "relation", relation: "zhct/mealOrder", readOnly: true, list: false },
    { name: "bookedAt", label: "预约时间", type: "datetime", readOnly: true, sortable: true },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const appointmentDetailForOrder = defineResource({
  module: "zhct",
  entity: "appointmentDetailForOrder",
  screen: "appointmentdetailfororder",
  screenBase: "/zhct",
  table: "appointment_detail_for_order",
  title: "预约就餐记录",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "appointmentDate", dir: "desc" },
  actions: ["create", "update", "export"],
  uniqueKeys: [
    { fields: ["orderId"], message: "该订单已有就餐记录" },
    { fields: ["appointmentDetailId"], message: "该预约已有就餐记录" },
  ],
  indexes: [["userInfoId", "appointmentDate"]],
  fields: [
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder", filter: "eq", description: "就餐支付的订单；登记后找出该人员当天此餐次的预约" },
    { name: "appointmentDetailId", label: "预约", type: "relation", relation: "zhct/appointmentDetail", readOnly: true, list: false },
    // Copied from the order or the booking, so the list filters and names rows without a join.
    { name: "orderNo", label: "订单号", type: "text", readOnly: true, list: false, filter: "like", max: 32 },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", readOnly: true, filter: "eq" },
    { name: "appointmentDate", label: "就餐日期", type: "date", readOnly: true, filter: "range", sortable: true },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", readOnly: true, filter: "eq" },
    { name: "orderAppointmentStatus", label: "预约状态", type: "enum", dict: "orderAppointmentStatus", readOnly: true, filter: "eq" },
    { name: "recordedAt", label: "登记时间", type: "datetime", readOnly: true, sortable: true },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const orderingPlan = defineResource({
  module: "zhct",
  entity: "orderingPlan",
  screen: "orderingplan",
  screenBase: "/zhct",
  table: "ordering_plan",
  title: "订餐计划",
  scope: "tenant",
  labelField: "planName",
  defaultSort: { field: "beginDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "planName", label: "计划名称", type: "text", required: true, filter: "like", max: 50 },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", required: true, filter: "eq" },
    { name: "foodId", label: "特色菜", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
    { name: "beginDate", label: "开始日期", type: "date", required: true, sortable: true, filter: "range" },
    { name: "endDate", label: "结束日期", type: "date", required: true, sortable: true },
    { name: "price", label: "预订单价（元）", type: "money", required: true, min: 1, max: 1_000_000 },
    { name: "dailyQuota", label: "每日限量（份）", type: "number", required: true, min: 1, max: 100_000 },
    { name: "payTime", label: "付款时机", type: "enum", dict: "orderingPayTime", required: true, filter: "eq", defaultValue: "1" },
    ...deadlineFields,
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const orderingFood = defineResource({
  module: "zhct",
  entity: "orderingFood",
  screen: "orderingfood",
  screenBase: "/zhct",
  table: "ordering_food",
  title: "特色菜预订",
  scope: "tenant",
  labelField: "orderDate",
  defaultSort: { field: "reservedAt", dir: "desc" },
  actions: ["create", "update", "export"],
  // reserveStatus 1 已预约, 2 已完成, 0 已取消 (decision 070). Both steps move money, so a second press moves it once.
  workflow: {
    field: "reserveStatus",
    colors: { "1": "blue", "2": "green", "0": "gray" },
    refusal: "该预订当前为「{status}」，不能{action}",
    notFound: "特色菜预订不存在或已被删除",
    transitions: [
      { name: "pickUp", label: "取餐", from: ["1"], to: "2", note: "仅限取餐当天；取餐时支付的计划此时从人员账户扣款。", idempotent: true },
      { name: "cancel", label: "取消", title: "取消预订", from: ["1"], to: "0", color: "red", note: "截止时间前可取消；已支付的按原支付账户原路退回。", idempotent: true },
    ],
  },
  // A plan's reservations of a day (the quota count, a diner's one live reservation of it: a cancelled one may be made
  // again, so this is checked under the plan's lock rather than by a unique key).
  indexes: [["planId", "orderDate", "reserveStatus"]],
  fields: [
    { name: "planId", label: "订餐计划", type: "relation", relation: "zhct/orderingPlan", required: true, filter: "eq" },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "orderDate", label: "取餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "quantity", label: "份数", type: "number", required: true, defaultValue: 1, min: 1, max: 20 },
    { name: "amount", label: "金额（元）", type: "money", readOnly: true },
    { name: "payTime", label: "付款时机", type: "enum", dict: "orderingPayTime", readOnly: true },
    { name: "reserveStatus", label: "预订状态", type: "enum", dict: "appointmentStatus", required: true, readOnly: true, filter: "eq", defaultValue: "1" },
    { name: "orderId", label: "支付订单", type: "relation", relation: "zhct/mealOrder", readOnly: true, list: false },
    { name: "paidAt", label: "付款时间", type: "datetime", readOnly: true, list: false },
    { name: "reservedAt", label: "预订时间", type: "datetime", required: true, readOnly: true, sortable: true },
    { name: "pickedUpAt", label: "取餐时间", type: "datetime", readOnly: true },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
