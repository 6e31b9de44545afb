import { defineResource, type FieldDef } from "../define";

/**
 * Default orders and delivery (spec §2 /zhct, issue 14 part B, decision 027): diners who eat by default, their leave,
 * the runs that turn defaults into the next day's orders (paid through the payment service), accompanied meals for
 * guests, and the pick-up points and delivery slots that takeaway orders carry. The rules are in
 * server/modules/zhct/defaultOrders.ts and server/modules/zhct/delivery.ts.
 */

const restaurant = { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } } as const satisfies FieldDef;

/** One check box per weekday (dictionary week: 1 星期日 … 7 星期六), so the form needs no script. */
const weekdays = [
  { name: "monday", label: "周一", type: "boolean", defaultValue: true },
  { name: "tuesday", label: "周二", type: "boolean", defaultValue: true },
  { name: "wednesday", label: "周三", type: "boolean", defaultValue: true },
  { name: "thursday", label: "周四", type: "boolean", defaultValue: true },
  { name: "friday", label: "周五", type: "boolean", defaultValue: true },
  { name: "saturday", label: "周六", type: "boolean", defaultValue: false },
  { name: "sunday", label: "周日", type: "boolean", defaultValue: false },
] as const satisfies FieldDef[];

/** A diner who eats a meal type by default on the days ticked, at a restaurant: a fixed amount, or a dish of the day's menu. */
export const userOrderDefault = defineResource({
  module: "zhct",
  entity: "userOrderDefault",
  screen: "userorderdefault",
  screenBase: "/zhct",
  table: "user_order_default",
  title: "默认订餐",
  scope: "tenant",
  labelField: "userInfoId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["userInfoId", "mealType"], message: "该人员此餐别已设置默认订餐" }],
  fields: [
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    restaurant,
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq", description: "早餐、午餐、晚餐或夜宵；按该餐厅此餐别启用的餐次下单" },
    { name: "amount", label: "每餐金额（元）", type: "money", min: 1, max: 1_000_000, description: "按金额订餐：每餐扣此金额；与默认菜品二选一" },
    { name: "foodId", label: "默认菜品", type: "relation", relation: "zhct/food", description: "按菜单订餐：取当天已发布菜单中该菜品的价格" },
    { name: "quantity", label: "份数", type: "number", required: true, list: false, defaultValue: 1, min: 1, max: 20 },
    ...weekdays,
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "text", list: false, max: 200 },
  ],
});

/** A period in which a diner has no default order (all meal types, or one). */
export const userOrderDefaultLeave = defineResource({
  module: "zhct",
  entity: "userOrderDefaultLeave",
  screen: "userorderdefaultleave",
  screenBase: "/zhct",
  table: "user_order_default_leave",
  title: "默认订餐请假",
  scope: "tenant",
  labelField: "beginDate",
  defaultSort: { field: "beginDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  // A day's leaves of the diners on default (the generation's look-up).
  indexes: [["endDate", "beginDate"]],
  fields: [
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "beginDate", label: "开始日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "endDate", label: "结束日期", type: "date", required: true, sortable: true },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", filter: "eq", description: "不选或选「全天」为所有餐别" },
    { name: "reason", label: "请假事由", type: "text", max: 200 },
  ],
});

