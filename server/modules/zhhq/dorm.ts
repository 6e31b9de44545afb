import type { Kysely } from "kysely";
import { permissionCode, resourceKey, type FieldDef } from "../../../resources/define";
import { dormitory, meterReading, roomType, userDormitory, waterElectricMonth } from "../../../resources/zhhq/dorm";
import { thousandthsToQuantity } from "../../../resources/quantity";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { idempotent } from "../../kernel/idempotency";
import { assertStepFrom, runResourceStep } from "../../kernel/transitions";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import type { ResourceService } from "../resource/engine";
import { declaredDefaults } from "../resource/declaredDefaults";
import type { Row } from "../resource/rows";
import { BusiType, lockDiner, PAY_FLAG_AUTO, post, type Trx } from "../zhct/ledger";

/**
 * The dormitory's rules (issue 36, decision 074). Checks that compare a row with others run inside the write's
 * transaction after the row is written, with the room's row locked first (PostgreSQL; SQLite's writer holds the whole
 * database already): of two check-ins racing for one bed the second waits for the first and then sees it.
 */

export const dormMessages = {
  bedTaken: (name: string) => `该床位已有人员入住（${name}），请先办理退宿`,
  bedOutOfRoom: (beds: number) => `床位号不能大于房间的床位数 ${beds}`,
  roomFull: (beds: number) => `该房间 ${beds} 个床位已住满`,
  roomClosed: "该房间已停用，不能入住",
  alreadyLiving: (room: string) => `该人员已在 ${room} 入住，请先办理退宿`,
  gender: (rule: string) => `该房间限${rule}性入住，人员性别不符`,
  genderUnknown: (rule: string) => `该房间限${rule}性入住，请先在人员资料中登记性别`,
  checkInBeforeLeave: (day: string) => `该床位上一位人员 ${day} 退宿，入住日期不能早于该日期`,
  checkOutBeforeIn: (day: string) => `退宿日期不能早于入住日期 ${day}`,
  bedsBelowResidents: (count: number) => `该房间现有 ${count} 人在住，床位数不能少于在住人数`,
  bedsBelowBed: (bed: number) => `该房间 ${bed} 号床有人在住，床位数不能小于 ${bed}`,
  bedsMissing: "请输入床位数（或选择房间类型）",
  roomInUse: "该房间仍有住宿记录、抄表或账单，不能删除",
  lower: (previous: string) => `本次读数不能小于上次读数 ${previous}；如已换表，请勾选“换表”并填写新表起始读数`,
  startMissing: "换表时请输入新表起始读数",
  startAbove: "新表起始读数不能大于本次读数",
  readingLater: "该表之后的月份已有读数，只能删除最近一次读数",
  readingBilled: "该月已生成水电账单，请先删除账单再删除读数",
  readingMissing: (meter: string, month: string) => `该房间 ${month} 尚未录入${meter}读数，请先抄表`,
  priceMissing: (code: string, name: string) => `请先在 系统参数 中设置 ${code}（${name}，元）`,
  billPaid: "已扣费的账单不能删除",
  noResidents: "该账单没有需要扣费的住宿人员",
};

/** Tenant parameters (sys/parameterConfig): the unit prices in 元 per m³ and per kWh. */
export const WATER_PRICE_CODE = "zhhq.dorm.waterPrice";
export const ELECTRIC_PRICE_CODE = "zhhq.dorm.electricPrice";

// The engine hands its hooks an untyped transaction (it serves every table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

const GENDER_OF_SEX: Record<string, string> = { "1": "male", "0": "female" };
const GENDER_NAME: Record<string, string> = { male: "男", female: "女" };

/** Locks the room's row to the end of the transaction (PostgreSQL); SQLite's writer already holds the database. */
async function lockRoom(ctx: SessionContext, trx: AnyTrx, dormitoryId: unknown) {
  const query = trx.selectFrom("dormitory").selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", dormitoryId);
  return (await (ctx.services.dialect === "postgres" ? query.forNoKeyUpdate() : query).executeTakeFirst()) as Row;
}

