import { defineResource } from "../define";

/** Dictionaries (spec §3): code lists whose items the server sends after sign-in. Global to all tenants. */
export const dict = defineResource({
  module: "sys",
  entity: "dict",
  screen: "dict",
  screenBase: "/admin/sys",
  table: "dict",
  title: "字典",
  scope: "global",
  shellData: true,
  superOnly: true,
  labelField: "dictName",
  defaultSort: { field: "dictCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "dictCode",
      label: "字典编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_]*$/, message: "字典编码以字母开头，只能包含字母、数字和下划线" },
    },
    { name: "dictName", label: "字典名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
