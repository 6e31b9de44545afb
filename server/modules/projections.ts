import type { Db } from "../db";
import type { ServerModule } from "./manifest";
import { serverModules } from "./index";
import { recountDinerMonths, recountDinerPlaceMonths } from "./zhct/dinerMonths";
import { recountOrderDays } from "./zhct/orderDays";
import { TICKET_PAY_FLAGS } from "./zhct/payments";

/** The kept projections that are not a ledger's: the orders' (an order is not a ledger line). */
const orderProjections: Record<string, (db: Db) => Promise<void>> = {
  dinerMonths: (db) => recountDinerMonths(db, TICKET_PAY_FLAGS),
  orderDays: (db) => recountOrderDays(db),
  dinerPlaceMonths: (db) => recountDinerPlaceMonths(db),
};

/**
 * The kept projections a migration may ask to have counted (server/db/migrations/recounts.ts), each by the name the
 * migration gives, with the code that keeps it today: every declared ledger's projections (from the modules'
 * manifests), and the orders'. A name given twice stops the start.
 */
export function projectionsOf(modules: readonly ServerModule[]): Record<string, (db: Db) => Promise<void>> {
  const all: Record<string, (db: Db) => Promise<void>> = { ...orderProjections };
  for (const ledger of modules.flatMap((m) => m.ledgers)) {
    for (const projection of ledger.declaration.projections ?? []) {
      if (all[projection.name]) throw new Error(`统计 ${projection.name} 声明了两次（账本 ${ledger.declaration.name}）`);
      all[projection.name] = (db) => projection.recount(db);
    }
  }
  return all;
}

/**
 * Counts the projections the migrations asked for, each in its own transaction with its request's removal, so a
 * crash between two leaves the rest asked for and the next start counts them. Run after migrating, inside the
 * start-up's exclusive section (one instance at a time).
 */
export async function runRequestedRecounts(db: Db, modules: readonly ServerModule[] = serverModules): Promise<string[]> {
  const projections = projectionsOf(modules);
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
