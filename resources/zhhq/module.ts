import type { ModuleDeclaration } from "../modules";
import { closingDocuments, closingViews, stockMonthClose, warehouseTransferDetail, warehouseWarning } from "./closing";
import { zhhqMasterResources } from "./master";
import { purchaseDocuments, purchaseResources } from "./purchase";
import { supplierQualification } from "./qualifications";
import { zhhqReports } from "./reports";
import { dormResources } from "./dorm";
import { repairResources } from "./repair";
import { message } from "./message";
import { vehicleResources } from "./vehicle";
import { stockDocuments, stockViews } from "./stock";

/**
 * The logistics module's master tables (decision 067), typed into the database's schema (server/db/schema.ts). The
 * stock views' tables are the stock ledger's, which reads and writes them by its declaration's names (decision 068).
 */
export const zhhqResources = [...zhhqMasterResources, supplierQualification, ...dormResources, ...repairResources, message, ...vehicleResources] as const;

/**
 * 智慧后勤 (spec §2 /zhhq, issues 40 and 41): the warehouse's master data, its stock views and its stock documents
 * (decision 068), transfers, stocktakes and the month's stock account (decision 073). A section lists only screens
 * that exist (decision 053).
 */
export const zhhqModule = {
  name: "zhhq",
  resources: [...zhhqResources, ...stockViews, ...purchaseResources, ...closingViews],
  reports: [...zhhqReports, warehouseWarning, warehouseTransferDetail],
  documents: [...stockDocuments, ...purchaseDocuments, ...closingDocuments],
  monthSettles: [stockMonthClose],
} as const satisfies ModuleDeclaration<"zhhq">;
