import { Select } from "@mantine/core";
import { useRelationSearch, type Option, type RelationSource } from "./relation-search";

/**
 * A relation picker that searches the server as the user types (its first options come with the page). The page's
 * loader says where to search (`relationSource`): a picker does not look declarations up in the browser, so no page
 * loads every screen's declaration (issue 17).
 */
export function RelationSelect({
  name,
  label,
  source,
  defaultValue,
  initialOptions,
  required,
  error,
  onChange,
}: {
  name: string;
  label: string;
  source: RelationSource | null;
  defaultValue: string;
  initialOptions: Option[];
  required?: boolean;
  error?: string;
  /** Told of each choice (the document editor narrows line pickers by it); the field stays the form's. */
  onChange?: (value: string) => void;
}) {
  const { options, searchValue, onSearchChange, onDropdownOpen } = useRelationSearch(source, initialOptions, defaultValue);

  return (
    <Select
      name={name}
      label={label}
      data={options}
      defaultValue={defaultValue || null}
      onChange={onChange ? (next) => onChange(next ?? "") : undefined}
      searchable
      clearable={!required}
      withAsterisk={required}
      nothingFoundMessage="没有匹配的选项"
      placeholder="请选择或输入搜索"
      searchValue={searchValue}
      onSearchChange={onSearchChange}
      onDropdownOpen={onDropdownOpen}
      error={error}
    />
  );
}
