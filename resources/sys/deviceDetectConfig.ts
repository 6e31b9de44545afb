import { defineResource } from "../define";

/** Recognition thresholds of one device (one configuration per device). */
export const deviceDetectConfig = defineResource({
  module: "sys",
  entity: "deviceDetectConfig",
  screen: "devicedetectconfig",
  screenBase: "/admin/sys",
  table: "device_detect_config",
  title: "设备识别配置",
  scope: "tenant",
  labelField: "deviceId",
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "deviceId", label: "设备", type: "relation", relation: "sys/device", required: true, filter: "eq" },
    { name: "confidenceThreshold", label: "置信度阈值（%）", type: "number", required: true, sortable: true, min: 0, max: 100, defaultValue: 80 },
    { name: "weightTolerance", label: "重量误差（克）", type: "number", min: 0, max: 1000, defaultValue: 10 },
    { name: "detectInterval", label: "识别间隔（毫秒）", type: "number", min: 100, max: 60000, defaultValue: 1000 },
    { name: "maxItems", label: "单次最多识别数", type: "number", min: 1, max: 50, defaultValue: 10 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
