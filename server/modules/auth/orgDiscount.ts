import { orgDiscount as def } from "../../../resources/auth/orgDiscount";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { db, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";

export const orgDiscountMessages = {
  notDepartment: "部门折扣只能设置在类型为“部门”的机构上",
  dateOrder: "失效日期不能早于生效日期",
  overlap: "该部门在这段日期内已有生效的同餐别折扣",
};

/** The values after the change: what the request sends over what the row holds. */
function merged(values: Row, current?: Row): Row {
  const pick = (name: string, column: string) => (values[name] !== undefined ? values[name] : current?.[column]);
  return {
    orgId: pick("orgId", "org_id"),
    mealType: pick("mealType", "meal_type"),
    validFrom: pick("validFrom", "valid_from"),
    validTo: pick("validTo", "valid_to"),
    status: String(pick("status", "status")),
  };
}

async function check(ctx: SessionContext, values: Row, current?: Row) {
  const next = merged(values, current);
  if (values.orgId !== undefined) {
    const org = await db(ctx)
      .selectFrom("org")
      .select("org_type")
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("id", "=", next.orgId)
      .executeTakeFirst();
    if (org?.org_type !== "department") throw fieldError("orgId", orgDiscountMessages.notDepartment);
  }
  if (String(next.validTo) < String(next.validFrom)) throw fieldError("validTo", orgDiscountMessages.dateOrder);
  if (next.status !== "1") return;
  // One valid discount per department, meal and day; "all" covers every meal.
  let query = db(ctx)
    .selectFrom(def.table)
    .select("id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("org_id", "=", next.orgId)
    .where("status", "=", 1)
    .where("valid_from", "<=", next.validTo)
    .where("valid_to", ">=", next.validFrom);
  if (next.mealType !== "all") query = query.where("meal_type", "in", [next.mealType, "all"]);
  if (current) query = query.where("id", "!=", current.id);
  if (await query.executeTakeFirst()) throw new ApiError(Status.CONFLICT, orgDiscountMessages.overlap);
}

export const orgDiscountService: ResourceService = {
  beforeCreate: (ctx, values) => check(ctx, values),
  beforeUpdate: (ctx, values, current) => check(ctx, values, current),
};
