import { isCount, type FieldDef } from "../../../resources/define";
import { dictLabel, isInactive, type DictOption } from "../../../resources/dicts";
import classes from "./cells.module.css";
import { findResource } from "../../../resources/index";
import { formatCount, formatFen, formatQuantity, formatTime, valueText } from "~/lib/format";

type Row = Record<string, unknown>;

/** A value a cell shows as a dimmed dash. */
export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === "";
}

/** The class of a list cell that shows no value: the table puts it on the cell itself, a span less per blank. */
export const blankCellClass = classes.dimmed;

/** How a field's value reads in a list cell: plain elements, as every page renders hundreds of them. */
export function FieldValue({ field, record, dicts }: { field: FieldDef; record: Row; dicts: Record<string, DictOption[]> }) {
  const value = record[field.name];
  if (isBlank(value)) return <span className={classes.dimmed}>—</span>;
  if (field.show) {
    const shown = field.show(value, record, valueText(dicts, findResource));
    return field.type === "longText" ? (
      <span className={classes.clamp} title={shown}>
        {shown}
      </span>
    ) : (
      <>{shown}</>
    );
  }
  switch (field.type) {
    case "enum": {
      const label = dictLabel(dicts, field.dict ?? "", value);
      return (
        <span className={classes.badge} data-tone={isInactive(field.dict ?? "", value) ? "gray" : undefined}>
          {label}
        </span>
      );
    }
    case "boolean":
      return <>{value ? "是" : "否"}</>;
    case "money":
      return <>{formatFen(Number(value))}</>;
    case "quantity":
      return <>{formatQuantity(Number(value))}</>;
    case "number":
      return <>{isCount(field) ? formatCount(Number(value)) : String(value)}</>;
    case "datetime":
      return <>{formatTime(value as number)}</>;
    case "relation":
    case "treeParent":
      return <>{String(record[`${field.name}Label`] ?? value)}</>;
    case "image":
      // A licence scan may be a PDF, which no <img> shows: a link that opens it, whichever it is.
      if (field.uploads?.includes("pdf")) {
        return (
          <a href={String(value)} target="_blank" rel="noopener">
            查看
          </a>
        );
      }
      return <img className={classes.thumb} src={String(value)} alt="" loading="lazy" />;
    case "longText":
      return (
        <span className={classes.clamp} title={String(value)}>
          {String(value)}
        </span>
      );
    default:
      return <>{String(value)}</>;
  }
}
