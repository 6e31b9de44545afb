import { modules, type ModuleName } from "./index";
import { moduleScreens, type MenuGroup, type ModuleScreens, type ScreenRoute } from "./modules";
import { authScreens } from "./auth/screens";
import { reportScreens } from "./report/screens";
import { sysScreens } from "./sys/screens";
import { zhctScreens } from "./zhct/screens";
import { zhhqScreens } from "./zhhq/screens";
import { scScreens } from "./sc/screens";

/** Each module's menu groups and screens by its name: a module of the list without them does not compile. */
const screensOf: { [Name in ModuleName]: ModuleScreens } = {
  sys: sysScreens,
  auth: authScreens,
  zhct: zhctScreens,
  zhhq: zhhqScreens,
  sc: scScreens,
  report: reportScreens,
};

/** Menu groups of the subsystems, in the modules' order: each module's screens sit under one `path` entry (spec §2). */
export const menuGroups: MenuGroup[] = modules.flatMap((m) => screensOf[m.name].menuGroups);

/** The modules' screens, own and generated, in the modules' order; a path claimed twice throws (decision 062). */
export function screenRoutes(reserved: readonly string[]): ScreenRoute[] {
  return moduleScreens(modules.map((m) => ({ ...m, screens: screensOf[m.name].screens })), reserved);
}
