import { role as roleDef } from "../../../resources/auth/role";
import { user as userDef } from "../../../resources/auth/user";
import type { FieldDef } from "../../../resources/define";
import { createSchema } from "../../../resources/schemas";
import { hashPassword, passwordProblem, randomPassword } from "../../auth/password";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { checkDictionaries, checkRelations, checkUnique, db, getInfo, getRow, lockOwner, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import { toRecord, type Row } from "../resource/rows";
import { findResource } from "../../../resources/index";
import { endSessions, isSuper } from "./session";
import { assertRolesGrantable, assertSuperRemains, holdsSuper } from "./role";
import { createUserAccount } from "./userAccounts";

export const userMessages = {
  userNameTaken: "用户名已存在",
  deleteSelf: "不能删除自己的账号",
  disableSelf: "不能停用自己的账号",
  resetSelf: "请通过“修改密码”修改本人的密码",
  superOnly: "只有超级管理员可以管理超级管理员账号",
  userCodeTaken: "用户编码已存在",
  warehouseMissing: "所选仓库不存在",
  restaurantMissing: "所选餐厅不存在或不是餐厅类型的机构",
};

/** Password rules of modifyPasswd, worded for a password someone else sets. */
export function initialPasswordProblem(password: string, userName: string): string | null {
  return passwordProblem(password, userName)?.replace("新密码", "密码") ?? null;
}

async function assertMayManageUser(ctx: SessionContext, userId: number) {
  if (!isSuper(ctx.session) && (await holdsSuper(db(ctx), ctx.session.tenantId, userId))) {
    throw new ApiError(Status.FORBIDDEN, userMessages.superOnly);
  }
}

const isSelf = (ctx: SessionContext, userId: unknown) => ctx.session.tenantId === ctx.session.homeTenantId && userId === ctx.session.userId;

export const userService: ResourceService = {
  async beforeUpdate(ctx, values, current) {
    const id = current.id as number;
    await assertMayManageUser(ctx, id);
    if (values.userName !== undefined && values.userName !== current.user_name) {
      const taken = await ctx.services.db.selectFrom("login_name").select("user_id").where("user_name", "=", values.userName as string).executeTakeFirst();
      if (taken) throw fieldError("userName", userMessages.userNameTaken);
    }
    if (values.status !== undefined && String(values.status) !== "1" && current.status === 1) {
      if (isSelf(ctx, id)) throw fieldError("status", userMessages.disableSelf);
      await assertSuperRemains(db(ctx), (h) => h.tenant_id === current.tenant_id && h.user_id === id);
    }
  },
  async afterUpdate(ctx, trx, row, current) {
    if (Number(row.status) !== 1) await endSessions(trx, ctx.now, current.tenant_id as number, current.id as number);
    // Sign-in names are global; the login_name row follows a renamed user.
    if (row.user_name !== current.user_name) {
      await trx
        .updateTable("login_name")
        .set({ user_name: row.user_name })
        .where("tenant_id", "=", current.tenant_id)
        .where("user_id", "=", current.id)
        .execute();
    }
  },
  async beforeDelete(ctx, current) {
    if (isSelf(ctx, current.id)) throw new ApiError(Status.CONFLICT, userMessages.deleteSelf);
    await assertMayManageUser(ctx, current.id as number);
  },
  async onDelete(_ctx, trx, current) {
    await assertSuperRemains(trx, (h) => h.tenant_id === current.tenant_id && h.user_id === current.id);
  },
};

/** `POST create`: `{ user, roleIds }` as the spec has it (a bare user is taken too); the user must change the password at first sign-in. */
export async function createUser(ctx: SessionContext, user: Row, roleIds: number[], password: string | undefined) {
  const values = createSchema(userDef).parse(user) as Row;
  await checkRelations(ctx, userDef, values);
  await checkDictionaries(ctx, userDef, values);
  await checkUnique(ctx, userDef, values);
  const userName = values.userName as string;
  if (password !== undefined) {
    const problem = initialPasswordProblem(password, userName);
    if (problem) throw fieldError("password", problem);
  }
  const roles = await assertRolesGrantable(ctx, roleIds);
  const initialPassword = password ?? randomPassword(12);
  const id = await createUserAccount(ctx.services.db, {
    tenantId: ctx.session.tenantId,
    userName,
    password: initialPassword,
    realName: values.realName as string,
    orgId: (values.orgId as number | null | undefined) ?? null,
    roleIds: roles.map((r) => r.id as number),
    pwdSecurityLevel: 0,
    status: values.status === undefined ? 1 : Number(values.status),
    createdBy: ctx.session.userId,
    profile: {
      user_code: (values.userCode as string | null | undefined) ?? null,
      phone: (values.phone as string | null | undefined) ?? null,
      email: (values.email as string | null | undefined) ?? null,
      sex: values.sex === null || values.sex === undefined ? null : Number(values.sex),
      avatar: (values.avatar as string | null | undefined) ?? null,
      remark: (values.remark as string | null | undefined) ?? null,
      navigation_mode: (values.navigationMode as string | null | undefined) ?? "top",
    },
    afterInsert: (trx, newUserId) => recordOperation(trx, ctx, userDef, newUserId, "create", { ...values, roleIds: roles.map((r) => r.id) }),
  });
  const record = await getInfo(ctx, userDef, id, findResource);
  return password === undefined ? { ...record, initialPassword } : record;
}

export async function userRoles(ctx: SessionContext, userId: number): Promise<Row[]> {
  await getRow(ctx, userDef, userId);
  const rows = await ctx.services.db
    .selectFrom("role")
    .innerJoin("user_role", (j) => j.onRef("user_role.tenant_id", "=", "role.tenant_id").onRef("user_role.role_id", "=", "role.id"))
    .selectAll("role")
    .where("user_role.tenant_id", "=", ctx.session.tenantId)
    .where("user_role.user_id", "=", userId)
    .orderBy("role.role_code")
    .execute();
  return rows.map((r) => toRecord(roleDef, r as Row));
}

export async function assignRoles(ctx: SessionContext, userId: number, roleIds: number[]) {
  const target = await getRow(ctx, userDef, userId);
  await assertMayManageUser(ctx, userId);
  const roles = await assertRolesGrantable(ctx, roleIds);
  const ids = roles.map((r) => r.id as number).sort((a, b) => a - b);
  const tenantId = ctx.session.tenantId;
  await ctx.services.db.transaction().execute(async (trx) => {
    await lockOwner(ctx, trx, "user", userId);
    await trx.deleteFrom("user_role").where("tenant_id", "=", tenantId).where("user_id", "=", userId).execute();
    if (ids.length) await trx.insertInto("user_role").values(ids.map((roleId) => ({ tenant_id: tenantId, user_id: userId, role_id: roleId }))).execute();
    await assertSuperRemains(trx, () => false);
    await recordOperation(trx, ctx, userDef, userId, "assignRole", { userName: target.user_name, roleIds: ids });
  });
  return { userId, roleIds: ids };
}

export async function validateUserCode(ctx: SessionContext, userCode: string, id?: number): Promise<{ valid: boolean; message: string | null }> {
  const field = userDef.fields.find((f) => f.name === "userCode") as FieldDef;
  const code = userCode.trim();
  if (!code) return { valid: false, message: `请输入${field.label}` };
  if (field.pattern && !field.pattern.regex.test(code)) return { valid: false, message: field.pattern.message };
  let query = ctx.services.db.selectFrom("user").select("id").where("tenant_id", "=", ctx.session.tenantId).where("user_code", "=", code);
  if (id !== undefined) query = query.where("id", "!=", id);
  return (await query.executeTakeFirst()) ? { valid: false, message: userMessages.userCodeTaken } : { valid: true, message: null };
}

export async function usersByRoleType(ctx: SessionContext, roleType: string): Promise<Row[]> {
  const rows = await ctx.services.db
    .selectFrom("user")
    .selectAll("user")
    .where("user.tenant_id", "=", ctx.session.tenantId)
    .where("user.id", "in", (eb) =>
      eb
        .selectFrom("user_role")
        .innerJoin("role", (j) => j.onRef("role.tenant_id", "=", "user_role.tenant_id").onRef("role.id", "=", "user_role.role_id"))
        .select("user_role.user_id")
        .where("user_role.tenant_id", "=", ctx.session.tenantId)
        .where("role.role_type", "=", roleType)
        .where("role.status", "=", 1),
    )
    .orderBy("user.user_name")
    .limit(1000)
    .execute();
  return rows.map((r) => toRecord(userDef, r as Row));
}

/** An admin sets another user's password: the user must change it at the next sign-in, and is signed out everywhere. */
export async function resetPassword(ctx: SessionContext, userId: number, password: string) {
  const target = await getRow(ctx, userDef, userId);
  if (isSelf(ctx, userId)) throw new ApiError(Status.BAD_REQUEST, userMessages.resetSelf);
  await assertMayManageUser(ctx, userId);
  const problem = initialPasswordProblem(password, target.user_name as string);
  if (problem) throw fieldError("password", problem);
  const hash = await hashPassword(password);
  const tenantId = ctx.session.tenantId;
  await ctx.services.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("user")
      .set({ password_hash: hash, pwd_security_level: 0, updated_at: Math.max(ctx.now, (target.updated_at as number) + 1), updated_by: ctx.session.userId })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", userId)
      .execute();
    await trx
      .updateTable("session")
      .set({ revoked_at: ctx.now })
      .where("tenant_id", "=", tenantId)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
    await recordOperation(trx, ctx, userDef, userId, "resetPasswd", { userName: target.user_name });
  });
  return null;
}

