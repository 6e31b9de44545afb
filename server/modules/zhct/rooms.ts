import type { Kysely } from "kysely";
import { permissionCode, resourceKey, type FieldDef, type ResourceDef } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { room, roomReservation, userAccountTable, userPlate } from "../../../resources/zhct/rooms";
import { newId } from "../../db";
import { isUniqueViolation } from "../../db/faults";
import { runPrepared } from "../../db/prepared";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { checkRelations, db, getInfo, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import { runResourceStep } from "../../kernel/transitions";
import { catalogueMessages } from "./catalogue";
import { dayOf } from "./months";
import { paymentMessages, type PaymentHooks } from "./payments";

/**
 * Rooms, their reservations, and the bindings of diners to tables and chip plates (issue 14 part C, decision 028).
 * A reservation is checked against the room's other reservations of the day while the room's row is locked, so two
 * clerks booking one room at once cannot both win. Bindings are written by devices through the endpoints below; a
 * paid order releases the diner's plates for that meal and is noted on the diner's table.
 */

export const roomMessages = {
  pastDate: "预约日期不能早于今天",
  roomDisabled: (room: string) => `包间「${room}」已停用，不能预约`,
  overCapacity: (attendees: number, room: string, capacity: number) => `就餐人数 ${attendees} 人超过包间「${room}」的容纳人数 ${capacity} 人`,
  capacityBelowBooked: (date: string, organizer: string, attendees: number) =>
    `${date}「${organizer}」的预约有 ${attendees} 人，容纳人数不能少于 ${attendees} 人（请先调整或取消该预约）`,
  conflict: (room: string, date: string, organizer: string, begin: string, end: string) =>
    `包间「${room}」${date} ${begin}–${end} 已被「${organizer}」预约，与所选时段冲突`,
  plateHeld: (plateNo: string, holder: string, code: string | null) => `餐盘 ${plateNo} 已绑定给「${holder}」${code ? `（${code}）` : ""}，请先解绑`,
  plateFree: (plateNo: string) => `餐盘 ${plateNo} 当前没有绑定`,
  tableFree: (tableNo: string) => `餐桌 ${tableNo} 当前没有绑定中的就餐人员`,
  releaseWhat: "请指定要解绑的绑定记录（id）或餐盘号/桌号",
  releaseEither: "按绑定记录（id）解绑时不要同时指定餐盘、餐桌或人员",
  seatRace: "该人员正在其他设备上绑定餐桌，请重试",
  whoBinds: "请刷卡或选择就餐人员",
  dinerDisabled: "人员已禁用，不能绑定",
  dinerFrozen: "人员已冻结，不能绑定",
};

/** Dictionary appointmentStatus (spec §3): 1 已预约, 0 已取消, 2 已完成. */
export const ReservationStatus = { CANCELLED: 0, RESERVED: 1, COMPLETED: 2 } as const;
/** Dictionary bindStatus. */
export const BindStatus = { RELEASED: 0, BOUND: 1 } as const;

// The engine hands its hooks an untyped transaction (it serves every table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

// ---- Reservations ---------------------------------------------------------------------------------------------

/** What a reservation's time on the room depends on: a change of any of these is checked again. */
const SCHEDULE = ["room_id", "reserve_date", "begin_time", "end_time", "attendees"] as const;

function checkTimes(record: Row) {
  if (String(record.endTime) <= String(record.beginTime)) throw fieldError("endTime", catalogueMessages.timeOrder);
}

/**
 * Checks a reservation as written, inside its transaction: the room's row is locked (PostgreSQL; SQLite's writer
 * already holds the database), so of two overlapping reservations racing, the second sees the first once it
 * commits. A cancelled reservation holds no time; half-open ranges let one meal begin when the other ends.
 */
async function checkSchedule(ctx: SessionContext, trx: AnyTrx, row: Row, previous: Row | null) {
  const status = Number(row.reserve_status);
  if (status === ReservationStatus.CANCELLED) return;
  const revived = previous !== null && Number(previous.reserve_status) === ReservationStatus.CANCELLED;
  if (previous && !revived && SCHEDULE.every((c) => row[c] === previous[c])) return;
  const tenantId = ctx.session.tenantId;
  let roomQuery = trx.selectFrom("room").select(["room_name", "capacity", "status"]).where("tenant_id", "=", tenantId).where("id", "=", row.room_id);
  // NO KEY UPDATE: the reservation's foreign key already holds KEY SHARE on this row, which FOR UPDATE would wait on
  // (two bookings would deadlock); NO KEY UPDATE queues bookings behind each other and leaves the key share alone.
  if (ctx.services.dialect === "postgres") roomQuery = roomQuery.forNoKeyUpdate();
  const room = await roomQuery.executeTakeFirstOrThrow();
  if (Number(room.status) !== 1 && (!previous || revived || previous.room_id !== row.room_id)) throw fieldError("roomId", roomMessages.roomDisabled(room.room_name));
  if (status === ReservationStatus.RESERVED && String(row.reserve_date) < dayOf(ctx.now)) throw fieldError("reserveDate", roomMessages.pastDate);
  if (Number(row.attendees) > Number(room.capacity)) throw fieldError("attendees", roomMessages.overCapacity(Number(row.attendees), room.room_name, Number(room.capacity)));
  const other = await trx
    .selectFrom("room_reservation")
    .select(["organizer", "begin_time", "end_time"])
    .where("tenant_id", "=", tenantId)
    .where("room_id", "=", row.room_id)
    .where("reserve_date", "=", row.reserve_date)
    .where("id", "!=", row.id)
    .where("reserve_status", "!=", ReservationStatus.CANCELLED)
    .where("begin_time", "<", row.end_time)
    .where("end_time", ">", row.begin_time)
    .orderBy("begin_time")
    .executeTakeFirst();
  if (other) throw fieldError("beginTime", roomMessages.conflict(room.room_name, String(row.reserve_date), other.organizer, other.begin_time, other.end_time));
}

export const roomReservationService: ResourceService = {
  beforeCreate: (_ctx, values) => checkTimes(values),
  beforeUpdate: (_ctx, values, current) => checkTimes(nextRecord(roomReservation, values, current)),
  afterCreate: (ctx, trx, row) => checkSchedule(ctx, trx, row, null),
  afterUpdate: (ctx, trx, row, current) => checkSchedule(ctx, trx, row, current),
};

// ---- Bindings: who is who ------------------------------------------------------------------------------------

const CardStatus = { NORMAL: 1, LOST: 2 } as const;

/** The diner a device names, by card (normal, of the tenant) or by id; disabled and frozen diners are refused. */
async function dinerOf(ctx: SessionContext, input: DeviceBinding) {
  const tenantId = ctx.session.tenantId;
  let userInfoId = input.userInfoId ?? null;
  if (input.cardNo) {
    const card = await ctx.services.db.selectFrom("user_ic_card").select(["user_info_id", "card_status"]).where("tenant_id", "=", tenantId).where("card_no", "=", input.cardNo).executeTakeFirst();
    if (!card) throw new ApiError(Status.CONFLICT, paymentMessages.cardMissing);
    if (Number(card.card_status) === CardStatus.LOST) throw new ApiError(Status.CONFLICT, paymentMessages.cardLost);
    if (Number(card.card_status) !== CardStatus.NORMAL) throw new ApiError(Status.CONFLICT, paymentMessages.cardInvalid);
    if (userInfoId !== null && userInfoId !== card.user_info_id) throw new ApiError(Status.CONFLICT, paymentMessages.cardOtherDiner);
    userInfoId = card.user_info_id;
  }
  if (userInfoId === null) throw fieldError("cardNo", roomMessages.whoBinds);
  const diner = await ctx.services.db.selectFrom("user_info").select(["id", "user_status"]).where("tenant_id", "=", tenantId).where("id", "=", userInfoId).executeTakeFirst();
  if (!diner) throw fieldError("userInfoId", paymentMessages.dinerMissing);
  if (Number(diner.user_status) === 2) throw new ApiError(Status.CONFLICT, roomMessages.dinerDisabled);
  if (Number(diner.user_status) === 3) throw new ApiError(Status.CONFLICT, roomMessages.dinerFrozen);
  return diner.id;
}

const audit = (ctx: SessionContext) => ({ created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId });
const releasedNow = (ctx: SessionContext) => ({ bind_status: BindStatus.RELEASED, released_at: ctx.now, updated_at: ctx.now, updated_by: ctx.session.userId });

/** Releases one binding still bound (a device or a clerk by its id): its declared step; a second release of it is refused. */
async function releaseById(ctx: SessionContext, def: ResourceDef, id: number) {
  await db(ctx)
    .transaction()
    .execute((trx) => runResourceStep(trx, ctx, def, "release", { id, set: { released_at: ctx.now } }));
  return getInfo(ctx, def, id, findResource);
}

// ---- Plates ---------------------------------------------------------------------------------------------------

/** The holder of a plate now, named for the refusal. */
async function plateHolder(db: AnyTrx, tenantId: number, plateNo: string) {
  return db
    .selectFrom("user_plate as p")
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "p.tenant_id").onRef("u.id", "=", "p.user_info_id"))
    .select(["p.id", "p.user_info_id", "u.user_name", "u.user_code"])
    .where("p.tenant_id", "=", tenantId)
    .where("p.plate_no", "=", plateNo)
    .where("p.bind_status", "=", BindStatus.BOUND)
    .executeTakeFirst();
}

