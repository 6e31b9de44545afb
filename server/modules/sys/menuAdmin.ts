import type { MenuNode } from "../../../resources/auth";
import { permissionCode } from "../../../resources/define";
import { menu as def } from "../../../resources/sys/menu";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import type { MenuRow } from "../../db/schema";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { assertAllowed, type ResourceService } from "../resource/engine";
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

export const menuEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/menu/tree",
    summary: "子系统的菜单树（含停用的菜单与按钮），用于菜单管理；buttons=none 或页面 id 时只带该页的按钮，每项带按钮数 buttonCount",
    access: permission(permissionCode(def, "view")),
    query: z.object({ subsystemId: recordId("子系统", "请选择子系统"), buttons: buttonsQuery }),
    handle: async (ctx, { query }) => {
      const session = ctx as SessionContext;
      assertAllowed(session, def);
      const { db } = ctx.services;
      const subsystem = await db.selectFrom("subsystem").select(["id", "sys_code", "sys_name"]).where("id", "=", query.subsystemId).executeTakeFirst();
      if (!subsystem) throw new ApiError(Status.NOT_FOUND, sysMessages.subsystem.missing);
      const { buttons } = query;
      let rows = db.selectFrom("menu").selectAll().where("subsystem_id", "=", query.subsystemId);
      if (buttons !== "all") {
        rows = rows.where((eb) => (buttons === "none" ? eb("menu_type", "<>", "button") : eb.or([eb("menu_type", "<>", "button"), eb("parent_id", "=", buttons)])));
      }
      const [shown, counts]: [MenuRow[], Array<{ parent_id: number | null; n: number | string | bigint }>] = await Promise.all([
        rows.orderBy("sort").orderBy("id").execute(),
        db
          .selectFrom("menu")
          .select((eb) => ["parent_id", eb.fn.countAll().as("n")])
          .where("subsystem_id", "=", query.subsystemId)
          .where("menu_type", "=", "button")
          .groupBy("parent_id")
          .execute(),
      ]);
      return {
        subsystem: { id: subsystem.id, sysCode: subsystem.sys_code, sysName: subsystem.sys_name },
        tree: withCounts(buildTree(shown), new Map(shown.map((r) => [r.id, r.status])), new Map(counts.map((c) => [Number(c.parent_id), Number(c.n)]))),
      };
    },
  }),
];
