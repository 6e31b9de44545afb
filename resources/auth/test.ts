import { defineResource } from "../define";

/** A plain entity for trying the generic screens out. */
export const test = defineResource({
  module: "auth",
  entity: "test",
  screen: "test",
  screenBase: "/admin/auth",
  table: "test",
  title: "测试",
  scope: "tenant",
  labelField: "name",
  defaultSort: { field: "name", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "name", label: "名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "value", label: "值", type: "text", filter: "like", max: 200 },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
