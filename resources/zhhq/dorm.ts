import { defineResource } from "../define";

/**
 * The dormitory (spec §2 /zhhq, issue 36, decision 074): room types, rooms, who lives in which bed, the meters read
 * each month and the month's water, electricity and rent bill, split among the residents by the days each lived there
 * and paid from their canteen accounts. The rules are in server/modules/zhhq/dorm.ts.
 */
const MONTH = { regex: /^\d{4}-(0[1-9]|1[0-2])$/, message: "月份格式应为 YYYY-MM，如 2026-11" };
const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;
const month = { name: "month", label: "月份", type: "text", required: true, filter: "eq", sortable: true, max: 7, pattern: MONTH, placeholder: "如：2026-11" } as const;
const room = { name: "dormitoryId", label: "房间", type: "relation", relation: "zhhq/dormitory", required: true, filter: "eq" } as const;

export const roomType = defineResource({
  module: "zhhq",
  entity: "roomType",
  screen: "roomtype",
  screenBase: "/zhhq",
  table: "room_type",
  title: "房间类型",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "typeName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  fields: [
    { name: "typeName", label: "类型名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50, placeholder: "如：四人间" },
    { name: "beds", label: "床位数", type: "number", required: true, min: 1, max: 20, sortable: true },
    { name: "monthlyRent", label: "月租金（元）", type: "money", defaultValue: 0, min: 0, max: 10_000_000, sortable: true, description: "整间房每月的租金，按入住天数分摊给住宿人员" },
    { name: "genderRule", label: "性别限制", type: "enum", dict: "dormGender", filter: "eq", defaultValue: "any" },
    { name: "status", label: "状态", type: "enum", dict: "status", filter: "eq", defaultValue: "1" },
    remark,
  ],
});

