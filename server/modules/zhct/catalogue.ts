import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import { mealTimes } from "../../../resources/zhct/menus";

export const catalogueMessages = {
  foodInUse: (name: string, where: string) => `菜品「${name}」已用于${where}，不能删除；不再供应请改为下架`,
  timeOrder: "结束时间必须晚于开始时间",
  overlap: (name: string, begin: string, end: string) => `与本餐厅的餐次「${name}」（${begin}–${end}）时间重叠`,
};

/** What still uses a food, by the table that says so: such a food is taken off the shelf instead. */
const USES = [
  { table: "food_menu_item", where: "每日菜单" },
  { table: "food_menu_template", where: "菜单模板" },
  { table: "food_menu_bowls", where: "菜单餐具" },
] as const;

export const foodService: ResourceService = {
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
