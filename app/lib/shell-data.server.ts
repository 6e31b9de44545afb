import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { UserInfo } from "../../resources/auth";
import { screenNames } from "../../resources/define";
import { reportScreens, resources } from "../../resources/index";
import type { PageUser, ShellData } from "./shell-data";

const screens = [...resources.map(screenNames), ...reportScreens.map((r) => ({ base: `${r.screenBase}/${r.screen}`, title: r.title }))];

/** The user's shell data, its JSON text and version (a hash of that text: a changed menu is a new URL). */
export function shellDataOf(user: UserInfo): { data: ShellData; text: string; version: string } {
  const data: ShellData = { menuTreeList: user.menuTreeList, dictItemList: user.dictItemList, screens };
  const text = JSON.stringify(data);
  return { data, text, version: createHash("sha256").update(text).digest("base64url").slice(0, 22) };
}

/** Keeps the request's shell data for the server render and gives the page the user without it. */
export function pageUser(user: UserInfo, context: AppLoadContext): PageUser {
  const shell = shellDataOf(user);
  context.shellData = shell.data;
  return {
    userId: user.userId,
    userName: user.userName,
    realName: user.realName,
    avatar: user.avatar,
    introduction: user.introduction,
    roles: user.roles,
    pwdSecurityLevel: user.pwdSecurityLevel,
    navigationMode: user.navigationMode,
    tenantId: user.tenantId,
    tenantName: user.tenantName,
    superAdmin: user.superAdmin,
    settings: user.settings,
    shellVersion: shell.version,
  };
}
