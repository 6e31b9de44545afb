import { columnOf, SECRET_MASK, type ResourceDef } from "../../../resources/define";
import { thousandthsToQuantity } from "../../../resources/quantity";

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
    if (value === null || value === undefined) record[field.name] = null;
    else if (field.type === "enum") record[field.name] = String(value);
    else if (field.type === "quantity") record[field.name] = thousandthsToQuantity(Number(value));
    else record[field.name] = value;
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
    if (value !== undefined) columns[columnOf(field)] = value;
  }
  return columns;
}

/** A deleted row as the operation log keeps it: quantities as stored (thousandths), as a create's and an update's are. */
export function toLoggedRecord(def: ResourceDef, row: Row): Row {
  const record = toRecord(def, row);
  for (const field of def.fields) if (field.type === "quantity") record[field.name] = row[columnOf(field)] ?? null;
  return record;
}
