import { safeRedirect } from "../../../resources/redirect";
import { z } from "../../../resources/z";
import { endpoint, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";

export const imageObjEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/imageObj/findLogoImage",
    summary: "当前租户最新的已启用标志图片地址；没有时为空字符串（前端使用默认标志）",
    access: { kind: "session", beforePasswordChange: true },
    handle: async (ctx) => {
      const { session } = ctx as SessionContext;
      const logo = await ctx.services.db
        .selectFrom("image_obj")
        .select("image")
        .where("tenant_id", "=", session.tenantId)
        .where("image_type", "=", "logo")
        .where("status", "=", 1)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return logo?.image ?? "";
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/sys/iframe/resolve",
    summary: "内嵌页面地址检查：只允许本站路径或管理员在 IFRAME_ALLOWED_HOSTS 中允许的主机",
    access: { kind: "session" },
    query: z.object({ url: z.string().min(1, "缺少 url").max(2000) }),
    handle: (ctx, { query }) => {
      const src = iframeSource(query.url, ctx.url.origin, ctx.services.config.IFRAME_ALLOWED_HOSTS);
      if (!src) throw new ApiError(Status.BAD_REQUEST, "不允许内嵌该地址");
      return { src };
    },
  }),
];

/** A same-site path stays relative; an absolute http(s) URL is kept only when its host is allowed. */
export function iframeSource(url: string, origin: string, allowedHosts: string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.origin === origin) {
    if (parsed.pathname.startsWith("/iframe/")) return null;
    return safeRedirect(parsed.pathname + parsed.search + parsed.hash, "") || null;
  }
  return allowedHosts.includes(parsed.host) || allowedHosts.includes(parsed.hostname) ? parsed.href : null;
}
