import { defineResource } from "../define";

/** Notices to canteen staff and diners; publishing stamps the publish time. */
export const announcement = defineResource({
  module: "sys",
  entity: "announcement",
  screen: "announcement",
  screenBase: "/admin/sys",
  table: "announcement",
  title: "公告",
  scope: "tenant",
  labelField: "title",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "title", label: "标题", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "content", label: "内容", type: "longText", required: true, max: 10000 },
    { name: "publishStatus", label: "发布状态", type: "enum", dict: "entityStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "publishedAt", label: "发布时间", type: "datetime", readOnly: true, filter: "range", sortable: true },
  ],
});
