import { sql } from "kysely";
import { permissionCode } from "../../../resources/define";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { cashier } from "../../../resources/zhct/cashier";
import type { Db } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { findByDate } from "./menus";
import { dayOf } from "./months";
import { paymentMessages } from "./payments";
import { enabledPayTypes } from "./payTypes";
import { chinaClock } from "../../../resources/chinaTime";

/**
 * The cashier screen's reads (decision 023): which restaurant, meal time and dishes the counter sells now, and who a
 * scanned card or diner code is. Charging is the pay service's (`POST /api/v1/zhct/cashier/pay`); nothing here
 * moves money.
 */

export const cashierMessages = {
  notFound: (code: string) => `未找到卡号或人员编号「${code}」`,
  // The pay service's words: the counter refuses a card as a payment would.
  cardLost: paymentMessages.cardLost,
  cardInvalid: paymentMessages.cardInvalid,
};

const CardStatus = { INVALID: 0, NORMAL: 1, LOST: 2 } as const;
const VALID = 1;

/** What a counter takes itself: IC card, QR code, face (tickets pay through the diner's approved ticket). */
const COUNTER_PAY_FLAGS = [0, 2, 1];

/**
 * The payment methods the counter offers: those of the tenant's pay types (`paytype`) enabled at the restaurant, in
 * their configured order and names. The pay service refuses a disabled one anyway (its beforePay hook).
 */
export async function enabledPayFlags(db: Db, tenantId: number, restaurantId: number | null): Promise<Array<{ value: string; label: string }>> {
  const enabled = await enabledPayTypes(db, tenantId, restaurantId);
  return enabled
    .filter((t) => COUNTER_PAY_FLAGS.includes(t.payFlag))
    .sort((a, b) => a.sort - b.sort || COUNTER_PAY_FLAGS.indexOf(a.payFlag) - COUNTER_PAY_FLAGS.indexOf(b.payFlag))
    .map((t) => ({ value: String(t.payFlag), label: t.name }));
}


/** `HH:mm` of a moment, China time (meal times are the canteen's wall clock, decision 022). */
export const clockOf = chinaClock;

/** As the pay service judges it: [begin, end), a meal time past midnight (22:00–02:00) wrapping. */
const isOpen = (begin: string, end: string, clock: string) => (begin <= end ? clock >= begin && clock < end : clock >= begin || clock < end);

const id = (name: string, label: string) => fieldSchema({ name, label, type: "relation" }, false);

export const counterQuery = z.strictObject({
  restaurantId: id("restaurantId", "餐厅"),
  // 0: no meal time (an amount-only sale: a snack bar, a shop).
  mealTimesId: id("mealTimesId", "餐次"),
});

export const lookupQuery = z.strictObject({
  code: fieldSchema({ name: "code", label: "卡号或人员编号", type: "text", required: true, max: 64 }, false),
});

export interface CounterDish {
  foodId: number;
  foodName: string;
  unit: string | null;
  image: string | null;
  price: number;
  quota: number | null;
  soldCount: number;
  menuName: string;
}

/**
 * What the counter sells now: the restaurants the user may charge at (those assigned to the user, else all the
 * tenant's), the chosen one's meal times, the one chosen (else the one open now; 0 when the user chose none) and its
 * dishes on today's published menus (China day).
 */
export async function counter(db: Db, tenantId: number, userId: number, input: { restaurantId?: number | null; mealTimesId?: number | null }, now: number) {
  const assigned = await db.selectFrom("user_restaurant").select("org_id").where("tenant_id", "=", tenantId).where("user_id", "=", userId).execute();
  let restaurantsQuery = db
    .selectFrom("org")
    .select(["id", "org_name"])
    .where("tenant_id", "=", tenantId)
    .where("org_type", "=", "restaurant")
    .where("status", "=", VALID);
  if (assigned.length) restaurantsQuery = restaurantsQuery.where("id", "in", assigned.map((a) => a.org_id));
  const restaurants = (await restaurantsQuery.orderBy("sort").orderBy("id").execute()).map((r) => ({ id: r.id, name: r.org_name }));
  const date = dayOf(now);
  const clock = clockOf(now);
  const restaurant = restaurants.find((r) => r.id === input.restaurantId) ?? restaurants[0];
  const payFlags = await enabledPayFlags(db, tenantId, restaurant?.id ?? null);
  if (!restaurant) return { date, clock, restaurants, restaurantId: null, mealTimes: [], mealTimesId: 0, openMealTimesId: null, dishes: [] as CounterDish[], payFlags };
  const mealTimes = (
    await db
      .selectFrom("meal_times")
      .select(["id", "meal_time_name", "meal_type", "begin_time", "end_time"])
      .where("tenant_id", "=", tenantId)
      .where("restaurant_id", "=", restaurant.id)
      .where("status", "=", VALID)
      .orderBy("begin_time")
      .execute()
  ).map((m) => ({ id: m.id, name: m.meal_time_name, mealType: String(m.meal_type), beginTime: m.begin_time, endTime: m.end_time }));
  // Meal times of a restaurant never overlap (half-open), so at most one is open.
  const open = mealTimes.find((m) => isOpen(m.beginTime, m.endTime, clock));
  const chosen = input.mealTimesId === 0 ? undefined : (mealTimes.find((m) => m.id === input.mealTimesId) ?? open);
  let dishes: CounterDish[] = [];
  if (chosen) {
    const menus = (await findByDate(db, tenantId, date, restaurant.id)).filter(
      (m) => m.mealTimeId === chosen.id || (m.mealTimeId === null && (m.mealType === chosen.mealType || m.mealType === "all")),
    );
    // One tile per food: the pay service takes foods, so two menus offering one food would be one dish.
    const seen = new Set<number>();
    dishes = menus.flatMap((m) =>
      m.items
        .filter((i) => !seen.has(i.foodId) && seen.add(i.foodId))
        .map((i) => ({ foodId: i.foodId, foodName: i.foodName, unit: i.unit, image: i.image, price: i.price ?? 0, quota: i.quota, soldCount: i.soldCount, menuName: m.typeName })),
    );
  }
  return { date, clock, restaurants, restaurantId: restaurant.id, mealTimes, mealTimesId: chosen?.id ?? 0, openMealTimesId: open?.id ?? null, dishes, payFlags };
}

