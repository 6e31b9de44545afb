import { defineResource } from "../define";

/**
 * 收支管理's master data (spec §2 /sc, issue 37): the goods a canteen buys outside the warehouse (vegetables from the
 * market, gas, cleaning supplies) in a tree of categories, and the suppliers of those goods. A purchase may name one
 * of the warehouse's suppliers instead (resources/sc/purchase.ts).
 */
const status = { name: "status", label: "状态", type: "enum", dict: "status", filter: "eq", defaultValue: "1" } as const;
const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;

/** Where a figure of 收支 belongs: a restaurant or one of its stalls (商户). */
export const placeOnly = { field: "orgType", values: ["restaurant", "stall"] } as const;
export const placeField = { name: "restaurantId", label: "餐厅/商户", type: "relation", relation: "auth/org", relationWhere: placeOnly, filter: "eq" } as const;

export const scProductCategory = defineResource({
  module: "sc",
  entity: "scProductCategory",
  screen: "scproductcategorie",
  screenBase: "/sc",
  table: "sc_product_category",
  title: "商品分类",
  scope: "tenant",
  labelField: "categoryName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "parentId", label: "上级分类", type: "treeParent", relation: "sc/scProductCategory", filter: "eq" },
    { name: "categoryName", label: "分类名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    status,
    remark,
  ],
});

export const scProduct = defineResource({
  module: "sc",
  entity: "scProduct",
  screen: "scproduct",
  screenBase: "/sc",
  table: "sc_product",
  title: "商品",
  menuTitle: "商品档案",
  scope: "tenant",
  labelField: "productName",
  labelDetail: ["spec"],
  defaultSort: { field: "productName", dir: "asc" },
  actions: ["create", "update", "delete", "export", "import"],
  fields: [
    { name: "productName", label: "商品名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "categoryId", label: "商品分类", type: "relation", relation: "sc/scProductCategory", filter: "eq" },
    { name: "spec", label: "规格", type: "text", max: 50, placeholder: "如：5kg/箱" },
    { name: "unitName", label: "单位", type: "text", max: 10, placeholder: "如：千克、箱、瓶" },
    { name: "referencePrice", label: "参考单价（元）", type: "money", max: 100_000_000, sortable: true },
    status,
    remark,
  ],
});

export const scSupplier = defineResource({
  module: "sc",
  entity: "scSupplier",
  screen: "scsupplier",
  screenBase: "/sc",
  table: "sc_supplier",
  title: "供应商",
  menuTitle: "供应商",
  scope: "tenant",
  labelField: "supplierName",
  labelDetail: ["contactName"],
  defaultSort: { field: "supplierName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "supplierName", label: "供应商名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 100 },
    { name: "contactName", label: "联系人", type: "text", filter: "like", max: 50 },
    {
      name: "phone",
      label: "联系电话",
      type: "text",
      filter: "like",
      max: 20,
      pattern: { regex: /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|400-?\d{3}-?\d{4})$/, message: "联系电话应为 11 位手机号、带区号的固定电话或 400 电话" },
    },
    { name: "address", label: "地址", type: "text", max: 200 },
    status,
    remark,
  ],
});

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * Income per restaurant or stall and day: rows 订单生成 come from the canteen's orders (server/modules/sc/income.ts,
 * regenerated for a period, never edited by hand); rows 手工录入 are catering for events, stall rents… with a source.
 */
export const scIncome = defineResource({
  module: "sc",
  entity: "scIncome",
  screen: "scincome",
  screenBase: "/sc",
  table: "sc_income",
  title: "收入",
  menuTitle: "收入管理",
  scope: "tenant",
  labelField: "incomeDate",
  defaultSort: { field: "incomeDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { generate: "按订单生成" },
  headerLinks: [{ action: "generate", path: "generate" }],
  changeableWhen: { field: "sourceKind", values: ["2"] },
  indexes: [["incomeDate"], ["restaurantId", "incomeDate"]],
  fields: [
    { name: "incomeDate", label: "日期", type: "date", required: true, filter: "range", sortable: true },
    { ...placeField, required: true },
    { name: "sourceKind", label: "收入来源", type: "enum", dict: "scIncomeSource", filter: "eq", readOnly: true, defaultValue: "2" },
    { name: "payFlag", label: "支付方式", type: "enum", dict: "userAccountFlag", filter: "eq", description: "订单生成的收入按支付方式分行" },
    { name: "source", label: "收入说明", type: "text", filter: "like", max: 100, placeholder: "如：活动包餐、档口租金" },
    { name: "meals", label: "就餐份数", type: "number", min: 0, max: 100_000_000, readOnly: true },
    { name: "amount", label: "金额（元）", type: "money", required: true, min: 0, max: 10_000_000_000, sortable: true },
    remark,
  ],
});

export const scCostExpense = defineResource({
  module: "sc",
  entity: "scCostExpense",
  screen: "sccostexpense",
  screenBase: "/sc",
  table: "sc_cost_expense",
  title: "成本费用",
  menuTitle: "成本费用",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "month", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { generate: "取水电与维修" },
  headerLinks: [{ action: "generate", path: "generate" }],
  changeableWhen: { field: "sourceKind", values: ["1"] },
  indexes: [["month"]],
  fields: [
    { name: "month", label: "所属月份", type: "text", required: true, filter: "eq", sortable: true, max: 7, placeholder: "如：2026-05", pattern: { regex: MONTH, message: "所属月份格式应为 2026-05" } },
    { ...placeField, required: true },
    { name: "category", label: "费用类别", type: "enum", dict: "scExpenseCategory", required: true, filter: "eq" },
    { name: "amount", label: "金额（元）", type: "money", required: true, min: 0, max: 10_000_000_000, sortable: true },
    { name: "payee", label: "收款方", type: "text", filter: "like", max: 100, placeholder: "如：自来水公司、物业" },
    { name: "sourceKind", label: "来源", type: "enum", dict: "scCostSource", filter: "eq", readOnly: true, defaultValue: "1", description: "取自宿舍水电账单或报修单配件的行由「取水电与维修」生成" },
    { name: "source", label: "来源说明", type: "text", readOnly: true, max: 500 },
    remark,
  ],
});

export const scMasterResources = [scProductCategory, scProduct, scSupplier, scIncome, scCostExpense] as const;
