import { defineResource } from "../define";

/**
 * Canteen devices (settlement boxes, apps, recognition servers). Online status, last heartbeat and app version
 * come from the device's heartbeat (a device account holds the heartbeat code); its parameters are edited on
 * setting/{id}.
 */
export const device = defineResource({
  module: "sys",
  entity: "device",
  screen: "device",
  screenBase: "/admin/sys",
  table: "device",
  title: "设备",
  scope: "tenant",
  labelField: "deviceName",
  defaultSort: { field: "deviceCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { setting: "参数设置", heartbeat: "心跳上报" },
  rowLinks: [{ action: "setting", path: "setting/:id" }],
  fields: [
    {
      name: "deviceCode",
      label: "设备编码",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, message: "设备编码只能包含字母、数字、下划线和短横线" },
    },
    { name: "deviceName", label: "设备名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "deviceType", label: "设备类型", type: "enum", dict: "deviceType", required: true, filter: "eq" },
    { name: "orgId", label: "所属餐厅", type: "relation", relation: "auth/org", filter: "eq" },
    {
      name: "ip",
      label: "IP 地址",
      type: "text",
      max: 15,
      pattern: {
        regex: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
        message: "请输入有效的 IPv4 地址，如 192.168.1.20",
      },
    },
    {
      name: "mac",
      label: "MAC 地址",
      type: "text",
      max: 17,
      pattern: { regex: /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/, message: "请输入有效的 MAC 地址，如 AA:BB:CC:DD:EE:FF" },
    },
    { name: "aliveStatus", label: "在线状态", type: "enum", dict: "aliveStatus", readOnly: true, filter: "eq" },
    { name: "lastHeartbeatAt", label: "最后心跳", type: "datetime", readOnly: true, sortable: true },
    { name: "appVersion", label: "应用版本", type: "text", readOnly: true, max: 50 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