/** What a room allows: its beds and gender, or its type's. */
async function roomRules(trx: AnyTrx, tenantId: number, room: Row): Promise<{ beds: number; gender: string }> {
  const type = room.room_type_id
    ? ((await trx.selectFrom("room_type").select(["beds", "gender_rule"]).where("tenant_id", "=", tenantId).where("id", "=", room.room_type_id).executeTakeFirst()) as Row | undefined)
    : undefined;
  return { beds: Number(room.beds ?? type?.beds ?? 0), gender: String(room.gender ?? type?.gender_rule ?? "any") };
}

const roomName = (room: Row) => `${room.building} ${room.room_no}`;

/** A check-in (the create of a 在住 row): the bed is in the room and free, the room open and not full, the gender fits, the person lives nowhere else. */
async function checkIn(ctx: SessionContext, trx: AnyTrx, row: Row) {
  const tenantId = ctx.session.tenantId;
  const room = await lockRoom(ctx, trx, row.dormitory_id);
  if (String(room.status) === "0") throw fieldError("dormitoryId", dormMessages.roomClosed);
  const { beds, gender } = await roomRules(trx, tenantId, room);
  const bedNo = Number(row.bed_no);
  if (bedNo > beds) throw fieldError("bedNo", dormMessages.bedOutOfRoom(beds));
  const living = await trx
    .selectFrom("user_dormitory")
    .innerJoin("user_info", (join) => join.onRef("user_info.tenant_id", "=", "user_dormitory.tenant_id").onRef("user_info.id", "=", "user_dormitory.user_info_id"))
    .select(["user_dormitory.id", "user_dormitory.bed_no", "user_info.user_name"])
    .where("user_dormitory.tenant_id", "=", tenantId)
    .where("user_dormitory.dormitory_id", "=", row.dormitory_id)
    .where("user_dormitory.live_status", "=", 1)
    .where("user_dormitory.id", "!=", row.id)
    .execute();
  const onBed = living.find((r) => Number(r.bed_no) === bedNo);
  if (onBed) throw fieldError("bedNo", dormMessages.bedTaken(String(onBed.user_name)));
  if (living.length >= beds) throw fieldError("bedNo", dormMessages.roomFull(beds));
  const lastLeave = await trx
    .selectFrom("user_dormitory")
    .select((eb) => eb.fn.max("check_out_date").as("day"))
    .where("tenant_id", "=", tenantId)
    .where("dormitory_id", "=", row.dormitory_id)
    .where("bed_no", "=", bedNo)
    .where("live_status", "=", 2)
    .executeTakeFirst();
  if (lastLeave?.day && String(lastLeave.day) > String(row.check_in_date)) throw fieldError("checkInDate", dormMessages.checkInBeforeLeave(String(lastLeave.day)));
  const person = (await trx.selectFrom("user_info").select(["sex"]).where("tenant_id", "=", tenantId).where("id", "=", row.user_info_id).executeTakeFirst()) as Row;
  if (gender !== "any") {
    const sex = person.sex === null || person.sex === undefined ? undefined : GENDER_OF_SEX[String(person.sex)];
    if (!sex) throw fieldError("userInfoId", dormMessages.genderUnknown(GENDER_NAME[gender] ?? gender));
    if (sex !== gender) throw fieldError("userInfoId", dormMessages.gender(GENDER_NAME[gender] ?? gender));
  }
  const elsewhere = await trx
    .selectFrom("user_dormitory")
    .innerJoin("dormitory", (join) => join.onRef("dormitory.tenant_id", "=", "user_dormitory.tenant_id").onRef("dormitory.id", "=", "user_dormitory.dormitory_id"))
    .select(["dormitory.building", "dormitory.room_no"])
    .where("user_dormitory.tenant_id", "=", tenantId)
    .where("user_dormitory.user_info_id", "=", row.user_info_id)
    .where("user_dormitory.live_status", "=", 1)
    .where("user_dormitory.id", "!=", row.id)
    .executeTakeFirst();
  if (elsewhere) throw fieldError("userInfoId", dormMessages.alreadyLiving(roomName(elsewhere as Row)));
}

/** A room's beds may not go below a bed someone lives in. */
async function checkRoomBeds(ctx: SessionContext, trx: AnyTrx, room: Row) {
  const { beds } = await roomRules(trx, ctx.session.tenantId, room);
  if (!beds) throw fieldError("beds", dormMessages.bedsMissing);
  const top = await trx
    .selectFrom("user_dormitory")
    .select((eb) => [eb.fn.max("bed_no").as("bed"), eb.fn.countAll().as("count")])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("dormitory_id", "=", room.id)
    .where("live_status", "=", 1)
    .executeTakeFirst();
  if (top && Number(top.bed) > beds) throw fieldError("beds", dormMessages.bedsBelowBed(Number(top.bed)));
}

