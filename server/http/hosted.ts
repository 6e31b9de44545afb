import { isIP } from "node:net";
import type { Config } from "../config";
import { startupErrorMessage } from "../startupErrors";
import { REFUSED_BODY_LINGER_MS } from "./body";
import type { Respond } from "./listener";
import { onBodySettled } from "./settled";

/** What `react-router-serve` hands a build's `fetch`: node-fetch-server's client (its socket's address). */
export interface HostClient {
  address?: string;
}
export type HostedFetch = (request: Request, client?: HostClient) => Promise<Response>;

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim();
  return value || undefined;
}

/**
 * Behind a trusted proxy the scheme, host and client come from X-Forwarded-Proto, -Host and -For (their first
 * value, as our own listener reads them). `react-router-serve`'s server reads none of them, so its Request says
 * `http://` and the proxy's upstream host; without this, cookies would lose `Secure`, HSTS would be missing and
 * redirects would be judged against the wrong origin.
 */
export function throughProxy(request: Request, socketAddress: string): { request: Request; clientAddress: string } {
  const forwardedFor = firstValue(request.headers.get("X-Forwarded-For"));
  const clientAddress = forwardedFor && isIP(forwardedFor.replace(/^\[|\]$/g, "")) ? forwardedFor.replace(/^\[|\]$/g, "") : socketAddress;
  const proto = firstValue(request.headers.get("X-Forwarded-Proto"))?.toLowerCase();
  const host = firstValue(request.headers.get("X-Forwarded-Host"));
  if (proto !== "http" && proto !== "https" && !host) return { request, clientAddress };
  const url = new URL(request.url);
  try {
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host) {
      const forwarded = new URL(`${url.protocol}//${host}`);
      if (forwarded.pathname !== "/" || forwarded.username || forwarded.password) throw new TypeError("bad host");
      url.host = forwarded.host;
    }
  } catch {
    // A forwarded host that is not a host is ignored, as node-fetch-server ignores it behind our own listener.
    return { request, clientAddress };
  }
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return { request: new Request(url, init), clientAddress };
}

/**
 * The request's body as a stream that is never cancelled underneath. node-fetch-server 0.2 (react-router-serve's)
 * keeps pushing the socket's data into the body stream it made; once that stream is cancelled (a body refused as
 * too large part way, 413), its next push throws outside any handler and would end the process. So a refusal here
 * stops reading for us, while the rest of the body is read and dropped; `drained` settles when it has been.
 */
export function uncancellableBody(request: Request): { request: Request; drained: () => Promise<void> } {
  if (!request.body) return { request, drained: () => Promise.resolve() };
  const reader = request.body.getReader();
  let drained = Promise.resolve();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      drained = (async () => {
        for (;;) if ((await reader.read()).done) return;
      })().catch(() => {});
    },
  });
  return { request: new Request(request.url, { method: request.method, headers: request.headers, signal: request.signal, body, duplex: "half" } as RequestInit), drained: () => drained };
}

/**
 * A 413 ends its connection (`Connection: close`), but only once the rest of the refused body has been read, for
 * at most REFUSED_BODY_LINGER_MS: a connection closed while the client is still sending is reset under it, and the client then
 * sees a write error (EPIPE) instead of the answer. The answer's bytes go out at once; only its end waits.
 */
function lingering(response: Response, drained: Promise<void>): Response {
  if (response.status !== 413 || !response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (!chunk.done) return controller.enqueue(chunk.value);
      await Promise.race([drained, new Promise((r) => setTimeout(r, REFUSED_BODY_LINGER_MS).unref())]);
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export interface HostedOptions {
  respond: Respond;
  onError(error: unknown): Response;
  release(): Promise<void>;
  config: Config;
}

/**
 * The build's `fetch` for another host (`react-router-serve`): every request that is not a built file reaches the
 * same `respond` as under `npm start`. On SIGTERM/SIGINT the host stops listening (its own handler); this one
 * waits for the requests already received (until SHUTDOWN_TIMEOUT_SECONDS), then releases the instance number,
 * closes the database and ends the process, as `npm start` does.
 */
export function hostedFetch({ respond, onError, release, config }: HostedOptions): HostedFetch {
  let inFlight = 0;
  let draining = false;

  // A request counts until its body has been sent (a streamed export keeps flowing after the handler returned).
  const counted = (response: Response): Response => onBodySettled(response, () => inFlight--);

  const handle: HostedFetch = async (incoming, client) => {
    inFlight++;
    let response: Response | undefined;
    try {
      const socketAddress = client?.address ?? "";
      const guarded = uncancellableBody(incoming);
      const { request, clientAddress } = config.TRUST_PROXY ? throughProxy(guarded.request, socketAddress) : { request: guarded.request, clientAddress: socketAddress };
      try {
        response = await respond(request, clientAddress);
      } catch (error) {
        response = onError(error);
      }
      response = lingering(response, guarded.drained());
      if (draining) {
        try {
          response.headers.set("Connection", "close");
        } catch {
          response = new Response(response.body, response);
          response.headers.set("Connection", "close");
        }
      }
      return counted(response);
    } catch (error) {
      if (!response) inFlight--;
      throw error;
    }
  };

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      draining = true;
      console.log(`正在停止：不再接受新连接，等待 ${inFlight} 个进行中的请求完成（最多 ${config.SHUTDOWN_TIMEOUT_SECONDS} 秒）`);
      const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (inFlight > 0) console.error(`停止期限已到：${inFlight} 个请求未完成即被中断`);
      await release().catch((error: unknown) => console.error(error));
      console.log("已停止");
      process.exit(0);
    })());
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop());

  // react-router-serve's request listener (node-fetch-server 0.2) turns the request into a web Request outside any
  // try: a method a Request cannot carry (TRACE, TRACK) or a Host that is not one rejects a promise nobody
  // awaits, which would end the process. The request goes unanswered (decision 020); the process lives on.
  process.on("unhandledRejection", (reason) => {
    console.error(`未处理的请求错误（进程继续运行）：${reason instanceof Error ? reason.message : String(reason)}`);
  });
  // The host listens after importing the build; a port in use or not allowed is an error event nobody handles.
  // It gets the same one line as under `npm start` instead of a stack trace.
  process.on("uncaughtException", (error) => {
    const message = startupErrorMessage(error, config);
    console.error(message ?? error);
    process.exit(1);
  });
  return handle;
}
