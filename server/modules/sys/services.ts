import { resourceKey } from "../../../resources/define";
import { announcement } from "../../../resources/sys/announcement";
import { appVersion } from "../../../resources/sys/appVersion";
import { deviceDetectConfig } from "../../../resources/sys/deviceDetectConfig";
import { dict } from "../../../resources/sys/dict";
import { dictItem } from "../../../resources/sys/dictItem";
import { exceptionInfo } from "../../../resources/sys/exceptionInfo";
import { iccardInit } from "../../../resources/sys/iccardInit";
import { menu } from "../../../resources/sys/menu";
import { merchantConfig } from "../../../resources/sys/merchantConfig";
import { merchantOrg } from "../../../resources/sys/merchantOrg";
import { modelVersion } from "../../../resources/sys/modelVersion";
import { parameterConfig } from "../../../resources/sys/parameterConfig";
import { subsystem } from "../../../resources/sys/subsystem";
import type { Endpoint } from "../../http/endpoint";
import type { ResourceService } from "../resource/engine";
import { appVersionEndpoints, appVersionService } from "./appVersion";
import { deviceEndpoints } from "./device";
import { deviceDetectConfigService } from "./deviceDetectConfig";
import { dictItemService, dictService } from "./dict";
import { exceptionInfoService } from "./exceptionInfo";
import { iccardInitService } from "./iccardInit";
import { menuEndpoints, menuService } from "./menuAdmin";
import { merchantConfigService, merchantEndpoints, merchantOrgService, parameterConfigService } from "./merchant";
import { publishing } from "./rules";
import { subsystemService } from "./subsystem";

/** The rules of the system-management entities, by resource key. */
export const sysServices: Record<string, ResourceService> = {
  [resourceKey(subsystem)]: subsystemService,
  [resourceKey(menu)]: menuService,
  [resourceKey(dict)]: dictService,
  [resourceKey(dictItem)]: dictItemService,
  [resourceKey(appVersion)]: appVersionService,
  [resourceKey(modelVersion)]: publishing(modelVersion, "status", "publishedAt", true),
  [resourceKey(announcement)]: publishing(announcement, "publishStatus", "publishedAt", false),
  [resourceKey(exceptionInfo)]: exceptionInfoService,
  [resourceKey(parameterConfig)]: parameterConfigService,
  [resourceKey(merchantConfig)]: merchantConfigService,
  [resourceKey(merchantOrg)]: merchantOrgService,
  [resourceKey(deviceDetectConfig)]: deviceDetectConfigService,
  [resourceKey(iccardInit)]: iccardInitService,
};

/** Their actions beyond list/create/update/delete: menu tree, device parameters and heartbeat, latest version, merchant config by key. */
export const sysRuleEndpoints: Endpoint[] = [...menuEndpoints, ...deviceEndpoints, ...appVersionEndpoints, ...merchantEndpoints];
