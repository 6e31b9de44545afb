import type { MenuNode } from "../../../resources/auth";
import { permissionCode } from "../../../resources/define";
import { menu as def, type MenuIndexView } from "../../../resources/sys/menu";
import { z } from "../../../resources/z";
import { recordId, storableText } from "../../../resources/schemas";
import type { Db } from "../../db";
import type { MenuRow } from "../../db/schema";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { assertAllowed, containsPattern, likeMatch, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { buildTree } from "./menu";
import { sysMessages } from "./messages";
import { nextRecord } from "./rules";

const m = sysMessages.menu;

/**
 * The shape rules of a menu entry: buttons carry a permission code and sit under a page; other entries have a
 * path; a parent is of the same subsystem, not a button, and (on update) not the entry itself or below it.
 */
async function checkShape(ctx: SessionContext, next: Row, id?: number) {
  const { db } = ctx.services;
  const type = String(next.menuType);
  if (type === "button" && !next.permission) throw fieldError("permission", m.buttonNeedsPermission);
  if (type !== "button" && !next.menuPath) throw fieldError("menuPath", m.pathRequired);
  const parentId = next.parentId as number | null;
  if (parentId === null || parentId === undefined) {
    if (type === "button") throw fieldError("parentId", m.buttonNeedsPage);
    return;
  }
  if (parentId === id) throw fieldError("parentId", m.parentSelf);
  const parent = await db.selectFrom("menu").select(["subsystem_id", "menu_type"]).where("id", "=", parentId).executeTakeFirst();
  if (!parent) throw fieldError("parentId", m.parentMissing);
  if (parent.subsystem_id !== Number(next.subsystemId)) throw fieldError("parentId", m.parentOtherSubsystem);
  if (parent.menu_type === "button") throw fieldError("parentId", m.parentIsButton);
  if (type === "button" && parent.menu_type !== "page") throw fieldError("parentId", m.buttonNeedsPage);
  if (id === undefined) return;
  const links = await db.selectFrom("menu").select(["id", "parent_id"]).where("subsystem_id", "=", parent.subsystem_id).execute();
  const parentOf = new Map(links.map((l) => [l.id, l.parent_id]));
  const seen = new Set<number>();
  for (let at: number | null | undefined = parentId; at !== null && at !== undefined && !seen.has(at); at = parentOf.get(at)) {
    if (at === id) throw fieldError("parentId", m.parentDescendant);
    seen.add(at);
  }
}

export const menuService: ResourceService = {
  beforeCreate: (ctx, values) => checkShape(ctx, values),
  async beforeUpdate(ctx, values, current) {
    const next = nextRecord(def, values, current);
    const id = current.id as number;
    const children = await ctx.services.db.selectFrom("menu").select("menu_type").where("parent_id", "=", id).execute();
    if (children.length) {
      if (Number(next.subsystemId) !== current.subsystem_id) throw fieldError("subsystemId", m.childrenMove);
      if (next.menuType === "button") throw fieldError("menuType", m.childrenButton);
      if (next.menuType !== "page" && children.some((c) => c.menu_type === "button")) throw fieldError("menuType", m.childrenButtons);
    }
    await checkShape(ctx, next, id);
  },
  async beforeDelete(ctx, current) {
    const child = await ctx.services.db.selectFrom("menu").select("id").where("parent_id", "=", current.id as number).limit(1).executeTakeFirst();
    if (child) throw new ApiError(Status.CONFLICT, m.childrenDelete);
  },
};

export interface MenuTreeNode extends MenuNode {
  status: number;
  /** How many button codes the entry holds, whether or not they are in `children`. */
  buttonCount: number;
  children: MenuTreeNode[];
}

function withCounts(nodes: MenuNode[], status: Map<number, number>, buttons: Map<number, number>): MenuTreeNode[] {
  return nodes.map((node) => ({ ...node, status: status.get(node.id) ?? 1, buttonCount: buttons.get(node.id) ?? 0, children: withCounts(node.children, status, buttons) }));
}

/**
 * Which button codes the tree carries: `all` (the default), `none`, or one page's (its id). A subsystem holds hundreds
 * of pages with thousands of buttons, and the menu index draws a page's buttons only when asked (issue 38): it reads
 * the rows it shows, and each page's count of buttons from SQL.
 */
const buttonsQuery = z.union([z.enum(["all", "none"]), recordId("页面")], { error: "按钮只能是 all、none 或页面的 id" }).default("all");

/**
 * The rows the menu index draws unasked at most: a list page's (its largest page size). The tree's levels are drawn
 * whole while they fit, so a small subsystem shows every entry and a large one its folders (decision 092).
 */
export const MENU_INDEX_ROWS = 50;
/** An opened entry's folders are opened with it; a URL names at most this many. */
const MAX_OPEN = 100;

const openQuery = storableText("展开的菜单")
  .regex(new RegExp(`^(all|\\d{1,16}(,\\d{1,16}){0,${MAX_OPEN - 1}})$`), `展开的菜单只能是 all 或以逗号分隔的菜单 id（至多 ${MAX_OPEN} 个）`)
  .transform((text) => (text === "all" ? ("all" as const) : text.split(",").map(Number)))
  .optional()
  .describe("展开的菜单");
const keywordQuery = storableText("关键字").trim().max(50, "关键字不能超过 50 个字符").optional().describe("关键字");

async function subsystemOf(db: Db, id: number) {
  const subsystem = await db.selectFrom("subsystem").select(["id", "sys_code", "sys_name"]).where("id", "=", id).executeTakeFirst();
  if (!subsystem) throw new ApiError(Status.NOT_FOUND, sysMessages.subsystem.missing);
  return { id: subsystem.id, sysCode: subsystem.sys_code, sysName: subsystem.sys_name };
}

/** Each entry's number of button codes, from one grouped count. */
async function buttonCounts(db: Db, subsystemId: number): Promise<Map<number, number>> {
  const counts = await db
    .selectFrom("menu")
    .select((eb) => ["parent_id", eb.fn.countAll<number | string | bigint>().as("n")])
    .where("subsystem_id", "=", subsystemId)
    .where("menu_type", "=", "button")
    .groupBy("parent_id")
    .execute();
  return new Map(counts.map((c) => [Number(c.parent_id), Number(c.n)]));
}

/** The tree's nodes in the order drawn (each before what is under it), with what `descend` lets through. */
function preorder(nodes: MenuNode[], descend: (node: MenuNode) => boolean, into: MenuNode[] = []): MenuNode[] {
  for (const node of nodes) {
    into.push(node);
    if (descend(node)) preorder(node.children, descend, into);
  }
  return into;
}

/** How many whole levels of the tree fit `MENU_INDEX_ROWS` rows (the top level always). */
function levelsThatFit(entries: MenuNode[]): number {
  const perLevel: number[] = [];
  for (const node of preorder(entries, () => true)) perLevel[node.parentIds.length] = (perLevel[node.parentIds.length] ?? 0) + 1;
  let levels = 1;
  for (let drawn = perLevel[0] ?? 0; levels < perLevel.length && drawn + perLevel[levels] <= MENU_INDEX_ROWS; levels++) drawn += perLevel[levels];
  return levels;
}

/**
 * The menu index's rows (issue 38, decision 092). Unsearched: the levels that fit a list page, and under the entries
 * `open` names (with their folders) everything, a page's buttons too. Searched: the first `MENU_INDEX_ROWS` entries
 * whose name, path or permission code contains the words, in the tree's order, each under its folders. Only the
 * buttons drawn are read; every entry's counts come from its subsystem's entries and one grouped count.
 */
async function menuIndexView(ctx: SessionContext, subsystemId: number, open: number[] | "all" | undefined, search: string | undefined): Promise<MenuIndexView> {
  const { db, dialect } = ctx.services;
  const entriesOf = db.selectFrom("menu").selectAll().where("subsystem_id", "=", subsystemId);
  const [subsystem, entryRows, buttons] = await Promise.all([
    subsystemOf(db, subsystemId),
    entriesOf.where("menu_type", "<>", "button").orderBy("sort").orderBy("id").execute(),
    buttonCounts(db, subsystemId),
  ]);
  const entries = buildTree(entryRows);
  const byId = new Map(preorder(entries, () => true).map((node) => [node.id, node]));
  const levels = levelsThatFit(entries);
  const asked = open === "all" ? "all" : (open ?? []).filter((id) => byId.has(id));

  let read: MenuRow[];
  let drawn: MenuNode[];
  let matched = new Set<number>();
  let searched: MenuIndexView["search"] = null;
  const opened = new Set<number>();
  if (search) {
    const words = containsPattern(search);
    const matches = await entriesOf
      .where((eb) => eb.or(["menu_name", "menu_path", "permission"].map((column) => likeMatch(column, words, dialect))))
      .execute();
    matched = new Set(matches.map((row) => row.id));
    read = [...entryRows, ...matches.filter((row) => row.menu_type === "button")];
    const tree = buildTree(read);
    const first = preorder(tree, () => true).filter((node) => matched.has(node.id)).slice(0, MENU_INDEX_ROWS);
    const shown = new Set(first.flatMap((node) => [...node.parentIds, node.id]));
    drawn = preorder(tree, (node) => shown.has(node.id)).filter((node) => shown.has(node.id));
    searched = { matches: matched.size, shown: first.length };
  } else {
    for (const id of asked === "all" ? byId.keys() : asked.flatMap((id) => [...(byId.get(id)?.parentIds ?? []), id])) opened.add(id);
    const pages = asked === "all" ? null : [...opened].filter((id) => buttons.has(id));
    const buttonRows = pages === null || pages.length ? await (pages ? entriesOf.where("parent_id", "in", pages) : entriesOf).where("menu_type", "=", "button").execute() : [];
    read = [...entryRows, ...buttonRows];
    const tree = buildTree(read);
    drawn = preorder(tree, (node) => node.parentIds.length + 1 < levels || opened.has(node.id));
  }
  const entryCounts = new Map<number, number>();
  for (const row of entryRows) if (row.parent_id !== null) entryCounts.set(row.parent_id, (entryCounts.get(row.parent_id) ?? 0) + 1);
  const statusOf = new Map(read.map((row) => [row.id, row.status]));
  return {
    subsystem,
    levels,
    open: asked,
    total: entryRows.length + [...buttons.values()].reduce((sum, n) => sum + n, 0),
    search: searched,
    rows: drawn.map((node) => ({
      id: node.id,
      parentId: node.parentId,
      depth: node.parentIds.length,
      menuName: node.menuName,
      menuType: node.menuType,
      menuPath: node.menuPath,
      permission: node.permission,
      sort: node.sort,
      status: statusOf.get(node.id) ?? 1,
      entries: entryCounts.get(node.id) ?? 0,
      buttons: buttons.get(node.id) ?? 0,
      open: opened.has(node.id),
      match: matched.has(node.id),
    })),
  };
}
export const menuEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/menu/tree",
    summary: "子系统的菜单树（含停用的菜单与按钮），用于菜单管理；buttons=none 或页面 id 时只带该页的按钮，每项带按钮数 buttonCount",
    access: permission(permissionCode(def, "view")),
    query: z.object({ subsystemId: recordId("子系统", "请选择子系统"), buttons: buttonsQuery }),
    handle: async (ctx, { query }) => {
      assertAllowed(ctx as SessionContext, def);
      const { db } = ctx.services;
      const { buttons } = query;
      let rows = db.selectFrom("menu").selectAll().where("subsystem_id", "=", query.subsystemId);
      if (buttons !== "all") {
        rows = rows.where((eb) => (buttons === "none" ? eb("menu_type", "<>", "button") : eb.or([eb("menu_type", "<>", "button"), eb("parent_id", "=", buttons)])));
      }
      const [subsystem, shown, counts] = await Promise.all([subsystemOf(db, query.subsystemId), rows.orderBy("sort").orderBy("id").execute(), buttonCounts(db, query.subsystemId)]);
      return { subsystem, tree: withCounts(buildTree(shown), new Map(shown.map((r) => [r.id, r.status])), counts) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/sys/menu/treeRows",
    summary:
      "菜单管理列表要画的行：子系统菜单树中一页放得下的前几层，open（逗号分隔的菜单 id 或 all）所展开菜单下的全部（连同其上级目录），或 keyword 搜索到的菜单（名称、路径或权限标识包含该文字，至多 50 项）及其上级目录；每行带下级菜单数与按钮数",
    access: permission(permissionCode(def, "view")),
    query: z.object({ subsystemId: recordId("子系统", "请选择子系统"), open: openQuery, keyword: keywordQuery }),
    handle: async (ctx, { query }) => {
      const session = ctx as SessionContext;
      assertAllowed(session, def);
      return menuIndexView(session, query.subsystemId, query.open, query.keyword || undefined);
    },
  }),
];
