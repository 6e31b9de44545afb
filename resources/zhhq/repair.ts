import { defineResource } from "../define";

/**
 * Repairs (spec §2 /zhhq, issue 36, decision 074): a request moves 已提交 → 已受理 (a worker assigned) → 维修中 →
 * 已完成 → 已评价, or 已驳回 with a reason, each a declared step; its work is written as details, its pictures are
 * uploads under spec §5's rules, and its parts are 维修出库 stock-outs that name its number, so their cost is the
 * stock's. The rules are in server/modules/zhhq/repair.ts.
 */
const restaurantOnly = { field: "orgType", values: ["restaurant"] } as const;
export const PHONE = { regex: /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?)$/, message: "联系电话应为 11 位手机号或带区号的固定电话" };
/** A repair's pictures at most, its own and its image rows together. */
export const REPAIR_IMAGES_MAX = 6;

export const repair = defineResource({
  module: "zhhq",
  entity: "repair",
  screen: "repair",
  screenBase: "/zhhq",
  table: "repair",
  title: "报修单",
  menuTitle: "报修管理",
  scope: "tenant",
  labelField: "repairNo",
  labelDetail: ["content"],
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "export"],
  indexes: [["repairStatus"]],
  rowLinks: [
    { action: "view", path: "/zhhq/repairdetail/index?repairId=:id", label: "维修记录" },
    { action: "view", path: "/zhhq/repairimage/index?repairId=:id", label: "图片" },
  ],
  workflow: {
    field: "repairStatus",
    colors: { "0": "blue", "1": "cyan", "2": "orange", "3": "green", "4": "teal", "9": "gray" },
    refusal: "该报修单当前为「{status}」，不能{action}",
    notFound: "报修单不存在",
    transitions: [
      {
        name: "accept",
        label: "受理",
        from: ["0"],
        to: "1",
        note: "受理并指派维修人员。",
        confirm: "受理报修单 {repairNo}：{content}",
        input: [
          { name: "workerName", label: "维修人员", type: "text", required: true, max: 50 },
          { name: "workerPhone", label: "维修人员电话", type: "text", max: 20, pattern: PHONE },
        ],
        done: "已受理，维修人员 {workerName}",
      },
      { name: "start", label: "开始维修", from: ["1"], to: "2", note: "维修人员到场开始维修。", done: "已开始维修" },
      {
        name: "finish",
        label: "完成",
        title: "完成维修",
        from: ["2"],
        to: "3",
        color: "blue",
        note: "维修完成；所用配件请先以 维修出库 出库并审核（维修单填本单号），完成时计入配件成本。",
        confirm: "报修单 {repairNo} 维修完成。",
        input: [{ name: "finishNote", label: "维修说明", type: "text", required: true, max: 500 }],
        done: "维修完成[，配件成本 {partsCost:yuan} 元]",
      },
      {
        name: "rate",
        label: "评价",
        from: ["3"],
        to: "4",
        color: "blue",
        note: "报修人对维修结果评分（1–5 分）。",
        confirm: "评价报修单 {repairNo}。",
        input: [
          { name: "rating", label: "评分", type: "number", required: true, min: 1, max: 5, description: "1–5 分" },
          { name: "ratingComment", label: "评价内容", type: "text", max: 500 },
        ],
        done: "已评价 {rating} 分",
      },
      { name: "reject", label: "驳回", from: ["0", "1"], to: "9", color: "red", reasonRequired: true, note: "驳回后报修单结束，报修人可重新报修。", confirm: "驳回报修单 {repairNo}。" },
    ],
  },
  fields: [
    { name: "repairNo", label: "报修单号", type: "text", readOnly: true, unique: true, filter: "like", sortable: true, max: 32, plain: true },
    { name: "placeType", label: "报修地点类型", type: "enum", dict: "repairPlaceType", required: true, filter: "eq" },
    { name: "dormitoryId", label: "宿舍房间", type: "relation", relation: "zhhq/dormitory", filter: "eq", description: "地点类型为宿舍时必选" },
    { name: "restaurantId", label: "餐厅", type: "relation", relation: "auth/org", filter: "eq", relationWhere: restaurantOnly, description: "地点类型为餐厅时必选" },
    { name: "place", label: "具体位置", type: "text", max: 100, placeholder: "如：二楼洗手间", description: "地点类型为其他时必填" },
    { name: "repairType", label: "报修类型", type: "enum", dict: "repairType", required: true, filter: "eq" },
    { name: "content", label: "报修内容", type: "longText", required: true, max: 1000, list: true },
    { name: "image", label: "报修照片", type: "image", description: "JPG 或 PNG，不超过 2M；更多照片在 图片 中添加，每单最多 6 张" },
    { name: "reporterName", label: "报修人", type: "text", required: true, filter: "like", max: 50 },
    { name: "reporterPhone", label: "联系电话", type: "text", max: 20, pattern: PHONE, list: false },
    { name: "expectedTime", label: "期望维修时间", type: "datetime", list: false },
    { name: "priority", label: "紧急程度", type: "enum", dict: "repairPriority", filter: "eq", defaultValue: "1" },
    { name: "repairStatus", label: "状态", type: "enum", dict: "repairStatus", readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "workerName", label: "维修人员", type: "text", readOnly: true, filter: "like" },
    { name: "workerPhone", label: "维修人员电话", type: "text", readOnly: true, list: false },
    { name: "acceptedAt", label: "受理时间", type: "datetime", readOnly: true, list: false },
    { name: "startedAt", label: "开始维修时间", type: "datetime", readOnly: true, list: false },
    { name: "finishedAt", label: "完成时间", type: "datetime", readOnly: true },
    { name: "acceptMinutes", label: "受理用时（分钟）", type: "number", readOnly: true, list: false },
    { name: "finishMinutes", label: "维修用时（分钟）", type: "number", readOnly: true, list: false },
    { name: "finishNote", label: "维修说明", type: "text", readOnly: true, list: false },
    { name: "partsCost", label: "配件成本（元）", type: "money", readOnly: true },
    { name: "rating", label: "评分", type: "number", readOnly: true },
    { name: "ratingComment", label: "评价内容", type: "text", readOnly: true, list: false },
    { name: "rejectReason", label: "驳回原因", type: "text", readOnly: true, list: false },
  ],
});

