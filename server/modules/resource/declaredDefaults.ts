import type { ResourceDef } from "../../../resources/define";
import type { ResourceService } from "./engine";

/**
 * A field with a declared default that an API client leaves out takes that default (a status 有效): terminals create
 * a warehouse, a goods or a supplier with its name alone. A form always sends every field, so this is the API's case.
 */
export function declaredDefaults(def: ResourceDef): ResourceService {
  const defaults = def.fields.filter((f) => f.defaultValue !== undefined && !f.required);
  return {
    beforeCreate(_ctx, values) {
      for (const field of defaults) if (values[field.name] === undefined) values[field.name] = String(field.defaultValue);
    },
  };
}
