import { consumeCaptcha } from "../../auth/captcha";
import { hashPassword, verifyPassword } from "../../auth/password";
import { hashToken, newToken, tokenFrom } from "../../auth/tokens";
import { newId, readerOf, type Db } from "../../db";
import { preparedQuery } from "../../db/prepared";
import type { LoginLogTable } from "../../db/schema";
import { isHttps, serializeCookie, TOKEN_COOKIE } from "../../http/cookies";
import type { AuthSession, RequestContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { messages } from "../messages";

export const LOCK_THRESHOLD = 5;
export const LOCK_WINDOW_MS = 15 * 60_000;
export const LOCK_DURATION_MS = 15 * 60_000;
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

/** Login fields arrive as `ENC:` followed by the base64 of their UTF-8 text (spec §5). */
export function decodeLoginField(value: string): string | null {
  if (!value.startsWith("ENC:")) return null;
  const encoded = value.slice(4);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return null;
  return Buffer.from(encoded, "base64").toString("utf8");
}

export { encodeLoginField } from "../../../resources/auth";

async function writeLoginLog(
  ctx: RequestContext,
  userName: string,
  result: LoginLogTable["result"],
  message: string,
  tenantId: number | null = null,
) {
  await ctx.services.db
    .insertInto("login_log")
    .values({
      id: newId(),
      tenant_id: tenantId,
      user_name: userName.slice(0, 100),
      ip: ctx.ip,
      user_agent: ctx.userAgent?.slice(0, 300) ?? null,
      result,
      message,
      created_at: ctx.now,
    })
    .execute();
}

export async function lockedUntil(db: Db, userName: string, now: number): Promise<number | null> {
  const lock = await db.selectFrom("login_lock").select("locked_until").where("user_name", "=", userName).executeTakeFirst();
  return lock && lock.locked_until > now ? lock.locked_until : null;
}

/** Failures since the later of the window start and the last success; five of them lock the name. */
export async function recordFailure(ctx: RequestContext, userName: string, tenantId: number | null): Promise<boolean> {
  const { db } = ctx.services;
  await writeLoginLog(ctx, userName, "failure", messages.auth.badCredentials, tenantId);
  const lastSuccess = await db
    .selectFrom("login_log")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("user_name", "=", userName)
    .where("result", "=", "success")
    .executeTakeFirst();
  const since = Math.max(ctx.now - LOCK_WINDOW_MS, Number(lastSuccess?.at ?? 0));
  const failures = await db
    .selectFrom("login_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_name", "=", userName)
    .where("result", "=", "failure")
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(failures.n) < LOCK_THRESHOLD) return false;
  const until = ctx.now + LOCK_DURATION_MS;
  await db
    .insertInto("login_lock")
    .values({ user_name: userName, locked_until: until })
    .onConflict((oc) => oc.column("user_name").doUpdateSet({ locked_until: until }))
    .execute();
  return true;
}

export interface LoginInput {
  username: string;
  password: string;
  captcha?: string;
  checkKey?: string;
}

export async function login(ctx: RequestContext, input: LoginInput): Promise<{ token: string }> {
  const { db, config } = ctx.services;
  const userName = decodeLoginField(input.username)?.trim();
  const password = decodeLoginField(input.password);
  if (!userName || password === null || password === undefined) {
    throw new ApiError(Status.BAD_REQUEST, messages.auth.badEncoding);
  }

  if (config.CANTEEN_CAPTCHA) {
    const ok = input.captcha && input.checkKey && (await consumeCaptcha(db, input.checkKey, input.captcha, ctx.now));
    if (!ok) {
      await writeLoginLog(ctx, userName, "captcha", messages.auth.badCaptcha);
      throw new ApiError(Status.BAD_REQUEST, messages.auth.badCaptcha, { fieldErrors: { captcha: [messages.auth.badCaptcha] } });
    }
  }

  if (await lockedUntil(db, userName, ctx.now)) {
    await writeLoginLog(ctx, userName, "locked", messages.auth.locked);
    throw new ApiError(Status.TOO_MANY_REQUESTS, messages.auth.locked);
  }

  const user = await db
    .selectFrom("login_name")
    .innerJoin("user", (join) =>
      join.onRef("user.tenant_id", "=", "login_name.tenant_id").onRef("user.id", "=", "login_name.user_id"),
    )
    .innerJoin("tenant", "tenant.id", "user.tenant_id")
    .select(["user.id", "user.tenant_id", "user.password_hash", "user.status", "tenant.status as tenant_status"])
    .where("login_name.user_name", "=", userName)
    .executeTakeFirst();

  const passwordOk = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !passwordOk) {
    const nowLocked = await recordFailure(ctx, userName, user?.tenant_id ?? null);
    throw new ApiError(Status.BAD_REQUEST, nowLocked ? messages.auth.lockedNow : messages.auth.badCredentials);
  }
  if (user.status !== 1 || user.tenant_status !== 1) {
    const message = user.status !== 1 ? messages.auth.userDisabled : messages.auth.tenantDisabled;
    await writeLoginLog(ctx, userName, "failure", message, user.tenant_id);
    throw new ApiError(Status.FORBIDDEN, message);
  }

  const { token, hash } = newToken();
  const absoluteMs = config.SESSION_ABSOLUTE_HOURS * 3_600_000;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("session")
      .values({
        token_hash: hash,
        tenant_id: user.tenant_id,
        user_id: user.id,
        created_at: ctx.now,
        last_seen_at: ctx.now,
        expires_at: ctx.now + absoluteMs,
        revoked_at: null,
        acting_tenant_id: null,
        ip: ctx.ip,
        user_agent: ctx.userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    await trx
      .updateTable("user")
      .set({ last_login_at: ctx.now })
      .where("tenant_id", "=", user.tenant_id)
      .where("id", "=", user.id)
      .execute();
    await trx.deleteFrom("login_lock").where("user_name", "=", userName).execute();
  });
  await writeLoginLog(ctx, userName, "success", "登录成功", user.tenant_id);
  ctx.responseHeaders.append(
    "Set-Cookie",
    serializeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: absoluteMs / 1000, secure: isHttps(ctx.request) }),
  );
  return { token };
}

