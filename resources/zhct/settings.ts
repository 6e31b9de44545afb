import { defineResource } from "../define";

/**
 * Payment settings of the canteen (spec §2 /zhct, DOMAIN.md "Pay limits"): pay limits per staff type and meal type,
 * online top-up rules per restaurant, the merchants' shares per restaurant and the points strategy. Their rules are
 * in server/modules/zhct/settings.ts.
 */
export const payLimitConfig = defineResource({
  module: "zhct",
  entity: "payLimitConfig",
  screen: "paylimitconfig",
  screenBase: "/zhct",
  table: "pay_limit_config",
  title: "支付限额",
  menuTitle: "支付限额配置",
  scope: "tenant",
  labelField: "staffType",
  defaultSort: { field: "staffType", dir: "asc" },
  actions: ["create", "update", "delete"],
  uniqueKeys: [{ fields: ["staffType", "mealType"], message: "该人员类别在此餐别已有限额" }],
  fields: [
    // The diner's 人员类别 (free text on the diner, e.g. 正式员工、外包、访客): the two must be spelt alike.
    { name: "staffType", label: "人员类别", type: "text", required: true, filter: "like", sortable: true, max: 20, description: "与人员的“人员类别”一致，如 正式员工、外包、访客" },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq", description: "全天：该类别各餐别未单独配置时适用" },
    { name: "maxMealsPerDay", label: "每日最多次数", type: "number", min: 1, max: 50, description: "不填则不限" },
    { name: "maxAmountPerMeal", label: "每餐最多金额（元）", type: "money", min: 1, max: 1_000_000, description: "不填则不限" },
    { name: "cashAllowed", label: "现金账户可支付", type: "enum", dict: "yesOrNo", required: true, defaultValue: "1" },
    { name: "subsidyAllowed", label: "补贴账户可支付", type: "enum", dict: "yesOrNo", required: true, defaultValue: "1" },
    { name: "allowCredit", label: "允许透支", type: "enum", dict: "yesOrNo", required: true, filter: "eq", defaultValue: "0" },
    { name: "creditLimit", label: "透支额度（元）", type: "money", required: true, defaultValue: 0, max: 1_000_000, description: "允许透支时余额最低可到负的此金额" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const onlinePayRule = defineResource({
  module: "zhct",
  entity: "onlinePayRule",
  screen: "onlinepayrule",
  screenBase: "/zhct",
  table: "online_pay_rule",
  title: "线上充值规则",
  scope: "tenant",
  labelField: "restaurantId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete"],
  fields: [
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, unique: true, filter: "eq" },
    { name: "wechatEnabled", label: "微信支付", type: "enum", dict: "yesOrNo", required: true, defaultValue: "1" },
    { name: "alipayEnabled", label: "支付宝", type: "enum", dict: "yesOrNo", required: true, defaultValue: "0" },
    { name: "unionpayEnabled", label: "云闪付", type: "enum", dict: "yesOrNo", required: true, defaultValue: "0" },
    { name: "minAmount", label: "单笔最低充值（元）", type: "money", required: true, defaultValue: 100, min: 1, max: 100_000_000 },
    { name: "maxAmount", label: "单笔最高充值（元）", type: "money", required: true, defaultValue: 100_000, min: 1, max: 100_000_000 },
    { name: "dailyLimit", label: "每人每日充值上限（元）", type: "money", required: true, defaultValue: 200_000, min: 1, max: 100_000_000 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const merchantDivide = defineResource({
  module: "zhct",
  entity: "merchantDivide",
  screen: "merchantdivide",
  screenBase: "/zhct",
  table: "merchant_divide",
  title: "商户分账",
  scope: "tenant",
  labelField: "merchantId",
  defaultSort: { field: "createdAt", dir: "asc" },
  actions: ["create", "update", "delete"],
  uniqueKeys: [{ fields: ["restaurantId", "merchantId"], message: "该餐厅已有此商户的分成" }],
  fields: [
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq" },
    { name: "stallId", label: "档口", type: "relation", relation: "auth/org", filter: "eq", description: "不填则按整个餐厅分成" },
    { name: "merchantId", label: "商户", type: "relation", relation: "sys/merchant", required: true, filter: "eq" },
    { name: "sharePercent", label: "分成比例（%）", type: "number", required: true, min: 1, max: 100, sortable: true, description: "同一餐厅各商户的比例合计为 100" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const integralStrategy = defineResource({
  module: "zhct",
  entity: "integralStrategy",
  screen: "integralstrategy",
  screenBase: "/zhct",
  table: "integral_strategy",
  title: "积分策略",
  scope: "tenant",
  labelField: "strategyName",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete"],
  fields: [
    { name: "strategyName", label: "策略名称", type: "text", required: true, unique: true, filter: "like", max: 50 },
    { name: "pointsPerYuan", label: "每消费 1 元积分", type: "number", required: true, min: 0, max: 1000 },
    { name: "expiryMonths", label: "积分有效期（月）", type: "number", required: true, defaultValue: 12, min: 0, max: 120, description: "0 为永不过期" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1", description: "同一时间只能有一个有效的策略" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
