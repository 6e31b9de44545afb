import type { MenuNode } from "../../resources/auth";
import type { ScreenNames } from "../../resources/define";
import { CHANGE_PASSWORD_PATH, HOME_PATH } from "./paths";

/**
 * Spec §2: only page entries show, at most two levels; `path` entries are the folders that hold them. A folder's
 * sections (a `path` inside a folder, decision 053) are labels of its dropdown, not a level one opens: their pages
 * show under the folder. Buttons, links and mini-app entries are dropped with their children.
 */
export function visibleMenus(nodes: MenuNode[]): MenuNode[] {
  return keptFor(nodes, "visible", () => visibleBelow(nodes, 1));
}

function visibleBelow(nodes: MenuNode[], depth: number): MenuNode[] {
  return nodes
    .filter((node) => node.menuType === "page" || node.menuType === "path")
    .map((node) => ({ ...node, children: depth < 2 || (depth === 2 && node.menuType === "path") ? visibleBelow(node.children, depth + 1) : [] }))
    .filter((node) => node.menuType === "page" || node.children.length > 0);
}

/**
 * One subsystem's part of the user's menu tree, as `getUserMenuTreeList?subsystemId=` builds it: an entry under a
 * folder of another subsystem stands at the top.
 */
export function subsystemTree(nodes: MenuNode[], subsystemId: number): MenuNode[] {
  return keptFor(nodes, subsystemId, () => subsystemPart(nodes, subsystemId));
}

function subsystemPart(nodes: MenuNode[], subsystemId: number): MenuNode[] {
  return nodes.flatMap((node) => (node.subsystemId === subsystemId ? [{ ...node, children: subsystemPart(node.children, subsystemId) }] : subsystemPart(node.children, subsystemId)));
}

/**
 * The trees made from a tree, kept with it: on the server one tree (per menu version) is shared by every request,
 * and each page's shell made the same visible and subsystem trees from it anew (1.3 % of a list page's server time,
 * issue 39). A tree is never changed once made, so what is made from it stays right for as long as it lives.
 */
const madeFromTree = new WeakMap<MenuNode[], Map<string | number, MenuNode[]>>();

function keptFor(nodes: MenuNode[], key: string | number, make: () => MenuNode[]): MenuNode[] {
  let made = madeFromTree.get(nodes);
  if (!made) madeFromTree.set(nodes, (made = new Map()));
  let tree = made.get(key);
  if (!tree) made.set(key, (tree = make()));
  return tree;
}

