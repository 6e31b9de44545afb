import { defineResource } from "../define";

/** Installable app packages (apk for Android devices, bdu for the recognition boxes); devices fetch the newest published one. */
export const appVersion = defineResource({
  module: "sys",
  entity: "appVersion",
  screen: "appversion",
  screenBase: "/admin/sys",
  table: "app_version",
  title: "应用版本",
  scope: "tenant",
  labelField: "versionName",
  defaultSort: { field: "versionCode", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    {
      name: "versionName",
      label: "版本名称",
      type: "text",
      required: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^\d+(\.\d+){0,3}([-+][0-9A-Za-z.]+)?$/, message: "版本名称格式如 1.2.3" },
    },
    { name: "versionCode", label: "版本号", type: "number", required: true, sortable: true, min: 1, max: 2_000_000_000, plain: true },
    { name: "fileType", label: "文件类型", type: "enum", dict: "appVersionFileType", required: true, filter: "eq", defaultValue: "apk" },
    { name: "fileUrl", label: "安装包", type: "file", required: true, max: 500 },
    { name: "fileSize", label: "文件大小（字节）", type: "number", min: 0, max: 9_000_000_000_000 },
    { name: "md5", label: "MD5", type: "text", list: false, max: 32, pattern: { regex: /^[0-9a-fA-F]{32}$/, message: "MD5 应为 32 位十六进制字符" } },
    { name: "forceUpdate", label: "强制更新", type: "boolean", defaultValue: false },
    { name: "status", label: "发布状态", type: "enum", dict: "appVersionStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "publishedAt", label: "发布时间", type: "datetime", readOnly: true, sortable: true },
    { name: "releaseNotes", label: "更新说明", type: "longText", max: 2000 },
  ],
});
