import { permissionCode, type FieldDef } from "../../../resources/define";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { documentTitle } from "../../../resources/operations";
import { findResource } from "../../../resources/index";
import { mealOrder } from "../../../resources/zhct/orders";
import { ID_EPOCH, newId } from "../../db";
import { insertRow, preparedQuery } from "../../db/prepared";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { reasonField, requireReason } from "../../http/reason";
import { isAdmin } from "../auth/session";
import { permissionCodesOf } from "../auth/shellCache";
import { recordOperation } from "../resource/operationLog";
import { checkPayFlag, yuan } from "./accounts";
import { idempotent } from "../../kernel/idempotency";
import { BusiType, deduct, ledgerMessages, ledgerSettings, lockDiner, post, type AccountType, type LedgerLine, type Trx } from "./ledger";
import { countOrderMonth } from "./dinerMonths";
import { countOrderDay, countSwipeDay, SWIPE_SOURCES } from "./orderDays";
import { countFoodSales } from "./foodSales";
import { findByDate } from "./menus";
import { dayOf, dayStart } from "./months";
import { payLimitFor } from "./settings";
import { chinaClock } from "../../../resources/chinaTime";

/**
 * The payment service (issue 13, decision 021): one `pay` for every channel — the cashier API, devices, the back
 * office's 新增订单 page. Everything a payment checks and writes happens in one ledger transaction, so a refusal
 * leaves nothing behind: no order, no ledger line, no sold count. Other modules (meal tickets, payment types, points)
 * take part through the payment hooks their manifests list (decision 062), also inside that transaction.
 *
 * The exported names and signatures are relied on by the cashier, tickets and points branches: add, do not rename.
 */

export const paymentMessages = {
  cardMissing: "卡号不存在",
  cardLost: "卡已挂失",
  cardInvalid: "卡已注销/无效",
  cardOtherDiner: "卡号与人员不符",
  dinerMissing: ledgerMessages.dinerMissing,
  dinerDisabled: "人员已禁用，不能消费",
  dinerFrozen: "人员已冻结，不能消费",
  whoPays: "请刷卡或选择人员",
  whatToPay: "请选择菜品或输入金额",
  amountAndItems: "按金额收款时不要同时选择菜品",
  itemsNeedMealTime: "按菜品收款时请选择餐次",
  mealTimeMissing: "所选餐次不存在",
  outsideMealTime: "不在就餐时间",
  restaurantNotAllowed: "该人员不能在此餐厅就餐",
  restaurantMissing: "所选餐厅不存在",
  restaurantOtherMealTime: "所选餐厅与餐次所属餐厅不一致",
  stallMissing: "所选档口不存在或不属于该餐厅",
  /** `day`: an order for a later day (a default order made the day before) names it; else 今日. */
  notOnMenu: (food: number | string, day?: string) => `菜品（${food}）不在本餐次${day ? ` ${day} 当天` : "今日"}已发布的菜单中`,
  countLimit: (day?: string) => `${day ? `${day} 当天` : "今日"}已达就餐次数上限`,
  mealAmountLimit: "超出本餐次限额",
  dayAmountLimit: (day?: string) => `超出${day ? ` ${day} 当天` : "今日"}消费限额`,
  noAccount: "该人员类别不允许使用任何账户支付",
  soldOut: "该菜品已售罄",
  insufficient: (totalFen: number) => `余额不足（余额 ${yuan(totalFen)} 元）`,
  methodDisabled: "该支付方式未启用",
  autoFlag: "自动扣款不能用于收银",
  orderMissing: "订单不存在",
  orderType: "订单类型不是可选的值",
  orderDate: "就餐日期不能早于今天",
  cancelled: "该订单已取消",
  lateCancel: "取消截止时间已过，需要主管填写原因后取消",
  overRefund: (refundableFen: number) => `退款金额超过订单可退金额（可退 ${yuan(refundableFen)} 元）`,
  refundAmount: "退款金额应为大于 0 的整数（分）",
};

/** Dictionary mealOrderStatus (resources/dicts.ts). */
export const OrderStatus = { PAID: 1, CANCELLED: 2, PART_REFUNDED: 3, REFUNDED: 4 } as const;
/** `default`: made by the default-order generation (server/modules/zhct/defaultOrders.ts). */
export type OrderSource = "cashier" | "device" | "app" | "admin" | "default";
/** userAccountFlag values paid with a meal ticket (加班, 接待, 外卖, 值班): only a `payOther` hook can pay them. */
export const TICKET_PAY_FLAGS: readonly number[] = [3, 4, 5, 7];
/** The ledger lines of an order name it with this document type (and the order's id). */
export const ORDER_DOC_TYPE = "mealOrder";

const CardStatus = { INVALID: 0, NORMAL: 1, LOST: 2 } as const;
const ORDER_TYPES = ["1", "2", "3"];

// ---- Hooks ----------------------------------------------------------------------------------------------------

/** One line of a payment, priced on the server from today's published menu. */
export interface PaymentItem {
  foodId: number;
  foodName: string;
  /** Fen, the menu item's price at the moment of sale. */
  price: number;
  quantity: number;
  /** price × quantity, fen. */
  subtotal: number;
  /** The menu item sold from (its sold count goes up by `quantity`). */
  foodMenuItemId: number;
  stallId: number | null;
}

/**
 * What a payment is about, given to every hook. Everything here has been checked (diner, card, meal time, prices,
 * pay limit) before `beforePay` runs; the order row does not exist yet (`orderId` and `orderNo` are what it will get).
 */
export interface PaymentFacts {
  tenantId: number;
  /** The order's id and number, fixed before any hook runs (a ticket's use can name the order). */
  orderId: number;
  orderNo: string;
  userInfoId: number;
  diner: { id: number; userName: string; staffType: string | null; deptId: number | null };
  /** The card swiped, when the payment came with a card number. */
  card: { id: number; cardNo: string } | null;
  /** userAccountFlag: 0 IC卡, 1 刷脸, 2 扫码, 3/4/5/7 meal tickets, 100/101 apps. */
  payFlag: number;
  /** Fen, the order's total. */
  amount: number;
  /** Empty for an amount-only sale. */
  items: PaymentItem[];
  /** Null for an amount-only sale (a snack bar, a shop). */
  mealTime: { id: number; name: string; mealType: string; restaurantId: number } | null;
  /** Where it was sold (`placeOf`): the meal time's restaurant, else the one the channel or its device names; null if none does. */
  restaurantId: number | null;
  stallId: number | null;
  /** China day the order is for, `2026-05-31`: the day of the sale, or a later day ordered ahead (`PayInput.orderDate`). */
  date: string;
  /** Dictionary orderType: 1 默认, 2 订餐, 3 外卖. */
  orderType: number;
  /** The pick-up or delivery point and slot a takeaway order names (checked and counted by a `beforePay` hook). */
  delivery: { pointId: number | null; timeId: number | null };
  /** Epoch ms of the sale. */
  now: number;
  source: OrderSource;
  deviceCode: string | null;
  operator: { id: number; name: string };
  idempotencyKey: string | null;
  /** The accounts the diner's pay limit allows, in the order they are spent. */
  accounts: AccountType[];
}

