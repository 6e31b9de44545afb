/** Shapes of the session calls (spec §3), shared by the API and the web app. */

export interface MenuNode {
  id: number;
  subsystemId: number;
  parentId: number | null;
  parentIds: number[];
  menuName: string;
  menuPath: string | null;
  menuIcon: string | null;
  /** page, path, url, button, miniapp */
  menuType: string;
  /** _blank, iframe, other */
  menuTarget: string;
  permission: string | null;
  roles: string[];
  sort: number;
  children: MenuNode[];
}

export interface UserSettings {
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  theme: string;
  /** Per list (resource key): hidden columns and row density, remembered for the user. */
  tables?: Record<string, TablePrefs>;
}

export interface TablePrefs {
  hidden: string[];
  density: "xs" | "md" | "xl";
}

export const defaultSettings: UserSettings = { tagsView: true, fixedHeader: true, sidebarLogo: true, theme: "#1890ff" };

export interface UserInfo {
  token: string | null;
  userId: number;
  userName: string;
  realName: string | null;
  avatar: string | null;
  introduction: string | null;
  roles: string[];
  pwdSecurityLevel: number;
  navigationMode: string | null;
  menuTreeList: MenuNode[];
  dictItemList: Array<{ dictCode: string; itemValue: string; itemText: string }>;
  tenantId: number;
  tenantName: string;
  /** A super admin may switch tenants (the top bar offers it). */
  superAdmin: boolean;
  settings: UserSettings;
  /** Changes exactly when `menuTreeList` or `dictItemList` does (decision 019). */
  shellVersion: string;
}

/** `GET /api/v1/auth/user/brief`: the user info without the menus and dictionaries, for every page. */
export type UserBrief = Omit<UserInfo, "menuTreeList" | "dictItemList">;

/** Spec §5: login fields travel as `ENC:` followed by the base64 of their UTF-8 text. */
export function encodeLoginField(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `ENC:${btoa(binary)}`;
}

export interface LoginConfig {
  captchaEnabled: boolean;
}
