import { useCallback, useEffect, useRef, useState } from "react";
import { apiPath, type ResourceDef } from "../../../resources/define";

export interface Option {
  value: string;
  label: string;
  /** What choosing it brings into a document line, shown beside a narrowed picker (`narrowedShows`). */
  shows?: string;
}

/** Where a relation's choices come from: the target's findPage, its label, and the fields a search looks in. */
export interface RelationSource {
  findPage: string;
  labelField: string;
  searchable: boolean;
  /** The filters a typed text is tried against (the label, and its searchable details: a diner's name or code). */
  searchFields?: string[];
  /** The record's keys shown after the label (`labelDetail`; a relation's by its `…Label`). */
  detail?: string[];
  /** A fixed filter every search carries (`&orgType=restaurant`): the one kind the server accepts. */
  only?: string;
}

/** A relation filter as the list's loader sends it: where to search, and the chosen row (with its name) if any. */
export interface RelationFilterData {
  source: RelationSource;
  selected: Option | null;
}

export function relationSource(
  target: Pick<ResourceDef, "module" | "entity" | "labelField" | "labelDetail" | "fields">,
  where?: { field: string; values: readonly string[] },
): RelationSource {
  const fieldOf = (name: string) => target.fields.find((f) => f.name === name);
  const detail = target.labelDetail ?? [];
  const searchFields = [target.labelField, ...detail].filter((name) => fieldOf(name)?.filter === "like");
  return {
    findPage: apiPath(target, "findPage"),
    labelField: target.labelField,
    searchable: searchFields.length > 0,
    searchFields,
    detail: detail.map((name) => (fieldOf(name)?.type === "relation" ? `${name}Label` : name)),
    only: where?.values.length === 1 ? `&${where.field}=${encodeURIComponent(where.values[0])}` : "",
  };
}

/** A record as a picker names it: `张伟（P-0012 · 财务部）`, its label and the details it has. */
export function optionLabel(source: Pick<RelationSource, "labelField" | "detail">, record: Record<string, unknown>): string {
  const detail = (source.detail ?? []).map((key) => record[key]).filter((v) => v !== null && v !== undefined && v !== "");
  const label = String(record[source.labelField] ?? "");
  return detail.length ? `${label}（${detail.map(String).join(" · ")}）` : label;
}

/**
 * A relation's choices searched on the server as the user types, and a first page when the list first opens, so
 * the page itself carries none and any row can be chosen however many there are (form pickers and list filters).
 *
 * The picker's search text is held here (`searchValue`), not left to Mantine's Select: an uncontrolled Select sets
 * its text back to the chosen label whenever its options change, so the first page arriving after the user began to
 * type wiped what they typed (and the search it was about to send). `selected`: the value chosen when the page opens,
 * whose label the text starts as.
 */
export function useRelationSearch(source: RelationSource | null, initialOptions: Option[], selected?: string | null) {
  const [options, setOptions] = useState(initialOptions);
  const [search, setSearch] = useState(() => initialOptions.find((o) => o.value === selected)?.label ?? "");
  const known = useRef(options);
  known.current = options;
  const opened = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const fetchOptions = useCallback(
    async (text: string) => {
      if (!source) return;
      // A text is looked for in each searchable field (a diner's name or code), one request each, answers merged.
      const filters = text && source.searchable ? (source.searchFields ?? [source.labelField]).map((field) => `&${field}=${encodeURIComponent(text)}`) : [""];
      const pages = await Promise.all(
        filters.map(async (filter) => {
          const response = await fetch(`${source.findPage}?pageSize=50${filter}${source.only ?? ""}`);
          const envelope = (await response.json()) as { status: number; data: { records: Array<Record<string, unknown>> } };
          return envelope.status === 200 ? envelope.data.records : [];
        }),
      );
      const found = pages.flat().map((r) => ({ value: String(r.id), label: optionLabel(source, r), ...(typeof r.shows === "string" ? { shows: r.shows } : {}) }));
      setOptions((current) => [...current, ...found].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i));
    },
    [source],
  );

  useEffect(() => {
    const text = search.trim();
    // The text is also set to a chosen option's label (on choosing, on leaving the field): nothing to look for then.
    if (!source || !text || known.current.some((o) => o.label === text)) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void fetchOptions(text), 300);
    return () => clearTimeout(timer.current);
  }, [search, source, fetchOptions]);

  // A narrowed picker's source changes with the header's choice: what it found under the old one is no choice now.
  const sourceKey = source ? `${source.findPage}?${source.only ?? ""}` : "";
  const lastKey = useRef(sourceKey);
  useEffect(() => {
    if (lastKey.current === sourceKey) return;
    lastKey.current = sourceKey;
    opened.current = false;
    setOptions([]);
  }, [sourceKey]);

  const onDropdownOpen = useCallback(() => {
    if (opened.current) return;
    opened.current = true;
    void fetchOptions("");
  }, [fetchOptions]);

  return { options, searchValue: search, onSearchChange: setSearch, onDropdownOpen };
}
