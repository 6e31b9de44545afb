import { defineResource } from "../define";

/** Faults reported by or for a device; staff mark them handled with a note. */
export const exceptionInfo = defineResource({
  module: "sys",
  entity: "exceptionInfo",
  screen: "exceptioninfo",
  screenBase: "/admin/sys",
  table: "exception_info",
  title: "设备异常",
  scope: "tenant",
  labelField: "message",
  defaultSort: { field: "occurredAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "deviceId", label: "设备", type: "relation", relation: "sys/device", required: true, filter: "eq" },
    { name: "occurredAt", label: "发生时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "level", label: "异常级别", type: "enum", dict: "exceptionLevel", required: true, filter: "eq", sortable: true, defaultValue: "3" },
    { name: "message", label: "异常信息", type: "text", required: true, filter: "like", max: 500 },
    { name: "detail", label: "详细信息", type: "longText", max: 4000 },
    { name: "handled", label: "是否已处理", type: "enum", dict: "yesOrNo", required: true, filter: "eq", defaultValue: "0" },
    { name: "handledAt", label: "处理时间", type: "datetime", readOnly: true, sortable: true },
    { name: "handlerName", label: "处理人", type: "text", readOnly: true, max: 100 },
    { name: "handleNote", label: "处理说明", type: "longText", max: 500 },
  ],
});
