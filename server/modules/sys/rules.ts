import { columnOf, type FieldDef, type ResourceDef } from "../../../resources/define";
import { ApiError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { toRecord, type Row } from "../resource/rows";
import { sysMessages } from "./messages";

/** The record as it will be after an update: the current one with the fields the request changes. */
export function nextRecord(def: ResourceDef, values: Row, current: Row): Row {
  const record = toRecord(def, current);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) record[name] = value;
  return record;
}

/** Epoch milliseconds as the canteen reads them (Beijing time): 2026-03-01 08:30. */
export function formatInstant(millis: number): string {
  const parts = new Intl.DateTimeFormat("zh-CN", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(millis));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}`;
}

/** One service made of several: each hook runs the parts' hooks in order. */
export function combine(...parts: ResourceService[]): ResourceService {
  return {
    async beforeCreate(ctx, values) {
      for (const part of parts) await part.beforeCreate?.(ctx, values);
    },
    async beforeUpdate(ctx, values, current) {
      for (const part of parts) await part.beforeUpdate?.(ctx, values, current);
    },
    async beforeDelete(ctx, current) {
      for (const part of parts) await part.beforeDelete?.(ctx, current);
    },
  };
}

const PUBLISHED = "1";

/**
 * Publishable rows (app and model versions, announcements): publishing stamps the time, withdrawing clears it;
 * `guardDelete` keeps a published row from being deleted while devices may still fetch it.
 */
export function publishing(def: ResourceDef, statusField: string, timeField: string, guardDelete: boolean): ResourceService {
  const statusColumn = columnOf(def.fields.find((f) => f.name === statusField) as FieldDef);
  return {
    beforeCreate(ctx, values) {
      values[timeField] = String(values[statusField]) === PUBLISHED ? ctx.now : null;
    },
    beforeUpdate(ctx, values, current) {
      if (values[statusField] === undefined) return;
      const was = String(current[statusColumn]) === PUBLISHED;
      const is = String(values[statusField]) === PUBLISHED;
      if (is && !was) values[timeField] = ctx.now;
      if (!is && was) values[timeField] = null;
    },
    beforeDelete(_ctx, current) {
      if (guardDelete && String(current[statusColumn]) === PUBLISHED) {
        throw new ApiError(Status.CONFLICT, sysMessages.version.publishedDelete(def.title));
      }
    },
  };
}
