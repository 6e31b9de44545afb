import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { zhhqReports } from "../../../resources/zhhq/reports";
import { reportEndpoints } from "../report/engine";
import { masterServices } from "./master";
import { purchaseDocumentRules, purchaseEndpoints } from "./purchase";
import { zhhqReportQueries } from "./reports";
import { stockDocumentRules, stockLedger } from "./stock";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), purchasing (decision 072).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: masterServices,
  // Its reports run on 报表's engine, answered by the stock ledger's queries (decision 076).
  endpoints: [...purchaseEndpoints, ...reportEndpoints(zhhqReports, zhhqReportQueries)],
  documentRules: { ...stockDocumentRules, ...purchaseDocumentRules },
  ledgers: [stockLedger],
  paymentHooks: [],
};
