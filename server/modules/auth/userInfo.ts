import type { Db } from "../../db";
import type { AuthSession } from "../../http/endpoint";
import { isSuper } from "./session";
import { ApiError, Status } from "../../http/envelope";
import { defaultSettings, type UserBrief, type UserInfo, type UserSettings } from "../../../resources/auth";
import { shellOf, type ShellOf } from "./shellCache";

export function parseSettings(raw: string | null): UserSettings {
  if (!raw) return defaultSettings;
  try {
    return { ...defaultSettings, ...(JSON.parse(raw) as Partial<UserSettings>) };
  } catch {
    return defaultSettings;
  }
}

/** The signed-in user without the shell's menus and dictionaries: what every page needs (decision 019). */
export async function getUserBrief(db: Db, session: AuthSession): Promise<UserBrief> {
  return (await userAndShell(db, session)).brief;
}

export async function getUserInfo(db: Db, session: AuthSession): Promise<UserInfo> {
  const { brief, shell } = await userAndShell(db, session);
  return { ...brief, menuTreeList: shell.menuTreeList, dictItemList: shell.dictItemList };
}

async function userAndShell(db: Db, session: AuthSession): Promise<{ brief: UserBrief; shell: ShellOf }> {
  const user = await db
    .selectFrom("user")
    .select([
      "user.id",
      "user.user_name",
      "user.real_name",
      "user.avatar",
      "user.introduction",
      "user.pwd_security_level",
      "user.navigation_mode",
      "user.settings",
    ])
    .where("user.tenant_id", "=", session.homeTenantId)
    .where("user.id", "=", session.userId)
    .executeTakeFirst();
  if (!user) throw new ApiError(Status.TOKEN_EXPIRED, "Verification failed, please Login again.");
  const [tenant, shell] = await Promise.all([
    db.selectFrom("tenant").select(["id", "tenant_name"]).where("id", "=", session.tenantId).executeTakeFirstOrThrow(),
    shellOf(db, session),
  ]);
  const brief: UserBrief = {
    token: session.bearerToken,
    userId: user.id,
    userName: user.user_name,
    realName: user.real_name,
    avatar: user.avatar,
    introduction: user.introduction,
    roles: session.roles,
    pwdSecurityLevel: user.pwd_security_level,
    navigationMode: user.navigation_mode,
    shellVersion: shell.shellVersion,
    tenantId: tenant.id,
    tenantName: tenant.tenant_name,
    superAdmin: isSuper(session),
    settings: parseSettings(user.settings),
  };
  return { brief, shell };
}
