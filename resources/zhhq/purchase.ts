import { defineResource } from "../define";
import { defineDocument, type DocumentSpec } from "../document";
import { goodsUnit, signedBy } from "./stock";

/**
 * Purchasing (issue 41, decision 072): a kitchen or a warehouse asks for goods (采购申请), a manager approves, the
 * buyer orders from a supplier at the contract price (采购单), the keeper receives what arrives — in part or whole —
 * and each receipt posts a stock-in through the stock ledger (采购收货 → 入库单, decision 068), prices dearer than
 * the contract or the last delivery are audited (价格审核), the buyer confirms the order for payment (采购确认), and
 * its cost is shared among the restaurants or merchants that asked (费用分摊).
 */

const docStatuses = [
  { value: "0", label: "草稿", color: "gray" },
  { value: "1", label: "待审核", color: "blue" },
  { value: "2", label: "已审核", color: "green" },
  { value: "3", label: "已驳回", color: "orange" },
] as const;

type DocStatusValue = (typeof docStatuses)[number]["value"];

/** Draft → submitted → approved, or back with a reason: a request's and a cost share's. */
const approvalWorkflow = (approveGuard?: string) =>
  ({
    statuses: docStatuses,
    dict: "docStatus",
    initial: "0",
    editable: ["0", "3"],
    transitions: [
      { name: "submit", label: "提交", from: ["0", "3"], to: "1", ...(approveGuard ? { guard: approveGuard } : {}) },
      { name: "approve", label: "审核", from: ["1"], to: "2", ...(approveGuard ? { guard: approveGuard } : {}) },
      { name: "reject", label: "驳回", from: ["1"], to: "3", reasonRequired: true },
    ],
  }) satisfies DocumentSpec<DocStatusValue>["workflow"];

