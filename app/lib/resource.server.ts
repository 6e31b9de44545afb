import { data, type AppLoadContext } from "react-router";
import { chinaDayStart } from "../../resources/chinaTime";
import { apiPath, filterFields, listFields, type ResourceDef } from "../../resources/define";
import { findResource, resourceForPath } from "../../resources/index";
import { optionLabel, relationSource, type RelationFilterData } from "~/components/resource/relation-search";
import { apiCall } from "./api.server";

export function requireResource(request: Request): ResourceDef {
  const def = resourceForPath(new URL(request.url).pathname);
  if (!def) throw data(null, { status: 404 });
  return def;
}

export { apiPath };

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


/**
 * A list's relation filters: each searches the server as the user types (issue 17), so the page carries only its
 * source and the chosen row's name, not the first hundred rows; every row can be chosen and the page stays light.
 */
export async function relationFilters(request: Request, context: AppLoadContext, def: ResourceDef, url: URL) {
  const relations: Record<string, RelationFilterData> = {};
  for (const field of def.fields.filter((f) => f.filter === "eq" && (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const target = findResource(field.relation as string);
    if (!target) continue;
    const chosen = url.searchParams.get(field.name);
    let selected: RelationFilterData["selected"] = null;
    if (chosen && /^\d{1,15}$/.test(chosen)) {
      const row = await apiCall<Record<string, unknown>>(request, context, "GET", apiPath(target, "getInfo"), { query: { id: chosen } });
      selected = { value: chosen, label: row.status === 200 && row.data ? optionLabel(relationSource(target), row.data) : chosen };
    }
    relations[field.name] = { source: relationSource(target, field.relationWhere), selected };
  }
  return relations;
}

/**
 * A row as a list page's data carries it: what the table draws (its columns and their relation labels) and the row's
 * name for the delete confirmation, not every field the API answers (issue 17: the data travels in every page).
 */
export function tableRow<R extends Record<string, unknown>>(def: ResourceDef): (record: R) => R {
  const keep = new Set(["id", def.labelField, ...listFields(def).flatMap((field) => [field.name, `${field.name}Label`])]);
  return (record) => Object.fromEntries(Object.entries(record).filter(([key]) => keep.has(key))) as R;
}
