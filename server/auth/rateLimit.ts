import type { Db } from "../db";

/**
 * A sliding one-minute window of sign-in attempts per client address, kept in the database so that every instance
 * behind a load balancer counts the same attempts. Counting and recording are two statements: instances racing
 * at the limit may let through one attempt each beyond it, which a limit meant against guessing can bear.
 */
export async function allowLoginAttempt(db: Db, ip: string, limit: number, now: number, windowMs = 60_000): Promise<boolean> {
  const since = now - windowMs;
  await db.deleteFrom("login_rate_hit").where("at", "<=", since).execute();
  const recent = await db
    .selectFrom("login_rate_hit")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("ip", "=", ip)
    .where("at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= limit) return false;
  await db.insertInto("login_rate_hit").values({ ip, at: now }).execute();
  return true;
}
