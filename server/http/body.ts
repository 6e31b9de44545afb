import { messages } from "../modules/messages";
import { ApiError, Status } from "./envelope";

/** A JSON body or a page's form: far above any real one (a role's thousand menu ids are about 20 kB). */
export const BODY_LIMIT = 1024 * 1024;

/** How long the rest of a body refused part way (413) may keep coming before its connection is closed anyway. */
export const REFUSED_BODY_LINGER_MS = 5000;
/**
 * After a refusal (413), how long the client may send nothing before its connection is closed (nginx's
 * lingering_timeout): a client still sending keeps it open, one that stopped (or never meant to send) is not waited for.
 */
export const REFUSED_BODY_QUIET_MS = 1000;
/** After a refusal (413), at most this much more of the body is read and dropped (the largest upload allowed, 100 MB). */
export const REFUSED_BODY_LINGER_BYTES = 100 * 1024 * 1024;

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The body's bytes, refused with a 413 as soon as it passes `limit`: a declared length is refused before a byte is
 * read, a streamed one when the reading passes the limit, so a 60 MB body never sits in memory.
 */
export async function readBody(request: Request, limit = BODY_LIMIT): Promise<Uint8Array<ArrayBuffer>> {
  refuseDeclaredOversize(request, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      void reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A body declared larger than the limit is refused before anything else, even before the caller is known. */
export function refuseDeclaredOversize(request: Request, limit = BODY_LIMIT) {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) throw tooLarge(limit);
}

function tooLarge(limit: number): ApiError {
  return new ApiError(Status.PAYLOAD_TOO_LARGE, messages.bodyTooLarge(limit));
}

/** JSON, or plain text as fetch() labels a string body it is given without a type. */
const isJsonType = (type: string) => /^(application\/([\w.+-]+\+)?json|text\/plain)\s*(;|$)/i.test(type);

/**
 * A JSON body: empty is `undefined`; another declared type, bad JSON or bad UTF-8 is a 400. Keys that would reach
 * an object's prototype (`__proto__`, `constructor`, `prototype`) are dropped as the text is parsed.
 */
export async function readJson(request: Request): Promise<unknown> {
  const bytes = await readBody(request);
  const type = request.headers.get("Content-Type");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(Status.BAD_REQUEST, messages.badJson);
  }
  if (!text.trim()) return undefined;
  if (type && !isJsonType(type)) throw new ApiError(Status.BAD_REQUEST, messages.notJson);
  try {
    return JSON.parse(text, (key, value) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
  } catch {
    throw new ApiError(Status.BAD_REQUEST, messages.badJson);
  }
}

/** Query parameters as an object, each repeated one as a list; prototype keys are dropped as in bodies. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const values = params.getAll(key);
    result[key] = values.length > 1 ? values : values[0];
  }
  return result;
}

/** A form's content type: what a page's action can read. */
export function isFormType(type: string | null): boolean {
  return /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type ?? "") || /^multipart\/form-data\s*;.*boundary=/i.test(type ?? "");
}

/**
 * A page's POST, read once within the limit and checked to be a form its action can read: a bad one is answered
 * here (413, 400) rather than failing inside the action as a server error.
 */
export async function checkedFormPost(request: Request): Promise<Request | Response> {
  const plain = (status: number, text: string) =>
    new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...(status === 413 ? { Connection: "close" } : {}) } });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBody(request);
  } catch (error) {
    if (error instanceof ApiError) return plain(error.status, error.message);
    throw error;
  }
  const type = request.headers.get("Content-Type");
  if (bytes.length > 0 || type) {
    if (!isFormType(type)) return plain(400, messages.notForm);
    try {
      await new Response(bytes, { headers: { "Content-Type": type as string } }).formData();
    } catch {
      return plain(400, messages.notForm);
    }
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal });
}
