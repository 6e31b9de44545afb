import { defineResource } from "../define";
import type { DocumentForm } from "../document-form";

/** The canteen catalogue (spec §2 /zhct, DOMAIN.md "Canteen"): dishware, dish categories, dishes and what sells them. */
export const bowls = defineResource({
  module: "zhct",
  entity: "bowls",
  screen: "bowls",
  screenBase: "/zhct",
  table: "bowls",
  title: "餐具",
  menuTitle: "餐具管理",
  scope: "tenant",
  labelField: "bowlsName",
  defaultSort: { field: "bowlsCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "bowlsCode", label: "餐具编号", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 32 },
    { name: "bowlsName", label: "餐具名称", type: "text", required: true, filter: "like", max: 50 },
    { name: "colour", label: "颜色", type: "text", max: 20 },
    { name: "price", label: "价格（元）", type: "money", required: true, sortable: true },
    { name: "chipId", label: "芯片编号（RFID）", type: "text", unique: true, filter: "like", max: 64 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const foodType = defineResource({
  module: "zhct",
  entity: "foodType",
  screen: "foodtype",
  screenBase: "/zhct",
  table: "food_type",
  title: "菜品分类",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export", "import"],
  fields: [
    { name: "typeName", label: "分类名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "parentId", label: "上级分类", type: "relation", relation: "zhct/foodType", filter: "eq" },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 9999 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const food = defineResource({
  module: "zhct",
  entity: "food",
  screen: "food",
  screenBase: "/zhct",
  table: "food",
  title: "菜品",
  menuTitle: "菜品管理",
  scope: "tenant",
  labelField: "foodName",
  defaultSort: { field: "foodName", dir: "asc" },
  actions: ["create", "update", "delete", "export", "import"],
  // 用料 (decision 088): the dish's recipe lines, edited on a page of their own (foodRecipe below).
  workflowActions: { recipe: "用料" },
  rowLinks: [{ action: "recipe", path: "recipe/:id" }],
  fields: [
    { name: "foodName", label: "菜品名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "foodTypeId", label: "菜品分类", type: "relation", relation: "zhct/foodType", required: true, filter: "eq" },
    { name: "restaurantId", label: "餐厅/档口", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant", "stall"] } },
    { name: "price", label: "价格（元）", type: "money", required: true, sortable: true },
    { name: "outsiderPrice", label: "外部人员价格（元）", type: "money" },
    { name: "unit", label: "单位", type: "text", max: 10, defaultValue: "份" },
    { name: "dishClass", label: "菜品类别", type: "enum", dict: "dishClass", filter: "eq" },
    { name: "onShelf", label: "上架", type: "enum", dict: "yesOrNo", required: true, filter: "eq", defaultValue: "1" },
    { name: "image", label: "菜品图片", type: "image", list: true },
    { name: "ingredients", label: "主要食材", type: "longText", max: 500 },
    { name: "description", label: "菜品介绍", type: "longText", max: 1000 },
  ],
});

/**
 * Per portion; grams except energy (kcal) and sodium (mg). Every food has its row, made with the food and gone with
 * it: the screen is the nutrition table of every food, each row edited on the list (decision 015).
 */
export const foodNutrition = defineResource({
  module: "zhct",
  entity: "foodNutrition",
  screen: "foodnutrition",
  screenBase: "/zhct",
  table: "food_nutrition",
  title: "菜品营养",
  scope: "tenant",
  labelField: "foodId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["update", "export"],
  indexOnly: true,
  fields: [
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, unique: true, readOnly: true, filter: "eq", onDelete: "cascade" },
    { name: "energy", label: "能量（千卡）", type: "number", min: 0, max: 100_000, sortable: true },
    { name: "protein", label: "蛋白质（克）", type: "number", min: 0, max: 100_000 },
    { name: "fat", label: "脂肪（克）", type: "number", min: 0, max: 100_000 },
    { name: "carbohydrate", label: "碳水化合物（克）", type: "number", min: 0, max: 100_000 },
    { name: "fibre", label: "膳食纤维（克）", type: "number", min: 0, max: 100_000 },
    { name: "sodium", label: "钠（毫克）", type: "number", min: 0, max: 1_000_000 },
  ],
});

export const deviceFood = defineResource({
  module: "zhct",
  entity: "deviceFood",
  screen: "devicefood",
  screenBase: "/zhct",
  table: "device_food",
  title: "设备菜品",
  scope: "tenant",
  labelField: "foodId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["deviceId", "foodId"], message: "该设备已在售此菜品" }],
  fields: [
    { name: "deviceId", label: "设备", type: "relation", relation: "sys/device", required: true, filter: "eq", onDelete: "cascade" },
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, filter: "eq", onDelete: "cascade" },
  ],
});

/**
 * A dish's 用料 (issue 37, decision 088): goods of the warehouse and how much of each one portion takes, in the goods'
 * unit (thousandths, decision 067). The lines of a dish are written together on its 用料 page (`POST
 * /api/v1/zhct/food/recipe`); this list shows every dish's lines, and 理论与实际成本 reads them.
 */
export const foodRecipe = defineResource({
  module: "zhct",
  entity: "foodRecipe",
  screen: "foodrecipe",
  screenBase: "/zhct",
  table: "food_recipe",
  title: "菜品用料",
  scope: "tenant",
  labelField: "goodsId",
  defaultSort: { field: "foodId", dir: "asc" },
  actions: ["export"],
  indexOnly: true,
  uniqueKeys: [{ fields: ["foodId", "goodsId"], message: "同一物资在一道菜的用料中只能出现一次" }],
  fields: [
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, readOnly: true, filter: "eq", onDelete: "cascade" },
    { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, filter: "eq" },
    { name: "quantity", label: "每份用量", type: "quantity", required: true, min: 0.001, max: 10_000 },
  ],
});

/**
 * The 用料 page's form: the lines editor of a document (decision 061, the plain table and the grid loaded only on that
 * page) over the dish's recipe lines, with no header fields of its own (the dish is the page's).
 */
export const foodRecipeForm: DocumentForm = { header: { ...foodRecipe, fields: [] }, lines: foodRecipe, linesTitle: "用料", minLines: 0, maxLines: 100, totals: [] };