async function refuseRoomInUse(ctx: SessionContext, trx: AnyTrx, current: Row) {
  for (const table of ["user_dormitory", "meter_reading", "water_electric_month"]) {
    const used = await trx.selectFrom(table).select("id").where("tenant_id", "=", ctx.session.tenantId).where("dormitory_id", "=", current.id).limit(1).executeTakeFirst();
    if (used) throw new ApiError(Status.CONFLICT, dormMessages.roomInUse);
  }
}

const q = (thousandths: number) => String(thousandthsToQuantity(thousandths));

/**
 * A reading's previous is the meter's last reading before its month; used is this − previous, or this − the new
 * meter's start when the meter was changed. Counted in the create's transaction, with the room locked.
 */
async function fillReading(ctx: SessionContext, trx: AnyTrx, row: Row) {
  const tenantId = ctx.session.tenantId;
  await lockRoom(ctx, trx, row.dormitory_id);
  const last = (await trx
    .selectFrom("meter_reading")
    .select(["current_reading", "month"])
    .where("tenant_id", "=", tenantId)
    .where("dormitory_id", "=", row.dormitory_id)
    .where("meter_type", "=", row.meter_type)
    .where("id", "!=", row.id)
    .where("month", "<", row.month)
    .orderBy("month", "desc")
    .limit(1)
    .executeTakeFirst()) as Row | undefined;
  const later = await trx
    .selectFrom("meter_reading")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("dormitory_id", "=", row.dormitory_id)
    .where("meter_type", "=", row.meter_type)
    .where("month", ">", row.month)
    .limit(1)
    .executeTakeFirst();
  if (later) throw fieldError("month", dormMessages.readingLater);
  const previous = Number(last?.current_reading ?? 0);
  const current = Number(row.current_reading);
  let used: number;
  if (row.meter_changed === true || row.meter_changed === 1) {
    if (row.start_reading === null || row.start_reading === undefined) throw fieldError("startReading", dormMessages.startMissing);
    if (Number(row.start_reading) > current) throw fieldError("startReading", dormMessages.startAbove);
    used = current - Number(row.start_reading);
  } else {
    if (current < previous) throw fieldError("currentReading", dormMessages.lower(q(previous)));
    used = current - previous;
  }
  await trx.updateTable("meter_reading").set({ previous_reading: previous, used }).where("tenant_id", "=", tenantId).where("id", "=", row.id).execute();
}

async function refuseReadingDelete(ctx: SessionContext, trx: AnyTrx, current: Row) {
  const tenantId = ctx.session.tenantId;
  const later = await trx
    .selectFrom("meter_reading")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("dormitory_id", "=", current.dormitory_id)
    .where("meter_type", "=", current.meter_type)
    .where("month", ">", current.month)
    .limit(1)
    .executeTakeFirst();
  if (later) throw new ApiError(Status.CONFLICT, dormMessages.readingLater);
  const billed = await trx.selectFrom("water_electric_month").select("id").where("tenant_id", "=", tenantId).where("dormitory_id", "=", current.dormitory_id).where("month", "=", current.month).executeTakeFirst();
  if (billed) throw new ApiError(Status.CONFLICT, dormMessages.readingBilled);
}

// ---- The month's bill --------------------------------------------------------------------------------------------

/**
 * Splits `total` fen by weights to the fen: each gets the floor of its exact part, and the fen left over go one each
 * to the largest remainders (ties to the earlier weight). The parts add up to the total; a zero weight gets nothing.
 */
