import { Checkbox, NativeSelect, Select, TextInput } from "@mantine/core";
import { useMemo } from "react";
import type { FieldDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import { useRelationSearch, type Option, type RelationSource } from "~/components/resource/relation-search";

export interface CellProps {
  field: FieldDef;
  /** `lines[i].<field>`: the form posts it, with scripts or without. */
  name: string;
  /** The row's number as the user reads it, for the cell's accessible name (第 2 行 数量). */
  row: number;
  value: string;
  /** Controlled in the grid (rows move when one is removed); absent in the plain table, whose inputs keep their own. */
  onChange?: (value: string) => void;
  error?: string;
  dicts: Record<string, DictOption[]>;
  options: Option[];
  source: RelationSource | null;
  /** The header's value that narrows this relation's choices (`narrowedBy`): none chosen, none offered. */
  narrowedTo?: string;
  /** A narrowed picker's choice made: what the chosen option brings into the line (`shows`), for the column beside it. */
  onShows?: (shows: string) => void;
}

/**
 * One cell of a line: the field's input without its label (the column says it), named for the form. Money is typed
 * in yuan, as every form here takes it; the page's action sends fen.
 */
export function LineCell({ field, name, row, value, onChange, error, dicts, options, source, narrowedTo, onShows }: CellProps) {
  const label = `第 ${row} 行 ${field.label}`;
  const bind = onChange ? { value, onChange: (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value) } : { defaultValue: value };
  const common = { "aria-label": label, error, size: "xs" as const, "data-line-cell": "", "data-field": field.name };
  switch (field.type) {
    case "relation":
    case "treeParent":
      // The plain table is what a browser without scripts gets: the browser's own list of the first options.
      if (!onChange) return <NativeSelect name={name} defaultValue={value} {...common} data={[{ value: "", label: "请选择" }, ...options]} />;
      return (
        <RelationCell
          name={name}
          label={label}
          value={value}
          onChange={onChange}
          error={error}
          options={options}
          source={source}
          required={field.required}
          field={field.name}
          narrowedBy={field.narrowedBy}
          narrowedTo={narrowedTo}
          onShows={onShows}
        />
      );
    case "enum":
      return <NativeSelect name={name} {...bind} {...common} data={[{ value: "", label: "请选择" }, ...(dicts[field.dict ?? ""] ?? [])]} />;
    case "boolean":
      return (
        <Checkbox
          name={name}
          aria-label={label}
          data-line-cell=""
          {...(onChange ? { checked: value === "true" || value === "on", onChange: (e) => onChange(e.currentTarget.checked ? "on" : "") } : { defaultChecked: value === "true" || value === "on" })}
        />
      );
    case "date":
      return <TextInput name={name} type="date" {...bind} {...common} />;
    case "money":
      return <TextInput name={name} inputMode="decimal" placeholder="0.00" {...bind} {...common} styles={{ input: { textAlign: "right" } }} />;
    case "number":
      return <TextInput name={name} inputMode="numeric" {...bind} {...common} styles={{ input: { textAlign: "right" } }} />;
    default:
      if ((field.type as string) === "quantity") return <TextInput name={name} inputMode="decimal" placeholder="0.000" {...bind} {...common} styles={{ input: { textAlign: "right" } }} />;
      return <TextInput name={name} {...bind} {...common} placeholder={field.placeholder} />;
  }
}

/** A relation picker in a cell: it searches the server as the user types, as the form's pickers do. */
function RelationCell({
  name,
  label,
  value,
  onChange,
  error,
  options: initialOptions,
  source,
  required,
  field,
  narrowedBy,
  narrowedTo,
  onShows,
}: {
  name: string;
  label: string;
  value: string;
  onChange?: (value: string) => void;
  error?: string;
  options: Option[];
  source: RelationSource | null;
  required?: boolean;
  field: string;
  narrowedBy?: string;
  narrowedTo?: string;
  onShows?: (shows: string) => void;
}) {
  // A narrowed picker searches only under the header's choice (a return's source lines of the source chosen).
  const searched = useMemo(
    () => (!narrowedBy || !source ? source : narrowedTo ? { ...source, only: `${source.only ?? ""}&${narrowedBy}=${encodeURIComponent(narrowedTo)}` } : null),
    [source, narrowedBy, narrowedTo],
  );
  const { options, searchValue, onSearchChange, onDropdownOpen } = useRelationSearch(searched, initialOptions, value);
  return (
    <Select
      name={name}
      aria-label={label}
      data={options}
      {...(onChange
        ? {
            value: value || null,
            onChange: (next: string | null) => {
              onChange(next ?? "");
              onShows?.(options.find((o) => o.value === next)?.shows ?? "");
            },
          }
        : { defaultValue: value || null })}
      searchable
      clearable={!required}
      nothingFoundMessage="没有匹配的选项"
      placeholder={narrowedBy && !narrowedTo ? "请先在表头选择单据" : "请选择或输入搜索"}
      searchValue={searchValue}
      onSearchChange={onSearchChange}
      onDropdownOpen={onDropdownOpen}
      error={error}
      size="xs"
      comboboxProps={{ withinPortal: true }}
      data-line-cell=""
      data-field={field}
    />
  );
}
