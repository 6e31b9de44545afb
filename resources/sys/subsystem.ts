import { defineResource } from "../define";

/** Subsystems (spec §2): the top-level switch of the navigation; each owns a menu tree. Global to all tenants. */
export const subsystem = defineResource({
  module: "sys",
  entity: "subsystem",
  screen: "subsystem",
  screenBase: "/admin/sys",
  table: "subsystem",
  title: "子系统",
  scope: "global",
  shellData: true,
  superOnly: true,
  labelField: "sysName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "sysCode",
      label: "子系统编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_-]*$/, message: "子系统编码以字母开头，只能包含字母、数字、下划线和短横线" },
    },
    { name: "sysName", label: "子系统名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "icon", label: "图标", type: "text", max: 50, description: "Tabler 图标名，如 settings" },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, min: 0, max: 9999, defaultValue: 0 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
