import { defineResource } from "../define";

/** Spec §2 "mealordercomplaints (order appeals)", §3, §7. Status moves only through process and revoke. */
export const mealOrderComplaints = defineResource({
  module: "zhct",
  entity: "mealOrderComplaints",
  screen: "mealordercomplaints",
  screenBase: "/zhct",
  table: "meal_order_complaints",
  title: "订餐申诉",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "export"],
  workflowActions: { process: "处理" },
  rowLinks: [{ action: "process", path: "process/:id" }],
  // status 0 未处理, 1 已撤销, 2 已处理, 3 已驳回 (decision 070). 处理 upholds or dismisses on one screen (its own:
  // the order and a refund); 撤销 is the complainant's, decided by its endpoint.
  workflow: {
    field: "status",
    colors: { "0": "orange", "1": "gray", "2": "green", "3": "red" },
    refusal: "该申诉当前为「{status}」，不能{action}",
    notFound: "订餐申诉不存在或已被删除",
    transitions: [
      { name: "process", label: "处理", from: ["0"], to: "2", screen: false },
      { name: "reject", label: "处理", from: ["0"], to: "3", screen: false, permission: "process" },
      { name: "revoke", label: "撤销", from: ["0"], to: "1", screen: false, permission: null },
    ],
  },
  fields: [
    { name: "orderNo", label: "订单号", type: "text", required: true, filter: "like", sortable: true, max: 64 },
    // The order complained about (issue 13): processing it as upheld may refund part of it through the ledger.
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder", list: false },
    { name: "content", label: "申诉内容", type: "longText", required: true, list: true, max: 1000 },
    { name: "images", label: "申诉图片", type: "image", list: false },
    { name: "complainantName", label: "申诉人", type: "text", readOnly: true, filter: "like" },
    { name: "complainantId", label: "申诉人 ID", type: "number", readOnly: true, hidden: true, list: false },
    { name: "status", label: "处理状态", type: "enum", dict: "mealOrderComplaintsProcessStatus", readOnly: true, filter: "eq" },
    { name: "reply", label: "处理回复", type: "longText", readOnly: true, list: false },
    { name: "handlerName", label: "处理人", type: "text", readOnly: true },
    { name: "refundAmount", label: "退款金额（元）", type: "money", readOnly: true, list: false },
    { name: "handledAt", label: "处理时间", type: "datetime", readOnly: true, sortable: true },
    { name: "revokedAt", label: "撤销时间", type: "datetime", readOnly: true, list: false },
    { name: "createdAt", label: "申诉时间", type: "datetime", readOnly: true, filter: "range", sortable: true },
  ],
});
