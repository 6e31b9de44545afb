import { defineResource } from "../define";

/** System parameters of the tenant: a code, its value, and what it means. Merchants may override some (merchantconfig). */
export const parameterConfig = defineResource({
  module: "sys",
  entity: "parameterConfig",
  screen: "parameterconfig",
  screenBase: "/admin/sys",
  table: "parameter_config",
  title: "系统参数",
  scope: "tenant",
  labelField: "paramName",
  defaultSort: { field: "paramCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "paramCode",
      label: "参数编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 100,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_.]*$/, message: "参数编码以字母开头，只能包含字母、数字、下划线和点" },
    },
    { name: "paramName", label: "参数名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "paramValue", label: "参数值", type: "text", list: true, max: 2000 },
    { name: "remark", label: "说明", type: "longText", max: 500 },
  ],
});
