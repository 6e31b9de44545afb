import { defineResource } from "../define";

/** Cloud receipt printers of the stalls (serial number and key of the printer vendor's service). */
export const printDevice = defineResource({
  module: "sys",
  entity: "printDevice",
  screen: "printdevice",
  screenBase: "/admin/sys",
  table: "print_device",
  title: "打印机",
  scope: "tenant",
  labelField: "printerName",
  defaultSort: { field: "printerName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "printerName", label: "打印机名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    {
      name: "printerSn",
      label: "打印机编号",
      type: "text",
      required: true,
      unique: true,
      filter: "like",
      sortable: true,
      max: 50,
      pattern: { regex: /^[A-Za-z0-9]+$/, message: "打印机编号只能包含字母和数字" },
    },
    { name: "printerKey", label: "打印机密钥", type: "text", list: false, max: 100, secret: true, description: "已设置时显示为 ******；留空或不改即保留原密钥" },
    { name: "orgId", label: "所属档口", type: "relation", relation: "auth/org", filter: "eq" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
