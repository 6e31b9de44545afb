import { data, redirect, type AppLoadContext } from "react-router";
import { apiPath, listFields, permissionCode, type FieldDef, type ResourceDef } from "../../resources/define";
import { resources } from "../../resources/index";
import { fillTemplate, stepPath, stepTitle, type WorkflowResource } from "../../resources/workflow";
import { apiCall } from "./api.server";
import { fieldErrorsOf, requirePermitted } from "./api-answer.server";
import { reasonOf, refusalOf } from "./confirm.server";
import { loadPicker } from "./resource-form.server";
import { flashCookie, requireUserInfo } from "./session.server";

/**
 * The one step screen of every resource's workflow (decision 070): a row's facts, its status, and the step the path
 * names (`/zhct/usericcard/reportLoss/7`), taken through the step's API. The page gets a view of the declaration
 * (values only), never the declaration itself.
 */

type Row = Record<string, unknown>;

const withWorkflow = resources.filter((def): def is WorkflowResource => def.workflow !== undefined);

/** The resource and the step whose screen this path is, or a 404. */
export function requireStep(request: Request) {
  const pathname = new URL(request.url).pathname;
  for (const def of withWorkflow) {
    const step = def.workflow.transitions.find((t) => pathname.startsWith(`${stepPath(def, t)}/`));
    if (step) return { def, step };
  }
  throw data(null, { status: 404 });
}

/** A field as a fact or an input draws it: its name, label, type and dictionary (no patterns, no functions). */
const fieldView = (f: FieldDef) => ({ name: f.name, label: f.label, type: f.type, ...(f.dict ? { dict: f.dict } : {}), ...(f.relation ? { relation: f.relation } : {}), ...(f.max !== undefined ? { max: f.max } : {}), ...(f.required ? { required: true } : {}) }) as FieldDef;

const listPathOf = (def: ResourceDef) => `${def.screenBase}/${def.screen}/index`;

export async function loadStep(request: Request, context: AppLoadContext, id: string | undefined) {
  await requireUserInfo(request, context);
  const { def, step } = requireStep(request);
  const result = await apiCall<Row>(request, context, "GET", apiPath(def, "getInfo"), { query: { id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  const { field, colors, refusal } = def.workflow;
  return {
    record: result.data,
    title: def.title,
    listPath: listPathOf(def),
    facts: listFields(def).filter((f) => f.name !== field).map(fieldView),
    status: { ...fieldView(def.fields.find((f) => f.name === field) as FieldDef), colors },
    refusal,
    step: {
      name: step.name,
      label: step.label,
      title: stepTitle(step),
      from: [...step.from] as string[],
      note: step.note ?? null,
      confirm: step.confirm ?? null,
      color: step.color ?? "blue",
      reasonLabel: step.reasonRequired ? `${step.label}原因` : null,
      input: (step.input ?? []).map(fieldView),
      // The button the user must hold (the API refuses without it all the same); none when the endpoint decides.
      permission: step.permission === null ? null : permissionCode(def, step.permission ?? step.name),
    },
    // A step's relation inputs (派车's car and driver) are pickers: their first options and where they search.
    pickers: Object.fromEntries(await Promise.all((step.input ?? []).filter((f) => f.type === "relation").map(async (f) => [f.name, await loadPicker(request, context, f)] as const))),
    // A step that moves money sends a key drawn for this page: pressed twice, it moves the money once.
    idempotencyKey: step.idempotent ? crypto.randomUUID() : null,
  };
}
export type StepView = Awaited<ReturnType<typeof loadStep>>;

/** Takes the step through its API; a refusal comes back in the step (its own fields' messages under them, the typed values kept). */
export async function takeStep(request: Request, context: AppLoadContext, id: string | undefined) {
  const { def, step } = requireStep(request);
  const form = await request.formData();
  const reason = reasonOf(form);
  const typed = Object.fromEntries((step.input ?? []).map((f) => [f.name, String(form.get(f.name) ?? "").trim()]));
  const body = {
    id: Number(id),
    ...(step.reasonRequired ? { reason } : {}),
    ...Object.fromEntries(Object.entries(typed).filter(([, value]) => value !== "")),
  };
  const key = form.get("idempotencyKey");
  const result = await apiCall<Row>(request, context, "POST", apiPath(def, step.name), { body, ...(step.idempotent ? { headers: { "Idempotency-Key": String(key ?? crypto.randomUUID()) } } : {}) });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    if (Object.keys(typed).some((name) => fieldErrors[name])) return data({ error: null, reasonError: null, reason, fieldErrors, typed }, { status: 400 });
    return refusalOf(result, reason);
  }
  const done = fillTemplate(step.done ?? "{title}成功", { ...result.data, label: step.label, title: stepTitle(step) });
  return redirect(listPathOf(def), { headers: { "Set-Cookie": flashCookie(done) } });
}
