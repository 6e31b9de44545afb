import type { Kysely } from "kysely";
import type { Database } from "./schema";

/** Runs `work` in the caller's transaction when `db` is one (a migration's, on PostgreSQL), else in one of its own. */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