/** The order as written, given to `afterPay` and `afterCancel`. */
export interface PaidOrder {
  id: number;
  orderNo: string;
  tenantId: number;
  userInfoId: number;
  amount: number;
  paidAmount: number;
  refundedAmount: number;
  payFlag: number;
  orderStatus: number;
  orderDate: string;
  mealTimesId: number | null;
  restaurantId: number | null;
  source: OrderSource;
  /** What paid it: the ledger's lines, or another module's document (a ticket). */
  paidBy: { kind: "ledger"; lineIds: number[] } | { kind: "other"; docType: string; docId: number };
  items: PaymentItem[];
}

export interface OtherPayment {
  paid: true;
  /** The paying document (a ticket use), kept in the operation log and given back to `afterCancel` via the order. */
  docType: string;
  docId: number;
}

export interface PaymentHooks {
  /** Refuse a payment by throwing an ApiError (e.g. a disabled payment method: 409 该支付方式未启用). */
  beforePay?(trx: Trx, facts: PaymentFacts): Promise<void>;
  /**
   * Pay without the ledger (a meal ticket for payFlag 3, 4, 5, 7). Return null when this hook does not pay this
   * payment; the first hook that pays wins. A ticket flag that no hook paid is refused with 该支付方式未启用.
   */
  payOther?(trx: Trx, facts: PaymentFacts): Promise<OtherPayment | null>;
  /** After the order and its items are written (points earned, a receipt queued). */
  afterPay?(trx: Trx, order: PaidOrder): Promise<void>;
  /** After a cancel's refund (`refundFen` through the ledger; 0 for an order paid otherwise, e.g. a ticket to give back). */
  afterCancel?(trx: Trx, order: PaidOrder, refundFen: number): Promise<void>;
  /** After part of an order is refunded through the ledger (a complaint upheld); the order is not cancelled. */
  afterRefund?(trx: Trx, order: RefundedOrder, refundFen: number): Promise<void>;
}

/** The order a part refund was made on, as `afterRefund` sees it. */
export interface RefundedOrder {
  tenantId: number;
  id: number;
  orderNo: string;
  userInfoId: number;
  /** All refunds of the order so far, this one included (fen). */
  refundedAmount: number;
}

let hooks: readonly PaymentHooks[] = [];

/**
 * The modules' parts in payments, in the order the manifests write them (server/modules/index.ts): set by whoever
 * composes the API from the module list, never by importing a module.
 */
export function usePaymentHooks(ordered: readonly PaymentHooks[]): void {
  hooks = ordered;
}

// ---- Input ----------------------------------------------------------------------------------------------------

const CANCEL_REASON = "取消原因";
const field = (name: string, label: string, type: FieldDef["type"], extra: Partial<FieldDef> = {}) => fieldSchema({ name, label, type, ...extra }, false);

export const MAX_ITEMS = 50;

/** The cashier API's body, exactly as issue 13 gives it; hostile values get the declared fields' 400s. */
export const payBody = z.strictObject({
  cardNo: field("cardNo", "卡号", "text", { max: 32 }),
  userInfoId: field("userInfoId", "人员", "relation", { min: 1 }),
  amount: field("amount", "金额", "money", { min: 1, max: 1_000_000 }),
  items: z
    .array(
      z.strictObject({
        foodId: field("foodId", "菜品", "relation", { required: true, min: 1 }),
        quantity: field("quantity", "数量", "number", { required: true, min: 1, max: 1000 }),
      }),
      { error: "菜品应为 [{ foodId, quantity }] 列表" },
    )
    .max(MAX_ITEMS, `一次最多 ${MAX_ITEMS} 种菜品`)
    .nullish(),
  mealTimesId: field("mealTimesId", "餐次", "relation", { min: 1 }),
  restaurantId: field("restaurantId", "餐厅", "relation", { min: 1 }),
  stallId: field("stallId", "档口", "relation", { min: 1 }),
  payFlag: field("payFlag", "支付方式", "enum", { dict: "userAccountFlag" }),
  deviceCode: field("deviceCode", "设备编号", "text", { max: 64 }),
  orderType: field("orderType", "订单类型", "enum", { dict: "orderType" }),
  deliveryPointId: field("deliveryPointId", "配送点", "relation", { min: 1 }),
  deliveryTimeId: field("deliveryTimeId", "配送时段", "relation", { min: 1 }),
});
export type PayBody = z.output<typeof payBody>;

/** What `pay` takes: the API's body plus what a channel says about itself. */
export interface PayInput {
  cardNo?: string | null;
  userInfoId?: number | null;
  amount?: number | null;
  items?: Array<{ foodId: number; quantity: number }> | null;
  mealTimesId?: number | null;
  /**
   * Where it was sold, for a sale without a meal time (an amount at the counter, a booking's price): the counter's
   * restaurant. A meal time names its own restaurant, and a device its own (its 所属餐厅 or 档口).
   */
  restaurantId?: number | null;
  stallId?: number | null;
  payFlag?: number | string | null;
  deviceCode?: string | null;
  /** Default cashier. */
  source?: OrderSource;
  /** Dictionary orderType, default 1 (默认). */
  orderType?: string | null;
  /** A takeaway order's point and slot (orderType 3). */
  deliveryPointId?: number | null;
  deliveryTimeId?: number | null;
  /**
   * A later day than today (China time) that the order is for: default orders are made the day before. The meal time
   * need not be open now; that day's menu prices the dishes and that day's orders count against the pay limit.
   */
  orderDate?: string | null;
}

export interface PayResult {
  orderId: number;
  orderNo: string;
  /** Fen. */
  amount: number;
  /** Fen: the diner's accounts together, after the payment. */
  balance: number;
}

// ---- Pay ------------------------------------------------------------------------------------------------------


/** Whether `clock` lies in [begin, end); a meal time past midnight (22:00–02:00) wraps. */
function isOpen(begin: string, end: string, clock: string) {
  return begin <= end ? clock >= begin && clock < end : clock >= begin || clock < end;
}

/**
 * Order numbers: the China day and the order id's place within that day (ids are ms since ID_EPOCH × 4096 + instance
 * and sequence, server/db/index.ts), 20 digits. Unique because the id is, with no counter row for cashiers to queue on.
 */
function orderNoOf(id: number): string {
  const day = dayOf(Math.floor(id / 4096) + ID_EPOCH);
  return `${day.replaceAll("-", "")}${String(id - (dayStart(day) - ID_EPOCH) * 4096).padStart(12, "0")}`;
}

// The statements every payment runs, compiled once each (see runPrepared).
const balanceTotal = preparedQuery("pay total balance", (trx: Trx, tenantId: number, userInfoId: number) =>
  trx.selectFrom("user_account").select((eb) => eb.fn.coalesce(eb.fn.sum<number>("balance"), eb.lit(0)).as("total")).where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId),
);
const cardByNo = preparedQuery("pay card by no", (trx: Trx, tenantId: number, cardNo: string) =>
  trx.selectFrom("user_ic_card").select(["id", "card_no", "user_info_id", "card_status"]).where("tenant_id", "=", tenantId).where("card_no", "=", cardNo),
);
const payingDiner = preparedQuery("pay diner", (trx: Trx, tenantId: number, userInfoId: number) =>
  trx.selectFrom("user_info").select(["id", "user_name", "staff_type", "dept_id", "user_status", "restaurant_ids"]).where("tenant_id", "=", tenantId).where("id", "=", userInfoId),
);
const payingMealTime = preparedQuery("pay meal time", (trx: Trx, tenantId: number, mealTimesId: number) =>
  trx.selectFrom("meal_times").select(["id", "meal_time_name", "meal_type", "restaurant_id", "begin_time", "end_time", "status"]).where("tenant_id", "=", tenantId).where("id", "=", mealTimesId),
);

