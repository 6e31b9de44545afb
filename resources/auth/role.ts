import { defineResource } from "../define";

export const role = defineResource({
  module: "auth",
  entity: "role",
  screen: "role",
  screenBase: "/admin/auth",
  table: "role",
  title: "角色",
  scope: "tenant",
  shellData: true,
  labelField: "roleName",
  defaultSort: { field: "roleCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { assignMenu: "分配菜单" },
  rowLinks: [{ action: "assignMenu", path: "assignMenu/:id" }],
  fields: [
    {
      name: "roleCode",
      label: "角色编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_]*$/, message: "角色编码以字母开头，只能包含字母、数字和下划线" },
    },
    { name: "roleName", label: "角色名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "roleType", label: "角色类型", type: "enum", dict: "roleType", required: true, filter: "eq", defaultValue: "user" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