/** What a device sends about the diner it binds: their card, or their id. */
interface DeviceBinding {
  cardNo?: string | null;
  userInfoId?: number | null;
  deviceCode?: string | null;
}

export interface PlateBinding extends DeviceBinding {
  plateNo: string;
  mealTimesId?: number | null;
}

/**
 * Binds a plate to a diner for today's meal (China time). A plate another diner holds is refused, naming them; the
 * same diner binding it again (a device retrying) gets the binding they have. Two devices binding one plate at once:
 * the partial unique index (one bound row per plate) lets one insert through and the other is refused as above.
 */
export async function bindPlate(ctx: SessionContext, input: PlateBinding) {
  const tenantId = ctx.session.tenantId;
  const userInfoId = await dinerOf(ctx, input);
  await checkRelations(ctx, userPlate, { userInfoId, mealTimesId: input.mealTimesId ?? null });
  const refuse = (holder: { user_name: string; user_code: string | null }) => new ApiError(Status.CONFLICT, roomMessages.plateHeld(input.plateNo, holder.user_name, holder.user_code));
  const held = await plateHolder(db(ctx), tenantId, input.plateNo);
  if (held && held.user_info_id === userInfoId) return getInfo(ctx, userPlate, held.id, findResource);
  if (held) throw refuse(held);
  const id = newId();
  try {
    await ctx.services.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("user_plate")
        .values({ tenant_id: tenantId, id, plate_no: input.plateNo, user_info_id: userInfoId, bind_date: dayOf(ctx.now), meal_times_id: input.mealTimesId ?? null, bound_at: ctx.now, released_at: null, order_id: null, bind_status: BindStatus.BOUND, device_code: input.deviceCode ?? null, ...audit(ctx) })
        .execute();
      await recordOperation(trx, ctx, userPlate, id, "bind", { plateNo: input.plateNo, userInfoId });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await plateHolder(db(ctx), tenantId, input.plateNo);
    if (winner && winner.user_info_id === userInfoId) return getInfo(ctx, userPlate, winner.id, findResource);
    throw winner ? refuse(winner) : new ApiError(Status.CONFLICT, roomMessages.plateFree(input.plateNo));
  }
  return getInfo(ctx, userPlate, id, findResource);
}

