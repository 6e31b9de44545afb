import type { ModuleDeclaration } from "../modules";
import { bankReconcile } from "./bank";
import { reports } from "./index";

/** 报表: the declared reports, and 银行对账, which takes a file, so it is not a declared report (decision 034). */
export const reportModule = {
  name: "report",
  resources: [],
  reports: [...reports, bankReconcile],
} satisfies ModuleDeclaration<"report">;
