import { AsyncLocalStorage } from "node:async_hooks";
import { permissionCode, resourceKey } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { createSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { appointmentDetail, appointmentDetailForOrder, appointmentPeriod, orderingFood, orderingPlan } from "../../../resources/zhct/bookings";
import { newId, type Db, type Dialect } from "../../db";
import { preparedQuery } from "../../db/prepared";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { checkRelations, getInfo, getRow, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { formatInstant, nextRecord } from "../sys/rules";
import { startLeasedJob } from "../../kernel/leasedJob";
import { idempotencyMessages, idempotent, markReplayed, usedKeyAnswer } from "../../kernel/idempotency";
import { assertStepFrom, runResourceStep } from "../../kernel/transitions";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { type Trx } from "./ledger";
import { dayOf, dayStart } from "./months";
import { cancel as cancelOrder, OrderStatus, pay, type PaidOrder, type PaymentHooks } from "./payments";

/**
 * Meal bookings and special-dish reservations (issue 14, decision 026). A booking period opens a meal time of a
 * restaurant for booking over a date range, with a capacity per day and a deadline (so many days before the meal's
 * day, at a time of day). A diner books a meal of a day once; the capacity is counted under the period's row lock.
 * Paying for that meal (any channel: `afterPay`) completes the booking and the order records 已预约; a booking whose
 * meal ended unpaid is marked 已预约未就餐 by a leased run. An ordering plan offers a dish with a daily quota, paid
 * through the payment service at reservation or at pick-up; cancelling a paid one before the deadline cancels its
 * order, which refunds through the ledger.
 */

export const bookingMessages = {
  noPeriod: "该日期此餐次未开放预约",
  deadline: (at: number) => `已过预约截止时间（${formatInstant(at)}）`,
  cancelDeadline: (at: number) => `已过取消截止时间（${formatInstant(at)}），不能取消`,
  full: (capacity: number, left: number) => `该餐次预约已满：每日可预约 ${capacity} 人，剩余 ${left} 个名额`,
  completed: "该预约已就餐完成，不能修改",
  raced: "该预约刚被其他操作改变，请刷新后重试",
  manualComplete: "「已完成」由就餐时的支付自动标记，不能手工设置",
  dateOrder: "结束日期不能早于开始日期",
  mealOfRestaurant: "所选餐次不属于该餐厅",
  overlap: "该餐次在此日期范围内已有启用的预约时段",
  orderRequired: "请选择订单",
  orderWithoutMeal: "该订单为按金额收款，没有餐次，不涉及预约",
  orderCancelled: "该订单已取消",
  notBookable: "该订单的餐次未开放过预约，无需登记",
  orderFixed: "登记后不能更换订单",
  planDisabled: "该订餐计划已停用",
  outsidePlan: (begin: string, end: string) => `取餐日期不在计划的日期范围内（${begin} 至 ${end}）`,
  soldOut: (quota: number, left: number) => `该菜品当日已约满：每日限量 ${quota} 份，剩余 ${left} 份`,
  reservedAlready: "该人员当天已预订此菜品",
  reservationFixed: "预订后只能修改备注；要改菜品、人员、日期或份数，请取消后重新预订",
  pickUpDay: (day: string) => `取餐日期为 ${day}，今天不能取餐`,
};

/** Dictionary appointmentStatus (also a reservation's 预订状态). */
export const AppointmentStatus = {
  CANCELLED: 0,
  RESERVED: 1,
  COMPLETED: 2,
} as const;
/** Dictionary orderAppointmentStatus. */
export const OrderAppointmentStatus = {
  NOT_RESERVED: 1,
  RESERVED: 2,
  OUTSIDE: 3,
  NO_SHOW: 4,
} as const;
/** Dictionary orderingPayTime. */
export const PayTime = { AT_RESERVATION: 1, AT_PICK_UP: 2 } as const;
/** Dictionary orderType: a special dish reserved from a plan is an 点餐 order. */
const ORDER_TYPE_ORDERING = "2";

const DAY_MS = 86_400_000;
const minutesOf = (clock: string) => {
  const [h, m] = clock.split(":").map(Number) as [number, number];
  return h * 60 + m;
};

/** When booking a meal of `day` closes: `days` before it at `time` (China time); 1 day and 16:00 is 前一天 16:00. */
export function deadlineOf(day: string, days: number, time: string): number {
  return dayStart(day) - days * DAY_MS + minutesOf(time) * 60_000;
}

/** When the meal of `day` ends; a meal time past midnight (22:00–02:00) ends the next day. */
export function mealEndOf(day: string, begin: string, end: string): number {
  return dayStart(day) + (minutesOf(end) <= minutesOf(begin) ? DAY_MS : 0) + minutesOf(end) * 60_000;
}

type AnyDb = Db | Trx;
const isPostgres = (ctx: { services: { dialect: Dialect } }) => ctx.services.dialect === "postgres";

// ---- Periods and plans ----------------------------------------------------------------------------------------

/** A period or plan: a meal time of its restaurant, dates in order. */
async function checkRange(ctx: SessionContext, record: Row) {
  if (String(record.endDate) < String(record.beginDate)) throw fieldError("endDate", bookingMessages.dateOrder);
  const meal = await ctx.services.db
    .selectFrom("meal_times")
    .select("restaurant_id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("id", "=", record.mealTimesId as number)
    .executeTakeFirst();
  if (meal && meal.restaurant_id !== record.restaurantId) throw fieldError("mealTimesId", bookingMessages.mealOfRestaurant);
}

/** Two enabled periods of a meal time may not share a day: a booking would not know whose capacity it takes. */
async function checkPeriod(ctx: SessionContext, record: Row, id?: number) {
  await checkRange(ctx, record);
  if (Number(record.status) !== 1) return;
  let query = ctx.services.db
    .selectFrom("appointment_period")
    .select("id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("meal_times_id", "=", record.mealTimesId as number)
    .where("status", "=", 1)
    .where("begin_date", "<=", String(record.endDate))
    .where("end_date", ">=", String(record.beginDate));
  if (id !== undefined) query = query.where("id", "!=", id);
  if (await query.executeTakeFirst()) throw fieldError("beginDate", bookingMessages.overlap);
}

export const appointmentPeriodService: ResourceService = {
  beforeCreate: (ctx, values) => checkPeriod(ctx, values),
  beforeUpdate: (ctx, values, current) => checkPeriod(ctx, nextRecord(appointmentPeriod, values, current), current.id as number),
};

export const orderingPlanService: ResourceService = {
  beforeCreate: (ctx, values) => checkRange(ctx, values),
  beforeUpdate: (ctx, values, current) => checkRange(ctx, nextRecord(orderingPlan, values, current)),
};

// ---- Personal bookings ----------------------------------------------------------------------------------------

function periodFor(db: AnyDb, tenantId: number, mealTimesId: number, day: string) {
  return db
    .selectFrom("appointment_period")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("meal_times_id", "=", mealTimesId)
    .where("status", "=", 1)
    .where("begin_date", "<=", day)
    .where("end_date", ">=", day)
    .executeTakeFirst();
}

/** The period a booking of this meal and day falls in, still open for booking at `now`; refusals name the field. */
async function openPeriod(ctx: SessionContext, mealTimesId: number, day: string) {
  const period = await periodFor(ctx.services.db, ctx.session.tenantId, mealTimesId, day);
  if (!period) throw fieldError("appointmentDate", bookingMessages.noPeriod);
  const closes = deadlineOf(day, Number(period.deadline_days), period.deadline_time);
  if (ctx.now > closes) throw new ApiError(Status.CONFLICT, bookingMessages.deadline(closes));
  return period;
}

/**
 * Takes a place for the booking just written (or put back to 已预约), inside its transaction: the period's row is
 * locked (PostgreSQL; SQLite runs one writer at a time), then the meal's other live bookings are counted. Of 50 diners
 * racing for the last 10 places, each waits for the lock, counts the ones committed before it, and the 11th is refused.
 */
async function takePlace(ctx: SessionContext, trx: Trx, booking: Row) {
  const tenantId = ctx.session.tenantId;
  let lock = trx
    .selectFrom("appointment_period")
    .select("capacity")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", booking.period_id as number);
  // NO KEY UPDATE: the booking's insert already holds a KEY SHARE lock on this row (its foreign key); FOR UPDATE would
  // have two such bookings each wait for the other's KEY SHARE (a deadlock), this waits only for the other's lock.
  if (isPostgres(ctx)) lock = lock.forNoKeyUpdate();
  const { capacity } = await lock.executeTakeFirstOrThrow();
  const { n } = await trx
    .selectFrom("appointment_detail")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("tenant_id", "=", tenantId)
    .where("meal_times_id", "=", booking.meal_times_id as number)
    .where("appointment_date", "=", booking.appointment_date as string)
    .where("appointment_status", "in", [AppointmentStatus.RESERVED, AppointmentStatus.COMPLETED])
    .where("id", "!=", booking.id as number)
    .executeTakeFirstOrThrow();
  if (Number(n) >= Number(capacity)) throw new ApiError(Status.CONFLICT, bookingMessages.full(Number(capacity), Math.max(0, Number(capacity) - Number(n))));
}

const changesBooking = (values: Row, current: Row) =>
  (["userInfoId", "appointmentDate", "mealTimesId", "appointmentStatus"] as const).some(
    (name) => values[name] !== undefined && String(values[name]) !== String(nextRecord(appointmentDetail, {}, current)[name]),
  );

export const appointmentDetailService: ResourceService = {
  async beforeCreate(ctx, values) {
    const period = await openPeriod(ctx, values.mealTimesId as number, values.appointmentDate as string);
    Object.assign(values, {
      periodId: period.id,
      appointmentStatus: String(AppointmentStatus.RESERVED),
      orderAppointmentStatus: null,
      orderId: null,
      bookedAt: ctx.now,
    });
  },
  afterCreate: (ctx, trx, row) => takePlace(ctx, trx as unknown as Trx, row),
  /**
   * A booking is changed (cancelled, moved, booked again) only before the deadlines of the meal it leaves and of the
   * one it takes; a completed one only in its remark, which changes freely.
   */
  async beforeUpdate(ctx, values, current) {
    const next = nextRecord(appointmentDetail, values, current);
    if (Number(next.appointmentStatus) === AppointmentStatus.COMPLETED && Number(current.appointment_status) !== AppointmentStatus.COMPLETED) {
      throw fieldError("appointmentStatus", bookingMessages.manualComplete);
    }
    if (!changesBooking(values, current)) return;
    if (Number(current.appointment_status) === AppointmentStatus.COMPLETED) throw new ApiError(Status.CONFLICT, bookingMessages.completed);
    if (Number(current.appointment_status) === AppointmentStatus.RESERVED) {
      const period = await periodFor(ctx.services.db, ctx.session.tenantId, Number(current.meal_times_id), String(current.appointment_date));
      const closes = period ? deadlineOf(String(current.appointment_date), Number(period.deadline_days), period.deadline_time) : null;
      if (closes !== null && ctx.now > closes) throw new ApiError(Status.CONFLICT, bookingMessages.cancelDeadline(closes));
    }
    if (Number(next.appointmentStatus) === AppointmentStatus.RESERVED) {
      values.periodId = (await openPeriod(ctx, next.mealTimesId as number, next.appointmentDate as string)).id;
    }
  },
  async afterUpdate(ctx, trx, row, current) {
    const moved = row.meal_times_id !== current.meal_times_id || row.appointment_date !== current.appointment_date;
    if (Number(row.appointment_status) === AppointmentStatus.RESERVED && (moved || Number(current.appointment_status) !== AppointmentStatus.RESERVED)) {
      await takePlace(ctx, trx as unknown as Trx, row);
    }
  },
};

// ---- A meal eaten: the booking completed, the order's 预约状态 --------------------------------------------------

interface Meal {
  tenantId: number;
  userInfoId: number;
  day: string;
  mealTimesId: number;
}

/**
 * How an order of this meal stands to bookings: 已预约 with the diner's live booking; 未预约 when the day was open for
 * booking and they did not book; 超出预约时间 when the meal time takes bookings but not on that day; null when the meal
 * time never took bookings (the order says nothing about them).
 */
const periodOfMealTime = preparedQuery("booking period of meal time", (db: AnyDb, tenantId: number, mealTimesId: number) =>
  db.selectFrom("appointment_period").select("id").where("tenant_id", "=", tenantId).where("meal_times_id", "=", mealTimesId).limit(1),
);

async function classify(db: AnyDb, meal: Meal): Promise<{ status: number | null; bookingId: number | null }> {
  // Most meal times never take bookings: one indexed look-up, and the payment goes on.
  const [any] = await periodOfMealTime(db, meal.tenantId, meal.mealTimesId);
  if (!any) return { status: null, bookingId: null };
  const booking = await db
    .selectFrom("appointment_detail")
    .select("id")
    .where("tenant_id", "=", meal.tenantId)
    .where("user_info_id", "=", meal.userInfoId)
    .where("appointment_date", "=", meal.day)
    .where("meal_times_id", "=", meal.mealTimesId)
    .where("appointment_status", "=", AppointmentStatus.RESERVED)
    .executeTakeFirst();
  if (booking) return { status: OrderAppointmentStatus.RESERVED, bookingId: booking.id };
  const open = await periodFor(db, meal.tenantId, meal.mealTimesId, meal.day);
  return { status: open ? OrderAppointmentStatus.NOT_RESERVED : OrderAppointmentStatus.OUTSIDE, bookingId: null };
}

/** Completes the booking (only while still 已预约: of two payments racing, one completes it) and marks the order. */
async function applyMeal(trx: Trx, tenantId: number, orderId: number, status: number, bookingId: number | null, at: number) {
  if (bookingId !== null) {
    const done = await trx
      .updateTable("appointment_detail")
      .set({
        appointment_status: AppointmentStatus.COMPLETED,
        order_appointment_status: OrderAppointmentStatus.RESERVED,
        order_id: orderId,
        updated_at: at,
      })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", bookingId)
      .where("appointment_status", "=", AppointmentStatus.RESERVED)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, bookingMessages.raced);
  }
  await trx.updateTable("meal_order").set({ order_appointment_status: status }).where("tenant_id", "=", tenantId).where("id", "=", orderId).execute();
}

async function recordMealOf(trx: Trx, order: PaidOrder, at: number) {
  if (order.mealTimesId === null) return;
  const meal = {
    tenantId: order.tenantId,
    userInfoId: order.userInfoId,
    day: order.orderDate,
    mealTimesId: order.mealTimesId,
  };
  const { status, bookingId } = await classify(trx, meal);
  if (status === null) return;
  await applyMeal(trx, order.tenantId, order.id, status, bookingId, at);
  if (status === OrderAppointmentStatus.OUTSIDE) return;
  await writeRecord(trx, { ...meal, orderId: order.id, orderNo: order.orderNo, bookingId, status, at });
}

/** The record of how a booked meal went (eaten with an order, or a no-show), written by the system. */
function writeRecord(trx: Trx, r: Meal & { orderId: number | null; orderNo: string | null; bookingId: number | null; status: number; at: number }) {
  return trx
    .insertInto("appointment_detail_for_order")
    .values({
      tenant_id: r.tenantId,
      id: newId(),
      order_id: r.orderId,
      appointment_detail_id: r.bookingId,
      order_no: r.orderNo,
      user_info_id: r.userInfoId,
      appointment_date: r.day,
      meal_times_id: r.mealTimesId,
      order_appointment_status: r.status,
      recorded_at: r.at,
      remark: null,
      created_at: r.at,
      created_by: null,
      updated_at: r.at,
      updated_by: null,
    })
    .execute();
}

/** A record entered by hand names a paid order of a meal time; the rest (booking, diner, status) comes from it. */
export const appointmentDetailForOrderService: ResourceService = {
  async beforeCreate(ctx, values) {
    if (values.orderId == null) throw fieldError("orderId", bookingMessages.orderRequired);
    const order = await ctx.services.db
      .selectFrom("meal_order")
      .select(["order_no", "user_info_id", "order_date", "meal_times_id", "order_status"])
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("id", "=", values.orderId as number)
      .executeTakeFirst();
    if (!order) return;
    if (order.meal_times_id === null) throw fieldError("orderId", bookingMessages.orderWithoutMeal);
    if (Number(order.order_status) === OrderStatus.CANCELLED) throw fieldError("orderId", bookingMessages.orderCancelled);
    const meal = {
      tenantId: ctx.session.tenantId,
      userInfoId: order.user_info_id,
      day: order.order_date,
      mealTimesId: order.meal_times_id,
    };
    const { status, bookingId } = await classify(ctx.services.db, meal);
    if (status === null) throw fieldError("orderId", bookingMessages.notBookable);
    Object.assign(values, {
      appointmentDetailId: bookingId,
      orderNo: order.order_no,
      userInfoId: meal.userInfoId,
      appointmentDate: meal.day,
      mealTimesId: meal.mealTimesId,
      orderAppointmentStatus: String(status),
      recordedAt: ctx.now,
    });
  },
  async afterCreate(ctx, trx, row) {
    await applyMeal(trx as unknown as Trx, ctx.session.tenantId, row.order_id as number, Number(row.order_appointment_status), (row.appointment_detail_id as number | null) ?? null, ctx.now);
  },
  beforeUpdate(_ctx, values, current) {
    if (values.orderId !== undefined && values.orderId !== current.order_id) throw fieldError("orderId", bookingMessages.orderFixed);
  },
};

/**
 * Marks the bookings whose meal has ended without a payment 已预约未就餐 and records each no-show, once: the
 * booking is marked only while still unmarked, and only the run that marked it writes the record (the record's unique
 * key on the booking holds it single even so). Returns how many it marked.
 */
export async function markNoShows(db: Db, dialect: Dialect, now: number): Promise<number> {
  const candidates = await db
    .selectFrom("appointment_detail as a")
    .innerJoin("meal_times as t", (j) => j.onRef("t.tenant_id", "=", "a.tenant_id").onRef("t.id", "=", "a.meal_times_id"))
    .select(["a.tenant_id", "a.id", "a.user_info_id", "a.appointment_date", "a.meal_times_id", "t.begin_time", "t.end_time"])
    .where("a.appointment_status", "=", AppointmentStatus.RESERVED)
    .where("a.order_appointment_status", "is", null)
    .where("a.appointment_date", "<=", dayOf(now))
    .execute();
  let marked = 0;
  for (const b of candidates.filter((c) => mealEndOf(c.appointment_date, c.begin_time, c.end_time) <= now)) {
    const done = await inWriteTransaction(db, dialect, async (trx) => {
      const result = await trx
        .updateTable("appointment_detail")
        .set({
          order_appointment_status: OrderAppointmentStatus.NO_SHOW,
          updated_at: now,
        })
        .where("tenant_id", "=", b.tenant_id)
        .where("id", "=", b.id)
        .where("appointment_status", "=", AppointmentStatus.RESERVED)
        .where("order_appointment_status", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      const meal = { tenantId: b.tenant_id, userInfoId: b.user_info_id, day: b.appointment_date, mealTimesId: b.meal_times_id };
      await writeRecord(trx, { ...meal, orderId: null, orderNo: null, bookingId: b.id, status: OrderAppointmentStatus.NO_SHOW, at: now });
      return true;
    });
    if (done) marked++;
  }
  return marked;
}

/** Runs the no-show marking every `everyMs` in the instance that takes the job's lease. */
export function startNoShowScheduler(db: Db, dialect: Dialect, everyMs = 5 * 60_000, leaseMs = 10 * 60_000): { stop(): Promise<void> } {
  return startLeasedJob(db, "zhct.bookingNoShow", (now) => markNoShows(db, dialect, now), everyMs, leaseMs);
}

// ---- Special-dish reservations --------------------------------------------------------------------------------

interface Reservation {
  tenantId: number;
  planId: number;
  userInfoId: number;
  orderDate: string;
  quantity: number;
  amount: number;
  payTime: number;
  remark: string | null;
}

/**
 * The payment a reservation or a pick-up starts, carried to its `beforePay` and `afterPay` so that the quota, the
 * reservation row and the payment commit together or not at all, with `pay()` itself unchanged. Only that one
 * payment sees it (AsyncLocalStorage follows the call, not the process).
 */
const reservationPayment = new AsyncLocalStorage<{ ctx: SessionContext } & ({ kind: "reserve"; reservation: Reservation } | { kind: "pickUp"; id: number })>();

/**
 * Takes `quantity` of the plan's day's quota under the plan's row lock (PostgreSQL; SQLite runs one writer at a time),
 * for a diner without a live reservation of that plan and day.
 */
async function takeQuota(trx: Trx, dialect: Dialect, r: Reservation) {
  let lock = trx.selectFrom("ordering_plan").select("daily_quota").where("tenant_id", "=", r.tenantId).where("id", "=", r.planId);
  if (dialect === "postgres") lock = lock.forNoKeyUpdate();
  const quota = Number((await lock.executeTakeFirstOrThrow()).daily_quota);
  const mine = await trx
    .selectFrom("ordering_food")
    .select("id")
    .where("tenant_id", "=", r.tenantId)
    .where("plan_id", "=", r.planId)
    .where("order_date", "=", r.orderDate)
    .where("user_info_id", "=", r.userInfoId)
    .where("reserve_status", "in", [AppointmentStatus.RESERVED, AppointmentStatus.COMPLETED])
    .executeTakeFirst();
  if (mine) throw fieldError("userInfoId", bookingMessages.reservedAlready);
  const { taken } = await trx
    .selectFrom("ordering_food")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("quantity"), eb.lit(0)).as("taken"))
    .where("tenant_id", "=", r.tenantId)
    .where("plan_id", "=", r.planId)
    .where("order_date", "=", r.orderDate)
    .where("reserve_status", "in", [AppointmentStatus.RESERVED, AppointmentStatus.COMPLETED])
    .executeTakeFirstOrThrow();
  if (Number(taken) + r.quantity > quota) throw new ApiError(Status.CONFLICT, bookingMessages.soldOut(quota, Math.max(0, quota - Number(taken))));
}

async function writeReservation(trx: Trx, ctx: SessionContext, r: Reservation, orderId: number | null): Promise<number> {
  const id = newId();
  const at = ctx.now;
  await trx
    .insertInto("ordering_food")
    .values({
      tenant_id: r.tenantId,
      id,
      plan_id: r.planId,
      user_info_id: r.userInfoId,
      order_date: r.orderDate,
      quantity: r.quantity,
      amount: r.amount,
      pay_time: r.payTime,
      reserve_status: AppointmentStatus.RESERVED,
      order_id: orderId,
      paid_at: orderId === null ? null : at,
      reserved_at: at,
      picked_up_at: null,
      remark: r.remark,
      created_at: at,
      created_by: ctx.session.userId,
      updated_at: at,
      updated_by: ctx.session.userId,
    })
    .execute();
  await recordOperation(trx, ctx, orderingFood, id, "create", {
    ...r,
    orderId,
  });
  return id;
}

async function planOf(ctx: SessionContext, planId: number) {
  return ctx.services.db.selectFrom("ordering_plan").selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", planId).executeTakeFirst();
}

/**
 * Reserves a dish of a plan for a diner and day, before the plan's deadline and within its daily quota. Paid at
 * reservation: through `pay()` (an 点餐 order of the amount, Idempotency-Key honoured), the reservation written in
 * the payment's transaction; a retry with the key answers the first reservation and charges nothing.
 */
export async function reserve(ctx: SessionContext, values: Row) {
  await checkRelations(ctx, orderingFood, values);
  const plan = await planOf(ctx, values.planId as number);
  if (!plan) throw fieldError("planId", bookingMessages.planDisabled);
  if (Number(plan.status) !== 1) throw fieldError("planId", bookingMessages.planDisabled);
  const day = values.orderDate as string;
  if (day < plan.begin_date || day > plan.end_date) throw fieldError("orderDate", bookingMessages.outsidePlan(plan.begin_date, plan.end_date));
  const closes = deadlineOf(day, Number(plan.deadline_days), plan.deadline_time);
  if (ctx.now > closes) throw new ApiError(Status.CONFLICT, bookingMessages.deadline(closes));
  const quantity = Number(values.quantity ?? 1);
  const r: Reservation = {
    tenantId: ctx.session.tenantId,
    planId: plan.id,
    userInfoId: values.userInfoId as number,
    orderDate: day,
    quantity,
    amount: Number(plan.price) * quantity,
    payTime: Number(plan.pay_time),
    remark: (values.remark as string | null | undefined) ?? null,
  };
  let id: number;
  if (r.payTime === PayTime.AT_RESERVATION) {
    const paid = await reservationPayment.run({ ctx, kind: "reserve", reservation: r }, () =>
      pay(ctx, {
        userInfoId: r.userInfoId,
        amount: r.amount,
        restaurantId: plan.restaurant_id,
        source: "admin",
        orderType: ORDER_TYPE_ORDERING,
      }),
    );
    const row = await ctx.services.db.selectFrom("ordering_food").select(["id", "plan_id", "order_date"]).where("tenant_id", "=", r.tenantId).where("order_id", "=", paid.orderId).executeTakeFirst();
    // A replayed key answers the first payment's order: it must be this reservation's.
    if (!row || row.plan_id !== r.planId || row.order_date !== r.orderDate) throw new ApiError(Status.CONFLICT, idempotencyMessages.reused);
    id = row.id;
  } else {
    id = await inWriteTransaction(ctx.services.db, ctx.services.dialect, async (trx) => {
      await takeQuota(trx, ctx.services.dialect, r);
      return writeReservation(trx, ctx, r, null);
    });
  }
  return getInfo(ctx, orderingFood, id, findResource);
}

/**
 * Hands the dish over on its day; a plan paid at pick-up charges now, through `pay()`, in one transaction with it.
 * Both ways take the Idempotency-Key; a retry with it answers as the first pick-up did, and the key used for anything
 * else is refused (the payment's own key check cannot tell two pick-ups of the same amount apart).
 */
export async function pickUp(ctx: SessionContext, id: number) {
  const row = await getRow(ctx, orderingFood, id);
  const status = Number(row.reserve_status);
  const used = await usedKeyAnswer(ctx);
  if (used) {
    const answer = used.answer as { orderId?: number; pickedUp?: number } | null;
    const thisPickUp = status === AppointmentStatus.COMPLETED && (answer?.pickedUp === id || (answer?.orderId !== undefined && answer.orderId === Number(row.order_id)));
    if (!thisPickUp) throw new ApiError(Status.CONFLICT, idempotencyMessages.reused);
    markReplayed(ctx);
    return getInfo(ctx, orderingFood, id, findResource);
  }
  assertStepFrom(orderingFood, "pickUp", row);
  const today = dayOf(ctx.now);
  if (row.order_date !== today) throw new ApiError(Status.CONFLICT, bookingMessages.pickUpDay(String(row.order_date)));
  if (row.order_id == null) {
    // Sold at the plan's restaurant (the reports by restaurant count it there).
    const plan = await planOf(ctx, row.plan_id as number);
    await reservationPayment.run({ ctx, kind: "pickUp", id }, () =>
      pay(ctx, { userInfoId: row.user_info_id as number, amount: Number(row.amount), restaurantId: plan?.restaurant_id ?? null, source: "admin", orderType: ORDER_TYPE_ORDERING }),
    );
  } else {
    await idempotent(ctx, { id }, async (trx) => {
      await handOver(trx, ctx, id, null);
      return { pickedUp: id };
    });
  }
  return getInfo(ctx, orderingFood, id, findResource);
}

/** Marks a reservation picked up (and paid by `orderId`, when it was paid just now), only while it is 已预约. */
async function handOver(trx: Trx, ctx: SessionContext, id: number, orderId: number | null) {
  const at = ctx.now;
  await runResourceStep(trx, ctx, orderingFood, "pickUp", {
    id,
    set: { picked_up_at: at, ...(orderId === null ? {} : { order_id: orderId, paid_at: at }) },
    effect: async () => ({ orderId }),
  });
}

/**
 * Cancels a reservation before the plan's deadline. A paid one cancels its order (`payments.cancel`: the refund goes
 * back through the ledger to the accounts that paid), whose `afterCancel` marks the reservation cancelled in the same
 * transaction; its quota is free again because the quota counts only live reservations.
 */
export async function cancelReservation(ctx: SessionContext, id: number) {
  const row = await getRow(ctx, orderingFood, id);
  assertStepFrom(orderingFood, "cancel", row);
  const plan = await planOf(ctx, row.plan_id as number);
  if (plan) {
    const closes = deadlineOf(String(row.order_date), Number(plan.deadline_days), plan.deadline_time);
    if (ctx.now > closes) throw new ApiError(Status.CONFLICT, bookingMessages.cancelDeadline(closes));
  }
  if (row.order_id != null) {
    await cancelOrder(ctx, {
      id: row.order_id as number,
      reason: "取消特色菜预订",
    });
  } else {
    await inWriteTransaction(ctx.services.db, ctx.services.dialect, (trx) => runResourceStep(trx, ctx, orderingFood, "cancel", { id }));
  }
  return getInfo(ctx, orderingFood, id, findResource);
}

export const orderingFoodService: ResourceService = {
  beforeUpdate(_ctx, values, current) {
    const now = nextRecord(orderingFood, {}, current);
    if ((["planId", "userInfoId", "orderDate", "quantity"] as const).some((name) => values[name] !== undefined && String(values[name]) !== String(now[name]))) {
      throw new ApiError(Status.CONFLICT, bookingMessages.reservationFixed);
    }
  },
};

/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const bookingPaymentHooks: PaymentHooks = {
  // The quota is taken before the money, so a diner short of both hears about the quota.
  async beforePay(trx, facts) {
    const job = reservationPayment.getStore();
    if (job?.kind === "reserve" && job.ctx.session.tenantId === facts.tenantId) await takeQuota(trx, job.ctx.services.dialect, job.reservation);
  },
  async afterPay(trx, order) {
    const job = reservationPayment.getStore();
    if (job && job.ctx.session.tenantId === order.tenantId) {
      if (job.kind === "reserve") await writeReservation(trx, job.ctx, job.reservation, order.id);
      else await handOver(trx, job.ctx, job.id, order.id);
    }
    await recordMealOf(trx, order, Date.now());
  },
  // An order of a reservation cancelled (here or on the order's own page): the reservation goes with it.
  async afterCancel(trx, order) {
    await trx
      .updateTable("ordering_food")
      .set({
        reserve_status: AppointmentStatus.CANCELLED,
        updated_at: Date.now(),
      })
      .where("tenant_id", "=", order.tenantId)
      .where("order_id", "=", order.id)
      .where("reserve_status", "=", AppointmentStatus.RESERVED)
      .execute();
  },
};

export const bookingServices: Record<string, ResourceService> = {
  [resourceKey(appointmentPeriod)]: appointmentPeriodService,
  [resourceKey(appointmentDetail)]: appointmentDetailService,
  [resourceKey(appointmentDetailForOrder)]: appointmentDetailForOrderService,
  [resourceKey(orderingPlan)]: orderingPlanService,
  [resourceKey(orderingFood)]: orderingFoodService,
};

// ---- Endpoints ------------------------------------------------------------------------------------------------

const session = (ctx: unknown) => ctx as SessionContext;
const byId = z.strictObject({ id: recordId("预订", "请选择预订") });

export const bookingEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/orderingFood/create",
    replacesGenerated: true,
    resource: "zhct/orderingFood",
    summary: "预订特色菜：{ planId, userInfoId, orderDate, quantity, remark } → 预订；计划为预订时支付则经支付服务扣款（点餐订单，支持 Idempotency-Key）；截止时间后或超出每日限量为 409",
    access: permission(permissionCode(orderingFood, "create")),
    body: createSchema(orderingFood),
    handle: (ctx, { body }) => reserve(session(ctx), body as Row),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/orderingFood/pickUp",
    summary: "取餐（仅取餐当天）：取餐时支付的计划此时经支付服务扣款；支持 Idempotency-Key",
    access: permission(permissionCode(orderingFood, "pickUp")),
    body: byId,
    handle: (ctx, { body }) => pickUp(session(ctx), body.id as number),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/orderingFood/cancel",
    summary: "取消预订（截止时间前）：已支付的取消其订单，按原支付账户原路退回；支持 Idempotency-Key",
    access: permission(permissionCode(orderingFood, "cancel")),
    body: byId,
    handle: (ctx, { body }) => cancelReservation(session(ctx), body.id as number),
  }),
];
