import type { Kysely } from "kysely";
import { permissionCode, type FieldDef } from "../../../resources/define";
import { fieldSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { foodMenu, foodMenuTemplate, type BatchDay, type BatchResult } from "../../../resources/zhct/menus";
import { newId } from "../../db";
import { preparedQuery, runPrepared } from "../../db/prepared";
import type { Database } from "../../db/schema";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";

const PUBLISHED = 1;
const ON_SHELF = 1;
/** Dictionary holidayType: 1 a public holiday (no menus), 2 a weekend day worked in exchange (menus as usual). */
const HOLIDAY = 1;
export const MAX_BATCH_DAYS = 366;

export const menuMessages = {
  publishEmpty: "菜单至少有一个菜品才能发布",
  publishedItems: "菜单已发布，只能修改菜品的价格和限量",
  offShelf: (name: string) => `菜品「${name}」已下架，请先上架`,
  offShelfTemplate: (name: string) => `菜品「${name}」已下架，不能加入模板`,
  templateOffShelf: (week: string, name: string) => `模板中${week}的菜品「${name}」已下架，请先调整模板`,
  menuTypeMissing: "所选菜单类型不存在",
  templateTypeMissing: "所选模板菜单类型不存在",
  noTemplate: "该菜单类型没有设置菜单模板，请先在菜单类型中选择模板",
  noMenuTypes: "没有启用的菜单类型使用此模板，请先在菜单类型中选择它",
  invalidDate: (label: string) => `${label}不是有效日期`,
  endBeforeBegin: "结束日期不能早于开始日期",
  tooManyDays: `日期范围不能超过 ${MAX_BATCH_DAYS} 天，请分批生成`,
};

const WEEK = ["", "星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"];

async function foodOf(ctx: SessionContext, id: number) {
  return ctx.services.db
    .selectFrom("food")
    .select(["food_name", "price", "on_shelf"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function menuTypeOf(ctx: SessionContext, id: number) {
  return ctx.services.db
    .selectFrom("food_menu_type")
    .selectAll()
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

async function menuOf(ctx: SessionContext, id: number) {
  return ctx.services.db
    .selectFrom("food_menu")
    .select(["id", "status"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

const isPublished = (status: unknown) => Number(status) === PUBLISHED;

/** A menu carries its type's restaurant and meal type; it is published only with at least one item. */
export const foodMenuService: ResourceService = {
  async beforeCreate(ctx, values) {
    const type = await menuTypeOf(ctx, values.foodMenuTypeId as number);
    if (!type) throw fieldError("foodMenuTypeId", menuMessages.menuTypeMissing);
    values.restaurantId = type.restaurant_id;
    values.mealType = type.meal_type;
    if (isPublished(values.status)) throw fieldError("status", menuMessages.publishEmpty);
  },
  async beforeUpdate(ctx, values, current) {
    if (values.foodMenuTypeId !== undefined && values.foodMenuTypeId !== current.food_menu_type_id) {
      const type = await menuTypeOf(ctx, values.foodMenuTypeId as number);
      if (!type) throw fieldError("foodMenuTypeId", menuMessages.menuTypeMissing);
      values.restaurantId = type.restaurant_id;
      values.mealType = type.meal_type;
    }
    if (isPublished(values.status) && !isPublished(current.status)) {
      const item = await ctx.services.db
        .selectFrom("food_menu_item")
        .select("id")
        .where("tenant_id", "=", ctx.session.tenantId)
        .where("food_menu_id", "=", current.id as number)
        .limit(1)
        .executeTakeFirst();
      if (!item) throw fieldError("status", menuMessages.publishEmpty);
    }
  },
};

/** The food must be on the shelf; an item's price is the food's unless one is given. */
async function checkFood(ctx: SessionContext, values: Row, message: (name: string) => string) {
  if (values.foodId === undefined) return;
  const food = await foodOf(ctx, values.foodId as number);
  if (food.on_shelf !== ON_SHELF) throw fieldError("foodId", message(food.food_name));
  if (values.price === null || values.price === undefined) values.price = food.price;
}

/** A published menu's items still change price and quota (the operation log keeps each change), nothing else. */
export const foodMenuItemService: ResourceService = {
  async beforeCreate(ctx, values) {
    if (isPublished((await menuOf(ctx, values.foodMenuId as number)).status)) throw new ApiError(Status.CONFLICT, menuMessages.publishedItems);
    await checkFood(ctx, values, menuMessages.offShelf);
  },
  async beforeUpdate(ctx, values, current) {
    const moves = values.foodMenuId !== undefined && values.foodMenuId !== current.food_menu_id;
    const swaps = values.foodId !== undefined && values.foodId !== current.food_id;
    if (moves || swaps) {
      const menus = [current.food_menu_id as number, ...(moves ? [values.foodMenuId as number] : [])];
      for (const id of menus) if (isPublished((await menuOf(ctx, id)).status)) throw new ApiError(Status.CONFLICT, menuMessages.publishedItems);
    }
    if (swaps) await checkFood(ctx, values, menuMessages.offShelf);
    else if (values.price === null) values.price = (await foodOf(ctx, current.food_id as number)).price;
  },
  async beforeDelete(ctx, current) {
    if (isPublished((await menuOf(ctx, current.food_menu_id as number)).status)) throw new ApiError(Status.CONFLICT, menuMessages.publishedItems);
  },
};

export const foodMenuTemplateService: ResourceService = {
  beforeCreate: (ctx, values) => checkFood(ctx, values, menuMessages.offShelfTemplate),
  async beforeUpdate(ctx, values, current) {
    if (values.foodId === undefined) values.foodId = current.food_id;
    await checkFood(ctx, values, menuMessages.offShelfTemplate);
  },
};

// ---- Batch create: a template applied to a date range --------------------------------------------------------

const field = (name: string, label: string, type: FieldDef["type"], extra: Partial<FieldDef> = {}) => fieldSchema({ name, label, type, ...extra }, false);

/** Built as the declared fields' schemas are, so hostile values get the same 400s. */
export const batchCreateBody = z.strictObject({
  foodMenuTypeId: field("foodMenuTypeId", "菜单类型", "relation", { required: true, min: 1 }),
  beginDate: field("beginDate", "开始日期", "date", { required: true }),
  endDate: field("endDate", "结束日期", "date", { required: true }),
  weekdays: z
    .array(field("weekdays", "星期", "enum", { dict: "week", required: true }).pipe(z.enum(["1", "2", "3", "4", "5", "6", "7"], { error: "星期只能是 1（星期日）到 7（星期六）" })))
    .max(7, "星期最多 7 个")
    .optional(),
  replace: field("replace", "替换已有菜单", "boolean"),
  dryRun: field("dryRun", "仅预览", "boolean"),
});
export type BatchCreateInput = z.output<typeof batchCreateBody>;

const DAY = 86_400_000;
function dayNumber(date: string, field: string, label: string): number {
  const millis = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(millis) || new Date(millis).toISOString().slice(0, 10) !== date) throw fieldError(field, menuMessages.invalidDate(label));
  return millis / DAY;
}
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

type TemplateItem = { week: number; food_id: number; price: number | null; quota: number | null; sort: number; food_name: string; food_price: number; on_shelf: number };

/**
 * Applies each menu type's template to every date of the range: holidays are skipped, existing menus kept unless
 * `replace` (a menu that has sold something is always kept), all in one transaction. `dryRun` only says what it
 * would do.
 */
async function batchCreate(ctx: SessionContext, input: BatchCreateInput, from: "menuType" | "template"): Promise<BatchResult> {
  const tenantId = ctx.session.tenantId;
  const db = ctx.services.db;
  const begin = dayNumber(input.beginDate as string, "beginDate", "开始日期");
  const end = dayNumber(input.endDate as string, "endDate", "结束日期");
  if (end < begin) throw fieldError("endDate", menuMessages.endBeforeBegin);
  if (end - begin + 1 > MAX_BATCH_DAYS) throw fieldError("endDate", menuMessages.tooManyDays);

  let types;
  if (from === "menuType") {
    const type = await menuTypeOf(ctx, input.foodMenuTypeId as number);
    if (!type) throw fieldError("foodMenuTypeId", menuMessages.menuTypeMissing);
    if (type.template_type_id === null) throw fieldError("foodMenuTypeId", menuMessages.noTemplate);
    types = [type];
  } else {
    const template = await db
      .selectFrom("food_menu_type_template")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("id", "=", input.foodMenuTypeId as number)
      .executeTakeFirst();
    if (!template) throw fieldError("foodMenuTypeId", menuMessages.templateTypeMissing);
    types = await db
      .selectFrom("food_menu_type")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .where("template_type_id", "=", template.id)
      .where("status", "=", 1)
      .orderBy("sort")
      .orderBy("id")
      .execute();
    if (!types.length) throw fieldError("foodMenuTypeId", menuMessages.noMenuTypes);
  }

  const templateIds = [...new Set(types.map((t) => t.template_type_id as number))];
  const templateItems = (await db
    .selectFrom("food_menu_template as t")
    .innerJoin("food as f", (j) => j.onRef("f.tenant_id", "=", "t.tenant_id").onRef("f.id", "=", "t.food_id"))
    .select(["t.template_type_id", "t.week", "t.food_id", "t.price", "t.quota", "t.sort", "f.food_name", "f.price as food_price", "f.on_shelf"])
    .where("t.tenant_id", "=", tenantId)
    .where("t.template_type_id", "in", templateIds)
    .orderBy("t.sort")
    .orderBy("t.id")
    .execute()) as Array<TemplateItem & { template_type_id: number }>;
  const weekdays = input.weekdays ? new Set(input.weekdays.map(Number)) : null;
  const weekOf = (day: number) => new Date(day * DAY).getUTCDay() + 1;
  // Only the weekdays the range has (and the user chose) matter: a food off the shelf on another day does not.
  const weeksInRange = new Set(Array.from({ length: Math.min(end - begin + 1, 7) }, (_, i) => weekOf(begin + i)).filter((w) => !weekdays || weekdays.has(w)));
  const used = templateItems.filter((i) => weeksInRange.has(Number(i.week)));
  const off = used.find((i) => i.on_shelf !== ON_SHELF);
  if (off) throw new ApiError(Status.CONFLICT, menuMessages.templateOffShelf(WEEK[Number(off.week)], off.food_name));

  const [beginDate, endDate] = [dateOf(begin), dateOf(end)];
  const holidays = new Map(
    (
      await db
        .selectFrom("holiday")
        .select(["holiday_date", "holiday_name"])
        .where("tenant_id", "=", tenantId)
        .where("holiday_type", "=", HOLIDAY)
        .where("holiday_date", ">=", beginDate)
        .where("holiday_date", "<=", endDate)
        .execute()
    ).map((h) => [h.holiday_date, h.holiday_name]),
  );
  const existing = await db
    .selectFrom("food_menu as m")
    .select(["m.id", "m.menu_date", "m.food_menu_type_id", "m.status"])
    .select((eb) =>
      eb
        .selectFrom("food_menu_item as i")
        .select((e) => e.fn.coalesce(e.fn.sum<number>("i.sold_count"), e.lit(0)).as("sold"))
        .whereRef("i.tenant_id", "=", "m.tenant_id")
        .whereRef("i.food_menu_id", "=", "m.id")
        .as("sold"),
    )
    .where("m.tenant_id", "=", tenantId)
    .where(
      "m.food_menu_type_id",
      "in",
      types.map((t) => t.id),
    )
    .where("m.menu_date", ">=", beginDate)
    .where("m.menu_date", "<=", endDate)
    .execute();
  const existingBy = new Map(existing.map((m) => [`${m.menu_date} ${m.food_menu_type_id}`, m]));

  const days: BatchDay[] = [];
  const toDelete: number[] = [];
  const menus: Row[] = [];
  const items: Row[] = [];
  for (let day = begin; day <= end; day++) {
    const date = dateOf(day);
    const week = weekOf(day);
    if (!weeksInRange.has(week)) continue;
    for (const type of types) {
      const entry: BatchDay = { date, week, foodMenuTypeId: type.id, typeName: type.type_name, action: "create", note: "", items: 0 };
      days.push(entry);
      const holiday = holidays.get(date);
      if (holiday !== undefined) {
        Object.assign(entry, { action: "holiday", note: `节假日：${holiday}` });
        continue;
      }
      const dayItems = used.filter((i) => i.template_type_id === type.template_type_id && Number(i.week) === week);
      entry.items = dayItems.length;
      if (!dayItems.length) {
        Object.assign(entry, { action: "empty", note: "模板当天没有菜品" });
        continue;
      }
      const current = existingBy.get(`${date} ${type.id}`);
      if (current) {
        if (!input.replace) {
          Object.assign(entry, { action: "keep", note: isPublished(current.status) ? "已有菜单（已发布），保留" : "已有菜单，保留" });
          continue;
        }
        if (Number(current.sold) > 0) {
          Object.assign(entry, { action: "keep", note: "已有菜单且已售出，不替换" });
          continue;
        }
        Object.assign(entry, { action: "replace", note: "替换已有菜单" });
        toDelete.push(current.id);
      }
      const menuId = newId();
      const audit = { created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId };
      menus.push({ tenant_id: tenantId, id: menuId, menu_date: date, food_menu_type_id: type.id, restaurant_id: type.restaurant_id, meal_type: type.meal_type, status: 0, remark: null, ...audit });
      for (const item of dayItems) {
        items.push({ tenant_id: tenantId, id: newId(), food_menu_id: menuId, food_id: item.food_id, price: item.price ?? item.food_price, quota: item.quota, sold_count: 0, sort: item.sort, ...audit });
      }
    }
  }
  const result: BatchResult = {
    dryRun: Boolean(input.dryRun),
    days,
    created: days.filter((d) => d.action === "create").length,
    replaced: days.filter((d) => d.action === "replace").length,
    skipped: days.filter((d) => d.action !== "create" && d.action !== "replace").length,
  };
  if (input.dryRun || !menus.length) return result;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < toDelete.length; i += CHUNK) {
      await trx.deleteFrom("food_menu").where("tenant_id", "=", tenantId).where("id", "in", toDelete.slice(i, i + CHUNK)).execute();
    }
    await insertChunks(trx, "food_menu", menus);
    await insertChunks(trx, "food_menu_item", items);
    const def = from === "menuType" ? foodMenu : foodMenuTemplate;
    await recordOperation(trx, ctx, def, input.foodMenuTypeId as number, "batchCreate", {
      beginDate,
      endDate,
      weekdays: input.weekdays ?? null,
      replace: Boolean(input.replace),
      created: result.created,
      replaced: result.replaced,
      skipped: result.skipped,
      items: items.length,
    });
  });
  return result;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound values (12 columns each). */
const CHUNK = 500;
async function insertChunks(trx: Kysely<Database>, table: "food_menu" | "food_menu_item", rows: Row[]) {
  for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto(table).values(rows.slice(i, i + CHUNK) as never).execute();
}

// ---- The day's published menus, for cashiers and ordering apps -------------------------------------------------

export const findByDateQuery = z.strictObject({
  date: field("date", "日期", "date", { required: true }),
  restaurantId: field("restaurantId", "餐厅", "relation", { min: 1 }),
});

/**
 * Two queries, the day's menus and then their items: as one join, SQLite without statistics (it is never ANALYZEd)
 * walked every item of the tenant first, 85 ms instead of well under one for a year of menus.
 */
const dayMenuRows = (restaurant: boolean) =>
  preparedQuery(`zhct findByDate menus ${restaurant}`, (db: Kysely<Database>, tenantId: unknown, date: unknown, restaurantId?: unknown) => {
    let query = db
      .selectFrom("food_menu as m")
      .innerJoin("food_menu_type as t", (j) => j.onRef("t.tenant_id", "=", "m.tenant_id").onRef("t.id", "=", "m.food_menu_type_id"))
      .select(["m.id", "m.menu_date", "m.food_menu_type_id", "t.type_name", "m.meal_type", "m.restaurant_id", "t.stall_id", "t.meal_time_id"])
      .where("m.tenant_id", "=", tenantId as number)
      .where("m.menu_date", "=", date as string)
      .where("m.status", "=", PUBLISHED);
    if (restaurant) query = query.where("m.restaurant_id", "=", restaurantId as number);
    return query.orderBy("t.sort").orderBy("m.id");
  });
const byRestaurant = dayMenuRows(true);
const allRestaurants = dayMenuRows(false);

/** The items of some menus with their foods: one compiled shape per number of menus. */
function menuItemRows(db: Kysely<Database>, tenantId: number, menuIds: number[]) {
  return runPrepared(db, `zhct findByDate items ${menuIds.length}`, [tenantId, ...menuIds], (args) =>
    db
      .selectFrom("food_menu_item as i")
      .innerJoin("food as f", (j) => j.onRef("f.tenant_id", "=", "i.tenant_id").onRef("f.id", "=", "i.food_id"))
      .select(["i.food_menu_id", "i.id", "i.food_id", "f.food_name", "f.unit", "f.image", "f.dish_class", "i.price", "i.quota", "i.sold_count"])
      .where("i.tenant_id", "=", args[0] as number)
      .where("i.food_menu_id", "in", args.slice(1) as number[])
      .orderBy("i.food_menu_id")
      .orderBy("i.sort")
      .orderBy("i.id"),
  );
}

/** The day's published menus with their items, for cashiers and ordering apps. */
export async function findByDate(db: Kysely<Database>, tenantId: number, date: string, restaurantId?: number | null) {
  const menus = await (restaurantId ? byRestaurant(db, tenantId, date, restaurantId) : allRestaurants(db, tenantId, date));
  if (!menus.length) return [];
  const items = new Map<number, Awaited<ReturnType<typeof menuItemRows>>>();
  for (const item of await menuItemRows(db, tenantId, menus.map((m) => m.id))) {
    const list = items.get(item.food_menu_id);
    if (list) list.push(item);
    else items.set(item.food_menu_id, [item]);
  }
  return menus.map((m) => ({
    id: m.id,
    menuDate: m.menu_date,
    foodMenuTypeId: m.food_menu_type_id,
    typeName: m.type_name,
    mealType: String(m.meal_type),
    restaurantId: m.restaurant_id,
    stallId: m.stall_id,
    mealTimeId: m.meal_time_id,
    items: (items.get(m.id) ?? []).map((i) => ({
      id: i.id,
      foodId: i.food_id,
      foodName: i.food_name,
      unit: i.unit,
      image: i.image,
      dishClass: i.dish_class === null ? null : String(i.dish_class),
      price: i.price,
      quota: i.quota,
      soldCount: i.sold_count,
    })),
  }));
}

export const findWeekQuery = z.strictObject({
  beginDate: field("beginDate", "开始日期", "date", { required: true }),
  restaurantId: field("restaurantId", "餐厅", "relation", { min: 1 }),
});

/** Seven days of menus from `beginDate`, published or not, with their dishes: the week view of the back office. */
async function findWeek(ctx: SessionContext, beginDate: string, restaurantId: number | null | undefined) {
  const begin = dayNumber(beginDate, "beginDate", "开始日期");
  let query = ctx.services.db
    .selectFrom("food_menu as m")
    .leftJoin("food_menu_item as i", (j) => j.onRef("i.tenant_id", "=", "m.tenant_id").onRef("i.food_menu_id", "=", "m.id"))
    .leftJoin("food as f", (j) => j.onRef("f.tenant_id", "=", "i.tenant_id").onRef("f.id", "=", "i.food_id"))
    .select(["m.id", "m.menu_date", "m.food_menu_type_id", "m.status", "i.id as item_id", "f.food_name", "i.price"])
    .where("m.tenant_id", "=", ctx.session.tenantId)
    .where("m.menu_date", ">=", dateOf(begin))
    .where("m.menu_date", "<=", dateOf(begin + 6));
  if (restaurantId) query = query.where("m.restaurant_id", "=", restaurantId);
  const rows = await query.orderBy("m.menu_date").orderBy("m.id").orderBy("i.sort").orderBy("i.id").execute();
  const menus = new Map<number, { id: number; menuDate: string; foodMenuTypeId: number; status: string; items: Array<{ foodName: string; price: number }> }>();
  for (const r of rows) {
    let menu = menus.get(r.id);
    if (!menu) menus.set(r.id, (menu = { id: r.id, menuDate: r.menu_date, foodMenuTypeId: r.food_menu_type_id, status: String(r.status), items: [] }));
    if (r.item_id !== null) menu.items.push({ foodName: r.food_name as string, price: r.price as number });
  }
  return [...menus.values()];
}

export const menuEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/foodMenu/batchCreate",
    summary: "按菜单类型的模板批量生成每日菜单（dryRun 为 true 时只预览；跳过节假日，已有菜单除非 replace 否则保留；最多 366 天）",
    access: permission(permissionCode(foodMenu, "batchCreate")),
    body: batchCreateBody,
    handle: (ctx, { body }) => batchCreate(ctx as SessionContext, body, "menuType"),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/foodMenuTemplate/batchCreate",
    summary: "把模板菜单类型的菜品按星期生成到使用它的各菜单类型的每日菜单（参数同 foodMenu/batchCreate）",
    access: permission(permissionCode(foodMenuTemplate, "batchCreate")),
    body: batchCreateBody,
    handle: (ctx, { body }) => batchCreate(ctx as SessionContext, body, "template"),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/foodMenu/findWeek",
    summary: "自 beginDate 起 7 天的每日菜单（含未发布）及其菜品，供周视图使用",
    access: permission(permissionCode(foodMenu, "view")),
    query: findWeekQuery,
    handle: (ctx, { query }) => findWeek(ctx as SessionContext, query.beginDate as string, query.restaurantId as number | null | undefined),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/foodMenu/findByDate",
    summary: "某日已发布的菜单及其菜品和价格（收银与点餐应用使用）",
    access: permission(permissionCode(foodMenu, "view")),
    query: findByDateQuery,
    handle: async (ctx, { query }) => {
      const { session } = ctx as SessionContext;
      dayNumber(query.date as string, "date", "日期");
      return findByDate(ctx.services.db, session.tenantId, query.date as string, query.restaurantId as number | null | undefined);
    },
  }),
];
