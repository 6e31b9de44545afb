import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import { userInfoSendMessage } from "../../../resources/zhct/messages";
import { isStorable } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { newId, type Db } from "../../db";
import { logDatabaseFault } from "../../db/faults";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { permissionCode, apiPath } from "../../../resources/define";
import { runResourceStep } from "../../kernel/transitions";

/** The message states of the `messageState` dictionary. */
export const MessageState = { pending: 0, sent: 1, failed: 2 } as const;
/** Tries before a message is marked failed (重发 starts it again). */
export const MAX_ATTEMPTS = 3;
/** How long a claimed message is one dispatcher's to send; after a crash another takes it this late. */
export const CLAIM_MS = 60_000;
/** The wait before the next try grows with each failure. */
const RETRY_MS = 30_000;

export const outboxMessages = {
  // The declaration's 409 (its workflow), named here for the suites.
  notFailed: userInfoSendMessage.workflow.refusal,
  content: "消息内容不能为空且不超过 500 个字符",
  recipient: "接收人不能为空且不超过 50 个字符",
} as const;

export interface OutgoingMessage {
  tenantId: number;
  recipientName: string;
  phone: string | null;
  templateCode: string | null;
  content: string;
}

/** Where messages go. A send that throws is a failure (its message is kept as the reason). */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>;
}

/** No gateway here: a message "sent" is one written to the log (the outbox row, marked sent). */
export const logSender: MessageSender = {
  async send() {},
};

export interface NewMessage {
  tenantId: number;
  recipientName: string;
  phone?: string | null;
  templateCode?: string | null;
  content: string;
  relatedEntity?: string | null;
  relatedId?: number | null;
  createdBy?: number | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Puts a message in the outbox inside the caller's transaction: it is sent only if that transaction commits, and
 * it is sent by the dispatcher, never while the caller waits.
 */
export async function enqueueMessage(trx: AnyDb, message: NewMessage, now = Date.now()): Promise<number> {
  const content = message.content?.trim() ?? "";
  const name = message.recipientName?.trim() ?? "";
  if (!content || content.length > 500 || !isStorable(content)) throw new ApiError(Status.BAD_REQUEST, outboxMessages.content);
  if (!name || name.length > 50 || !isStorable(name)) throw new ApiError(Status.BAD_REQUEST, outboxMessages.recipient);
  const id = newId();
  await trx
    .insertInto("user_info_send_message")
    .values({
      tenant_id: message.tenantId,
      id,
      recipient_name: name,
      phone: message.phone ?? null,
      template_code: message.templateCode ?? null,
      content,
      state: MessageState.pending,
      attempts: 0,
      last_error: null,
      sent_at: null,
      related_entity: message.relatedEntity ?? null,
      related_id: message.relatedId ?? null,
      next_attempt_at: now,
      lease_holder: null,
      leased_until: null,
      created_at: now,
      created_by: message.createdBy ?? null,
      updated_at: now,
      updated_by: message.createdBy ?? null,
    })
    .execute();
  return id;
}

/**
 * Sends what is due, once each even with several dispatchers (instances) at it: a message is sent only by the
 * dispatcher whose conditional update claimed it (pending, due, and not claimed by another whose claim is still
 * running), and its result is written only under that claim.
 */
export async function drainOutbox(db: Db, sender: MessageSender, options: { holder: string; now?: () => number; batch?: number }): Promise<{ sent: number; failed: number; retried: number }> {
  const now = options.now ?? Date.now;
  const started = now();
  const due = await db
    .selectFrom("user_info_send_message")
    .select(["tenant_id", "id"])
    .where("state", "=", MessageState.pending)
    .where("next_attempt_at", "<=", started)
    .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<", started)]))
    .orderBy("next_attempt_at")
    .limit(options.batch ?? 100)
    .execute();
  const result = { sent: 0, failed: 0, retried: 0 };
  for (const { tenant_id: tenantId, id } of due) {
    const at = now();
    const claimed = await db
      .updateTable("user_info_send_message")
      .set({ lease_holder: options.holder, leased_until: at + CLAIM_MS })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .where("state", "=", MessageState.pending)
      .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<", at)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const row = await db.selectFrom("user_info_send_message").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirstOrThrow();
    const attempts = row.attempts + 1;
    let update: Record<string, unknown>;
    try {
      await sender.send({ tenantId, recipientName: row.recipient_name, phone: row.phone, templateCode: row.template_code, content: row.content });
      update = { state: MessageState.sent, attempts, sent_at: now(), last_error: null };
      result.sent += 1;
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500) || "发送失败";
      const final = attempts >= MAX_ATTEMPTS;
      update = { state: final ? MessageState.failed : MessageState.pending, attempts, last_error: reason, next_attempt_at: now() + RETRY_MS * attempts };
      if (final) result.failed += 1;
      else result.retried += 1;
    }
    await db
      .updateTable("user_info_send_message")
      .set({ ...update, lease_holder: null, leased_until: null, updated_at: now() })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .where("lease_holder", "=", options.holder)
      .execute();
  }
  return result;
}

/** Drains the outbox every `intervalMs` in this process until stopped; a database fault waits for the next round. */
export function startOutboxDispatcher(db: Db, sender: MessageSender = logSender, intervalMs = 5_000): { stop(): Promise<void> } {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running.then(() => (stopped ? undefined : drainOutbox(db, sender, { holder }).catch((error: unknown) => logDatabaseFault(error))));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

const resend = endpoint({
  method: "POST",
  path: apiPath(userInfoSendMessage, "resend"),
  summary: "重发发送失败的短信通知",
  access: permission(permissionCode(userInfoSendMessage, "resend")),
  body: z.object({ id: recordId() }),
  handle: async (ctx, { body }) => {
    const sctx = ctx as SessionContext;
    // A failed message goes back to the outbox (its declared step, decision 070); the dispatcher sends it within seconds.
    await ctx.services.db
      .transaction()
      .execute((trx) => runResourceStep(trx, sctx, userInfoSendMessage, "resend", { id: body.id, set: { next_attempt_at: ctx.now, lease_holder: null, leased_until: null } }));
    return { id: body.id, state: String(MessageState.pending) };
  },
});

export const outboxEndpoints: Endpoint[] = [{ ...resend, resource: "zhct/userInfoSendMessage" }];
