import { defineDocument, type DocumentSpec } from "../document";
import { placeField } from "./master";

/**
 * A purchase outside the warehouse (issue 37): a supplier, the restaurant or stall it was bought for, its lines
 * (quantity × price = amount, counted by the server), total = Σ lines, and what has been paid. Its statuses are its
 * payment: 未付款 → 部分付款 → 已付款, moved by the steps 登记付款 (an amount less than what is left) and 付清. Whether
 * it is a direct food cost (counted in 直接成本分摊) or an expense (counted with the expenses in 经营毛利) is its 采购性质.
 */
const statuses = [
  { value: "0", label: "未付款", color: "orange" },
  { value: "1", label: "部分付款", color: "blue" },
  { value: "2", label: "已付款", color: "green" },
] as const;

type PurchaseStatus = (typeof statuses)[number]["value"];

const workflow = {
  statuses,
  initial: "0",
  editable: ["0"],
  transitions: [
    {
      name: "pay",
      label: "登记付款",
      from: ["0", "1"],
      to: "1",
      guard: "partPayment",
      effect: "addPayment",
      input: [{ name: "payAmount", label: "本次付款（元）", type: "money", required: true, min: 1, max: 10_000_000_000 }],
    },
    { name: "payOff", label: "付清", from: ["0", "1"], to: "2", effect: "payRest", confirm: "按未付金额全额付款，付清后单据不能再修改" },
  ],
} satisfies DocumentSpec<PurchaseStatus>["workflow"];

export const scPurchase = defineDocument({
  module: "sc",
  entity: "scPurchase",
  screen: "scpurchase",
  screenBase: "/sc",
  title: "采购单",
  menuTitle: "采购管理",
  header: {
    table: "sc_purchase",
    fields: [
      { name: "supplierId", label: "供应商", type: "relation", relation: "sc/scSupplier", filter: "eq", description: "收支管理的供应商；或选仓库供应商" },
      { name: "warehouseSupplierId", label: "仓库供应商", type: "relation", relation: "zhhq/supplier", filter: "eq" },
      { ...placeField, required: true },
      { name: "purchaseDate", label: "采购日期", type: "date", required: true, filter: "range", sortable: true },
      { name: "costKind", label: "采购性质", type: "enum", dict: "scCostKind", required: true, filter: "eq", defaultValue: "1", description: "直接食材成本计入直接成本分摊；费用计入经营毛利的费用" },
      { name: "totalAmount", label: "合计金额（元）", type: "money", readOnly: true, defaultValue: 0 },
      { name: "paidAmount", label: "已付金额（元）", type: "money", readOnly: true, defaultValue: 0 },
      { name: "remark", label: "备注", type: "longText", max: 500 },
    ],
    defaultSort: { field: "purchaseDate", dir: "desc" },
    indexes: [["restaurantId", "purchaseDate"], ["supplierId"], ["warehouseSupplierId"]],
  },
  lines: {
    table: "sc_purchase_line",
    title: "采购明细",
    min: 1,
    totals: ["amount"],
    fields: [
      { name: "productId", label: "商品", type: "relation", relation: "sc/scProduct", required: true },
      { name: "quantity", label: "数量", type: "quantity", required: true, min: 0.001 },
      { name: "price", label: "单价（元）", type: "money", required: true, min: 0, max: 100_000_000 },
      { name: "amount", label: "金额（元）", type: "money", readOnly: true },
    ],
  },
  numbering: { prefix: "CG" },
  workflow,
});

export const scDocuments = [scPurchase] as const;
