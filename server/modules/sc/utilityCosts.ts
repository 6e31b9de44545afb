import type { Kysely } from "kysely";
import { chinaMonthRange } from "../../../resources/chinaTime";
import { apiPath, permissionCode, resourceKey } from "../../../resources/define";
import { scCostExpense } from "../../../resources/sc/master";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { idempotent } from "../../kernel/idempotency";
import type { ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { closedMonthGuard, refuseClosedMonths } from "./closedMonths";
import { placesOf } from "./reports";

/**
 * 取水电与维修 (issue 37, decision 084): a month's utilities and repairs as 成本费用 rows, from the figures the
 * dormitory and the repairs already keep. 水电 = the month's dormitory bills' water and electricity (a bill names a
 * room, not a restaurant: they go to the place the caller names); 维修 = the parts cost of the repairs finished that
 * month (China time), by the restaurant a repair names, else the named place. Each row says where it came from. The
 * month's rows of these sources are replaced, never added to: taking twice gives the same rows.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** sourceKind (dictionary scCostSource) and category (scExpenseCategory) of the rows. */
export const COST_MANUAL = 1;
const FROM_DORM_BILLS = 2;
const FROM_REPAIRS = 3;
const UTILITIES = 3;
const REPAIRS = 5;
/** 已完成 and 已评价 (dictionary repairStatus): a repair whose parts are counted. */
const FINISHED = [3, 4];
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** At most this many numbers named in a row's 来源说明 (the field holds 500 characters). */
const NAMED = 20;

export const utilityMessages = {
  month: "所属月份格式应为 2026-05",
  noPlace: "默认餐厅/商户不存在",
  generated: "取自宿舍水电账单或报修单的费用不能修改或删除，请重新「取水电与维修」",
};

export interface UtilityRun {
  month: string;
  rows: number;
  removed: number;
  utilities: number;
  repairs: number;
}

const named = (numbers: string[]) => (numbers.length > NAMED ? `${numbers.slice(0, NAMED).join("、")} 等 ${numbers.length} 张` : numbers.join("、"));

async function takeUtilities(trx: AnyDb, ctx: SessionContext, month: string, defaultPlace: number): Promise<UtilityRun> {
  const tenantId = ctx.session.tenantId;
  const places = await placesOf(trx, tenantId, undefined);
  if (!places.has(defaultPlace)) throw fieldError("restaurantId", utilityMessages.noPlace);
  const bills = (await trx
    .selectFrom("water_electric_month")
    .select(["water_amount", "electric_amount"])
    .where("tenant_id", "=", tenantId)
    .where("month", "=", month)
    .execute()) as Row[];
  const { start, end } = chinaMonthRange(month);
  const repairs = (await trx
    .selectFrom("repair")
    .select(["repair_no", "restaurant_id", "parts_cost"])
    .where("tenant_id", "=", tenantId)
    .where("repair_status", "in", FINISHED)
    .where("finished_at", ">=", start)
    .where("finished_at", "<", end)
    .where("parts_cost", ">", 0)
    .orderBy("repair_no")
    .execute()) as Row[];
  const rows: Row[] = [];
  const utilities = bills.reduce((s, b) => s + Number(b.water_amount ?? 0) + Number(b.electric_amount ?? 0), 0);
  if (bills.length && utilities > 0) rows.push({ restaurant_id: defaultPlace, category: UTILITIES, amount: utilities, source_kind: FROM_DORM_BILLS, source: `${month} 宿舍水电账单 ${bills.length} 张（水费与电费）` });
  const byPlace = new Map<number, Row[]>();
  for (const r of repairs) {
    const place = r.restaurant_id !== null && places.has(Number(r.restaurant_id)) ? Number(r.restaurant_id) : defaultPlace;
    byPlace.set(place, [...(byPlace.get(place) ?? []), r]);
  }
  for (const [place, list] of [...byPlace].sort((a, b) => a[0] - b[0])) {
    const amount = list.reduce((s, r) => s + Number(r.parts_cost), 0);
    rows.push({ restaurant_id: place, category: REPAIRS, amount, source_kind: FROM_REPAIRS, source: `报修单配件成本：${named(list.map((r) => String(r.repair_no)))}` });
  }
  const before = (await trx
    .selectFrom(scCostExpense.table)
    .select("restaurant_id")
    .distinct()
    .where("tenant_id", "=", tenantId)
    .where("month", "=", month)
    .where("source_kind", "in", [FROM_DORM_BILLS, FROM_REPAIRS])
    .execute()) as Row[];
  await refuseClosedMonths(trx, tenantId, [...before, ...rows].map((r) => ({ placeId: Number(r.restaurant_id), month })));
  const removed = await trx.deleteFrom(scCostExpense.table).where("tenant_id", "=", tenantId).where("month", "=", month).where("source_kind", "in", [FROM_DORM_BILLS, FROM_REPAIRS]).executeTakeFirst();
  const now = ctx.now;
  const values = rows.map((r) => ({ tenant_id: tenantId, id: newId(), month, payee: null, remark: null, ...r, created_at: now, created_by: ctx.session.userId, updated_at: now, updated_by: ctx.session.userId }));
  if (values.length) await trx.insertInto(scCostExpense.table).values(values).execute();
  const run: UtilityRun = { month, rows: values.length, removed: Number(removed.numDeletedRows), utilities, repairs: repairs.reduce((s, r) => s + Number(r.parts_cost), 0) };
  await recordOperation(trx, ctx, scCostExpense, null, "generate", { ...run, restaurantId: defaultPlace });
  return run;
}

const body = z.strictObject({
  month: z.string({ error: utilityMessages.month }).regex(MONTH, utilityMessages.month),
  restaurantId: recordId("默认餐厅/商户", "请选择默认餐厅/商户"),
});

export const utilityEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: apiPath(scCostExpense, "generate"),
    summary:
      "取水电与维修：{ month: YYYY-MM, restaurantId } → { month, rows, removed, utilities, repairs }，该月宿舍水电账单的水费与电费合计为一行「水电」（记在 restaurantId），该月完成的报修单的配件成本按报修单的餐厅（没有则 restaurantId）各一行「维修」，来源说明列出账单数与报修单号；替换该月此前取来的行，重复执行结果相同；已结账的月份为 409；支持 Idempotency-Key",
    access: permission(permissionCode(scCostExpense, "generate")),
    body,
    handle: (ctx, { body: b }) => idempotent(ctx as SessionContext, b, (trx) => takeUtilities(trx as unknown as AnyDb, ctx as SessionContext, b.month, b.restaurantId)),
  }),
];

/** A row taken from the dormitory or the repairs is their figure: only taking them again changes it. */
const refuseTaken = (current: Row) => {
  if (Number(current.source_kind ?? COST_MANUAL) !== COST_MANUAL) throw new ApiError(Status.CONFLICT, utilityMessages.generated);
};

export const costExpenseServices: Record<string, ResourceService> = {
  [resourceKey(scCostExpense)]: {
    ...closedMonthGuard((row) => String(row.month)),
    beforeCreate(_ctx, values) {
      values.sourceKind = String(COST_MANUAL);
      values.source = null;
    },
    beforeUpdate(_ctx, values, current) {
      refuseTaken(current);
      delete values.sourceKind;
      delete values.source;
    },
    beforeDelete(_ctx, current) {
      refuseTaken(current);
    },
  },
};
