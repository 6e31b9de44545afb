import { integralStrategy, merchantDivide, onlinePayRule, payLimitConfig } from "../../../resources/zhct/settings";
import { resourceKey } from "../../../resources/define";
import type { Db } from "../../db";
import { runPrepared } from "../../db/prepared";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";

export const settingsMessages = {
  noAccount: "至少允许一种账户支付",
  creditWithout: "不允许透支时透支额度应为 0",
  minOverMax: "单笔最低充值不能高于单笔最高充值",
  maxOverDaily: "单笔最高充值不能高于每日充值上限",
  shareOver: (current: number, next: number) => `该餐厅各商户分成合计将为 ${next}%，不能超过 100%（当前合计 ${current}%）`,
  sharesIncomplete: (sum: number) => `该餐厅各商户分成合计为 ${sum}%，应为 100%`,
  oneStrategy: (name: string) => `已有有效的积分策略「${name}」，同一时间只能有一个有效的策略`,
} as const;

/** A pay limit as payments read it: null means no limit. */
export interface PayLimit {
  /** The rule that applies, or null for the default (no rule configured). */
  ruleId: number | null;
  maxMealsPerDay: number | null;
  /** Fen. */
  maxAmountPerMeal: number | null;
  accounts: Array<"cash" | "subsidy">;
  allowCredit: boolean;
  /** Fen: how far below zero a balance may go when credit is allowed. */
  creditLimit: number;
  /** The meal type of the rule that applies (`all` for the whole day's rule), null for the default: payments count a day's meals by it. */
  ruleMealType: string | null;
}

export const DEFAULT_PAY_LIMIT: PayLimit = { ruleId: null, maxMealsPerDay: null, maxAmountPerMeal: null, accounts: ["cash", "subsidy"], allowCredit: false, creditLimit: 0, ruleMealType: null };

/**
 * The pay limit of a staff type at a meal type: its valid rule for that meal type, else its rule for the whole day
 * (餐别 全天), else the default (no limits, cash and subsidy, no credit). Payments (next issue) call this.
 */
export async function payLimitFor(db: Db, tenantId: number, { staffType, mealType }: { staffType: string | null; mealType: string }): Promise<PayLimit> {
  if (!staffType) return DEFAULT_PAY_LIMIT;
  // Compiled once per shape (a meal type's rule or only the whole day's): every payment asks it.
  const mealTypes = mealType === "all" ? ["all"] : [mealType, "all"];
  const rules = await runPrepared(db, `pay limit rules ${mealTypes.length}`, [tenantId, staffType, ...mealTypes], ([tenant, staff, ...types]) =>
    db
      .selectFrom("pay_limit_config")
      .selectAll()
      .where("tenant_id", "=", tenant as number)
      .where("staff_type", "=", staff as string)
      .where("meal_type", "in", types as string[])
      .where("status", "=", 1),
  );
  const rule = rules.find((r) => r.meal_type === mealType) ?? rules.find((r) => r.meal_type === "all");
  if (!rule) return DEFAULT_PAY_LIMIT;
  const accounts: PayLimit["accounts"] = [];
  if (Number(rule.cash_allowed) === 1) accounts.push("cash");
  if (Number(rule.subsidy_allowed) === 1) accounts.push("subsidy");
  const allowCredit = Number(rule.allow_credit) === 1;
  return {
    ruleId: rule.id,
    maxMealsPerDay: rule.max_meals_per_day ?? null,
    maxAmountPerMeal: rule.max_amount_per_meal ?? null,
    accounts,
    allowCredit,
    creditLimit: allowCredit ? Number(rule.credit_limit) : 0,
    ruleMealType: String(rule.meal_type),
  };
}

function checkPayLimit(record: Row) {
  if (String(record.cashAllowed) !== "1" && String(record.subsidyAllowed) !== "1") throw fieldError("cashAllowed", settingsMessages.noAccount);
  if (String(record.allowCredit) !== "1" && Number(record.creditLimit ?? 0) > 0) throw fieldError("creditLimit", settingsMessages.creditWithout);
}

export const payLimitConfigService: ResourceService = {
  beforeCreate: (_ctx, values) => checkPayLimit(values),
  beforeUpdate: (_ctx, values, current) => checkPayLimit(nextRecord(payLimitConfig, values, current)),
};

