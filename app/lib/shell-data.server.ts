import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { UserInfo } from "../../resources/auth";
import { screenNames } from "../../resources/define";
import { documents, reportScreens, resources } from "../../resources/index";
import type { PageUser, ShellData } from "./shell-data";

// A document's pages are named by its title (新增入库单, 入库单详情); its steps have no page of their own.
const screens = [
  ...resources.map(screenNames),
  ...reportScreens.map((r) => ({ base: `${r.screenBase}/${r.screen}`, title: r.title })),
  ...documents.map((d) => ({ ...screenNames(d.header), steps: undefined })),
];

/** Screen names are part of the build, so their share of the version is computed once. */
const screensHash = createHash("sha256").update(JSON.stringify(screens)).digest("base64url").slice(0, 16);

/**
 * The user's shell data and its version: the API's version of the menus and dictionaries with the screens'. The
 * version names the content (a changed menu is a new URL), and costs the same per page however large the menu.
 */
export function shellDataOf(user: UserInfo): { data: ShellData; version: string } {
  return { data: { menuTreeList: user.menuTreeList, dictItemList: user.dictItemList, screens }, version: createHash("sha256").update(`${user.shellVersion}${screensHash}`).digest("base64url").slice(0, 22) };
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
