import { defineResource } from "../define";

/** Items of a dictionary; values are compared as strings (spec §3), their type says how to read them. */
export const dictItem = defineResource({
  module: "sys",
  entity: "dictItem",
  screen: "dictitem",
  screenBase: "/admin/sys",
  table: "dict_item",
  title: "字典项",
  scope: "global",
  shellData: true,
  superOnly: true,
  labelField: "itemText",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "dictCode",
      label: "字典编码",
      type: "text",
      required: true,
      filter: "eq",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_]*$/, message: "字典编码以字母开头，只能包含字母、数字和下划线" },
    },
    { name: "itemValue", label: "字典值", type: "text", required: true, filter: "eq", sortable: true, max: 50 },
    { name: "itemText", label: "字典文本", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "itemType", label: "值类型", type: "enum", dict: "dictItemType", required: true, filter: "eq", defaultValue: "0" },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, min: 0, max: 9999, defaultValue: 0 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
