import { defineResource } from "../define";
import { z } from "../z";

/**
 * The payment methods a tenant accepts, and the diners' points (spec §2 /zhct paytype, useraccountintegraldetail;
 * decision 025). Rules in server/modules/zhct/payTypes.ts and server/modules/zhct/points.ts.
 */

/**
 * Whether a payment method (`userAccountFlag`) is accepted, for one restaurant or the whole tenant (no restaurant).
 * A restaurant's row wins over the tenant's; a method with no row is accepted, so a tenant that configures nothing
 * keeps every method.
 */
export const payType = defineResource({
  module: "zhct",
  entity: "payType",
  screen: "paytype",
  screenBase: "/zhct",
  table: "pay_type",
  title: "支付方式",
  menuTitle: "支付方式配置",
  scope: "tenant",
  labelField: "displayName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete"],
  indexOnly: true,
  // A tenant-wide row (no restaurant) is kept single by a partial unique index and the service's check.
  uniqueKeys: [{ fields: ["restaurantId", "payFlag"], message: "该餐厅已配置此支付方式" }],
  fields: [
    { name: "payFlag", label: "支付方式", type: "enum", dict: "userAccountFlag", required: true, filter: "eq" },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] }, description: "不选则适用于全部餐厅；餐厅的配置优先" },
    { name: "displayName", label: "显示名称", type: "text", filter: "like", max: 20, description: "收银台和设备上显示的名称；不填则用支付方式的名称" },
    { name: "enabled", label: "状态", type: "enum", dict: "enabledStatus", required: true, filter: "eq", defaultValue: "1" },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 9999 },
    { name: "remark", label: "备注", type: "text", max: 200 },
  ],
});

/** A diner's points balance: the sum of their points lines, never below zero. Opened by the diner's first line. */
export const userIntegralAccount = defineResource({
  module: "zhct",
  entity: "userIntegralAccount",
  screen: "userintegralaccount",
  screenBase: "/zhct",
  table: "user_integral_account",
  title: "积分账户",
  scope: "tenant",
  labelField: "userInfoId",
  defaultSort: { field: "balance", dir: "desc" },
  actions: ["export"],
  fields: [
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, unique: true, filter: "eq" },
    { name: "balance", label: "积分余额", type: "number", required: true, readOnly: true, sortable: true, defaultValue: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
  ],
});

/**
 * The points ledger: one line per change of a diner's points (earned by a paid order, expired, adjusted by staff,
 * taken back by a cancelled order), with the balance after. Lines are never edited or deleted.
 */
export const userAccountIntegralDetail = defineResource({
  module: "zhct",
  entity: "userAccountIntegralDetail",
  screen: "useraccountintegraldetail",
  screenBase: "/zhct",
  table: "user_account_integral_detail",
  title: "积分明细",
  scope: "tenant",
  labelField: "changeType",
  defaultSort: { field: "occurredAt", dir: "desc" },
  actions: ["export"],
  indexOnly: true,
  workflowActions: { adjust: "积分调整" },
  headerLinks: [{ action: "adjust", path: "adjust" }],
  // A diner's lines in order (their page, the expiry's replay); an order's lines (cancel takes back what it earned);
  // lines due to expire (the expiry job).
  indexes: [["userInfoId", "occurredAt"], ["orderId"], ["expiresAt"]],
  fields: [
    { name: "userInfoId", label: "人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "changeType", label: "变动类型", type: "enum", dict: "integralChangeType", required: true, filter: "eq" },
    { name: "points", label: "积分变动", type: "number", required: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
    { name: "balanceAfter", label: "变动后积分", type: "number", required: true, min: 0, max: Number.MAX_SAFE_INTEGER },
    // Earn: the fen paid that earned the points; cancel: the fen refunded (what a partial refund takes back follows from it).
    { name: "amount", label: "对应金额（元）", type: "money", min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "orderId", label: "订单 ID", type: "number", list: false, min: 0, max: Number.MAX_SAFE_INTEGER },
    { name: "orderNo", label: "订单号", type: "text", filter: "like", max: 64 },
    { name: "expiresAt", label: "到期时间", type: "datetime" },
    { name: "operatorName", label: "操作人", type: "text", filter: "like", max: 100 },
    { name: "reason", label: "原因", type: "text", max: 200 },
    { name: "occurredAt", label: "时间", type: "datetime", required: true, filter: "range", sortable: true },
  ],
});

/** The 积分调整 form: whole points, up or down, and a reason; the same schema checks in the browser and the action. */
export const POINTS_ADJUST_LIMIT = 1_000_000;
export const pointsAdjustFormSchema = z.object({
  userInfoId: z.string({ error: "请选择人员" }).regex(/^\d{1,16}$/, "请选择人员").transform(Number),
  points: z
    .string({ error: "请输入调整积分" })
    .trim()
    .regex(/^[+-]?\d{1,7}$/, "调整积分应为整数，增加填正数，扣减填负数，如 100 或 -50")
    .transform(Number)
    .refine((n) => n !== 0, "调整积分不能为 0")
    .refine((n) => Math.abs(n) <= POINTS_ADJUST_LIMIT, `调整积分不能超过 ${POINTS_ADJUST_LIMIT}`),
  reason: z.string({ error: "请输入调整原因" }).trim().min(1, "请输入调整原因").max(200, "调整原因不能超过 200 个字符"),
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,100}$/, "请刷新页面后重试"),
});
