import type { ModuleDeclaration } from "../modules";
import { merchantMonthClose, scMerchantFinance } from "./finance";
import { scMasterResources } from "./master";
import { scDocuments } from "./purchase";
import { scReports } from "./reports";

/** 收支管理's tables, typed into the database's schema (server/db/schema.ts). */
export const scResources = [...scMasterResources, scMerchantFinance] as const;

/**
 * 收支管理 (spec §2 /sc, issue 37, decision 075): goods and suppliers bought outside the warehouse, purchases, income
 * (generated from the canteen's orders, and manual), costs and expenses, and the direct cost share and operating
 * margin reports.
 */
export const scModule = {
  name: "sc",
  resources: [...scResources],
  reports: [...scReports],
  documents: [...scDocuments],
  monthSettles: [merchantMonthClose],
} as const satisfies ModuleDeclaration<"sc">;
