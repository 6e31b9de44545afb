import type { AppLoadContext } from "react-router";

export interface ApiResult<T> {
  status: number;
  message: string;
  data: T;
  /** Set-Cookie headers of the API response (sign-in and sign-out set the token cookie). */
  setCookies: string[];
}

export interface ApiCallOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** A body sent as it is (an uploaded spreadsheet), with its type. */
  rawBody?: { bytes: Uint8Array<ArrayBuffer>; type: string };
  headers?: Record<string, string>;
}

/** Calls the canteen API as the signed-in user of `request` (its cookie goes along). */
export async function apiCall<T = unknown>(
  request: Request,
  context: AppLoadContext,
  method: "GET" | "POST",
  path: string,
  options: ApiCallOptions = {},
): Promise<ApiResult<T>> {
  const url = new URL(path, request.url);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(key, String(value));
  }
  const headers = new Headers({ Accept: "application/json" });
  for (const name of ["Cookie", "User-Agent", "Accept-Language"]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.rawBody) {
    headers.set("Content-Type", options.rawBody.type);
    body = options.rawBody.bytes;
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  const response = await context.apiFetch(new Request(url, { method, headers, body }));
  const setCookies = response.headers.getSetCookie();
  try {
    const text = context.envelopeText?.(response);
    const envelope = (text === undefined ? await response.json() : JSON.parse(text)) as { status: number; message: string; data: T };
    return { status: envelope.status, message: envelope.message, data: envelope.data, setCookies };
  } catch {
    return { status: response.status, message: response.statusText || "Error", data: null as T, setCookies };
  }
}

export function headersWithCookies(setCookies: string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
