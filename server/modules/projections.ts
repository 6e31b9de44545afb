import type { Db } from "../db";
import { recountDinerMonths, recountDinerPlaceMonths } from "./zhct/dinerMonths";
import { recountLedgerDays } from "./zhct/ledgerDays";
import { recountOrderDays } from "./zhct/orderDays";
import { TICKET_PAY_FLAGS } from "./zhct/payments";
import { recountPointsOrderDays } from "./zhct/pointsOrderDays";

/**
 * The kept projections a migration may ask to have counted (server/db/migrations/recounts.ts), each by the name the
 * migration gives, with the code that keeps it today.
 */
const projections: Record<string, (db: Db) => Promise<void>> = {
  pointsOrderDays: (db) => recountPointsOrderDays(db),
  dinerMonths: (db) => recountDinerMonths(db, TICKET_PAY_FLAGS),
  orderDays: (db) => recountOrderDays(db),
  ledgerDays: (db) => recountLedgerDays(db),
  dinerPlaceMonths: (db) => recountDinerPlaceMonths(db),
};

/**
 * Counts the projections the migrations asked for, each in its own transaction with its request's removal, so a
 * crash between two leaves the rest asked for and the next start counts them. Run after migrating, inside the
 * start-up's exclusive section (one instance at a time).
 */
export async function runRequestedRecounts(db: Db): Promise<string[]> {
  const asked = await db.selectFrom("projection_recount").select("name").orderBy("name").execute();
  const done: string[] = [];
  for (const { name } of asked) {
    const recount = projections[name];
    if (!recount) throw new Error(`迁移要求重算未知的统计：${name}`);
    await db.transaction().execute(async (trx) => {
      await recount(trx);
      await trx.deleteFrom("projection_recount").where("name", "=", name).execute();
    });
    done.push(name);
  }
  return done;
}
