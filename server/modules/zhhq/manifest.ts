import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { closingEndpoints, closingRules } from "./closing";
import { masterServices } from "./master";
import { stockDocumentRules, stockLedger } from "./stock";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), transfers, stocktakes and the month's stock account (decision 073).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: masterServices,
  endpoints: closingEndpoints,
  documentRules: { ...stockDocumentRules, ...closingRules },
  ledgers: [stockLedger],
  paymentHooks: [],
};
