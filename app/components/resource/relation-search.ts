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
 */
export function useRelationSearch(source: RelationSource | null, initialOptions: Option[]) {
  const [options, setOptions] = useState(initialOptions);
  const [search, setSearch] = useState("");
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
    if (!source || !search.trim()) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void fetchOptions(search.trim()), 300);
    return () => clearTimeout(timer.current);
  }, [search, source, fetchOptions]);

  const onDropdownOpen = useCallback(() => {
    if (opened.current) return;
    opened.current = true;
    void fetchOptions("");
  }, [fetchOptions]);

  return { options, onSearchChange: setSearch, onDropdownOpen };
}
