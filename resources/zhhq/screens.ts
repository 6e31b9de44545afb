import type { ModuleScreens } from "../modules";

/**
 * 智慧后勤's menu groups (decision 062, issue 40): the warehouse's master data, its stock documents and stock views
 * (decision 068). A section lists only screens that exist (decision 053).
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
        { title: "采购", screens: ["supplier", "suppliertype", "suppliergoods"] },
        { title: "出入库", screens: ["warehousein", "warehouseinreturn", "warehouseout", "warehouseoutaudit", "warehouseoutrepair", "warehouseoutreturn"] },
        { title: "库存", screens: ["warehousereal", "warehouserealdetail", "warehouseledger"] },
        { title: "宿舍", screens: ["dormitory", "roomtype", "userdormitory", "meterreading", "waterelectricmonth", "waterelectricshare"] },
        { title: "维修", screens: ["repair", "repairdetail", "repairimage"] },
      ],
    },
  ],
  screens: [],
} as const satisfies ModuleScreens;