const placeOrg = preparedQuery("pay place org", (trx: Trx, tenantId: number, orgId: number) =>
  trx.selectFrom("org").select(["id", "parent_id", "org_type"]).where("tenant_id", "=", tenantId).where("id", "=", orgId),
);
const deviceOrg = preparedQuery("pay device org", (trx: Trx, tenantId: number, deviceCode: string) =>
  trx
    .selectFrom("device")
    .innerJoin("org", (j) => j.onRef("org.tenant_id", "=", "device.tenant_id").onRef("org.id", "=", "device.org_id"))
    .select(["org.id", "org.parent_id", "org.org_type"])
    .where("device.tenant_id", "=", tenantId)
    .where("device.device_code", "=", deviceCode),
);

/**
 * Where a sale happened (issue 38): the meal time's restaurant; else the restaurant (or stall) the channel names (the
 * counter's, a booking plan's); else the device's 所属餐厅 — a device placed at a stall sells for the stall's
 * restaurant. The stall: the dishes' own when they share one, else the one named, else the device's. The reports by
 * restaurant and stall read these, so a sale without a meal time must not lose them. A place the tenant does not have
 * is refused naming the field; an unknown device code names no place (charge machines send free codes).
 */
async function placeOf(trx: Trx, tenantId: number, input: PayInput, mealTime: PaymentFacts["mealTime"], items: PaymentItem[]): Promise<{ restaurantId: number | null; stallId: number | null }> {
  let named: number | null = null;
  if (input.restaurantId) {
    const [org] = await placeOrg(trx, tenantId, input.restaurantId);
    if (!org || org.org_type !== "restaurant") throw fieldError("restaurantId", paymentMessages.restaurantMissing);
    if (mealTime && mealTime.restaurantId !== org.id) throw fieldError("restaurantId", paymentMessages.restaurantOtherMealTime);
    named = org.id;
  }
  let namedStall: { id: number; restaurantId: number | null } | null = null;
  if (input.stallId) {
    const [org] = await placeOrg(trx, tenantId, input.stallId);
    const within = mealTime?.restaurantId ?? named;
    if (!org || org.org_type !== "stall" || (within !== null && org.parent_id !== within)) throw fieldError("stallId", paymentMessages.stallMissing);
    namedStall = { id: org.id, restaurantId: org.parent_id };
  }
  let device: { restaurantId: number | null; stallId: number | null } = { restaurantId: null, stallId: null };
  if (input.deviceCode) {
    const [org] = await deviceOrg(trx, tenantId, input.deviceCode);
    if (org?.org_type === "restaurant") device = { restaurantId: org.id, stallId: null };
    else if (org?.org_type === "stall") device = { restaurantId: org.parent_id, stallId: org.id };
  }
  const restaurantId = mealTime?.restaurantId ?? named ?? namedStall?.restaurantId ?? device.restaurantId;
  const dishesStall = items.length && items.every((i) => i.stallId === items[0].stallId) ? items[0].stallId : null;
  const stallId = dishesStall ?? namedStall?.id ?? (device.restaurantId === restaurantId ? device.stallId : null);
  return { restaurantId, stallId };
}

/** The diner's meals of the day (a pay limit's most meals per day): every meal type's, or one meal type's. */
const mealsOfDayQuery = (trx: Trx, tenantId: number, userInfoId: number, date: string) =>
  trx
    .selectFrom("meal_order")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("tenant_id", "=", tenantId)
    .where("user_info_id", "=", userInfoId)
    .where("order_date", "=", date)
    .where("order_status", "!=", OrderStatus.CANCELLED)
    .where("meal_times_id", "is not", null);
const mealsOfDay = preparedQuery("pay meals of day", mealsOfDayQuery);
const mealsOfDayOfType = preparedQuery("pay meals of day of type", (trx: Trx, tenantId: number, userInfoId: number, date: string, mealType: string) =>
  mealsOfDayQuery(trx, tenantId, userInfoId, date).where("meal_type", "=", mealType),
);
/** What the diner spent that day on one meal time, or on amount-only sales (a pay limit's most yuan per meal). */
const spentQuery = (trx: Trx, tenantId: number, userInfoId: number, date: string) =>
  trx
    .selectFrom("meal_order")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb("amount", "-", eb.ref("refunded_amount"))), eb.lit(0)).as("spent"))
    .where("tenant_id", "=", tenantId)
    .where("user_info_id", "=", userInfoId)
    .where("order_date", "=", date)
    .where("order_status", "!=", OrderStatus.CANCELLED);
const spentOnMeal = preparedQuery("pay spent on meal", (trx: Trx, tenantId: number, userInfoId: number, date: string, mealTimesId: number) =>
  spentQuery(trx, tenantId, userInfoId, date).where("meal_times_id", "=", mealTimesId),
);
const spentWithoutMeal = preparedQuery("pay spent without meal", (trx: Trx, tenantId: number, userInfoId: number, date: string) => spentQuery(trx, tenantId, userInfoId, date).where("meal_times_id", "is", null));
/** A dish's sold count goes up only while it stays within its quota (none: no quota); a row back means it did. */
const sellWithinQuota = preparedQuery("pay sell within quota", (trx: Trx, quantity: number, tenantId: number, foodMenuItemId: number) =>
  trx
    .updateTable("food_menu_item")
    .set((eb) => ({ sold_count: eb("sold_count", "+", quantity) }))
    .where("tenant_id", "=", tenantId)
    .where("id", "=", foodMenuItemId)
    .where((eb) => eb.or([eb("quota", "is", null), eb(eb("sold_count", "+", quantity), "<=", eb.ref("quota"))]))
    .returning("id"),
);

async function totalBalance(trx: Trx, tenantId: number, userInfoId: number): Promise<number> {
  const [row] = await balanceTotal(trx, tenantId, userInfoId);
  return Number(row.total);
}

/** Checks the input's shape beyond single fields: who pays, and for what. */
function checkShape(input: PayInput) {
  const hasItems = Boolean(input.items && input.items.length);
  if (!input.cardNo && !input.userInfoId) throw fieldError("cardNo", paymentMessages.whoPays);
  if (hasItems && input.amount) throw fieldError("amount", paymentMessages.amountAndItems);
  if (hasItems && !input.mealTimesId) throw fieldError("mealTimesId", paymentMessages.itemsNeedMealTime);
  if (!hasItems && !input.amount) throw fieldError("items", paymentMessages.whatToPay);
}

/**
 * Charges a diner: checks, in one ledger transaction, the card and diner, the meal time, the prices from today's
 * published menu, the pay limit, the quotas (a conditional UPDATE of each sold count, so two cashiers cannot
 * oversell), then deducts through the ledger (or a hook pays), writes the order and its items. With an
 * Idempotency-Key the same request pays once. Refusals: 409 (card, limits, money), 400 (input).
 */
export async function pay(ctx: SessionContext, input: PayInput): Promise<PayResult> {
  checkShape(input);
  const payFlag = Number(input.payFlag ?? 0);
  // 自动扣款 is what a default order is; no counter may use it.
  if (payFlag === 500 && input.source !== "default") throw fieldError("payFlag", paymentMessages.autoFlag);
  if (input.orderType != null && !ORDER_TYPES.includes(String(input.orderType))) throw fieldError("orderType", paymentMessages.orderType);
  if (input.orderDate != null && input.orderDate < dayOf(ctx.now)) throw fieldError("orderDate", paymentMessages.orderDate);
  return idempotent(ctx, input, async (trx, key) => {
    // Read in the movement's transaction, as a top-up's are (decision 049).
    await checkPayFlag(ctx, String(payFlag), trx);
    const settings = await ledgerSettings(trx, ctx.session.tenantId);
    return payIn(trx, ctx, input, payFlag, settings.subsidyFirst, key);
  });
}

