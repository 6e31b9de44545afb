import { Input } from "@mantine/core";
import { Suspense, useEffect, useState, type ReactNode, type Ref } from "react";
import { useDateCalendar } from "~/components/dates/DateField";
import { IconRefresh, IconSearch } from "~/components/icons";
import { Form } from "react-router";
import { filterFields, type ResourceDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import classes from "./FilterBar.module.css";
import type { RelationFilterData } from "./relation-search";
import { PlainButton } from "~/components/PlainButton";
import { lazyPart } from "~/lib/lazy-part";

/**
 * A GET form: filtering works before JavaScript loads, and the filtered list is a URL to bookmark.
 * Filtering starts again at page 1; page size and sort carry over.
 */
export function FilterBar({
  def,
  params,
  dicts,
  relations,
  resetTo,
}: {
  def: ResourceDef;
  params: Record<string, string>;
  dicts: Record<string, DictOption[]>;
  relations: Record<string, RelationFilterData>;
  resetTo: string;
}) {
  const fields = filterFields(def);
  if (!fields.length) return null;
  return (
    <FilterForm label={`${def.title}查询`} params={params} resetTo={resetTo}>
      {params.pageSize && <input type="hidden" name="pageSize" value={params.pageSize} />}
      {params.sort && <input type="hidden" name="sort" value={params.sort} />}
      {fields.map((field) => {
        if (field.filter === "range") {
          const type = field.type === "number" || field.type === "money" || field.type === "quantity" ? "number" : "date";
          return (
            <div key={field.name} className={classes.range}>
              <FilterInput type={type} label={`${field.label}起`} name={`${field.name}Begin`} value={params[`${field.name}Begin`]} width={150} />
              <FilterInput type={type} label={`${field.label}止`} name={`${field.name}End`} value={params[`${field.name}End`]} width={150} />
            </div>
          );
        }
        const relation = relations[field.name];
        if (relation) return <RelationFilter key={field.name} name={field.name} label={field.label} relation={relation} />;
        const choices = field.type === "enum" ? dicts[field.dict ?? ""] : undefined;
        if (choices) return <FilterSelect key={field.name} label={field.label} name={field.name} value={params[field.name]} options={choices} width={160} />;
        return <FilterInput key={field.name} label={field.label} name={field.name} value={params[field.name]} placeholder={`请输入${field.label}`} width={180} />;
      })}
    </FilterForm>
  );
}

/** The bar's frame: its fields (and the hidden values they carry over), then 查询 and 重置 (to `resetTo`). */
export function FilterForm({ label, params, resetTo, children }: { label: string; params: Record<string, string>; resetTo: string; children: ReactNode }) {
  return (
    <div className={classes.bar}>
      <Form method="get" role="search" aria-label={label} key={JSON.stringify(params)}>
        <div className={classes.fields}>
          {children}
          <div className={classes.buttons}>
            <PlainButton type="submit" leftSection={<IconSearch size={16} />}>
              查询
            </PlainButton>
            <PlainButton to={resetTo} variant="default" leftSection={<IconRefresh size={16} />}>
              重置
            </PlainButton>
          </div>
        </div>
      </Form>
    </div>
  );
}

// The searchable picker (Mantine's Combobox, about 10 KB gzip) loads after the page is interactive; until then the
// filter is a native select holding the chosen row, so the form works the same before JavaScript.
const RelationFilterSelect = lazyPart(() => import("./RelationFilterSelect"));

/** A relation filter: the chosen row is the form's value; choosing another searches the server. */
function RelationFilter({ name, label, relation }: { name: string; label: string; relation: RelationFilterData }) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => {
    RelationFilterSelect.start();
    setEnhanced(true);
  }, []);
  const plain = <FilterSelect label={label} name={name} value={relation.selected?.value} options={relation.selected ? [relation.selected] : []} width={180} />;
  if (!enhanced) return plain;
  return (
    <Suspense fallback={plain}>
      <RelationFilterSelect name={name} label={label} relation={relation} />
    </Suspense>
  );
}

/**
 * A filter's label and input as plain elements with Mantine's input classes (size sm): a list page renders several,
 * and each Mantine `TextInput` is four components with their own inline variables (issue 17).
 */
export function FilterInput(props: { label: string; name: string; value?: string; type?: string; placeholder?: string; width: number }) {
  return props.type === "date" ? <FilterDate {...props} /> : <PlainFilterInput {...props} />;
}

/** A day of a range filter: the plain input, then the Chinese calendar over it (decision 065). */
function FilterDate(props: { label: string; name: string; value?: string; width: number }) {
  const { ref, hidden, calendar } = useDateCalendar({ label: props.label, w: props.width, size: "sm" });
  return (
    <>
      {calendar}
      <PlainFilterInput {...props} type="date" inputRef={ref} hidden={hidden} />
    </>
  );
}

function PlainFilterInput({ label, name, value, type = "text", placeholder, width, inputRef, hidden }: { label: string; name: string; value?: string; type?: string; placeholder?: string; width: number; inputRef?: Ref<HTMLInputElement>; hidden?: boolean }) {
  return (
    <div className={classes.field} style={{ width, display: hidden ? "none" : undefined }}>
      <label className={Input.classes.label} htmlFor={`filter-${name}`}>
        {label}
      </label>
      <div className={Input.classes.wrapper} data-variant="default">
        <input ref={inputRef} className={Input.classes.input} data-variant="default" type={type} id={`filter-${name}`} name={name} defaultValue={value ?? ""} placeholder={placeholder} />
      </div>
    </div>
  );
}

/** A native select filter (first choice 全部), drawn as FilterInput is. */
function FilterSelect({ label, name, value, options, width }: { label: string; name: string; value?: string; options: { value: string; label: string }[]; width: number }) {
  return (
    <div className={classes.field} style={{ width }}>
      <label className={Input.classes.label} htmlFor={`filter-${name}`}>
        {label}
      </label>
      <div className={Input.classes.wrapper} data-variant="default" data-pointer>
        <select className={`${Input.classes.input} ${classes.select}`} data-variant="default" id={`filter-${name}`} name={name} defaultValue={value ?? ""}>
          <option value="">全部</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
