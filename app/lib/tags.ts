import { HOME_PATH } from "./paths";

/** An opened page: its URL with filters and page number, so going back to it restores them. */
export interface Tag {
  path: string;
  pathname: string;
}

export const MAX_TAGS = 10;
const MAX_COOKIE_CHARS = 3000;
const MAX_PATH_CHARS = 500;

export function toTag(path: string): Tag {
  return { path, pathname: path.split(/[?#]/)[0] };
}

export const homeTag = toTag(HOME_PATH);
export const isAffix = (tag: Tag) => tag.pathname === HOME_PATH;

/** Opens (or updates) the tag of a page; past ten the oldest closes first, and the dashboard stays. */
export function openTag(tags: Tag[], path: string): Tag[] {
  const tag = toTag(path.slice(0, MAX_PATH_CHARS));
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

export function parseTags(value: string | null): Tag[] {
  if (!value) return [homeTag];
  try {
    const paths = JSON.parse(value) as unknown;
    if (!Array.isArray(paths)) return [homeTag];
    return paths
      .filter((p): p is string => typeof p === "string" && p.startsWith("/") && !p.startsWith("//"))
      .slice(0, MAX_TAGS)
      .reduce<Tag[]>((tags, path) => openTag(tags, path), [homeTag]);
  } catch {
    return [homeTag];
  }
}

/** Pages that are not tags: status pages and the redirecting routes. */
export function isTaggable(pathname: string): boolean {
  return !["/404", "/401"].includes(pathname) && !pathname.startsWith("/subsystem/");
}
