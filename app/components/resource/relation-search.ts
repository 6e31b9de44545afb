import { useCallback, useEffect, useRef, useState } from "react";
import { apiPath, type ResourceDef } from "../../../resources/define";

export interface Option {
  value: string;
  label: string;
}

/** Where a relation's choices come from: the target's findPage, its label, and whether the label can be searched. */
export interface RelationSource {
  findPage: string;
  labelField: string;
  searchable: boolean;
  /** A fixed filter every search carries (`&orgType=restaurant`): the one kind the server accepts. */
  only?: string;
}

/** A relation filter as the list's loader sends it: where to search, and the chosen row (with its name) if any. */
export interface RelationFilterData {
  source: RelationSource;
  selected: Option | null;
}

export function relationSource(
  target: Pick<ResourceDef, "module" | "entity" | "labelField" | "fields">,
  where?: { field: string; values: readonly string[] },
): RelationSource {
  return {
    findPage: apiPath(target, "findPage"),
    labelField: target.labelField,
    searchable: target.fields.find((f) => f.name === target.labelField)?.filter === "like",
    only: where?.values.length === 1 ? `&${where.field}=${encodeURIComponent(where.values[0])}` : "",
  };
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
      const filter = text && source.searchable ? `&${source.labelField}=${encodeURIComponent(text)}` : "";
      const response = await fetch(`${source.findPage}?pageSize=50${filter}${source.only ?? ""}`);
      const envelope = (await response.json()) as { status: number; data: { records: Array<Record<string, unknown>> } };
      if (envelope.status !== 200) return;
      const found = envelope.data.records.map((r) => ({ value: String(r.id), label: String(r[source.labelField]) }));
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

  const onDropdownOpen = useCallback(() => {
    if (opened.current) return;
    opened.current = true;
    void fetchOptions("");
  }, [fetchOptions]);

  return { options, searchValue: search, onSearchChange: setSearch, onDropdownOpen };
}
