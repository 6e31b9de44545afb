import { defineResource } from "../define";

/** A department's discount on meals: the share of the price its staff pay, per meal type and period. */
export const orgDiscount = defineResource({
  module: "auth",
  entity: "orgDiscount",
  screen: "orgdiscount",
  screenBase: "/admin/auth",
  table: "org_discount",
  title: "部门折扣",
  scope: "tenant",
  labelField: "orgId",
  defaultSort: { field: "validFrom", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "orgId", label: "部门", type: "relation", relation: "auth/org", required: true, filter: "eq" },
    {
      name: "discountRate",
      label: "折扣率（%）",
      type: "number",
      required: true,
      min: 0,
      max: 100,
      sortable: true,
      description: "按原价的百分比收取，如 80 表示八折，0 表示免费",
    },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq" },
    { name: "validFrom", label: "生效日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "validTo", label: "失效日期", type: "date", required: true, sortable: true },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
