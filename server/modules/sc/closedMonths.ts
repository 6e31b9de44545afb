import type { Kysely } from "kysely";
import { scMerchantFinance } from "../../../resources/sc/finance";
import { ApiError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { isPostgres, stockMessages } from "../zhhq/stock";

/**
 * A confirmed month of 商户结算 (decision 084) is closed for its place: no income, purchase or expense dated into it
 * may be written there (409 `YYYY-MM 已结账`, the stock ledger's words). Every such write checks inside its own
 * write transaction; on PostgreSQL it first holds its place's org row shared and 确认 holds it for update, so a
 * back-dated write under way finishes before 确认 counts (and is counted), and one starting after it sees the month
 * confirmed. On SQLite write transactions run one at a time.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const FINANCE_KEPT = 0;
export const FINANCE_CONFIRMED = 1;

export interface PlaceMonth {
  placeId: number;
  month: string;
}

/** Holds the places' org rows for the rest of the transaction (PostgreSQL), always in id order. */
export async function holdPlaces(trx: AnyDb, tenantId: number, placeIds: number[], mode: "share" | "update"): Promise<void> {
  if (!isPostgres(trx) || !placeIds.length) return;
  const ids = [...new Set(placeIds)].sort((a, b) => a - b);
  const q = trx.selectFrom("org").select("id").where("tenant_id", "=", tenantId).where("id", "in", ids).orderBy("id");
  // NO KEY UPDATE: it waits for the writers' share, but not for the key share a foreign key takes on insert.
  await (mode === "share" ? q.forShare() : q.forNoKeyUpdate()).execute();
}

/** Refuses (409) when any of the place-months is confirmed. */
export async function refuseClosedMonths(trx: AnyDb, tenantId: number, pairs: PlaceMonth[]): Promise<void> {
  const wanted = pairs.filter((p) => Number.isFinite(p.placeId) && /^\d{4}-\d{2}$/.test(p.month));
  if (!wanted.length) return;
  await holdPlaces(trx, tenantId, wanted.map((p) => p.placeId), "share");
  const closed = (await trx
    .selectFrom(scMerchantFinance.table)
    .select(["month", "restaurant_id"])
    .where("tenant_id", "=", tenantId)
    .where("status", "=", FINANCE_CONFIRMED)
    .where("restaurant_id", "in", [...new Set(wanted.map((p) => p.placeId))])
    .where("month", "in", [...new Set(wanted.map((p) => p.month))])
    .execute()) as Row[];
  const hit = closed.find((r) => wanted.some((p) => p.placeId === Number(r.restaurant_id) && p.month === String(r.month)));
  if (hit) throw new ApiError(Status.CONFLICT, stockMessages.monthClosed(String(hit.month)));
}

/**
 * The guard as a resource's hooks, for a table whose rows name their place in `restaurant_id` and their month by
 * `monthOf(row)` (a day's first seven characters, or a month column).
 */
export function closedMonthGuard(monthOf: (row: Row) => string): ResourceService {
  const pair = (row: Row): PlaceMonth => ({ placeId: Number(row.restaurant_id), month: monthOf(row) });
  return {
    async afterCreate(ctx, trx, row) {
      await refuseClosedMonths(trx, ctx.session.tenantId, [pair(row)]);
    },
    async afterUpdate(ctx, trx, row, current) {
      await refuseClosedMonths(trx, ctx.session.tenantId, [pair(current), pair(row)]);
    },
    async onDelete(ctx, trx, current) {
      await refuseClosedMonths(trx, ctx.session.tenantId, [pair(current)]);
    },
  };
}
