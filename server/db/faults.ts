import { messages } from "../modules/messages";

/**
 * Faults of the database that are not the request's fault: the server answers them with 503 and keeps running.
 * `unavailable` — PostgreSQL cannot be reached or ended the connection (restart, failover, pg_terminate_backend,
 * a standby that is read-only); the pool opens new connections by itself once it is back.
 * `full` — SQLite could not write for lack of space; SQLite has rolled the transaction back.
 */
export type DatabaseFault = "unavailable" | "full";

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
// Class 08 connection exceptions; 57P01–57P03 administrator/crash shutdown and "cannot connect now";
// 53300 too many connections; 25006 a read-only transaction (the primary became a standby).
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300|25006)$/;
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed)/;

export function databaseFault(error: unknown): DatabaseFault | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code === "SQLITE_FULL") return "full";
    if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)) return "unavailable";
  }
  return PG_CONNECTION_MESSAGES.test(error.message) ? "unavailable" : null;
}

export function faultMessage(fault: DatabaseFault): string {
  return fault === "full" ? messages.storageFull : messages.databaseUnavailable;
}

const LOG_INTERVAL_MS = 5_000;
let lastLogged = 0;
let unlogged = 0;

/** One line per fault, and under load at most one every few seconds (with how many were not logged). */
export function logDatabaseFault(error: unknown, now = Date.now()): void {
  if (now - lastLogged < LOG_INTERVAL_MS) {
    unlogged += 1;
    return;
  }
  const fault = databaseFault(error);
  const what = fault === "full" ? "存储空间不足" : "数据库不可用";
  const detail = error instanceof Error ? `${(error as { code?: string }).code ?? ""} ${error.message}`.trim() : String(error);
  const more = unlogged ? `（此前 ${unlogged} 次未记录）` : "";
  console.error(`[db] ${what}：${detail}${more}`);
  lastLogged = now;
  unlogged = 0;
}

/** A write refused by a unique key or primary key (on either database): a duplicate or a lost race, not a fault. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
