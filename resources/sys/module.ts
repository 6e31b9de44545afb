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
} satisfies ModuleDeclaration<"sys">;