export function splitByLargestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  const remainders = weights.map((w, i) => ({ i, r: (total * w) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0);
  remainders.sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of remainders) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

const DAY = 86_400_000;
const dayNo = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY;
/** A month's first day and the day after its last, as day numbers. */
export function monthDays(month: string): { first: number; next: number } {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return { first: Date.UTC(y, m - 1, 1) / DAY, next: Date.UTC(y, m, 1) / DAY };
}

/** Days a stay lived in the month: from check-in, up to but not including the check-out day (or the month's end). */
export function daysLived(month: string, checkIn: string, checkOut: string | null): number {
  const { first, next } = monthDays(month);
  const from = Math.max(first, dayNo(checkIn));
  const to = Math.min(next, checkOut ? dayNo(checkOut) : next);
  return Math.max(0, to - from);
}

async function priceOf(trx: AnyTrx, tenantId: number, code: string, name: string): Promise<number> {
  const row = await trx.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", code).executeTakeFirst();
  const text = String(row?.param_value ?? "").trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) throw new ApiError(Status.CONFLICT, dormMessages.priceMissing(code, name));
  return Math.round(Number(text) * 100);
}

/** Makes a bill's amounts and its residents' shares, in the create's transaction (the room locked). */
async function fillBill(ctx: SessionContext, trx: AnyTrx, row: Row) {
  const tenantId = ctx.session.tenantId;
  const month = String(row.month);
  const room = await lockRoom(ctx, trx, row.dormitory_id);
  const usedOf = async (meter: "water" | "electric", name: string) => {
    const reading = await trx.selectFrom("meter_reading").select("used").where("tenant_id", "=", tenantId).where("dormitory_id", "=", row.dormitory_id).where("meter_type", "=", meter).where("month", "=", month).executeTakeFirst();
    if (!reading) throw fieldError("month", dormMessages.readingMissing(name, month));
    return Number(reading.used);
  };
  const waterUsed = await usedOf("water", "水表");
  const electricUsed = await usedOf("electric", "电表");
  const waterPrice = await priceOf(trx, tenantId, WATER_PRICE_CODE, "水费单价");
  const electricPrice = await priceOf(trx, tenantId, ELECTRIC_PRICE_CODE, "电费单价");
  // Thousandths × fen per unit, rounded half up to the fen.
  const waterAmount = Math.round((waterUsed * waterPrice) / 1000);
  const electricAmount = Math.round((electricUsed * electricPrice) / 1000);
  const type = room.room_type_id ? await trx.selectFrom("room_type").select("monthly_rent").where("tenant_id", "=", tenantId).where("id", "=", room.room_type_id).executeTakeFirst() : undefined;
  const rentAmount = Number(type?.monthly_rent ?? 0);
  const totalAmount = waterAmount + electricAmount + rentAmount;
  const { first, next } = monthDays(month);
  const stays = (await trx
    .selectFrom("user_dormitory")
    .select(["id", "user_info_id", "check_in_date", "check_out_date"])
    .where("tenant_id", "=", tenantId)
    .where("dormitory_id", "=", row.dormitory_id)
    .orderBy("check_in_date")
    .orderBy("id")
    .execute()) as Row[];
  // One share per person: a person who left and came back in the month has their days added.
  const days = new Map<number, number>();
  for (const stay of stays) {
    if (dayNo(String(stay.check_in_date)) >= next || (stay.check_out_date && dayNo(String(stay.check_out_date)) <= first)) continue;
    const lived = daysLived(month, String(stay.check_in_date), stay.check_out_date ? String(stay.check_out_date) : null);
    if (lived > 0) days.set(Number(stay.user_info_id), (days.get(Number(stay.user_info_id)) ?? 0) + lived);
  }
  const people = [...days.keys()];
  const amounts = splitByLargestRemainder(totalAmount, people.map((p) => days.get(p) as number));
  const residentDays = people.reduce((sum, p) => sum + (days.get(p) as number), 0);
  await trx
    .updateTable("water_electric_month")
    .set({ water_used: waterUsed, electric_used: electricUsed, water_price: waterPrice, electric_price: electricPrice, water_amount: waterAmount, electric_amount: electricAmount, rent_amount: rentAmount, total_amount: totalAmount, resident_days: residentDays, pay_status: 0 })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", row.id)
    .execute();
  const audit = { created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId };
  if (people.length) {
    await trx
      .insertInto("water_electric_share")
      .values(people.map((p, i) => ({ tenant_id: tenantId, id: newId(), bill_id: row.id, dormitory_id: row.dormitory_id, user_info_id: p, days: days.get(p), amount: amounts[i], share_status: 0, fail_reason: null, ledger_id: null, paid_at: null, ...audit })))
      .execute();
  }
}

