import type { Kysely } from "kysely";
import { chinaMonth } from "../../../resources/chinaTime";
import { apiPath, permissionCode } from "../../../resources/define";
import { scMerchantFinance } from "../../../resources/sc/finance";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { idempotent } from "../../kernel/idempotency";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { stockMessages } from "../zhhq/stock";
import { FINANCE_CONFIRMED, FINANCE_KEPT, holdPlaces } from "./closedMonths";
import { marginCells, placesOf } from "./reports";

/**
 * 商户结算 (issue 37, decision 084): per place (restaurant or stall) and month, the figures 经营毛利 counts
 * (`marginCells`), kept as 暂存 by 生成 and locked by 确认. 生成 replaces the month's kept rows (a confirmed place's
 * stay), so twice gives the same figures; 确认 counts again under the places' locks (closedMonths.ts) and writes
 * every place asked, with zeros where nothing happened, as 已确认.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const financeMessages = {
  month: "月份格式应为 YYYY-MM",
  futureMonth: (month: string) => `${month} 还没有到，不能结算`,
  noPlace: "餐厅/商户不存在",
};

export interface FinanceRun {
  month: string;
  /** Places written. */
  places: number;
  status: number;
  income: number;
  directCost: number;
  expenses: number;
  margin: number;
}

async function settle(trx: AnyDb, ctx: SessionContext, month: string, placeId: number | undefined, status: number): Promise<FinanceRun> {
  const tenantId = ctx.session.tenantId;
  if (month > chinaMonth(ctx.now)) throw fieldError("month", financeMessages.futureMonth(month));
  const places = await placesOf(trx, tenantId, undefined);
  if (placeId !== undefined && !places.has(placeId)) throw fieldError("restaurantId", financeMessages.noPlace);
  const asked = placeId !== undefined ? [placeId] : [...places.keys()];
  // 确认 waits for writes into these places under way, and holds the next ones until it is done.
  if (status === FINANCE_CONFIRMED) await holdPlaces(trx, tenantId, asked, "update");
  const confirmed = new Set(
    ((await trx
      .selectFrom(scMerchantFinance.table)
      .select("restaurant_id")
      .where("tenant_id", "=", tenantId)
      .where("month", "=", month)
      .where("status", "=", FINANCE_CONFIRMED)
      .execute()) as Row[]).map((r) => Number(r.restaurant_id)),
  );
  const targets = asked.filter((id) => !confirmed.has(id));
  if (!targets.length) throw new ApiError(Status.CONFLICT, stockMessages.monthClosed(month));
  const cells = new Map((await marginCells(trx, tenantId, `${month}-01`, `${month}-31`, targets)).map((c) => [Number(c.placeId), c]));
  await trx.deleteFrom(scMerchantFinance.table).where("tenant_id", "=", tenantId).where("month", "=", month).where("restaurant_id", "in", targets).execute();
  // 暂存 keeps the places that had figures; 已确认 every place asked, so a quiet stall's month is closed too.
  const written = status === FINANCE_CONFIRMED ? targets : targets.filter((id) => cells.has(id));
  const values = written.map((id) => {
    const c = cells.get(id);
    const income = Number(c?.income ?? 0);
    const directCost = Number(c?.directCost ?? 0);
    const expenses = Number(c?.expenses ?? 0);
    return {
      tenant_id: tenantId,
      id: newId(),
      month,
      restaurant_id: id,
      income,
      direct_cost: directCost,
      expenses,
      margin: income - directCost - expenses,
      status,
      generated_at: ctx.now,
      confirmed_at: status === FINANCE_CONFIRMED ? ctx.now : null,
      created_at: ctx.now,
      created_by: ctx.session.userId,
      updated_at: ctx.now,
      updated_by: ctx.session.userId,
    };
  });
  for (let at = 0; at < values.length; at += 500) await trx.insertInto(scMerchantFinance.table).values(values.slice(at, at + 500)).execute();
  const sum = (key: "income" | "direct_cost" | "expenses" | "margin") => values.reduce((s, v) => s + v[key], 0);
  const run: FinanceRun = { month, places: values.length, status, income: sum("income"), directCost: sum("direct_cost"), expenses: sum("expenses"), margin: sum("margin") };
  await recordOperation(trx, ctx, scMerchantFinance, null, status === FINANCE_CONFIRMED ? "confirm" : "generate", { ...run, restaurantId: placeId ?? null });
  return run;
}

const body = z.strictObject({
  month: z.string({ error: financeMessages.month }).regex(MONTH, financeMessages.month),
  restaurantId: recordId("餐厅/商户").optional(),
});

const session = (ctx: unknown) => ctx as SessionContext;

export const financeEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: apiPath(scMerchantFinance, "generate"),
    summary:
      "生成商户结算：{ month: YYYY-MM, restaurantId? } → { month, places, status: 0, income, directCost, expenses, margin }，按经营毛利的口径重算该月每个（或所给的）餐厅/商户，保存为暂存；重复生成结果相同；已确认的餐厅/商户不变（所给的已确认为 409）；支持 Idempotency-Key",
    access: permission(permissionCode(scMerchantFinance, "generate")),
    body,
    handle: (ctx, { body: b }) => idempotent(session(ctx), b, (trx) => settle(trx as unknown as AnyDb, session(ctx), b.month, b.restaurantId, FINANCE_KEPT)),
  }),
  endpoint({
    method: "POST",
    path: apiPath(scMerchantFinance, "confirm"),
    summary:
      "确认商户结算：{ month, restaurantId? } → { month, places, status: 1, … }，重算并确认该月每个（或所给的）餐厅/商户：此后日期在该月的收入、采购、成本费用的新增、修改、删除与按订单生成均为 409「YYYY-MM 已结账」；已确认的为 409；支持 Idempotency-Key",
    access: permission(permissionCode(scMerchantFinance, "confirm")),
    body,
    handle: (ctx, { body: b }) => idempotent(session(ctx), b, (trx) => settle(trx as unknown as AnyDb, session(ctx), b.month, b.restaurantId, FINANCE_CONFIRMED)),
  }),
];

/** For tests and the bench: the same work as the endpoints, without HTTP. */
export const financeWork = { settle };
