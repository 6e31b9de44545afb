import { reportModule } from "../../../resources/report/module";
import type { ServerModule } from "../manifest";
import { bankEndpoints } from "./bank";
import { dashboardEndpoints } from "./dashboard";
import { reportEngineEndpoints } from "./engine";

/** 报表 on the server (decision 062): the declared reports' engine, the dashboard, bank reconciliation. */
export const reportManifest: ServerModule = {
  declaration: reportModule,
  services: {},
  endpoints: [...reportEngineEndpoints, ...dashboardEndpoints, ...bankEndpoints],
  documentRules: {},
  ledgers: [],
  paymentHooks: [],
};
