import { defineResource, type ResourceWorkflow } from "../define";

/**
 * Private rooms and their reservations, and which diner sits at which table or carries which chip plate (spec §2
 * /zhct, issue 14 part C, decision 028). The rules are in server/modules/zhct/rooms.ts.
 */
const restaurantOnly = { field: "orgType", values: ["restaurant"] } as const;

export const room = defineResource({
  module: "zhct",
  entity: "room",
  screen: "room",
  screenBase: "/zhct",
  table: "room",
  title: "包间",
  menuTitle: "包间管理",
  scope: "tenant",
  labelField: "roomName",
  defaultSort: { field: "roomName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  uniqueKeys: [{ fields: ["roomName", "restaurantId"], message: "该餐厅已有同名包间" }],
  fields: [
    { name: "roomName", label: "包间名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "restaurantId", label: "所属餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: restaurantOnly },
    { name: "capacity", label: "容纳人数", type: "number", required: true, sortable: true, min: 1, max: 500, description: "一次预约的就餐人数不能超过它" },
    { name: "equipment", label: "设备设施", type: "text", max: 200, placeholder: "如：投影仪、音响、麦克风" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1", description: "无效的包间不能新预约" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** A room booked for a date and a time range; two reservations of one room that are not cancelled never overlap. */
export const roomReservation = defineResource({
  module: "zhct",
  entity: "roomReservation",
  screen: "roomreservation",
  screenBase: "/zhct",
  table: "room_reservation",
  title: "包间预约",
  scope: "tenant",
  labelField: "organizer",
  defaultSort: { field: "reserveDate", dir: "desc" },
  // Not deleted: a reservation given up is cancelled (取消), which frees its time and keeps the record.
  actions: ["create", "update", "export"],
  // A room's reservations of a day: the overlap check and the day's list.
  indexes: [["roomId", "reserveDate"]],
  fields: [
    { name: "roomId", label: "包间", type: "relation", relation: "zhct/room", required: true, filter: "eq" },
    { name: "reserveDate", label: "预约日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "beginTime", label: "开始时间", type: "time", required: true, sortable: true },
    { name: "endTime", label: "结束时间", type: "time", required: true },
    { name: "organizer", label: "预订人", type: "text", required: true, filter: "like", max: 50 },
    { name: "phone", label: "联系电话", type: "text", max: 20, list: false, pattern: { regex: /^[0-9+\- ]{5,20}$/, message: "联系电话只能包含数字、+、- 和空格" } },
    { name: "attendees", label: "就餐人数", type: "number", required: true, min: 1, max: 500, description: "不能超过包间的容纳人数" },
    { name: "standardPerHead", label: "餐标（元/人）", type: "money", required: true, defaultValue: 0, min: 0, max: 1_000_000 },
    { name: "reserveStatus", label: "预约状态", type: "enum", dict: "appointmentStatus", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** A binding is released once, by a device or from its row (decision 070); bindStatus 1 绑定中, 0 已解绑. */
const bindingWorkflow = (title: string): ResourceWorkflow => ({
  field: "bindStatus",
  colors: { "1": "green", "0": "gray" },
  refusal: "该绑定已解绑",
  notFound: `${title}不存在或已被删除`,
  transitions: [{ name: "release", label: "解绑", title: `解绑${title}`, from: ["1"], to: "0", color: "red", note: "解绑后可再绑定给其他人员。", done: "已解绑" }],
});

/**
 * Who sat at which table, and when: written by the table devices (`userAccountTable/bind` and `/release`), read
 * here. The order a diner paid while seated is noted on the binding.
 */
export const userAccountTable = defineResource({
  module: "zhct",
  entity: "userAccountTable",
  screen: "useraccounttable",
  screenBase: "/zhct",
  table: "user_account_table",
  title: "餐桌绑定",
  menuTitle: "餐桌绑定查询",
  scope: "tenant",
  labelField: "tableNo",
  defaultSort: { field: "boundAt", dir: "desc" },
  indexOnly: true,
  actions: ["export"],
  workflowActions: { bind: "绑定" },
  workflow: bindingWorkflow("餐桌绑定"),
  // A table's diners now (the device's release), and a day's bindings (the list's date filter).
  indexes: [["restaurantId", "tableNo", "bindStatus"], ["bindDate"]],
  fields: [
    { name: "tableNo", label: "桌号", type: "text", required: true, filter: "like", sortable: true, max: 20 },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: restaurantOnly },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "bindDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true, list: false },
    { name: "boundAt", label: "绑定时间", type: "datetime", required: true, sortable: true },
    { name: "releasedAt", label: "解绑时间", type: "datetime", sortable: true },
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder" },
    { name: "bindStatus", label: "绑定状态", type: "enum", dict: "bindStatus", required: true, filter: "eq", defaultValue: "1" },
    { name: "deviceCode", label: "设备编号", type: "text", max: 64, list: false },
  ],
});

/**
 * A chip plate (RFID) bound to a diner for a meal: bound at the entrance, released when the diner's order for that
 * meal is paid (or by hand). A plate is held by one diner at a time.
 */
export const userPlate = defineResource({
  module: "zhct",
  entity: "userPlate",
  screen: "userplate",
  screenBase: "/zhct",
  table: "user_plate",
  title: "餐盘绑定",
  scope: "tenant",
  labelField: "plateNo",
  defaultSort: { field: "boundAt", dir: "desc" },
  indexOnly: true,
  actions: ["export"],
  workflowActions: { bind: "绑定" },
  workflow: bindingWorkflow("餐盘绑定"),
  indexes: [["plateNo", "bindStatus"], ["bindDate"]],
  fields: [
    { name: "plateNo", label: "餐盘号（RFID）", type: "text", required: true, filter: "like", sortable: true, max: 32 },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "bindDate", label: "就餐日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "mealTimesId", label: "餐次", type: "relation", relation: "zhct/mealTimes", filter: "eq" },
    { name: "boundAt", label: "绑定时间", type: "datetime", required: true, sortable: true },
    { name: "releasedAt", label: "解绑时间", type: "datetime", sortable: true },
    { name: "orderId", label: "结算订单", type: "relation", relation: "zhct/mealOrder" },
    { name: "bindStatus", label: "绑定状态", type: "enum", dict: "bindStatus", required: true, filter: "eq", defaultValue: "1" },
    { name: "deviceCode", label: "设备编号", type: "text", max: 64, list: false },
  ],
});
