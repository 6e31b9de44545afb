import { ZodError } from "zod";
import { findResource } from "../../resources/index";
import { isSubjectless, z } from "../../resources/z";
import { allowLoginAttempt } from "../auth/rateLimit";
import { authenticate, isAdmin } from "../modules/auth/session";
import { serverModules } from "../modules/index";
import { moduleEndpoints, paymentHooksOf, type ServerModule } from "../modules/manifest";
import { generatedEndpoints } from "../modules/resource/registry";
import { installPaymentHooks } from "../modules/zhct/payments";
import { messages } from "../modules/messages";
import { permissionCodesOf } from "../modules/auth/shellCache";
import { tokenFrom } from "../auth/tokens";
import { databaseFault, faultMessage, logDatabaseFault } from "../db/faults";
import type { ApiServices, AuthSession, Endpoint, RequestContext } from "./endpoint";
import { ApiError, envelopeResponse, Status, type FieldErrors } from "./envelope";
import { isCrossSite } from "./security";
import { readJson, refuseDeclaredOversize, searchParamsToObject } from "./body";
import { isStorable } from "../../resources/schemas";

/** The query of an endpoint that declares none: made once, not per request (zod compiles each schema it first parses with). */
const NO_QUERY = z.object({});

/**
 * The API calls one page request makes in-process (user info, menus, a list, its relation options…) carry the same
 * token; they share one authentication. A call that may change data (any POST, a `delete?id=`) clears what is
 * shared, before and after it, so a sign-out, password change or tenant switch is seen by the calls that follow.
 */
export class CallScope {
  readonly sessions = new Map<string, Promise<AuthSession>>();
}

export interface Api {
  endpoints: Endpoint[];
  handle(request: Request, clientAddress: string, scope?: CallScope): Promise<Response>;
  openapi(): unknown;
}

/** Beyond these, a body with thousands of bad fields would be answered with thousands of messages. */
const LISTED_FIELDS = 20;

/** Field errors keyed by the field's path; the request as a whole (unknown keys, a body that is not an object) is `_`. */
function zodFieldErrors(error: ZodError): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    if (!(key in fieldErrors) && Object.keys(fieldErrors).length >= LISTED_FIELDS) continue;
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/** The Chinese label of a field of the resource an API path belongs to (`/api/v1/{module}/{entity}/…`). */
function labelOf(pathname: string, name: string, endpoint?: Endpoint): string | undefined {
  const [, , module, entity] = pathname.split("/").slice(1);
  return findResource(`${module}/${entity}`)?.fields.find((f) => f.name === name)?.label ?? describedAs(endpoint, name);
}

/** A hand-written endpoint's own parameter, named by its schema's description (`.describe("关键字")`). */
function describedAs(endpoint: Endpoint | undefined, name: string): string | undefined {
  for (const schema of [endpoint?.query, endpoint?.body]) {
    const field = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[name] : undefined;
    if (field?.description) return field.description;
  }
  return undefined;
}

/** The first problem as a sentence: the field by its Chinese label where a declaration has one. */
function validationMessage(pathname: string, fieldErrors: FieldErrors, endpoint: Endpoint): string {
  const [key, [first]] = Object.entries(fieldErrors)[0];
  const name = key.split(".").pop() as string;
  const label = labelOf(pathname, name, endpoint);
  if (key === "_" || !isSubjectless(first)) return `${messages.validation}：${first}`;
  return `${messages.validation}：${label ?? key} ${first}`;
}

/**
 * The first text in a body or query that no column can store (NUL, a lone surrogate), as a field error: checked
 * once here for every endpoint, hand-written ones included, before any handler sees it.
 */
