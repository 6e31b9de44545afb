import { defineResource } from "../define";

export const CARD_SERIAL = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{16})$/;

/**
 * The IC card initialisation log (spec §2 iccard): one row per card whose sectors were written with the tenant's
 * keys. A card is initialised once per tenant; failed attempts are logged with their reason.
 */
export const iccardInit = defineResource({
  module: "sys",
  entity: "iccardInit",
  screen: "iccard",
  screenBase: "/admin/sys",
  table: "iccard_init",
  title: "IC卡初始化",
  scope: "tenant",
  labelField: "cardSerial",
  defaultSort: { field: "initializedAt", dir: "desc" },
  actions: ["create", "export"],
  fields: [
    {
      name: "cardSerial",
      label: "卡序列号",
      type: "text",
      required: true,
      filter: "like",
      sortable: true,
      max: 16,
      pattern: { regex: CARD_SERIAL, message: "卡序列号应为 8 位或 16 位十六进制字符" },
    },
    { name: "keyVersion", label: "密钥版本", type: "number", required: true, filter: "eq", min: 1, max: 255, defaultValue: 1 },
    {
      name: "sectors",
      label: "初始化扇区",
      type: "text",
      required: true,
      max: 100,
      defaultValue: "1-15",
      pattern: { regex: /^\d{1,2}(-\d{1,2})?(,\d{1,2}(-\d{1,2})?)*$/, message: "扇区格式如 1-15 或 1,2,5-8" },
    },
    { name: "result", label: "结果", type: "enum", dict: "iccardInitResult", required: true, filter: "eq", defaultValue: "1" },
    { name: "message", label: "说明", type: "longText", max: 500 },
    { name: "operatorName", label: "操作人", type: "text", readOnly: true, filter: "like", max: 100 },
    { name: "initializedAt", label: "初始化时间", type: "datetime", readOnly: true, filter: "range", sortable: true },
  ],
});
