import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { dormEndpoints, dormServices } from "./dorm";
import { masterServices } from "./master";
import { repairEndpoints, repairServices } from "./repair";
import { stockDocumentRules, stockLedger } from "./stock";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), the dormitory and repairs (decision 074).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: { ...masterServices, ...dormServices, ...repairServices },
  endpoints: [...dormEndpoints, ...repairEndpoints],
  documentRules: stockDocumentRules,
  ledgers: [stockLedger],
  paymentHooks: [],
};
