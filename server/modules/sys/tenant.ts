import QRCode from "qrcode";
import { tenant as tenantDef } from "../../../resources/sys/tenant";
import { resourceKey } from "../../../resources/define";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { newId } from "../../db";
import { DEFAULT_TENANT_ID } from "../seed";
import { endpoint, publicAccess, sessionAccess, type Endpoint, type RequestContext, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { authenticate, endSessions, isSuper } from "../auth/session";
import type { ResourceService } from "../resource/engine";
import { writeTenantRows } from "../resource/tenantRows";
import { resources } from "../../../resources/index";
import { messages } from "../messages";

export const tenantMessages = {
  disableOwn: "不能停用本人所在的租户",
  deleteOwn: "不能删除本人所在的租户",
  deleteDefault: "不能删除默认租户",
  hasUsers: "租户下还有用户，不能删除",
  notFound: "租户不存在",
  disabled: "租户已停用",
  superOnly: "只有超级管理员可以切换租户",
};

export const ROOT_ORG_TYPE = "org";
export const TENANT_ADMIN_ROLE = { role_code: "admin", role_name: "管理员", role_type: "admin" } as const;

export const tenantService: ResourceService = {
  /**
   * A new tenant starts with its root org and an `admin` role, so its first user can be created and manage the rest,
   * and with the rows the declarations give every tenant (its top-up channels).
   */
  async afterCreate(ctx, trx, record) {
    const audit = { created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId };
    await trx
      .insertInto("org")
      .values({ tenant_id: record.id, id: newId(), parent_id: null, org_name: record.tenant_name, org_type: ROOT_ORG_TYPE, sort: 0, status: 1, ...audit })
      .execute();
    await trx
      .insertInto("role")
      .values({ tenant_id: record.id, id: newId(), ...TENANT_ADMIN_ROLE, status: 1, ...audit })
      .execute();
    await writeTenantRows(trx, record.id as number, ctx.now, ctx.session.userId);
  },
  beforeUpdate(ctx, values, current) {
    if (values.status !== undefined && String(values.status) !== "1" && current.id === ctx.session.homeTenantId) {
      throw fieldError("status", tenantMessages.disableOwn);
    }
  },
  async afterUpdate(ctx, trx, row, current) {
    if (Number(row.status) !== 1) await endSessions(trx, ctx.now, current.id as number);
  },
  async beforeDelete(ctx, current) {
    if (current.id === ctx.session.homeTenantId) throw new ApiError(Status.CONFLICT, tenantMessages.deleteOwn);
    if (current.id === DEFAULT_TENANT_ID) throw new ApiError(Status.CONFLICT, tenantMessages.deleteDefault);
    const user = await ctx.services.db.selectFrom("user").select("id").where("tenant_id", "=", current.id as number).limit(1).executeTakeFirst();
    if (user) throw new ApiError(Status.CONFLICT, tenantMessages.hasUsers);
  },
  /** What a tenant without users still holds from its creation (orgs, roles and their menus, its starting rows); any other data refuses the delete. */
  async onDelete(_ctx, trx, current) {
    for (const table of ["role_menu", "role", ...resources.filter((r) => r.tenantRows?.length).map((r) => r.table)]) {
      await trx.deleteFrom(table).where("tenant_id", "=", current.id).execute();
    }
    await trx.deleteFrom("org").where("tenant_id", "=", current.id).execute();
    await trx.updateTable("session").set({ acting_tenant_id: null }).where("acting_tenant_id", "=", current.id).execute();
  },
};

/** Where the mini-program QR code leads: the canteen mini-program opened for this tenant. */
export function weappUrl(tenantCode: string): string {
  return `weapp://canteen?tenant=${encodeURIComponent(tenantCode)}`;
}

/** The spec's `?Authorization={token}`: an image source cannot send a header, so the token may come in the query. */
async function authenticateWithQueryToken(ctx: RequestContext, token: string | undefined) {
  const bare = token?.replace(/^Bearer\s+/i, "").trim();
  if (!bare) return authenticate(ctx);
  // Our tokens are base64url; anything else (non-ASCII, NUL) could not even be put in a header.
  if (!/^[A-Za-z0-9_-]+$/.test(bare)) throw new ApiError(Status.UNAUTHORIZED, messages.auth.illegalToken);
  const request = new Request(ctx.request.url, { headers: { Authorization: `Bearer ${bare}` } });
  return authenticate({ ...ctx, request });
}

export const tenantEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/tenant/getWeappQRCode",
    summary: "当前租户小程序二维码（PNG 图片）；令牌可放在 Authorization 查询参数中",
    access: publicAccess,
    query: z.object({ Authorization: z.string().max(500).optional() }),
    handle: async (ctx, { query }) => {
      const session = await authenticateWithQueryToken(ctx, query.Authorization);
      const tenant = await ctx.services.db
        .selectFrom("tenant")
        .select(["tenant_code", "tenant_name"])
        .where("id", "=", session.tenantId)
        .executeTakeFirst();
      if (!tenant) throw new ApiError(Status.NOT_FOUND, tenantMessages.notFound);
      const png = await QRCode.toBuffer(weappUrl(tenant.tenant_code), { type: "png", width: 320, margin: 2, errorCorrectionLevel: "M" });
      return new Response(new Uint8Array(png), {
        headers: {
          "Content-Type": "image/png",
          "Content-Disposition": `inline; filename="weapp-${tenant.tenant_code}.png"; filename*=UTF-8''${encodeURIComponent(`${tenant.tenant_name}-小程序码.png`)}`,
          "Cache-Control": "private, no-store",
        },
      });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/sys/tenant/switch",
    summary: "超级管理员进入某租户工作：{ tenantId }；切回本人租户即恢复",
    access: sessionAccess,
    body: z.object({ tenantId: recordId("租户", "请选择租户") }),
    handle: async (ctx, { body }) => {
      const { session } = ctx as SessionContext;
      if (!isSuper(session)) throw new ApiError(Status.FORBIDDEN, tenantMessages.superOnly);
      const tenant = await ctx.services.db
        .selectFrom("tenant")
        .select(["id", "tenant_name", "status"])
        .where("id", "=", body.tenantId)
        .executeTakeFirst();
      if (!tenant) throw new ApiError(Status.NOT_FOUND, tenantMessages.notFound);
      if (tenant.status !== 1) throw fieldError("tenantId", tenantMessages.disabled);
      await ctx.services.db
        .updateTable("session")
        .set({ acting_tenant_id: tenant.id === session.homeTenantId ? null : tenant.id })
        .where("token_hash", "=", session.tokenHash)
        .execute();
      return { tenantId: tenant.id, tenantName: tenant.tenant_name };
    },
  }),
].map((e) => ({ ...e, resource: resourceKey(tenantDef) }));
