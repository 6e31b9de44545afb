import { chinaDay, chinaDayStart, DAY_MS } from "../chinaTime";
import { defineResource, type FieldDef, type ResourceAction } from "../define";
import { defineDocument, type DocumentSpec, type PostingDef, type PrintSignature } from "../document";
import { quantityToThousandths } from "../quantity";

/**
 * The warehouse's stock (issue 40, decision 068): four documents — stock-in (入库), return to the supplier (入库退货),
 * stock-out (出库) and return to the store (出库退库) — posted on approval to the stock ledger, and three read-only
 * views of what the ledger keeps: stock per warehouse × goods (its balances), per batch, and the movement lines.
 * Every stock document moves draft → submitted → approved, or back to draft-like 已驳回 with a reason.
 */

const statuses = [
  { value: "0", label: "草稿", color: "gray" },
  { value: "1", label: "待审核", color: "blue" },
  { value: "2", label: "已审核", color: "green" },
  { value: "3", label: "已驳回", color: "orange" },
] as const;

type StockStatus = (typeof statuses)[number]["value"];

const workflow = {
  statuses,
  dict: "docStatus",
  initial: "0",
  editable: ["0", "3"],
  transitions: [
    { name: "submit", label: "提交", from: ["0", "3"], to: "1" },
    { name: "approve", label: "审核", from: ["1"], to: "2", confirm: "审核后将计入库存，单据不能再修改" },
    { name: "reject", label: "驳回", from: ["1"], to: "3", reasonRequired: true },
  ],
} satisfies DocumentSpec<StockStatus>["workflow"];

/**
 * A return's workflow: submitting checks again that each line is within what its source line can still give back
 * (the limit may have moved since the draft was saved); approval counts once more under the stock locks.
 */
const returnWorkflow = {
  ...workflow,
  transitions: workflow.transitions.map((t) => (t.name === "submit" ? { ...t, guard: "withinReturnLimit" } : t)),
} satisfies DocumentSpec<StockStatus>["workflow"];

