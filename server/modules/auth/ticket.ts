import { randomBytes } from "node:crypto";
import { z } from "../../../resources/z";
import { hashToken, newToken } from "../../auth/tokens";
import { isHttps, serializeCookie, TOKEN_COOKIE } from "../../http/cookies";
import { endpoint, publicAccess, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";

export const TICKET_TTL_MS = 60_000;
export const ticketMessages = { invalid: "链接已失效，请重新登录" };

/**
 * A page a menu opens in a new window gets `?ticket=…` instead of the token (spec §2 `_blank`): valid 60 s,
 * usable once, and only while the session that asked for it is still signed in.
 */
export const ticketEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/auth/ticket",
    summary: "一次性登录票据（60 秒内有效，只能使用一次），用于在新窗口打开页面",
    access: { kind: "session" },
    handle: async (ctx) => {
      const { session } = ctx as SessionContext;
      const { db } = ctx.services;
      const ticket = randomBytes(32).toString("base64url");
      await db.deleteFrom("login_ticket").where("expires_at", "<", ctx.now - TICKET_TTL_MS).execute();
      await db
        .insertInto("login_ticket")
        .values({
          ticket_hash: hashToken(ticket),
          tenant_id: session.homeTenantId,
          user_id: session.userId,
          session_hash: session.tokenHash,
          created_at: ctx.now,
          expires_at: ctx.now + TICKET_TTL_MS,
          used_at: null,
        })
        .execute();
      return { ticket, expiresAt: ctx.now + TICKET_TTL_MS };
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/auth/ticket/exchange",
    summary: "以一次性票据换取会话（令牌只通过 HttpOnly Cookie 下发）",
    access: publicAccess,
    body: z.object({ ticket: z.string().min(20).max(200) }),
    handle: async (ctx, { body }) => {
      const { db, config } = ctx.services;
      const ticketHash = hashToken(body.ticket);
      // Marking it used is the first write: of two exchanges racing, one wins.
      const claimed = await db
        .updateTable("login_ticket")
        .set({ used_at: ctx.now })
        .where("ticket_hash", "=", ticketHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", ctx.now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new ApiError(Status.UNAUTHORIZED, ticketMessages.invalid);
      const row = await db
        .selectFrom("login_ticket")
        .innerJoin("session", "session.token_hash", "login_ticket.session_hash")
        .select(["login_ticket.tenant_id", "login_ticket.user_id", "session.expires_at", "session.revoked_at", "session.last_seen_at"])
        .where("login_ticket.ticket_hash", "=", ticketHash)
        .executeTakeFirst();
      const idleMs = config.SESSION_IDLE_MINUTES * 60_000;
      if (!row || row.revoked_at !== null || row.expires_at <= ctx.now || row.last_seen_at + idleMs <= ctx.now) {
        throw new ApiError(Status.UNAUTHORIZED, ticketMessages.invalid);
      }
      const { token, hash } = newToken();
      await db
        .insertInto("session")
        .values({
          token_hash: hash,
          tenant_id: row.tenant_id,
          user_id: row.user_id,
          created_at: ctx.now,
          last_seen_at: ctx.now,
          // The new window's session ends when the one that opened it would have.
          expires_at: row.expires_at,
          revoked_at: null,
          acting_tenant_id: null,
          ip: ctx.ip,
          user_agent: ctx.userAgent?.slice(0, 300) ?? null,
        })
        .execute();
      ctx.responseHeaders.append(
        "Set-Cookie",
        serializeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: (row.expires_at - ctx.now) / 1000, secure: isHttps(ctx.request) }),
      );
      return { expiresAt: row.expires_at };
    },
  }),
];
