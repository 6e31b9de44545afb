import type { ModuleDeclaration } from "../modules";
import { zhhqMasterResources } from "./master";

/** The logistics module's tables (decision 067), declared once: their migrations are written from these (decision 014). */
export const zhhqResources = [...zhhqMasterResources] as const;

/**
 * 智慧后勤 (spec §2 /zhhq, issue 40): the warehouse's master data so far. A section lists only screens that exist
 * (decision 053): 库存 and the stock documents' sections come with them.
 */
export const zhhqModule = {
  name: "zhhq",
  resources: [...zhhqResources],
  reports: [],
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
} as const satisfies ModuleDeclaration<"zhhq">;