async function payIn(trx: Trx, ctx: SessionContext, input: PayInput, payFlag: number, subsidyFirst: boolean, key: string | null): Promise<PayResult> {
  const tenantId = ctx.session.tenantId;
  const now = ctx.now;
  const date = input.orderDate ?? dayOf(now);
  const ahead = date > dayOf(now);
  const laterDay = ahead ? date : undefined;

  // The card and the diner.
  let card: PaymentFacts["card"] = null;
  let userInfoId = input.userInfoId ?? null;
  if (input.cardNo) {
    const [row] = await cardByNo(trx, tenantId, input.cardNo);
    if (!row) throw new ApiError(Status.CONFLICT, paymentMessages.cardMissing);
    if (Number(row.card_status) === CardStatus.LOST) throw new ApiError(Status.CONFLICT, paymentMessages.cardLost);
    if (Number(row.card_status) !== CardStatus.NORMAL) throw new ApiError(Status.CONFLICT, paymentMessages.cardInvalid);
    if (userInfoId !== null && userInfoId !== row.user_info_id) throw new ApiError(Status.CONFLICT, paymentMessages.cardOtherDiner);
    userInfoId = row.user_info_id;
    card = { id: row.id, cardNo: row.card_no };
  }
  // PostgreSQL: one money transaction of a diner at a time, so two payments at once cannot both pass the
  // meals-per-day or amount-per-meal check they read. SQLite's BEGIN IMMEDIATE already runs one payment at a time.
  await lockDiner(trx, tenantId, userInfoId as number);
  const [diner] = await payingDiner(trx, tenantId, userInfoId as number);
  if (!diner) throw fieldError("userInfoId", paymentMessages.dinerMissing);
  if (Number(diner.user_status) === 2) throw new ApiError(Status.CONFLICT, paymentMessages.dinerDisabled);
  if (Number(diner.user_status) === 3) throw new ApiError(Status.CONFLICT, paymentMessages.dinerFrozen);

  // The meal time, open now, at a restaurant the diner may eat in.
  let mealTime: PaymentFacts["mealTime"] = null;
  if (input.mealTimesId) {
    const [row] = await payingMealTime(trx, tenantId, input.mealTimesId);
    if (!row) throw fieldError("mealTimesId", paymentMessages.mealTimeMissing);
    if (Number(row.status) !== 1 || (!ahead && !isOpen(row.begin_time, row.end_time, chinaClock(now)))) throw new ApiError(Status.CONFLICT, paymentMessages.outsideMealTime);
    mealTime = { id: row.id, name: row.meal_time_name, mealType: String(row.meal_type), restaurantId: row.restaurant_id };
    const allowed = diner.restaurant_ids ? diner.restaurant_ids.split(",").map(Number) : null;
    if (allowed && !allowed.includes(row.restaurant_id)) throw new ApiError(Status.CONFLICT, paymentMessages.restaurantNotAllowed);
  }

  // Prices from today's published menus of the meal time, never from the client.
  const items = mealTime && input.items?.length ? await priceItems(trx, tenantId, date, laterDay, mealTime, input.items) : [];
  const amount = items.length ? items.reduce((sum, i) => sum + i.subtotal, 0) : (input.amount as number);
  if (!Number.isSafeInteger(amount) || amount <= 0) throw fieldError("amount", paymentMessages.whatToPay);

  // The pay limit of the diner's staff type at this meal type (the whole day's rule for an amount-only sale).
  const limit = await payLimitFor(trx, tenantId, { staffType: diner.staff_type ?? null, mealType: mealTime?.mealType ?? "all" });
  if (!limit.accounts.length) throw new ApiError(Status.CONFLICT, paymentMessages.noAccount);
  if (mealTime && limit.maxMealsPerDay !== null) {
    // A rule of this meal type counts this meal type's orders; the whole day's rule counts every meal of the day.
    const [{ n }] = limit.ruleMealType === "all" ? await mealsOfDay(trx, tenantId, diner.id, date) : await mealsOfDayOfType(trx, tenantId, diner.id, date, mealTime.mealType);
    if (Number(n) >= limit.maxMealsPerDay) throw new ApiError(Status.CONFLICT, paymentMessages.countLimit(laterDay));
  }
  if (limit.maxAmountPerMeal !== null) {
    // This meal's orders (or the day's amount-only sales), less what was refunded.
    const [{ spent: before }] = mealTime ? await spentOnMeal(trx, tenantId, diner.id, date, mealTime.id) : await spentWithoutMeal(trx, tenantId, diner.id, date);
    if (Number(before) + amount > limit.maxAmountPerMeal) throw new ApiError(Status.CONFLICT, mealTime ? paymentMessages.mealAmountLimit : paymentMessages.dayAmountLimit(laterDay));
  }
  const accounts = [...limit.accounts].sort((a, b) => (a === b ? 0 : (a === "subsidy") === subsidyFirst ? -1 : 1));
  const place = await placeOf(trx, tenantId, input, mealTime, items);

  const orderId = newId();
  const orderNo = orderNoOf(orderId);
  const source = input.source ?? "cashier";
  const facts: PaymentFacts = {
    tenantId,
    orderId,
    orderNo,
    userInfoId: diner.id,
    diner: { id: diner.id, userName: diner.user_name, staffType: diner.staff_type ?? null, deptId: diner.dept_id ?? null },
    card,
    payFlag,
    amount,
    items,
    mealTime,
    restaurantId: place.restaurantId,
    stallId: place.stallId,
    date,
    orderType: Number(input.orderType ?? 1),
    delivery: { pointId: input.deliveryPointId ?? null, timeId: input.deliveryTimeId ?? null },
    now,
    source,
    deviceCode: input.deviceCode ?? null,
    operator: { id: ctx.session.userId, name: ctx.session.userName },
    idempotencyKey: key,
    accounts,
  };
  for (const h of hooks) await h.beforePay?.(trx, facts);

  // Quotas: each sold count goes up only while it stays within the quota. In the menu's order, so two payments (or a
  // payment and a cancel) of the same dishes lock them in one order on PostgreSQL and wait, never deadlock.
  for (const item of inMenuOrder(items)) {
    const [sold] = await sellWithinQuota(trx, item.quantity, tenantId, item.foodMenuItemId);
    if (!sold) throw new ApiError(Status.CONFLICT, paymentMessages.soldOut);
  }

  // The money: a hook (a ticket), or the ledger.
  let paidBy: PaidOrder["paidBy"] | null = null;
  for (const h of hooks) {
    const other = await h.payOther?.(trx, facts);
    if (other) {
      paidBy = { kind: "other", docType: other.docType, docId: other.docId };
      break;
    }
  }
  if (!paidBy && TICKET_PAY_FLAGS.includes(payFlag)) throw new ApiError(Status.CONFLICT, paymentMessages.methodDisabled);
  /** Fen the ledger took from each account (the diner's month counts them). */
  const taken: Record<AccountType, number> = { cash: 0, subsidy: 0 };
  if (!paidBy) {
    let lines: LedgerLine[];
    try {
      lines = await deduct(trx, {
        tenantId,
        userInfoId: diner.id,
        amount,
        accounts,
        creditLimit: limit.allowCredit ? limit.creditLimit : 0,
        busiType: BusiType.CONSUME,
        payFlag,
        operatorId: ctx.session.userId,
        operatorName: ctx.session.userName,
        docType: ORDER_DOC_TYPE,
        docId: orderId,
        idempotencyKey: key,
        occurredAt: now,
      });
    } catch (error) {
      if (error instanceof ApiError && error.message === ledgerMessages.insufficient) {
        // A refused deduction may have taken part of the money inside this (rolled-back) transaction: what the diner
        // has is the total now plus what this order's lines took (read only on refusal, a statement fewer per payment).
        const taken = await trx
          .selectFrom("user_account_ledger")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("taken"))
          .where("tenant_id", "=", tenantId)
          .where("doc_type", "=", ORDER_DOC_TYPE)
          .where("doc_id", "=", orderId)
          .executeTakeFirstOrThrow();
        throw new ApiError(Status.CONFLICT, paymentMessages.insufficient((await totalBalance(trx, tenantId, diner.id)) - Number(taken.taken)));
      }
      throw error;
    }
    for (const line of lines) taken[line.accountType] -= line.amount;
    paidBy = { kind: "ledger", lineIds: lines.map((l) => l.id) };
  }

  const audit = { created_at: now, created_by: ctx.session.userId, updated_at: now, updated_by: ctx.session.userId };
  await insertRow(trx, "meal_order", {
    tenant_id: tenantId,
    id: orderId,
    order_no: orderNo,
    user_info_id: diner.id,
    order_date: date,
    meal_times_id: mealTime?.id ?? null,
    meal_type: mealTime?.mealType ?? null,
    restaurant_id: facts.restaurantId,
    stall_id: facts.stallId,
    order_type: facts.orderType,
    amount,
    paid_amount: amount,
    refunded_amount: 0,
    pay_flag: payFlag,
    pay_result: 1,
    order_appointment_status: null,
    order_source: source,
    order_status: OrderStatus.PAID,
    cashier_id: ctx.session.userId,
    cashier_name: ctx.session.userName,
    device_code: input.deviceCode ?? null,
    card_no: card?.cardNo ?? null,
    paid_at: now,
    cancel_reason: null,
    cancelled_by_name: null,
    cancelled_at: null,
    ...audit,
  });
  if (items.length) {
    for (const i of items) {
      await insertRow(trx, "meal_order_item", { tenant_id: tenantId, id: newId(), meal_order_id: orderId, food_id: i.foodId, food_name: i.foodName, price: i.price, quantity: i.quantity, subtotal: i.subtotal, food_menu_item_id: i.foodMenuItemId, ...audit });
    }
    await countFoodSales(trx, { tenantId, orderDate: date, restaurantId: facts.restaurantId, mealType: mealTime?.mealType ?? null }, items, 1);
  }
  const swiped = SWIPE_SOURCES.includes(source);
  await countOrderMonth(trx, { tenantId, userInfoId: diner.id, orderDate: date, mealType: mealTime?.mealType ?? null, restaurantId: facts.restaurantId, stallId: facts.stallId, placed: 1, orders: 1, paid: amount, ticket: TICKET_PAY_FLAGS.includes(payFlag) ? amount : 0, swipes: swiped ? 1 : 0, ...taken });
  await countOrderDay(trx, { tenantId, orderDate: date, restaurantId: facts.restaurantId, mealType: mealTime?.mealType ?? null, payFlag, placed: 1, paid: amount });
  await countSwipeDay(trx, { tenantId, orderId, userInfoId: diner.id, orderDate: date, restaurantId: facts.restaurantId, mealType: mealTime?.mealType ?? null, source, cardNo: card?.cardNo ?? null, counts: 1, paid: amount });
  const order: PaidOrder = { id: orderId, orderNo, tenantId, userInfoId: diner.id, amount, paidAmount: amount, refundedAmount: 0, payFlag, orderStatus: OrderStatus.PAID, orderDate: date, mealTimesId: mealTime?.id ?? null, restaurantId: facts.restaurantId, source, paidBy, items };
  for (const h of hooks) await h.afterPay?.(trx, order);
  await recordOperation(trx, ctx, mealOrder, orderId, "pay", { orderNo, userInfoId: diner.id, amount, payFlag, source, paidBy, cardNo: card?.cardNo ?? null });
  return { orderId, orderNo, amount, balance: await totalBalance(trx, tenantId, diner.id) };
}

