import type { z } from "zod";
import type { Config } from "../config";
import type { Db, Dialect } from "../db";

export interface AuthSession {
  tokenHash: string;
  /** Present when the caller sent the token in an Authorization header (devices keep it themselves). */
  bearerToken: string | null;
  userId: number;
  /** The tenant the user belongs to. */
  homeTenantId: number;
  /** The tenant the request works in: the home tenant, or the one a super admin switched to. */
  tenantId: number;
  userName: string;
  roles: string[];
  roleTypes: string[];
  pwdSecurityLevel: number;
}

export interface ApiServices {
  db: Db;
  dialect: Dialect;
  config: Config;
  /** Makes the text of a new captcha; tests pass a fixed one. */
  captchaText?: () => string;
}

export interface RequestContext {
  services: ApiServices;
  request: Request;
  url: URL;
  ip: string;
  userAgent: string | null;
  now: number;
  session: AuthSession | null;
  /** Headers the handler adds to its response (Set-Cookie). */
  responseHeaders: Headers;
}

export interface SessionContext extends RequestContext {
  session: AuthSession;
}

export type Access =
  | { kind: "public" }
  /** Any signed-in user. `beforePasswordChange` lets a first-login user through. */
  | { kind: "session"; beforePasswordChange?: boolean }
  | { kind: "permission"; code: string };

type Input<Q, B> = { query: Q; body: B };

export interface Endpoint<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: "GET" | "POST";
  path: string;
  summary: string;
  access: Access;
  /** A GET that changes data (spec: `delete?id=`): refused when it comes from another site. */
  mutates?: boolean;
  /** The handler checks the request's Origin itself (the ticket exchange admits only the ticket's host). */
  checksOrigin?: boolean;
  /** The handler reads the body itself (multipart uploads). */
  rawBody?: boolean;
  /**
   * Hand-written in place of the action a declaration generates at this path (decision 062). Without it, a path two
   * endpoints claim stops the start; with it, a path no generated action has does too.
   */
  replacesGenerated?: true;
  /** The resource declaration it serves, if generated from one. */
  resource?: string;
  query?: Q;
  body?: B;
  handle(
    ctx: RequestContext & { session: AuthSession | null },
    input: Input<z.output<Q>, z.output<B>>,
  ): unknown | Promise<unknown>;
}

export const publicAccess: Access = { kind: "public" };
export const sessionAccess: Access = { kind: "session" };
export const permission = (code: string): Access => ({ kind: "permission", code });

/** Typed helper: the handler's input follows the declared schemas. */
export function endpoint<Q extends z.ZodType = z.ZodObject, B extends z.ZodType = z.ZodObject>(
  definition: Endpoint<Q, B>,
): Endpoint {
  return definition as unknown as Endpoint;
}
