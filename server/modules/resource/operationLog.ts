import type { Kysely } from "kysely";
import { resourceKey, SECRET_MASK, type ResourceDef } from "../../../resources/define";
import { newId } from "../../db";
import { insertRow } from "../../db/prepared";
import type { SessionContext } from "../../http/endpoint";

const secretNames = (def: ResourceDef) => new Set(def.fields.filter((f) => f.secret).map((f) => f.name));

/** The operation_log row of one create, update or delete (an import writes many in one statement). */
export function operationRow(ctx: SessionContext, def: ResourceDef, entityId: number | null, action: string, changes: unknown) {
  return {
    tenant_id: ctx.session.tenantId,
    id: newId(),
    user_id: ctx.session.userId,
    user_name: ctx.session.userName,
    module: def.module,
    entity: resourceKey(def),
    entity_id: entityId,
    action,
    changes: JSON.stringify(changes, (key, value) => (/password/i.test(key) || secretNames(def).has(key) ? SECRET_MASK : value)),
    ip: ctx.ip,
    created_at: ctx.now,
  };
}

/** Every create, update and delete leaves who, what, when and the changed fields. */
export async function recordOperation(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Kysely<any>,
  ctx: SessionContext,
  def: ResourceDef,
  entityId: number | null,
  action: "create" | "update" | "delete" | string,
  changes: unknown,
) {
  await insertRow(trx, "operation_log", operationRow(ctx, def, entityId, action, changes));
}
