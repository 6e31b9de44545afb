import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../db";
import { databaseFault, logDatabaseFault } from "../db/faults";

/** Takes the job's lease for `leaseMs` if it is free or expired (one atomic upsert); true when this holder has it. */
export async function takeJobLease(db: Db, job: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
  const taken = await db
    .insertInto("job_lease")
    .values({ job, holder, expires_at: now + leaseMs })
    .onConflict((oc) => oc.column("job").doUpdateSet({ holder, expires_at: now + leaseMs }).where((eb) => eb.or([eb("job_lease.expires_at", "<", now), eb("job_lease.holder", "=", holder)])))
    .returning("holder")
    .executeTakeFirst();
  return taken?.holder === holder;
}

export async function releaseJobLease(db: Db, job: string, holder: string): Promise<void> {
  await db.deleteFrom("job_lease").where("job", "=", job).where("holder", "=", holder).execute();
}

/** Runs `work` every `everyMs` in whichever instance takes the job's lease; the others skip the turn. */
export function startLeasedJob(db: Db, job: string, work: (now: number) => Promise<unknown>, everyMs: number, leaseMs: number): { stop(): Promise<void> } {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    if (!(await takeJobLease(db, job, holder, Date.now(), leaseMs))) return;
    try {
      await work(Date.now());
    } finally {
      await releaseJobLease(db, job, holder);
    }
  };
  const timer = setInterval(() => {
    running = running.then(tick).catch((error: unknown) => (databaseFault(error) ? logDatabaseFault(error) : console.error(error)));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
