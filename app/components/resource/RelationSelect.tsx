import { Select } from "@mantine/core";
import { useMemo } from "react";
import { findResource } from "../../../resources/index";
import { relationSource, useRelationSearch, type Option } from "./relation-search";

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
  const target = findResource(relation);
  const source = useMemo(() => (target ? relationSource(target, where) : null), [target, where]);
  const { options, onSearchChange, onDropdownOpen } = useRelationSearch(source, initialOptions);

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
      onSearchChange={onSearchChange}
      onDropdownOpen={onDropdownOpen}
      error={error}
    />
  );
}
