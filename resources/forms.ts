import { chinaWallClock, chinaWallClockToMillis } from "./chinaTime";
import { formFields, type FieldDef, type ResourceDef } from "./define";
import { createSchema, updateSchema } from "./schemas";
import { z } from "./z";

type Raw = Record<string, unknown>;

/** Yuan as typed ("12.5") → fen; anything unreadable stays as typed so the schema names the problem. */
export function yuanToFen(value: unknown): unknown {
  if (typeof value !== "string" || value.trim() === "") return value;
  const text = value.trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) return text;
  const [whole, fraction = ""] = text.replace("-", "").split(".");
  const fen = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return text.startsWith("-") ? -fen : fen;
}

export function fenToYuan(value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  const fen = Number(value);
  const sign = fen < 0 ? "-" : "";
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A form's China wall clock as the instant the API takes; anything else is left for the schema to refuse. */
function dateTimeToMillis(value: unknown): unknown {
  if (typeof value !== "string" || value.trim() === "" || /^\d+$/.test(value)) return value;
  return chinaWallClockToMillis(value) ?? value;
}

function fieldFromForm(field: FieldDef, value: unknown): unknown {
  switch (field.type) {
    case "money":
      return yuanToFen(value);
    case "boolean":
      // An unchecked box sends nothing.
      return value === "on" || value === "1" || value === "true" || value === true ? 1 : 0;
    case "datetime":
      return dateTimeToMillis(value);
    default:
      return value;
  }
}

/** A submitted form (all strings) as the API body: the one schema then validates in the browser and on the server. */
export function formToPayload(def: ResourceDef, raw: Raw): Raw {
  const payload: Raw = {};
  // An emptied input is absent from the submission; it means "no value", not "unchanged".
  for (const field of formFields(def)) payload[field.name] = fieldFromForm(field, raw[field.name] ?? null);
  if (raw.id !== undefined) payload.id = raw.id;
  if (raw.updatedAt !== undefined) payload.updatedAt = raw.updatedAt;
  return payload;
}

export function formSchema(def: ResourceDef, mode: "create" | "edit") {
  const schema = mode === "create" ? createSchema(def) : updateSchema(def);
  return z.preprocess((raw) => formToPayload(def, (raw ?? {}) as Raw), schema);
}

/** A record's values as the form shows them (yuan, formatted times, strings). */
export function recordToForm(def: ResourceDef, record: Raw | null): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const field of formFields(def)) {
    const value = record ? record[field.name] : field.defaultValue;
    if (field.type === "money") values[field.name] = fenToYuan(value);
    else if (field.type === "boolean") values[field.name] = value === 1 || value === true || value === "1";
    // As a datetime-local input holds it: the China wall clock with a T.
    else if (field.type === "datetime" && typeof value === "number") values[field.name] = chinaWallClock(value);
    else values[field.name] = value === null || value === undefined ? "" : String(value);
  }
  return values;
}
