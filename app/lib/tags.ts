import { HOME_PATH } from "./paths";

/** An opened page: its URL with filters and page number, so going back to it restores them. */
export interface Tag {
  path: string;
  /** The screen the tag stands for (`screenKey`): one tag per screen. */
  pathname: string;
}

/** The routes that show the dashboard: one screen, the 首页 tag (spec §2: `/` and `/admin` lead there, `/dashboard` is it). */
const HOME_ALIASES = new Set(["/", "/admin", "/dashboard", HOME_PATH]);

/**
 * Which screen a URL shows, as a tag's key (issue 38): without its query, hash or trailing slash (the router
 * matches `/x/index/` as `/x/index`), and the dashboard's routes as one.
 */
export function screenKey(path: string): string {
  const pathname = path.split(/[?#]/)[0].replace(/\/+$/, "") || "/";
  return HOME_ALIASES.has(pathname) ? HOME_PATH : pathname;
}

export const MAX_TAGS = 10;
const MAX_COOKIE_CHARS = 3000;
const MAX_PATH_CHARS = 500;

export function toTag(path: string, key = screenKey(path)): Tag {
  return { path, pathname: key };
}

export const homeTag = toTag(HOME_PATH);
export const isAffix = (tag: Tag) => tag.pathname === HOME_PATH;

/** Opens (or updates) the tag of a page; past ten the oldest closes first, and the dashboard stays. */
export function openTag(tags: Tag[], path: string): Tag[] {
  return openScreenTag(tags, path, screenKey(path));
}

/** `openTag` for a page whose screen the shell knows better than its URL (a sub-page with no name of its own). */
export function openScreenTag(tags: Tag[], path: string, key: string): Tag[] {
  const tag = toTag(path.slice(0, MAX_PATH_CHARS), key);
  const index = tags.findIndex((t) => t.pathname === tag.pathname);
  let next = index >= 0 ? tags.map((t, i) => (i === index ? tag : t)) : [...tags, tag];
  if (!next.some(isAffix)) next = [homeTag, ...next];
  while (next.length > MAX_TAGS) {
    const oldest = next.findIndex((t) => !isAffix(t) && t.pathname !== tag.pathname);
    next = next.filter((_, i) => i !== oldest);
  }
  return next;
}

export function closeTag(tags: Tag[], pathname: string): Tag[] {
  return tags.filter((t) => isAffix(t) || t.pathname !== pathname);
}

export function closeOtherTags(tags: Tag[], pathname: string): Tag[] {
  return tags.filter((t) => isAffix(t) || t.pathname === pathname);
}

export function closeAllTags(tags: Tag[]): Tag[] {
  return tags.filter(isAffix);
}

export function serializeTags(tags: Tag[]): string {
  let paths = tags.map((t) => t.path);
  while (paths.length > 1 && encodeURIComponent(JSON.stringify(paths)).length > MAX_COOKIE_CHARS) {
    const oldest = paths.findIndex((p) => toTag(p).pathname !== HOME_PATH);
    paths = paths.filter((_, i) => i !== oldest);
  }
  return JSON.stringify(paths);
}

export function parseTags(value: string | null, keyOf: (path: string) => string = screenKey): Tag[] {
  if (!value) return [homeTag];
  try {
    const paths = JSON.parse(value) as unknown;
    if (!Array.isArray(paths)) return [homeTag];
    return paths
      .filter((p): p is string => typeof p === "string" && p.startsWith("/") && !p.startsWith("//"))
      .slice(0, MAX_TAGS)
      .reduce<Tag[]>((tags, path) => openScreenTag(tags, path, keyOf(path)), [homeTag]);
  } catch {
    return [homeTag];
  }
}

/** Pages that are not tags: status pages and the redirecting routes. */
export function isTaggable(pathname: string): boolean {
  return !["/404", "/401"].includes(pathname) && !pathname.startsWith("/subsystem/");
}