function checkOnlinePay(record: Row) {
  const min = Number(record.minAmount);
  const max = Number(record.maxAmount);
  if (min > max) throw fieldError("minAmount", settingsMessages.minOverMax);
  if (max > Number(record.dailyLimit)) throw fieldError("maxAmount", settingsMessages.maxOverDaily);
}

export const onlinePayRuleService: ResourceService = {
  beforeCreate: (_ctx, values) => checkOnlinePay(values),
  beforeUpdate: (_ctx, values, current) => checkOnlinePay(nextRecord(onlinePayRule, values, current)),
};

/** The shares of a restaurant's other rows (all but `exceptId`). */
async function otherShares(ctx: SessionContext, restaurantId: number, exceptId?: number): Promise<number> {
  let query = ctx.services.db
    .selectFrom("merchant_divide")
    .select((eb) => eb.fn.sum<number>("share_percent").as("total"))
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("restaurant_id", "=", restaurantId);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Number((await query.executeTakeFirst())?.total ?? 0);
}

/**
 * A restaurant's shares never pass 100 %: a save that would is refused with the sum it would make and the current
 * one. (Rows are saved one at a time, so a restaurant is below 100 % while its shares are entered; settlement asks
 * `merchantSharesFor`, which refuses until they make exactly 100 %.)
 */
async function checkShares(ctx: SessionContext, record: Row, current?: Row) {
  const restaurantId = Number(record.restaurantId);
  const others = await otherShares(ctx, restaurantId, current?.id as number | undefined);
  const currentSum = others + (current && Number(current.restaurant_id) === restaurantId ? Number(current.share_percent) : 0);
  const next = others + Number(record.sharePercent);
  if (next > 100) throw fieldError("sharePercent", settingsMessages.shareOver(currentSum, next));
}

export const merchantDivideService: ResourceService = {
  beforeCreate: (ctx, values) => checkShares(ctx, values),
  beforeUpdate: (ctx, values, current) => checkShares(ctx, nextRecord(merchantDivide, values, current), current),
};

/** Each merchant's share of a restaurant, for settlement: refused (409) unless they make exactly 100 %. */
export async function merchantSharesFor(db: Db, tenantId: number, restaurantId: number): Promise<Array<{ merchantId: number; stallId: number | null; sharePercent: number }>> {
  const rows = await db
    .selectFrom("merchant_divide")
    .select(["merchant_id", "stall_id", "share_percent"])
    .where("tenant_id", "=", tenantId)
    .where("restaurant_id", "=", restaurantId)
    .orderBy("id")
    .execute();
  const sum = rows.reduce((total, r) => total + Number(r.share_percent), 0);
  if (sum !== 100) throw new ApiError(Status.CONFLICT, settingsMessages.sharesIncomplete(sum));
  return rows.map((r) => ({ merchantId: r.merchant_id, stallId: r.stall_id ?? null, sharePercent: Number(r.share_percent) }));
}

async function checkOneStrategy(ctx: SessionContext, record: Row, exceptId?: number) {
  if (String(record.status ?? "1") !== "1") return;
  let query = ctx.services.db
    .selectFrom("integral_strategy")
    .select("strategy_name")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("status", "=", 1);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const other = await query.executeTakeFirst();
  if (other) throw fieldError("status", settingsMessages.oneStrategy(other.strategy_name));
}

export const integralStrategyService: ResourceService = {
  beforeCreate: (ctx, values) => checkOneStrategy(ctx, values),
  beforeUpdate: (ctx, values, current) => checkOneStrategy(ctx, nextRecord(integralStrategy, values, current), current.id as number),
};

export const settingsServices: Record<string, ResourceService> = {
  [resourceKey(payLimitConfig)]: payLimitConfigService,
  [resourceKey(onlinePayRule)]: onlinePayRuleService,
  [resourceKey(merchantDivide)]: merchantDivideService,
  [resourceKey(integralStrategy)]: integralStrategyService,
};

// ---- Receipts ---------------------------------------------------------------------------------------------------

/**
 * A user of the tenant by name, as a receipt names people (its title: server/modules/sys/receiptTitle.ts): 真实姓名,
 * else the login; null for no user (a device, the system).
 */
export async function staffName(db: Db, tenantId: number, userId: number | null | undefined): Promise<string | null> {
  if (userId === null || userId === undefined) return null;
  const user = await db.selectFrom("user").select(["user_name", "real_name"]).where("tenant_id", "=", tenantId).where("id", "=", userId).executeTakeFirst();
  return user ? user.real_name?.trim() || user.user_name : null;
}
