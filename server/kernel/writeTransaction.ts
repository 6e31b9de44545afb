import { AsyncResource } from "node:async_hooks";
import { sql, type Kysely } from "kysely";
import type { Db, Dialect } from "../db";
import type { Database } from "../db/schema";

/**
 * The write transaction every balance change runs in (decisions 037, 050): money, points and any ledger declared
 * with `defineLedger`, and the Idempotency-Key that guards them.
 */

export type Trx = Kysely<Database>;

/**
 * Runs `work` in one transaction. On PostgreSQL a plain transaction: `post`'s conditional UPDATE locks the account
 * row and re-checks the balance. On SQLite the work joins a group commit (decision 037): the movements waiting when
 * the connection comes free, and those that arrive while the group is young (decision 050), run one after another,
 * each in a SAVEPOINT of one BEGIN IMMEDIATE transaction, and the group ends in one COMMIT (one disk sync with
 * `synchronous = FULL`). A movement that throws rolls back only its savepoint; every promise settles only after the
 * COMMIT has returned, so nothing is acknowledged before it is on disk. IMMEDIATE takes the write lock first, so two
 * processes on one file queue on busy_timeout instead of one failing with SQLITE_BUSY when its read turns into a
 * write.
 */
export async function inWriteTransaction<T>(db: Db, dialect: Dialect, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (dialect === "postgres") return db.transaction().execute(work);
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.submit(work);
}

/** How many groups a database's ledger has committed and how many movements they held (tests, the bench). */
export function groupCommitStats(db: Db): { commits: number; movements: number; waiting: number } {
  const group = groups.get(db);
  return { commits: group?.commits ?? 0, movements: group?.movements ?? 0, waiting: group?.waitingCount ?? 0 };
}

// A bound on one group, so a burst cannot hold the write lock for long; the rest go in the next group.
const GROUP_LIMIT = 200;
// How long after its BEGIN a group still takes in the movements that arrive while it runs (decision 050). Every
// answer waits for its group's COMMIT, so one turned away waits for the rest of this group and then its own: the
// longer a group stays open the longer that wait can be under a steady stream, and a group closed at once makes a
// terminal that paid a moment late wait a whole group (p99 twice p50 at 20 terminals).
export const GROUP_JOIN_MS = 15;

interface Movement {
  work: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

const groups = new WeakMap<Db, GroupCommit>();

class GroupCommit {
  private readonly waiting: Movement[] = [];
  private scheduled = false;
  commits = 0;
  movements = 0;

  constructor(private readonly db: Db) {}

  get waitingCount(): number {
    return this.waiting.length;
  }

  submit<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The work runs inside the group's flush, but must see its own request's async context (AsyncLocalStorage:
      // a booking's payment hooks read the reservation from it), not that of whichever request started the group.
      this.waiting.push({ work: AsyncResource.bind(work), resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * A group starts two turns of the event loop after its first movement, not at once: better-sqlite3's COMMIT blocks
   * the loop while the disk syncs, the requests that came meanwhile are read in one go after it, and each reaches
   * `submit` within that turn (its reads run synchronously underneath Kysely's promises); the second turn lets
   * those read a moment later join too (measured: 2.8 → 3.4 top-ups per commit at 4 connections, 10.7 → 16.8
   * payments at 20 terminals). An idle loop passes two turns in microseconds.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => setImmediate(() => void this.flush()));
  }

  /**
   * One group of those waiting. The connection is Kysely's only writer: while a group holds it no other request
   * reads or writes through it (nothing sees a group's uncommitted rows). A request reads its session, permissions
   * and Idempotency-Key on the reader (readerOf), so one that arrives meanwhile can still join this group.
   */
  private async flush(): Promise<void> {
    try {
      await this.db
        .connection()
        .execute((conn) => this.group(conn))
        .catch(() => {}); // each movement of the group has been answered with the error
    } finally {
      this.scheduled = false;
      if (this.waiting.length) this.schedule();
    }
  }

  private async group(conn: Trx): Promise<void> {
    const group: Movement[] = [];
    const fail = (error: unknown) => {
      for (const m of group) m.reject(error);
    };
    // Taken before BEGIN, so a refused BEGIN (SQLITE_BUSY after busy_timeout) answers these and no others.
    group.push(...this.waiting.splice(0, GROUP_LIMIT));
    try {
      await sql`begin immediate`.execute(conn);
    } catch (error) {
      fail(error);
      return;
    }
    let refusal: unknown; // the movement's error while its savepoint is being undone
    const joinUntil = performance.now() + GROUP_JOIN_MS;
    try {
      for (let i = 0; i < group.length; i++) {
        const movement = group[i];
        await sql`savepoint ledger_movement`.execute(conn);
        try {
          movement.outcome = { ok: true, value: await movement.work(conn) };
          await sql`release ledger_movement`.execute(conn);
        } catch (error) {
          movement.outcome = { ok: false, error };
          refusal = error;
          await sql`rollback to ledger_movement`.execute(conn);
          await sql`release ledger_movement`.execute(conn);
          refusal = undefined;
        }
        // A movement's statements never give the event loop a turn (better-sqlite3 answers synchronously), so
        // without this one the requests that came meanwhile would be read only after the COMMIT. Read now, they
        // reach `submit` and join this group while it is young, up to the bound.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (group.length < GROUP_LIMIT && this.waiting.length && performance.now() < joinUntil) group.push(...this.waiting.splice(0, GROUP_LIMIT - group.length));
      }
      await sql`commit`.execute(conn);
    } catch (error) {
      // ROLLBACK TO or COMMIT failed: SQLite may have ended the transaction itself (SQLITE_FULL, an I/O error).
      // Nothing of the group is kept, so every movement in it hears the error, those that had succeeded too.
      await sql`rollback`.execute(conn).catch(() => {});
      fail(refusal ?? error);
      return;
    }
    this.commits++;
    this.movements += group.length;
    for (const m of group) {
      const outcome = m.outcome as NonNullable<Movement["outcome"]>;
      if (outcome.ok) m.resolve(outcome.value);
      else m.reject(outcome.error);
    }
  }
}
