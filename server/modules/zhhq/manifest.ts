import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { zhhqReports } from "../../../resources/zhhq/reports";
import { reportEndpoints } from "../report/engine";
import { warehouseTransferDetail } from "../../../resources/zhhq/closing";
import { closingEndpoints, closingReportQueries, closingRules } from "./closing";
import { masterServices } from "./master";
import { purchaseDocumentRules, purchaseEndpoints } from "./purchase";
import { zhhqReportQueries } from "./reports";
import { dormEndpoints, dormServices } from "./dorm";
import { repairEndpoints, repairServices } from "./repair";
import { messageServices } from "./message";
import { vehicleEndpoints, vehicleServices } from "./vehicle";
import { stockDocumentRules, stockLedger } from "./stock";
import { warningEndpoints } from "./warning";

/**
 * 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067), the stock ledger and
 * the stock documents' allocators (decision 068), purchasing (decision 072), transfers, stocktakes, the month's stock
 * account and the warnings (decision 073), its reports and traceability (decision 076), the
 * dormitory and repairs (decision 074), vehicles and notices to residents (decision 083).
 */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: { ...masterServices, ...dormServices, ...repairServices, ...messageServices, ...vehicleServices },
  // Its reports run on 报表's engine, answered by the stock ledger's queries (decision 076).
  endpoints: [
    ...purchaseEndpoints, ...dormEndpoints, ...repairEndpoints, ...vehicleEndpoints, ...closingEndpoints, ...warningEndpoints,
    ...reportEndpoints(zhhqReports, zhhqReportQueries), ...reportEndpoints([warehouseTransferDetail], closingReportQueries),
  ],
  documentRules: { ...stockDocumentRules, ...purchaseDocumentRules, ...closingRules },
  ledgers: [stockLedger],
  paymentHooks: [],
};