const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;
const docDate = { name: "docDate", label: "单据日期", type: "date", filter: "range", sortable: true, description: "默认今天，可早于今天" } as const;
const warehouseRef = { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq" } as const;
const supplierRef = { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", required: true, filter: "eq" } as const;
const goodsRef = { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true } as const;
const lineQuantity = { name: "quantity", label: "数量", type: "quantity", required: true, min: 0.001 } as const;
const lineAmount = { name: "amount", label: "金额（元）", type: "money", readOnly: true } as const;
/** Restaurants and stalls are organisations of their kind (auth/org), as the canteen's other screens pick them. */
const restaurantRef = { name: "restaurantId", label: "申请餐厅", type: "relation", relation: "auth/org", filter: "eq", relationWhere: { field: "orgType", values: ["restaurant", "stall"] } } as const;

export const purchseDemand = defineDocument({
  module: "zhhq",
  entity: "purchseDemand",
  screen: "purchsedemand",
  screenBase: "/zhhq",
  title: "采购申请单",
  menuTitle: "采购申请",
  header: {
    table: "purchase_demand",
    fields: [
      { ...warehouseRef, label: "申请仓库" },
      restaurantRef,
      { name: "needDate", label: "需用日期", type: "date", filter: "range", sortable: true },
      docDate,
      remark,
    ],
    indexes: [["warehouseId"]],
  },
  lines: {
    table: "purchase_demand_line",
    title: "申请明细",
    min: 1,
    totals: [],
    fields: [
      goodsRef,
      { ...lineQuantity, label: "申请数量" },
      { name: "approvedQuantity", label: "核定数量", type: "quantity", readOnly: true, description: "审核时核定，不改则等于申请数量" },
      { name: "remark", label: "说明", type: "text", max: 200 },
    ],
  },
  numbering: { prefix: "SQ" },
  workflow: {
    ...approvalWorkflow(),
    transitions: approvalWorkflow().transitions.map((t) => (t.name === "approve" ? { ...t, effect: "approveDemand", confirm: "审核后可据此下采购单" } : t)),
  },
  views: [{ screen: "purchsedemandaudit", title: "申请审核", filter: { status: "1" } }],
  // 审核 as asked is the step's button; this page changes quantities first (app/routes/zhhq/demand-approve.tsx).
  pages: [{ path: "approveAdjusted", label: "按核定数量审核", step: "approve" }],
});

const orderStatuses = [
  { value: "0", label: "草稿", color: "gray" },
  { value: "1", label: "待审核", color: "blue" },
  { value: "2", label: "已审核", color: "cyan" },
  { value: "3", label: "部分到货", color: "yellow" },
  { value: "4", label: "已到货", color: "green" },
  { value: "5", label: "已关闭", color: "dark" },
] as const;

type OrderStatus = (typeof orderStatuses)[number]["value"];

/** The order's statuses: 部分到货 and 已到货 are set by receipts; 确认 (for payment) and 关闭 (nothing more comes) end it. */
export const ORDER_RECEIVABLE: readonly OrderStatus[] = ["2", "3"];

export const purchse = defineDocument({
  module: "zhhq",
  entity: "purchse",
  screen: "purchse",
  screenBase: "/zhhq",
  title: "采购单",
  menuTitle: "采购订单",
  header: {
    table: "purchase_order",
    fields: [
      supplierRef,
      warehouseRef,
      { ...docDate, label: "订单日期", description: "默认今天；合同价按此日期取" },
      { name: "expectedDate", label: "预计到货日期", type: "date", filter: "range", sortable: true },
      { name: "confirmedAt", label: "确认时间", type: "datetime", readOnly: true },
      { name: "confirmedBy", label: "确认人", type: "text", readOnly: true, max: 50 },
      remark,
    ],
    indexes: [["supplierId"], ["warehouseId"]],
  },
  lines: {
    table: "purchase_order_line",
    title: "采购明细",
    min: 1,
    totals: ["amount", "receivedAmount"],
    fields: [
      goodsRef,
      { ...lineQuantity, label: "采购数量" },
      { name: "price", label: "单价（元）", type: "money", min: 0, max: 100_000_000, description: "不填取供应商在订单日期有效的合同价" },
      { name: "contractPrice", label: "合同价（元）", type: "money", readOnly: true },
      lineAmount,
      { name: "receivedQuantity", label: "已到数量", type: "quantity", readOnly: true, defaultValue: 0 },
      { name: "receivedAmount", label: "到货金额（元）", type: "money", readOnly: true, defaultValue: 0 },
      { name: "demandId", label: "采购申请", type: "relation", relation: "zhhq/purchseDemand", readOnly: true },
    ],
  },
  numbering: { prefix: "CG" },
  workflow: {
    statuses: orderStatuses,
    initial: "0",
    editable: ["0"],
    transitions: [
      { name: "submit", label: "提交", from: ["0"], to: "1" },
      { name: "approve", label: "审核", from: ["1"], to: "2", confirm: "审核后即可按此单收货，单据不能再修改" },
      { name: "reject", label: "驳回", from: ["1"], to: "0", reasonRequired: true },
      { name: "confirm", label: "提交付款", from: ["3", "4"], to: "5", guard: "pricesAudited", effect: "confirmOrder", confirm: "提交付款后采购单锁定，作为付款依据，不能再收货或修改" },
      { name: "close", label: "关闭", from: ["0", "2"], to: "5", reasonRequired: true, confirm: "关闭后不能再收货" },
    ],
  },
  views: [{ screen: "purchseconfirm", title: "采购确认", filter: { status: "4" } }],
  print: {
    header: ["supplierId", "warehouseId", "expectedDate"],
    date: "docDate",
    columns: ["goodsId", "quantity", "price", "amount", "receivedQuantity"],
    amount: "amount",
    unit: goodsUnit,
    signatures: signedBy("采购", "供应商确认"),
  },
  // Besides lines typed by hand, an order takes approved requests' lines (app/routes/zhhq/order-from-demands.tsx).
  pages: [{ path: "fromDemand", label: "按采购申请生成", step: "create" }],
});

/**
 * A receipt against an order: which of its lines arrived, how much, at what price, with batch and dates. Taking 收货
 * posts a stock-in (入库单, approved in the same transaction through the stock documents' own approval) and moves
 * the order to 部分到货 or 已到货. `POST /api/v1/zhhq/purchse/receive` is a draft and its 收货 in one call.
 */
export const purchseReceive = defineDocument({
  module: "zhhq",
  entity: "purchseReceive",
  screen: "purchsereceive",
  screenBase: "/zhhq",
  title: "采购收货单",
  menuTitle: "采购收货",
  header: {
    table: "purchase_receive",
    fields: [
      { name: "purchseId", label: "采购单", type: "relation", relation: "zhhq/purchse", required: true, filter: "eq" },
      { ...supplierRef, required: false, readOnly: true },
      { ...warehouseRef, required: false, readOnly: true },
      docDate,
      { name: "warehouseInId", label: "入库单", type: "relation", relation: "zhhq/warehouseIn", readOnly: true },
      remark,
    ],
    indexes: [["purchseId"]],
  },
  lines: {
    table: "purchase_receive_line",
    title: "收货明细",
    min: 1,
    totals: ["amount"],
    fields: [
      { name: "purchseLineId", label: "采购明细", type: "relation", relation: "zhhq/purchseLine", required: true, narrowedBy: "purchseId" },
      { ...goodsRef, required: false, readOnly: true },
      { ...lineQuantity, label: "实收数量" },
      { name: "price", label: "实收单价（元）", type: "money", min: 0, max: 100_000_000, description: "不填取采购单价" },
      lineAmount,
      { name: "batchNo", label: "批次号", type: "text", max: 40, description: "不填则按入库单号生成" },
      { name: "productionDate", label: "生产日期", type: "date" },
      { name: "expiryDate", label: "到期日期", type: "date", description: "不填则按生产日期加物资保质期" },
    ],
  },
  numbering: { prefix: "SH" },
  workflow: {
    statuses: [
      { value: "0", label: "草稿", color: "gray" },
      { value: "1", label: "已收货", color: "green" },
    ],
    initial: "0",
    editable: ["0"],
    transitions: [{ name: "receive", label: "收货", from: ["0"], to: "1", effect: "postReceipt", confirm: "收货后将生成入库单并计入库存" }],
  },
});

/**
 * A received line whose price is above its contract price, or above the last price from the same supplier, by more
 * than the tenant's tolerance (`zhhq.purchase.priceTolerancePercent`, 5 by default): written by the receipt, decided
 * here. An order with a line still 待审核 cannot be confirmed.
 */
export const purchsePriceAudit = defineResource({
  module: "zhhq",
  entity: "purchsePriceAudit",
  screen: "purchsepriceaudit",
  screenBase: "/zhhq",
  table: "purchase_price_audit",
  title: "价格审核",
  scope: "tenant",
  labelField: "goodsId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["export"],
  indexes: [["purchseId"], ["status"]],
  fields: [
    { name: "purchseId", label: "采购单", type: "relation", relation: "zhhq/purchse", required: true, readOnly: true, filter: "eq" },
    { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", required: true, readOnly: true, filter: "eq" },
    { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, readOnly: true, filter: "eq" },
    { name: "receiveLineId", label: "收货明细", type: "relation", relation: "zhhq/purchseReceiveLine", required: true, readOnly: true, hidden: true, list: false },
    { name: "price", label: "实收单价（元）", type: "money", required: true, readOnly: true },
    { name: "contractPrice", label: "合同价（元）", type: "money", readOnly: true },
    { name: "lastPrice", label: "上次价格（元）", type: "money", readOnly: true },
    { name: "overPercent", label: "超出比例（%）", type: "quantity", required: true, readOnly: true },
    { name: "status", label: "审核状态", type: "enum", dict: "purchasePriceAuditStatus", required: true, readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "reason", label: "驳回原因", type: "text", readOnly: true, max: 200 },
  ],
  workflow: {
    field: "status",
    colors: { "0": "orange", "1": "green", "2": "red" },
    refusal: "该价格当前为「{status}」，不能{action}",
    notFound: "价格审核记录不存在或已被删除",
    transitions: [
      { name: "approve", label: "通过", from: ["0"], to: "1", note: "实收单价 {price:yuan} 元[，合同价 {contractPrice:yuan} 元][，上次 {lastPrice:yuan} 元]。通过后按实收单价结算。" },
      { name: "reject", label: "驳回", from: ["0"], to: "2", reasonRequired: true, color: "red", note: "实收单价 {price:yuan} 元[，合同价 {contractPrice:yuan} 元]。驳回须写明原因，供与供应商结算时核对。" },
    ],
  },
});

/**
 * An order's cost shared among the restaurants or merchants that asked: by percentage (totalling 100) or by amount
 * (totalling the order's received amount); percentages become fen by the largest remainder, so the shares add up to
 * the fen.
 */
export const purchseShare = defineDocument({
  module: "zhhq",
  entity: "purchseShare",
  screen: "purchseshare",
  screenBase: "/zhhq",
  title: "采购费用分摊",
  menuTitle: "费用分摊",
  header: {
    table: "purchase_share",
    fields: [
      { name: "purchseId", label: "采购单", type: "relation", relation: "zhhq/purchse", required: true, filter: "eq" },
      { name: "method", label: "分摊方式", type: "enum", dict: "purchaseShareMethod", required: true, defaultValue: "1" },
      { name: "totalAmount", label: "分摊总额（元）", type: "money", readOnly: true, description: "采购单的到货金额" },
      remark,
    ],
  },
  lines: {
    table: "purchase_share_line",
    title: "分摊明细",
    min: 1,
    totals: ["amount"],
    fields: [
      { ...restaurantRef, label: "餐厅/档口", filter: undefined },
      { name: "merchantId", label: "商户", type: "relation", relation: "sys/merchant" },
      { name: "percent", label: "比例（%）", type: "quantity", max: 100, description: "按比例分摊时填写，合计 100" },
      { name: "amount", label: "金额（元）", type: "money", description: "按金额分摊时填写，合计等于分摊总额；按比例时自动计算" },
    ],
  },
  numbering: { prefix: "FT" },
  workflow: approvalWorkflow("shareTotals"),
});

export const purchaseDocuments = [purchseDemand, purchse, purchseReceive, purchseShare] as const;
export const purchaseResources = [purchsePriceAudit] as const;
