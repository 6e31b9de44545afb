import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { closingEndpoints, closingRules } from "./closing";
import { masterServices } from "./master";
import { stockDocumentRules, stockLedger } from "./stock";
import { warningEndpoints } from "./warning";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), transfers, stocktakes, the month's stock account and the warnings
 * (decision 073).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: masterServices,
  endpoints: [...closingEndpoints, ...warningEndpoints],
  documentRules: { ...stockDocumentRules, ...closingRules },
  ledgers: [stockLedger],
  paymentHooks: [],
};
