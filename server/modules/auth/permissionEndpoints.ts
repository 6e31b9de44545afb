import { org as orgDef } from "../../../resources/auth/org";
import { role as roleDef } from "../../../resources/auth/role";
import { user as userDef } from "../../../resources/auth/user";
import { permissionCode, resourceKey, type ResourceDef } from "../../../resources/define";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { orgTree } from "./org";
import { decodeLoginField } from "./session";
import { assignableMenuTree, assignMenus, roleMenuIds } from "./role";
import { assignLinks, assignRoles, createUser, resetPassword, userLinks, userRoles, usersByRoleType, validateUserCode } from "./user";

const id = recordId();
const ids = (label: string) => z.array(recordId(label), { error: `${label}应为列表` }).max(1000, `${label}过多`);
/** Passwords may come as `ENC:` text like the login form sends them, or plain. */
const password = z
  .string({ error: "密码必须是文本" })
  .max(1000)
  .transform((v) => (v.startsWith("ENC:") ? (decodeLoginField(v) ?? v) : v));

const session = (ctx: unknown) => ctx as SessionContext;
const can = (def: ResourceDef, action: string) => permission(permissionCode(def, action));
const base = (def: ResourceDef) => `/api/v1/${def.module}/${def.entity}`;

/** User calls of spec §7 beyond the generic ones, and the warehouse, restaurant and password screens. */
const userEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: `${base(userDef)}/create`,
    replacesGenerated: true,
    summary: "新增用户：{ user, roleIds }；user.password 为初始密码（不填则生成并返回 initialPassword），首次登录须修改",
    access: can(userDef, "create"),
    body: z.looseObject({
      user: z.record(z.string(), z.unknown()).optional(),
      roleIds: ids("角色").optional(),
    }),
    handle: (ctx, { body }) => {
      const user = (body.user ?? body) as Record<string, unknown>;
      const given = user.password === undefined || user.password === null || user.password === "" ? undefined : password.safeParse(user.password);
      if (given && !given.success) throw fieldError("password", given.error.issues[0].message);
      return createUser(session(ctx), user, body.roleIds ?? [], given?.data);
    },
  }),
  endpoint({
    method: "GET",
    path: `${base(userDef)}/getUserRoleList`,
    summary: "用户已分配的角色",
    access: can(userDef, "view"),
    query: z.object({ id }),
    handle: (ctx, { query }) => userRoles(session(ctx), query.id),
  }),
  endpoint({
    method: "POST",
    path: `${base(userDef)}/assignRole`,
    summary: "分配角色：{ userId, roleIds }，替换用户原有角色；只能是本租户的角色",
    access: can(userDef, "assignRole"),
    body: z.object({ userId: recordId("userId"), roleIds: ids("角色") }),
    handle: (ctx, { body }) => assignRoles(session(ctx), body.userId, body.roleIds),
  }),
  endpoint({
    method: "GET",
    path: `${base(userDef)}/validateUserCode`,
    summary: "检查用户编码在本租户内是否可用（id 为正在编辑的用户）：{ valid, message }",
    access: can(userDef, "view"),
    query: z.object({ id: id.optional(), userCode: z.string().max(200).default("") }),
    handle: (ctx, { query }) => validateUserCode(session(ctx), query.userCode, query.id),
  }),
  endpoint({
    method: "GET",
    path: `${base(userDef)}/findUserByRoleType`,
    summary: "本租户中拥有某类型（user、admin、super）有效角色的用户",
    access: can(userDef, "view"),
    query: z.object({ roleType: z.enum(["user", "admin", "super"], { error: "角色类型只能是 user、admin 或 super" }) }),
    handle: (ctx, { query }) => usersByRoleType(session(ctx), query.roleType),
  }),
  endpoint({
    method: "POST",
    path: `${base(userDef)}/resetPasswd`,
    summary: "管理员重置他人密码：{ id, password }；该用户下次登录须修改密码，已登录的终端全部退出",
    access: can(userDef, "resetPasswd"),
    body: z.object({ id, password }),
    handle: (ctx, { body }) => resetPassword(session(ctx), body.id, body.password),
  }),
  endpoint({
    method: "GET",
    path: `${base(userDef)}/getUserWarehouseList`,
    summary: "可分配的仓库（options）与用户已分配的仓库（selectedIds）",
    access: can(userDef, "view"),
    query: z.object({ id }),
    handle: (ctx, { query }) => userLinks(session(ctx), "warehouse", query.id),
  }),
  endpoint({
    method: "POST",
    path: `${base(userDef)}/assignWarehouse`,
    summary: "分配仓库：{ userId, warehouseIds }，替换原有分配",
    access: can(userDef, "assignWarehouse"),
    body: z.object({ userId: recordId("userId"), warehouseIds: ids("仓库") }),
    handle: (ctx, { body }) => assignLinks(session(ctx), "warehouse", body.userId, body.warehouseIds),
  }),
  endpoint({
    method: "GET",
    path: `${base(userDef)}/getUserRestaurantList`,
    summary: "可分配的餐厅（类型为餐厅的机构，options）与用户已分配的餐厅（selectedIds）",
    access: can(userDef, "view"),
    query: z.object({ id }),
    handle: (ctx, { query }) => userLinks(session(ctx), "restaurant", query.id),
  }),
  endpoint({
    method: "POST",
    path: `${base(userDef)}/assignRestaurant`,
    summary: "分配餐厅：{ userId, restaurantIds }，替换原有分配",
    access: can(userDef, "assignRestaurant"),
    body: z.object({ userId: recordId("userId"), restaurantIds: ids("餐厅") }),
    handle: (ctx, { body }) => assignLinks(session(ctx), "restaurant", body.userId, body.restaurantIds),
  }),
];

const orgEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: `${base(orgDef)}/tree`,
    summary: "本租户的机构树（按排序），每个节点带 children",
    access: can(orgDef, "view"),
    handle: (ctx) => orgTree(session(ctx)),
  }),
];

const roleEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: `${base(roleDef)}/getMenuTree`,
    summary: "可分配给角色的菜单树（页面及其按钮）",
    access: can(roleDef, "view"),
    handle: (ctx) => assignableMenuTree(session(ctx)),
  }),
  endpoint({
    method: "GET",
    path: `${base(roleDef)}/getRoleMenuIds`,
    summary: "角色已分配的菜单 id",
    access: can(roleDef, "view"),
    query: z.object({ id }),
    handle: (ctx, { query }) => roleMenuIds(session(ctx), query.id),
  }),
  endpoint({
    method: "POST",
    path: `${base(roleDef)}/assignMenu`,
    summary: "分配菜单：{ roleId, menuIds }（页面与按钮），替换原有分配；所选项的上级菜单一并分配",
    access: can(roleDef, "assignMenu"),
    body: z.object({ roleId: recordId("roleId"), menuIds: ids("菜单") }),
    handle: (ctx, { body }) => assignMenus(session(ctx), body.roleId, body.menuIds),
  }),
];

export const permissionEndpoints: Endpoint[] = [
  ...orgEndpoints.map((e) => ({ ...e, resource: resourceKey(orgDef) })),
  ...userEndpoints.map((e) => ({ ...e, resource: resourceKey(userDef) })),
  ...roleEndpoints.map((e) => ({ ...e, resource: resourceKey(roleDef) })),
];
