import { createHash, randomBytes } from "node:crypto";
import { readCookie, TOKEN_COOKIE } from "../http/cookies";

/** 256 random bits; only the SHA-256 of a token is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface TokenSource {
  token: string;
  from: "header" | "cookie";
}

export function tokenFrom(request: Request): TokenSource | null {
  const header = request.headers.get("Authorization");
  if (header) {
    const token = header.replace(/^Bearer\s+/i, "").trim();
    if (token) return { token, from: "header" };
  }
  const cookie = readCookie(request, TOKEN_COOKIE);
  return cookie ? { token: cookie, from: "cookie" } : null;
}
