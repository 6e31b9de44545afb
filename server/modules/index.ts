import { modules, type ModuleName } from "../../resources/index";
import { authManifest } from "./auth/manifest";
import type { ServerModule } from "./manifest";
import { reportManifest } from "./report/manifest";
import { sysManifest } from "./sys/manifest";
import { zhctManifest } from "./zhct/manifest";
import { zhhqManifest } from "./zhhq/manifest";
import { scManifest } from "./sc/manifest";

/** Each module's server half by its name: a module in the list (resources/index.ts) without one does not compile. */
const manifests: { [Name in ModuleName]: ServerModule } = {
  sys: sysManifest,
  auth: authManifest,
  zhct: zhctManifest,
  zhhq: zhhqManifest,
  sc: scManifest,
  report: reportManifest,
};

/** The server's modules, in the order of the one list of modules (decision 062). */
export const serverModules: readonly ServerModule[] = modules.map((m) => manifests[m.name]);