/** The work done on a repair: who, what, how long. */
export const repairDetail = defineResource({
  module: "zhhq",
  entity: "repairDetail",
  screen: "repairdetail",
  screenBase: "/zhhq",
  table: "repair_detail",
  title: "维修记录",
  scope: "tenant",
  labelField: "note",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "delete", "export"],
  indexes: [["repairId"]],
  fields: [
    { name: "repairId", label: "报修单", type: "relation", relation: "zhhq/repair", required: true, filter: "eq", onDelete: "cascade" },
    { name: "workerName", label: "维修人员", type: "text", max: 50, description: "不填为报修单的维修人员" },
    { name: "note", label: "维修内容", type: "longText", required: true, max: 1000, list: true },
    { name: "hours", label: "工时（小时）", type: "quantity", min: 0, max: 1000 },
  ],
});

/** A repair's pictures before and after, each an upload under spec §5's image rules. */
export const repairImage = defineResource({
  module: "zhhq",
  entity: "repairImage",
  screen: "repairimage",
  screenBase: "/zhhq",
  table: "repair_image",
  title: "维修图片",
  scope: "tenant",
  labelField: "stage",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "delete", "export"],
  indexes: [["repairId"]],
  fields: [
    { name: "repairId", label: "报修单", type: "relation", relation: "zhhq/repair", required: true, filter: "eq", onDelete: "cascade" },
    { name: "stage", label: "阶段", type: "enum", dict: "repairImageStage", required: true, filter: "eq" },
    { name: "image", label: "图片", type: "image", required: true, list: true },
  ],
});

export const repairResources = [repair, repairDetail, repairImage] as const;
