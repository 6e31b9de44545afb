import type { Db } from "../../server/db";
import { newId } from "../../server/db";
import { SettleStatus } from "../../server/modules/zhct/formalMonths";

/**
 * Makes `month` formal for the tenant, as 转正式 leaves it (one settle row of the diner's cash account), so the money
 * ledger refuses lines dated into it; the returned function undoes it.
 */
export async function makeMonthFormal(db: Db, tenantId: number, month: string, userInfoId: number): Promise<() => Promise<void>> {
  const id = newId();
  const now = Date.now();
  const zero = { opening: 0, top_up: 0, refund: 0, reversal: 0, subsidy_grant: 0, subsidy_clear: 0, consume: 0, closing: 0 };
  await db
    .insertInto("user_account_month_settle")
    .values({ tenant_id: tenantId, id, month, user_info_id: userInfoId, account_type: "cash", ...zero, settle_status: SettleStatus.FORMAL, generated_at: now, created_at: now, created_by: null, updated_at: now, updated_by: null })
    .execute();
  return async () => {
    await db.deleteFrom("user_account_month_settle").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  };
}
