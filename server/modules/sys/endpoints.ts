import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { checkDatabase } from "../../db";
import { endpoint, publicAccess, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { tenant as tenantResource } from "../../../resources/sys/tenant";
import { isSuper } from "../auth/session";
import { toRecord } from "../resource/rows";
import { sysRuleEndpoints } from "./services";

export const sysEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/healthz",
    summary: "健康检查：数据库可用时返回 200",
    access: publicAccess,
    handle: async (ctx) => {
      try {
        await checkDatabase(ctx.services.db);
        return Response.json({ status: 200, message: "ok", data: { database: "ok" } }, { headers: { "Cache-Control": "no-store" } });
      } catch {
        return Response.json({ status: 503, message: "数据库不可用", data: { database: "error" } }, { status: 503 });
      }
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/sys/dashboard/overview",
    summary: "首页概览：本租户的用户、角色、机构数，本人的角色名称，本人最近的登录记录",
    access: { kind: "session" },
    handle: async (ctx) => {
      const { session } = ctx as SessionContext;
      const { db } = ctx.services;
      const count = (table: "user" | "role" | "org") =>
        db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("tenant_id", "=", session.tenantId)
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      const [userCount, roleCount, orgCount, roles, recentLogins] = await Promise.all([
        count("user"),
        count("role"),
        count("org"),
        // The roles the session holds (their codes), by the names a user reads.
        db
          .selectFrom("user_role")
          .innerJoin("role", (join) => join.onRef("role.tenant_id", "=", "user_role.tenant_id").onRef("role.id", "=", "user_role.role_id"))
          .select("role.role_name")
          .where("user_role.tenant_id", "=", session.homeTenantId)
          .where("user_role.user_id", "=", session.userId)
          .where("role.role_code", "in", session.roles.length ? session.roles : [""])
          .orderBy("role.role_name")
          .execute(),
        db
          .selectFrom("login_log")
          .select(["created_at", "ip", "result", "message"])
          .where("tenant_id", "=", session.tenantId)
          .where("user_name", "=", session.userName)
          .orderBy("created_at", "desc")
          .limit(5)
          .execute(),
      ]);
      return {
        userCount,
        roleCount,
        orgCount,
        roleNames: roles.map((r) => r.role_name),
        recentLogins: recentLogins.map((l) => ({ time: l.created_at, ip: l.ip, result: l.result, message: l.message })),
      };
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/sys/tenant/getInfo",
    replacesGenerated: true,
    summary: "租户信息；不带 id 时为当前用户的租户。只有超级管理员可读其他租户",
    access: { kind: "session" },
    query: z.object({ id: recordId().optional() }),
    handle: async (ctx, { query }) => {
      const { session } = ctx as SessionContext;
      const id = query.id ?? session.tenantId;
      if (id !== session.tenantId && !isSuper(session)) throw new ApiError(Status.NOT_FOUND, "租户不存在");
      const tenant = await ctx.services.db
        .selectFrom("tenant")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      if (!tenant) throw new ApiError(Status.NOT_FOUND, "租户不存在");
      // The whole record (the edit screen reads it) plus tenantId, which the shell's current-tenant call reads.
      return { ...toRecord(tenantResource, tenant), tenantId: tenant.id };
    },
  }),
  ...sysRuleEndpoints,
];
