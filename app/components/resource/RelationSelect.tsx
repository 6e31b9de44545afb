import { Select } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { findResource } from "../../../resources/index";

interface Option {
  value: string;
  label: string;
}

/** A relation picker that searches the server as the user types (its first options come with the page). */
export function RelationSelect({
  name,
  label,
  relation,
  defaultValue,
  initialOptions,
  required,
  error,
  where,
}: {
  name: string;
  label: string;
  relation: string;
  defaultValue: string;
  initialOptions: Option[];
  required?: boolean;
  error?: string;
  /** The kind the server accepts (an org of type restaurant): searches ask only for it when it is one value. */
  where?: { field: string; values: readonly string[] };
}) {
  const [options, setOptions] = useState(initialOptions);
  const [search, setSearch] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const target = findResource(relation);

  useEffect(() => {
    if (!target || !search.trim()) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const filter = target.fields.find((f) => f.name === target.labelField)?.filter === "like" ? `&${target.labelField}=${encodeURIComponent(search.trim())}` : "";
      const only = where?.values.length === 1 ? `&${where.field}=${encodeURIComponent(where.values[0])}` : "";
      const response = await fetch(`/api/v1/${target.module}/${target.entity}/findPage?pageSize=50${filter}${only}`);
      const envelope = (await response.json()) as { status: number; data: { records: Array<Record<string, unknown>> } };
      if (envelope.status !== 200) return;
      const found = envelope.data.records.map((r) => ({ value: String(r.id), label: String(r[target.labelField]) }));
      setOptions((current) => [...current, ...found].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i));
    }, 300);
    return () => clearTimeout(timer.current);
  }, [search, target, where]);

  return (
    <Select
      name={name}
      label={label}
      data={options}
      defaultValue={defaultValue || null}
      searchable
      clearable={!required}
      withAsterisk={required}
      nothingFoundMessage="没有匹配的选项"
      placeholder="请选择或输入搜索"
      onSearchChange={setSearch}
      error={error}
    />
  );
}
