import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Checkbox, NativeSelect, SimpleGrid, Textarea, TextInput } from "@mantine/core";
import type { FieldDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import { acceptedUploads } from "../../../resources/uploads";
import { DateField } from "../dates/DateField";
import { ImageUpload } from "./ImageUpload";
import { RelationSelect } from "./RelationSelect";
import type { RelationSource } from "./relation-search";

type Meta = FieldMetadata<unknown>;

function FieldInput({
  field,
  meta,
  dicts,
  options,
  sources,
  onRelationChange,
}: {
  field: FieldDef;
  meta: Meta;
  dicts: Record<string, DictOption[]>;
  options: Record<string, DictOption[]>;
  sources?: Record<string, RelationSource>;
  onRelationChange?: (name: string, value: string) => void;
}) {
  const error = meta.errors?.[0];
  const initial = (meta.initialValue as string | undefined) ?? "";
  const common = { label: field.label, withAsterisk: field.required, error, description: field.description };
  switch (field.type) {
    case "longText":
      // `rows` gives the server's HTML the height autosize sets once hydrated: without it the form below jumped
      // 23 px at hydration, and a click on 保存 in that moment landed beside the button.
      return <Textarea {...getInputProps(meta, { type: "text" })} {...common} autosize minRows={3} maxRows={8} rows={3} />;
    case "number":
      return <TextInput {...getInputProps(meta, { type: "number" })} {...common} />;
    case "quantity":
      return <TextInput {...getInputProps(meta, { type: "text" })} {...common} inputMode="decimal" placeholder="0.000" />;
    case "money":
      return <TextInput {...getInputProps(meta, { type: "text" })} {...common} inputMode="decimal" rightSection="元" placeholder="0.00" />;
    case "enum":
      return (
        <NativeSelect
          {...getInputProps(meta, { type: "text" })}
         
          {...common}
          data={[{ value: "", label: "请选择" }, ...(dicts[field.dict ?? ""] ?? [])]}
        />
      );
    case "boolean":
      return (
        <Checkbox
          name={meta.name}
         
          label={field.label}
          defaultChecked={meta.initialValue === true || meta.initialValue === "on" || meta.initialValue === "1"}
          error={error}
          mt="lg"
        />
      );
    case "date": {
      // The browser's own date field: it submits YYYY-MM-DD as typed or picked, also before the page's scripts arrive
      // (a slow terminal), as the report filters and the time fields do; then a Chinese calendar over it (decision 065).
      return <DateField {...getInputProps(meta, { type: "date" })} name={meta.name} {...common} />;
    }
    case "datetime":
      // The browser's own field (China wall clock, seconds shown): it posts before the scripts arrive, like dates.
      return <TextInput {...getInputProps(meta, { type: "datetime-local" })} {...common} step={1} />;
    case "time":
      return <TextInput {...getInputProps(meta, { type: "time" })} {...common} />;
    case "image":
    case "file":
      return <ImageUpload name={meta.name} label={field.label} defaultValue={initial} error={error} kinds={acceptedUploads(field)} />;
    case "relation":
    case "treeParent":
      return (
        <RelationSelect
          name={meta.name}
          label={field.label}
          source={sources?.[field.name] ?? null}
          defaultValue={initial}
          initialOptions={options[field.name] ?? []}
          required={field.required}
          error={error}
          onChange={onRelationChange ? (value) => onRelationChange(field.name, value) : undefined}
        />
      );
    default:
      return <TextInput {...getInputProps(meta, { type: "text" })} {...common} placeholder={field.placeholder} />;
  }
}

/** The declared fields of a form, two to a row on wide screens; long text and pictures take a row. */
export function ResourceFields({
  fields,
  metas,
  dicts,
  options,
  sources,
  onRelationChange,
}: {
  fields: FieldDef[];
  metas: Record<string, Meta>;
  dicts: Record<string, DictOption[]>;
  options: Record<string, DictOption[]>;
  /** Where each relation picker searches (the loader's `relationSource`s). */
  sources?: Record<string, RelationSource>;
  /** Told when a relation picker's choice changes (a document's header narrowing its line pickers). */
  onRelationChange?: (name: string, value: string) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {fields.map((field) => (
        <div key={field.name} style={field.type === "longText" || field.type === "image" || field.type === "file" ? { gridColumn: "1 / -1" } : undefined}>
          <FieldInput field={field} meta={metas[field.name]} dicts={dicts} options={options} sources={sources} onRelationChange={onRelationChange} />
        </div>
      ))}
    </SimpleGrid>
  );
}
