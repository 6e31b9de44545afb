import { defineReport, period, restaurant, type ReportFilter } from "../report/define";

/**
 * 智慧后勤's reports (issue 35, decision 076): declared like 报表's (decision 030: filters in the URL, totals, XLSX,
 * print, a chart where a trend is the point), drawn by the same page under /zhhq, and answered from the stock ledger's
 * movement lines (server/modules/zhhq/reports.ts), so every figure is the ledger's. A movement's day is the China day
 * it was posted (approved); quantities are in the goods' own units, so they are not summed across goods.
 */

/** Under /zhhq, its API under /api/v1/zhhq (a module's own reports, decision 075). */
const place = { module: "zhhq", screenBase: "/zhhq" };

const warehouse = { name: "warehouseId", kind: "ref", label: "仓库", table: "warehouse", labelColumn: "name" } as const satisfies ReportFilter;
const supplier = { name: "supplierId", kind: "ref", label: "供应商", table: "supplier", labelColumn: "supplier_name" } as const satisfies ReportFilter;
const goodsType = { name: "goodsTypeId", kind: "ref", label: "物资分类", table: "goods_type", labelColumn: "type_name" } as const satisfies ReportFilter;
const useType = { name: "outUseTypeId", kind: "ref", label: "出库用途", table: "out_use_type", labelColumn: "type_name" } as const satisfies ReportFilter;
const goods = { name: "goodsCode", kind: "code", label: "物资编码", table: "goods", codeColumn: "goods_code", idName: "goodsId" } as const satisfies ReportFilter;
/** Who took a stock-out (its 领用餐厅/部门, else the warehouse's restaurant). */
const receiver = { name: "receiverOrgId", kind: "org", label: "领用部门", orgType: ["restaurant", "stall", "department"] } as const satisfies ReportFilter;
const months = { name: "fromMonth", kind: "monthRange", label: "月份" } as const satisfies ReportFilter;

const goodsColumns = [
  { key: "goodsCode", label: "物资编码", kind: "text" },
  { key: "goodsName", label: "物资名称", kind: "text" },
  { key: "unitName", label: "单位", kind: "text" },
] as const;

/** Opening, in, out and closing of a warehouse × goods over a day or a month (closing = opening + in − out). */
const balanceColumns = [
  { key: "openingQuantity", label: "期初数量", kind: "quantity" },
  { key: "openingAmount", label: "期初金额", kind: "money", total: true },
  { key: "inQuantity", label: "入库数量", kind: "quantity" },
  { key: "inAmount", label: "入库金额", kind: "money", total: true },
  { key: "outQuantity", label: "出库数量", kind: "quantity" },
  { key: "outAmount", label: "出库金额", kind: "money", total: true },
  { key: "closingQuantity", label: "期末数量", kind: "quantity" },
  { key: "closingAmount", label: "期末金额", kind: "money", total: true },
] as const;

export const warehouseDailyReport = defineReport(
  {
    ...place,
    entity: "warehouseDailyReport",
    screen: "warehousedailyreport",
    title: "库存日报",
    description:
      "每天、每个仓库、每种物资的期初、入库、出库与期末（数量与金额；期末 = 期初 + 入库 − 出库）。入库含入库与出库退库，出库含出库与入库退货，按审核入账的日期计。只列当天有变动的物资。",
    filters: [period, warehouse, goodsType, goods],
    columns: [{ key: "day", label: "日期", kind: "text" }, { key: "warehouseName", label: "仓库", kind: "text" }, ...goodsColumns, ...balanceColumns],
    chart: { kind: "bar", x: "day", series: ["inAmount", "outAmount"], title: "每日入库与出库金额" },
  },
);

export const warehouseMonthReport = defineReport(
  {
    ...place,
    entity: "warehouseMonthReport",
    screen: "warehousemonthreport",
    title: "库存月报",
    description: "每月、每个仓库、每种物资的期初、入库、出库与期末（数量与金额），按库存流水计；列出当月有变动或有结存的物资。",
    filters: [months, warehouse, goodsType, goods],
    columns: [{ key: "month", label: "月份", kind: "text" }, { key: "warehouseName", label: "仓库", kind: "text" }, ...goodsColumns, ...balanceColumns],
  },
);

