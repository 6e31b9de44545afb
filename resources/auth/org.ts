import { defineResource } from "../define";

export const org = defineResource({
  module: "auth",
  entity: "org",
  screen: "org",
  screenBase: "/admin/auth",
  table: "org",
  title: "机构",
  menuTitle: "机构管理",
  scope: "tenant",
  labelField: "orgName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  tree: true,
  fields: [
    { name: "parentId", label: "上级机构", type: "treeParent", relation: "auth/org", filter: "eq" },
    { name: "orgName", label: "机构名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    {
      name: "orgCode",
      label: "机构编码",
      type: "text",
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, message: "机构编码只能包含字母、数字、下划线和短横线" },
    },
    { name: "orgType", label: "机构类型", type: "enum", dict: "orgType", required: true, filter: "eq", defaultValue: "department" },
    { name: "sort", label: "排序", type: "number", min: 0, max: 99999, sortable: true, defaultValue: 0 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
