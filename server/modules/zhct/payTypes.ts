import { builtInDicts } from "../../../resources/dicts";
import { resourceKey } from "../../../resources/define";
import { payType } from "../../../resources/zhct/points";
import type { Db } from "../../db";
import { runPrepared } from "../../db/prepared";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import type { Trx } from "./ledger";
import type { PaymentHooks } from "./payments";

/**
 * Which payment methods (`userAccountFlag`) a tenant's cashiers and devices accept (decision 025). A method is
 * decided by the restaurant's row, else the tenant-wide row, else it is accepted: a tenant that has configured
 * nothing keeps every method, as before this screen existed.
 */

export const payTypeMessages = {
  disabled: "该支付方式未启用",
  tenantWideTaken: "全部餐厅已配置此支付方式",
};

export interface PayTypeOption {
  /** The `userAccountFlag` value. */
  payFlag: number;
  /** The configured display name, else the dictionary's label. */
  name: string;
  sort: number;
}

/** The dictionary's methods in its order: the server's items in use, or the built-in list while it has none. */
async function methods(db: Db | Trx): Promise<Array<{ value: string; label: string }>> {
  const items = await db.selectFrom("dict_item").select(["item_value", "item_text"]).where("dict_code", "=", "userAccountFlag").where("status", "=", 1).orderBy("sort").orderBy("id").execute();
  if (items.length) return items.map((i) => ({ value: String(i.item_value), label: String(i.item_text) }));
  return builtInDicts.userAccountFlag.options;
}

interface Decided {
  enabled: boolean;
  name: string | null;
  sort: number | null;
}

/** The tenant's rows for these methods: the restaurant's win over the tenant-wide ones. */
async function configured(db: Db | Trx, tenantId: number, restaurantId: number | null, payFlags?: number[]): Promise<Map<number, Decided>> {
  // Compiled once per shape (a restaurant or none, how many methods): every payment asks it.
  const args = [tenantId, ...(restaurantId === null ? [] : [restaurantId]), ...(payFlags ?? [])];
  const rows = await runPrepared(db, `pay types ${restaurantId === null ? "tenant" : "restaurant"} ${payFlags ? payFlags.length : "all"}`, args, ([tenant, ...rest]) => {
    const restaurant = restaurantId === null ? null : (rest[0] as number);
    const flags = rest.slice(restaurantId === null ? 0 : 1) as number[];
    let query = db
      .selectFrom("pay_type")
      .select(["pay_flag", "restaurant_id", "enabled", "display_name", "sort"])
      .where("tenant_id", "=", tenant as number)
      .where((eb) => (restaurant === null ? eb("restaurant_id", "is", null) : eb.or([eb("restaurant_id", "is", null), eb("restaurant_id", "=", restaurant)])));
    if (payFlags) query = query.where("pay_flag", "in", flags);
    return query;
  });
  const decided = new Map<number, Decided>();
  // Tenant-wide rows first, so a restaurant's row of the same method replaces them.
  for (const row of rows.sort((a, b) => (a.restaurant_id === null ? 0 : 1) - (b.restaurant_id === null ? 0 : 1))) {
    decided.set(Number(row.pay_flag), { enabled: Number(row.enabled) === 1, name: row.display_name ?? null, sort: row.sort ?? null });
  }
  return decided;
}

/**
 * The methods a restaurant (or, with null, the tenant as a whole) accepts, in their configured order (then the
 * dictionary's): what a cashier screen or a device offers.
 */
export async function enabledPayTypes(db: Db | Trx, tenantId: number, restaurantId: number | null): Promise<PayTypeOption[]> {
  const [all, decided] = await Promise.all([methods(db), configured(db, tenantId, restaurantId)]);
  return all
    .map((m, index) => {
      const payFlag = Number(m.value);
      const row = decided.get(payFlag);
      return { payFlag, name: row?.name || m.label, sort: row?.sort ?? 0, enabled: row?.enabled ?? true, index };
    })
    .filter((m) => m.enabled)
    .sort((a, b) => a.sort - b.sort || a.index - b.index)
    .map(({ payFlag, name, sort }) => ({ payFlag, name, sort }));
}

/** Whether one method is accepted at a restaurant (null: tenant-wide only); unconfigured methods are. */
export async function isPayTypeEnabled(db: Db | Trx, tenantId: number, restaurantId: number | null, payFlag: number): Promise<boolean> {
  return (await configured(db, tenantId, restaurantId, [payFlag])).get(payFlag)?.enabled ?? true;
}

/** What the payment service tells its `beforePay` hooks that this check needs. */
export interface PayTypeFacts {
  tenantId: number;
  restaurantId?: number | null;
  payFlag: number | string;
}

/**
 * The payment's `beforePay` hook: a disabled method is refused with 409 before anything is written (it throws inside
 * the payment's transaction, which rolls back).
 */
export async function refuseDisabledPayType(trx: Trx, facts: PayTypeFacts): Promise<void> {
  if (!(await isPayTypeEnabled(trx, facts.tenantId, facts.restaurantId ?? null, Number(facts.payFlag)))) {
    throw new ApiError(Status.CONFLICT, payTypeMessages.disabled);
  }
}

// Every payment (cashier, device, app, back office) asks before anything is written.
/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const payTypePaymentHooks: PaymentHooks = { beforePay: (trx, facts) => refuseDisabledPayType(trx, facts) };

/** A tenant-wide row (no restaurant) is single per method; the declared key covers restaurants' rows only. */
async function checkTenantWide(ctx: SessionContext, record: Row, exceptId?: number) {
  if (record.restaurantId !== null && record.restaurantId !== undefined && record.restaurantId !== "") return;
  let query = ctx.services.db.selectFrom("pay_type").select("id").where("tenant_id", "=", ctx.session.tenantId).where("restaurant_id", "is", null).where("pay_flag", "=", Number(record.payFlag));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw fieldError("payFlag", payTypeMessages.tenantWideTaken);
}

export const payTypeService: ResourceService = {
  beforeCreate: (ctx, values) => checkTenantWide(ctx, values),
  beforeUpdate: (ctx, values, current) => checkTenantWide(ctx, nextRecord(payType, values, current), current.id as number),
};

export const payTypeServices: Record<string, ResourceService> = {
  [resourceKey(payType)]: payTypeService,
};
