import type { ResourceDef, ResourceTransition, ResourceWorkflow, StatusColor } from "./define";

/**
 * Reading a resource's workflow (decision 070): the steps a status allows and the texts its screen and its refusals
 * say. Isomorphic: the API's 409s and the generic step screen say the same words from the same declaration.
 */

export type WorkflowResource = ResourceDef & { workflow: ResourceWorkflow };

export function hasWorkflow(def: ResourceDef): def is WorkflowResource {
  return def.workflow !== undefined;
}

export function resourceTransition(def: ResourceDef, name: string): ResourceTransition | undefined {
  return def.workflow?.transitions.find((t) => t.name === name);
}

/** Whether `step` may start from the stored or answered `status` (compared as the dictionary's string values). */
export function allowedFrom(step: Pick<ResourceTransition, "from">, status: unknown): boolean {
  return status !== null && status !== undefined && (step.from as readonly string[]).includes(String(status));
}

/** A status's badge colour as the workflow declares it; gray for a value it does not name. */
export function statusColor(workflow: Pick<ResourceWorkflow, "colors">, status: unknown): StatusColor {
  return (workflow.colors as Readonly<Record<string, StatusColor>>)[String(status)] ?? "gray";
}

/** The step screen's path under the resource's (`/zhct/usericcard/reportLoss/7`): the row link's and the route's. */
export const stepPath = (def: Pick<ResourceDef, "screenBase" | "screen">, step: Pick<ResourceTransition, "name">) => `${def.screenBase}/${def.screen}/${step.name}`;

/** As the screens show money (app/lib/format.ts formatFen): yuan with two decimals and separators. */
const fen = (value: unknown) => (Number(value) / 100).toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const empty = (value: unknown) => value === null || value === undefined || value === "" || value === 0 || value === "0";

/**
 * Fills a step's text: `{name}` with `values[name]`, `{name:yuan}` with fen as yuan; a part in `[…]` is left out when
 * any value it names is empty or zero (陪餐已取消[，已退回 {refunded:yuan} 元]).
 */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  const kept = template.replace(/\[([^\]]*)\]/g, (_, part: string) => ([...part.matchAll(/\{(\w+)/g)].some((m) => empty(values[m[1] as string])) ? "" : part));
  return kept.replace(/\{(\w+)(?::(yuan))?\}/g, (_, name: string, format?: string) => (format === "yuan" ? fen(values[name]) : String(values[name] ?? "")));
}

/** The 409 of a step not allowed from `statusLabel` (该卡当前为「挂失」，不能挂失). */
export function refusalText(workflow: Pick<ResourceWorkflow, "refusal">, statusLabel: string, step: Pick<ResourceTransition, "label">): string {
  return fillTemplate(workflow.refusal, { status: statusLabel, action: step.label });
}

/** The step screen's title: 取消预订 for a row link 取消. */
export const stepTitle = (step: Pick<ResourceTransition, "label" | "title">) => step.title ?? step.label;
