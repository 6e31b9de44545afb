import { redirect, type AppLoadContext } from "react-router";
import { safeRedirect } from "../../resources/redirect";
import { apiCall, headersWithCookies } from "./api.server";
import { flashCookie, hasTokenCookie } from "./session.server";

const crossSiteRefused = "来自其他站点的登录链接已拒绝，请直接登录";

/**
 * A page opened by a `_blank` menu arrives with `?ticket=…`: the ticket becomes this browser's session cookie and
 * the address loses it (decision 011). A ticket that another site's link carried is not exchanged, and one that
 * would replace another user's session is refused by the API; a spent or expired ticket leads to sign-in.
 */
export async function exchangeTicket(request: Request, context: AppLoadContext): Promise<void> {
  const url = new URL(request.url);
  const ticket = url.searchParams.get("ticket");
  if (!ticket || request.method !== "GET") return;
  url.searchParams.delete("ticket");
  const target = safeRedirect(url.pathname + url.search);
  const site = request.headers.get("Sec-Fetch-Site");
  const result =
    site === "cross-site" || site === "same-site"
      ? { status: 403, message: crossSiteRefused, setCookies: [] }
      : await apiCall(request, context, "POST", "/api/v1/auth/ticket/exchange", { body: { ticket }, headers: { Origin: url.origin } });
  if (result.status === 200) throw redirect(target, { headers: headersWithCookies(result.setCookies) });
  const headers = new Headers({ "Set-Cookie": flashCookie(result.message || "Error") });
  if (hasTokenCookie(request)) throw redirect(target, { headers });
  throw redirect(`/login?redirect=${encodeURIComponent(target)}`, { headers });
}