function unstorableText(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return isStorable(value) ? null : path;
  if (value === null || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorable(key)) return [...path, key.replace(/[^\x20-\x7e]/g, "?")];
    const found = unstorableText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

function refuseUnstorable(pathname: string, input: unknown, endpoint: Endpoint) {
  const path = unstorableText(input);
  if (!path) return;
  const key = path.join(".") || "_";
  const name = labelOf(pathname, path[path.length - 1] ?? "", endpoint) ?? (key === "_" ? "请求体" : key);
  throw new ApiError(Status.BAD_REQUEST, `${messages.validation}：${messages.unstorable(name)}`, {
    fieldErrors: { [key]: [messages.unstorable(name)] },
  });
}

/** The client went away (a slow terminal gave up): nobody is there to answer, and the server did nothing wrong. */
function isAbort(request: Request, error: unknown): boolean {
  return request.signal.aborted || (error instanceof Error && (error.name === "AbortError" || (error as { code?: string }).code === "ECONNRESET"));
}

/**
 * The API of the modules, in their order (decision 062): a path two of them claim stops here, at start. The modules'
 * payment hooks are put in their written order here too, not by importing the files that hold them.
 */
export function createApi(services: ApiServices, modules: readonly ServerModule[] = serverModules): Api {
  const routes = new Map(moduleEndpoints(modules, generatedEndpoints).map((e) => [`${e.method} ${e.path}`, e]));
  installPaymentHooks(paymentHooksOf(modules));
  const endpoints = [...routes.values()];

  function authenticateIn(ctx: RequestContext, endpoint: Endpoint, scope: CallScope | undefined): Promise<AuthSession> {
    const writes = ctx.request.method !== "GET" || endpoint.mutates;
    if (!scope || writes) {
      scope?.sessions.clear();
      return authenticate(ctx);
    }
    const source = tokenFrom(ctx.request);
    const key = source ? `${source.from} ${source.token}` : "";
    let session = scope.sessions.get(key);
    if (!session) scope.sessions.set(key, (session = authenticate(ctx)));
    return session;
  }

  async function run(ctx: RequestContext, endpoint: Endpoint, scope: CallScope | undefined): Promise<unknown> {
    if (!endpoint.rawBody) refuseDeclaredOversize(ctx.request);
    if (!endpoint.checksOrigin && isCrossSite(ctx.request, endpoint.mutates)) throw new ApiError(Status.FORBIDDEN, messages.crossSite);
    if (endpoint.path === "/login" && !(await allowLoginAttempt(services.db, ctx.ip, services.config.LOGIN_RATE_PER_MINUTE, ctx.now))) {
      throw new ApiError(Status.TOO_MANY_REQUESTS, messages.auth.tooManyRequests);
    }
    const { access } = endpoint;
    if (access.kind !== "public") {
      const session = await authenticateIn(ctx, endpoint, scope);
      ctx.session = session;
      const allowedBeforeChange = access.kind === "session" && access.beforePasswordChange;
      if (session.pwdSecurityLevel === 0 && !allowedBeforeChange) {
        throw new ApiError(Status.FORBIDDEN, messages.auth.mustChangePassword);
      }
      if (access.kind === "permission" && !isAdmin(session)) {
        const codes = await permissionCodesOf(services.db, session);
        if (!codes.has(access.code)) throw new ApiError(Status.FORBIDDEN, messages.forbidden);
      }
    }
    const rawQuery = searchParamsToObject(ctx.url.searchParams);
    // A token in the query (an image source cannot send a header) that no header could carry is an illegal token.
    if (typeof rawQuery.Authorization === "string" && !isStorable(rawQuery.Authorization)) {
      throw new ApiError(Status.UNAUTHORIZED, messages.auth.illegalToken);
    }
    refuseUnstorable(ctx.url.pathname, rawQuery, endpoint);
    const query = (endpoint.query ?? NO_QUERY).parse(rawQuery);
    let body: unknown = undefined;
    if (endpoint.method === "POST" && !endpoint.rawBody) {
      const raw = await readJson(ctx.request);
      refuseUnstorable(ctx.url.pathname, raw, endpoint);
      body = endpoint.body ? endpoint.body.parse(raw) : raw;
    }
    return endpoint.handle(ctx, { query, body });
  }

  async function handle(request: Request, clientAddress: string, scope?: CallScope): Promise<Response> {
    const url = new URL(request.url);
    const ctx: RequestContext = {
      services,
      request,
      url,
      ip: clientAddress,
      userAgent: request.headers.get("User-Agent"),
      now: Date.now(),
      session: null,
      responseHeaders: new Headers(),
    };
    const endpoint = routes.get(`${request.method === "HEAD" ? "GET" : request.method} ${url.pathname}`);
    if (!endpoint) return envelopeResponse({ status: Status.NOT_FOUND, message: messages.notFound, data: null });
    try {
      const data = await run(ctx, endpoint, scope).finally(() => {
        if (ctx.request.method !== "GET" || endpoint.mutates) scope?.sessions.clear();
      });
      if (data instanceof Response) return data;
      return envelopeResponse({ status: Status.OK, message: messages.ok, data: data ?? null }, ctx.responseHeaders);
    } catch (error) {
      if (error instanceof ApiError) {
        // The rest of a refused body is not read: the connection ends with the answer.
        if (error.status === Status.PAYLOAD_TOO_LARGE) ctx.responseHeaders.set("Connection", "close");
        return envelopeResponse({ status: error.status, message: error.message, data: error.data }, ctx.responseHeaders);
      }
      if (error instanceof ZodError) {
        const fieldErrors = zodFieldErrors(error);
        return envelopeResponse(
          { status: Status.BAD_REQUEST, message: validationMessage(url.pathname, fieldErrors, endpoint), data: { fieldErrors } },
          ctx.responseHeaders,
        );
      }
      const fault = databaseFault(error);
      if (fault) {
        logDatabaseFault(error);
        return envelopeResponse({ status: Status.SERVICE_UNAVAILABLE, message: faultMessage(fault), data: null });
      }
      if (isAbort(request, error)) return envelopeResponse({ status: Status.BAD_REQUEST, message: messages.aborted, data: null });
      console.error(`[api] ${request.method} ${url.pathname}`, error);
      return envelopeResponse({ status: Status.SERVER_ERROR, message: messages.serverError, data: null });
    }
  }

  function openapi() {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const e of endpoints) {
      const querySchema = e.query ? (z.toJSONSchema(e.query, { io: "input", unrepresentable: "any" }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      }) : undefined;
      (paths[e.path] ??= {})[e.method.toLowerCase()] = {
        summary: e.summary,
        security: e.access.kind === "public" ? [] : [{ bearer: [] }, { cookie: [] }],
        ...(e.access.kind === "permission" ? { "x-permission": e.access.code } : {}),
        parameters: Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({
          name,
          in: "query",
          required: querySchema?.required?.includes(name) ?? false,
          schema,
        })),
        ...(e.body
          ? {
              requestBody: {
                content: { "application/json": { schema: z.toJSONSchema(e.body, { io: "input", unrepresentable: "any" }) } },
              },
            }
          : {}),
        responses: { "200": { description: "{ status, message, data } 信封；status 200 为成功" } },
      };
    }
    return {
      openapi: "3.1.0",
      info: { title: "智慧餐厅后台 API", version: "1" },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          cookie: { type: "apiKey", in: "cookie", name: "Admin-Token" },
        },
      },
      paths,
    };
  }

  endpoints.push({
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "本接口契约（由 zod 模式生成）",
    access: { kind: "public" },
    handle: () => Response.json(openapi(), { headers: { "Cache-Control": "no-cache" } }),
  } as Endpoint);
  routes.set("GET /api/v1/openapi.json", endpoints[endpoints.length - 1]);

  return { endpoints, handle, openapi };
}
