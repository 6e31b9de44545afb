import { defineResource } from "../define";

/** Which merchant runs which restaurant or stall: an org belongs to one merchant at most. */
export const merchantOrg = defineResource({
  module: "sys",
  entity: "merchantOrg",
  screen: "merchantorg",
  screenBase: "/admin/sys",
  table: "merchant_org",
  title: "商户机构",
  scope: "tenant",
  labelField: "merchantId",
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "merchantId", label: "商户", type: "relation", relation: "sys/merchant", required: true, filter: "eq" },
    { name: "orgId", label: "餐厅/档口", type: "relation", relation: "auth/org", required: true, filter: "eq" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
