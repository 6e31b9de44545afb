import { defineResource, type ResourceAction } from "../define";
import type { ReportScreen } from "../modules";
import type { MonthSettleDef } from "../monthSettle";
import { defineDocument, type DocumentSpec, type PostingDef } from "../document";
import { goodsUnit, signedBy } from "./stock";
import { defineReport, period } from "../report/define";

/**
 * Moving stock between warehouses and closing its books (issue 41, decision 073): the transfer (调拨: out of the source
 * into transit on approval, out of transit into the destination on receipt, the same batches at the same cost), the
 * stocktake (盘点: the book quantity of every batch, the count, and on approval the gains and losses that make the
 * stock equal the count; an open sheet freezes its warehouse) and the month's stock account (月结: opening, in, out
 * and closing per warehouse × goods, made formal once a month). The rules are server/modules/zhhq/closing.ts'.
 */

const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;
const docDate = { name: "docDate", label: "单据日期", type: "date", filter: "range", sortable: true, description: "默认今天，可早于今天（不能早于已结账的月份）" } as const;
const goodsRef = { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true } as const;

/** The ledger counts a line's stock change in thousandths; the allocators decide batches and amounts. */
const noQuantity = () => 0;

const transferStatuses = [
  { value: "0", label: "草稿", color: "gray" },
  { value: "1", label: "待审核", color: "blue" },
  { value: "2", label: "在途", color: "orange" },
  { value: "3", label: "已收货", color: "green" },
  { value: "4", label: "已驳回", color: "red" },
] as const;

type TransferStatus = (typeof transferStatuses)[number]["value"];

const transferWorkflow = {
  statuses: transferStatuses,
  dict: "transferStatus",
  initial: "0",
  editable: ["0", "4"],
  transitions: [
    { name: "submit", label: "提交", from: ["0", "4"], to: "1" },
    { name: "approve", label: "调出", from: ["1"], to: "2", confirm: "调出后物资离开调出仓库，在途直到调入仓库收货" },
    { name: "reject", label: "驳回", from: ["1"], to: "4", reasonRequired: true },
    { name: "receive", label: "收货", from: ["2"], to: "3", confirm: "收货后在途物资按原批次、原成本计入调入仓库" },
  ],
} satisfies DocumentSpec<TransferStatus>["workflow"];

/** Out of the source (and into transit, the allocator's second line of each batch) on approval; out of transit into the destination on receipt. */
const transferPostings: PostingDef[] = [
  { ledger: "stock", on: "approve", key: { warehouseId: "header.fromWarehouseId", goodsId: "line.goodsId" }, quantity: noQuantity, allocate: "transferOut" },
  { ledger: "stock", on: "receive", key: { warehouseId: "header.toWarehouseId", goodsId: "line.goodsId" }, quantity: noQuantity, allocate: "transferIn" },
];

const movedQuantity = (name: string, label: string) => ({ name, label, type: "quantity", readOnly: true }) as const;

export const warehouseTransfer = defineDocument({
  module: "zhhq",
  entity: "warehouseTransfer",
  screen: "warehousetransfer",
  screenBase: "/zhhq",
  title: "调拨单",
  menuTitle: "调拨管理",
  header: {
    table: "warehouse_transfer",
    fields: [
      { name: "fromWarehouseId", label: "调出仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq" },
      { name: "toWarehouseId", label: "调入仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq" },
      docDate,
      remark,
    ],
    indexes: [["fromWarehouseId"], ["toWarehouseId"]],
  },
  lines: {
    table: "warehouse_transfer_line",
    title: "调拨明细",
    min: 1,
    totals: ["quantity", "amount"],
    fields: [
      goodsRef,
      { name: "quantity", label: "调拨数量", type: "quantity", required: true, min: 0.001 },
      movedQuantity("sentQuantity", "已发数量"),
      movedQuantity("transitQuantity", "在途数量"),
      movedQuantity("receivedQuantity", "已收数量"),
      { name: "amount", label: "成本金额（元）", type: "money", readOnly: true },
    ],
  },
  numbering: { prefix: "DB" },
  workflow: transferWorkflow,
  postings: transferPostings,
  print: {
    header: ["fromWarehouseId", "toWarehouseId"],
    date: "docDate",
    columns: ["goodsId", "quantity", "receivedQuantity", "amount"],
    amount: "amount",
    unit: goodsUnit,
    // The transfer is approved as it leaves (调出) and signed for where it arrives (收货).
    signatures: [{ label: "制单", by: "create" }, { label: "调出保管" }, { label: "收货", by: "receive" }, { label: "审核", by: "approve" }],
  },
  views: [
    { screen: "warehousetransferout", title: "调拨出库", filter: { status: "1" } },
    { screen: "warehousetransferin", title: "调拨入库", filter: { status: "2" } },
  ],
  // Its lines among every transfer's (调拨明细, below), from any status.
  pages: [
    {
      path: "/zhhq/warehousetransferdetail/index?docNo=:docNo&from=:docDate&to=:docDate",
      label: "调拨明细",
      step: "view",
      entity: "warehouseTransferDetail",
    },
  ],
});

