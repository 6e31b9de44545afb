import * as http from "node:http";
import type * as net from "node:net";
import type { Duplex } from "node:stream";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { createHeaders, createRequestListener, sendResponse, type ClientAddress } from "@remix-run/node-fetch-server";
import { REFUSED_BODY_LINGER_BYTES, REFUSED_BODY_LINGER_MS, REFUSED_BODY_QUIET_MS } from "./body";
import { messages } from "../modules/messages";
import { envelopeResponse, envelopeText, Status } from "./envelope";
import { wholeBodyOf } from "./wholeBody";

/** The server's one request handler: every HTTP request, as a web Request, with the client's address. */
export type Respond = (request: Request, clientAddress: string) => Promise<Response>;

export interface ListenerOptions {
  /** Take the client's address, scheme and host from X-Forwarded-* (TRUST_PROXY). */
  trustProxy: boolean;
  /** Logs an error the handler threw and makes the response sent for it. */
  onError(error: unknown): Response;
  /** Paths the API serves; their GETs take the short path (see `createListener`). */
  isApiPath(pathname: string): boolean;
  /** Requests answered at once at most; one more is refused with 503 and Retry-After (MAX_REQUESTS_IN_FLIGHT). */
  maxInFlight?: number;
  /** A read (GET, HEAD) not answered within this many milliseconds is answered 503 and Retry-After. */
  readDeadlineMs?: number;
}

/** What a client refused for load is told to wait before it asks again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/** Under saturation a read is answered in this time, or refused (issue 39: no request left hanging past 10 s). */
export const READ_DEADLINE_MS = 8000;

/**
 * The answer to a request refused for load: 503 with Retry-After, the API's envelope for an API client, a page for a
 * browser. It is made here, before the app runs, so it costs nothing of what is scarce.
 */
export function busyResponse(apiClient: boolean): Response {
  const message = messages.busy(BUSY_RETRY_AFTER_SECONDS);
  const headers = { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS), "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  if (apiClient) return envelopeResponse({ status: Status.SERVICE_UNAVAILABLE, message, data: null }, new Headers(headers));
  const page = `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="${BUSY_RETRY_AFTER_SECONDS}"><title>服务繁忙 - 智慧餐厅后台管理</title><style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8f9fa;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#212529}main{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:32px 40px;width:min(420px,90vw);box-sizing:border-box;box-shadow:0 1px 3px rgba(0,0,0,.05)}h1{font-size:20px;margin:0 0 12px}p{margin:0;color:#495057;line-height:1.6}</style></head><body><main><h1>服务繁忙</h1><p>${message}</p></main></body></html>`;
  return new Response(page, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

/**
 * A file of a whole period (an export, a print view) may take longer than a page on a large canteen, and its client
 * waits for it: refusing it at a deadline would make a slow export impossible, not the server less busy.
 */
export function hasNoDeadline(url: URL): boolean {
  return url.pathname.endsWith("/export") || url.pathname.endsWith("/print") || url.searchParams.has("export");
}

const COMPRESSIBLE_RESPONSE = /^(text\/html|application\/json|text\/csv)/;
const gzipped = promisify(gzip);

function acceptsGzip(request: Request): boolean {
  return (request.headers.get("Accept-Encoding") ?? "").includes("gzip");
}

function isCompressible(response: Response): boolean {
  return !response.headers.has("Content-Encoding") && COMPRESSIBLE_RESPONSE.test(response.headers.get("Content-Type") ?? "");
}

function markGzipped(headers: Headers) {
  headers.set("Content-Encoding", "gzip");
  headers.delete("Content-Length");
  headers.append("Vary", "Accept-Encoding");
}

/** Pages and JSON compress about tenfold; slow terminals on slow links feel it most. */
async function compressed(request: Request, response: Response): Promise<Response> {
  if (!response.body || !isCompressible(response) || !acceptsGzip(request)) return response;
  const { headers } = response;
  markGzipped(headers);
  const whole = wholeBodyOf(response);
  if (whole) {
    // In one piece, off the event loop, with its length.
    const zipped = await gzipped(whole);
    headers.set("Content-Length", String(zipped.length));
    return new Response(zipped, { status: response.status, headers });
  }
  const body = response.body.pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Response(body, { status: response.status, headers });
}

function pathnameOf(url: string | undefined): string | null {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return null;
  }
}

/**
 * A 413 ends its connection (`Connection: close`), but only once the rest of the body has been read and dropped, as
 * nginx's lingering close does: a socket closed with unread bytes is reset, and a client that writes its whole body
 * before reading (most scripts and terminals) then gets a write error (EPIPE, ECONNRESET) instead of the answer. The
 * answer's bytes go out at once; only its end waits, for the body's end, for at most REFUSED_BODY_LINGER_MS and
 * REFUSED_BODY_LINGER_BYTES, and no longer than REFUSED_BODY_QUIET_MS of silence (a client that declared 60 MB and
 * sends none of it is not waited for). `lingering` does the same under react-router-serve (server/http/hosted.ts).
 */
function endRefusalAfterBody(req: http.IncomingMessage, res: http.ServerResponse) {
  const end = res.end;
  res.end = function (this: http.ServerResponse, ...args: Parameters<typeof end>) {
    if (res.statusCode !== 413 || req.complete || req.destroyed) return end.apply(this, args);
    let dropped = 0;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      req.off("data", drop).off("end", finish).off("close", finish);
      end.apply(this, args);
    };
    const timer = setTimeout(finish, REFUSED_BODY_LINGER_MS).unref();
    const quiet = setTimeout(finish, REFUSED_BODY_QUIET_MS).unref();
    const drop = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > REFUSED_BODY_LINGER_BYTES) return finish();
      quiet.refresh();
    };
    req.on("data", drop).once("end", finish).once("close", finish);
    req.resume();
    return this;
  } as typeof end;
}

