import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "kysely";
import { databaseFault, logDatabaseFault } from "./faults";
import { ID_INSTANCES, setIdInstance, type Db, type Dialect } from "./index";

/** How long a claimed number stays taken without a renewal: after a crash, the number is free again this late. */
export const LEASE_MS = 60_000;

const RELEASE_WAIT_MS = 2_000;

/** Thrown at start when every instance number is held by a running instance. */
export class InstanceNumbersTaken extends Error {
  readonly code = "INSTANCE_NUMBERS_TAKEN";
  constructor() {
    super(`all ${ID_INSTANCES} instance numbers are leased`);
  }
}

// The database's clock, not the instance's: instances on several machines then agree on when a lease expires.
async function databaseNow(db: Db, dialect: Dialect): Promise<number> {
  if (dialect === "sqlite") return Date.now();
  const { rows } = await sql<{ now: number }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(db);
  return Number(rows[0]?.now);
}

/**
 * Takes the lowest instance number that is free or whose lease has expired, for `holder`, or null when all are
 * held. Each try is one atomic upsert, so two instances claiming at once never get the same number.
 */
export async function claimInstanceNumber(db: Db, dialect: Dialect, holder: string, leaseMs = LEASE_MS): Promise<number | null> {
  const now = await databaseNow(db, dialect);
  const held = new Set(
    (await db.selectFrom("instance_lease").select("instance_no").where("expires_at", ">=", now).execute()).map((r) => r.instance_no),
  );
  for (let number = 0; number < ID_INSTANCES; number++) {
    if (held.has(number)) continue;
    const claimed = await db
      .insertInto("instance_lease")
      .values({ instance_no: number, holder, expires_at: now + leaseMs })
      .onConflict((oc) =>
        oc
          .column("instance_no")
          .doUpdateSet({ holder, expires_at: now + leaseMs })
          .where("instance_lease.expires_at", "<", now),
      )
      .returning("instance_no")
      .executeTakeFirst();
    if (claimed) return number;
  }
  return null;
}

export interface InstanceLease {
  readonly number: number;
  /** Stops renewing and frees the number (a clean shutdown; a restart then takes it again at once). */
  release(): Promise<void>;
}

/**
 * Claims an instance number for this process, puts it into the ids it makes, and renews the lease four times per
 * lease period. If the lease was lost all the same (the database unreachable for longer than a lease), a free number
 * is claimed again.
 */
export async function holdInstanceNumber(db: Db, dialect: Dialect, leaseMs = LEASE_MS): Promise<InstanceLease> {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  let number = await claimInstanceNumber(db, dialect, holder, leaseMs);
  if (number === null) throw new InstanceNumbersTaken();
  setIdInstance(number);
  const renew = async () => {
    const now = await databaseNow(db, dialect);
    const renewed = await db
      .updateTable("instance_lease")
      .set({ expires_at: now + leaseMs })
      .where("instance_no", "=", number as number)
      .where("holder", "=", holder)
      .executeTakeFirst();
    if (Number(renewed.numUpdatedRows) > 0) return;
    const again = await claimInstanceNumber(db, dialect, holder, leaseMs);
    console.error(`实例编号 ${number} 的租约已过期${again === null ? "，且没有空闲编号" : `，改用编号 ${again}`}`);
    if (again !== null) setIdInstance((number = again));
  };
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renew().catch((error: unknown) => (databaseFault(error) ? logDatabaseFault(error) : console.error(error)));
  }, leaseMs / 4);
  timer.unref();
  return {
    get number() {
      return number as number;
    },
    async release() {
      clearInterval(timer);
      // A database that does not answer must not hold up a shutdown: the lease then expires by itself.
      const freed = renewing.then(() => db.deleteFrom("instance_lease").where("holder", "=", holder).execute());
      await Promise.race([freed, new Promise((resolve) => setTimeout(resolve, RELEASE_WAIT_MS).unref())]);
    },
  };
}
