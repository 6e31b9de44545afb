import type { ModuleDeclaration } from "../modules";
import { announcement } from "./announcement";
import { appVersion } from "./appVersion";
import { device } from "./device";
import { deviceDetectConfig } from "./deviceDetectConfig";
import { dict } from "./dict";
import { dictItem } from "./dictItem";
import { exceptionInfo } from "./exceptionInfo";
import { holiday } from "./holiday";
import { iccardInit } from "./iccardInit";
import { imageObj } from "./imageObj";
import { menu } from "./menu";
import { merchant } from "./merchant";
import { merchantConfig } from "./merchantConfig";
import { merchantOrg } from "./merchantOrg";
import { modelVersion } from "./modelVersion";
import { operationLog } from "./operationLog";
import { parameterConfig } from "./parameterConfig";
import { printDevice } from "./printDevice";
import { subsystem } from "./subsystem";
import { tenant } from "./tenant";

/** 系统管理: tenants, menus, dictionaries, devices and merchants. */
export const sysModule = {
  name: "sys",
  resources: [
    tenant, subsystem, menu, device, appVersion, modelVersion, exceptionInfo, parameterConfig, announcement, dict, dictItem,
    printDevice, imageObj, merchant, merchantConfig, merchantOrg, deviceDetectConfig, iccardInit, holiday, operationLog,
  ],
  reports: [],
  menuGroups: [
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
  ],
  /** The screens that are not the generic list or form. */
  screens: [
    { path: "admin/sys/menu/index", file: "routes/sys/menu-tree.tsx", replacesGenerated: true },
    { path: "admin/sys/menu/create/:subsystemId", file: "routes/sys/menu-form.tsx", id: "sys/menu:create-in" },
    { path: "admin/sys/menu/edit/:id", file: "routes/sys/menu-form.tsx", id: "sys/menu:edit-tree", replacesGenerated: true },
    { path: "admin/sys/device/setting/:id", file: "routes/sys/device-setting.tsx" },
    { path: "admin/sys/merchantconfig/edit/:merchantId/:parameterCode", file: "routes/sys/merchant-config-edit.tsx" },
    { path: "admin/sys/merchantconfig/edit/:id", file: "routes/sys/merchant-config-by-id.tsx", replacesGenerated: true },
    { path: "admin/sys/iccard/init", file: "routes/sys/iccard-init.tsx", id: "sys/iccardInit:init" },
    { path: "admin/sys/iccard/create", file: "routes/sys/iccard-init.tsx", id: "sys/iccardInit:create-init", replacesGenerated: true },
  ],
} satisfies ModuleDeclaration<"sys">;