async function refuseBillDelete(ctx: SessionContext, trx: AnyTrx, current: Row) {
  const paid = await trx.selectFrom("water_electric_share").select("id").where("tenant_id", "=", ctx.session.tenantId).where("bill_id", "=", current.id).where("share_status", "=", 1).limit(1).executeTakeFirst();
  if (String(current.pay_status) === "1" || paid) throw new ApiError(Status.CONFLICT, dormMessages.billPaid);
}

const yuan = (fen: number) => (fen / 100).toFixed(2);

/**
 * 从餐卡扣费: each share not yet paid is taken from its resident's cash account, one ledger line each (busiType 宿舍水电费,
 * the bill as its document). A resident whose balance is short is marked failed with the reason; the others pay.
 * All in one write transaction under the Idempotency-Key: a retry with the key gets the first answer; pressed again
 * with another key, only the shares still unpaid are taken, and a paid bill is refused (409). When every share is
 * paid the bill moves to 已缴 through its declared step.
 */
async function payBill(ctx: SessionContext, id: number, body: unknown) {
  const tenantId = ctx.session.tenantId;
  return idempotent(ctx, body, async (trx: Trx) => {
    const bill = (await trx.selectFrom("water_electric_month").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst()) as Row | undefined;
    if (!bill) throw new ApiError(Status.NOT_FOUND, waterElectricMonth.workflow.notFound);
    assertStepFrom(waterElectricMonth, "pay", bill);
    const shares = (await trx
      .selectFrom("water_electric_share")
      .innerJoin("user_info", (join) => join.onRef("user_info.tenant_id", "=", "water_electric_share.tenant_id").onRef("user_info.id", "=", "water_electric_share.user_info_id"))
      .select(["water_electric_share.id", "water_electric_share.user_info_id", "water_electric_share.amount", "water_electric_share.share_status", "user_info.user_name"])
      .where("water_electric_share.tenant_id", "=", tenantId)
      .where("water_electric_share.bill_id", "=", id)
      .orderBy("water_electric_share.id")
      .execute()) as Row[];
    if (!shares.length) throw new ApiError(Status.CONFLICT, dormMessages.noResidents);
    const paid: Array<{ userInfoId: number; userName: string; amount: number }> = [];
    const failed: Array<{ userInfoId: number; userName: string; amount: number; reason: string }> = [];
    for (const share of shares) {
      if (Number(share.share_status) === 1) continue;
      const userInfoId = Number(share.user_info_id);
      const amount = Number(share.amount);
      const who = { userInfoId, userName: String(share.user_name), amount };
      let ledgerId: number | null = null;
      let reason: string | null = null;
      if (amount > 0) {
        await lockDiner(trx, tenantId, userInfoId);
        const account = await trx.selectFrom("user_account").select("balance").where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId).where("account_type", "=", "cash").executeTakeFirst();
        if (!account) reason = "该人员没有现金账户";
        else if (Number(account.balance) < amount) reason = `余额不足（现金账户余额 ${yuan(Number(account.balance))} 元，应缴 ${yuan(amount)} 元）`;
        else {
          const line = await post(trx, {
            tenantId,
            userInfoId,
            accountType: "cash",
            amount: -amount,
            busiType: BusiType.DORM_FEE,
            payFlag: PAY_FLAG_AUTO,
            operatorId: ctx.session.userId,
            operatorName: ctx.session.userName,
            docType: "waterElectricMonth",
            docId: id,
            remark: `${bill.month} 宿舍水电费`,
            occurredAt: ctx.now,
          });
          ledgerId = line.id;
        }
      }
      // The share moves only from unpaid or failed: a share is never taken twice.
      const set = reason === null ? { share_status: 1, fail_reason: null, ledger_id: ledgerId, paid_at: ctx.now } : { share_status: 2, fail_reason: reason };
      const moved = await trx.updateTable("water_electric_share").set({ ...set, updated_at: ctx.now, updated_by: ctx.session.userId }).where("tenant_id", "=", tenantId).where("id", "=", share.id as number).where("share_status", "in", [0, 2]).executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, "账单已在扣费中，请刷新后再试");
      if (reason === null) paid.push(who);
      else failed.push({ ...who, reason });
    }
    const paidBefore = shares.filter((s) => Number(s.share_status) === 1).length;
    let payStatus = "0";
    if (!failed.length) {
      await runResourceStep(trx, ctx, waterElectricMonth, "pay", { id, set: { paid_at: ctx.now }, effect: async () => ({ paidCount: paid.length, paidAmount: paid.reduce((a, p) => a + p.amount, 0) }) });
      payStatus = "1";
    }
    return { id, payStatus, paidCount: paid.length, failedCount: failed.length, paidBefore, paid, failed };
  });
}

