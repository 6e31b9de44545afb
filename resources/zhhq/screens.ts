import type { ModuleScreens } from "../modules";
import { reportPages } from "../report/screens";
import { warehouseTransferDetail } from "./closing";
import { zhhqReports } from "./reports";

/**
 * 智慧后勤's menu groups (decision 062, issue 40): the warehouse's master data, its stock documents and stock views
 * (decision 068), transfers, stocktakes and the month's account (decision 073). A section lists only screens that exist
 * (decision 053).
 */
export const zhhqScreens = {
  menuGroups: [
    {
      subsystem: "zhhq",
      path: "/zhhq",
      title: "智慧后勤",
      icon: "building-warehouse",
      sort: 35,
      home: "/zhhq/warehouse/index",
      sections: [
        { title: "基础资料", screens: ["warehouse", "warehousetype", "goods", "goodstype", "unit", "goodsthreshold", "outusetype"] },
        {
          title: "采购",
          screens: [
            "supplier",
            "suppliertype",
            "suppliergoods",
            "supplierqualification",
            "supplierqualificationwarning",
            "purchsedemand",
            "purchsedemandaudit",
            "purchse",
            "purchsereceive",
            "purchsepriceaudit",
            "purchseconfirm",
            "purchseshare",
          ],
        },
        { title: "出入库", screens: ["warehousein", "warehouseinreturn", "warehouseout", "warehouseoutaudit", "warehouseoutrepair", "warehouseoutreturn"] },
        { title: "库存", screens: ["warehousereal", "warehouserealdetail", "warehouseledger", "warehousewarning"] },
        { title: "调拨", screens: ["warehousetransfer", "warehousetransferdetail", "warehousetransferout", "warehousetransferin"] },
        { title: "盘点与结账", screens: ["warehousecheck", "warehouseaccountmonthsettle", "warehouseaccountmonth"] },
        {
          title: "报表",
          screens: ["warehousedailyreport", "warehousemonthreport", "purchasereport", "warehouseinreport", "warehouseoutreport", "repairdetailreport", "warehousecheckreport"],
        },
        { title: "追溯", screens: ["batchtrace", "restauranttrace"] },
        { title: "宿舍", screens: ["dormitory", "roomtype", "userdormitory", "meterreading", "waterelectricmonth", "waterelectricshare", "message"] },
        { title: "维修", screens: ["repair", "repairdetail", "repairimage"] },
        { title: "车辆", screens: ["vehicles", "travelrequests"] },
      ],
    },
  ],
  screens: [
    ...reportPages(zhhqReports),
    ...reportPages([warehouseTransferDetail]),
    /** 月末结账's two steps (decision 073): generate and make formal, a month at a time. */
    { path: "zhhq/warehousewarning/index", file: "routes/zhhq/warning.tsx" },
    // A stocktake's lines are the book's: its editor is the count of each line, not the generic lines grid.
    { path: "zhhq/warehousecheck/edit/:id", file: "routes/zhhq/check-count.tsx", replacesGenerated: true },
    // Pages a document offers beside its steps (`pages` in its declaration).
    { path: "zhhq/purchsedemand/approveAdjusted/:id", file: "routes/zhhq/demand-approve.tsx" },
    { path: "zhhq/purchse/fromDemand", file: "routes/zhhq/order-from-demands.tsx" },
    { path: "zhhq/warehousecheck/importCount/:id", file: "routes/zhhq/check-import.tsx" },
  ],
} as const satisfies ModuleScreens;
