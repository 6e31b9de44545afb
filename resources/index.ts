import { resourceKey, type ResourceDef } from "./define";
import type { ModuleDeclaration, ReportScreen } from "./modules";
import { authModule } from "./auth/module";
import { reportModule } from "./report/module";
import { sysModule } from "./sys/module";
import { zhctModule } from "./zhct/module";

export { zhctResources } from "./zhct/module";

/**
 * The one list of the modules, in the order their menus, routes and endpoints are laid out (decision 062). Their
 * screens (resources/screens.ts) and server manifests (server/modules/index.ts) are keyed by these names; `zhhq` and
 * `sc` join here.
 */
export const modules = [sysModule, authModule, zhctModule, reportModule] as const;

export type ModuleName = (typeof modules)[number]["name"];

const declared: readonly ModuleDeclaration[] = modules;

/** Every declared entity. Routes, API endpoints, menus and permission codes are generated from this list. */
export const resources: ResourceDef[] = declared.flatMap((m) => m.resources);

/** Report screens (no table of their own): menu pages with a view permission. */
export const reportScreens: ReportScreen[] = declared.flatMap((m) => m.reports);

const byKey = new Map(resources.map((r) => [resourceKey(r), r]));

export function findResource(key: string): ResourceDef | undefined {
  return byKey.get(key);
}

/** The resource whose screens live under this path (`/admin/sys/tenant/index` → tenant). */
export function resourceForPath(pathname: string): ResourceDef | undefined {
  return resources.find((r) => pathname === `${r.screenBase}/${r.screen}` || pathname.startsWith(`${r.screenBase}/${r.screen}/`));
}
