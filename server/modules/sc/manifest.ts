import { resourceKey } from "../../../resources/define";
import { scReports } from "../../../resources/sc/reports";
import { scModule } from "../../../resources/sc/module";
import type { ServerModule } from "../manifest";
import { reportEndpoints } from "../report/engine";
import { declaredDefaults } from "../resource/declaredDefaults";
import type { ResourceService } from "../resource/engine";
import { scMasterResources } from "../../../resources/sc/master";
import { financeEndpoints } from "./finance";
import { incomeEndpoints, incomeServices } from "./income";
import { purchaseRules } from "./purchase";
import { scReportQueries } from "./reports";
import { costExpenseServices, utilityEndpoints } from "./utilityCosts";

/** A status an API client leaves out is 有效 (as the warehouse's master data, decision 067). */
const masterDefaults: Record<string, ResourceService> = Object.fromEntries(
  scMasterResources.filter((def) => def.fields.some((f) => f.name === "status")).map((def) => [resourceKey(def), declaredDefaults(def)]),
);

/**
 * 收支管理 on the server (decision 062, issue 37, decision 075): income generated from the canteen's orders, the
 * purchases' totals and payments, and the two reports through the report engine.
 */
export const scManifest: ServerModule = {
  declaration: scModule,
  services: { ...masterDefaults, ...incomeServices, ...costExpenseServices },
  endpoints: [...incomeEndpoints, ...utilityEndpoints, ...financeEndpoints, ...reportEndpoints(scReports, scReportQueries)],
  documentRules: purchaseRules,
  ledgers: [],
  paymentHooks: [],
};
