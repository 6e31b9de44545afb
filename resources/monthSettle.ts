import type { ResourceDef } from "./define";

/**
 * A month close as data (decision 084): the steps that make a month's figures again (生成) and lock it (转正式, 确认),
 * the months made so far and their columns. One screen draws every declaration (app/routes/month-settle.tsx) at
 * `<screenBase>/<screen>/<step>` of the list it closes; a module names its closes in its declaration (`monthSettles`).
 */
export interface MonthSettleDef {
  /** The list the close belongs to: its pages sit under it, and 返回列表 and a done step go to its index. */
  of: Pick<ResourceDef, "module" | "entity" | "screenBase" | "screen">;
  /** GET: the months made so far, an array or a page (`{ records }`). */
  months: string;
  /** POST `<api>/<step>` with `{ month }` (and the place, when `place` is asked). */
  api: string;
  /** Asks for a restaurant or stall (餐厅/商户): left empty, the step is every place's. */
  place?: { name: string; label: string; orgTypes: readonly string[] };
  /** The months' status: the value of a locked month and the two badges. */
  status: { field: string; locked: string; lockedLabel: string; openLabel: string };
  heading: string;
  empty: string;
  /** Columns after 月份 and 状态. */
  columns: ReadonlyArray<{ key: string; label: string; kind: "text" | "count" | "money" | "time" }>;
  steps: readonly MonthSettleStep[];
}

export interface MonthSettleStep {
  name: string;
  title: string;
  button: string;
  note: string;
  /** The step that locks the month: orange, and confirmed first in a dialog whose text is `review`. */
  locks?: {
    /** Filled (resources/workflow.ts fillTemplate) from the month's row as the months list holds it, and `month`. */
    review: string;
    /** Without a kept (not locked) row of the month: `ask` still asks (with the month alone), `skip` lets the API answer. */
    withoutRow: "ask" | "skip";
    /** The dialog's button. */
    confirmLabel: string;
  };
  /** The flash after the step, filled from the API's answer. */
  done: string;
}

/** The pages of a close: one route per declaration, its step in the path. */
export const monthSettlePath = (def: MonthSettleDef) => `${def.of.screenBase}/${def.of.screen}`;