/** Each requested dish at its price on today's published menu of the meal time (same dish twice: quantities add). */
async function priceItems(trx: Trx, tenantId: number, date: string, laterDay: string | undefined, mealTime: NonNullable<PaymentFacts["mealTime"]>, wanted: Array<{ foodId: number; quantity: number }>): Promise<PaymentItem[]> {
  const menus = (await findByDate(trx, tenantId, date, mealTime.restaurantId)).filter((m) =>
    m.mealTimeId !== null && m.mealTimeId !== undefined ? m.mealTimeId === mealTime.id : m.mealType === mealTime.mealType || m.mealType === "all",
  );
  const offered = new Map<number, { menuItemId: number; price: number; name: string; stallId: number | null }>();
  for (const menu of menus) {
    for (const item of menu.items) if (!offered.has(item.foodId)) offered.set(item.foodId, { menuItemId: item.id, price: Number(item.price ?? 0), name: item.foodName, stallId: menu.stallId ?? null });
  }
  const quantities = new Map<number, number>();
  for (const w of wanted) quantities.set(w.foodId, (quantities.get(w.foodId) ?? 0) + w.quantity);
  return [...quantities].map(([foodId, quantity]) => {
    const item = offered.get(foodId);
    if (!item) throw fieldError("items", paymentMessages.notOnMenu(foodId, laterDay));
    return { foodId, foodName: item.name, price: item.price, quantity, subtotal: item.price * quantity, foodMenuItemId: item.menuItemId, stallId: item.stallId };
  });
}

// ---- Cancel and refunds ---------------------------------------------------------------------------------------

type OrderRow = NonNullable<Awaited<ReturnType<typeof orderRow>>>;

/** Where an order is counted among the canteen's days (decision 041 addendum). */
const orderDayOf = (order: OrderRow) => ({
  tenantId: Number(order.tenant_id),
  orderDate: order.order_date,
  restaurantId: order.restaurant_id === null ? null : Number(order.restaurant_id),
  mealType: order.meal_type === null ? null : String(order.meal_type),
  payFlag: Number(order.pay_flag),
});

const swiped = (order: OrderRow) => SWIPE_SOURCES.includes(String(order.order_source));
const swipeOf = (order: OrderRow) => ({ ...orderDayOf(order), orderId: order.id, userInfoId: order.user_info_id, source: String(order.order_source), cardNo: order.card_no });

function orderRow(db: Trx, tenantId: number, id: number) {
  return db.selectFrom("meal_order").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
}

/**
 * What the order's ledger lines still hold per account: paid (−) plus given back (+), as fen to give back. Another
 * document paid through the ledger (an accompanied meal) names its own `docType`.
 */