export const warehouseInReport = defineReport(
  {
    ...place,
    entity: "warehouseInReport",
    screen: "warehouseinreport",
    title: "入库统计",
    description: "期间内已审核入库的数量与金额，按供应商、仓库与物资分列；入库退货另列并从净额中扣除。",
    filters: [period, supplier, warehouse, goodsType, goods],
    columns: [
      { key: "supplierName", label: "供应商", kind: "text" },
      { key: "warehouseName", label: "仓库", kind: "text" },
      { key: "goodsTypeName", label: "物资分类", kind: "text" },
      ...goodsColumns,
      { key: "inCount", label: "入库笔数", kind: "count", total: true },
      { key: "inQuantity", label: "入库数量", kind: "quantity" },
      { key: "inAmount", label: "入库金额", kind: "money", total: true },
      { key: "returnQuantity", label: "退货数量", kind: "quantity" },
      { key: "returnAmount", label: "退货金额", kind: "money", total: true },
      { key: "netAmount", label: "净入库金额", kind: "money", total: true },
    ],
    chart: { kind: "pie", x: "supplierName", series: ["netAmount"], title: "各供应商净入库金额占比" },
  },
);

export const warehouseOutReport = defineReport(
  {
    ...place,
    entity: "warehouseOutReport",
    screen: "warehouseoutreport",
    title: "出库统计",
    description: "期间内已审核出库的数量与成本（按批次的入库价），按出库用途、领用部门（出库单的领用餐厅/部门，未填的为仓库的服务餐厅）、仓库与物资分列；出库退库另列并从净成本中扣除。",
    filters: [period, useType, receiver, warehouse, goodsType, goods],
    columns: [
      { key: "useTypeName", label: "出库用途", kind: "text" },
      { key: "receiverName", label: "领用部门", kind: "text" },
      { key: "warehouseName", label: "仓库", kind: "text" },
      ...goodsColumns,
      { key: "outCount", label: "出库笔数", kind: "count", total: true },
      { key: "outQuantity", label: "出库数量", kind: "quantity" },
      { key: "outAmount", label: "出库成本", kind: "money", total: true },
      { key: "returnQuantity", label: "退库数量", kind: "quantity" },
      { key: "returnAmount", label: "退库成本", kind: "money", total: true },
      { key: "netAmount", label: "净成本", kind: "money", total: true },
    ],
    chart: { kind: "pie", x: "useTypeName", series: ["netAmount"], title: "各用途成本占比" },
  },
);

/**
 * 采购统计: the approved orders (a closed order only if it was confirmed: one closed before any delivery bought nothing)
 * per order month, supplier and goods — what was ordered, what arrived and what was confirmed for payment — and,
 * once a goods is named, its order price month by month (Σ amount ÷ Σ quantity, not a sum of prices).
 */
export const purchaseReport = defineReport(
  {
    ...place,
    entity: "purchaseReport",
    screen: "purchasereport",
    title: "采购统计",
    description: `已审核的采购单（已关闭的只计已确认的）按订单月份、供应商与物资分列：采购数量与金额、到货数量与金额、已确认付款的到货金额。按物资编码查询时显示该物资各月的采购均价走势。`,
    filters: [months, supplier, warehouse, goodsType, goods],
    columns: [
      { key: "month", label: "月份", kind: "text" },
      { key: "supplierName", label: "供应商", kind: "text" },
      ...goodsColumns,
      { key: "orderCount", label: "订单数", kind: "count", total: true },
      { key: "orderQuantity", label: "采购数量", kind: "quantity" },
      { key: "orderAmount", label: "采购金额", kind: "money", total: true },
      { key: "avgPrice", label: "采购均价", kind: "money" },
      { key: "receivedQuantity", label: "到货数量", kind: "quantity" },
      { key: "receivedAmount", label: "到货金额", kind: "money", total: true },
      { key: "confirmedAmount", label: "已确认金额", kind: "money", total: true },
    ],
    chart: { kind: "line", x: "month", series: ["avgPrice"], title: "采购均价走势", prices: { avgPrice: { amount: "orderAmount", quantity: "orderQuantity" } }, needs: "goodsCode" },
  },
);

