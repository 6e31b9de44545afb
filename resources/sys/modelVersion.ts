import { defineResource } from "../define";

/** Dish-recognition model files; recognition servers load the newest published version. */
export const modelVersion = defineResource({
  module: "sys",
  entity: "modelVersion",
  screen: "modelversion",
  screenBase: "/admin/sys",
  table: "model_version",
  title: "模型版本",
  scope: "tenant",
  labelField: "version",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "version",
      label: "模型版本",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[0-9A-Za-z][0-9A-Za-z._-]*$/, message: "模型版本只能包含字母、数字、点、下划线和短横线" },
    },
    { name: "fileUrl", label: "模型文件", type: "file", required: true, max: 500 },
    { name: "fileSize", label: "文件大小（字节）", type: "number", min: 0, max: 9_000_000_000_000 },
    { name: "md5", label: "MD5", type: "text", list: false, max: 32, pattern: { regex: /^[0-9a-fA-F]{32}$/, message: "MD5 应为 32 位十六进制字符" } },
    { name: "status", label: "发布状态", type: "enum", dict: "entityStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "publishedAt", label: "发布时间", type: "datetime", readOnly: true, sortable: true },
    { name: "releaseNotes", label: "更新说明", type: "longText", max: 2000 },
  ],
});
