import { defineResource } from "../define";
import type { MonthSettleDef } from "../monthSettle";
import { placeField, placeOnly } from "./master";

/**
 * 商户结算 (spec §2 /sc scmerchantfinance, issue 37, decision 084): per restaurant or stall and month, the income,
 * direct cost, expenses and margin 经营毛利 counts, kept as 暂存 by 生成 (made again each time, the same figures) and
 * locked by 确认: no income, purchase or expense may then be dated into that month for that place (409 `YYYY-MM
 * 已结账`). The rules are server/modules/sc/finance.ts'.
 */
const money = (name: string, label: string) => ({ name, label, type: "money", required: true, readOnly: true, min: -100_000_000_000 }) as const;

export const scMerchantFinance = defineResource({
  module: "sc",
  entity: "scMerchantFinance",
  screen: "scmerchantfinance",
  screenBase: "/sc",
  table: "sc_merchant_finance",
  title: "商户结算",
  menuTitle: "商户结算",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "month", dir: "desc" },
  actions: ["export"],
  workflowActions: { generate: "生成", confirm: "确认" },
  headerLinks: [
    { action: "generate", path: "generate" },
    { action: "confirm", path: "confirm" },
  ],
  uniqueKeys: [{ fields: ["month", "restaurantId"], message: "该餐厅/商户此月已有结算" }],
  fields: [
    { name: "month", label: "月份", type: "text", required: true, readOnly: true, filter: "eq", sortable: true, max: 7 },
    { ...placeField, required: true, readOnly: true },
    money("income", "收入（元）"),
    money("directCost", "直接成本（元）"),
    money("expenses", "费用（元）"),
    money("margin", "毛利（元）"),
    { name: "status", label: "状态", type: "enum", dict: "scFinanceStatus", required: true, readOnly: true, filter: "eq" },
    { name: "generatedAt", label: "生成时间", type: "datetime", readOnly: true },
    { name: "confirmedAt", label: "确认时间", type: "datetime", readOnly: true },
  ],
});

/** 生成 and 确认 on the one month-settle screen, for one place or every place. */
export const merchantMonthClose: MonthSettleDef = {
  of: scMerchantFinance,
  months: "/api/v1/sc/scMerchantFinance/findPage?pageSize=100",
  api: "/api/v1/sc/scMerchantFinance",
  place: { name: "restaurantId", label: "餐厅/商户", orgTypes: placeOnly.values },
  status: { field: "status", locked: "1", lockedLabel: "已确认（已结账）", openLabel: "暂存" },
  heading: "各餐厅/商户的月份",
  empty: "还没有生成过的月份。",
  columns: [
    { key: "restaurantIdLabel", label: "餐厅/商户", kind: "text" },
    { key: "income", label: "收入（元）", kind: "money" },
    { key: "directCost", label: "直接成本（元）", kind: "money" },
    { key: "expenses", label: "费用（元）", kind: "money" },
    { key: "margin", label: "毛利（元）", kind: "money" },
    { key: "generatedAt", label: "生成时间", kind: "time" },
  ],
  steps: [
    {
      name: "generate",
      title: "生成结算",
      button: "生成",
      note: "按收入、采购与成本费用重新计算该月每个餐厅/商户的收入、直接成本、费用与毛利（与经营毛利报表同一口径），保存为暂存，可重复生成，结果相同。已确认的餐厅/商户保持不变。",
      done: "{month} 已生成（{places} 个餐厅/商户）",
    },
    {
      name: "confirm",
      title: "确认结算",
      button: "确认",
      note: "重新计算并确认该月：此后该餐厅/商户日期在该月的收入、采购与成本费用都不能新增、修改或删除，也不能再按订单生成收入（提示“已结账”）。不选餐厅/商户则确认全部。",
      locks: { review: "将重新计算并确认 {month}[ {placeName}] 的结算：此后该月的收入、采购与成本费用不能再新增、修改或删除，确认后不能撤销。", withoutRow: "ask", confirmLabel: "确认结账" },
      done: "{month} 已确认并结账（{places} 个餐厅/商户）",
    },
  ],
};
