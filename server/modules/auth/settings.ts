import { defaultSettings, type UserSettings } from "../../../resources/auth";
import { UPLOAD_REFERENCE } from "../../../resources/uploads";
import { z } from "../../../resources/z";
import { endpoint, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { assertUploaded } from "../sys/files";
import { shellOf } from "./shellCache";
import { isAdmin } from "./session";
import { parseSettings } from "./userInfo";

const navigationMode = z.enum(["top", "left"], { error: "导航模式只能是 top 或 left" });

/** A partial of the user's shell settings; what is sent is merged over what is stored. */
export const settingsPatch = z.strictObject({
  tagsView: z.boolean().optional(),
  fixedHeader: z.boolean().optional(),
  sidebarLogo: z.boolean().optional(),
  theme: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "主题色应为 #RRGGBB")
    .transform((v) => v.toLowerCase())
    .optional(),
  navigationMode: navigationMode.optional(),
  /** Per list: hidden columns and density; a table sent replaces that table's entry only. */
  tables: z
    .record(
      z.string().regex(/^[A-Za-z0-9_/-]{1,100}$/, "列表标识不正确"),
      z.strictObject({
        hidden: z.array(z.string().max(100)).max(100),
        density: z.enum(["xs", "md", "xl"]),
      }),
    )
    .refine((tables) => Object.keys(tables).length <= 300, "列表设置过多")
    .optional(),
});

export function mergeSettings(current: UserSettings, patch: z.output<typeof settingsPatch>): UserSettings {
  return {
    ...defaultSettings,
    ...current,
    tagsView: patch.tagsView ?? current.tagsView,
    fixedHeader: patch.fixedHeader ?? current.fixedHeader,
    sidebarLogo: patch.sidebarLogo ?? current.sidebarLogo,
    theme: patch.theme ?? current.theme,
    ...(patch.tables ? { tables: { ...(current.tables ?? {}), ...patch.tables } } : {}),
  };
}

const profileSchema = z.strictObject({
  realName: z.string().trim().max(50, "姓名不能超过 50 个字符").nullable().optional(),
  avatar: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === "" || UPLOAD_REFERENCE.test(v), "头像只能是本站上传的图片")
    .nullable()
    .optional(),
  phone: z
    .string()
    .trim()
    .refine((v) => v === "" || /^[0-9+\-() ]{5,30}$/.test(v), "请输入有效的电话号码")
    .nullable()
    .optional(),
  navigationMode: navigationMode.optional(),
});

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === "" ? null : v);

async function readUser(ctx: SessionContext) {
  const user = await ctx.services.db
    .selectFrom("user")
    .select(["user_name", "real_name", "avatar", "phone", "navigation_mode", "settings", "updated_at"])
    .where("tenant_id", "=", ctx.session.homeTenantId)
    .where("id", "=", ctx.session.userId)
    .executeTakeFirst();
  if (!user) throw new ApiError(Status.TOKEN_EXPIRED, "Verification failed, please Login again.");
  return user;
}

export const settingsEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/auth/user/saveSettings",
    summary: "保存本人的界面设置（标签栏、固定头部、侧边栏标志、主题色、导航模式、列表列设置），只合并所传字段",
    access: { kind: "session" },
    body: settingsPatch,
    handle: async (ctx, { body }) => {
      const session = ctx as SessionContext;
      const user = await readUser(session);
      const settings = mergeSettings(parseSettings(user.settings), body);
      await ctx.services.db
        .updateTable("user")
        .set({
          settings: JSON.stringify(settings),
          ...(body.navigationMode ? { navigation_mode: body.navigationMode } : {}),
          updated_at: Math.max(ctx.now, user.updated_at + 1),
          updated_by: session.session.userId,
        })
        .where("tenant_id", "=", session.session.homeTenantId)
        .where("id", "=", session.session.userId)
        .execute();
      return { ...settings, navigationMode: body.navigationMode ?? user.navigation_mode };
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/user/profile",
    summary: "个人中心：本人的姓名、头像、电话与导航模式",
    access: { kind: "session" },
    handle: async (ctx) => {
      const user = await readUser(ctx as SessionContext);
      return { userName: user.user_name, realName: user.real_name, avatar: user.avatar, phone: user.phone, navigationMode: user.navigation_mode ?? "top" };
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/auth/user/updateProfile",
    summary: "个人中心：修改本人的姓名、头像、电话与导航模式",
    access: { kind: "session" },
    body: profileSchema,
    handle: async (ctx, { body }) => {
      const session = ctx as SessionContext;
      const user = await readUser(session);
      await assertUploaded(ctx.services.db, session.session.tenantId, { name: "avatar", label: "头像", type: "image" }, body.avatar);
      const changes = {
        ...(body.realName !== undefined ? { real_name: emptyToNull(body.realName) } : {}),
        ...(body.avatar !== undefined ? { avatar: emptyToNull(body.avatar) } : {}),
        ...(body.phone !== undefined ? { phone: emptyToNull(body.phone) } : {}),
        ...(body.navigationMode ? { navigation_mode: body.navigationMode } : {}),
      };
      await ctx.services.db
        .updateTable("user")
        .set({ ...changes, updated_at: Math.max(ctx.now, user.updated_at + 1), updated_by: session.session.userId })
        .where("tenant_id", "=", session.session.homeTenantId)
        .where("id", "=", session.session.userId)
        .execute();
      const updated = await readUser(session);
      return { userName: updated.user_name, realName: updated.real_name, avatar: updated.avatar, phone: updated.phone, navigationMode: updated.navigation_mode ?? "top" };
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/auth/user/shellInfo",
    summary: "外壳所需：本人可进入的子系统，以及有角色限制的路由（spec §6）",
    access: { kind: "session", beforePasswordChange: true },
    handle: async (ctx) => {
      const { session } = ctx as SessionContext;
      const { db } = ctx.services;
      const [shell, subsystems, restricted] = await Promise.all([
        shellOf(db, session),
        db.selectFrom("subsystem").select(["id", "sys_code", "sys_name", "icon", "sort"]).where("status", "=", 1).orderBy("sort").orderBy("id").execute(),
        db.selectFrom("menu").select(["menu_path", "roles"]).where("status", "=", 1).where("roles", "is not", null).where("menu_path", "is not", null).execute(),
      ]);
      const visible = new Set(shell.menuTreeList.filter((node) => node.menuType === "page" || node.children.length).map((node) => node.subsystemId));
      return {
        subsystems: subsystems
          .filter((s) => isAdmin(session) || visible.has(s.id))
          .map((s) => ({ id: s.id, sysCode: s.sys_code, sysName: s.sys_name, icon: s.icon })),
        routeRoles: restricted
          .map((m) => ({ path: m.menu_path as string, roles: (m.roles ?? "").split(",").map((r) => r.trim()).filter(Boolean) }))
          .filter((m) => m.roles.length > 0),
      };
    },
  }),
];
