import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { formFields, resourceKey, type FieldDef, type ResourceDef } from "../../resources/define";
import { formSchema } from "../../resources/forms";
import { findResource } from "../../resources/index";
import { optionLabel, relationSource, type RelationSource } from "~/components/resource/relation-search";
import { apiCall } from "./api.server";
import { formReply } from "./api-answer.server";
import { apiPath } from "./resource.server";
import { flashCookie } from "./session.server";

type Row = Record<string, unknown>;
export type FormMode = "create" | "edit";

/**
 * What a resource's form needs: its declaration, the record being edited, and each picker's first options and where
 * it searches (the browser is sent these rather than every declaration, issue 17).
 */
export async function loadForm(request: Request, context: AppLoadContext, def: ResourceDef, id: string | undefined) {
  const mode: FormMode = id ? "edit" : "create";
  let record: Row | null = null;
  if (id) {
    const result = await apiCall<Row>(request, context, "GET", apiPath(def, "getInfo"), { query: { id } });
    if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
    if (result.status !== 200) throw data(null, { status: 401 });
    record = result.data;
  }
  // A create page opened from elsewhere names a picker's choice in its URL (发卡 from a diner's page: ?userInfoId=…);
  // kept only if that record is found (in the caller's tenant), so a stale or foreign id prefills nothing.
  const url = new URL(request.url);
  const prefill: Record<string, string> = {};
  const options: Record<string, { value: string; label: string }[]> = {};
  const sources: Record<string, RelationSource> = {};
  for (const field of formFields(def).filter((f) => (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const picker = await loadPicker(request, context, field);
    if (!picker) continue;
    const { target, source, options: list } = picker;
    sources[field.name] = source;
    const current = record?.[field.name];
    if (current !== null && current !== undefined && !list.some((o) => o.value === String(current))) {
      list.unshift({ value: String(current), label: String(record?.[`${field.name}Label`] ?? current) });
    }
    const named = mode === "create" ? url.searchParams.get(field.name) : null;
    if (named && /^\d{1,16}$/.test(named)) {
      const found = list.find((o) => o.value === named) ?? (await labelOf(request, context, target, named));
      if (found) {
        if (!list.includes(found)) list.unshift(found);
        prefill[field.name] = named;
      }
    }
    options[field.name] = list;
  }
  return { def, key: resourceKey(def), mode, record, prefill, options, sources };
}

/** A relation picker's first options (100) and where it searches; one limited to one kind (restaurants among the orgs) offers only that kind. */
export async function loadPicker(request: Request, context: AppLoadContext, field: FieldDef) {
  const target = field.relation ? findResource(field.relation) : undefined;
  if (!target) return null;
  const source = relationSource(target, field.relationWhere);
  const only = field.relationWhere?.values.length === 1 ? { [field.relationWhere.field]: field.relationWhere.values[0] } : {};
  const page = await apiCall<{ records: Row[] }>(request, context, "GET", apiPath(target, "findPage"), { query: { pageSize: 100, ...only } });
  const options = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: optionLabel(source, r) }));
  return { target, source, options };
}

/** A picker's option for one record of `target`, if the caller can read it. */
async function labelOf(request: Request, context: AppLoadContext, target: ResourceDef, id: string) {
  const result = await apiCall<Row>(request, context, "GET", apiPath(target, "getInfo"), { query: { id } });
  return result.status === 200 ? { value: id, label: String(result.data[target.labelField]) } : null;
}

/**
 * Saves a submitted form through the API: the browser's schema again, then the server's rules. A refusal answers
 * conform's reply (the typed values and each field's message); a save goes to `back` with a flash.
 */
export async function saveForm(request: Request, context: AppLoadContext, def: ResourceDef, mode: FormMode, formData: FormData, back: string) {
  const submission = parseWithZod(formData, { schema: formSchema(def, mode) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(def, mode === "create" ? "create" : "update"), { body: submission.value });
  if (result.status !== 200) return formReply(submission, result);
  return redirect(back, { headers: { "Set-Cookie": flashCookie("保存成功") } });
}
