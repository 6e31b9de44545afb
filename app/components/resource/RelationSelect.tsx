import { NativeSelect, Select } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useRelationSearch, type Option, type RelationSource } from "./relation-search";

/**
 * A relation picker that searches the server as the user types (its first options come with the page). The page's
 * loader says where to search (`relationSource`): a picker does not look declarations up in the browser, so no page
 * loads every screen's declaration (issue 17). Until the page's scripts run it is the browser's own select of those
 * first options, so a form is filled and sent before scripts load (a slow terminal) or without them; what was chosen
 * there is what the searching picker starts from.
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
  const plain = useRef<HTMLSelectElement>(null);
  // The value the searching picker takes over: null while the page is the server's (or scripts have not run).
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => {
    const value = plain.current?.value ?? defaultValue;
    setChosen(value);
    // What was chosen in the browser's select before scripts ran is told as a choice (the editor's line pickers).
    if (value !== defaultValue) onChange?.(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [defaultValue]);

  if (chosen === null) {
    return (
      <NativeSelect
        ref={plain}
        name={name}
        label={label}
        data={[{ value: "", label: "请选择" }, ...initialOptions]}
        defaultValue={defaultValue}
        required={required}
        error={error}
      />
    );
  }
  return <SearchingSelect name={name} label={label} source={source} chosen={chosen} initialOptions={initialOptions} required={required} error={error} onChange={onChange} />;
}

/** The picker once scripts run; its search text starts from the option chosen (there, or in the browser's select). */
function SearchingSelect({
  name,
  label,
  source,
  chosen,
  initialOptions,
  required,
  error,
  onChange,
}: {
  name: string;
  label: string;
  source: RelationSource | null;
  chosen: string;
  initialOptions: Option[];
  required?: boolean;
  error?: string;
  onChange?: (value: string) => void;
}) {
  const { options, searchValue, onSearchChange, onDropdownOpen } = useRelationSearch(source, initialOptions, chosen);
  return (
    <Select
      name={name}
      label={label}
      data={options}
      defaultValue={chosen || null}
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
