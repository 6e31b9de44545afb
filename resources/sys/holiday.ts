import { defineResource } from "../define";

/** The tenant's calendar exceptions: public holidays, and weekend days that are worked in exchange. */
export const holiday = defineResource({
  module: "sys",
  entity: "holiday",
  screen: "holiday",
  screenBase: "/admin/sys",
  table: "holiday",
  title: "节假日",
  scope: "tenant",
  labelField: "holidayName",
  defaultSort: { field: "holidayDate", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "holidayDate", label: "日期", type: "date", required: true, unique: true, filter: "range", sortable: true },
    { name: "holidayName", label: "名称", type: "text", required: true, filter: "like", max: 50 },
    { name: "holidayType", label: "日期类型", type: "enum", dict: "holidayType", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
