import type { ModuleScreens } from "../modules";

/**
 * 智慧餐厅's menu groups and its own screens (decision 062): read by the route table, the seeded menus and the group
 * pages' loaders, never by a page's scripts, so they are kept apart from the declarations every list page loads.
 */
export const zhctScreens = {
  menuGroups: [
    {
      subsystem: "zhct",
      path: "/zhct",
      title: "智慧餐厅",
      icon: "tools-kitchen-2",
      sort: 30,
      home: "/zhct/bowls",
      sections: [
        { title: "基础资料", screens: ["food", "foodtype", "bowls", "foodnutrition", "foodrecipe", "foodmenubowls", "devicefood", "mealtimes", "imagelibrary"] },
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
        { title: "设置", screens: ["paytype", "topupchannel", "paylimitconfig", "onlinepayrule", "merchantdivide", "integralstrategy", "mealticketsetting"] },
      ],
    },
  ],
  /** Screens that are not lists: the week of daily menus, the batch-create screens, the step and money screens. */
  screens: [
    { path: "zhct/foodmenu/index", file: "routes/zhct/menu-week.tsx", replacesGenerated: true },
    { path: "zhct/foodmenu/list", file: "routes/resource/list.tsx", id: "zhct/foodMenu:list-view" },
    { path: "zhct/foodmenu/batch-create/:foodMenuTypeId", file: "routes/zhct/menu-batch.tsx", id: "zhct/foodMenu:batch-create" },
    { path: "zhct/foodmenuTemplate/batch-create/:foodMenuTypeId", file: "routes/zhct/menu-batch.tsx", id: "zhct/foodMenuTemplate:batch-create" },
    { path: "zhct/useraccountcharge/:kind", file: "routes/zhct/charge-form.tsx", id: "zhct/userAccountCharge:form" },
    { path: "zhct/useraccountcharge/receipt/:id", file: "routes/zhct/charge-receipt.tsx" },
    { path: "zhct/useraccountcharge/reverse/:id", file: "routes/zhct/charge-reverse.tsx" },
    { path: "zhct/userinfo/account/:id", file: "routes/zhct/userinfo-account.tsx" },
    { path: "zhct/userinfo/audit/:id", file: "routes/zhct/userinfo-audit.tsx" },
    { path: "zhct/autochargesetting/run/:id", file: "routes/zhct/autocharge-run.tsx" },
    { path: "zhct/chargedailyreport/index", file: "routes/zhct/charge-daily-report.tsx" },
    { path: "zhct/userinfodept/index", file: "routes/zhct/userinfo-dept.tsx" },
    { path: "zhct/useraccountintegraldetail/adjust", file: "routes/zhct/points-adjust.tsx" },
    { path: "zhct/mealorder/create", file: "routes/zhct/order-create.tsx" },
    { path: "zhct/mealorder/detail/:id", file: "routes/zhct/order-detail.tsx" },
    { path: "zhct/cashier/index", file: "routes/zhct/cashier.tsx" },
    { path: "zhct/cashierprint/index", file: "routes/zhct/cashier-print.tsx" },
    { path: "zhct/mealticket/approve/:id", file: "routes/zhct/ticket-approve.tsx" },
    { path: "zhct/userorderdefaultgenerate/generate", file: "routes/zhct/default-generate.tsx" },
    { path: "zhct/imagedetectlog/mark/:id", file: "routes/zhct/detect-mark.tsx" },
    { path: "zhct/imagelibrary/confirm/:id", file: "routes/zhct/image-confirm.tsx" },
    { path: "zhct/satisfactionsurve/create", file: "routes/zhct/survey-form.tsx", id: "zhct/satisfactionSurve:create-form", replacesGenerated: true },
    { path: "zhct/satisfactionsurve/edit/:id", file: "routes/zhct/survey-form.tsx", id: "zhct/satisfactionSurve:edit-form", replacesGenerated: true },
    { path: "zhct/satisfactionsurvestatics/index", file: "routes/zhct/survey-statics.tsx" },
    { path: "zhct/mealordercomplaints/process/:id", file: "routes/zhct/complaint-process.tsx" },
    { path: "zhct/food/recipe/:id", file: "routes/zhct/food-recipe.tsx" },
  ],
} satisfies ModuleScreens;