export async function releasePlate(ctx: SessionContext, input: { id?: number | null; plateNo?: string | null }) {
  if (input.id && input.plateNo) throw fieldError("id", roomMessages.releaseEither);
  if (input.id) return releaseById(ctx, userPlate, input.id);
  if (!input.plateNo) throw fieldError("plateNo", roomMessages.releaseWhat);
  const held = await plateHolder(db(ctx), ctx.session.tenantId, input.plateNo);
  if (!held) throw new ApiError(Status.CONFLICT, roomMessages.plateFree(input.plateNo));
  return releaseById(ctx, userPlate, held.id);
}

// ---- Tables ---------------------------------------------------------------------------------------------------

export interface TableBinding extends DeviceBinding {
  restaurantId: number;
  tableNo: string;
}

/**
 * Seats a diner at a table. A diner sits at one table at a time: binding at another table releases the one they had
 * (they moved), binding again at the same table gives the binding they have. The diner's row is locked (PostgreSQL)
 * so two devices seating one diner at once run one after the other; a partial unique index backs it.
 */
export async function bindTable(ctx: SessionContext, input: TableBinding) {
  const tenantId = ctx.session.tenantId;
  const userInfoId = await dinerOf(ctx, input);
  await checkRelations(ctx, userAccountTable, { restaurantId: input.restaurantId, userInfoId });
  try {
    const id = await ctx.services.db.transaction().execute(async (trx) => {
      if (ctx.services.dialect === "postgres") await trx.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where("id", "=", userInfoId).forUpdate().execute();
      const seat = await trx
        .selectFrom("user_account_table")
        .select(["id", "restaurant_id", "table_no"])
        .where("tenant_id", "=", tenantId)
        .where("user_info_id", "=", userInfoId)
        .where("bind_status", "=", BindStatus.BOUND)
        .executeTakeFirst();
      if (seat && seat.restaurant_id === input.restaurantId && seat.table_no === input.tableNo) return seat.id;
      if (seat) {
        await trx.updateTable("user_account_table").set(releasedNow(ctx)).where("tenant_id", "=", tenantId).where("id", "=", seat.id).execute();
        await recordOperation(trx, ctx, userAccountTable, seat.id, "release", { bindStatus: [String(BindStatus.BOUND), String(BindStatus.RELEASED)], movedTo: input.tableNo });
      }
      const newSeat = newId();
      await trx
        .insertInto("user_account_table")
        .values({ tenant_id: tenantId, id: newSeat, table_no: input.tableNo, restaurant_id: input.restaurantId, user_info_id: userInfoId, bind_date: dayOf(ctx.now), bound_at: ctx.now, released_at: null, order_id: null, bind_status: BindStatus.BOUND, device_code: input.deviceCode ?? null, ...audit(ctx) })
        .execute();
      await recordOperation(trx, ctx, userAccountTable, newSeat, "bind", { tableNo: input.tableNo, restaurantId: input.restaurantId, userInfoId });
      return newSeat;
    });
    return getInfo(ctx, userAccountTable, id, findResource);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(Status.CONFLICT, roomMessages.seatRace);
    throw error;
  }
}

