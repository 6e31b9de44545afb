import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { masterServices } from "./master";
import { purchaseDocumentRules, purchaseEndpoints } from "./purchase";
import { stockDocumentRules, stockLedger } from "./stock";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), purchasing (decision 072).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: masterServices,
  endpoints: purchaseEndpoints,
  documentRules: { ...stockDocumentRules, ...purchaseDocumentRules },
  ledgers: [stockLedger],
  paymentHooks: [],
};
