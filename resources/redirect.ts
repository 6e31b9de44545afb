const BASE = "http://same-site.invalid";

/**
 * The one rule for every redirect target (decision 011). The target is resolved as a browser resolves a Location
 * (tabs and newlines dropped, `\` read as `/`, dot segments removed) and kept only when it stays on this site;
 * what comes back is a path, never an address another host could be read from.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  // `/.//evil.example` resolves to `//evil.example`, which a browser would read as another host.
  return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
}

/** A Location header as a same-site path: an absolute address of this origin loses its origin, any other goes home. */
export function sameSiteLocation(location: string, origin: string): string {
  return safeRedirect(location.startsWith(`${origin}/`) ? location.slice(origin.length) : location);
}
