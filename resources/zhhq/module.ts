import type { ModuleDeclaration } from "../modules";
import { dormResources } from "./dorm";
import { zhhqMasterResources } from "./master";
import { repairResources } from "./repair";
import { stockDocuments, stockViews } from "./stock";

/**
 * The logistics module's master tables (decision 067), typed into the database's schema (server/db/schema.ts). The
 * stock views' tables are the stock ledger's, which reads and writes them by its declaration's names (decision 068).
 */
export const zhhqResources = [...zhhqMasterResources, ...dormResources, ...repairResources] as const;

/**
 * 智慧后勤 (spec §2 /zhhq, issue 40): the warehouse's master data, its stock views and its stock documents
 * (decision 068). A section lists only screens that exist (decision 053).
 */
export const zhhqModule = {
  name: "zhhq",
  resources: [...zhhqResources, ...stockViews],
  reports: [],
  documents: [...stockDocuments],
} as const satisfies ModuleDeclaration<"zhhq">;
