import type { ModuleScreens } from "../modules";

/**
 * 智慧后勤's menu groups (decision 062, issue 40): the warehouse's master data so far. A section lists only screens
 * that exist (decision 053): 库存 and the stock documents' sections come with them.
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
      ],
    },
  ],
  screens: [],
} as const satisfies ModuleScreens;