export async function refundableByAccount(trx: Trx, tenantId: number, orderId: number, docType = ORDER_DOC_TYPE): Promise<Array<{ accountType: AccountType; fen: number; payFlag: number; lastLine: number }>> {
  const rows = await trx
    .selectFrom("user_account_ledger")
    .select((eb) => ["account_type", eb.fn.sum<number>("amount").as("net"), eb.fn.max("pay_flag").as("pay_flag"), eb.fn.max("id").as("last")])
    .where("tenant_id", "=", tenantId)
    .where("doc_type", "=", docType)
    .where("doc_id", "=", orderId)
    .groupBy("account_type")
    .execute();
  return rows
    .map((r) => ({ accountType: r.account_type as AccountType, fen: -Number(r.net), payFlag: Number(r.pay_flag), lastLine: Number(r.last) }))
    .filter((r) => r.fen > 0);
}

/** An order's dishes that came from a day's menu, by the menu item's id: the order every transaction locks them in. */
function inMenuOrder<T extends { foodMenuItemId: number | null; quantity: number }>(items: readonly T[]): Array<T & { foodMenuItemId: number }> {
  return items.filter((i): i is T & { foodMenuItemId: number } => Boolean(i.foodMenuItemId)).sort((a, b) => a.foodMenuItemId - b.foodMenuItemId);
}

async function itemsOf(trx: Trx, tenantId: number, orderId: number): Promise<PaymentItem[]> {
  const rows = await trx.selectFrom("meal_order_item").selectAll().where("tenant_id", "=", tenantId).where("meal_order_id", "=", orderId).orderBy("id").execute();
  return rows.map((r) => ({ foodId: r.food_id, foodName: r.food_name, price: Number(r.price), quantity: Number(r.quantity), subtotal: Number(r.subtotal), foodMenuItemId: r.food_menu_item_id as number, stallId: null }));
}

function soldOrderOf(row: OrderRow) {
  return { tenantId: row.tenant_id, orderDate: row.order_date, restaurantId: row.restaurant_id, mealType: row.meal_type === null ? null : String(row.meal_type) };
}

function paidOrderOf(row: OrderRow, items: PaymentItem[], lineIds: number[]): PaidOrder {
  return {
    id: row.id,
    orderNo: row.order_no,
    tenantId: row.tenant_id,
    userInfoId: row.user_info_id,
    amount: Number(row.amount),
    paidAmount: Number(row.paid_amount),
    refundedAmount: Number(row.refunded_amount),
    payFlag: Number(row.pay_flag),
    orderStatus: Number(row.order_status),
    orderDate: row.order_date,
    mealTimesId: row.meal_times_id ?? null,
    restaurantId: row.restaurant_id ?? null,
    source: row.order_source as OrderSource,
    paidBy: { kind: "ledger", lineIds },
    items,
  };
}

/** Its reason is required (decision 055), checked by `cancel` after the order's own refusals. */
export const cancelBody = z.strictObject({
  id: recordId("订单", "请选择订单"),
  reason: reasonField(CANCEL_REASON),
});

/** A manager's cancel (after the deadline too): the reason is required. */
export const cancelLateBody = z.strictObject({
  id: recordId("订单", "请选择订单"),
  reason: field("reason", CANCEL_REASON, "text", { max: 200, required: true }),
});

/** Whether the order's meal time's cancel deadline (on the order's day, China time) has passed. */
async function pastDeadline(ctx: SessionContext, order: OrderRow): Promise<boolean> {
  if (order.meal_times_id === null) return false;
  const meal = await ctx.services.db.selectFrom("meal_times").select("cancel_deadline").where("tenant_id", "=", order.tenant_id).where("id", "=", order.meal_times_id).executeTakeFirst();
  if (!meal?.cancel_deadline) return false;
  const [h, m] = meal.cancel_deadline.split(":").map(Number) as [number, number];
  return ctx.now > dayStart(order.order_date) + (h * 60 + m) * 60_000;
}

async function holds(ctx: SessionContext, code: string) {
  return isAdmin(ctx.session) || (await permissionCodesOf(ctx.services.db, ctx.session)).has(code);
}

/**
 * Cancels a paid order: gives back, through the ledger, exactly what each account paid for it and has not had back
 * (busiType 6 消费退回 lines naming the order), returns the sold counts, marks it cancelled. After the meal time's
 * cancel deadline only a holder of `zhct:mealOrder:cancelLate` may, with a reason. A second cancel is 409.
 */
