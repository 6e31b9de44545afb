/** Cookies and storage keys the shell keeps in the browser (spec §9), readable on the server for the first paint. */
export const SIDEBAR_COOKIE = "sidebarStatus";
export const SUBSYSTEM_COOKIE = "Subsystem-Id";
export const TAGS_COOKIE = "Tags-View";
export const ACTIVE_MENU_KEY = "activeMenu";

export function readCookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/** A cookie the browser writes for the server to read (not secret: layout state only). */
export function writeBrowserCookie(name: string, value: string | null, maxAgeSeconds?: number) {
  const age = value === null ? "; Max-Age=0" : maxAgeSeconds ? `; Max-Age=${maxAgeSeconds}` : "";
  document.cookie = `${name}=${encodeURIComponent(value ?? "")}; Path=/; SameSite=Lax${age}`;
}

export const YEAR_SECONDS = 365 * 24 * 3600;
