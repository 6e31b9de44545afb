import { hashPassword } from "../../auth/password";
import { newId, type Db } from "../../db";
import type { NewUser } from "../../db/schema";
import { fieldError } from "../../http/envelope";

export interface NewUserAccount {
  tenantId: number;
  userName: string;
  password: string;
  realName?: string | null;
  orgId?: number | null;
  roleIds?: number[];
  /** 0 makes the user change the password at the first sign-in (the default for accounts made by others). */
  pwdSecurityLevel?: number;
  status?: number;
  createdBy?: number | null;
  /** Profile columns set at creation (user code, phone, …). */
  profile?: Partial<Pick<NewUser, "user_code" | "phone" | "email" | "sex" | "avatar" | "remark" | "navigation_mode">>;
  /** Runs inside the transaction after the user and its roles are written (operation log, links). */
  afterInsert?: (trx: Db, id: number) => Promise<void>;
}

/** Creates a user with its global sign-in name and roles in one transaction. */
export async function createUserAccount(db: Db, input: NewUserAccount): Promise<number> {
  const taken = await db.selectFrom("login_name").select("user_id").where("user_name", "=", input.userName).executeTakeFirst();
  if (taken) throw fieldError("userName", "用户名已存在");
  const id = newId();
  const now = Date.now();
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("user")
      .values({
        tenant_id: input.tenantId,
        id,
        user_name: input.userName,
        password_hash: passwordHash,
        pwd_security_level: input.pwdSecurityLevel ?? 0,
        real_name: input.realName ?? null,
        org_id: input.orgId ?? null,
        navigation_mode: "top",
        ...input.profile,
        status: input.status ?? 1,
        created_at: now,
        created_by: input.createdBy ?? null,
        updated_at: now,
        updated_by: input.createdBy ?? null,
      })
      .execute();
    await trx.insertInto("login_name").values({ user_name: input.userName, tenant_id: input.tenantId, user_id: id }).execute();
    for (const roleId of input.roleIds ?? []) {
      await trx.insertInto("user_role").values({ tenant_id: input.tenantId, user_id: id, role_id: roleId }).execute();
    }
    await input.afterInsert?.(trx, id);
  });
  return id;
}

