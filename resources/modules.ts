/** Menu groups of the subsystems: each module's screens sit under one `path` entry (spec §2). */
export interface MenuGroup {
  subsystem: string;
  path: string;
  title: string;
  icon: string;
  sort: number;
  /** Where the group's bare path redirects (spec: /admin/sys → /admin/sys/tenant). */
  home: string;
  /**
   * A long module's pages in sections, as an operator looks for them (issue 38, decision 053): each a `path` entry
   * (目录) under the group holding the listed screens (`screen` of a declaration or report), in this order.
   */
  sections?: MenuSection[];
}

export interface MenuSection {
  title: string;
  screens: string[];
}

export const menuGroups: MenuGroup[] = [
  {
    subsystem: "admin",
    path: "/admin/sys",
    title: "系统管理",
    icon: "settings",
    sort: 10,
    home: "/admin/sys/tenant",
    sections: [
      { title: "系统设置", screens: ["tenant", "subsystem", "menu", "parameterconfig", "dict", "dictitem", "holiday", "announcement", "imageobj", "operationlog"] },
      { title: "设备", screens: ["device", "appversion", "modelversion", "exceptioninfo", "printdevice", "devicedetectconfig", "iccard"] },
      { title: "商户", screens: ["merchant", "merchantconfig", "merchantorg"] },
    ],
  },
  { subsystem: "admin", path: "/admin/auth", title: "权限管理", icon: "shield-lock", sort: 20, home: "/admin/auth/org" },
  {
    subsystem: "zhct",
    path: "/zhct",
    title: "智慧餐厅",
    icon: "tools-kitchen-2",
    sort: 30,
    home: "/zhct/bowls",
    sections: [
      { title: "基础资料", screens: ["food", "foodtype", "bowls", "foodnutrition", "foodmenubowls", "devicefood", "mealtimes", "imagelibrary"] },
      { title: "菜单", screens: ["foodmenu", "foodmenuitem", "foodmenutype", "foodmenuTemplate", "foodmenutypeTemplate", "orderingfood"] },
      {
        title: "人员与账户",
        screens: ["userinfo", "useraccount", "useraccountcharge", "useraccountledger", "usericcard", "autochargesetting", "autochargerun", "autochargegrant", "useraccountmonthsettle", "userintegralaccount", "useraccountintegraldetail", "userinfodept", "useraccounttable", "userplate"],
      },
      {
        title: "订单与收银",
        screens: ["cashier", "cashierprint", "mealorder", "mealorderitem", "cashiermealorder", "mealordercomplaints", "mealrecovery", "mealticket", "mealticketuse", "chargedailyreport", "imagedetectlog", "imagedetectfood", "mealorderimagedetail"],
      },
      {
        title: "预约与配送",
        screens: ["appointmentperiod", "appointmentdetail", "appointmentdetailfororder", "orderingplan", "userorderdefault", "userorderdefaultleave", "userorderdefaultgenerate", "userorderdefaultgeneratedetail", "userorderdefaultpc", "room", "roomreservation", "deliverypoint", "deliverytime", "mealorderdelivery"],
      },
      { title: "满意度与通知", screens: ["satisfactionsurve", "satisfactionsurvequestion", "satisfactionsurveoption", "satisfactionsurveanswer", "satisfactionsurveansweritem", "satisfactionsurvestatics", "userinfosendmessage"] },
      { title: "设置", screens: ["paytype", "paylimitconfig", "onlinepayrule", "merchantdivide", "integralstrategy", "mealticketsetting"] },
    ],
  },
  {
    subsystem: "zhhq",
    path: "/zhhq",
    title: "智慧后勤",
    icon: "building-warehouse",
    sort: 35,
    home: "/zhhq/warehouse/index",
    sections: [
      { title: "基础资料", screens: ["warehouse", "warehousetype", "goods", "goodstype", "unit", "goodsthreshold", "outusetype"] },
      { title: "采购", screens: ["supplier", "suppliertype", "suppliergoods"] },
    ],
  },
  {
    subsystem: "report",
    path: "/report",
    title: "报表",
    icon: "chart-bar",
    sort: 40,
    home: "/report/dailyordersummary/index",
    sections: [
      { title: "订单与菜品", screens: ["dailyordersummary", "dailyorderdetail", "foodcount", "userfood", "canteencounts", "pointsorderstats"] },
      { title: "就餐与预约", screens: ["personaldining", "deptdining", "deptbooking", "cardswipe", "noswipe", "deliverycount"] },
      { title: "账户与充值", screens: ["userconsumption", "personalledger", "chargedailyreport", "accounttypedaily", "chargemachine", "bankreconcile"] },
      { title: "结算与补贴", screens: ["monthlysettlementuser", "monthlysettlementmerchant", "teachersubsidy", "staffpointsmonthly", "mealticketsummary", "mealticketdetail"] },
    ],
  },
];

/** Button labels of the generated permission codes. */
export const actionLabels = { create: "新增", update: "修改", delete: "删除", export: "导出", import: "导入" } as const;

/**
 * Screens that are reports over other tables (no table of their own): each gets a menu page under its module's
 * group and a view permission `module:entity:view`, like a declared resource's list.
 */
export interface ReportScreen {
  module: string;
  entity: string;
  screen: string;
  screenBase: string;
  title: string;
  /** Button permissions of the screen (`module:entity:<action>`), seeded under its page entry. */
  buttons?: Record<string, string>;
}
