import { redirect, type AppLoadContext } from "react-router";
import type { UserBrief, UserInfo } from "../../resources/auth";
import { apiCall, type ApiResult } from "./api.server";
import { safeRedirect } from "../../resources/redirect";
import { t } from "./messages";

export { safeRedirect };

export const TOKEN_COOKIE = "Admin-Token";
const FLASH_COOKIE = "Flash-Message";

/** Spec §2: paths that need no token. */
export const PUBLIC_PATHS = new Set(["/login", "/auth-redirect", "/map", "/map2", "/404", "/401"]);
export { CHANGE_PASSWORD_PATH } from "./paths";
import { CHANGE_PASSWORD_PATH } from "./paths";

export function hasTokenCookie(request: Request): boolean {
  const header = request.headers.get("Cookie") ?? "";
  return header.split(";").some((part) => {
    const [name, value] = part.trim().split("=");
    return name === TOKEN_COOKIE && !!value;
  });
}

export function loginPath(request: Request): string {
  const url = new URL(request.url);
  const target = safeRedirect(url.pathname + url.search);
  return target === "/" ? "/login" : `/login?redirect=${encodeURIComponent(target)}`;
}

export function flashCookie(message: string): string {
  return `${FLASH_COOKIE}=${encodeURIComponent(message)}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`;
}

export function readFlash(request: Request): { message: string | null; clear: string | null } {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (part.slice(0, index).trim() === FLASH_COOKIE) {
      let message: string | null = null;
      try {
        message = decodeURIComponent(part.slice(index + 1).trim()) || null;
      } catch {
        message = null;
      }
      return { message, clear: `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` };
    }
  }
  return { message: null, clear: null };
}

const clearTokenCookie = `${TOKEN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/**
 * Spec §4/§8: loads the user info; a failure clears the token, carries the message to the sign-in
 * page and comes back here after sign-in.
 */
export function requireUserInfo(request: Request, context: AppLoadContext): Promise<UserInfo> {
  // Root and page loaders run side by side; they share one user-info call per request. Each loader gets its own
  // copy of the Request, but the load context is one object per request.
  // An action may change what it returns (a new name, a new password), so only loaders share it.
  if (request.method !== "GET" && request.method !== "HEAD") return loadUserInfo(request, context);
  let pending = userInfoByRequest.get(context);
  if (!pending) {
    pending = loadUserInfo(request, context);
    userInfoByRequest.set(context, pending);
  }
  return pending;
}

const userInfoByRequest = new WeakMap<AppLoadContext, Promise<UserInfo>>();

/**
 * Menus and dictionaries by the API's shell version (decision 019): a page asks the API for the brief user info and
 * takes the rest from here, so its cost does not grow with the menu. A version is a hash of the content, so an entry
 * is never stale; a version not seen yet costs one full user-info call. Few versions exist at once (one per role set
 * and dictionary change), the bound only keeps a long-running server's memory flat.
 */
const shellsByVersion = new Map<string, Pick<UserInfo, "menuTreeList" | "dictItemList">>();
const MAX_SHELLS = 200;

async function userInfoOf(request: Request, context: AppLoadContext): Promise<ApiResult<UserInfo | null>> {
  const brief = await apiCall<UserBrief | null>(request, context, "GET", "/api/v1/auth/user/brief");
  const shell = brief.status === 200 && brief.data ? shellsByVersion.get(brief.data.shellVersion) : undefined;
  if (brief.status !== 200 || !brief.data) return { ...brief, data: null };
  if (shell) return { ...brief, data: { ...brief.data, ...shell } };
  const full = await apiCall<UserInfo | null>(request, context, "GET", "/api/v1/auth/user/info");
  if (full.status === 200 && full.data) {
    if (shellsByVersion.size >= MAX_SHELLS) shellsByVersion.delete(shellsByVersion.keys().next().value as string);
    shellsByVersion.set(full.data.shellVersion, { menuTreeList: full.data.menuTreeList, dictItemList: full.data.dictItemList });
  }
  return full;
}

async function loadUserInfo(request: Request, context: AppLoadContext): Promise<UserInfo> {
  if (!hasTokenCookie(request)) throw redirect(loginPath(request));
  const result = await userInfoOf(request, context);
  let failure: string | null = null;
  if (result.status !== 200) failure = result.message || t.hasError;
  else if (!result.data) failure = t.verificationFailed;
  else if (!Array.isArray(result.data.roles) || result.data.roles.length === 0) failure = t.rolesMissing;
  if (failure !== null || !result.data) {
    const headers = new Headers();
    headers.append("Set-Cookie", clearTokenCookie);
    headers.append("Set-Cookie", flashCookie(failure ?? t.hasError));
    throw redirect(loginPath(request), { headers });
  }
  const { pathname } = new URL(request.url);
  // Spec §4: on first sign-in every other screen stays closed until the password is changed.
  if (result.data.pwdSecurityLevel === 0 && pathname !== CHANGE_PASSWORD_PATH) throw redirect(CHANGE_PASSWORD_PATH);
  return result.data;
}
