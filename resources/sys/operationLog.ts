import { defineResource } from "../define";
import { describeChanges, entityTitle } from "../operations";

/** Who changed what and when: written by every create, update and delete; read-only here. */
export const operationLog = defineResource({
  module: "sys",
  entity: "operationLog",
  screen: "operationlog",
  screenBase: "/admin/sys",
  table: "operation_log",
  title: "操作日志",
  scope: "tenant",
  labelField: "entity",
  defaultSort: { field: "time", dir: "desc" },
  actions: ["export"],
  fields: [
    { name: "time", column: "created_at", label: "时间", type: "datetime", filter: "range", sortable: true, readOnly: true },
    { name: "userName", label: "操作人", type: "text", filter: "like", sortable: true, readOnly: true },
    { name: "entity", label: "数据类型", type: "text", filter: "like", sortable: true, readOnly: true, show: (value, _record, text) => entityTitle(value, text) },
    { name: "entityId", label: "数据 ID", type: "number", filter: "eq", readOnly: true, max: Number.MAX_SAFE_INTEGER },
    { name: "action", label: "操作", type: "enum", dict: "operationAction", filter: "eq", readOnly: true },
    { name: "changes", label: "变更内容", type: "longText", list: true, readOnly: true, show: (value, record, text) => describeChanges(record.entity, value, text) },
    { name: "ip", label: "IP 地址", type: "text", readOnly: true },
  ],
});
