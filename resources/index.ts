import { resourceKey, type ResourceDef } from "./define";
import type { DocumentDef } from "./document";
import type { ModuleDeclaration, ReportScreen } from "./modules";
import { monthSettlePath, type MonthSettleDef } from "./monthSettle";
import { authModule } from "./auth/module";
import { reportModule } from "./report/module";
import { sysModule } from "./sys/module";
import { zhctModule } from "./zhct/module";
import { zhhqModule } from "./zhhq/module";
import { scModule } from "./sc/module";
import { isDeclaredReport, reportPath, reportPrintPath, type ReportDef } from "./report/define";

export { zhctResources } from "./zhct/module";
export { zhhqResources } from "./zhhq/module";
export { scResources } from "./sc/module";

/**
 * The one list of the modules, in the order their menus, routes and endpoints are laid out (decision 062). Their
 * screens (resources/screens.ts) and server manifests (server/modules/index.ts) are keyed by these names; `sc` joins
 * here.
 */
export const modules = [sysModule, authModule, zhctModule, zhhqModule, scModule, reportModule] as const;

export type ModuleName = (typeof modules)[number]["name"];

const declared: readonly ModuleDeclaration[] = modules;

/** Every declared entity. Routes, API endpoints, menus and permission codes are generated from this list. */
export const resources: ResourceDef[] = declared.flatMap((m) => m.resources);

/** Report screens (no table of their own): menu pages with a view permission. */
export const reportScreens: ReportScreen[] = declared.flatMap((m) => m.reports);

/** Every module's month closes (decision 084): the one month-settle screen finds its declaration by its path. */
export const declaredMonthSettles: MonthSettleDef[] = declared.flatMap((m) => m.monthSettles ?? []);
export const monthSettleForPath = (pathname: string) => declaredMonthSettles.find((d) => pathname.startsWith(`${monthSettlePath(d)}/`));

/** Every module's declared reports (decision 030): the one report page finds its report among them by its path. */
export const declaredReports: ReportDef[] = reportScreens.filter(isDeclaredReport);
const reportByName = new Map(declaredReports.map((r) => [r.entity, r]));
export const findDeclaredReport = (name: string) => reportByName.get(name);
/** The report whose page or print view is this path (`/report/<screen>/index`, `/sc/sccostexpense/profitCount/print`). */
export const reportForPath = (pathname: string) => declaredReports.find((r) => pathname === reportPath(r) || pathname === reportPrintPath(r));

/**
 * Every declared document (issue 34, decision 060): its API is generated (server/modules/resource/registry.ts), and
 * its header and lines are entities that `findResource` finds, though their screens and API are the document's.
 */
export const documents: DocumentDef[] = declared.flatMap((m) => m.documents ?? []);

const byKey = new Map([...resources, ...documents.flatMap((d) => [d.header, d.lines])].map((r) => [resourceKey(r), r]));

export function findResource(key: string): ResourceDef | undefined {
  return byKey.get(key);
}

/** The resource whose screens live under this path (`/admin/sys/tenant/index` → tenant). */
export function resourceForPath(pathname: string): ResourceDef | undefined {
  return resources.find((r) => pathname === `${r.screenBase}/${r.screen}` || pathname.startsWith(`${r.screenBase}/${r.screen}/`));
}
