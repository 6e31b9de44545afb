import { hashPassword, passwordProblem, securityLevel, verifyPassword } from "../../auth/password";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { messages } from "../messages";
import { lockedUntil, recordFailure } from "./session";

export async function modifyPassword(ctx: SessionContext, oldPassword: string, newPassword: string): Promise<void> {
  const { db } = ctx.services;
  const { session } = ctx;
  const user = await db
    .selectFrom("user")
    .select(["password_hash", "user_name"])
    .where("tenant_id", "=", session.homeTenantId)
    .where("id", "=", session.userId)
    .executeTakeFirstOrThrow();
  // A stolen session must not become a way to guess the password: wrong old passwords count toward the sign-in lock.
  if (await lockedUntil(db, user.user_name, ctx.now)) throw new ApiError(Status.TOO_MANY_REQUESTS, messages.auth.locked);
  if (!(await verifyPassword(oldPassword, user.password_hash))) {
    const nowLocked = await recordFailure(ctx, user.user_name, session.homeTenantId);
    throw fieldError("oldPassword", nowLocked ? messages.auth.oldPasswordLocked : messages.auth.oldPasswordWrong);
  }
  const problem = passwordProblem(newPassword, user.user_name);
  if (problem) throw fieldError("newPassword", problem);
  if (oldPassword === newPassword) throw fieldError("newPassword", messages.auth.samePassword);

  const hash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("user")
      .set({ password_hash: hash, pwd_security_level: securityLevel(newPassword), updated_at: ctx.now, updated_by: session.userId })
      .where("tenant_id", "=", session.homeTenantId)
      .where("id", "=", session.userId)
      .execute();
    // Other signed-in terminals must sign in again with the new password.
    await trx
      .updateTable("session")
      .set({ revoked_at: ctx.now })
      .where("tenant_id", "=", session.homeTenantId)
      .where("user_id", "=", session.userId)
      .where("token_hash", "!=", session.tokenHash)
      .where("revoked_at", "is", null)
      .execute();
  });
}
