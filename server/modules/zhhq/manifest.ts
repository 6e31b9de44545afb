import { zhhqModule } from "../../../resources/zhhq/module";
import type { ServerModule } from "../manifest";
import { masterServices } from "./master";

/** 智慧后勤 on the server (decision 062): the rules of the warehouse's master data (decision 067). */
export const zhhqManifest: ServerModule = {
  declaration: zhhqModule,
  services: masterServices,
  endpoints: [],
  documentRules: {},
  ledgers: [],
  paymentHooks: [],
};
