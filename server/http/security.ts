import { randomBytes } from "node:crypto";

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * Headers every response carries. A page's CSP allows only the scripts that carry its request's nonce; a response
 * without a nonce (API, files) runs no inline script at all.
 */
export function applySecurityHeaders(headers: Headers, nonce: string | undefined, https: boolean, frameHosts: string[] = []) {
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, frameHosts));
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