export interface LinkOptions {
  options: Array<{ id: number; name: string; status: string }>;
  selectedIds: number[];
}

/** User ↔ warehouse and user ↔ restaurant links: the same shape, two tables. */
const links = {
  warehouse: {
    table: "user_warehouse",
    column: "warehouse_id",
    missing: userMessages.warehouseMissing,
    field: "warehouseIds",
    options: (ctx: SessionContext) =>
      ctx.services.db
        .selectFrom("warehouse")
        .select(["id", "name", "status"])
        .where("tenant_id", "=", ctx.session.tenantId)
        .orderBy("name")
        .orderBy("id")
        .execute(),
  },
  restaurant: {
    table: "user_restaurant",
    column: "org_id",
    missing: userMessages.restaurantMissing,
    field: "restaurantIds",
    options: (ctx: SessionContext) =>
      ctx.services.db
        .selectFrom("org")
        .select(["id", "org_name as name", "status"])
        .where("tenant_id", "=", ctx.session.tenantId)
        .where("org_type", "=", "restaurant")
        .orderBy("sort")
        .orderBy("id")
        .execute(),
  },
} as const;

export type LinkKind = keyof typeof links;

export async function userLinks(ctx: SessionContext, kind: LinkKind, userId: number): Promise<LinkOptions> {
  await getRow(ctx, userDef, userId);
  const link = links[kind];
  const [options, selected] = await Promise.all([
    link.options(ctx),
    db(ctx)
      .selectFrom(link.table)
      .select(`${link.column} as id`)
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("user_id", "=", userId)
      .execute(),
  ]);
  const selectedIds = (selected as Array<{ id: number }>).map((r) => r.id);
  return { options: options.map((o) => ({ id: o.id, name: o.name, status: String(o.status) })), selectedIds: selectedIds.sort((a, b) => a - b) };
}

export async function assignLinks(ctx: SessionContext, kind: LinkKind, userId: number, ids: number[]) {
  const target = await getRow(ctx, userDef, userId);
  const link = links[kind];
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const known = new Set((await link.options(ctx)).map((o) => o.id));
  if (wanted.some((id) => !known.has(id))) throw fieldError(link.field, link.missing);
  const tenantId = ctx.session.tenantId;
  await ctx.services.db.transaction().execute(async (trx) => {
    const t = trx as unknown as ReturnType<typeof db>;
    await lockOwner(ctx, t, "user", userId);
    await t.deleteFrom(link.table).where("tenant_id", "=", tenantId).where("user_id", "=", userId).execute();
    if (wanted.length) {
      await t
        .insertInto(link.table)
        .values(wanted.map((id) => ({ tenant_id: tenantId, user_id: userId, [link.column]: id })))
        .execute();
    }
    await recordOperation(trx, ctx, userDef, userId, kind === "warehouse" ? "assignWarehouse" : "assignRestaurant", {
      userName: target.user_name,
      [link.field]: wanted,
    });
  });
  return { userId, [link.field]: wanted };
}
