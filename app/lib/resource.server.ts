import { data } from "react-router";
import { chinaDayStart } from "../../resources/chinaTime";
import { filterFields, type ResourceDef } from "../../resources/define";
import { resourceForPath } from "../../resources/index";

export function requireResource(request: Request): ResourceDef {
  const def = resourceForPath(new URL(request.url).pathname);
  if (!def) throw data(null, { status: 404 });
  return def;
}

export { apiPath } from "../../resources/define";

/** Parameters that steer the screen, not the query. */
const SCREEN_PARAMS = new Set(["delete", "create", "edit", "import"]);

// The days of a datetime range are China days, as the list shows its times.
const startOfDay = (date: string) => chinaDayStart(date);
const endOfDay = (date: string) => chinaDayStart(date) + 86_400_000 - 1;

/**
 * The list URL's parameters as the API takes them. The URL keeps dates readable (YYYY-MM-DD) so a bookmark
 * reads well; datetime ranges become epoch milliseconds here.
 */
export function listQuery(def: ResourceDef, url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (!SCREEN_PARAMS.has(key) && value !== "") query[key] = value;
  }
  for (const field of filterFields(def).filter((f) => f.type === "datetime" && f.filter === "range")) {
    const begin = query[`${field.name}Begin`];
    const end = query[`${field.name}End`];
    if (begin && /^\d{4}-\d{2}-\d{2}$/.test(begin)) query[`${field.name}Begin`] = String(startOfDay(begin));
    if (end && /^\d{4}-\d{2}-\d{2}$/.test(end)) query[`${field.name}End`] = String(endOfDay(end));
  }
  return query;
}

