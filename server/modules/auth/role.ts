import type { MenuNode } from "../../../resources/auth";
import { role as roleDef } from "../../../resources/auth/role";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { db, getRow, lockOwner, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { buildTree, menuRowsFor, superOnlyPermissions } from "../sys/menu";
import { isAdmin, isSuper } from "./session";
import { bumpShellGeneration } from "./shellCache";

type AnyDb = ReturnType<typeof db>;

export const roleMessages = {
  superOnly: "只有超级管理员可以管理超级管理员角色",
  adminOnly: "只有管理员可以管理管理员角色",
  lastSuper: "至少要保留一个可用的超级管理员",
  inUse: "该角色已分配给用户，请先取消这些用户的角色",
  menuMissing: "所选菜单不存在",
  menuSuperOnly: "不能分配仅超级管理员可用的菜单",
  menuNotHeld: "不能分配本人没有的菜单权限",
  roleMissing: "所选角色不存在",
  roleNotGrantable: "不能分配管理员角色或本人没有的菜单权限",
};

/** A role that opens everything in its tenant (code admin) or beyond it (type super). */
export function isPrivilegedRole(code: unknown, type: unknown) {
  return code === "admin" || type === "admin" || type === "super";
}

interface SuperHolding {
  tenant_id: number;
  user_id: number;
  role_id: number;
}

/** Who holds an enabled super role and may sign in, in any tenant. */
async function superHoldings(trx: AnyDb): Promise<SuperHolding[]> {
  return trx
    .selectFrom("user_role")
    .innerJoin("role", (j) => j.onRef("role.tenant_id", "=", "user_role.tenant_id").onRef("role.id", "=", "user_role.role_id"))
    .innerJoin("user", (j) => j.onRef("user.tenant_id", "=", "user_role.tenant_id").onRef("user.id", "=", "user_role.user_id"))
    .select(["user_role.tenant_id", "user_role.user_id", "user_role.role_id"])
    .where("role.role_type", "=", "super")
    .where("role.status", "=", 1)
    .where("user.status", "=", 1)
    .execute();
}

export async function holdsSuper(trx: AnyDb, tenantId: number, userId: number): Promise<boolean> {
  return (await superHoldings(trx)).some((h) => h.tenant_id === tenantId && h.user_id === userId);
}

/** Refuses a change after which nobody could manage tenants any more. */
export async function assertSuperRemains(trx: AnyDb, lost: (holding: SuperHolding) => boolean) {
  const remaining = new Set((await superHoldings(trx)).filter((h) => !lost(h)).map((h) => `${h.tenant_id}:${h.user_id}`));
  if (remaining.size === 0) throw new ApiError(Status.CONFLICT, roleMessages.lastSuper);
}

function assertMayManage(ctx: SessionContext, code: unknown, type: unknown) {
  if (type === "super" && !isSuper(ctx.session)) throw new ApiError(Status.FORBIDDEN, roleMessages.superOnly);
  if (isPrivilegedRole(code, type) && !isAdmin(ctx.session)) throw new ApiError(Status.FORBIDDEN, roleMessages.adminOnly);
}

export const roleService: ResourceService = {
  beforeCreate(ctx, values) {
    assertMayManage(ctx, values.roleCode, values.roleType);
  },
  async beforeUpdate(ctx, values, current) {
    assertMayManage(ctx, current.role_code, current.role_type);
    const type = values.roleType ?? current.role_type;
    const status = values.status ?? String(current.status);
    assertMayManage(ctx, values.roleCode ?? current.role_code, type);
    if (current.role_type === "super" && (type !== "super" || String(status) !== "1")) {
      await assertSuperRemains(db(ctx), (h) => h.tenant_id === current.tenant_id && h.role_id === current.id);
    }
  },
  beforeDelete(ctx, current) {
    assertMayManage(ctx, current.role_code, current.role_type);
  },
  async onDelete(ctx, trx, current) {
    const holder = await trx
      .selectFrom("user_role")
      .select("user_id")
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("role_id", "=", current.id)
      .limit(1)
      .executeTakeFirst();
    if (holder) throw new ApiError(Status.CONFLICT, roleMessages.inUse);
  },
};

/** The menus the caller may hand out: every enabled one for an admin (super-only ones to a super admin alone), else its own. */
async function assignableMenus(ctx: SessionContext) {
  return menuRowsFor(ctx.services.db, ctx.session);
}

export async function assignableMenuTree(ctx: SessionContext): Promise<MenuNode[]> {
  return buildTree(await assignableMenus(ctx));
}

export async function roleMenuIds(ctx: SessionContext, roleId: number): Promise<number[]> {
  await getRow(ctx, roleDef, roleId);
  const rows = await ctx.services.db
    .selectFrom("role_menu")
    .select("menu_id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("role_id", "=", roleId)
    .orderBy("menu_id")
    .execute();
  return rows.map((r) => r.menu_id);
}

/**
 * Replaces a role's menus (pages and their buttons). Ids must exist and be the caller's to give; the entries above a
 * chosen one come along, so a page never shows without its group.
 */
export async function assignMenus(ctx: SessionContext, roleId: number, menuIds: number[]): Promise<{ menuIds: number[] }> {
  const role = await getRow(ctx, roleDef, roleId);
  assertMayManage(ctx, role.role_code, role.role_type);
  const wanted = [...new Set(menuIds)];
  const all = await ctx.services.db.selectFrom("menu").select(["id", "parent_id", "permission"]).execute();
  const byId = new Map(all.map((m) => [m.id, m]));
  const assignable = new Set((await assignableMenus(ctx)).map((m) => m.id));
  for (const id of wanted) {
    const menu = byId.get(id);
    if (!menu) throw fieldError("menuIds", roleMessages.menuMissing);
    if (menu.permission && superOnlyPermissions.has(menu.permission) && !isSuper(ctx.session)) {
      throw fieldError("menuIds", roleMessages.menuSuperOnly);
    }
    if (!assignable.has(id)) throw new ApiError(Status.FORBIDDEN, roleMessages.menuNotHeld);
  }
  const chosen = new Set(wanted);
  for (const id of wanted) {
    for (let parent = byId.get(id)?.parent_id ?? null; parent !== null && !chosen.has(parent); parent = byId.get(parent)?.parent_id ?? null) {
      if (assignable.has(parent)) chosen.add(parent);
    }
  }
  const ids = [...chosen].sort((a, b) => a - b);
  const tenantId = ctx.session.tenantId;
  await ctx.services.db.transaction().execute(async (trx) => {
    await lockOwner(ctx, trx, "role", roleId);
    await trx.deleteFrom("role_menu").where("tenant_id", "=", tenantId).where("role_id", "=", roleId).execute();
    if (ids.length) {
      await trx
        .insertInto("role_menu")
        .values(ids.map((menuId) => ({ tenant_id: tenantId, role_id: roleId, menu_id: menuId })))
        .execute();
    }
    await bumpShellGeneration(trx);
    await recordOperation(trx, ctx, roleDef, roleId, "assignMenu", { menuIds: ids });
  });
  return { menuIds: ids };
}

/** Roles the caller may hand out: of this tenant; privileged ones and ones opening menus the caller lacks only by an admin. */
export async function assertRolesGrantable(ctx: SessionContext, roleIds: number[]): Promise<Row[]> {
  const ids = [...new Set(roleIds)];
  if (!ids.length) return [];
  const roles = await ctx.services.db
    .selectFrom("role")
    .selectAll()
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("id", "in", ids)
    .execute();
  if (roles.length !== ids.length) throw fieldError("roleIds", roleMessages.roleMissing);
  for (const role of roles) {
    if (role.role_type === "super" && !isSuper(ctx.session)) throw new ApiError(Status.FORBIDDEN, roleMessages.superOnly);
  }
  if (!isAdmin(ctx.session)) {
    if (roles.some((r) => isPrivilegedRole(r.role_code, r.role_type))) throw new ApiError(Status.FORBIDDEN, roleMessages.roleNotGrantable);
    const held = new Set((await assignableMenus(ctx)).map((m) => m.id));
    const opened = await ctx.services.db
      .selectFrom("role_menu")
      .select("menu_id")
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("role_id", "in", ids)
      .execute();
    if (opened.some((m) => !held.has(m.menu_id))) throw new ApiError(Status.FORBIDDEN, roleMessages.roleNotGrantable);
  }
  return roles as Row[];
}