export function flatten(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

function stripQuery(path: string) {
  return path.split(/[?#]/)[0];
}

interface PageIndex {
  /** Page entries with a path, the most specific (longest path) first. */
  bySpecificity: MenuNode[];
  /** The first page entry of each path (query stripped). */
  byPath: Map<string, MenuNode>;
}

/**
 * A tree's pages by path, built once per tree: the shell looks titles and owners up several times a page, and the tree
 * (one object per menu version, shared by every request on the server) may hold hundreds of pages (issue 17).
 */
const pageIndexes = new WeakMap<MenuNode[], PageIndex>();

function pageIndex(nodes: MenuNode[]): PageIndex {
  let index = pageIndexes.get(nodes);
  if (!index) {
    const pages = flatten(nodes).filter((n) => n.menuPath && n.menuType === "page");
    const byPath = new Map<string, MenuNode>();
    for (const page of pages) {
      const path = stripQuery(page.menuPath as string);
      if (!byPath.has(path)) byPath.set(path, page);
    }
    const bySpecificity = [...pages].sort((a, b) => (b.menuPath as string).length - (a.menuPath as string).length);
    index = { bySpecificity, byPath };
    pageIndexes.set(nodes, index);
  }
  return index;
}

/**
 * The menu entry a page belongs to: its own, or for a create/edit page the list beside it
 * (`/zhct/x/edit/3` → `/zhct/x/index`), or the deepest folder that holds it.
 */
export function menuForPath(nodes: MenuNode[], pathname: string): MenuNode | undefined {
  const { byPath, bySpecificity } = pageIndex(nodes);
  return (
    byPath.get(pathname) ??
    bySpecificity.find((n) => {
      const base = stripQuery(n.menuPath as string).replace(/\/index$/, "");
      return pathname === base || pathname.startsWith(`${base}/`);
    })
  );
}

const fixedTitles: Record<string, string> = {
  [HOME_PATH]: "首页",
  "/dashboard": "首页",
  "/profile/index": "个人中心",
  [CHANGE_PASSWORD_PATH]: "修改密码",
  "/iframe/reportview": "报表",
  "/404": "页面不存在",
  "/401": "没有权限",
};

/**
 * The name of a page for its tag and the window title: the menu's, the resource's, or a fixed one. The resources'
 * names come from the shell's loader, so pages do not load every resource declaration.
 */
export function pageTitle(pathname: string, allMenus: MenuNode[], screens: ScreenNames[]): string {
  const exact = pageIndex(allMenus).byPath.get(pathname);
  if (exact) return exact.menuName;
  if (fixedTitles[pathname]) return fixedTitles[pathname];
  const screen = screens.find((s) => pathname === s.base || pathname.startsWith(`${s.base}/`));
  if (screen) {
    const rest = pathname.slice(screen.base.length);
    // A step's form of no row (`/zhct/useraccountcharge/charge`) is named by the step; of a row, by step and screen.
    const step = Object.entries(screen.steps ?? {}).find(([action]) => rest === `/${action}` || rest.startsWith(`/${action}/`));
    if (step) return rest === `/${step[0]}` ? step[1] : `${step[1]}${screen.title}`;
    if (rest.startsWith("/create")) return `新增${screen.title}`;
    if (rest.startsWith("/edit/")) return `编辑${screen.title}`;
    if (rest.startsWith("/detail/")) return `${screen.title}详情`;
    if (rest.startsWith("/print/")) return `打印${screen.title}`;
    return screen.menuTitle ?? screen.title;
  }
  return pathname;
}

/** Spec §6: `admin` reaches every route; others those without a role restriction or whose restriction they match. */
export function routeAllowed(pathname: string, roles: string[], routeRoles: Array<{ path: string; roles: string[] }>): boolean {
  if (roles.includes("admin")) return true;
  return routeRoles
    .filter((r) => {
      const path = stripQuery(r.path);
      const base = path.replace(/\/index$/, "");
      return pathname === path || pathname === base || pathname.startsWith(`${base}/`);
    })
    .every((r) => r.roles.some((role) => roles.includes(role)));
}

/** Button codes grouped by the page menu they sit under (one or two levels of buttons, spec §6). */
export function buttonPermissionsByMenu(nodes: MenuNode[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  const collect = (node: MenuNode, depth: number): string[] =>
    depth > 2
      ? []
      : node.children
          .filter((c) => c.menuType === "button")
          .flatMap((c) => [...(c.permission ? [c.permission] : []), ...collect(c, depth + 1)]);
  for (const node of flatten(nodes)) {
    if (node.menuType === "button") continue;
    const codes = collect(node, 1);
    if (codes.length) groups[node.menuPath ?? String(node.id)] = codes;
  }
  return groups;
}

export interface SubsystemInfo {
  id: number;
  sysCode: string;
  sysName: string;
  icon: string | null;
}

/**
 * The subsystem whose menus the shell shows: the one the current page belongs to, else the one chosen last
 * (cookie), else the first the user may enter.
 */
export function activeSubsystemFor(pathname: string, allMenus: MenuNode[], chosen: string | null, subsystems: SubsystemInfo[]): number {
  const allowed = new Set(subsystems.map((s) => s.id));
  const owner = menuForPath(allMenus, pathname);
  if (owner && allowed.has(owner.subsystemId)) return owner.subsystemId;
  const cookieId = Number(chosen);
  if (allowed.has(cookieId)) return cookieId;
  return subsystems[0]?.id ?? 1;
}

/**
 * Where `/` (and so a sign-in) leads (issue 38): the system-management home for a user with pages there beyond the
 * dashboard, else the first subsystem they have pages in (`/subsystem/{code}` makes it active and shows its
 * dashboard), so a user whose roles give them one subsystem lands in it, not in an empty 系统管理.
 */
export function landingPath(allMenus: MenuNode[], subsystems: SubsystemInfo[]): string {
  const dashboards = new Set([HOME_PATH, "/dashboard"]);
  const hasPages = (s: SubsystemInfo) => flatten(visibleMenus(subsystemTree(allMenus, s.id))).some((n) => n.menuType === "page" && !dashboards.has(n.menuPath ?? ""));
  const admin = subsystems.find((s) => s.sysCode === "admin");
  if (admin && hasPages(admin)) return HOME_PATH;
  const first = subsystems.find(hasPages);
  return first ? `/subsystem/${first.sysCode}` : HOME_PATH;
}
