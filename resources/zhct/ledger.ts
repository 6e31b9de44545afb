import { defineResource } from "../define";
import { CARD_SERIAL } from "../sys/iccardInit";

/**
 * Diners, their accounts, the money ledger, top-ups/refunds and IC cards (spec §2 /zhct, DOMAIN.md "Canteen",
 * decision 017). Balances change only through server/modules/zhct/ledger.ts; the account and ledger tables have no
 * create, update or delete action.
 */
export const userInfo = defineResource({
  module: "zhct",
  entity: "userInfo",
  screen: "userinfo",
  screenBase: "/zhct",
  table: "user_info",
  title: "人员",
  menuTitle: "人员管理",
  scope: "tenant",
  labelField: "userName",
  labelDetail: ["userCode", "deptId"],
  defaultSort: { field: "userCode", dir: "asc" },
  actions: ["create", "update", "export", "import"],
  workflowActions: { audit: "审核" },
  rowLinks: [
    { action: "view", path: "account/:id", label: "账户" },
    { action: "audit", path: "audit/:id" },
  ],
  indexes: [["userName"]],
  fields: [
    { name: "userCode", label: "人员编号", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 32 },
    { name: "userName", label: "姓名", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "sex", label: "性别", type: "enum", dict: "sex", filter: "eq" },
    {
      name: "phone",
      label: "手机号",
      type: "text",
      filter: "like",
      max: 11,
      pattern: { regex: /^1\d{10}$/, message: "手机号应为 1 开头的 11 位数字" },
    },
    { name: "deptId", label: "部门", type: "relation", relation: "auth/org", filter: "eq" },
    { name: "userInfoRoleType", label: "人员角色类型", type: "enum", dict: "userInfoRoleType", filter: "eq", description: "不填为普通用户" },
    { name: "staffType", label: "人员类别", type: "text", filter: "eq", max: 20, description: "如 正式员工、外包、访客；补贴与限额按此区分" },
    { name: "faceImage", label: "人脸照片", type: "image", list: false },
    { name: "restaurantIds", label: "可就餐餐厅", type: "text", list: false, max: 500, pattern: { regex: /^\d+(,\d+)*$/, message: "可就餐餐厅应为逗号分隔的餐厅 ID" }, description: "不填则不限" },
    { name: "auditStatus", label: "审核状态", type: "enum", dict: "userInfoAuditStatus", required: true, readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "userStatus", label: "状态", type: "enum", dict: "userStatus", filter: "eq", description: "不填为正常" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** One row per diner and account type; `balance` is the sum of the account's ledger lines (fen). */
export const userAccount = defineResource({
  module: "zhct",
  entity: "userAccount",
  screen: "useraccount",
  screenBase: "/zhct",
  table: "user_account",
  title: "账户",
  menuTitle: "账户管理",
  scope: "tenant",
  labelField: "accountType",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["export"],
  uniqueKeys: [{ fields: ["userInfoId", "accountType"], message: "该人员已有此类型的账户" }],
  fields: [
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "accountType", label: "账户类型", type: "enum", dict: "accountType", required: true, filter: "eq" },
    { name: "balance", label: "余额（元）", type: "money", required: true, readOnly: true, sortable: true, defaultValue: 0, min: -1_000_000_000 },
  ],
});

/** The channels every tenant starts with (decision 064): their codes are what the API and old rows carry. */
export const TOP_UP_CHANNELS = [
  { channelCode: "cash", channelName: "现金", sort: 1, status: 1 },
  { channelCode: "pos", channelName: "银行卡/POS", sort: 2, status: 1 },
  { channelCode: "wechat", channelName: "微信", sort: 3, status: 1 },
  { channelCode: "alipay", channelName: "支付宝", sort: 4, status: 1 },
  { channelCode: "transfer", channelName: "银行转账", sort: 5, status: 1 },
  { channelCode: "other", channelName: "其他", sort: 6, status: 1 },
] as const;

/**
 * How a top-up's money came in (issue 38, decision 064): not the consumption methods of `userAccountFlag` but the
 * tenant's own dictionary `topUpChannel`, seeded with six and extended by adding rows; one stopped (status 0) is no
 * longer offered or accepted, and old top-ups keep it.
 */
export const topUpChannel = defineResource({
  module: "zhct",
  entity: "topUpChannel",
  screen: "topupchannel",
  screenBase: "/zhct",
  table: "top_up_channel",
  title: "充值渠道",
  scope: "tenant",
  labelField: "channelName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  // Its items are in every user's shell (the top-up form, lists and reports name channels by them).
  shellData: true,
  dictionary: { code: "topUpChannel", value: "channelCode", text: "channelName" },
  tenantRows: TOP_UP_CHANNELS,
  fields: [
    { name: "channelName", label: "渠道名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 20 },
    {
      name: "channelCode",
      label: "渠道代码",
      type: "text",
      required: true,
      unique: true,
      filter: "eq",
      max: 20,
      pattern: { regex: /^[a-z][a-z0-9_]{0,19}$/, message: "渠道代码应以小写字母开头，由小写字母、数字或下划线组成" },
      description: "充值接口的 channel 传此代码；创建后不能修改",
    },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "text", max: 200 },
  ],
});

/**
 * The ledger: one line per movement of one account, never edited or deleted. A mistaken line is undone by a line
 * of the opposite sign whose `reversalOf` names it.
 */
export const userAccountLedger = defineResource({
  module: "zhct",
  entity: "userAccountLedger",
  screen: "useraccountledger",
  screenBase: "/zhct",
  table: "user_account_ledger",
  title: "账户流水",
  scope: "tenant",
  labelField: "busiType",
  defaultSort: { field: "occurredAt", dir: "desc" },
  actions: ["export"],
  // A line is reversed at most once.
  uniqueKeys: [{ fields: ["reversalOf"], message: "该流水已冲正" }],
  // A diner's lines newest first (their page), a month's lines of the tenant (settlement, daily report), and an
  // order's lines (its cancel, the reports' split by account; migration 0029).
  indexes: [["userInfoId", "occurredAt"], ["occurredAt"], ["docType", "docId"]],
  fields: [
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "accountId", label: "账户", type: "relation", relation: "zhct/userAccount", required: true, list: false },
    { name: "accountType", label: "账户类型", type: "enum", dict: "accountType", required: true, filter: "eq" },
    { name: "busiType", label: "业务类型", type: "enum", dict: "busiType", required: true, filter: "eq" },
    { name: "amount", label: "金额（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "balanceAfter", label: "变动后余额（元）", type: "money", required: true, min: -1_000_000_000 },
    { name: "payFlag", label: "支付方式", type: "enum", dict: "userAccountFlag", required: true, filter: "eq" },
    // A top-up's, refund's or reversal's channel (decision 064); none on other lines.
    { name: "channel", label: "充值渠道", type: "enum", dict: "topUpChannel", filter: "eq" },
    { name: "operatorId", label: "操作人 ID", type: "number", list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "operatorName", label: "操作人", type: "text", filter: "like", max: 100 },
    { name: "docType", label: "单据类型", type: "text", list: false, max: 20 },
    { name: "docId", label: "单据 ID", type: "number", list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "idempotencyKey", label: "幂等键", type: "text", list: false, filter: "eq", max: 100 },
    { name: "reversalOf", label: "冲正原流水", type: "number", list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "remark", label: "备注", type: "text", max: 200 },
    { name: "occurredAt", label: "发生时间", type: "datetime", required: true, filter: "range", sortable: true },
  ],
});

/** Top-ups, refunds and reversals at the counter: the documents a receipt is printed from. */
export const userAccountCharge = defineResource({
  module: "zhct",
  entity: "userAccountCharge",
  screen: "useraccountcharge",
  screenBase: "/zhct",
  table: "user_account_charge",
  title: "充值退款",
  menuTitle: "充值管理",
  scope: "tenant",
  labelField: "chargeNo",
  defaultSort: { field: "chargedAt", dir: "desc" },
  actions: ["export"],
  workflowActions: { charge: "充值", refund: "退款", reverse: "冲正" },
  headerLinks: [
    { action: "charge", path: "charge" },
    { action: "refund", path: "refund" },
  ],
  rowLinks: [
    { action: "view", path: "receipt/:id", label: "回单" },
    // Only a top-up (busiType 0) can be reversed.
    { action: "reverse", path: "reverse/:id", when: { field: "busiType", values: ["0"] } },
  ],
  // A reversal names the top-up it undoes; one reversal per top-up.
  uniqueKeys: [{ fields: ["reversalOf"], message: "该充值已冲正" }],
  indexes: [["chargedAt"]],
  fields: [
    { name: "chargeNo", label: "单号", type: "text", required: true, unique: true, filter: "like", max: 32 },
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "accountType", label: "账户类型", type: "enum", dict: "accountType", required: true, filter: "eq" },
    { name: "busiType", label: "业务类型", type: "enum", dict: "busiType", required: true, filter: "eq" },
    { name: "amount", label: "金额（元）", type: "money", required: true, sortable: true },
    { name: "balanceAfter", label: "变动后余额（元）", type: "money", required: true, min: -1_000_000_000 },
    // A consumption method (IC卡, 刷脸…) says nothing of how a top-up was paid: kept for the API's filter, not shown.
    { name: "payFlag", label: "支付方式", type: "enum", dict: "userAccountFlag", required: true, list: false, filter: "eq" },
    { name: "channel", label: "充值渠道", type: "enum", dict: "topUpChannel", filter: "eq" },
    { name: "ledgerId", label: "流水", type: "relation", relation: "zhct/userAccountLedger", required: true, list: false },
    { name: "reversalOf", label: "冲正原单", type: "relation", relation: "zhct/userAccountCharge", list: false },
    { name: "operatorName", label: "操作人", type: "text", filter: "like", max: 100 },
    // The charge machine or counter terminal that took it (its device code); none: the back office.
    { name: "deviceCode", label: "充值设备", type: "text", filter: "eq", max: 64 },
    { name: "remark", label: "备注", type: "text", max: 200 },
    { name: "chargedAt", label: "时间", type: "datetime", required: true, filter: "range", sortable: true },
  ],
});

/** What each of a card's steps confirms: whose card, in which status, and what follows. */
const CARD_STEP = "将{label} {userInfoIdLabel} 的卡 {cardNo}（当前「{status}」）。{note}";

/** IC cards: issuing is create; the status moves only through the card actions (DOMAIN.md "IC cards"). */
export const userIcCard = defineResource({
  module: "zhct",
  entity: "userIcCard",
  screen: "usericcard",
  screenBase: "/zhct",
  table: "user_ic_card",
  title: "IC卡",
  menuTitle: "IC卡管理",
  scope: "tenant",
  labelField: "cardNo",
  defaultSort: { field: "issuedAt", dir: "desc" },
  actions: ["create", "export"],
  // cardStatus 1 正常, 2 挂失, 0 无效: each step from the statuses its API accepts; a refused one is 409 (decision 070).
  workflow: {
    field: "cardStatus",
    colors: { "1": "green", "2": "orange", "0": "gray" },
    refusal: "该卡当前为「{status}」，不能{action}",
    notFound: "IC卡不存在",
    transitions: [
      { name: "reportLoss", label: "挂失", from: ["1"], to: "2", color: "red", note: "挂失后此卡不能再支付，找回后可解挂。", confirm: CARD_STEP },
      { name: "unlock", label: "解挂", from: ["2"], to: "1", color: "blue", note: "解挂后此卡恢复正常使用。", confirm: CARD_STEP },
      {
        name: "reissue",
        label: "补卡",
        from: ["1", "2"],
        to: "0",
        color: "orange",
        note: "原卡作废，为同一人员发新卡；账户和余额不变。",
        confirm: CARD_STEP,
        input: [
          { name: "cardNo", label: "新卡号", type: "text", required: true, max: 32 },
          { name: "cardSerial", label: "新卡物理卡号", type: "text", max: 16 },
        ],
      },
      // 注销 cannot be undone: it asks why (decision 055).
      { name: "cancel", label: "注销", from: ["1", "2"], to: "0", color: "red", note: "注销后此卡作废，不能恢复。", confirm: CARD_STEP, reasonRequired: true },
    ],
  },
  fields: [
    { name: "cardNo", label: "卡号", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 32, pattern: { regex: /^[0-9A-Za-z]{4,32}$/, message: "卡号应为 4–32 位字母或数字" } },
    { name: "cardSerial", label: "物理卡号", type: "text", unique: true, filter: "like", max: 16, pattern: { regex: CARD_SERIAL, message: "物理卡号应为 8 位或 16 位十六进制字符" } },
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "cardType", label: "卡类型", type: "enum", dict: "cardType", required: true, filter: "eq", defaultValue: "1" },
    { name: "cardStatus", label: "卡状态", type: "enum", dict: "cardStatus", required: true, readOnly: true, filter: "eq", defaultValue: "1" },
    { name: "deposit", label: "押金（元）", type: "money", max: 100_000 },
    { name: "replacedBy", label: "补卡新卡", type: "relation", relation: "zhct/userIcCard", readOnly: true, list: false },
    { name: "issuedAt", label: "发卡时间", type: "datetime", readOnly: true, required: true, sortable: true, filter: "range" },
    { name: "remark", label: "备注", type: "text", max: 200 },
  ],
});