/**
 * 调拨明细 (spec §2 warehousetransferdetail): every transfer's lines with what was sent, is in transit and was received,
 * filtered by warehouse (sending or receiving), goods, status and the transfer's date; a transfer links to its own.
 */
export const warehouseTransferDetail = defineReport({
  module: "zhhq",
  screenBase: "/zhhq",
  entity: "warehouseTransferDetail",
  screen: "warehousetransferdetail",
  title: "调拨明细",
  description:
    "调拨单的每一行：调拨数量、已发（调出）、在途与已收（调入）数量及成本金额；仓库筛选调出或调入该仓库的调拨，日期按调拨单的单据日期。",
  filters: [
    period,
    {
      name: "warehouseId",
      kind: "ref",
      label: "仓库",
      table: "warehouse",
      labelColumn: "name",
    },
    {
      name: "goodsCode",
      kind: "code",
      label: "物资编码",
      table: "goods",
      codeColumn: "goods_code",
      idName: "goodsId",
    },
    { name: "status", kind: "enum", label: "状态", dict: "transferStatus" },
    { name: "docNo", kind: "keyword", label: "调拨单号", placeholder: "DB…" },
  ],
  columns: [
    { key: "docNo", label: "调拨单号", kind: "text" },
    { key: "docDate", label: "单据日期", kind: "text" },
    { key: "status", label: "状态", kind: "enum", dict: "transferStatus" },
    { key: "fromWarehouseName", label: "调出仓库", kind: "text" },
    { key: "toWarehouseName", label: "调入仓库", kind: "text" },
    { key: "goodsCode", label: "物资编码", kind: "text" },
    { key: "goodsName", label: "物资名称", kind: "text" },
    { key: "unitName", label: "单位", kind: "text" },
    { key: "quantity", label: "调拨数量", kind: "quantity" },
    { key: "sentQuantity", label: "已发数量", kind: "quantity" },
    { key: "transitQuantity", label: "在途数量", kind: "quantity" },
    { key: "receivedQuantity", label: "已收数量", kind: "quantity" },
    { key: "amount", label: "成本金额", kind: "money", total: true },
  ],
});


const checkStatuses = [
  { value: "0", label: "盘点中", color: "orange" },
  { value: "1", label: "待审核", color: "blue" },
  { value: "2", label: "已审核", color: "green" },
  { value: "3", label: "已作废", color: "gray" },
] as const;

type CheckStatus = (typeof checkStatuses)[number]["value"];

/** The statuses in which a sheet freezes its warehouse (server/modules/zhhq/stock.ts refuses every other posting there). */
export const OPEN_CHECK_STATUSES: readonly CheckStatus[] = ["0", "1"];