/** Node's parser's refusals, answered as a client can read them (Node's own answers have no body). */
const CLIENT_ERRORS: Record<string, { status: number; text: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: "Request Header Fields Too Large", message: messages.headersTooLarge(Math.round(http.maxHeaderSize / 1024)) },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: "Request Timeout", message: messages.requestTimeout },
};

/**
 * The server's `clientError`: a request Node's parser refused (headers over `maxHeaderSize`, a malformed request) gets
 * its envelope, and its connection lingers as a 413's does. Node's default answers and destroys the socket at once,
 * with the rest of the client's headers unread, so the client's next write resets the connection and it never reads
 * the 431.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === "ECONNRESET" || !socket.writable || (socket as net.Socket).bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const refusal = CLIENT_ERRORS[error.code ?? ""] ?? { status: 400, text: "Bad Request", message: messages.badRequest };
  const body = JSON.stringify({ status: refusal.status, message: refusal.message, data: null });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  let dropped = 0;
  const close = () => {
    clearTimeout(timer);
    clearTimeout(quiet);
    socket.destroy();
  };
  const timer = setTimeout(close, REFUSED_BODY_LINGER_MS).unref();
  const quiet = setTimeout(close, REFUSED_BODY_QUIET_MS).unref();
  // The parser is gone: what still comes is read and dropped, until the client ends its side or the bounds are reached.
  socket.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > REFUSED_BODY_LINGER_BYTES) close();
    else quiet.refresh();
  });
  socket.once("end", close).once("close", close).once("error", close);
  socket.resume();
}

/**
 * Node's requests go to `respond` as web Requests, through node-fetch-server, with one shorter path: an API GET
 * (every list, info and menu call) when the socket is the client (no TRUST_PROXY).
 *
 * - Its Request carries no abort signal. node-fetch-server gives every Request one that fires when the client goes
 *   away; in Node 20 a Request that follows a signal costs two AbortControllers, a listener and a finalizer, about
 *   as much again as the whole Request. Pages keep the signal (React Router stops their loaders with it); an API
 *   read is a few queries, and a streamed export stops when its response is closed.
 * - An envelope (whose JSON text the API kept) is written in one call, not read back out of its body stream.
 *
 * Behind a proxy every request takes node-fetch-server's path, which reads X-Forwarded-For, -Proto and -Host.
 */