export async function cancel(ctx: SessionContext, input: { id: number; reason?: string | null }, as: { manager?: boolean; reasonRequired?: boolean } = {}) {
  const tenantId = ctx.session.tenantId;
  const order = await orderRow(ctx.services.db, tenantId, input.id);
  if (!order) throw new ApiError(Status.NOT_FOUND, paymentMessages.orderMissing);
  if (Number(order.order_status) === OrderStatus.CANCELLED) throw new ApiError(Status.CONFLICT, paymentMessages.cancelled);
  const reason = input.reason?.trim() || null;
  if (await pastDeadline(ctx, order)) {
    if (!as.manager && !(await holds(ctx, permissionCode(mealOrder, "cancelLate")))) throw new ApiError(Status.CONFLICT, paymentMessages.lateCancel);
    if (!reason) throw fieldError("reason", paymentMessages.lateCancel);
  }
  // A staff member's cancel through the API says why (decision 055); an internal one (a booking's) passes its own.
  if (as.reasonRequired) requireReason(reason, CANCEL_REASON);
  return idempotent(ctx, input, async (trx, key) => {
    // The order as it is now, locked on PostgreSQL (SQLite holds the write lock): a complaint's refund may have come
    // since the read above. Its status says whether the dishes and the meal still count (a full refund took them out
    // already) and its refunded amount what the diner's month gets back; of two cancels racing, the second waits here
    // and then gets the 409. The UPDATE repeats the status as a guard.
    let current = trx.selectFrom("meal_order").select(["order_status", "refunded_amount"]).where("tenant_id", "=", tenantId).where("id", "=", order.id);
    if (ctx.services.dialect === "postgres") current = current.forUpdate();
    const locked = await current.executeTakeFirstOrThrow();
    // Then the diner (decision 042), before any row another diner's sale shares: an order paid by ticket posts no line.
    await lockDiner(trx, tenantId, order.user_info_id);
    const status = Number(locked.order_status);
    const wasCounted = status === OrderStatus.PAID || status === OrderStatus.PART_REFUNDED;
    const cancelled = await trx
      .updateTable("meal_order")
      .set({ order_status: OrderStatus.CANCELLED, refunded_amount: order.paid_amount, cancel_reason: reason, cancelled_by_name: ctx.session.userName, cancelled_at: ctx.now, updated_at: Math.max(ctx.now, order.updated_at + 1), updated_by: ctx.session.userId })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", order.id)
      .where("order_status", "=", status)
      .where("order_status", "!=", OrderStatus.CANCELLED)
      .executeTakeFirst();
    if (Number(cancelled.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, paymentMessages.cancelled);
    // The dishes go back to the menu before the money moves, as a payment takes them before it: a cancel and another
    // diner's payment of the same dish lock the dish, then the canteen's shared days, in one order (PostgreSQL).
    const items = await itemsOf(trx, tenantId, order.id);
    for (const item of inMenuOrder(items)) {
      await trx
        .updateTable("food_menu_item")
        .set((eb) => ({ sold_count: eb("sold_count", "-", item.quantity) }))
        .where("tenant_id", "=", tenantId)
        .where("id", "=", item.foodMenuItemId)
        .where("sold_count", ">=", item.quantity)
        .execute();
    }
    let refundFen = 0;
    const back: Record<AccountType, number> = { cash: 0, subsidy: 0 };
    const lineIds: number[] = [];
    // In the order the accounts paid (subsidy first, usually), so the diner's ledger reads as the payment undone.
    for (const account of (await refundableByAccount(trx, tenantId, order.id)).sort((a, b) => a.lastLine - b.lastLine)) {
      const line = await post(trx, {
        tenantId,
        userInfoId: order.user_info_id,
        accountType: account.accountType,
        amount: account.fen,
        busiType: BusiType.CONSUME_RETURN,
        payFlag: account.payFlag,
        operatorId: ctx.session.userId,
        operatorName: ctx.session.userName,
        docType: ORDER_DOC_TYPE,
        docId: order.id,
        idempotencyKey: key,
        remark: reason ? `取消订单：${reason}` : "取消订单",
        occurredAt: ctx.now,
      });
      refundFen += account.fen;
      back[account.accountType] += account.fen;
      lineIds.push(line.id);
    }
    if (wasCounted) await countFoodSales(trx, soldOrderOf(order), items, -1);
    // After the accounts, as in pay and refundPart: every transaction of a diner locks their rows in one order (the
    // menu's dishes, the accounts, their months and the ledger's day, the day's dishes sold, the diner's day and
    // month, the canteen's day), so two on PostgreSQL wait, never deadlock.
    const refundedNow = Number(order.paid_amount) - Number(locked.refunded_amount);
    const where = orderDayOf(order);
    await countOrderMonth(trx, { tenantId, userInfoId: order.user_info_id, orderDate: order.order_date, mealType: where.mealType, restaurantId: order.restaurant_id, stallId: order.stall_id, orders: wasCounted ? -1 : 0, refunded: refundedNow, cashBack: back.cash, subsidyBack: back.subsidy, swipes: wasCounted && swiped(order) ? -1 : 0 });
    await countOrderDay(trx, { ...where, cancelled: wasCounted ? 1 : 0, refunded: refundedNow });
    await countSwipeDay(trx, { ...swipeOf(order), counts: wasCounted ? -1 : 0, refunded: refundedNow });
    const after = { ...order, order_status: OrderStatus.CANCELLED, refunded_amount: order.paid_amount };
    for (const h of hooks) await h.afterCancel?.(trx, paidOrderOf(after, items, lineIds), refundFen);
    await recordOperation(trx, ctx, mealOrder, order.id, "cancel", { reason, refundFen, orderStatus: [String(order.order_status), String(OrderStatus.CANCELLED)] });
    return { id: order.id, orderStatus: String(OrderStatus.CANCELLED), refundAmount: refundFen, balance: await totalBalance(trx, tenantId, order.user_info_id) };
  });
}

export interface RefundPartInput {
  orderId: number;
  /** Fen, > 0. */
  amount: number;
  reason?: string | null;
  /** The document that asks for the refund (a complaint): kept in the ledger line's remark and the operation log. */
  docType?: string | null;
  docId?: number | null;
}

/**
 * Gives back part of a paid order through the ledger, inside the caller's transaction (a complaint's processing):
 * the total refunded never passes what was paid (409 退款金额超过订单可退金额（可退 x.xx 元）), the account spent last
 * gets its money back first, and the order's refunded amount and status follow (部分退款, or 已全额退款).
 */
export async function refundPart(trx: Trx, ctx: SessionContext, input: RefundPartInput): Promise<{ orderId: number; refunded: number; refundedAmount: number; orderStatus: string }> {
  const tenantId = ctx.session.tenantId;
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw fieldError("refundAmount", paymentMessages.refundAmount);
  const order = await orderRow(trx, tenantId, input.orderId);
  if (!order) throw new ApiError(Status.NOT_FOUND, paymentMessages.orderMissing);
  if (Number(order.order_status) === OrderStatus.CANCELLED) throw new ApiError(Status.CONFLICT, paymentMessages.cancelled);
  const refundable = Number(order.paid_amount) - Number(order.refunded_amount);
  if (input.amount > refundable) throw new ApiError(Status.CONFLICT, paymentMessages.overRefund(Math.max(0, refundable)));
  // The conditional UPDATE comes first: it repeats the check and locks the order (PostgreSQL), so two refunds racing
  // cannot together pass what was paid, and the accounts below are read after any refund before this one.
  const updated = await trx
    .updateTable("meal_order")
    .set((eb) => ({
      refunded_amount: eb("refunded_amount", "+", input.amount),
      // From the row as locked, not as read above: a refund racing this one may have come first.
      order_status: eb.case().when(eb("refunded_amount", "+", input.amount), "=", eb.ref("paid_amount")).then(OrderStatus.REFUNDED).else(OrderStatus.PART_REFUNDED).end(),
      updated_at: Math.max(ctx.now, order.updated_at + 1),
      updated_by: ctx.session.userId,
    }))
    .where("tenant_id", "=", tenantId)
    .where("id", "=", order.id)
    .where("order_status", "!=", OrderStatus.CANCELLED)
    .where((eb) => eb(eb("refunded_amount", "+", input.amount), "<=", eb.ref("paid_amount")))
    .returning(["refunded_amount", "order_status"])
    .executeTakeFirst();
  if (!updated) {
    const now = await orderRow(trx, tenantId, order.id);
    if (Number(now?.order_status) === OrderStatus.CANCELLED) throw new ApiError(Status.CONFLICT, paymentMessages.cancelled);
    throw new ApiError(Status.CONFLICT, paymentMessages.overRefund(Math.max(0, Number(now?.paid_amount ?? 0) - Number(now?.refunded_amount ?? 0))));
  }
  // Then the diner (decision 042), before any row another diner's sale shares: an order paid by ticket posts no line.
  await lockDiner(trx, tenantId, order.user_info_id);
  // The account spent last gets its money back first. An order paid otherwise (a ticket) has no lines to give back.
  const accounts = (await refundableByAccount(trx, tenantId, order.id)).sort((a, b) => b.lastLine - a.lastLine);
  const inLedger = accounts.reduce((sum, a) => sum + a.fen, 0);
  if (input.amount > inLedger) throw new ApiError(Status.CONFLICT, paymentMessages.overRefund(Math.min(refundable, inLedger)));
  // The document in words (部分退款（订餐申诉 375878613667840）), not its code: the remark is read on the diner's page.
  const by = input.docType ? `（${documentTitle(input.docType, findResource)} ${input.docId ?? ""}）`.replace(" ）", "）") : "";
  const back: Record<AccountType, number> = { cash: 0, subsidy: 0 };
  let left = input.amount;
  for (const account of accounts) {
    const give = Math.min(left, account.fen);
    if (give <= 0) continue;
    await post(trx, {
      tenantId,
      userInfoId: order.user_info_id,
      accountType: account.accountType,
      amount: give,
      busiType: BusiType.CONSUME_RETURN,
      payFlag: account.payFlag,
      operatorId: ctx.session.userId,
      operatorName: ctx.session.userName,
      docType: ORDER_DOC_TYPE,
      docId: order.id,
      remark: `部分退款${by}${input.reason ? `：${input.reason}` : ""}`.slice(0, 200),
      occurredAt: ctx.now,
    });
    back[account.accountType] += give;
    left -= give;
    if (left === 0) break;
  }
  // Refunded in full, the order no longer counts in the day's sales (its status was 已支付 or 部分退款 until now).
  const refundedInFull = Number(updated.order_status) === OrderStatus.REFUNDED;
  if (refundedInFull) await countFoodSales(trx, soldOrderOf(order), await itemsOf(trx, tenantId, order.id), -1);
  const where = orderDayOf(order);
  await countOrderMonth(trx, { tenantId, userInfoId: order.user_info_id, orderDate: order.order_date, mealType: where.mealType, restaurantId: order.restaurant_id, stallId: order.stall_id, orders: refundedInFull ? -1 : 0, refunded: input.amount, cashBack: back.cash, subsidyBack: back.subsidy, swipes: refundedInFull && swiped(order) ? -1 : 0 });
  await countOrderDay(trx, { ...where, cancelled: refundedInFull ? 1 : 0, refunded: input.amount });
  await countSwipeDay(trx, { ...swipeOf(order), counts: refundedInFull ? -1 : 0, refunded: input.amount });
  const refunded: RefundedOrder = { tenantId, id: order.id, orderNo: String(order.order_no), userInfoId: Number(order.user_info_id), refundedAmount: Number(updated.refunded_amount) };
  for (const h of hooks) await h.afterRefund?.(trx, refunded, input.amount);
  await recordOperation(trx, ctx, mealOrder, order.id, "refund", { amount: input.amount, reason: input.reason ?? null, docType: input.docType ?? null, docId: input.docId ?? null });
  return { orderId: order.id, refunded: input.amount, refundedAmount: Number(updated.refunded_amount), orderStatus: String(updated.order_status) };
}

// ---- Reading an order -----------------------------------------------------------------------------------------

/** An order with its items and its ledger lines (payments and refunds), oldest first. */
export async function orderInfo(ctx: SessionContext, id: number) {
  const tenantId = ctx.session.tenantId;
  const db = ctx.services.db;
  const order = await db
    .selectFrom("meal_order as o")
    .leftJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "o.tenant_id").onRef("u.id", "=", "o.user_info_id"))
    .leftJoin("meal_times as t", (j) => j.onRef("t.tenant_id", "=", "o.tenant_id").onRef("t.id", "=", "o.meal_times_id"))
    .leftJoin("org as r", (j) => j.onRef("r.tenant_id", "=", "o.tenant_id").onRef("r.id", "=", "o.restaurant_id"))
    .selectAll("o")
    .select(["u.user_name", "u.user_code", "t.meal_time_name", "t.cancel_deadline", "r.org_name as restaurant_name"])
    .where("o.tenant_id", "=", tenantId)
    .where("o.id", "=", id)
    .executeTakeFirst();
  if (!order) throw new ApiError(Status.NOT_FOUND, paymentMessages.orderMissing);
  const items = await db.selectFrom("meal_order_item").selectAll().where("tenant_id", "=", tenantId).where("meal_order_id", "=", id).orderBy("id").execute();
  const lines = await db
    .selectFrom("user_account_ledger")
    .select(["id", "account_type", "busi_type", "amount", "balance_after", "pay_flag", "operator_name", "remark", "occurred_at"])
    .where("tenant_id", "=", tenantId)
    .where("doc_type", "=", ORDER_DOC_TYPE)
    .where("doc_id", "=", id)
    .orderBy("occurred_at")
    .orderBy("id")
    .execute();
  return {
    id: order.id,
    orderNo: order.order_no,
    userInfoId: order.user_info_id,
    userName: order.user_name,
    userCode: order.user_code,
    orderDate: order.order_date,
    mealTimesId: order.meal_times_id,
    mealTimeName: order.meal_time_name,
    cancelDeadline: order.cancel_deadline,
    mealType: order.meal_type === null ? null : String(order.meal_type),
    restaurantId: order.restaurant_id,
    restaurantName: order.restaurant_name,
    stallId: order.stall_id,
    orderType: String(order.order_type),
    amount: Number(order.amount),
    paidAmount: Number(order.paid_amount),
    refundedAmount: Number(order.refunded_amount),
    payFlag: String(order.pay_flag),
    payResult: String(order.pay_result),
    orderAppointmentStatus: order.order_appointment_status === null ? null : String(order.order_appointment_status),
    orderSource: String(order.order_source),
    orderStatus: String(order.order_status),
    cashierId: order.cashier_id,
    cashierName: order.cashier_name,
    deviceCode: order.device_code,
    cardNo: order.card_no,
    paidAt: Number(order.paid_at),
    cancelReason: order.cancel_reason,
    cancelledByName: order.cancelled_by_name,
    cancelledAt: order.cancelled_at === null ? null : Number(order.cancelled_at),
    updatedAt: Number(order.updated_at),
    items: items.map((i) => ({ id: i.id, foodId: i.food_id, foodName: i.food_name, price: Number(i.price), quantity: Number(i.quantity), subtotal: Number(i.subtotal), foodMenuItemId: i.food_menu_item_id })),
    payments: lines.map((l) => ({ id: l.id, accountType: l.account_type, busiType: String(l.busi_type), amount: Number(l.amount), balanceAfter: Number(l.balance_after), payFlag: String(l.pay_flag), operatorName: l.operator_name, remark: l.remark, occurredAt: Number(l.occurred_at) })),
  };
}

