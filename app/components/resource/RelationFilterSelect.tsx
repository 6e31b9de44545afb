import { Select } from "@mantine/core";
import { useRelationSearch, type RelationFilterData } from "./relation-search";

/** The relation filter once its code has loaded: a searchable picker whose value is the GET form's field. */
export default function RelationFilterSelect({ name, label, relation }: { name: string; label: string; relation: RelationFilterData }) {
  const { options, searchValue, onSearchChange, onDropdownOpen } = useRelationSearch(relation.source, relation.selected ? [relation.selected] : [], relation.selected?.value);
  return (
    <Select
      size="sm"
      label={label}
      name={name}
      data={options}
      defaultValue={relation.selected?.value ?? null}
      searchable
      clearable
      placeholder="全部"
      nothingFoundMessage="没有匹配的选项"
      searchValue={searchValue}
      onSearchChange={onSearchChange}
      onDropdownOpen={onDropdownOpen}
      w={180}
    />
  );
}
