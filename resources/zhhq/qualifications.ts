import { defineResource } from "../define";

/**
 * A supplier's licences (issue 35, decision 076): type, number, issuer, validity and a scan. A stock-in from a supplier
 * whose required licence is missing or not in force on the document's date is refused (or, where the tenant only
 * warns, marked): the rule is server/modules/zhhq/supplierQualification.ts.
 */
export const supplierQualification = defineResource({
  module: "zhhq",
  entity: "supplierQualification",
  screen: "supplierqualification",
  screenBase: "/zhhq",
  table: "supplier_qualification",
  title: "供应商资质",
  scope: "tenant",
  labelField: "qualNo",
  defaultSort: { field: "validTo", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexes: [["supplierId", "qualType"]],
  fields: [
    { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", required: true, filter: "eq", onDelete: "cascade" },
    { name: "qualType", label: "资质类型", type: "enum", dict: "supplierQualType", required: true, filter: "eq" },
    { name: "qualNo", label: "证书编号", type: "text", required: true, filter: "like", sortable: true, max: 60 },
    { name: "issuer", label: "发证机关", type: "text", max: 100 },
    { name: "validFrom", label: "生效日期", type: "date", sortable: true },
    { name: "validTo", label: "有效期至", type: "date", filter: "range", sortable: true, description: "不填表示长期有效" },
    { name: "fileUrl", label: "证书扫描件", type: "image", uploads: ["image", "pdf"], description: "JPG 或 PNG 小于 2M，或 PDF 不超过 10M" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
