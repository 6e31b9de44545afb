import type { Db } from "../../db";
import type { AuthSession } from "../../http/endpoint";
import { isSuper } from "./session";
import { ApiError, Status } from "../../http/envelope";
import { defaultSettings, type UserInfo, type UserSettings } from "../../../resources/auth";
import { buildTree, menuRowsFor } from "../sys/menu";

export function parseSettings(raw: string | null): UserSettings {
  if (!raw) return defaultSettings;
  try {
    return { ...defaultSettings, ...(JSON.parse(raw) as Partial<UserSettings>) };
  } catch {
    return defaultSettings;
  }
}

export async function getUserInfo(db: Db, session: AuthSession): Promise<UserInfo> {
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
  const [tenant, menus, dictItems] = await Promise.all([
    db.selectFrom("tenant").select(["id", "tenant_name"]).where("id", "=", session.tenantId).executeTakeFirstOrThrow(),
    menuRowsFor(db, session),
    db
      .selectFrom("dict_item")
      .innerJoin("dict", "dict.dict_code", "dict_item.dict_code")
      .select(["dict_item.dict_code", "dict_item.item_value", "dict_item.item_text"])
      .where("dict_item.status", "=", 1)
      .where("dict.status", "=", 1)
      .orderBy("dict_item.dict_code")
      .orderBy("dict_item.sort")
      .execute(),
  ]);
  return {
    token: session.bearerToken,
    userId: user.id,
    userName: user.user_name,
    realName: user.real_name,
    avatar: user.avatar,
    introduction: user.introduction,
    roles: session.roles,
    pwdSecurityLevel: user.pwd_security_level,
    navigationMode: user.navigation_mode,
    menuTreeList: buildTree(menus),
    dictItemList: dictItems.map((i) => ({ dictCode: i.dict_code, itemValue: i.item_value, itemText: i.item_text })),
    tenantId: tenant.id,
    tenantName: tenant.tenant_name,
    superAdmin: isSuper(session),
    settings: parseSettings(user.settings),
  };
}