export const dormitory = defineResource({
  module: "zhhq",
  entity: "dormitory",
  screen: "dormitory",
  screenBase: "/zhhq",
  table: "dormitory",
  title: "宿舍房间",
  menuTitle: "宿舍管理",
  scope: "tenant",
  labelField: "roomNo",
  labelDetail: ["building"],
  defaultSort: { field: "roomNo", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  uniqueKeys: [{ fields: ["building", "roomNo"], message: "该楼栋已有此房间号" }],
  fields: [
    { name: "building", label: "楼栋", type: "text", required: true, filter: "like", sortable: true, max: 50, placeholder: "如：1号楼" },
    { name: "floor", label: "楼层", type: "number", min: -5, max: 200, sortable: true },
    { name: "roomNo", label: "房间号", type: "text", required: true, filter: "like", sortable: true, max: 20, placeholder: "如：301" },
    { name: "roomTypeId", label: "房间类型", type: "relation", relation: "zhhq/roomType", filter: "eq" },
    { name: "beds", label: "床位数", type: "number", min: 1, max: 20, sortable: true, description: "不填按房间类型的床位数" },
    { name: "gender", label: "性别限制", type: "enum", dict: "dormGender", filter: "eq", description: "不填按房间类型的性别限制" },
    { name: "status", label: "状态", type: "enum", dict: "dormRoomStatus", filter: "eq", defaultValue: "1", description: "停用的房间不能入住" },
    remark,
  ],
});

/** Who lives in which bed: a check-in is a create (在住); 退宿 is the one step. Rows are never edited or deleted: they are the history. */
export const userDormitory = defineResource({
  module: "zhhq",
  entity: "userDormitory",
  screen: "userdormitory",
  screenBase: "/zhhq",
  table: "user_dormitory",
  title: "住宿登记",
  menuTitle: "入住退宿",
  scope: "tenant",
  labelField: "userInfoId",
  defaultSort: { field: "checkInDate", dir: "desc" },
  actions: ["create", "export"],
  indexes: [["dormitoryId", "liveStatus"], ["userInfoId", "liveStatus"]],
  workflow: {
    field: "liveStatus",
    colors: { "1": "green", "2": "gray" },
    refusal: "该住宿登记当前为「{status}」，不能{action}",
    notFound: "住宿登记不存在",
    transitions: [
      {
        name: "checkOut",
        label: "退宿",
        from: ["1"],
        to: "2",
        color: "orange",
        note: "退宿后床位空出；退宿当天不计入住天数。",
        confirm: "{userInfoIdLabel} 将从 {dormitoryIdLabel} {bedNo} 号床退宿。",
        input: [{ name: "checkOutDate", label: "退宿日期", type: "date", required: true }],
        done: "已退宿，退宿日期 {checkOutDate}",
      },
    ],
  },
  fields: [
    room,
    { name: "bedNo", label: "床位号", type: "number", required: true, min: 1, max: 20, plain: true },
    { name: "userInfoId", label: "住宿人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "checkInDate", label: "入住日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "checkOutDate", label: "退宿日期", type: "date", readOnly: true, sortable: true },
    { name: "liveStatus", label: "住宿状态", type: "enum", dict: "dormLiveStatus", readOnly: true, filter: "eq", defaultValue: "1" },
    remark,
  ],
});

/** A meter's reading of a month: the previous is the meter's last reading; a lower one is refused unless the meter was changed. */
export const meterReading = defineResource({
  module: "zhhq",
  entity: "meterReading",
  screen: "meterreading",
  screenBase: "/zhhq",
  table: "meter_reading",
  title: "水电抄表",
  scope: "tenant",
  labelField: "month",
  defaultSort: { field: "month", dir: "desc" },
  actions: ["create", "delete", "export"],
  uniqueKeys: [{ fields: ["dormitoryId", "meterType", "month"], message: "该房间本月已录入此表的读数" }],
  fields: [
    room,
    { name: "meterType", label: "表类型", type: "enum", dict: "meterType", required: true, filter: "eq" },
    month,
    { name: "previousReading", label: "上次读数", type: "quantity", readOnly: true, description: "取该表上一次的读数" },
    { name: "currentReading", label: "本次读数", type: "quantity", required: true, min: 0 },
    { name: "meterChanged", label: "换表", type: "boolean", description: "本月换了新表时勾选，并填写新表的起始读数" },
    { name: "startReading", label: "新表起始读数", type: "quantity", min: 0, list: false },
    { name: "used", label: "用量", type: "quantity", readOnly: true },
    remark,
  ],
});

/**
 * A room's bill of a month, made from its readings, the tenant's unit prices (系统参数 zhhq.dorm.waterPrice and
 * zhhq.dorm.electricPrice, 元 per unit) and its type's rent; creating it with a room and a month makes its shares.
 */
export const waterElectricMonth = defineResource({
  module: "zhhq",
  entity: "waterElectricMonth",
  screen: "waterelectricmonth",
  screenBase: "/zhhq",
  table: "water_electric_month",
  title: "水电账单",
  scope: "tenant",
  labelField: "month",
  labelDetail: ["dormitoryId"],
  defaultSort: { field: "month", dir: "desc" },
  actions: ["create", "delete", "export"],
  uniqueKeys: [{ fields: ["dormitoryId", "month"], message: "该房间本月的账单已生成" }],
  rowLinks: [{ action: "view", path: "/zhhq/waterelectricshare/index?billId=:id", label: "分摊明细" }],
  workflow: {
    field: "payStatus",
    colors: { "0": "orange", "1": "green" },
    refusal: "该账单当前为「{status}」，不能{action}",
    notFound: "水电账单不存在",
    transitions: [
      {
        name: "pay",
        label: "从餐卡扣费",
        title: "从餐卡扣费",
        from: ["0"],
        to: "1",
        idempotent: true,
        note: "按分摊明细从每位住宿人员的现金账户扣费，一人一笔；余额不足的人员记为扣费失败并注明原因，其他人照常扣费。全部扣费成功后账单为已缴。",
        confirm: "将从 {dormitoryIdLabel} {month} 的住宿人员餐卡中扣除共 {totalAmount:yuan} 元。",
        done: "已扣费 {paidCount} 人[，扣费失败 {failedCount} 人，见分摊明细]",
      },
    ],
  },
  fields: [
    room,
    month,
    { name: "waterUsed", label: "用水量", type: "quantity", readOnly: true },
    { name: "electricUsed", label: "用电量", type: "quantity", readOnly: true },
    { name: "waterPrice", label: "水费单价（元）", type: "money", readOnly: true, list: false },
    { name: "electricPrice", label: "电费单价（元）", type: "money", readOnly: true, list: false },
    { name: "waterAmount", label: "水费（元）", type: "money", readOnly: true },
    { name: "electricAmount", label: "电费（元）", type: "money", readOnly: true },
    { name: "rentAmount", label: "租金（元）", type: "money", readOnly: true },
    { name: "totalAmount", label: "合计（元）", type: "money", readOnly: true, sortable: true },
    { name: "residentDays", label: "入住人天", type: "number", readOnly: true },
    { name: "payStatus", label: "缴费状态", type: "enum", dict: "billPayStatus", readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "paidAt", label: "缴费时间", type: "datetime", readOnly: true },
    remark,
  ],
});

/** A resident's share of a bill: the days lived that month, the amount to the fen, and what paying it did. */
export const waterElectricShare = defineResource({
  module: "zhhq",
  entity: "waterElectricShare",
  screen: "waterelectricshare",
  screenBase: "/zhhq",
  table: "water_electric_share",
  title: "水电分摊",
  scope: "tenant",
  labelField: "userInfoId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["export"],
  indexes: [["billId"]],
  fields: [
    { name: "billId", label: "账单", type: "relation", relation: "zhhq/waterElectricMonth", required: true, filter: "eq", onDelete: "cascade" },
    room,
    { name: "userInfoId", label: "住宿人员", type: "relation", relation: "zhct/userInfo", required: true, filter: "eq" },
    { name: "days", label: "入住天数", type: "number", required: true },
    { name: "amount", label: "分摊金额（元）", type: "money", required: true },
    { name: "shareStatus", label: "扣费状态", type: "enum", dict: "dormShareStatus", required: true, filter: "eq", defaultValue: "0" },
    { name: "failReason", label: "失败原因", type: "text", max: 200 },
    { name: "ledgerId", label: "流水", type: "relation", relation: "zhct/userAccountLedger", list: false },
    { name: "paidAt", label: "扣费时间", type: "datetime" },
  ],
});

export const dormResources = [roomType, dormitory, userDormitory, meterReading, waterElectricMonth, waterElectricShare] as const;