export interface Diner {
  userInfoId: number;
  userCode: string;
  userName: string;
  deptName: string | null;
  staffType: string | null;
  faceImage: string | null;
  userStatus: string;
  /** How the code was found: a card's number, or the diner's own code (QR code, face terminal, typed). */
  matched: "card" | "code";
  card: { cardNo: string; cardStatus: string } | null;
  cash: number;
  subsidy: number;
  balance: number;
}

/**
 * Who a scanned or typed code is: a card number first, then a diner code. A lost or cancelled card is refused at
 * once (409), before anything is picked; the pay service checks the card again when it charges.
 */
export async function lookup(db: Db, tenantId: number, rawCode: string): Promise<Diner> {
  const code = rawCode.trim();
  const card = await db.selectFrom("user_ic_card").select(["user_info_id", "card_no", "card_status"]).where("tenant_id", "=", tenantId).where("card_no", "=", code).executeTakeFirst();
  if (card && Number(card.card_status) === CardStatus.LOST) throw new ApiError(Status.CONFLICT, cashierMessages.cardLost);
  if (card && Number(card.card_status) !== CardStatus.NORMAL) throw new ApiError(Status.CONFLICT, cashierMessages.cardInvalid);
  let query = db
    .selectFrom("user_info as u")
    .leftJoin("org as o", (j) => j.onRef("o.tenant_id", "=", "u.tenant_id").onRef("o.id", "=", "u.dept_id"))
    .select(["u.id", "u.user_code", "u.user_name", "u.staff_type", "u.face_image", "u.user_status", "o.org_name"])
    .where("u.tenant_id", "=", tenantId);
  query = card ? query.where("u.id", "=", card.user_info_id) : query.where("u.user_code", "=", code);
  const diner = await query.executeTakeFirst();
  if (!diner) throw new ApiError(Status.NOT_FOUND, cashierMessages.notFound(code));
  const [accounts, shownCard] = await Promise.all([
    db.selectFrom("user_account").select(["account_type", "balance"]).where("tenant_id", "=", tenantId).where("user_info_id", "=", diner.id).execute(),
    card
      ? Promise.resolve(card)
      : db
          .selectFrom("user_ic_card")
          .select(["card_no", "card_status"])
          .where("tenant_id", "=", tenantId)
          .where("user_info_id", "=", diner.id)
          // The normal card if there is one, else the newest (a lost one shows why a scan is refused).
          .orderBy(sql`case when card_status = ${CardStatus.NORMAL} then 0 else 1 end`)
          .orderBy("issued_at", "desc")
          .limit(1)
          .executeTakeFirst(),
  ]);
  const balanceOf = (type: string) => Number(accounts.find((a) => a.account_type === type)?.balance ?? 0);
  const cash = balanceOf("cash");
  const subsidy = balanceOf("subsidy");
  return {
    userInfoId: diner.id,
    userCode: diner.user_code,
    userName: diner.user_name,
    deptName: diner.org_name ?? null,
    staffType: diner.staff_type,
    faceImage: diner.face_image,
    userStatus: String(diner.user_status ?? 1),
    matched: card ? "card" : "code",
    card: shownCard ? { cardNo: shownCard.card_no, cardStatus: String(shownCard.card_status) } : null,
    cash,
    subsidy,
    balance: cash + subsidy,
  };
}

const session = (ctx: unknown) => (ctx as SessionContext).session;

export const cashierEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/cashier/counter",
    summary: "收银台：可收银的餐厅、所选餐厅的餐次（默认当前开放的餐次；mealTimesId=0 为不限餐次）、今日该餐次已发布菜单的菜品、可用支付方式",
    access: permission(permissionCode(cashier, "view")),
    query: counterQuery,
    handle: (ctx, { query }) =>
      counter(ctx.services.db, session(ctx).tenantId, session(ctx).userId, { restaurantId: query.restaurantId as number | undefined, mealTimesId: query.mealTimesId as number | undefined }, ctx.now),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/cashier/lookup",
    summary: "按卡号（先）或人员编号查人员：姓名、照片、部门、卡状态、现金与补贴余额（分）；挂失或注销的卡 409，找不到 404",
    access: permission(permissionCode(cashier, "view")),
    query: lookupQuery,
    handle: (ctx, { query }) => lookup(ctx.services.db, session(ctx).tenantId, query.code as string),
  }),
];
