import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { postgresSchema } from "./processes";

/**
 * A database of its own for the servers a spec starts (DATABASE_URL), read directly: what a spec asserts about money
 * is what is stored, not only what the API answered.
 */
export interface ProcessDatabase {
  url: string;
  /** `text` with `?` placeholders, on either database; integers and sums come back as numbers. */
  rows<T extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Each account's balance and the sum of its ledger lines. */
  accounts(): Promise<Array<{ balance: number; ledger: number }>>;
  /** The Idempotency-Keys the ledger's lines carry. */
  keys(): Promise<Set<string>>;
  dispose(): Promise<void>;
}

const ACCOUNTS = "select a.balance as balance, coalesce((select sum(l.amount) from user_account_ledger l where l.tenant_id = a.tenant_id and l.account_id = a.id), 0) as ledger from user_account a";
const KEYS = "select idempotency_key as k from user_account_ledger where idempotency_key is not null";

// PostgreSQL answers bigint and numeric (ids, counts, sums) as strings; every such figure here is below 2^53.
const BIGINT = 20;
const NUMERIC = 1700;

function withReads(url: string, rows: ProcessDatabase["rows"], dispose: () => Promise<void>): ProcessDatabase {
  return {
    url,
    rows,
    accounts: async () => (await rows<{ balance: number; ledger: number }>(ACCOUNTS)).map((r) => ({ balance: Number(r.balance), ledger: Number(r.ledger) })),
    keys: async () => new Set((await rows<{ k: string }>(KEYS)).map((r) => r.k)),
    dispose,
  };
}

/** A new SQLite file in a directory of its own; each read opens it read-only, so the servers' writes are not held up. */
export async function sqliteDatabase(prefix = "canteen-process-"): Promise<ProcessDatabase> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const url = join(dir, "canteen.db");
  const rows = async <T>(text: string, values: unknown[] = []) => {
    const db = new SQLite(url, { readonly: true });
    try {
      return db.prepare(text).all(...values) as T[];
    } finally {
      db.close();
    }
  };
  return withReads(url, rows, async () => rmSync(dir, { recursive: true, force: true }));
}

/** A new schema on the test PostgreSQL (TEST_DATABASE_URL), dropped by `dispose`. */
export async function postgresDatabase(): Promise<ProcessDatabase> {
  const pgSchema = await postgresSchema();
  // The reading connection finds the tables as the servers do, unqualified.
  await pgSchema.query(`set search_path to ${pgSchema.schema}`);
  const rows = async <T>(text: string, values: unknown[] = []) => {
    let n = 0;
    const result = await pgSchema.query(text.replace(/\?/g, () => `$${++n}`), values);
    const numbers = result.fields.filter((f) => f.dataTypeID === BIGINT || f.dataTypeID === NUMERIC).map((f) => f.name);
    return result.rows.map((row) => ({ ...row, ...Object.fromEntries(numbers.map((name) => [name, row[name] === null ? null : Number(row[name])])) })) as T[];
  };
  return withReads(pgSchema.url, rows, () => pgSchema.drop());
}

export const processDatabase = (dialect: "sqlite" | "postgres", prefix?: string) => (dialect === "sqlite" ? sqliteDatabase(prefix) : postgresDatabase());