/** 盘点统计: the gains and losses each approved stocktake posted, per sheet and goods, as the ledger holds them. */
export const warehouseCheckReport = defineReport(
  {
    ...place,
    entity: "warehouseCheckReport",
    screen: "warehousecheckreport",
    title: "盘点统计",
    description: "期间内审核入账的盘点单的盘盈与盘亏（数量与金额，盘盈按批次单价、盘亏按批次成本），按盘点单与物资分列，按审核入账的日期计。",
    filters: [period, warehouse, goodsType, goods],
    columns: [
      { key: "docNo", label: "盘点单号", kind: "text" },
      { key: "docDate", label: "盘点日期", kind: "text" },
      { key: "warehouseName", label: "仓库", kind: "text" },
      ...goodsColumns,
      { key: "gainQuantity", label: "盘盈数量", kind: "quantity" },
      { key: "gainAmount", label: "盘盈金额", kind: "money", total: true },
      { key: "lossQuantity", label: "盘亏数量", kind: "quantity" },
      { key: "lossAmount", label: "盘亏金额", kind: "money", total: true },
      { key: "netAmount", label: "净盈亏金额", kind: "money", total: true },
    ],
    chart: { kind: "bar", x: "docNo", series: ["gainAmount", "lossAmount"], title: "各盘点单盘盈与盘亏金额" },
  },
);

/**
 * 维修统计: repairs by the month they were reported, type, place and worker — how many, finished and rejected, what
 * their parts cost (the stock's, 维修出库), the hours of their work records, how long acceptance and the repair took on
 * average, and their ratings. The totals row's averages are the period's own, not sums.
 */
export const repairDetailReport = defineReport(
  {
    ...place,
    entity: "repairDetailReport",
    screen: "repairdetailreport",
    title: "维修统计",
    description: "按报修月份、报修类型、地点类型与维修人员统计报修单：报修数、完成数、驳回数、配件成本、工时（维修记录之和）、平均受理用时与维修用时（分钟）、评价数与平均评分。",
    filters: [
      months,
      { name: "repairType", kind: "enum", label: "报修类型", dict: "repairType" },
      { name: "placeType", kind: "enum", label: "地点类型", dict: "repairPlaceType" },
      { name: "workerName", kind: "keyword", label: "维修人员" },
    ],
    columns: [
      { key: "month", label: "月份", kind: "text" },
      { key: "repairType", label: "报修类型", kind: "enum", dict: "repairType" },
      { key: "placeType", label: "地点类型", kind: "enum", dict: "repairPlaceType" },
      { key: "workerName", label: "维修人员", kind: "text" },
      { key: "repairs", label: "报修数", kind: "count", total: true },
      { key: "finished", label: "完成数", kind: "count", total: true },
      { key: "rejected", label: "驳回数", kind: "count", total: true },
      { key: "partsCost", label: "配件成本", kind: "money", total: true },
      { key: "hours", label: "工时（小时）", kind: "quantity", total: true },
      { key: "avgAcceptMinutes", label: "平均受理用时（分钟）", kind: "count" },
      { key: "avgFinishMinutes", label: "平均维修用时（分钟）", kind: "count" },
      { key: "ratings", label: "评价数", kind: "count", total: true },
      { key: "avgRating", label: "平均评分", kind: "quantity" },
    ],
    chart: { kind: "bar", x: "month", series: ["repairs", "finished"], title: "每月报修与完成数" },
  },
);

/**
 * 批次追溯 (issue 35's traceability): a delivery's batches — where each came from (supplier, stock-in, keeper, price,
 * the supplier's licences in force that day), every movement after (stock-outs with their use and restaurant,
 * returns; transfers and stocktakes as they come), and for stock-outs to a restaurant's kitchen the meal days and
 * meals it could have fed: that restaurant's served orders from the first stock-out's date through the last one's + 1 day.
 */
