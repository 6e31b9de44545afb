import type { Db } from "../../db";

/** Tenant parameter (参数设置): the title a receipt or slip prints at its head, e.g. 市一中食堂 (issue 38). */
export const RECEIPT_TITLE_CODE = "zhct.receipt.title";

/**
 * What a printed receipt or document names at its head (a top-up receipt, the cashier's slip, a stock document on
 * paper): the canteen — the tenant's receipt title, else the tenant's name — never the product's.
 */
export async function receiptTitle(db: Db, tenantId: number): Promise<string> {
  const [setting, tenant] = await Promise.all([
    db.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", RECEIPT_TITLE_CODE).executeTakeFirst(),
    db.selectFrom("tenant").select("tenant_name").where("id", "=", tenantId).executeTakeFirst(),
  ]);
  return setting?.param_value?.trim() || tenant?.tenant_name || "";
}
