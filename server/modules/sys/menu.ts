import type { MenuNode } from "../../../resources/auth";
import { permissionCode } from "../../../resources/define";
import { resources } from "../../../resources/index";
import type { Db } from "../../db";
import type { MenuRow } from "../../db/schema";
import type { AuthSession } from "../../http/endpoint";
import { isAdmin, isSuper } from "../auth/session";

/** Codes of the screens only a super admin may use (tenants): never shown to, nor assignable by, anyone else. */
export const superOnlyPermissions = new Set(
  resources
    .filter((r) => r.superOnly)
    .flatMap((r) => ["view", ...r.actions, ...Object.keys(r.workflowActions ?? {})].map((action) => permissionCode(r, action))),
);

function toNode(row: MenuRow): MenuNode {
  return {
    id: row.id,
    subsystemId: row.subsystem_id,
    parentId: row.parent_id,
    parentIds: [],
    menuName: row.menu_name,
    menuPath: row.menu_path,
    menuIcon: row.menu_icon,
    menuType: row.menu_type,
    menuTarget: row.menu_target,
    permission: row.permission,
    roles: row.roles ? row.roles.split(",").map((r) => r.trim()).filter(Boolean) : [],
    sort: row.sort,
    children: [],
  };
}

export function buildTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((row) => [row.id, toNode(row)]));
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const order = (list: MenuNode[], ancestors: number[]) => {
    list.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const node of list) {
      node.parentIds = ancestors;
      order(node.children, [...ancestors, node.id]);
    }
  };
  order(roots, []);
  return roots;
}

/** The enabled menu rows a user may see: all of them for `admin`, else those of the user's roles; super-only ones for a super admin alone. */
export async function menuRowsFor(db: Db, session: AuthSession, subsystemId?: number): Promise<MenuRow[]> {
  let query = db.selectFrom("menu").selectAll("menu").where("menu.status", "=", 1);
  if (subsystemId !== undefined) query = query.where("menu.subsystem_id", "=", subsystemId);
  if (!isSuper(session) && superOnlyPermissions.size) {
    query = query.where((eb) => eb.or([eb("menu.permission", "is", null), eb("menu.permission", "not in", [...superOnlyPermissions])]));
  }
  if (!isAdmin(session)) {
    query = query.where("menu.id", "in", (eb) =>
      eb
        .selectFrom("role_menu")
        .innerJoin("user_role", (join) =>
          join.onRef("user_role.tenant_id", "=", "role_menu.tenant_id").onRef("user_role.role_id", "=", "role_menu.role_id"),
        )
        .innerJoin("role", (join) =>
          join.onRef("role.tenant_id", "=", "role_menu.tenant_id").onRef("role.id", "=", "role_menu.role_id"),
        )
        .select("role_menu.menu_id")
        .where("role_menu.tenant_id", "=", session.homeTenantId)
        .where("user_role.user_id", "=", session.userId)
        .where("role.status", "=", 1),
    );
  }
  return query.orderBy("menu.sort").orderBy("menu.id").execute();
}

