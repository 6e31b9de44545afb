/**
 * The built-in enumerations of spec §3 with their Chinese labels. The seed writes them as
 * dictionary items; after sign-in the server's items (regrouped by dictCode) replace or extend them.
 * Values are strings because the spec compares dictionary values as strings.
 */
export interface DictOption {
  value: string;
  label: string;
}

type DictTable = Record<string, { name: string; items: Array<[value: string | number, label: string]> }>;

const table = {
  status: { name: "状态", items: [[0, "无效"], [1, "有效"]] },
  userStatus: { name: "用户状态", items: [[1, "正常"], [2, "禁用"], [3, "冻结"]] },
  yesOrNo: { name: "是否", items: [[1, "是"], [0, "否"]] },
  sex: { name: "性别", items: [[0, "女"], [1, "男"], [2, "未知"]] },
  gender: { name: "性别（新）", items: [[1, "男"], [2, "女"], [0, "未知"]] },
  roleType: { name: "角色类型", items: [["user", "普通用户"], ["admin", "管理员"], ["super", "超级管理员"]] },
  menuType: { name: "菜单类型", items: [["page", "页面"], ["path", "目录"], ["url", "外部链接"], ["button", "按钮"], ["miniapp", "小程序"]] },
  menuTarget: { name: "打开方式", items: [["other", "当前窗口"], ["_blank", "新窗口"], ["iframe", "内嵌页面"]] },
  entityStatus: { name: "发布状态", items: [[0, "未发布"], [1, "已发布"]] },
  pageType: { name: "页面类型", items: [["table", "表格"], ["form", "表单"]] },
  foodMenuType: { name: "餐别", items: [["breakfast", "早餐"], ["lunch", "午餐"], ["dinner", "晚餐"], ["midnight", "夜宵"], ["all", "全天"]] },
  aliveStatus: { name: "在线状态", items: [[1, "在线"], [0, "离线"]] },
  appVersionStatus: { name: "版本状态", items: [[1, "已发布"], [0, "未发布"]] },
  payResult: { name: "支付结果", items: [[0, "失败"], [1, "成功"]] },
  userAccountFlag: {
    name: "支付方式",
    items: [
      [0, "IC卡"], [1, "刷脸"], [2, "扫码"], [3, "加班餐券"], [4, "接待餐券"], [5, "外卖餐券"],
      [6, "生日餐券"], [7, "值班餐券"], [100, "社交应用支付"], [101, "钱包应用支付"], [500, "自动扣款"],
    ],
  },
  detectStatus: { name: "识别状态", items: [[1, "正常"], [2, "多识别"], [3, "少识别"], [4, "误识别"]] },
  deviceType: { name: "设备类型", items: [["box", "盒子"], ["app", "应用"], ["detect_server", "识别服务器"]] },
  appVersionFileType: { name: "版本文件类型", items: [["apk", "APK"], ["bdu", "BDU"]] },
  detectImageType: { name: "识别图片类型", items: [[1, "结算"], [2, "回收"]] },
  userType: { name: "用户类型", items: [["user", "普通用户"], ["user2", "普通用户2"], ["manager", "管理者"], ["admin", "管理员"]] },
  orgType: { name: "机构类型", items: [["org", "机构"], ["department", "部门"], ["restaurant", "餐厅"], ["stall", "档口"]] },
  foodMenuMode: { name: "菜单模式", items: [[1, "机构"], [2, "餐厅"], [3, "档口"]] },
  dishClass: { name: "菜品类别", items: [[1, "荤菜"], [2, "半荤"], [3, "素菜"], [4, "主食"], [5, "其他"]] },
  // 3–6 extend spec §3 for the ledger (decision 017): a reversal, the monthly subsidy grant and clearing, a consumption given back.
  busiType: { name: "业务类型", items: [[0, "充值"], [1, "退款"], [2, "就餐消费"], [3, "冲正"], [4, "补贴发放"], [5, "补贴清零"], [6, "消费退回"], [7, "宿舍水电费"]] },
  // The dormitory (issue 36, decision 074).
  dormGender: { name: "宿舍性别限制", items: [["any", "不限"], ["male", "男"], ["female", "女"]] },
  dormRoomStatus: { name: "房间状态", items: [[1, "可用"], [0, "停用"]] },
  dormLiveStatus: { name: "住宿状态", items: [[1, "在住"], [2, "已退宿"]] },
  meterType: { name: "表类型", items: [["water", "水表"], ["electric", "电表"]] },
  billPayStatus: { name: "缴费状态", items: [[0, "未缴"], [1, "已缴"]] },
  dormShareStatus: { name: "扣费状态", items: [[0, "未扣费"], [1, "已扣费"], [2, "扣费失败"]] },
  repairStatus: { name: "报修状态", items: [[0, "已提交"], [1, "已受理"], [2, "维修中"], [3, "已完成"], [4, "已评价"], [9, "已驳回"]] },
  repairPlaceType: { name: "报修地点类型", items: [["dormitory", "宿舍"], ["restaurant", "餐厅"], ["other", "其他"]] },
  repairType: { name: "报修类型", items: [["water_electric", "水电"], ["door_window", "门窗"], ["furniture", "家具"], ["appliance", "电器"], ["kitchen", "厨房设备"], ["network", "网络"], ["other", "其他"]] },
  repairPriority: { name: "紧急程度", items: [[1, "普通"], [2, "紧急"], [3, "特急"]] },
  repairImageStage: { name: "维修图片阶段", items: [["report", "报修"], ["before", "维修前"], ["after", "维修后"]] },
  // Vehicles and notices to residents (issue 36, decision 083).
  vehicleFuel: { name: "燃料类型", items: [["gasoline", "汽油"], ["diesel", "柴油"], ["electric", "纯电动"], ["hybrid", "混合动力"], ["other", "其他"]] },
  vehicleStatus: { name: "车辆状态", items: [[1, "可用"], [2, "维修中"], [0, "停用"]] },
  travelRequestStatus: { name: "用车申请状态", items: [[0, "已提交"], [1, "已批准"], [2, "已出车"], [3, "已还车"], [8, "已驳回"], [9, "已取消"]] },
  noticeTarget: { name: "通知范围", items: [["building", "楼栋"], ["room", "房间"], ["all", "全部住宿人员"]] },
  accountType: { name: "账户类型", items: [["cash", "现金账户"], ["subsidy", "补贴账户"]] },
  ticketType: { name: "餐券类型", items: [[1, "加班"], [2, "接待"], [3, "外卖"], [5, "值班"]] },
  approvedStatus: { name: "审批状态", items: [[-1, "未审批"], [0, "驳回"], [1, "通过"]] },
  usedStatus: { name: "使用状态", items: [[0, "未使用"], [1, "已使用"], [2, "部分使用"]] },
  payMode: { name: "支付模式", items: [[0, "线下"], [1, "线上"]] },
  month: { name: "月份", items: Array.from({ length: 12 }, (_, i) => [i + 1, `${i + 1}月`] as [number, string]) },
  accountSettleStatus: { name: "结算状态", items: [[0, "暂存"], [1, "正式"]] },
  mealOrderComplaintsProcessStatus: { name: "申诉处理状态", items: [[0, "未处理"], [1, "已撤销"], [2, "已处理"], [3, "已驳回"]] },
  cardType: { name: "卡类型", items: [[1, "员工卡"], [2, "临时卡"], [3, "特权卡"]] },
  cardStatus: { name: "卡状态", items: [[1, "正常"], [2, "挂失"], [0, "无效"]] },
  selectType: { name: "选择类型", items: [[1, "单选"], [2, "多选"]] },
  week: { name: "星期", items: [[1, "星期日"], [2, "星期一"], [3, "星期二"], [4, "星期三"], [5, "星期四"], [6, "星期五"], [7, "星期六"]] },
  appointmentStatus: { name: "预约状态", items: [[1, "已预约"], [0, "已取消"], [2, "已完成"]] },
  orderType: { name: "订单类型", items: [[1, "默认"], [2, "点餐"], [3, "外卖"]] },
  orderAppointmentStatus: { name: "订餐预约状态", items: [[1, "未预约"], [2, "已预约"], [3, "超出预约时间"], [4, "已预约未就餐"]] },
  userInfoRoleType: {
    name: "人员角色类型",
    items: [["user", "普通用户"], ["manager", "管理者"], ["admin", "管理员"], ["externalUser", "外部人员"], ["roomBook", "包间预订"], ["foodTrain", "餐饮培训"]],
  },
  dictItemType: { name: "字典项类型", items: [[0, "文本"], [1, "数字"]] },
  userInfoAuditStatus: { name: "审核状态", items: [[0, "未审核"], [1, "通过"], [2, "不通过"]] },
  cutImageStatus: { name: "切图状态", items: [[0, "未确认"], [1, "已添加"]] },
  cutImageSource: { name: "切图来源", items: [["order", "订单"], ["detect", "识别"]] },
  // Every action the operation log records (recordOperation's), so the log names each in words; card moves log their label.
  operationAction: {
    name: "操作类型",
    items: [
      ["create", "新增"], ["update", "修改"], ["delete", "删除"], ["assignRole", "分配角色"], ["resetPasswd", "重置密码"],
      ["assignWarehouse", "分配仓库"], ["assignRestaurant", "分配餐厅"], ["assignMenu", "分配菜单"], ["setting", "参数设置"],
      ["report", "识别上报"], ["mark", "标记"], ["relabel", "改标确认"], ["confirm", "确认"], ["pickUp", "取餐"], ["cancel", "取消"],
      ["charge", "充值"], ["refund", "退款"], ["reverse", "冲正"], ["audit", "审核"], ["pay", "支付"], ["resend", "重发"],
      ["run", "立即执行"], ["process", "处理"], ["revoke", "撤销"], ["generate", "生成"], ["formal", "转正式"], ["approve", "审批通过"],
      ["reject", "驳回"], ["adjust", "积分调整"], ["batchCreate", "批量生成"], ["bind", "绑定"], ["release", "解绑"], ["reportLoss", "挂失"], ["unlock", "解挂"], ["reissue", "补卡"],
      // Documents' transitions (decision 060) that no step before them was called.
      ["submit", "提交"], ["void", "作废"],
    ],
  },
  navigationMode: { name: "导航模式", items: [["top", "顶部菜单"], ["left", "侧边菜单"]] },
  exceptionLevel: { name: "异常级别", items: [[1, "提示"], [2, "警告"], [3, "错误"], [4, "严重"]] },
  holidayType: { name: "日期类型", items: [[1, "节假日"], [2, "调休工作日"]] },
  iccardInitResult: { name: "IC卡初始化结果", items: [[1, "成功"], [0, "失败"]] },
  imageType: { name: "图片类型", items: [["logo", "标志"], ["banner", "横幅"], ["other", "其他"]] },
  messageState: { name: "消息状态", items: [[0, "待发送"], [1, "已发送"], [2, "发送失败"]] },
  orderSource: { name: "订单来源", items: [["cashier", "收银台"], ["device", "设备"], ["app", "应用"], ["admin", "后台"], ["default", "默认订餐"]] },
  mealOrderStatus: { name: "订单状态", items: [[1, "已支付"], [2, "已取消"], [3, "部分退款"], [4, "已全额退款"]] },
  enabledStatus: { name: "启用状态", items: [[1, "启用"], [0, "停用"]] },
  integralChangeType: { name: "积分变动类型", items: [[1, "消费获得"], [2, "过期"], [3, "人工调整"], [4, "取消扣回"]] },
  mealRecoveryStatus: { name: "回收状态", items: [[0, "待回收"], [1, "已回收"], [2, "异常"]] },
  // A table's or chip plate's binding to a diner (decision 028).
  bindStatus: { name: "绑定状态", items: [[1, "绑定中"], [0, "已解绑"]] },
  defaultGenerateResult: { name: "默认订餐生成结果", items: [[1, "已生成"], [2, "跳过"], [3, "失败"]] },
  accompanyPayBy: { name: "陪餐支付方", items: [[1, "个人支付"], [2, "部门支付"]] },
  accompanyStatus: { name: "陪餐状态", items: [[1, "已下单"], [2, "已取消"]] },
  /** The workflow statuses of every stock document (issue 40; resources/zhhq/stock.ts declares them with colours). */
  docStatus: { name: "单据状态", items: [[0, "草稿"], [1, "待审核"], [2, "已审核"], [3, "已驳回"]] },
  warehouseOutKind: { name: "出库类型", items: [[1, "领用出库"], [2, "维修出库"]] },
  purchasePriceAuditStatus: { name: "价格审核状态", items: [[0, "待审核"], [1, "已通过"], [2, "已驳回"]] },
  purchaseShareMethod: { name: "分摊方式", items: [[1, "按比例"], [2, "按金额"]] },
  /** A supplier's licences (issue 35, decision 076); 1–3 are the ones a stock-in needs in force (supplierQualification.ts). */
  supplierQualType: { name: "资质类型", items: [[1, "营业执照"], [2, "食品经营许可证"], [3, "食品生产许可证"], [4, "检验检疫证明"], [9, "其他"]] },
  scCostKind: { name: "采购性质", items: [[1, "直接食材成本"], [2, "费用"]] },
  scExpenseCategory: { name: "费用类别", items: [[1, "食材"], [2, "人工"], [3, "水电"], [4, "租金"], [5, "维修"], [6, "其他"]] },
  scIncomeSource: { name: "收入来源", items: [[1, "订单生成"], [2, "手工录入"]] },
  scCostSource: { name: "费用来源", items: [[1, "手工录入"], [2, "宿舍水电账单"], [3, "报修单配件"]] },
  scFinanceStatus: { name: "结算状态", items: [[0, "暂存"], [1, "已确认"]] },
  /** Issue 41 (resources/zhhq/closing.ts): a transfer's, a stocktake's and a stock month's statuses. */
  transferStatus: { name: "调拨状态", items: [[0, "草稿"], [1, "待审核"], [2, "在途"], [3, "已收货"], [4, "已驳回"]] },
  checkStatus: { name: "盘点状态", items: [[0, "盘点中"], [1, "待审核"], [2, "已审核"], [3, "已作废"]] },
  monthSettleStatus: { name: "结账状态", items: [[0, "临时"], [1, "正式"]] },
  deliveryPointType: { name: "配送点类型", items: [[1, "自提点"], [2, "送餐点"]] },
  orderingPayTime: { name: "付款时机", items: [[1, "预订时支付"], [2, "取餐时支付"]] },
} satisfies DictTable;

