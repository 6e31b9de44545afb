import { defineResource } from "../define";

/**
 * Meal tickets (餐券) and returned dishware (spec §2 /zhct, issue 13, decision 024): a setting per ticket type, the
 * applications that are approved and then pay for meals, each use of one, and the dishware and leftovers recovered
 * per order. The rules are in server/modules/zhct/tickets.ts.
 */
export const mealTicketSetting = defineResource({
  module: "zhct",
  entity: "mealTicketSetting",
  screen: "mealticketsetting",
  screenBase: "/zhct",
  table: "meal_ticket_setting",
  title: "餐券设置",
  scope: "tenant",
  labelField: "ticketType",
  defaultSort: { field: "ticketType", dir: "asc" },
  actions: ["create", "update", "delete"],
  fields: [
    { name: "ticketType", label: "餐券类型", type: "enum", dict: "ticketType", required: true, unique: true, filter: "eq", sortable: true },
    { name: "amount", label: "面值（元）", type: "money", required: true, min: 1, max: 1_000_000, description: "一张餐券最多支付的金额；本餐超出面值时不能用餐券支付" },
    // The meal types a ticket pays for (餐别 of the order's meal time): one check box each, so the form needs no script.
    { name: "breakfast", label: "早餐可用", type: "boolean", defaultValue: false },
    { name: "lunch", label: "午餐可用", type: "boolean", defaultValue: true },
    { name: "dinner", label: "晚餐可用", type: "boolean", defaultValue: true },
    { name: "midnight", label: "夜宵可用", type: "boolean", defaultValue: false },
    { name: "approverRoleId", label: "审批角色", type: "relation", relation: "auth/role", filter: "eq", description: "拥有此角色的用户可以审批；与审批人至少填一项" },
    { name: "approverUserId", label: "审批人", type: "relation", relation: "auth/user", description: "此用户可以审批" },
    { name: "validDays", label: "默认有效天数", type: "number", required: true, defaultValue: 1, min: 1, max: 366, description: "申请时未填有效期止，则自有效期起算这些天" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** An application for tickets: approved (by whom the setting allows, not the applicant), then used meal by meal. */
export const mealTicket = defineResource({
  module: "zhct",
  entity: "mealTicket",
  screen: "mealticket",
  screenBase: "/zhct",
  table: "meal_ticket",
  title: "餐券",
  menuTitle: "餐券申请",
  scope: "tenant",
  labelField: "reason",
  defaultSort: { field: "appliedAt", dir: "desc" },
  actions: ["create", "update", "export"],
  workflowActions: { approve: "审批" },
  rowLinks: [{ action: "approve", path: "approve/:id" }],
  // approvedStatus -1 未审批, 1 通过, 0 驳回 (decision 070); both steps are decided on one screen, 审批 (ticket-approve).
  workflow: {
    field: "approvedStatus",
    colors: { "-1": "orange", "1": "green", "0": "red" },
    refusal: "该餐券当前为「{status}」，不能{action}",
    notFound: "餐券不存在或已被删除",
    transitions: [
      { name: "approve", label: "审批通过", from: ["-1"], to: "1", screen: false },
      { name: "reject", label: "驳回", from: ["-1"], to: "0", screen: false, permission: "approve" },
    ],
  },
  // A diner's tickets of a type, for the payment's look-up.
  indexes: [["userInfoId", "ticketType", "approvedStatus"]],
  fields: [
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "ticketType", label: "餐券类型", type: "enum", dict: "ticketType", required: true, filter: "eq" },
    { name: "ticketCount", label: "张数", type: "number", required: true, defaultValue: 1, min: 1, max: 100, description: "可用餐次数" },
    { name: "validFrom", label: "有效期起", type: "date", list: false, sortable: true, description: "不填则为申请当天" },
    { name: "validTo", label: "有效期止", type: "date", sortable: true, description: "不填则按餐券设置的默认有效天数" },
    { name: "reason", label: "申请事由", type: "longText", required: true, list: true, max: 500 },
    { name: "applicantName", label: "申请人", type: "text", readOnly: true, filter: "like", max: 100 },
    { name: "applicantId", label: "申请人 ID", type: "number", readOnly: true, hidden: true, list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "approvedStatus", label: "审批状态", type: "enum", dict: "approvedStatus", required: true, readOnly: true, filter: "eq", defaultValue: "-1" },
    { name: "approverName", label: "审批人", type: "text", readOnly: true, max: 100 },
    { name: "approverId", label: "审批人 ID", type: "number", readOnly: true, hidden: true, list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "approvedAt", label: "审批时间", type: "datetime", readOnly: true, list: false },
    { name: "approveRemark", label: "审批意见", type: "text", readOnly: true, list: false, max: 500 },
    { name: "usedCount", label: "已用张数", type: "number", required: true, readOnly: true, defaultValue: 0, min: 0, max: 100 },
    { name: "usedStatus", label: "使用状态", type: "enum", dict: "usedStatus", required: true, readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "appliedAt", label: "申请时间", type: "datetime", required: true, readOnly: true, list: false, filter: "range", sortable: true },
  ],
});

/** One meal a ticket paid for; cancelling the order returns it (returnedAt) and the ticket gets the use back. */
export const mealTicketUse = defineResource({
  module: "zhct",
  entity: "mealTicketUse",
  screen: "mealticketuse",
  screenBase: "/zhct",
  table: "meal_ticket_use",
  title: "餐券使用记录",
  scope: "tenant",
  labelField: "orderId",
  defaultSort: { field: "usedAt", dir: "desc" },
  actions: ["export"],
  // An order is paid by at most one ticket: a retried payment cannot take a second use.
  uniqueKeys: [{ fields: ["orderId"], message: "该订单已用餐券支付" }],
  indexes: [["ticketId", "usedAt"]],
  fields: [
    { name: "ticketId", label: "餐券", type: "relation", relation: "zhct/mealTicket", required: true, filter: "eq" },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    // Not a reference: the payment takes the use before it writes its order row (one transaction).
    { name: "orderId", label: "订单 ID", type: "number", required: true, filter: "eq", min: 1, max: Number.MAX_SAFE_INTEGER },
    { name: "amount", label: "支付金额（元）", type: "money", required: true },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType" },
    { name: "usedAt", label: "使用时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "returnedAt", label: "退回时间", type: "datetime" },
  ],
});

/** Dishware and leftovers brought back per order (DOMAIN.md "Meal recovery"). */
export const mealRecovery = defineResource({
  module: "zhct",
  entity: "mealRecovery",
  screen: "mealrecovery",
  screenBase: "/zhct",
  table: "meal_recovery",
  title: "餐具回收",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "recordedAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder", required: true, filter: "eq" },
    // Copied from the order, so the list filters and names rows without a join.
    { name: "orderNo", label: "订单号", type: "text", readOnly: true, list: false, filter: "like", sortable: true, max: 32 },
    { name: "userInfoId", label: "就餐人员", type: "relation", relation: "zhct/userInfo", readOnly: true, filter: "eq" },
    { name: "bowlsReturned", label: "回收餐具（个）", type: "number", required: true, defaultValue: 0, min: 0, max: 100 },
    { name: "leftoverWeight", label: "剩余重量（克）", type: "number", required: true, defaultValue: 0, min: 0, max: 100_000, sortable: true },
    { name: "images", label: "回收照片", type: "image", list: false },
    { name: "recoveryStatus", label: "回收状态", type: "enum", dict: "mealRecoveryStatus", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
    { name: "recordedBy", label: "登记人", type: "text", readOnly: true, max: 100 },
    { name: "recordedAt", label: "登记时间", type: "datetime", required: true, readOnly: true, filter: "range", sortable: true },
  ],
});
