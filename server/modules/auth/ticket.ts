import { randomBytes } from "node:crypto";
import { safeRedirect } from "../../../resources/redirect";
import { z } from "../../../resources/z";
import { hashToken, newToken, tokenFrom } from "../../auth/tokens";
import { isHttps, serializeCookie, TOKEN_COOKIE } from "../../http/cookies";
import { endpoint, publicAccess, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { iframeSource } from "../sys/imageObj";
import { authenticate } from "./session";

export const TICKET_TTL_MS = 60_000;
export const ticketMessages = {
  invalid: "链接已失效，请重新登录",
  target: "不能为该地址发放登录票据：只允许本站页面或管理员允许的主机",
  wrongHost: "登录票据只能由签发时指定的站点兑换",
  otherUser: "当前浏览器已登录其他账号，票据未使用",
};

/**
 * The address a ticket may be appended to (decision 011): a path of this site, or an address on a host of
 * IFRAME_ALLOWED_HOSTS (the list `/iframe/reportview` embeds from). The audience is the host that may exchange it.
 */
function ticketTarget(path: string, here: URL, allowedHosts: string[]): { url: URL; audience: string } | null {
  const source = safeRedirect(path, "") || iframeSource(path, here.origin, allowedHosts);
  if (!source) return null;
  const url = new URL(source, here.origin);
  return { url, audience: url.host };
}

function originHost(request: Request): string | null {
  const origin = request.headers.get("Origin");
  if (!origin || origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * A page a menu opens in a new window gets `?ticket=…` instead of the token (spec §2 `_blank`): valid 60 s,
 * usable once, only while the session that asked for it is still signed in, and only by the host it was issued for.
 */
export const ticketEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/auth/ticket",
    summary: "一次性登录票据（60 秒内有效，只能使用一次）：{ path } 为要在新窗口打开的本站路径或允许的主机地址，返回带票据的 url",
    access: { kind: "session" },
    body: z.object({ path: z.string({ error: "请提供要打开的地址 path" }).min(1, "请提供要打开的地址 path").max(2000) }),
    handle: async (ctx, { body }) => {
      const { session } = ctx as SessionContext;
      const { db, config } = ctx.services;
      const target = ticketTarget(body.path, ctx.url, config.IFRAME_ALLOWED_HOSTS);
      if (!target) throw new ApiError(Status.BAD_REQUEST, ticketMessages.target, { fieldErrors: { path: [ticketMessages.target] } });
      const ticket = randomBytes(32).toString("base64url");
      await db.deleteFrom("login_ticket").where("expires_at", "<", ctx.now - TICKET_TTL_MS).execute();
      await db
        .insertInto("login_ticket")
        .values({
          ticket_hash: hashToken(ticket),
          tenant_id: session.homeTenantId,
          user_id: session.userId,
          session_hash: session.tokenHash,
          audience: target.audience,
          created_at: ctx.now,
          expires_at: ctx.now + TICKET_TTL_MS,
          used_at: null,
        })
        .execute();
      target.url.searchParams.set("ticket", ticket);
      const url = target.url.origin === ctx.url.origin ? target.url.pathname + target.url.search + target.url.hash : target.url.href;
      return { ticket, url, expiresAt: ctx.now + TICKET_TTL_MS };
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/auth/ticket/exchange",
    summary: "以一次性票据换取会话（令牌只通过 HttpOnly Cookie 下发）；请求须来自票据签发时指定的站点（Origin）",
    access: publicAccess,
    checksOrigin: true,
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
        .select(["login_ticket.tenant_id", "login_ticket.user_id", "login_ticket.audience", "session.expires_at", "session.revoked_at", "session.last_seen_at"])
        .where("login_ticket.ticket_hash", "=", ticketHash)
        .executeTakeFirst();
      const idleMs = config.SESSION_IDLE_MINUTES * 60_000;
      if (!row || row.revoked_at !== null || row.expires_at <= ctx.now || row.last_seen_at + idleMs <= ctx.now) {
        throw new ApiError(Status.UNAUTHORIZED, ticketMessages.invalid);
      }
      // A ticket leaked to another host (or replayed by a script without a browser's Origin) is worth nothing.
      if (originHost(ctx.request) !== row.audience) throw new ApiError(Status.FORBIDDEN, ticketMessages.wrongHost);
      // A ticket never replaces whoever is signed in here: that would sign a victim into the sender's account.
      const current = tokenFrom(ctx.request) ? await authenticate(ctx).catch(() => null) : null;
      if (current) {
        if (current.userId === row.user_id && current.homeTenantId === row.tenant_id) return { expiresAt: row.expires_at };
        throw new ApiError(Status.CONFLICT, ticketMessages.otherUser);
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