const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;
const docDate = { name: "docDate", label: "单据日期", type: "date", filter: "range", sortable: true, description: "默认今天，可早于今天" } as const;
const warehouseRef = { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq" } as const;
const goodsRef = { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true } as const;
const lineQuantity = { name: "quantity", label: "数量", type: "quantity", required: true, min: 0.001 } as const;
/** What a line's movement cost or brought, in fen: counted by the server (a stock-in's price × quantity; an issue's batches). */
const lineAmount = { name: "amount", label: "金额（元）", type: "money", readOnly: true } as const;

/** Printed quantities name the goods' unit (千克, 袋); every stock sheet is made, kept, received or issued, and approved. */
export const goodsUnit = { relation: "goodsId", field: "unitId" } as const;
export const signedBy = (keeper: string, receiver: string): PrintSignature[] => [
  { label: "制单", by: "create" },
  { label: keeper },
  { label: receiver },
  { label: "审核", by: "approve" },
];

/** A line's quantity as the ledger counts it, in thousandths, signed. */
const thousandths = (sign: 1 | -1) => (_header: Readonly<Record<string, unknown>>, line: Readonly<Record<string, unknown>>) => sign * quantityToThousandths(Number(line.quantity));

/** Every stock document posts the same way: its lines to the stock ledger on approval, through an allocator of batches. */
function stockPosting(sign: 1 | -1, allocate: string): PostingDef {
  return {
    ledger: "stock",
    on: "approve",
    key: { warehouseId: "header.warehouseId", goodsId: "line.goodsId" },
    quantity: thousandths(sign),
    amount: sign > 0 ? "+line.amount" : "-line.amount",
    allocate,
  };
}

export const warehouseIn = defineDocument({
  module: "zhhq",
  entity: "warehouseIn",
  screen: "warehousein",
  screenBase: "/zhhq",
  title: "入库单",
  menuTitle: "入库管理",
  header: {
    table: "warehouse_in",
    fields: [
      warehouseRef,
      { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", filter: "eq" },
      docDate,
      remark,
      // Written at approval when the tenant only warns (zhhq.supplier.qualificationCheck = warn, decision 076).
      { name: "qualificationNote", label: "资质提示", type: "text", max: 500, readOnly: true },
    ],
    indexes: [["warehouseId"], ["supplierId"]],
  },
  lines: {
    table: "warehouse_in_line",
    title: "入库明细",
    min: 1,
    totals: ["amount"],
    keptTotals: ["amount"],
    fields: [
      goodsRef,
      lineQuantity,
      { name: "price", label: "单价（元）", type: "money", required: true, min: 0, max: 100_000_000 },
      lineAmount,
      { name: "batchNo", label: "批次号", type: "text", max: 40, description: "不填则审核时按单号生成" },
      { name: "productionDate", label: "生产日期", type: "date" },
      { name: "expiryDate", label: "到期日期", type: "date", description: "不填则按生产日期（或单据日期）加物资保质期" },
    ],
  },
  numbering: { prefix: "RK" },
  workflow,
  postings: [stockPosting(1, "receiveBatches")],
  print: {
    header: ["warehouseId", "supplierId"],
    date: "docDate",
    columns: ["goodsId", "batchNo", "expiryDate", "quantity", "price", "amount"],
    amount: "amount",
    unit: goodsUnit,
    signatures: signedBy("保管", "验收"),
  },
});

/**
 * Who takes a stock-out (issue 35): a restaurant's or stall's kitchen, or a department. A central warehouse serves
 * several kitchens, so 出库统计 and 收支's direct cost count a stock-out here rather than at the warehouse's restaurant
 * (which is the default on create, and the fallback where it is empty).
 */
const receiverOrg = {
  name: "receiverOrgId",
  label: "领用餐厅/部门",
  type: "relation",
  relation: "auth/org",
  filter: "eq",
  relationWhere: { field: "orgType", values: ["restaurant", "stall", "department"] },
  description: "不填则为仓库的服务餐厅",
} as const satisfies FieldDef;

export const warehouseOut = defineDocument({
  module: "zhhq",
  entity: "warehouseOut",
  screen: "warehouseout",
  screenBase: "/zhhq",
  title: "出库单",
  menuTitle: "出库管理",
  header: {
    table: "warehouse_out",
    fields: [
      warehouseRef,
      { name: "outUseTypeId", label: "出库用途", type: "relation", relation: "zhhq/outUseType", filter: "eq" },
      receiverOrg,
      docDate,
      { name: "outKind", label: "出库类型", type: "enum", dict: "warehouseOutKind", filter: "eq", defaultValue: "1", description: "维修领用选 维修出库" },
      // Repairs come later (issue 40 names them): until then a repair request is named by its number or words.
      { name: "repairNo", label: "维修单", type: "text", filter: "like", max: 50, placeholder: "维修领用时填写维修单号或说明" },
      remark,
    ],
    indexes: [["warehouseId"]],
  },
  lines: { table: "warehouse_out_line", title: "出库明细", min: 1, totals: ["amount"], keptTotals: ["amount"], fields: [goodsRef, lineQuantity, { ...lineAmount, label: "成本金额（元）" }] },
  numbering: { prefix: "CK" },
  workflow,
  postings: [stockPosting(-1, "issueFefo")],
  print: {
    header: ["warehouseId", "outUseTypeId", "receiverOrgId", "outKind", "repairNo"],
    date: "docDate",
    columns: ["goodsId", "quantity", "amount"],
    amount: "amount",
    unit: goodsUnit,
    signatures: signedBy("保管", "领用"),
  },
  views: [
    { screen: "warehouseoutaudit", title: "出库审核", filter: { status: "1" } },
    { screen: "warehouseoutrepair", title: "维修出库", filter: { outKind: "2" } },
  ],
});

export const warehouseInReturn = defineDocument({
  module: "zhhq",
  entity: "warehouseInReturn",
  screen: "warehouseinreturn",
  screenBase: "/zhhq",
  title: "入库退货单",
  menuTitle: "入库退货",
  header: {
    table: "warehouse_in_return",
    fields: [
      { name: "warehouseInId", label: "入库单", type: "relation", relation: "zhhq/warehouseIn", required: true, filter: "eq" },
      { ...warehouseRef, required: false, readOnly: true },
      { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", readOnly: true, filter: "eq" },
      docDate,
      remark,
    ],
  },
  lines: {
    table: "warehouse_in_return_line",
    title: "退货明细",
    min: 1,
    totals: ["amount"],
    keptTotals: ["amount"],
    fields: [
      { name: "inLineId", label: "入库明细", type: "relation", relation: "zhhq/warehouseInLine", required: true, narrowedBy: "warehouseInId", narrowedShows: "物资 · 批次" },
      { ...goodsRef, required: false, readOnly: true },
      lineQuantity,
      lineAmount,
    ],
  },
  numbering: { prefix: "RT" },
  workflow: returnWorkflow,
  postings: [stockPosting(-1, "returnToSupplier")],
  print: {
    header: ["warehouseInId", "warehouseId", "supplierId"],
    date: "docDate",
    columns: ["goodsId", "quantity", "amount"],
    amount: "amount",
    unit: goodsUnit,
    signatures: signedBy("保管", "供应商签收"),
  },
});

export const warehouseOutReturn = defineDocument({
  module: "zhhq",
  entity: "warehouseOutReturn",
  screen: "warehouseoutreturn",
  screenBase: "/zhhq",
  title: "出库退库单",
  menuTitle: "出库退库",
  header: {
    table: "warehouse_out_return",
    fields: [
      { name: "warehouseOutId", label: "出库单", type: "relation", relation: "zhhq/warehouseOut", required: true, filter: "eq" },
      { ...warehouseRef, required: false, readOnly: true },
      docDate,
      remark,
    ],
  },
  lines: {
    table: "warehouse_out_return_line",
    title: "退库明细",
    min: 1,
    totals: ["amount"],
    keptTotals: ["amount"],
    fields: [
      { name: "outLineId", label: "出库明细", type: "relation", relation: "zhhq/warehouseOutLine", required: true, narrowedBy: "warehouseOutId", narrowedShows: "物资 · 批次" },
      { ...goodsRef, required: false, readOnly: true },
      lineQuantity,
      lineAmount,
    ],
  },
  numbering: { prefix: "TK" },
  workflow: returnWorkflow,
  postings: [stockPosting(1, "returnFromIssue")],
  print: {
    header: ["warehouseOutId", "warehouseId"],
    date: "docDate",
    columns: ["goodsId", "quantity", "amount"],
    amount: "amount",
    unit: goodsUnit,
    signatures: signedBy("退库", "保管"),
  },
});

export const stockDocuments = [warehouseIn, warehouseOut, warehouseInReturn, warehouseOutReturn] as const;

/** Days from today (China) to a batch's expiry: negative once it has passed. */
export function daysToExpiry(expiryDate: string, now = Date.now()): number {
  return Math.round((chinaDayStart(expiryDate) - chinaDayStart(chinaDay(now))) / DAY_MS);
}

const view = { actions: ["export"] as ResourceAction[], scope: "tenant", screenBase: "/zhhq", module: "zhhq" } as const;
const stockWarehouse = { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, readOnly: true, filter: "eq" } as const;
const stockGoods = { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, readOnly: true, filter: "eq" } as const;
const readOnly = (fields: FieldDef[]): FieldDef[] => fields.map((f) => ({ ...f, readOnly: true }));

/** Stock per warehouse × goods: the stock ledger's balances (server/modules/zhhq/stock.ts), moved only by postings. */
export const warehouseReal = defineResource({
  ...view,
  entity: "warehouseReal",
  screen: "warehousereal",
  table: "stock_real",
  title: "库存查询",
  labelField: "goodsId",
  defaultSort: { field: "updatedAt", dir: "desc" },
  uniqueKeys: [{ fields: ["warehouseId", "goodsId"], message: "该仓库已有此物资的库存" }],
  // The drill-down: this warehouse × goods's batches and its movements.
  rowLinks: [
    { action: "view", entity: "warehouseRealDetail", label: "批次", path: "/zhhq/warehouserealdetail/index?warehouseId=:warehouseId&goodsId=:goodsId" },
    { action: "view", entity: "warehouseLedger", label: "流水", path: "/zhhq/warehouseledger/index?warehouseId=:warehouseId&goodsId=:goodsId" },
  ],
  fields: readOnly([
    stockWarehouse,
    stockGoods,
    { name: "quantity", label: "库存数量", type: "quantity", required: true, sortable: true },
    { name: "amount", label: "库存金额（元）", type: "money", required: true, sortable: true },
    // Kept with each movement (amount over quantity, in fen per unit, half up): the list's column is a plain read.
    { name: "averagePrice", label: "平均单价（元）", type: "money", required: true, defaultValue: 0 },
  ]),
});

/** Stock per batch: each stock-in line is a batch with its own price, production and expiry dates. */
export const warehouseRealDetail = defineResource({
  ...view,
  entity: "warehouseRealDetail",
  screen: "warehouserealdetail",
  table: "stock_batch",
  title: "批次库存",
  labelField: "batchNo",
  defaultSort: { field: "expiryDate", dir: "asc" },
  // The list's default order with no warehouse chosen (expiry, then id) is an index of its own (migration 0058).
  indexes: [["warehouseId", "goodsId", "expiryDate"], ["inLineId"], ["expiryDate", "id"]],
  // Where the batch came from and went, to the meals it could have fed (issue 35, decision 076).
  rowLinks: [{ action: "view", entity: "batchTrace", label: "追溯", path: "/zhhq/batchtrace/index?batchNo=:batchNo" }],
  fields: readOnly([
    stockWarehouse,
    stockGoods,
    { name: "batchNo", label: "批次号", type: "text", required: true, filter: "like", sortable: true, max: 40 },
    { name: "productionDate", label: "生产日期", type: "date", sortable: true },
    {
      name: "expiryDate",
      label: "到期日期",
      type: "date",
      filter: "range",
      sortable: true,
      show: (value) => (value ? `${value}（${expiryWords(daysToExpiry(String(value)))}）` : "—"),
    },
    { name: "price", label: "入库单价（元）", type: "money", required: true },
    { name: "quantity", label: "批次数量", type: "quantity", required: true, sortable: true },
    { name: "amount", label: "批次金额（元）", type: "money", required: true },
    { name: "receivedAt", label: "入库时间", type: "datetime", required: true, sortable: true },
    { name: "inLineId", label: "入库明细", type: "relation", relation: "zhhq/warehouseInLine", required: true, hidden: true, list: false },
  ]),
});

function expiryWords(days: number): string {
  return days < 0 ? `已过期 ${-days} 天` : days === 0 ? "今天到期" : `剩 ${days} 天`;
}

/** The stock ledger's movement lines, newest first: each with the stock of its warehouse × goods after it. */
export const warehouseLedger = defineResource({
  ...view,
  entity: "warehouseLedger",
  screen: "warehouseledger",
  table: "stock_line",
  title: "库存流水",
  labelField: "batchNo",
  defaultSort: { field: "occurredAt", dir: "desc" },
  indexes: [["warehouseId", "goodsId", "occurredAt"], ["batchId"], ["docType", "docId"], ["docLineId"], ["docDate"]],
  fields: readOnly([
    stockWarehouse,
    stockGoods,
    { name: "batchId", label: "批次", type: "relation", relation: "zhhq/warehouseRealDetail", required: true, hidden: true, list: false },
    { name: "batchNo", label: "批次号", type: "text", required: true, filter: "like", max: 40 },
    { name: "quantity", label: "变动数量", type: "quantity", required: true },
    { name: "amount", label: "变动金额（元）", type: "money", required: true },
    { name: "quantityAfter", label: "结存数量", type: "quantity", required: true },
    { name: "amountAfter", label: "结存金额（元）", type: "money", required: true },
    {
      name: "docType",
      label: "单据类型",
      type: "text",
      required: true,
      max: 40,
      show: (value) => stockDocuments.find((d) => d.docType === value)?.title ?? String(value ?? ""),
    },
    { name: "docId", label: "单据", type: "number", required: true, list: false, plain: true },
    { name: "docLineId", label: "单据明细", type: "number", required: true, list: false, plain: true },
    { name: "operatorId", label: "操作人", type: "number", list: false, hidden: true, plain: true },
    { name: "operatorName", label: "操作人", type: "text", max: 50 },
    { name: "remark", label: "备注", type: "text", max: 500, list: false },
    { name: "occurredAt", label: "发生时间", type: "datetime", required: true, sortable: true },
    // Its document's date (decision 073): the month it counts in for the month's stock account.
    { name: "docDate", label: "单据日期", type: "date", filter: "range", sortable: true },
  ]),
});

export const stockViews = [warehouseReal, warehouseRealDetail, warehouseLedger] as const;
