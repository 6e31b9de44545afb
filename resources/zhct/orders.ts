import { defineResource } from "../define";

/**
 * Meal orders and their items (issue 13, decision 021). An order is written only by the payment service
 * (server/modules/zhct/payments.ts `pay`), for every channel: the cashier, devices, the back office's 新增订单 page.
 * It is never edited once paid: the declaration has no create or update action; an order is cancelled (refunded
 * through the ledger to the accounts it was paid from) and a new one made.
 */
export const mealOrder = defineResource({
  module: "zhct",
  entity: "mealOrder",
  screen: "mealorder",
  screenBase: "/zhct",
  table: "meal_order",
  title: "订单",
  menuTitle: "订单管理",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "paidAt", dir: "desc" },
  actions: ["export"],
  // place: the 新增订单 page (priced on the server, charged through `pay`); pay: the cashier's charge;
  // cancel: before the meal time's cancel deadline; cancelLate: after it, a manager with a reason.
  workflowActions: { place: "新增订单", pay: "收银", cancel: "取消订单", cancelLate: "超时取消" },
  headerLinks: [{ action: "place", path: "create" }],
  rowLinks: [{ action: "view", path: "detail/:id", label: "详情" }],
  // A diner's orders of a day (the pay limits' count and amount per meal), a day's orders (lists, reports),
  // a cashier's orders (the cashier orders screen, the shift summary).
  indexes: [["userInfoId", "orderDate"], ["orderDate"], ["paidAt"], ["cashierId", "paidAt"]],
  fields: [
    { name: "orderNo", label: "订单号", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 32 },
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "orderDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", filter: "eq", description: "按金额收款（小卖部等）时为空" },
    // Copied from the meal time at sale: the pay limits and the reports group by it without a join.
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", list: false },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
    { name: "stallId", label: "档口", type: "relation", relation: "auth/org", list: false, relationWhere: { field: "orgType", values: ["stall"] } },
    { name: "orderType", label: "订单类型", type: "enum", dict: "orderType", required: true, defaultValue: "1", list: false },
    { name: "amount", label: "订单金额（元）", type: "money", required: true, sortable: true },
    { name: "paidAmount", label: "实付金额（元）", type: "money", required: true },
    { name: "refundedAmount", label: "已退金额（元）", type: "money", required: true, defaultValue: 0 },
    { name: "payFlag", label: "支付方式", type: "enum", dict: "userAccountFlag", required: true, filter: "eq" },
    { name: "payResult", label: "支付结果", type: "enum", dict: "payResult", required: true, defaultValue: "1", list: false },
    { name: "orderAppointmentStatus", label: "预约状态", type: "enum", dict: "orderAppointmentStatus", list: false },
    { name: "orderSource", label: "来源", type: "enum", dict: "orderSource", required: true, filter: "eq" },
    { name: "orderStatus", label: "订单状态", type: "enum", dict: "mealOrderStatus", required: true, filter: "eq", defaultValue: "1" },
    // The operator's user id: the shift summary groups by it; people look cashiers up by name.
    { name: "cashierId", label: "收银员 ID", type: "number", list: false, hidden: true, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "cashierName", label: "收银员", type: "text", filter: "like", max: 100 },
    { name: "deviceCode", label: "设备编号", type: "text", filter: "eq", max: 64 },
    { name: "cardNo", label: "卡号", type: "text", filter: "like", max: 32 },
    { name: "paidAt", label: "下单时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "cancelReason", label: "取消原因", type: "text", list: false, max: 200 },
    { name: "cancelledByName", label: "取消人", type: "text", list: false, max: 100 },
    { name: "cancelledAt", label: "取消时间", type: "datetime", list: false },
  ],
});

/** An order's dishes: name and price copied at sale, so a later menu change never alters a paid order. */
export const mealOrderItem = defineResource({
  module: "zhct",
  entity: "mealOrderItem",
  screen: "mealorderitem",
  screenBase: "/zhct",
  table: "meal_order_item",
  title: "订单菜品",
  scope: "tenant",
  labelField: "foodName",
  defaultSort: { field: "createdAt", dir: "asc" },
  actions: [],
  fields: [
    { name: "mealOrderId", label: "订单", type: "relation", relation: "zhct/mealOrder", required: true, filter: "eq", onDelete: "cascade" },
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
    { name: "foodName", label: "菜品名称", type: "text", required: true, max: 100 },
    { name: "price", label: "单价（元）", type: "money", required: true },
    { name: "quantity", label: "数量", type: "number", required: true, min: 1, max: 1000 },
    { name: "subtotal", label: "小计（元）", type: "money", required: true },
    // The menu item it was sold from: its sold count went up by `quantity` (and goes down on cancel).
    { name: "foodMenuItemId", label: "菜单菜品", type: "relation", relation: "zhct/foodMenuItem", list: false },
  ],
});

/**
 * 收银订单 (spec §2 cashiermealorder): the same table, only the orders taken at cashiers, looked up by cashier,
 * device and time. A row opens the order's own detail page (its cancel lives there).
 */
export const cashierMealOrder = defineResource({
  module: "zhct",
  entity: "cashierMealOrder",
  screen: "cashiermealorder",
  screenBase: "/zhct",
  table: "meal_order",
  title: "收银订单",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "paidAt", dir: "desc" },
  actions: ["export"],
  fixedFilter: { field: "orderSource", value: "cashier" },
  rowLinks: [{ action: "view", entity: "mealOrder", path: "/zhct/mealorder/detail/:id", label: "详情" }],
  fields: mealOrder.fields.map((f) =>
    f.name === "orderSource" ? { ...f, list: false, filter: undefined } : f,
  ),
});
