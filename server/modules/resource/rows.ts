import { columnOf, SECRET_MASK, type FieldDef, type ResourceDef } from "../../../resources/define";
import { quantityToThousandths, thousandthsToQuantity } from "../../../resources/quantity";

export type Row = Record<string, unknown>;

/** Database row → API record: declared fields by their camelCase names, plus id and times. */
export function toRecord(def: ResourceDef, row: Row): Row {
  const record: Row = { id: row.id };
  if (def.scope === "tenant") record.tenantId = row.tenant_id;
  for (const field of def.fields) {
    const value = row[columnOf(field)];
    if (field.secret) {
      record[field.name] = value ? SECRET_MASK : null;
      continue;
    }
    record[field.name] = recordValue(field, value);
  }
  record.createdAt = row.created_at;
  record.updatedAt = row.updated_at;
  return record;
}

/** API values → columns, only the keys present (an update leaves absent fields alone). */
export function toColumns(def: ResourceDef, values: Row): Row {
  const columns: Row = {};
  for (const field of def.fields) {
    const value = values[field.name];
    if (field.secret && (value === "" || value === null || value === SECRET_MASK)) continue;
    if (value !== undefined) columns[columnOf(field)] = columnValue(field, value);
  }
  return columns;
}

/** A stored value as the API answers it: dictionaries' values as strings, quantities as decimals (decision 067). */
export function recordValue(field: FieldDef, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  if (field.type === "enum") return String(stored);
  if (field.type === "quantity") return thousandthsToQuantity(Number(stored));
  return stored;
}

/** A value the schema accepted as its column holds it: quantities in thousandths. */
export function columnValue(field: FieldDef, value: unknown): unknown {
  return field.type === "quantity" && typeof value === "number" ? quantityToThousandths(value) : value;
}
