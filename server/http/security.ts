import { randomBytes } from "node:crypto";
import { sameSiteLocation } from "../../resources/redirect";

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * Headers every response carries. A page's CSP allows only the scripts that carry its request's nonce; a response
 * without a nonce (API, files) runs no inline script at all.
 */
export function applySecurityHeaders(headers: Headers, nonce: string | undefined, https: boolean, frameHosts: string[] = []) {
  // A response with a stricter policy of its own (a stored file: `default-src 'none'; sandbox`) keeps it.
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, frameHosts));
  // What a signed-in user saw must not come back from a shared terminal's cache; only static assets opt in.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "SAMEORIGIN");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (https) headers.set("Strict-Transport-Security", "max-age=31536000");
  headers.delete("X-Powered-By");
}

function contentSecurityPolicy(nonce: string | undefined, frameHosts: string[]): string {
  // Hosts an administrator allowed for /iframe/reportview (IFRAME_ALLOWED_HOSTS) may be framed, nothing else.
  const frameSources = ["'self'", ...frameHosts.flatMap((host) => [`https://${host}`, `http://${host}`])].join(" ");
  return [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    `frame-src ${frameSources}`,
  ].join("; ");
}

/**
 * A state-changing request from another site is refused. Browsers send Origin on cross-site POSTs
 * (and Sec-Fetch-Site where they support it); clients without a browser send neither.
 */
export function isCrossSite(request: Request, mutates = false): boolean {
  const safeMethod = request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS";
  if (safeMethod && !mutates) return false;
  if (safeMethod) {
    // A link on another site opening `…/delete?id=` sends no Origin; Sec-Fetch-Site or the Referer tell.
    const site = request.headers.get("Sec-Fetch-Site");
    if (site === "cross-site" || site === "same-site") return true;
    const referer = request.headers.get("Referer");
    return !!referer && !referer.startsWith(new URL(request.url).origin + "/");
  }
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite === "cross-site") return true;
  const origin = request.headers.get("Origin");
  if (!origin || origin === "null") return origin === "null";
  return origin !== new URL(request.url).origin;
}

export function plainTextResponse(status: number, text: string, headers?: HeadersInit): Response {
  const response = new Response(text, { status, headers });
  response.headers.set("Content-Type", "text/plain; charset=utf-8");
  return response;
}

const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * What a page cannot answer is refused before React Router sees it, as a client error rather than a logged 500:
 * other methods (405), an address that does not decode (400), an action posted as anything but a form (400),
 * and an action from another site (403; React Router would log it as an error before refusing it).
 */
export function refusedPageRequest(request: Request, url: URL): Response | null {
  if (!PAGE_METHODS.has(request.method)) return plainTextResponse(405, "不支持该请求方法", { Allow: "GET, HEAD, POST" });
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return plainTextResponse(400, "请求地址无效");
  }
  if (request.method !== "POST") return null;
  if (isCrossSite(request)) return plainTextResponse(403, "拒绝来自其他站点的请求");
  if (!FORM_TYPES.test(request.headers.get("Content-Type") ?? "")) return plainTextResponse(400, "请以表单提交");
  return null;
}

/** Every redirect the server answers stays on this site, whichever handler made it. */
export function keepRedirectOnSite(headers: Headers, origin: string) {
  const location = headers.get("Location");
  if (location !== null) headers.set("Location", sameSiteLocation(location, origin));
}
