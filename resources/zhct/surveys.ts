import { defineResource } from "../define";
import type { ReportScreen } from "../modules";

/**
 * Plate recognition and satisfaction surveys (spec §2 /zhct, issue 14 part D, decision 029): what a recognition
 * server saw on a tray, the pictures of an order's settlement and recovery, the cut pictures kept for training, and
 * the surveys diners answer. The rules are in server/modules/zhct/recognition.ts and server/modules/zhct/surveys.ts.
 */

/** One recognition a `detect_server` device reported (or staff entered); staff mark whether it was right. */
export const imageDetectLog = defineResource({
  module: "zhct",
  entity: "imageDetectLog",
  screen: "imagedetectlog",
  screenBase: "/zhct",
  table: "image_detect_log",
  title: "餐盘识别记录",
  scope: "tenant",
  labelField: "detectNo",
  defaultSort: { field: "detectedAt", dir: "desc" },
  actions: ["create", "update", "export"],
  workflowActions: { report: "识别上报", mark: "标记" },
  rowLinks: [{ action: "mark", path: "mark/:id" }],
  indexes: [["detectedAt"]],
  fields: [
    // What names a recognition in pickers and other lists: the device's code and the minute it saw the tray.
    { name: "detectNo", label: "识别编号", type: "text", readOnly: true, filter: "like", max: 80 },
    { name: "deviceId", label: "识别设备", type: "relation", relation: "sys/device", required: true, filter: "eq", relationWhere: { field: "deviceType", values: ["detect_server"] } },
    { name: "imageUrl", label: "识别图片", type: "image", required: true, list: true },
    { name: "orderId", label: "关联订单", type: "relation", relation: "zhct/mealOrder", filter: "eq" },
    // Confidence in per-mille (0.873 → 873): a whole number, the same on both databases.
    { name: "confidence", label: "置信度（‰）", type: "number", required: true, defaultValue: 1000, min: 0, max: 1000, sortable: true, description: "0–1000，即识别可信程度的千分之几" },
    { name: "foodCount", label: "识别份数", type: "number", required: true, readOnly: true, defaultValue: 0, min: 0, max: 10_000 },
    { name: "amount", label: "识别金额（元）", type: "money", required: true, readOnly: true, defaultValue: 0 },
    { name: "detectStatus", label: "识别状态", type: "enum", dict: "detectStatus", required: true, readOnly: true, filter: "eq", defaultValue: "1" },
    { name: "detectedAt", label: "识别时间", type: "datetime", required: true, readOnly: true, filter: "range", sortable: true },
    { name: "markedBy", label: "标记人", type: "text", readOnly: true, max: 100 },
    { name: "markedAt", label: "标记时间", type: "datetime", readOnly: true, list: false },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** The foods one recognition found: food, count and unit price (fen) as the device priced them. */
export const imageDetectFood = defineResource({
  module: "zhct",
  entity: "imageDetectFood",
  screen: "imagedetectfood",
  screenBase: "/zhct",
  table: "image_detect_food",
  title: "识别菜品明细",
  scope: "tenant",
  labelField: "foodName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["export"],
  fields: [
    { name: "detectLogId", label: "识别记录", type: "relation", relation: "zhct/imageDetectLog", required: true, filter: "eq", onDelete: "cascade" },
    { name: "foodId", label: "菜品", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
    // Copied from the food, so the mark screen names what was seen even after the food is renamed.
    { name: "foodName", label: "菜品名称", type: "text", required: true, max: 100 },
    { name: "foodCount", label: "份数", type: "number", required: true, min: 1, max: 99 },
    { name: "price", label: "单价（元）", type: "money", required: true, max: 1_000_000 },
    { name: "amount", label: "小计（元）", type: "money", required: true },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 999 },
  ],
});

/** The pictures of an order's settlement (结算) or recovery (回收). */
export const mealOrderImageDetail = defineResource({
  module: "zhct",
  entity: "mealOrderImageDetail",
  screen: "mealorderimagedetail",
  screenBase: "/zhct",
  table: "meal_order_image_detail",
  title: "订单图片",
  scope: "tenant",
  labelField: "orderNo",
  defaultSort: { field: "shotAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder", required: true, filter: "eq" },
    // Copied from the order, so the list filters by number without a join.
    { name: "orderNo", label: "订单号", type: "text", readOnly: true, list: false, filter: "like", sortable: true, max: 32 },
    { name: "detectImageType", label: "图片类型", type: "enum", dict: "detectImageType", required: true, filter: "eq" },
    { name: "imageUrl", label: "图片", type: "image", required: true, list: true },
    { name: "shotAt", label: "拍摄时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

/** Cut pictures of single foods kept to train the recognition model: confirmed (已添加) or relabelled by a person. */
export const imageLibrary = defineResource({
  module: "zhct",
  entity: "imageLibrary",
  screen: "imagelibrary",
  screenBase: "/zhct",
  table: "image_library",
  title: "图片库",
  scope: "tenant",
  labelField: "foodId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { confirm: "确认" },
  rowLinks: [{ action: "confirm", path: "confirm/:id" }],
  // cutImageStatus 0 未确认, 1 已添加 (decision 070); its screen is its own (the picture, a relabelling picker).
  workflow: {
    field: "cutImageStatus",
    colors: { "0": "orange", "1": "green" },
    refusal: "该切图已确认添加到图片库，不能再修改",
    notFound: "图片库不存在或已被删除",
    transitions: [{ name: "confirm", label: "确认", from: ["0"], to: "1", screen: false }],
  },
  indexes: [["cutImageStatus", "foodId"]],
  fields: [
    { name: "imageUrl", label: "切图", type: "image", required: true, list: true },
    { name: "foodId", label: "菜品标签", type: "relation", relation: "zhct/food", required: true, filter: "eq" },
    { name: "cutImageSource", label: "切图来源", type: "enum", dict: "cutImageSource", required: true, filter: "eq" },
    { name: "detectLogId", label: "识别记录", type: "relation", relation: "zhct/imageDetectLog", filter: "eq", description: "来源为识别时必填" },
    { name: "orderId", label: "订单", type: "relation", relation: "zhct/mealOrder", filter: "eq", description: "来源为订单时必填" },
    { name: "cutImageStatus", label: "切图状态", type: "enum", dict: "cutImageStatus", required: true, readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "originalFoodId", label: "原标签", type: "relation", relation: "zhct/food", readOnly: true },
    { name: "confirmedBy", label: "确认人", type: "text", readOnly: true, max: 100 },
    { name: "confirmedAt", label: "确认时间", type: "datetime", readOnly: true, sortable: true },
  ],
});

/** A survey of one restaurant for a period; its questions and options are edited on its own form. */
export const satisfactionSurve = defineResource({
  module: "zhct",
  entity: "satisfactionSurve",
  screen: "satisfactionsurve",
  screenBase: "/zhct",
  table: "satisfaction_surve",
  title: "满意度调查",
  scope: "tenant",
  labelField: "surveyName",
  defaultSort: { field: "beginDate", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  workflowActions: { answer: "提交答卷" },
  fields: [
    { name: "surveyName", label: "问卷名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", required: true, filter: "eq", relationWhere: { field: "orgType", values: ["restaurant"] } },
    { name: "beginDate", label: "开始日期", type: "date", required: true, sortable: true },
    { name: "endDate", label: "结束日期", type: "date", required: true, sortable: true },
    { name: "entityStatus", label: "发布状态", type: "enum", dict: "entityStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "questionCount", label: "题目数", type: "number", required: true, readOnly: true, defaultValue: 0, min: 0, max: 50 },
    { name: "description", label: "问卷说明", type: "longText", max: 500 },
  ],
});

export const satisfactionSurveQuestion = defineResource({
  module: "zhct",
  entity: "satisfactionSurveQuestion",
  screen: "satisfactionsurvequestion",
  screenBase: "/zhct",
  table: "satisfaction_surve_question",
  title: "调查题目",
  scope: "tenant",
  labelField: "questionTitle",
  defaultSort: { field: "sort", dir: "asc" },
  actions: [],
  fields: [
    { name: "surveyId", label: "问卷", type: "relation", relation: "zhct/satisfactionSurve", required: true, filter: "eq", onDelete: "cascade" },
    { name: "questionTitle", label: "题目", type: "text", required: true, filter: "like", max: 200 },
    { name: "selectType", label: "选择类型", type: "enum", dict: "selectType", required: true, filter: "eq" },
    { name: "sort", label: "题号", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 999 },
  ],
});

export const satisfactionSurveOption = defineResource({
  module: "zhct",
  entity: "satisfactionSurveOption",
  screen: "satisfactionsurveoption",
  screenBase: "/zhct",
  table: "satisfaction_surve_option",
  title: "题目选项",
  scope: "tenant",
  labelField: "optionText",
  defaultSort: { field: "sort", dir: "asc" },
  actions: [],
  fields: [
    { name: "questionId", label: "题目", type: "relation", relation: "zhct/satisfactionSurveQuestion", required: true, filter: "eq", onDelete: "cascade" },
    { name: "optionText", label: "选项", type: "text", required: true, max: 100 },
    { name: "sort", label: "排序", type: "number", required: true, sortable: true, defaultValue: 0, min: 0, max: 999 },
  ],
});

/** One diner's answers to one survey: at most one per diner (the unique key holds under racing submissions). */
export const satisfactionSurveAnswer = defineResource({
  module: "zhct",
  entity: "satisfactionSurveAnswer",
  screen: "satisfactionsurveanswer",
  screenBase: "/zhct",
  table: "satisfaction_surve_answer",
  title: "调查答卷",
  scope: "tenant",
  labelField: "userInfoId",
  defaultSort: { field: "answeredAt", dir: "desc" },
  actions: ["export"],
  uniqueKeys: [{ fields: ["surveyId", "userInfoId"], message: "该人员已提交过此问卷，不能重复作答" }],
  fields: [
    // Not cascading: a survey that has answers cannot be deleted.
    { name: "surveyId", label: "问卷", type: "relation", relation: "zhct/satisfactionSurve", required: true, filter: "eq" },
    { name: "userInfoId", label: "答卷人", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "answeredAt", label: "提交时间", type: "datetime", required: true, filter: "range", sortable: true },
  ],
});

/** One chosen option of an answer (a multiple-choice question has several). */
export const satisfactionSurveAnswerItem = defineResource({
  module: "zhct",
  entity: "satisfactionSurveAnswerItem",
  screen: "satisfactionsurveansweritem",
  screenBase: "/zhct",
  table: "satisfaction_surve_answer_item",
  title: "答卷明细",
  scope: "tenant",
  labelField: "optionId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: [],
  uniqueKeys: [{ fields: ["answerId", "optionId"], message: "同一选项只能选择一次" }],
  // The statistics count a survey's answers per option.
  indexes: [["surveyId", "optionId"]],
  fields: [
    { name: "answerId", label: "答卷", type: "relation", relation: "zhct/satisfactionSurveAnswer", required: true, filter: "eq", onDelete: "cascade" },
    { name: "surveyId", label: "问卷", type: "relation", relation: "zhct/satisfactionSurve", required: true, filter: "eq" },
    { name: "questionId", label: "题目", type: "relation", relation: "zhct/satisfactionSurveQuestion", required: true, filter: "eq" },
    { name: "optionId", label: "选项", type: "relation", relation: "zhct/satisfactionSurveOption", required: true, filter: "eq" },
  ],
});

/** Answers counted per question and option of one survey, with a chart per question and an XLSX export. */
export const satisfactionSurveStatics: ReportScreen = { module: "zhct", entity: "satisfactionSurveStatics", screen: "satisfactionsurvestatics", screenBase: "/zhct", title: "满意度统计" };