/** One generation run (立即生成 or the daily job) for one day, with its counts. */
export const userOrderDefaultGenerate = defineResource({
  module: "zhct",
  entity: "userOrderDefaultGenerate",
  screen: "userorderdefaultgenerate",
  screenBase: "/zhct",
  table: "user_order_default_generate",
  title: "默认订餐生成",
  scope: "tenant",
  labelField: "orderDate",
  defaultSort: { field: "startedAt", dir: "desc" },
  actions: ["export"],
  workflowActions: { generate: "立即生成" },
  headerLinks: [{ action: "generate", path: "generate" }],
  rowLinks: [{ action: "view", entity: "userOrderDefaultGenerateDetail", path: "/zhct/userorderdefaultgeneratedetail/index?runId=:id", label: "明细" }],
  // The daily job asks whether a day has had its automatic run.
  indexes: [["orderDate", "triggerType"]],
  fields: [
    { name: "orderDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "triggerType", label: "触发方式", type: "text", required: true, filter: "eq", max: 10 },
    { name: "createdCount", label: "生成", type: "number", required: true, defaultValue: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "skippedCount", label: "跳过", type: "number", required: true, defaultValue: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "failedCount", label: "失败", type: "number", required: true, defaultValue: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "amount", label: "扣款合计（元）", type: "money", required: true, defaultValue: 0 },
    { name: "operatorName", label: "操作人", type: "text", max: 100 },
    { name: "startedAt", label: "开始时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "finishedAt", label: "结束时间", type: "datetime", list: false },
  ],
});

/** What a run did for one diner's meal: the order made, or why not (请假, 已有订单, 余额不足 …). */
export const userOrderDefaultGenerateDetail = defineResource({
  module: "zhct",
  entity: "userOrderDefaultGenerateDetail",
  screen: "userorderdefaultgeneratedetail",
  screenBase: "/zhct",
  table: "user_order_default_generate_detail",
  title: "默认订餐生成明细",
  scope: "tenant",
  labelField: "orderDate",
  defaultSort: { field: "createdAt", dir: "asc" },
  actions: ["export"],
  fields: [
    { name: "runId", label: "生成批次", type: "relation", relation: "zhct/userOrderDefaultGenerate", required: true, filter: "eq", list: false, onDelete: "cascade" },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "orderDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq" },
    { name: "result", label: "结果", type: "enum", dict: "defaultGenerateResult", required: true, filter: "eq" },
    { name: "orderNo", label: "订单号", type: "text", filter: "like", max: 32 },
    { name: "amount", label: "金额（元）", type: "money" },
    { name: "reason", label: "原因", type: "text", max: 500 },
  ],
});

/** Extra meals a diner orders for guests: paid by the diner (through the ledger) or by the department (recorded only). */
export const userOrderDefaultPc = defineResource({
  module: "zhct",
  entity: "userOrderDefaultPc",
  screen: "userorderdefaultpc",
  screenBase: "/zhct",
  table: "user_order_default_pc",
  title: "陪餐订餐",
  scope: "tenant",
  labelField: "orderDate",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "export"],
  indexOnly: true,
  // pcStatus 1 已下单, 2 已取消 (decision 070); a personal one's money goes back through the ledger, once.
  workflow: {
    field: "pcStatus",
    colors: { "1": "green", "2": "gray" },
    refusal: "该陪餐订单已取消",
    notFound: "陪餐订单不存在",
    transitions: [
      {
        name: "cancel",
        label: "取消",
        title: "取消陪餐",
        from: ["1"],
        to: "2",
        color: "red",
        note: "个人支付的金额将按原账户退回订餐人；部门支付的陪餐只记录取消，不涉及个人余额。",
        done: "陪餐已取消[，已退回 {refunded:yuan} 元]",
        idempotent: true,
      },
    ],
  },
  indexes: [["orderDate"], ["deptId", "orderDate"]],
  fields: [
    { name: "userInfoId", label: "订餐人", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "orderDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    restaurant,
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq" },
    { name: "guestCount", label: "陪餐人数", type: "number", required: true, defaultValue: 1, min: 1, max: 50 },
    { name: "unitPrice", label: "每份单价（元）", type: "money", required: true, list: false, min: 1, max: 100_000 },
    { name: "amount", label: "金额（元）", type: "money", required: true, readOnly: true, defaultValue: 0, sortable: true },
    { name: "payBy", label: "支付方", type: "enum", dict: "accompanyPayBy", required: true, filter: "eq", defaultValue: "1", description: "个人支付从订餐人现金账户扣款；部门支付记入订餐人所在部门，不扣个人余额" },
    { name: "deptId", label: "记账部门", type: "relation", relation: "auth/org", readOnly: true, filter: "eq" },
    { name: "reason", label: "陪餐事由", type: "text", required: true, max: 200 },
    { name: "pcStatus", label: "状态", type: "enum", dict: "accompanyStatus", required: true, readOnly: true, filter: "eq", defaultValue: "1" },
    { name: "cancelledAt", label: "取消时间", type: "datetime", readOnly: true, list: false },
  ],
});

/** Pick-up and delivery points of a restaurant (takeaway orders name one). */
export const deliveryPoint = defineResource({
  module: "zhct",
  entity: "deliveryPoint",
  screen: "deliverypoint",
  screenBase: "/zhct",
  table: "delivery_point",
  title: "配送点",
  scope: "tenant",
  labelField: "pointName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["restaurantId", "pointName"], message: "该餐厅已有同名配送点" }],
  fields: [
    restaurant,
    { name: "pointName", label: "名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "pointType", label: "类型", type: "enum", dict: "deliveryPointType", required: true, filter: "eq", defaultValue: "1" },
    { name: "address", label: "地址", type: "text", max: 200 },
    { name: "contactName", label: "联系人", type: "text", max: 50 },
    { name: "contactPhone", label: "联系电话", type: "text", max: 20, pattern: { regex: /^[0-9+\-\s]{5,20}$/, message: "联系电话只能包含数字、+、- 和空格" } },
    { name: "sort", label: "排序", type: "number", required: true, list: false, defaultValue: 0, min: 0, max: 9999, sortable: true },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
  ],
});

/** A delivery slot of a meal time; at most `capacity` takeaway orders a day take it. */
export const deliveryTime = defineResource({
  module: "zhct",
  entity: "deliveryTime",
  screen: "deliverytime",
  screenBase: "/zhct",
  table: "delivery_time",
  title: "配送时段",
  scope: "tenant",
  labelField: "slotName",
  defaultSort: { field: "beginTime", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["mealTimesId", "beginTime"], message: "该餐次已有同一开始时间的配送时段" }],
  fields: [
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", required: true, filter: "eq" },
    { name: "slotName", label: "名称", type: "text", required: true, filter: "like", max: 50 },
    { name: "beginTime", label: "开始时间", type: "time", required: true, sortable: true },
    { name: "endTime", label: "结束时间", type: "time", required: true },
    { name: "capacity", label: "每日容量（份）", type: "number", required: true, min: 1, max: 100_000, description: "每天此时段最多接受的外卖订单数" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
  ],
});

/** The point and slot a takeaway order carries; a cancelled order gives its place in the slot back. */
export const mealOrderDelivery = defineResource({
  module: "zhct",
  entity: "mealOrderDelivery",
  screen: "mealorderdelivery",
  screenBase: "/zhct",
  table: "meal_order_delivery",
  title: "外卖配送单",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["export"],
  uniqueKeys: [{ fields: ["orderId"], message: "该订单已有配送信息" }],
  // A slot's takeaway orders of a day: the capacity check counts them.
  indexes: [["deliveryTimeId", "deliveryDate"], ["deliveryDate"]],
  fields: [
    // Not a reference: the payment writes this before its order row (one transaction), as a ticket's use does.
    { name: "orderId", label: "订单 ID", type: "number", required: true, list: false, min: 1, max: Number.MAX_SAFE_INTEGER },
    { name: "orderNo", label: "订单号", type: "text", required: true, filter: "like", max: 32 },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "deliveryDate", label: "配送日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "deliveryPointId", label: "配送点", type: "relation", relation: "zhct/deliveryPoint", required: true, filter: "eq" },
    { name: "deliveryTimeId", label: "配送时段", type: "relation", relation: "zhct/deliveryTime", required: true, filter: "eq" },
    { name: "cancelledAt", label: "取消时间", type: "datetime" },
  ],
});