// ---- Check-out ---------------------------------------------------------------------------------------------------

const checkOutDateField = userDormitory.workflow.transitions[0].input[0] as FieldDef;
export const checkOutBody = z.strictObject({ id: recordId("住宿登记", "请选择住宿登记"), checkOutDate: fieldSchema(checkOutDateField, false) });

async function checkOut(ctx: SessionContext, input: z.output<typeof checkOutBody>) {
  const day = String(input.checkOutDate);
  await inWriteTransaction(ctx.services.db, ctx.services.dialect, (trx) =>
    runResourceStep(trx, ctx, userDormitory, "checkOut", {
      id: input.id,
      guard: (row) => {
        if (day < String(row.check_in_date)) throw fieldError("checkOutDate", dormMessages.checkOutBeforeIn(String(row.check_in_date)));
      },
      set: { check_out_date: day },
      effect: async () => ({ checkOutDate: day }),
    }),
  );
  return { id: input.id, liveStatus: "2", checkOutDate: day };
}

// ---- Services and endpoints ----------------------------------------------------------------------------------------

export const dormServices: Record<string, ResourceService> = {
  [resourceKey(roomType)]: {
    ...declaredDefaults(roomType),
    async onDelete(ctx, trx, current) {
      const used = await trx.selectFrom("dormitory").select("id").where("tenant_id", "=", ctx.session.tenantId).where("room_type_id", "=", current.id).limit(1).executeTakeFirst();
      if (used) throw new ApiError(Status.CONFLICT, "该房间类型仍被宿舍房间使用，不能删除");
    },
  },
  [resourceKey(dormitory)]: {
    ...declaredDefaults(dormitory),
    afterCreate: (ctx, trx, row) => checkRoomBeds(ctx, trx, row),
    afterUpdate: (ctx, trx, row) => checkRoomBeds(ctx, trx, row),
    onDelete: refuseRoomInUse,
  },
  [resourceKey(userDormitory)]: {
    beforeCreate(_ctx, values) {
      values.liveStatus = "1";
    },
    afterCreate: (ctx, trx, row) => checkIn(ctx, trx, row),
  },
  [resourceKey(meterReading)]: {
    beforeCreate(_ctx, values) {
      // The schema reads a box's 是/否 as 1/0.
      values.meterChanged = values.meterChanged === 1 ? 1 : 0;
      if (!values.meterChanged) values.startReading = null;
    },
    afterCreate: (ctx, trx, row) => fillReading(ctx, trx, row),
    onDelete: refuseReadingDelete,
  },
  [resourceKey(waterElectricMonth)]: {
    beforeCreate(_ctx, values) {
      values.payStatus = "0";
    },
    afterCreate: (ctx, trx, row) => fillBill(ctx, trx, row),
    onDelete: refuseBillDelete,
  },
};

const session = (ctx: unknown) => ctx as SessionContext;
const billIdBody = z.strictObject({ id: recordId("水电账单", "请选择水电账单") });

export const dormEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhhq/userDormitory/checkOut",
    summary: "退宿：{ id, checkOutDate } 在住 → 已退宿，床位空出；退宿日期不早于入住日期",
    access: permission(permissionCode(userDormitory, "checkOut")),
    body: checkOutBody,
    handle: (ctx, { body }) => checkOut(session(ctx), body),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhhq/waterElectricMonth/pay",
    summary: "从餐卡扣费：{ id } 按分摊明细从每位住宿人员的现金账户扣费（业务类型 宿舍水电费，一人一笔）；余额不足者记为失败并返回原因，其他人照常扣费；全部成功后账单为已缴；支持 Idempotency-Key",
    access: permission(permissionCode(waterElectricMonth, "pay")),
    body: billIdBody,
    handle: (ctx, { body }) => payBill(session(ctx), body.id, body),
  }),
];

