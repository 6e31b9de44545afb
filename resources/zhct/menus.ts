import { defineResource, type FieldDef } from "../define";

/** Meal times, menu types, daily menus and weekday templates (spec §2 /zhct, DOMAIN.md "Canteen"). */
export const mealTimes = defineResource({
  module: "zhct",
  entity: "mealTimes",
  screen: "mealtimes",
  screenBase: "/zhct",
  table: "meal_times",
  title: "餐次时间",
  scope: "tenant",
  labelField: "mealTimeName",
  defaultSort: { field: "beginTime", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  uniqueKeys: [{ fields: ["restaurantId", "mealTimeName"], message: "该餐厅已有同名餐次" }],
  fields: [
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
    { name: "mealTimeName", label: "餐次名称", type: "text", required: true, filter: "like", max: 20 },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq" },
    { name: "beginTime", label: "开始时间", type: "time", required: true, sortable: true },
    { name: "endTime", label: "结束时间", type: "time", required: true },
    { name: "orderDaysAhead", label: "提前预订天数", type: "number", required: true, defaultValue: 0, min: 0, max: 30 },
    { name: "orderDeadline", label: "订餐截止时间", type: "time" },
    { name: "cancelDeadline", label: "取消截止时间", type: "time" },
    { name: "standardPrice", label: "执行标准价", type: "enum", dict: "yesOrNo", required: true, defaultValue: "0" },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
  ],
});

const menuTypeFields = [
  { name: "typeName", label: "类型名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
  { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
  { name: "stallId", label: "档口", type: "relation", relation: "auth/org", relationWhere: { field: "orgType", values: ["stall"] }, description: "本餐厅下的档口" },
  { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, filter: "eq" },
  { name: "menuMode", label: "菜单模式", type: "enum", dict: "foodMenuMode", required: true, defaultValue: "2" },
  { name: "mealTimeId", label: "餐次时间", type: "relation", relation: "zhct/mealTimes" },
] as const satisfies readonly FieldDef[];
const menuTypeTail = [
  { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 9999 },
  { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
] as const satisfies readonly FieldDef[];

export const foodMenuTypeTemplate = defineResource({
  module: "zhct",
  entity: "foodMenuTypeTemplate",
  screen: "foodmenutypeTemplate",
  screenBase: "/zhct",
  table: "food_menu_type_template",
  title: "模板菜单类型",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete"],
  uniqueKeys: [{ fields: ["restaurantId", "typeName"], message: "该餐厅已有同名模板菜单类型" }],
  rowLinks: [{ action: "batchCreate", entity: "foodMenuTemplate", label: "按模板生成", path: "/zhct/foodmenuTemplate/batch-create/:id" }],
  fields: [...menuTypeFields, ...menuTypeTail],
});

export const foodMenuType = defineResource({
  module: "zhct",
  entity: "foodMenuType",
  screen: "foodmenutype",
  screenBase: "/zhct",
  table: "food_menu_type",
  title: "菜单类型",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete"],
  uniqueKeys: [{ fields: ["restaurantId", "typeName"], message: "该餐厅已有同名菜单类型" }],
  rowLinks: [{ action: "batchCreate", entity: "foodMenu", label: "生成菜单", path: "/zhct/foodmenu/batch-create/:id" }],
  fields: [
    ...menuTypeFields,
    { name: "templateTypeId", label: "菜单模板", type: "relation", relation: "zhct/foodMenuTypeTemplate", description: "批量生成每日菜单时按星期取此模板的菜品" },
    ...menuTypeTail,
  ],
});

export const foodMenu = defineResource({
  module: "zhct",
  entity: "foodMenu",
  screen: "foodmenu",
  screenBase: "/zhct",
  table: "food_menu",
  title: "每日菜单",
  scope: "tenant",
  labelField: "menuDate",
  defaultSort: { field: "menuDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { batchCreate: "批量生成" },
  uniqueKeys: [{ fields: ["menuDate", "foodMenuTypeId"], message: "该日期已有此类型的菜单" }],
  // A day's menus of a restaurant (findByDate, the week view).
  indexes: [["menuDate", "restaurantId"]],
  fields: [
    { name: "menuDate", label: "日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "foodMenuTypeId", label: "菜单类型", type: "relation", relation: "zhct/foodMenuType", required: true, filter: "eq" },
    // Copied from the menu type, so that a day's menus of a restaurant are found without a join.
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, readOnly: true, filter: "eq" },
    { name: "mealType", label: "餐别", type: "enum", dict: "foodMenuType", required: true, readOnly: true, filter: "eq" },
    { name: "status", label: "发布状态", type: "enum", dict: "entityStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

const itemFields = [
  { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
  { name: "price", label: "价格（元）", type: "money", description: "不填则取菜品价格" },
  { name: "quota", label: "限量", type: "number", min: 0, max: 100_000, description: "不填则不限量" },
] as const satisfies readonly FieldDef[];

export const foodMenuItem = defineResource({
  module: "zhct",
  entity: "foodMenuItem",
  screen: "foodmenuitem",
  screenBase: "/zhct",
  table: "food_menu_item",
  title: "菜单菜品",
  scope: "tenant",
  labelField: "foodId",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete"],
  uniqueKeys: [{ fields: ["foodMenuId", "foodId"], message: "该菜单已有此菜品" }],
  fields: [
    { name: "foodMenuId", label: "菜单", type: "relation", relation: "zhct/foodMenu", required: true, filter: "eq", onDelete: "cascade" },
    ...itemFields,
    // Kept by orders (a later issue).
    { name: "soldCount", label: "已售", type: "number", required: true, readOnly: true, defaultValue: 0, min: 0, max: 2_000_000_000 },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 9999 },
  ],
});

export const foodMenuTemplate = defineResource({
  module: "zhct",
  entity: "foodMenuTemplate",
  screen: "foodmenuTemplate",
  screenBase: "/zhct",
  table: "food_menu_template",
  title: "菜单模板",
  scope: "tenant",
  labelField: "foodId",
  defaultSort: { field: "week", dir: "asc" },
  actions: ["create", "update", "delete"],
  workflowActions: { batchCreate: "批量生成" },
  uniqueKeys: [{ fields: ["templateTypeId", "week", "foodId"], message: "该模板当天已有此菜品" }],
  fields: [
    { name: "templateTypeId", label: "模板菜单类型", type: "relation", relation: "zhct/foodMenuTypeTemplate", required: true, filter: "eq", onDelete: "cascade" },
    { name: "week", label: "星期", type: "enum", dict: "week", required: true, filter: "eq", sortable: true },
    ...itemFields,
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 9999 },
  ],
});

export const foodMenuBowls = defineResource({
  module: "zhct",
  entity: "foodMenuBowls",
  screen: "foodmenubowls",
  screenBase: "/zhct",
  table: "food_menu_bowls",
  title: "菜单餐具",
  scope: "tenant",
  labelField: "bowlsId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["foodMenuId", "bowlsId"], message: "该菜单已为此餐具指定菜品" }],
  fields: [
    { name: "foodMenuId", label: "菜单", type: "relation", relation: "zhct/foodMenu", required: true, filter: "eq", onDelete: "cascade" },
    { name: "bowlsId", label: "餐具", type: "relation", relation: "zhct/bowls", required: true, filter: "eq" },
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
  ],
});

/** One date × menu type of a batch: what it will do (or did) and why. The batch-create answer of the API and its screen. */
export interface BatchDay {
  date: string;
  week: number;
  foodMenuTypeId: number;
  typeName: string;
  action: "create" | "replace" | "keep" | "holiday" | "empty";
  note: string;
  items: number;
}

export interface BatchResult {
  dryRun: boolean;
  days: BatchDay[];
  created: number;
  replaced: number;
  skipped: number;
}
