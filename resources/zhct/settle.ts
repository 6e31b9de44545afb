import { defineResource } from "../define";
import type { ReportScreen } from "../modules";
import type { MonthSettleDef } from "../monthSettle";

/**
 * Monthly subsidy grants, their runs and grant lines, and the monthly settlement of accounts (issue 12, decision
 * 022). Money moves only through server/modules/zhct/ledger.ts; these tables record what a run or a settlement did.
 */
export const autoChargeSetting = defineResource({
  module: "zhct",
  entity: "autoChargeSetting",
  screen: "autochargesetting",
  screenBase: "/zhct",
  table: "auto_charge_setting",
  title: "自动充值设置",
  scope: "tenant",
  labelField: "settingName",
  defaultSort: { field: "settingName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { run: "立即执行" },
  rowLinks: [{ action: "run", path: "run/:id" }],
  fields: [
    { name: "settingName", label: "名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "staffType", label: "人员类别", type: "text", filter: "eq", max: 20, description: "按人员类别发放（与人员的「人员类别」一致）；人员类别与部门至少填一项" },
    { name: "deptId", label: "部门", type: "relation", relation: "auth/org", filter: "eq", description: "按部门发放" },
    { name: "amount", label: "每月补贴（元）", type: "money", required: true, min: 1, max: 1_000_000 },
    { name: "dayOfMonth", label: "每月发放日", type: "number", required: true, min: 1, max: 28, defaultValue: 1, description: "1–28 日，当天由系统自动发放" },
    { name: "clearUnused", label: "月末清零", type: "boolean", defaultValue: false, description: "发放新一月补贴前，先清零补贴账户中未用完的余额" },
    { name: "enabled", label: "启用", type: "boolean", defaultValue: true, filter: "eq" },
    { name: "lastRunMonth", label: "最近发放月份", type: "text", readOnly: true, max: 7 },
    { name: "lastRunAt", label: "最近执行时间", type: "datetime", readOnly: true },
    { name: "remark", label: "备注", type: "text", max: 200 },
  ],
});

/** One run of a setting (by the scheduler or 立即执行) and what it did. */
export const autoChargeRun = defineResource({
  module: "zhct",
  entity: "autoChargeRun",
  screen: "autochargerun",
  screenBase: "/zhct",
  table: "auto_charge_run",
  title: "补贴发放记录",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "startedAt", dir: "desc" },
  actions: ["export"],
  indexes: [["settingId", "startedAt"]],
  fields: [
    { name: "settingId", label: "自动充值设置", type: "relation", relation: "zhct/autoChargeSetting", required: true, filter: "eq" },
    { name: "month", label: "发放月份", type: "text", required: true, filter: "eq", max: 7 },
    { name: "triggerType", label: "触发方式", type: "text", required: true, max: 10 },
    { name: "granted", label: "发放人数", type: "number", required: true, min: 0, max: Number.MAX_SAFE_INTEGER, defaultValue: 0 },
    { name: "skipped", label: "跳过人数", type: "number", required: true, min: 0, max: Number.MAX_SAFE_INTEGER, defaultValue: 0 },
    { name: "failed", label: "失败人数", type: "number", required: true, min: 0, max: Number.MAX_SAFE_INTEGER, defaultValue: 0 },
    { name: "message", label: "说明", type: "text", max: 500 },
    { name: "operatorName", label: "操作人", type: "text", max: 100 },
    { name: "startedAt", label: "开始时间", type: "datetime", required: true, sortable: true, filter: "range" },
    { name: "finishedAt", label: "结束时间", type: "datetime" },
  ],
});

/** A diner's grant of one setting and month: the unique key is what makes a second run grant nothing. */
export const autoChargeGrant = defineResource({
  module: "zhct",
  entity: "autoChargeGrant",
  screen: "autochargegrant",
  screenBase: "/zhct",
  table: "auto_charge_grant",
  title: "补贴发放明细",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "grantedAt", dir: "desc" },
  actions: ["export"],
  uniqueKeys: [{ fields: ["settingId", "month", "userInfoId"], message: "该人员本月已发放此补贴" }],
  fields: [
    { name: "settingId", label: "自动充值设置", type: "relation", relation: "zhct/autoChargeSetting", required: true, filter: "eq" },
    { name: "month", label: "发放月份", type: "text", required: true, filter: "eq", max: 7 },
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "runId", label: "执行记录", type: "relation", relation: "zhct/autoChargeRun", list: false },
    { name: "amount", label: "发放金额（元）", type: "money", required: true },
    { name: "cleared", label: "清零金额（元）", type: "money", required: true, defaultValue: 0 },
    { name: "grantedAt", label: "发放时间", type: "datetime", required: true, sortable: true, filter: "range" },
  ],
});

