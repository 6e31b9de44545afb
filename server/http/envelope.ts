/** Envelope statuses of the API contract (ARCHITECTURE.md, "API contract"). */
export const Status = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  ILLEGAL_TOKEN: 50008,
  SIGNED_IN_ELSEWHERE: 50012,
  TOKEN_EXPIRED: 50014,
} as const;

export type StatusCode = (typeof Status)[keyof typeof Status];

export interface Envelope<T = unknown> {
  status: number;
  message: string;
  data: T;
}

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: StatusCode,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export function fieldError(field: string, message: string): ApiError {
  return new ApiError(Status.BAD_REQUEST, message, { fieldErrors: { [field]: [message] } });
}

/** The token statuses map to 401 on the wire; the rest are HTTP statuses already. */
export function httpStatusOf(status: number): number {
  if (status === Status.ILLEGAL_TOKEN || status === Status.SIGNED_IN_ELSEWHERE || status === Status.TOKEN_EXPIRED) {
    return 401;
  }
  return status >= 200 && status < 600 ? status : 500;
}

/** The JSON of each envelope made here, so the server can write it without reading it back out of the body stream. */
const envelopeTexts = new WeakMap<Response, string>();

export function envelopeText(response: Response): string | undefined {
  return envelopeTexts.get(response);
}

/** `headers` are the request's own response headers (Set-Cookie), so they are completed in place. */
export function envelopeResponse(body: Envelope, headers = new Headers()): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  const text = JSON.stringify(body);
  const response = new Response(text, { status: httpStatusOf(body.status), headers });
  envelopeTexts.set(response, text);
  return response;
}
