import { sysModule } from "../../../resources/sys/module";
import type { ServerModule } from "../manifest";
import { shellEndpoints } from "../shell";
import { sysEndpoints } from "./endpoints";
import { fileEndpoints } from "./files";
import { sysServices } from "./services";
import { tenantEndpoints, tenantService } from "./tenant";

/** 系统管理 on the server (decision 062). The shell's own calls (settings, tickets, images, complaints) sit here too. */
export const sysManifest: ServerModule = {
  declaration: sysModule,
  services: { "sys/tenant": tenantService, ...sysServices },
  endpoints: [...sysEndpoints, ...fileEndpoints, ...shellEndpoints, ...tenantEndpoints],
  documentRules: {},
  ledgers: [],
  paymentHooks: [],
};