/**
 * Releases by the binding's id, or everyone at a table (the device clears it), or one diner at a table. Nothing
 * bound there is refused.
 */
export async function releaseTable(ctx: SessionContext, input: { id?: number | null; restaurantId?: number | null; tableNo?: string | null; cardNo?: string | null; userInfoId?: number | null }) {
  // A binding named by its id is released as it is; other names beside it would be read as a second, unchecked wish.
  if (input.id && (input.restaurantId || input.tableNo || input.cardNo || input.userInfoId)) throw fieldError("id", roomMessages.releaseEither);
  if (input.id) return { released: [await releaseById(ctx, userAccountTable, input.id)] };
  if (!input.restaurantId || !input.tableNo) throw fieldError("tableNo", roomMessages.releaseWhat);
  const tenantId = ctx.session.tenantId;
  const userInfoId = input.cardNo || input.userInfoId ? await dinerOf(ctx, input) : null;
  const ids = await ctx.services.db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable("user_account_table")
      .set(releasedNow(ctx))
      .where("tenant_id", "=", tenantId)
      .where("restaurant_id", "=", input.restaurantId as number)
      .where("table_no", "=", input.tableNo as string)
      .where("bind_status", "=", BindStatus.BOUND);
    if (userInfoId !== null) query = query.where("user_info_id", "=", userInfoId);
    const rows = await query.returning("id").execute();
    if (!rows.length) throw new ApiError(Status.CONFLICT, roomMessages.tableFree(input.tableNo as string));
    for (const row of rows) await recordOperation(trx, ctx, userAccountTable, row.id, "release", { bindStatus: [String(BindStatus.BOUND), String(BindStatus.RELEASED)] });
    return rows.map((r) => r.id);
  });
  return { released: await Promise.all(ids.map((id) => getInfo(ctx, userAccountTable, id, findResource))) };
}