export const batchTrace = defineReport(
  {
    ...place,
    entity: "batchTrace",
    screen: "batchtrace",
    title: "批次追溯",
    description:
      "按批次号（不限日期）或供应商（按入库日期）查一批物资：来源（供应商、入库单、仓管员、单价、当日有效的资质）、去向（出库、退货、退库）与可能供应的餐次（领用餐厅自首次出库日至末次出库日次日的已支付订单与就餐人数）。",
    filters: [period, { name: "batchNo", kind: "keyword", label: "批次号" }, supplier],
    columns: [
      { key: "batchNo", label: "批次号", kind: "text" },
      { key: "goodsName", label: "物资", kind: "text" },
      { key: "stage", label: "环节", kind: "text" },
      { key: "day", label: "日期", kind: "text" },
      { key: "docTitle", label: "单据类型", kind: "text" },
      { key: "docNo", label: "单号", kind: "text" },
      { key: "party", label: "供应商 / 去向", kind: "text" },
      { key: "quantity", label: "数量", kind: "quantity" },
      { key: "amount", label: "金额", kind: "money" },
      { key: "mealType", label: "餐别", kind: "enum", dict: "foodMenuType" },
      { key: "orders", label: "订单数", kind: "count", total: true },
      { key: "diners", label: "就餐人数", kind: "count", total: true },
      { key: "note", label: "说明", kind: "text" },
    ],
  },
);

/** The reverse: from a restaurant and its meal days, the batches its kitchen received that could have fed them. */
export const restaurantTrace = defineReport(
  {
    ...place,
    entity: "restaurantTrace",
    screen: "restauranttrace",
    title: "餐厅用料追溯",
    description: "某餐厅在所选就餐日期可能用到的批次：出库到该餐厅（仓库的服务餐厅）且首次出库日不晚于结束日期、末次出库日次日不早于开始日期的批次，及其供应商与入库单。点击批次号查看其全部去向。",
    filters: [period, restaurant, supplier],
    columns: [
      { key: "restaurantName", label: "餐厅", kind: "text" },
      { key: "batchNo", label: "批次号", kind: "text", link: { report: "batchTrace", params: { batchNo: "batchNo" } } },
      { key: "goodsCode", label: "物资编码", kind: "text" },
      { key: "goodsName", label: "物资名称", kind: "text" },
      { key: "supplierName", label: "供应商", kind: "text" },
      { key: "inDocNo", label: "入库单", kind: "text" },
      { key: "inDay", label: "入库日期", kind: "text" },
      { key: "expiryDate", label: "到期日期", kind: "text" },
      { key: "firstIssue", label: "首次出库", kind: "text" },
      { key: "lastIssue", label: "末次出库", kind: "text" },
      { key: "issuedQuantity", label: "出库数量", kind: "quantity" },
      { key: "issuedAmount", label: "出库成本", kind: "money", total: true },
    ],
  },
);

/**
 * 资质预警 as things stand: supplier licences lapsed or lapsing within 30 days (not yet renewed). Stock outside its
 * thresholds and batches near expiry are 库存预警's (decision 073).
 */
export const supplierQualificationWarning = defineReport(
  {
    ...place,
    entity: "supplierQualificationWarning",
    screen: "supplierqualificationwarning",
    title: "资质预警",
    description: "供应商资质已过期或 30 天内到期（未续期的）。过期资质的供应商不能入库（系统参数 zhhq.supplier.qualificationCheck 为 warn 时只提示）。",
    filters: [supplier],
    columns: [
      { key: "kind", label: "预警类型", kind: "text" },
      { key: "subject", label: "供应商", kind: "text" },
      { key: "detail", label: "资质", kind: "text" },
      { key: "validTo", label: "有效期至", kind: "text" },
      { key: "daysLeft", label: "剩余天数", kind: "count" },
      { key: "items", label: "预警数", kind: "count", total: true },
    ],
  },
);

/** In the menu's order under 智慧后勤 → 报表 and 追溯. */
export const zhhqReports = [
  warehouseDailyReport,
  warehouseMonthReport,
  purchaseReport,
  warehouseInReport,
  warehouseOutReport,
  repairDetailReport,
  warehouseCheckReport,
  batchTrace,
  restaurantTrace,
  supplierQualificationWarning,
];
