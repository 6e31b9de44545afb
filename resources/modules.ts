import { resourceKey, type ResourceDef } from "./define";
import type { DocumentDef } from "./document";
import { monthSettlePath, type MonthSettleDef } from "./monthSettle";

/** Menu groups of the subsystems: each module's screens sit under one `path` entry (spec §2). */
export interface MenuGroup {
  subsystem: string;
  path: string;
  title: string;
  icon: string;
  sort: number;
  /** Where the group's bare path redirects (spec: /admin/sys → /admin/sys/tenant). */
  home: string;
  /**
   * A long module's pages in sections, as an operator looks for them (issue 38, decision 053): each a `path` entry
   * (目录) under the group holding the listed screens (`screen` of a declaration or report), in this order.
   */
  sections?: MenuSection[];
}

export interface MenuSection {
  title: string;
  screens: string[];
}

/** Button labels of the generated permission codes. */
export const actionLabels = { create: "新增", update: "修改", delete: "删除", export: "导出", import: "导入" } as const;

/**
 * Screens that are reports over other tables (no table of their own): each gets a menu page under its module's
 * group and a view permission `module:entity:view`, like a declared resource's list.
 */
export interface ReportScreen {
  module: string;
  entity: string;
  screen: string;
  screenBase: string;
  title: string;
  /** Button permissions of the screen (`module:entity:<action>`), seeded under its page entry. */
  buttons?: Record<string, string>;
}

/**
 * A screen a module draws with a route module of its own (app/routes/…), as data: `app/routes.ts` turns each into a
 * route, so the route table is read from the module list, and app/ needs no server code to know it (decision 062).
 */
export interface ScreenRoute {
  path: string;
  file: string;
  id?: string;
  /** Drawn alone on the page, outside the shell (a print view). */
  bare?: true;
  /** Takes the place of the list or form a declaration generates at this path; without it a repeated path is an error. */
  replacesGenerated?: true;
}

/**
 * What a module adds that both floors read (decision 062): its declared entities and report screens. Its menu groups
 * and own screens are its `ModuleScreens` (`resources/<name>/screens.ts`); the server's half of a module (services,
 * endpoints, hooks) is its `server/modules/<name>/manifest.ts`.
 */
export interface ModuleDeclaration<Name extends string = string> {
  name: Name;
  resources: readonly ResourceDef[];
  reports: readonly ReportScreen[];
  /** Its documents (defineDocument, decision 060): their API, and their header and lines as entities. */
  documents?: readonly DocumentDef[];
  /** Its month closes (decision 084): one screen draws each at `<its list>/<step>`. */
  monthSettles?: readonly MonthSettleDef[];
}

/** A module's menu groups and the screens it draws with route modules of its own. */
export interface ModuleScreens {
  menuGroups: readonly MenuGroup[];
  screens: readonly ScreenRoute[];
}