/**
 * Per diner, account and month: the opening, the month's movements by business type (signed fen) and the closing.
 * 暂存 rows are recomputed by 生成; 正式 locks the month (no ledger line may be dated into it).
 */
export const userAccountMonthSettle = defineResource({
  module: "zhct",
  entity: "userAccountMonthSettle",
  screen: "useraccountmonthsettle",
  screenBase: "/zhct",
  table: "user_account_month_settle",
  title: "账户月结",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "month", dir: "desc" },
  actions: ["export"],
  workflowActions: { generate: "生成", formal: "转正式" },
  headerLinks: [
    { action: "generate", path: "generate" },
    { action: "formal", path: "formal" },
  ],
  uniqueKeys: [{ fields: ["month", "userInfoId", "accountType"], message: "该人员此月已有结算" }],
  indexes: [["month", "settleStatus"], ["userInfoId", "month"]],
  fields: [
    { name: "month", label: "月份", type: "text", required: true, filter: "eq", sortable: true, max: 7, pattern: { regex: /^\d{4}-(0[1-9]|1[0-2])$/, message: "月份格式应为 2026-05" } },
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "accountType", label: "账户类型", type: "enum", dict: "accountType", required: true, filter: "eq" },
    { name: "opening", label: "期初（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "topUp", label: "充值（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "refund", label: "退款（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "reversal", label: "冲正（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "subsidyGrant", label: "补贴发放（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "subsidyClear", label: "补贴清零（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "consume", label: "消费（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "closing", label: "期末（元）", type: "money", required: true, min: -1_000_000_000, sortable: true },
    { name: "settleStatus", label: "结算状态", type: "enum", dict: "accountSettleStatus", required: true, filter: "eq" },
    { name: "generatedAt", label: "生成时间", type: "datetime", required: true },
  ],
});

/** 账户月结's two steps (the one month-settle screen, decision 084): 生成 as 暂存, 转正式 locks the month. */
export const userAccountMonthClose: MonthSettleDef = {
  of: userAccountMonthSettle,
  months: "/api/v1/zhct/userAccountMonthSettle/months",
  api: "/api/v1/zhct/userAccountMonthSettle",
  status: { field: "settleStatus", locked: "1", lockedLabel: "正式（已锁定）", openLabel: "暂存" },
  heading: "已结算的月份",
  empty: "还没有结算过的月份。",
  columns: [
    { key: "count", label: "账户数", kind: "count" },
    { key: "opening", label: "期初合计（元）", kind: "money" },
    { key: "closing", label: "期末合计（元）", kind: "money" },
    { key: "generatedAt", label: "生成时间", kind: "time" },
  ],
  steps: [
    {
      name: "generate",
      title: "生成月结",
      button: "生成",
      note: "按流水重新计算该月每个账户的期初、充值、退款、冲正、补贴、清零、消费与期末，保存为暂存。正式的月份不能重新生成。",
      done: "{month} 已生成（{count} 个账户）",
    },
    {
      name: "formal",
      title: "转正式",
      button: "转正式",
      note: "核对暂存结算与流水一致、上月已正式，然后锁定该月：此后不能再有任何流水记入该月。当月转正式后本月不能再充值或消费。",
      // A month not kept as 暂存 has nothing to state; the API says why it cannot be made formal.
      locks: {
        review: "将把 {month} 的月结（{count} 个账户，期初合计 {opening:yuan} 元，期末合计 {closing:yuan} 元）转为正式并锁定该月：此后不能再有任何流水记入 {month}，转正式后不能撤销。",
        withoutRow: "skip",
        confirmLabel: "确认转正式",
      },
      done: "{month} 已转正式并锁定",
    },
  ],
};

/** Top-ups and refunds per day, payment method and operator; totals equal the ledger's. */
export const chargeDailyReport: ReportScreen = { module: "zhct", entity: "chargeDailyReport", screen: "chargedailyreport", screenBase: "/zhct", title: "充值日报" };
/** Diners per department: counts and balances, each row leading into the diners list of that department. */
export const userInfoDept: ReportScreen = { module: "zhct", entity: "userInfoDept", screen: "userinfodept", screenBase: "/zhct", title: "部门人员统计" };
