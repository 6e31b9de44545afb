import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { newId } from "../../db";
import { nextRecord } from "../sys/rules";
import type { ResourceDef } from "../../../resources/define";
import { mealTimes } from "../../../resources/zhct/menus";

export const catalogueMessages = {
  foodInUse: (name: string, where: string) => `菜品「${name}」已用于${where}，不能删除；不再供应请改为下架`,
  timeOrder: "结束时间必须晚于开始时间",
  overlap: (name: string, begin: string, end: string) => `与本餐厅的餐次「${name}」（${begin}–${end}）时间重叠`,
  stallElsewhere: (stall: string, restaurant: string) => `档口「${stall}」不属于餐厅「${restaurant}」，请选择该餐厅下的档口`,
};

/** What still uses a food, by the table that says so: such a food is taken off the shelf instead. */
const USES = [
  { table: "food_menu_item", where: "每日菜单" },
  { table: "food_menu_template", where: "菜单模板" },
  { table: "food_menu_bowls", where: "菜单餐具" },
] as const;

export const foodService: ResourceService = {
  /** A food's nutrition row starts empty with it, so the nutrition table lists every food. */
  async afterCreate(ctx, trx, record) {
    const audit = { created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId };
    await trx.insertInto("food_nutrition").values({ tenant_id: record.tenant_id, id: newId(), food_id: record.id, ...audit }).execute();
  },
  async beforeDelete(ctx, current) {
    for (const use of USES) {
      const used = await ctx.services.db
        .selectFrom(use.table)
        .select("id")
        .where("tenant_id", "=", ctx.session.tenantId)
        .where("food_id", "=", current.id as number)
        .limit(1)
        .executeTakeFirst();
      if (used) throw new ApiError(Status.CONFLICT, catalogueMessages.foodInUse(String(current.food_name), use.where));
    }
  },
};

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Two meal times of one restaurant never overlap (half-open: lunch may begin when breakfast ends). */
async function checkMealTime(ctx: SessionContext, record: Row, exceptId?: number) {
  const begin = String(record.beginTime);
  const end = String(record.endTime);
  if (minutes(end) <= minutes(begin)) throw fieldError("endTime", catalogueMessages.timeOrder);
  let query = ctx.services.db
    .selectFrom("meal_times")
    .select(["id", "meal_time_name", "begin_time", "end_time"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("restaurant_id", "=", record.restaurantId as number)
    .where("begin_time", "<", end)
    .where("end_time", ">", begin);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const other = await query.orderBy("begin_time").executeTakeFirst();
  if (other) throw fieldError("beginTime", catalogueMessages.overlap(other.meal_time_name, other.begin_time, other.end_time));
}

export const mealTimesService: ResourceService = {
  beforeCreate: (ctx, values) => checkMealTime(ctx, values),
  beforeUpdate: (ctx, values, current) => checkMealTime(ctx, nextRecord(mealTimes, values, current), current.id as number),
};

/** Deeper than any org chart a canteen draws; stops a damaged parent chain from looping. */
const MAX_ORG_DEPTH = 32;

/** A menu type's stall is an org under its restaurant (at any depth of the org tree). */
async function checkStall(ctx: SessionContext, record: Row) {
  const stallId = record.stallId as number | null | undefined;
  if (stallId === null || stallId === undefined) return;
  const orgOf = (id: number) =>
    ctx.services.db.selectFrom("org").select(["id", "parent_id", "org_name"]).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id).executeTakeFirst();
  const stall = await orgOf(stallId);
  let parentId = stall?.parent_id ?? null;
  for (let depth = 0; parentId !== null && depth < MAX_ORG_DEPTH; depth++) {
    if (parentId === record.restaurantId) return;
    parentId = (await orgOf(parentId))?.parent_id ?? null;
  }
  const restaurant = await orgOf(record.restaurantId as number);
  throw fieldError("stallId", catalogueMessages.stallElsewhere(stall?.org_name ?? String(stallId), restaurant?.org_name ?? String(record.restaurantId)));
}

/** The rules shared by menu types and template menu types. */
export const menuTypeService = (def: ResourceDef): ResourceService => ({
  beforeCreate: (ctx, values) => checkStall(ctx, values),
  // An edit that names neither the restaurant nor the stall leaves their pairing as it was.
  beforeUpdate: (ctx, values, current) => (values.restaurantId === undefined && values.stallId === undefined ? undefined : checkStall(ctx, nextRecord(def, values, current))),
});
