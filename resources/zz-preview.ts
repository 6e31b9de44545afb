// PREVIEW ONLY — never committed.
import { defineDocument } from "./document";
const statuses = [
  { value: "draft", label: "草稿", color: "gray" },
  { value: "submitted", label: "已提交", color: "blue" },
  { value: "rejected", label: "已驳回", color: "orange" },
  { value: "approved", label: "已审核", color: "green" },
  { value: "voided", label: "已作废", color: "red" },
] as const;
export const previewDoc = defineDocument({
  module: "zhct",
  entity: "previewIn",
  screen: "previewin",
  screenBase: "/zhct",
  title: "预览入库单",
  header: {
    table: "zz_preview_in",
    fields: [
      { name: "supplier", label: "供应商", type: "text", required: true, filter: "like", max: 50 },
      { name: "bizDate", label: "业务日期", type: "date", required: true, filter: "range", sortable: true },
      { name: "remark", label: "备注", type: "longText", max: 500 },
    ],
  },
  lines: {
    table: "zz_preview_in_line",
    title: "入库明细",
    min: 1,
    fields: [
      { name: "orgId", label: "部门", type: "relation", relation: "auth/org", required: true },
      { name: "goodsName", label: "物品名称", type: "text", required: true, max: 50 },
      { name: "quantity", label: "数量", type: "number", required: true, min: 1, max: 1_000_000_000 },
      { name: "amount", label: "金额", type: "money", required: true, min: 0 },
    ],
  },
  numbering: { prefix: "RK" },
  workflow: {
    statuses,
    initial: "draft",
    editable: ["draft", "rejected"],
    transitions: [
      { name: "submit", label: "提交", from: ["draft", "rejected"], to: "submitted" },
      { name: "reject", label: "驳回", from: ["submitted"], to: "rejected", reasonRequired: true },
      { name: "approve", label: "审核", from: ["submitted"], to: "approved", confirm: "审核后将计入库存，不能修改" },
      { name: "void", label: "作废", from: ["draft", "rejected", "approved"], to: "voided", reasonRequired: true },
    ],
  },
});
