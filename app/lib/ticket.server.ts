import { redirect, type AppLoadContext } from "react-router";
import { apiCall, headersWithCookies } from "./api.server";
import { flashCookie, hasTokenCookie } from "./session.server";

/**
 * A page opened by a `_blank` menu arrives with `?ticket=…`: the ticket becomes this browser's session cookie and
 * the address loses it. A spent or expired ticket leads to sign-in.
 */
export async function exchangeTicket(request: Request, context: AppLoadContext): Promise<void> {
  const url = new URL(request.url);
  const ticket = url.searchParams.get("ticket");
  if (!ticket || request.method !== "GET") return;
  url.searchParams.delete("ticket");
  const target = url.pathname + url.search;
  const result = await apiCall(request, context, "POST", "/api/v1/auth/ticket/exchange", { body: { ticket } });
  if (result.status === 200) throw redirect(target, { headers: headersWithCookies(result.setCookies) });
  if (hasTokenCookie(request)) throw redirect(target);
  const headers = new Headers({ "Set-Cookie": flashCookie(result.message || "Error") });
  throw redirect(`/login?redirect=${encodeURIComponent(target)}`, { headers });
}