// ---- Settled by a payment -------------------------------------------------------------------------------------

/**
 * A paid order settles the diner's meal: their plates bound for it today are released, naming the order (a plate
 * bound for a meal time only by an order of that meal time; one bound without a meal time by any order of the day),
 * and the table they sit at notes the order if it has none yet. Inside the payment's transaction, so a refused
 * payment releases nothing.
 */
/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const roomPaymentHooks: PaymentHooks = {
  async afterPay(trx, order) {
    const at = Date.now();
    const { mealTimesId, restaurantId } = order;
    // Compiled once per shape (with or without a meal time, a restaurant): every payment runs both.
    await runPrepared(trx, `release plates${mealTimesId === null ? "" : " of meal time"}`, [order.id, at, order.tenantId, order.userInfoId, order.orderDate, ...(mealTimesId === null ? [] : [mealTimesId])], ([orderId, time, tenantId, userInfoId, orderDate, mealTime]) =>
      trx
        .updateTable("user_plate")
        .set({ order_id: orderId as number, updated_at: time as number, bind_status: BindStatus.RELEASED, released_at: time as number })
        .where("tenant_id", "=", tenantId as number)
        .where("user_info_id", "=", userInfoId as number)
        .where("bind_status", "=", BindStatus.BOUND)
        .where("bind_date", "=", orderDate as string)
        .where((eb) => (mealTimesId === null ? eb("meal_times_id", "is", null) : eb.or([eb("meal_times_id", "is", null), eb("meal_times_id", "=", mealTime as number)]))),
    );
    await runPrepared(trx, `note seat order${restaurantId === null ? "" : " at restaurant"}`, [order.id, at, order.tenantId, order.userInfoId, ...(restaurantId === null ? [] : [restaurantId])], ([orderId, time, tenantId, userInfoId, restaurant]) => {
      const seat = trx
        .updateTable("user_account_table")
        .set({ order_id: orderId as number, updated_at: time as number })
        .where("tenant_id", "=", tenantId as number)
        .where("user_info_id", "=", userInfoId as number)
        .where("bind_status", "=", BindStatus.BOUND)
        .where("order_id", "is", null);
      return restaurantId === null ? seat : seat.where("restaurant_id", "=", restaurant as number);
    });
  },
};

/**
 * A room's capacity may not fall below a reservation still to come: the largest of them is named. The UPDATE has
 * locked the room's row, and a reservation checks the capacity under that lock, so none slips in between.
 */
