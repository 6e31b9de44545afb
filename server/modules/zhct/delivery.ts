import { PostgresAdapter } from "kysely";
import { resourceKey } from "../../../resources/define";
import { deliveryTime } from "../../../resources/zhct/defaults";
import { newId } from "../../db";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import type { Trx } from "./ledger";
import type { PaymentFacts, PaymentHooks } from "./payments";

/**
 * Takeaway delivery (issue 14 part B, decision 027): a takeaway order (orderType 3) names a pick-up or delivery point
 * of its restaurant and a slot of its meal time, and a slot takes at most its capacity of orders a day. Both are
 * checked inside the payment's transaction (a `beforePay` hook), so a refused order writes nothing.
 */

export const deliveryMessages = {
  slotOrder: "结束时间应晚于开始时间",
  needsMealTime: "外卖订单请选择餐次",
  needsPoint: "外卖订单请选择配送点",
  needsSlot: "外卖订单请选择配送时段",
  notTakeaway: "只有外卖订单需要配送点和配送时段",
  pointMissing: "所选配送点不存在或已停用",
  pointElsewhere: "所选配送点不属于本餐次的餐厅",
  slotMissing: "所选配送时段不存在或已停用",
  slotElsewhere: "所选配送时段不属于本餐次",
  full: (capacity: number) => `该配送时段已约满（每日 ${capacity} 份）`,
};

/** Dictionary orderType 3 外卖. */
export const TAKEAWAY = 3;

function checkSlot(record: Row) {
  if (record.beginTime != null && record.endTime != null && String(record.endTime) <= String(record.beginTime)) throw fieldError("endTime", deliveryMessages.slotOrder);
}

export const deliveryServices: Record<string, ResourceService> = {
  [resourceKey(deliveryTime)]: {
    beforeCreate: (_ctx, values) => checkSlot(values),
    beforeUpdate: (_ctx, values, current) => checkSlot(nextRecord(deliveryTime, values, current)),
  },
};

/**
 * Checks a takeaway order's point and slot and takes a place in the slot. The slot's row is locked first on
 * PostgreSQL, so payments racing for its last place count one after another; SQLite's BEGIN IMMEDIATE already runs
 * one payment at a time. The delivery row is what is counted, and a cancelled order's row stops counting.
 */
export async function bookDelivery(trx: Trx, facts: PaymentFacts): Promise<void> {
  const { pointId, timeId } = facts.delivery;
  if (facts.orderType !== TAKEAWAY) {
    if (pointId !== null || timeId !== null) throw fieldError(pointId !== null ? "deliveryPointId" : "deliveryTimeId", deliveryMessages.notTakeaway);
    return;
  }
  if (!facts.mealTime) throw fieldError("mealTimesId", deliveryMessages.needsMealTime);
  if (pointId === null) throw fieldError("deliveryPointId", deliveryMessages.needsPoint);
  if (timeId === null) throw fieldError("deliveryTimeId", deliveryMessages.needsSlot);
  const tenantId = facts.tenantId;
  const point = await trx.selectFrom("delivery_point").select(["restaurant_id", "status"]).where("tenant_id", "=", tenantId).where("id", "=", pointId).executeTakeFirst();
  if (!point || Number(point.status) !== 1) throw fieldError("deliveryPointId", deliveryMessages.pointMissing);
  if (point.restaurant_id !== facts.mealTime.restaurantId) throw fieldError("deliveryPointId", deliveryMessages.pointElsewhere);
  let slotQuery = trx.selectFrom("delivery_time").select(["meal_times_id", "capacity", "status"]).where("tenant_id", "=", tenantId).where("id", "=", timeId);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) slotQuery = slotQuery.forUpdate();
  const slot = await slotQuery.executeTakeFirst();
  if (!slot || Number(slot.status) !== 1) throw fieldError("deliveryTimeId", deliveryMessages.slotMissing);
  if (slot.meal_times_id !== facts.mealTime.id) throw fieldError("deliveryTimeId", deliveryMessages.slotElsewhere);
  const { n } = await trx
    .selectFrom("meal_order_delivery")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("tenant_id", "=", tenantId)
    .where("delivery_time_id", "=", timeId)
    .where("delivery_date", "=", facts.date)
    .where("cancelled_at", "is", null)
    .executeTakeFirstOrThrow();
  if (Number(n) >= Number(slot.capacity)) throw new ApiError(Status.CONFLICT, deliveryMessages.full(Number(slot.capacity)));
  const audit = { created_at: facts.now, created_by: facts.operator.id, updated_at: facts.now, updated_by: facts.operator.id };
  await trx
    .insertInto("meal_order_delivery")
    .values({ tenant_id: tenantId, id: newId(), order_id: facts.orderId, order_no: facts.orderNo, user_info_id: facts.userInfoId, delivery_date: facts.date, delivery_point_id: pointId, delivery_time_id: timeId, cancelled_at: null, ...audit })
    .execute();
}

/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const deliveryPaymentHooks: PaymentHooks = {
  beforePay: bookDelivery,
  // The order's place in its slot is free again; a second cancel finds the row already cancelled.
  async afterCancel(trx, order) {
    await trx.updateTable("meal_order_delivery").set({ cancelled_at: Date.now(), updated_at: Date.now() }).where("tenant_id", "=", order.tenantId).where("order_id", "=", order.id).where("cancelled_at", "is", null).execute();
  },
};
