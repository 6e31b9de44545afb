import type { FieldDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import type { Option, RelationSource } from "~/components/resource/relation-search";

/** What the lines editor draws, with scripts (the grid) or without (the plain table). */
export interface LinesProps {
  title: string;
  fields: FieldDef[];
  /** Form values of each row (strings; money in yuan), an existing line's with its `id`. */
  rows: Array<Record<string, string>>;
  /** Messages by input name (`lines[3].amount`), the browser's or the server's. */
  errors: Record<string, string[] | undefined>;
  dicts: Record<string, DictOption[]>;
  options: Record<string, Option[]>;
  sources: Record<string, RelationSource>;
  /** The header's values that narrow line pickers (`narrowedBy`, decision 071), as the user has chosen them so far. */
  header?: Record<string, string>;
}

/** The key in a grid row's values of what a narrowed picker's choice shows (`narrowedShows`); never posted. */
export const showsKey = (field: string) => `${field}:shows`;

/** What the line's narrowed picker has chosen brings into it, as its options say (`shows`), or a dash. */
export function shownText(options: Option[], value: string | undefined): string {
  return (value && options.find((o) => o.value === value)?.shows) || "—";
}

/** A typed money or quantity as a number of its smallest unit (fen, thousandths), or null while it reads as none. */
export function typedUnits(field: FieldDef, text: string): number | null {
  const places = field.type === "money" ? 2 : 3;
  const m = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/.exec(text ?? "");
  if (!m || (m[3] ?? "").length > places) return null;
  const units = Number(m[2]) * 10 ** places + Number((m[3] ?? "").padEnd(places, "0"));
  return m[1] ? -units : units;
}

/** A sum in fen or thousandths as the column shows it. */
export function unitsText(field: FieldDef, units: number): string {
  const places = field.type === "money" ? 2 : 3;
  return (units / 10 ** places).toLocaleString("zh-CN", { minimumFractionDigits: places === 2 ? 2 : 0, maximumFractionDigits: places });
}