/**
 * Ends every session of a user, or of a whole tenant, that is being disabled: enabling it again later must not
 * bring the old tokens back. Super admins working inside a disabled tenant return to their own.
 */
export async function endSessions(trx: Db, now: number, tenantId: number, userId?: number) {
  let query = trx.updateTable("session").set({ revoked_at: now }).where("tenant_id", "=", tenantId).where("revoked_at", "is", null);
  if (userId !== undefined) query = query.where("user_id", "=", userId);
  await query.execute();
  if (userId === undefined) await trx.updateTable("session").set({ acting_tenant_id: null }).where("acting_tenant_id", "=", tenantId).execute();
}

export function clearTokenCookie(ctx: RequestContext) {
  ctx.responseHeaders.append("Set-Cookie", serializeCookie(TOKEN_COOKIE, "", { maxAgeSeconds: 0, secure: isHttps(ctx.request) }));
}

export async function logout(ctx: RequestContext): Promise<void> {
  const source = tokenFrom(ctx.request);
  if (source) {
    await ctx.services.db
      .updateTable("session")
      .set({ revoked_at: ctx.now })
      .where("token_hash", "=", hashToken(source.token))
      .where("revoked_at", "is", null)
      .execute();
  }
  clearTokenCookie(ctx);
}

/** One query (one round trip on PostgreSQL): the session, its user and tenant, and one row per enabled role. */
const sessionRows = preparedQuery("session by token hash", (db: Db, tokenHash: string) =>
  db
    .selectFrom("session")
    .innerJoin("user", (join) =>
      join.onRef("user.tenant_id", "=", "session.tenant_id").onRef("user.id", "=", "session.user_id"),
    )
    .innerJoin("tenant", "tenant.id", "session.tenant_id")
    .leftJoin("user_role", (join) =>
      join.onRef("user_role.tenant_id", "=", "session.tenant_id").onRef("user_role.user_id", "=", "session.user_id"),
    )
    .leftJoin("role", (join) =>
      join
        .onRef("role.tenant_id", "=", "user_role.tenant_id")
        .onRef("role.id", "=", "user_role.role_id")
        .on("role.status", "=", 1),
    )
    .select([
      "session.user_id",
      "session.tenant_id",
      "session.last_seen_at",
      "session.expires_at",
      "session.revoked_at",
      "session.acting_tenant_id",
      "user.user_name",
      "user.status",
      "user.pwd_security_level",
      "tenant.status as tenant_status",
      "role.role_code",
      "role.role_type",
    ])
    .where("session.token_hash", "=", tokenHash),
);

/** Token → session, or the status that says why not (50014 expired or signed out, 50008 illegal). */
export async function authenticate(ctx: RequestContext): Promise<AuthSession> {
  const { db, config } = ctx.services;
  const source = tokenFrom(ctx.request);
  if (!source) throw new ApiError(Status.UNAUTHORIZED, messages.auth.noToken);
  const tokenHash = hashToken(source.token);
  // Committed rows (readerOf): a request signs in while a ledger group holds the writer, and can then join it.
  const rows = await sessionRows(readerOf(db), tokenHash);
  const row = rows[0];
  if (!row) throw new ApiError(Status.ILLEGAL_TOKEN, messages.auth.illegalToken);
  const idleMs = config.SESSION_IDLE_MINUTES * 60_000;
  if (row.revoked_at !== null || row.expires_at <= ctx.now || row.last_seen_at + idleMs <= ctx.now) {
    throw new ApiError(Status.TOKEN_EXPIRED, messages.auth.expired);
  }
  if (row.status !== 1 || row.tenant_status !== 1) throw new ApiError(Status.ILLEGAL_TOKEN, messages.auth.userDisabled);

  // Idle expiry needs a recent last-seen time, not one write per request.
  if (ctx.now - row.last_seen_at > LAST_SEEN_WRITE_INTERVAL_MS) {
    await db.updateTable("session").set({ last_seen_at: ctx.now }).where("token_hash", "=", tokenHash).execute();
  }
  const roles = rows.filter((r): r is typeof r & { role_code: string; role_type: string } => r.role_code !== null && r.role_type !== null);
  const roleTypes = roles.map((r) => r.role_type);
  return {
    tokenHash,
    bearerToken: source.from === "header" ? source.token : null,
    userId: row.user_id,
    homeTenantId: row.tenant_id,
    tenantId: roleTypes.includes("super") && row.acting_tenant_id !== null ? row.acting_tenant_id : row.tenant_id,
    userName: row.user_name,
    roles: roles.map((r) => r.role_code),
    roleTypes,
    pwdSecurityLevel: row.pwd_security_level,
  };
}

export function isAdmin(session: AuthSession) {
  return session.roles.includes("admin");
}

/** A super admin (role type super) manages tenants and may work inside any of them. */
export function isSuper(session: AuthSession) {
  return session.roleTypes.includes("super");
}

export { hashPassword };
