import { defineResource } from "../define";

/** Merchants that run restaurants or stalls and are settled with (bank details for the monthly settlement). */
export const merchant = defineResource({
  module: "sys",
  entity: "merchant",
  screen: "merchant",
  screenBase: "/admin/sys",
  table: "merchant",
  title: "商户",
  scope: "tenant",
  labelField: "merchantName",
  defaultSort: { field: "merchantCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "merchantCode",
      label: "商户编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, message: "商户编码只能包含字母、数字、下划线和短横线" },
    },
    { name: "merchantName", label: "商户名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "contactName", label: "联系人", type: "text", filter: "like", max: 50 },
    { name: "contactPhone", label: "联系电话", type: "text", max: 30, pattern: { regex: /^[0-9+\-() ]{5,30}$/, message: "请输入有效的电话号码" } },
    { name: "bankName", label: "开户银行", type: "text", list: false, max: 100 },
    { name: "accountName", label: "开户名", type: "text", list: false, max: 100 },
    {
      name: "settlementAccount",
      label: "结算账号",
      type: "text",
      max: 30,
      pattern: { regex: /^\d{8,30}$/, message: "结算账号应为 8 至 30 位数字" },
    },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
