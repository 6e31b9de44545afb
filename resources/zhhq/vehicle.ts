import { defineResource } from "../define";
import { PHONE } from "./repair";

/**
 * Vehicles (spec §2 /zhhq, issue 36, decision 083): the office's cars, and the travel requests that move 已提交 →
 * 已批准 (a car and a driver dispatched) → 已出车 → 已还车, or 已驳回 / 已取消, each a declared step. A car or a driver is
 * never dispatched to two overlapping time ranges. The rules are in server/modules/zhhq/vehicle.ts.
 */
const PLATE = { regex: /^[\u4e00-\u9fa5][A-Z][A-Z0-9]{5,6}$/, message: "车牌号格式应如 京A12345（新能源 京AD12345）" };
const KM = { type: "number", min: 0, max: 9_999_999 } as const;

export const vehicles = defineResource({
  module: "zhhq",
  entity: "vehicles",
  screen: "vehicles",
  screenBase: "/zhhq",
  table: "vehicle",
  title: "车辆",
  menuTitle: "车辆管理",
  scope: "tenant",
  labelField: "plateNo",
  labelDetail: ["model"],
  defaultSort: { field: "plateNo", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "plateNo", label: "车牌号", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 10, pattern: PLATE, placeholder: "京A12345" },
    { name: "brand", label: "品牌", type: "text", required: true, filter: "like", max: 50, placeholder: "如：丰田" },
    { name: "model", label: "型号", type: "text", required: true, max: 50, placeholder: "如：考斯特" },
    { name: "seats", label: "座位数", type: "number", required: true, min: 1, max: 100, sortable: true },
    { name: "fuelType", label: "燃料类型", type: "enum", dict: "vehicleFuel", required: true, filter: "eq" },
    { name: "odometer", label: "当前里程（公里）", ...KM, defaultValue: 0, sortable: true, description: "还车时按还车里程更新" },
    { name: "driverId", label: "默认驾驶员", type: "relation", relation: "zhct/userInfo", filter: "eq", description: "派车时不选驾驶员即为默认驾驶员" },
    { name: "insuranceExpiry", label: "保险到期日", type: "date", required: true, filter: "range", sortable: true, description: "到期前 30 天起在预警中提示；过期后不能派车" },
    { name: "inspectionExpiry", label: "年检到期日", type: "date", required: true, filter: "range", sortable: true, description: "到期前 30 天起在预警中提示；过期后不能派车" },
    { name: "status", label: "状态", type: "enum", dict: "vehicleStatus", filter: "eq", defaultValue: "1", description: "维修中、停用的车辆不能派车" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});

export const travelRequests = defineResource({
  module: "zhhq",
  entity: "travelRequests",
  screen: "travelrequests",
  screenBase: "/zhhq",
  table: "travel_request",
  title: "用车申请",
  scope: "tenant",
  labelField: "requestNo",
  labelDetail: ["purpose"],
  defaultSort: { field: "startTime", dir: "desc" },
  actions: ["create", "export"],
  indexes: [["vehicleId", "requestStatus"], ["driverId", "requestStatus"]],
  workflow: {
    field: "requestStatus",
    colors: { "0": "blue", "1": "cyan", "2": "orange", "3": "green", "8": "red", "9": "gray" },
    refusal: "该用车申请当前为「{status}」，不能{action}",
    notFound: "用车申请不存在",
    transitions: [
      {
        name: "dispatch",
        label: "派车",
        title: "批准并派车",
        from: ["0"],
        to: "1",
        note: "批准申请并派出车辆和驾驶员；同一车辆或驾驶员的用车时间不能重叠，停用、维修中或保险、年检过期的车辆不能派出。",
        confirm: "{requestNo}：{fromPlace} → {toPlace}，{passengers} 人。",
        input: [
          { name: "vehicleId", label: "车辆", type: "relation", relation: "zhhq/vehicles", required: true },
          { name: "driverId", label: "驾驶员", type: "relation", relation: "zhct/userInfo", description: "不选为车辆的默认驾驶员" },
        ],
        done: "已派车：{vehicleIdLabel}，驾驶员 {driverIdLabel}",
      },
      {
        name: "depart",
        label: "出车",
        from: ["1"],
        to: "2",
        color: "orange",
        note: "车辆出发，登记出车里程（不小于车辆当前里程）。",
        confirm: "{requestNo}：{vehicleIdLabel} 出车。",
        input: [{ name: "odometerOut", label: "出车里程（公里）", ...KM, required: true }],
        done: "已出车，出车里程 {odometerOut} 公里",
      },
      {
        name: "return",
        label: "还车",
        from: ["2"],
        to: "3",
        color: "blue",
        note: "车辆归还，登记还车里程；行驶里程 = 还车里程 − 出车里程，车辆当前里程随之更新。",
        confirm: "{requestNo}：{vehicleIdLabel} 还车，出车里程 {odometerOut} 公里。",
        input: [{ name: "odometerIn", label: "还车里程（公里）", ...KM, required: true }],
        done: "已还车，行驶 {distance} 公里",
      },
      { name: "reject", label: "驳回", from: ["0"], to: "8", color: "red", reasonRequired: true, note: "驳回后申请结束，申请人可重新申请。", confirm: "驳回用车申请 {requestNo}。" },
      { name: "cancel", label: "取消", from: ["0", "1"], to: "9", color: "red", note: "取消后申请结束，已派的车辆和驾驶员空出。", confirm: "取消用车申请 {requestNo}。", done: "已取消" },
    ],
  },
  fields: [
    { name: "requestNo", label: "申请单号", type: "text", readOnly: true, unique: true, filter: "like", sortable: true, max: 32, plain: true },
    { name: "applicant", label: "申请人", type: "text", required: true, filter: "like", max: 50 },
    { name: "applicantPhone", label: "联系电话", type: "text", max: 20, pattern: PHONE, list: false },
    { name: "purpose", label: "用车事由", type: "text", required: true, max: 200 },
    { name: "fromPlace", label: "出发地", type: "text", required: true, max: 100 },
    { name: "toPlace", label: "目的地", type: "text", required: true, max: 100 },
    { name: "passengers", label: "乘车人数", type: "number", required: true, min: 1, max: 100 },
    { name: "startTime", label: "开始时间", type: "datetime", required: true, filter: "range", sortable: true },
    { name: "endTime", label: "结束时间", type: "datetime", required: true, sortable: true },
    { name: "requestStatus", label: "状态", type: "enum", dict: "travelRequestStatus", readOnly: true, filter: "eq", defaultValue: "0" },
    { name: "vehicleId", label: "车辆", type: "relation", relation: "zhhq/vehicles", readOnly: true, filter: "eq" },
    { name: "driverId", label: "驾驶员", type: "relation", relation: "zhct/userInfo", readOnly: true, filter: "eq" },
    { name: "odometerOut", label: "出车里程（公里）", type: "number", readOnly: true, list: false },
    { name: "odometerIn", label: "还车里程（公里）", type: "number", readOnly: true, list: false },
    { name: "distance", label: "行驶里程（公里）", type: "number", readOnly: true },
    { name: "dispatchedAt", label: "派车时间", type: "datetime", readOnly: true, list: false },
    { name: "departedAt", label: "出车时间", type: "datetime", readOnly: true, list: false },
    { name: "returnedAt", label: "还车时间", type: "datetime", readOnly: true, list: false },
    { name: "rejectReason", label: "驳回原因", type: "text", readOnly: true, list: false },
  ],
});

export const vehicleResources = [vehicles, travelRequests] as const;