/** The list, create and edit screens a declaration gets (spec §2 paths), and its workflow's step screens. */
function generatedScreens(def: ResourceDef): ScreenRoute[] {
  const base = `${def.screenBase}/${def.screen}`.replace(/^\//, "");
  const key = resourceKey(def);
  return [
    { path: base, file: "routes/resource/home.tsx", id: `${key}:home` },
    { path: `${base}/index`, file: "routes/resource/list.tsx", id: `${key}:list` },
    ...(def.actions.includes("create") && !def.indexOnly ? [{ path: `${base}/create`, file: "routes/resource/form.tsx", id: `${key}:create` }] : []),
    ...(def.actions.includes("update") && !def.indexOnly ? [{ path: `${base}/edit/:id`, file: "routes/resource/form.tsx", id: `${key}:edit` }] : []),
    // Each step of its workflow: the one step screen (decision 070), at the path its row link names.
    ...(def.workflow?.transitions ?? []).filter((t) => t.screen !== false).map((t) => ({ path: `${base}/${t.name}/:id`, file: "routes/step/step.tsx", id: `${key}:step:${t.name}` })),
  ];
}

/**
 * The screens a document gets (decision 061): its list, editor (create, and edit in editable statuses), detail page
 * with its steps, and print view (alone on the page); one set of route modules serves every document.
 */
function documentScreens(doc: DocumentDef): ScreenRoute[] {
  const base = `${doc.screenBase}/${doc.screen}`.replace(/^\//, "");
  const key = resourceKey(doc);
  return [
    { path: base, file: "routes/resource/home.tsx", id: `${key}:home` },
    { path: `${base}/index`, file: "routes/document/list.tsx", id: `${key}:list` },
    { path: `${base}/create`, file: "routes/document/editor.tsx", id: `${key}:create` },
    { path: `${base}/edit/:id`, file: "routes/document/editor.tsx", id: `${key}:edit` },
    { path: `${base}/detail/:id`, file: "routes/document/detail.tsx", id: `${key}:detail` },
    { path: `${base}/print/:id`, file: "routes/document/print.tsx", id: `${key}:print`, bare: true },
    // A view is one more list of the same headers; its rows open the document's own pages.
    ...(doc.views ?? []).flatMap((view): ScreenRoute[] => {
      const viewBase = `${doc.screenBase}/${view.screen}`.replace(/^\//, "");
      return [
        { path: viewBase, file: "routes/resource/home.tsx", id: `${key}:${view.screen}:home` },
        { path: `${viewBase}/index`, file: "routes/document/list.tsx", id: `${key}:${view.screen}:list` },
      ];
    }),
  ];
}

/** A month close's steps: the one month-settle screen (decision 084), the step named in the path. */
const monthSettleScreens = (def: MonthSettleDef): ScreenRoute[] => [
  { path: `${monthSettlePath(def).replace(/^\//, "")}/:step`, file: "routes/month-settle.tsx", id: `${resourceKey(def.of)}:settle` },
];

/** A module's generated screens: each entity's, then each document's, then each month close's. */
const generatedOf = (module: ModuleDeclaration): ScreenRoute[] => [
  ...module.resources.flatMap(generatedScreens),
  ...(module.documents ?? []).flatMap(documentScreens),
  ...(module.monthSettles ?? []).flatMap(monthSettleScreens),
];

/**
 * Every module's screens, in the modules' order: each module's own screens, then its generated ones. A path (or
 * route id) two of them claim is refused here, when the route table is made, naming both; so is a screen that says
 * it replaces a generated one where there is none. `reserved` are the app's own paths (sign-in, dashboard…).
 */
export function moduleScreens(modules: readonly (ModuleDeclaration & Pick<ModuleScreens, "screens">)[], reserved: readonly string[] = []): ScreenRoute[] {
  const generated = new Map(modules.flatMap(generatedOf).map((s) => [s.path, s]));
  const owner = new Map<string, string>(reserved.map((path) => [path, "app/routes.ts"]));
  const ids = new Set<string>();
  const claim = (screen: ScreenRoute, by: string) => {
    const before = owner.get(screen.path);
    if (before) throw new Error(`路由 /${screen.path} 注册了两次：${before} 与 ${by}`);
    owner.set(screen.path, by);
    const id = screen.id ?? screen.file;
    if (ids.has(id)) throw new Error(`路由 id ${id} 注册了两次（${by}）`);
    ids.add(id);
  };
  const replaced = new Set<string>();
  const screens: ScreenRoute[] = [];
  for (const module of modules) {
    for (const screen of module.screens) {
      if (screen.replacesGenerated) {
        if (!generated.has(screen.path)) throw new Error(`路由 /${screen.path}（模块 ${module.name}）声明替换生成的页面，但没有这样的页面`);
        replaced.add(screen.path);
      }
      claim(screen, `模块 ${module.name} 的 ${screen.file}`);
      screens.push(screen);
    }
  }
  for (const module of modules) {
    for (const screen of generatedOf(module)) {
      if (replaced.has(screen.path)) continue;
      claim(screen, `模块 ${module.name} 生成的 ${screen.id}`);
      screens.push(screen);
    }
  }
  return screens;
}
