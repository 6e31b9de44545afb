import { defineResource } from "../define";

/** A merchant's own value of a system parameter (parameterconfig); without one the system value applies. */
export const merchantConfig = defineResource({
  module: "sys",
  entity: "merchantConfig",
  screen: "merchantconfig",
  screenBase: "/admin/sys",
  table: "merchant_config",
  title: "商户参数",
  scope: "tenant",
  labelField: "parameterCode",
  defaultSort: { field: "parameterCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "merchantId", label: "商户", type: "relation", relation: "sys/merchant", required: true, filter: "eq" },
    { name: "parameterCode", label: "参数编码", type: "text", required: true, filter: "eq", sortable: true, max: 100 },
    { name: "paramValue", label: "参数值", type: "text", max: 2000 },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