export const warehouseCheck = defineDocument({
  module: "zhhq",
  entity: "warehouseCheck",
  screen: "warehousecheck",
  screenBase: "/zhhq",
  title: "盘点单",
  menuTitle: "库存盘点",
  header: {
    table: "warehouse_check",
    fields: [
      { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq" },
      { name: "goodsTypeId", label: "物资类别", type: "relation", relation: "zhhq/goodsType", filter: "eq", description: "不选则盘点全部物资" },
      docDate,
      remark,
    ],
    indexes: [["warehouseId"]],
  },
  lines: {
    table: "warehouse_check_line",
    title: "盘点明细",
    max: 20_000,
    totals: ["diffAmount"],
    fields: [
      { ...goodsRef, readOnly: true },
      { name: "batchId", label: "批次", type: "relation", relation: "zhhq/warehouseRealDetail", readOnly: true, hidden: true, list: false },
      { name: "batchNo", label: "批次号", type: "text", max: 40, readOnly: true },
      { name: "expiryDate", label: "到期日期", type: "date", readOnly: true },
      { name: "bookQuantity", label: "账面数量", type: "quantity", readOnly: true },
      { name: "countedQuantity", label: "实盘数量", type: "quantity", description: "不填视为与账面一致" },
      { name: "diffQuantity", label: "盈亏数量", type: "quantity", readOnly: true, min: -1_000_000_000 },
      { name: "diffAmount", label: "盈亏金额（元）", type: "money", readOnly: true, min: -100_000_000_000 },
    ],
  },
  numbering: { prefix: "PD" },
  pages: [{ path: "importCount", label: "导入实盘数量", step: "update" }],
  workflow: {
    statuses: checkStatuses,
    dict: "checkStatus",
    initial: "0",
    editable: ["0"],
    transitions: [
      { name: "submit", label: "提交", from: ["0"], to: "1" },
      { name: "approve", label: "审核", from: ["1"], to: "2", confirm: "审核后按实盘数量记盘盈、盘亏，库存等于实盘" },
      { name: "reject", label: "退回", from: ["1"], to: "0", reasonRequired: true },
      { name: "cancel", label: "作废", from: ["0", "1"], to: "3", confirm: "作废后仓库解除冻结，盘点结果不入账" },
    ],
  },
  postings: [{ ledger: "stock", on: "approve", key: { warehouseId: "header.warehouseId", goodsId: "line.goodsId" }, quantity: noQuantity, allocate: "countDifference" }],
  print: {
    header: ["warehouseId", "goodsTypeId"],
    date: "docDate",
    columns: ["goodsId", "batchNo", "expiryDate", "bookQuantity", "countedQuantity", "diffQuantity", "diffAmount"],
    // While counting (盘点中) the sheet goes round the shelves: the count and what follows from it are written by hand.
    blank: { columns: ["countedQuantity", "diffQuantity", "diffAmount"], statuses: ["0"] },
    amount: "diffAmount",
    unit: goodsUnit,
    signatures: signedBy("盘点", "监盘"),
  },
});

export const closingDocuments = [warehouseTransfer, warehouseCheck] as const;

const view = { actions: ["export"] as ResourceAction[], scope: "tenant", screenBase: "/zhhq", module: "zhhq" } as const;
const q = (name: string, label: string) => ({ name, label, type: "quantity", required: true, readOnly: true, min: -1_000_000_000 }) as const;
const m = (name: string, label: string) => ({ name, label, type: "money", required: true, readOnly: true, min: -100_000_000_000 }) as const;
const MONTH = { regex: /^\d{4}-(0[1-9]|1[0-2])$/, message: "月份格式应为 YYYY-MM" };

/** A month of the stock account: 临时 while it may be generated again, 正式 once closed (no document may be dated into it). */
export const warehouseAccountMonth = defineResource({
  ...view,
  entity: "warehouseAccountMonth",
  screen: "warehouseaccountmonth",
  table: "stock_month",
  title: "月结月份",
  labelField: "month",
  defaultSort: { field: "month", dir: "desc" },
  uniqueKeys: [{ fields: ["month"], message: "该月份已存在" }],
  fields: [
    { name: "month", label: "月份", type: "text", required: true, readOnly: true, filter: "eq", sortable: true, max: 7, pattern: MONTH },
    { name: "status", label: "状态", type: "enum", dict: "monthSettleStatus", required: true, readOnly: true, filter: "eq" },
    { name: "rowCount", label: "行数", type: "number", readOnly: true },
    { name: "generatedAt", label: "生成时间", type: "datetime", readOnly: true },
    { name: "confirmedAt", label: "转正式时间", type: "datetime", readOnly: true },
  ],
});

/** The month's stock account per warehouse × goods, made by 生成 from the ledger by document date. */
export const warehouseAccountMonthSettle = defineResource({
  ...view,
  entity: "warehouseAccountMonthSettle",
  screen: "warehouseaccountmonthsettle",
  table: "stock_month_settle",
  title: "月末结账",
  labelField: "month",
  defaultSort: { field: "goodsId", dir: "asc" },
  uniqueKeys: [{ fields: ["month", "warehouseId", "goodsId"], message: "该月份已有此仓库物资的结账行" }],
  workflowActions: { generate: "生成", confirm: "转正式" },
  headerLinks: [
    { action: "generate", path: "generate" },
    { action: "confirm", path: "confirm" },
  ],
  fields: [
    { name: "month", label: "月份", type: "text", required: true, readOnly: true, filter: "eq", sortable: true, max: 7, pattern: MONTH },
    { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, readOnly: true, filter: "eq" },
    { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, readOnly: true, filter: "eq", sortable: true },
    q("openingQuantity", "期初数量"),
    m("openingAmount", "期初金额（元）"),
    q("inQuantity", "入库数量"),
    m("inAmount", "入库金额（元）"),
    q("outQuantity", "出库数量"),
    m("outAmount", "出库金额（元）"),
    q("closingQuantity", "期末数量"),
    m("closingAmount", "期末金额（元）"),
    { name: "status", label: "状态", type: "enum", dict: "monthSettleStatus", required: true, readOnly: true, filter: "eq" },
  ],
});

export const closingViews = [warehouseAccountMonth, warehouseAccountMonthSettle] as const;

/** 月末结账's two steps (the one month-settle screen, decision 084): 生成 from the ledger, 转正式 makes it again and locks the month. */
export const stockMonthClose: MonthSettleDef = {
  of: warehouseAccountMonthSettle,
  months: "/api/v1/zhhq/warehouseAccountMonth/findPage?pageSize=50",
  api: "/api/v1/zhhq/warehouseAccountMonthSettle",
  status: { field: "status", locked: "1", lockedLabel: "正式（已结账）", openLabel: "临时" },
  heading: "已生成的月份",
  empty: "还没有生成过的月份。",
  columns: [
    { key: "rowCount", label: "行数", kind: "count" },
    { key: "generatedAt", label: "生成时间", kind: "time" },
    { key: "confirmedAt", label: "转正式时间", kind: "time" },
  ],
  steps: [
    {
      name: "generate",
      title: "生成月结",
      button: "生成",
      note: "按单据日期从库存流水重新计算该月每个仓库、每种物资的期初、入库、出库与期末（数量与金额），保存为临时结果，可重复生成。已结账（正式）的月份不能重新生成。",
      done: "{month} 已生成（{rowCount} 行）",
    },
    {
      name: "confirm",
      title: "转正式",
      button: "转正式",
      note: "重新生成该月并锁定：此后任何单据的日期都不能在该月（审核时提示“已结账”）。该月须已结束，且更早有出入库的月份都已转正式。",
      locks: { review: "将重新生成 {month} 的月结[（上次生成 {rowCount} 行）]并转为正式：此后任何单据的日期都不能在 {month}，转正式后不能撤销。", withoutRow: "ask", confirmLabel: "确认转正式" },
      done: "{month} 已转正式并锁定",
    },
  ],
};

/**
 * 库存预警 (issue 41): what a keeper must act on — stock outside its thresholds, batches near or past expiry, supplier
 * licences lapsing — as things stand, a screen with no table of its own. Its kinds are its sources' (server/modules/
 * zhhq/warning.ts, `WARNING_SOURCES`); the home page shows their counts.
 */
export const warehouseWarning: ReportScreen = { module: "zhhq", entity: "warehouseWarning", screen: "warehousewarning", screenBase: "/zhhq", title: "库存预警" };

/** A kind of warning as 库存预警's API answers it (its sources declare them), with how many there are now. */
export interface WarningKindCount {
  value: string;
  label: string;
  color: string;
  /** Its window, when it has one (临期: 7 天内). */
  note?: string;
  count: number;
}
