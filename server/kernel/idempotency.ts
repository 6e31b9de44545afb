import { createHash } from "node:crypto";
import { readerOf, type Db } from "../db";
import { isUniqueViolation } from "../db/faults";
import { insertRow, preparedQuery } from "../db/prepared";
import type { SessionContext } from "../http/endpoint";
import { ApiError, Status } from "../http/envelope";
import { startLeasedJob } from "./leasedJob";
import { inWriteTransaction, type Trx } from "./writeTransaction";

export const idempotencyMessages = {
  badKey: "Idempotency-Key 应为 1–100 个可见 ASCII 字符",
  reused: "该 Idempotency-Key 已用于另一笔内容不同的请求，请为新的请求使用新的 Idempotency-Key",
};

const KEY = /^[\x21-\x7e]{1,100}$/;

/** The request's Idempotency-Key header, checked; null when absent. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get("Idempotency-Key");
  if (key === null) return null;
  if (!KEY.test(key)) throw new ApiError(Status.BAD_REQUEST, idempotencyMessages.badKey);
  return key;
}

/** JSON with sorted keys, so the same body hashes the same however its keys were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * For an action whose money movement runs inside `idempotent` but whose own state changes first (a pick-up): the
 * stored answer of the request's Idempotency-Key when its tenant has used it already, else null. The caller decides
 * whether that answer is this request's (then `markReplayed`) or another's (then `idempotencyMessages.reused`).
 */
export async function usedKeyAnswer(ctx: SessionContext): Promise<{ answer: unknown } | null> {
  const key = idempotencyKeyOf(ctx.request);
  if (key === null) return null;
  const [row] = await keyRows(ctx.services.db, ctx.session.tenantId, key);
  return row ? { answer: JSON.parse(row.response) as unknown } : null;
}

export const markReplayed = (ctx: SessionContext) => ctx.responseHeaders.set("Idempotent-Replayed", "true");

// The statements of every keyed movement, compiled once each (see runPrepared).
const keyRows = preparedQuery("idempotency key", (from: Trx, tenantId: number, key: string) =>
  from.selectFrom("idempotency_key").select(["request_hash", "response"]).where("tenant_id", "=", tenantId).where("idem_key", "=", key),
);
const keyAnswered = preparedQuery("idempotency key answered", (trx: Trx, response: string, tenantId: number, key: string) =>
  trx.updateTable("idempotency_key").set({ response }).where("tenant_id", "=", tenantId).where("idem_key", "=", key),
);

class Replay {
  constructor(readonly row: { request_hash: string; response: string }) {}
}


/**
 * Runs a money movement once per Idempotency-Key of the tenant (decision 017). The key is written first in the
 * movement's own transaction, so of two requests racing with one key the second waits on the key and then finds it
 * taken; its transaction, and anything it wrote, is rolled back. A retry with the same endpoint and body gets the
 * first answer (header `Idempotent-Replayed: true`); another body gets 409. A refused movement (余额不足) stores
 * nothing, so its retry runs again.
 */
export async function idempotent<T>(ctx: SessionContext, body: unknown, work: (trx: Trx, key: string | null) => Promise<T>): Promise<T> {
  const { db, dialect } = ctx.services;
  const key = idempotencyKeyOf(ctx.request);
  if (key === null) return inWriteTransaction(db, dialect, (trx) => work(trx, null));
  const tenantId = ctx.session.tenantId;
  const hash = createHash("sha256").update(`${ctx.url.pathname}\n${canonical(body)}`).digest("hex");
  const find = async (from: Trx) => (await keyRows(from, tenantId, key))[0];
  const answer = (row: { request_hash: string; response: string }): T => {
    if (row.request_hash !== hash) throw new ApiError(Status.CONFLICT, idempotencyMessages.reused);
    markReplayed(ctx);
    return JSON.parse(row.response) as T;
  };
  // A committed answer is replayed without joining the ledger's group; a key written by a group still open is not
  // seen here, and is found by the look-up inside the transaction (SQLite) or by its unique index (PostgreSQL).
  const first = await find(readerOf(db));
  if (first) return answer(first);
  try {
    return await inWriteTransaction(db, dialect, async (trx) => {
      // SQLite: another process may have committed the key between the look-up above and the write lock.
      if (dialect === "sqlite") {
        const seen = await find(trx);
        if (seen) throw new Replay(seen);
      }
      await insertRow(trx, "idempotency_key", { tenant_id: tenantId, idem_key: key, request_hash: hash, response: "null", created_at: ctx.now });
      const result = await work(trx, key);
      await keyAnswered(trx, JSON.stringify(result ?? null), tenantId, key);
      return result;
    });
  } catch (error) {
    if (error instanceof Replay) return answer(error.row);
    if (!isUniqueViolation(error)) throw error;
    const row = await find(db);
    if (!row) throw error;
    return answer(row);
  }
}

/**
 * How long a key answers its retries. A terminal that lost its answer retries within seconds, or when it comes back
 * online; three months covers a device left in a drawer over a holiday. Older keys are deleted: the table otherwise
 * grows by a row per top-up and payment for ever. The ledger lines keep their key as a record.
 */
export const IDEMPOTENCY_KEY_DAYS = 90;
const PRUNE_BATCH = 5000;

/** Deletes the keys older than IDEMPOTENCY_KEY_DAYS, a batch per statement (short write locks); returns how many. */
export async function pruneIdempotencyKeys(db: Db, now: number): Promise<number> {
  const before = now - IDEMPOTENCY_KEY_DAYS * 86_400_000;
  let deleted = 0;
  for (;;) {
    const batch = db.selectFrom("idempotency_key").select("idem_key").where("created_at", "<", before).limit(PRUNE_BATCH);
    const result = await db.deleteFrom("idempotency_key").where("created_at", "<", before).where("idem_key", "in", batch).executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n === 0) return deleted;
  }
}

/** Prunes the expired keys hourly in the instance that takes the job's lease. */
export function startIdempotencyKeyPruner(db: Db, everyMs = 3600_000, leaseMs = 10 * 60_000): { stop(): Promise<void> } {
  return startLeasedJob(db, "zhct.idempotencyPrune", (now) => pruneIdempotencyKeys(db, now), everyMs, leaseMs);
}