/** The dictionaries whose items are rows of a tenant's own table (a declaration's `dictionary`, decision 064). */
export type TenantDictCode = "topUpChannel";
export type DictCode = keyof typeof table | TenantDictCode;

export const builtInDicts: Record<string, { name: string; options: DictOption[] }> = Object.fromEntries(
  Object.entries(table as DictTable).map(([code, { name, items }]) => [
    code,
    { name, options: items.map(([value, label]) => ({ value: String(value), label })) },
  ]),
);

const numericDicts = new Set(
  Object.entries(builtInDicts)
    .filter(([, dict]) => dict.options.every((o) => /^-?\d+$/.test(o.value)))
    .map(([code]) => code),
);

/** A dictionary of whole numbers is kept in integer columns; the others in text columns. */
export function isNumericDict(code: string): boolean {
  return numericDicts.has(code);
}

export interface DictItem {
  dictCode: string;
  itemValue: string;
  itemText: string;
}

/** Regroups the server's items by dictCode over the built-in lists, as spec §3 says. */
export function mergeDictItems(items: DictItem[]): Record<string, DictOption[]> {
  const merged: Record<string, DictOption[]> = Object.fromEntries(
    Object.entries(builtInDicts).map(([code, dict]) => [code, dict.options]),
  );
  const fromServer = new Map<string, DictOption[]>();
  for (const item of items) {
    const list = fromServer.get(item.dictCode) ?? [];
    list.push({ value: String(item.itemValue), label: item.itemText });
    fromServer.set(item.dictCode, list);
  }
  for (const [code, options] of fromServer) merged[code] = options;
  return merged;
}

/** Values that mean "not in use" (spec §3: status 0 is a grey tag); lists show them grey. */
const inactiveValues: Record<string, string[]> = {
  status: ["0"],
  userStatus: ["2", "3"],
  entityStatus: ["0"],
  aliveStatus: ["0"],
  appVersionStatus: ["0"],
  enabledStatus: ["0"],
  bindStatus: ["0"],
};

export function isInactive(code: string, value: unknown): boolean {
  return inactiveValues[code]?.includes(String(value)) ?? false;
}

export function dictLabel(dicts: Record<string, DictOption[]>, code: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  const option = dicts[code]?.find((o) => o.value === String(value));
  return option?.label ?? String(value);
}