export const roomService: ResourceService = {
  async afterUpdate(ctx, trx, row, current) {
    if (Number(row.capacity) >= Number(current.capacity)) return;
    const largest = await trx
      .selectFrom("room_reservation")
      .select(["reserve_date", "organizer", "attendees"])
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("room_id", "=", row.id)
      .where("reserve_status", "=", ReservationStatus.RESERVED)
      .where("reserve_date", ">=", dayOf(ctx.now))
      .where("attendees", ">", row.capacity)
      .orderBy("attendees", "desc")
      .orderBy("reserve_date")
      .executeTakeFirst();
    if (largest) throw fieldError("capacity", roomMessages.capacityBelowBooked(String(largest.reserve_date), String(largest.organizer), Number(largest.attendees)));
  },
};

export const roomServices: Record<string, ResourceService> = {
  [resourceKey(room)]: roomService,
  [resourceKey(roomReservation)]: roomReservationService,
};

// ---- Endpoints ------------------------------------------------------------------------------------------------

const session = (ctx: unknown) => ctx as SessionContext;
const declared = (def: ResourceDef, name: string, required = false) => fieldSchema({ ...(def.fields.find((f) => f.name === name) as FieldDef), required }, false);
const plateNo = (required: boolean) =>
  fieldSchema({ name: "plateNo", label: "餐盘号", type: "text", max: 32, required, pattern: { regex: /^[0-9A-Za-z-]+$/, message: "餐盘号只能包含字母、数字和 -" } }, false).transform((v) =>
    typeof v === "string" ? v.toUpperCase() : v,
  );
const who = {
  cardNo: fieldSchema({ name: "cardNo", label: "卡号", type: "text", max: 32 }, false),
  userInfoId: fieldSchema({ name: "userInfoId", label: "就餐人员", type: "relation", min: 1 }, false),
};
const optionalId = fieldSchema({ name: "id", label: "绑定记录", type: "relation", min: 1 }, false);

export const roomEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userPlate/bind",
    summary: "餐盘绑定（入口设备）：{ plateNo, cardNo 或 userInfoId, mealTimesId?, deviceCode? } → 绑定记录；餐盘已被他人绑定时 409 并说明绑定人",
    access: permission(permissionCode(userPlate, "bind")),
    body: z.strictObject({ plateNo: plateNo(true), ...who, mealTimesId: declared(userPlate, "mealTimesId"), deviceCode: declared(userPlate, "deviceCode") }),
    handle: (ctx, { body }) => bindPlate(session(ctx), body as unknown as PlateBinding),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userPlate/release",
    summary: "餐盘解绑：{ id } 或 { plateNo }；本餐订单支付后会自动解绑",
    access: permission(permissionCode(userPlate, "release")),
    body: z.strictObject({ id: optionalId, plateNo: plateNo(false) }),
    handle: (ctx, { body }) => releasePlate(session(ctx), body as { id?: number | null; plateNo?: string | null }),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userAccountTable/bind",
    summary: "餐桌绑定（餐桌设备）：{ restaurantId, tableNo, cardNo 或 userInfoId, deviceCode? } → 绑定记录；换桌时原餐桌自动解绑",
    access: permission(permissionCode(userAccountTable, "bind")),
    body: z.strictObject({ restaurantId: declared(userAccountTable, "restaurantId", true), tableNo: declared(userAccountTable, "tableNo", true), ...who, deviceCode: declared(userAccountTable, "deviceCode") }),
    handle: (ctx, { body }) => bindTable(session(ctx), body as unknown as TableBinding),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userAccountTable/release",
    summary: "餐桌解绑：{ id }，或 { restaurantId, tableNo }（清台：该桌全部解绑），或再加 cardNo/userInfoId（该人员离桌）",
    access: permission(permissionCode(userAccountTable, "release")),
    body: z.strictObject({ id: optionalId, restaurantId: declared(userAccountTable, "restaurantId"), tableNo: declared(userAccountTable, "tableNo"), ...who }),
    handle: (ctx, { body }) => releaseTable(session(ctx), body as Parameters<typeof releaseTable>[1]),
  }),
];