export function createListener(app: Respond, options: ListenerOptions): http.RequestListener {
  const maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
  const readDeadlineMs = options.readDeadlineMs ?? READ_DEADLINE_MS;
  let inFlight = 0;
  /** A browser's navigation gets a page; an API client, a script or the app's own data requests get the envelope. */
  const wantsPage = (pathname: string, accept: string | null) => !options.isApiPath(pathname) && (accept ?? "").includes("text/html");
  /**
   * A read still unanswered at its deadline is answered 503 (a saturated server left a few waiting 28 s); the work
   * goes on and its answer, if it still comes, is dropped. A write is never cut short: its client could not tell
   * whether it happened. Writes are bounded by `maxInFlight` instead, refused before they start.
   */
  const respond: Respond = (request, clientAddress) => {
    const answer = app(request, clientAddress);
    if (request.method !== "GET" && request.method !== "HEAD") return answer;
    const url = new URL(request.url);
    if (hasNoDeadline(url)) return answer;
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const deadline = new Promise<Response>((resolve) => {
      timer = setTimeout(() => {
        late = true;
        resolve(busyResponse(!wantsPage(url.pathname, request.headers.get("Accept"))));
      }, readDeadlineMs);
    });
    return Promise.race([answer, deadline]).then((response) => {
      clearTimeout(timer);
      // The deadline won: the answer that still comes is dropped (an answer of the app's own, a 503 too, is sent).
      if (late) void answer.then((dropped) => dropped.body?.cancel().catch(() => {}), () => {});
      return response;
    });
  };
  const viaFetchServer = createRequestListener(
    async (request: Request, client: ClientAddress) => {
      const response = await respond(request, client.address);
      // A body refused unread is let go of, so that its rest flows to endRefusalAfterBody's drain and not into a
      // stream nobody reads (one already read and cancelled is locked, and stays as it is).
      if (response.status === 413 && request.body && !request.body.locked) void request.body.cancel().catch(() => {});
      return compressed(request, response);
    },
    { trustProxy: options.trustProxy, onError: options.onError },
  );

  async function serveApiRead(req: http.IncomingMessage, res: http.ServerResponse) {
    let request: Request;
    try {
      request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, { method: req.method, headers: createHeaders(req) });
    } catch {
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("Bad Request");
      return;
    }
    let response: Response;
    try {
      response = await respond(request, req.socket.remoteAddress ?? "");
    } catch (error) {
      response = options.onError(error);
    }
    if (res.destroyed) return;
    try {
      const text = envelopeText(response);
      if (text === undefined) return await sendResponse(res, await compressed(request, response));
      let body: string | Buffer = text;
      if (isCompressible(response) && acceptsGzip(request)) {
        body = await gzipped(text);
        markGzipped(response.headers);
      }
      for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader("Set-Cookie", cookies);
      // end() without writeHead() lets Node set Content-Length.
      res.statusCode = response.status;
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined);
      else void sendResponse(res, options.onError(error)).catch(() => res.destroy());
    }
  }

  return (req, res) => {
    // Methods a web Request cannot carry; they would fail while the request is being converted.
    if (req.method === "TRACE" || req.method === "TRACK") {
      res.writeHead(405, { Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8" }).end("不支持该请求方法");
      return;
    }
    // Past the limit a request is refused at once rather than queued behind the others for an unbounded time.
    if (inFlight >= maxInFlight) {
      const refusal = busyResponse(!wantsPage(pathnameOf(req.url) ?? "/", req.headers.accept ?? null));
      void refusal.text().then((body) => {
        res.writeHead(refusal.status, Object.fromEntries(refusal.headers)).end(req.method === "HEAD" ? undefined : body);
      });
      return;
    }
    inFlight++;
    res.once("close", () => inFlight--);
    const pathname = (req.method === "GET" || req.method === "HEAD") && !options.trustProxy ? pathnameOf(req.url) : null;
    if (pathname !== null && options.isApiPath(pathname)) void serveApiRead(req, res);
    else {
      if (req.method !== "GET" && req.method !== "HEAD") endRefusalAfterBody(req, res);
      void viaFetchServer(req, res);
    }
  };
}