// ---- Endpoints ------------------------------------------------------------------------------------------------

const session = (ctx: unknown) => ctx as SessionContext;

export const paymentEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/cashier/pay",
    resource: "zhct/mealOrder",
    summary:
      "收银：{ cardNo 或 userInfoId, amount（分）或 items: [{ foodId, quantity }], mealTimesId, restaurantId, stallId, payFlag（默认 0）, deviceCode } → { orderId, orderNo, amount, balance }（balance 为人员各账户合计）；订单的餐厅取餐次所属餐厅，无餐次时取 restaurantId（或档口所属餐厅），再无则取设备的所属餐厅；终端应始终带 Idempotency-Key（重试只扣一次）；拒绝为 409（卡、限额、余额）或 400（输入）",
    access: permission(permissionCode(mealOrder, "pay")),
    body: payBody,
    handle: (ctx, { body }) => pay(session(ctx), { ...(body as PayInput), source: "cashier" }),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrder/place",
    resource: "zhct/mealOrder",
    summary: "后台为人员下单（新增订单页）：参数与 cashier/pay 相同，来源记为后台 → { orderId, orderNo, amount, balance }；支持 Idempotency-Key",
    access: permission(permissionCode(mealOrder, "place")),
    body: payBody,
    handle: (ctx, { body }) => pay(session(ctx), { ...(body as PayInput), source: "admin" }),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrder/cancel",
    summary: "取消订单：须填写原因 reason（记入退回流水的备注和操作日志，未填为 400）；按原支付账户原路退回（消费退回流水），退回已售数量；取消截止时间后需主管权限；支持 Idempotency-Key",
    access: permission(permissionCode(mealOrder, "cancel")),
    body: cancelBody,
    handle: (ctx, { body }) => cancel(session(ctx), body as { id: number; reason?: string | null }, { reasonRequired: true }),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrder/cancelLate",
    summary: "主管取消订单：取消截止时间之后也可取消，须填写原因；退款同 mealOrder/cancel；支持 Idempotency-Key",
    access: permission(permissionCode(mealOrder, "cancelLate")),
    body: cancelLateBody,
    handle: (ctx, { body }) => cancel(session(ctx), body as { id: number; reason: string }, { manager: true }),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/mealOrder/getInfo",
    replacesGenerated: true,
    summary: "订单详情：订单、菜品（items）与支付和退款流水（payments）",
    access: permission(permissionCode(mealOrder, "view")),
    query: z.strictObject({ id: recordId("订单", "请选择订单") }),
    handle: (ctx, { query }) => orderInfo(session(ctx), query.id as number),
  }),
];
