import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { deferModuleScripts } from "./lib/defer-scripts.server";
import { NonceContext } from "./lib/nonce";
import { ServerShellData } from "./lib/shell-data";

export const streamTimeout = 10_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { nonce } = loadContext;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let allReady = false;
    // Cleared when the render ends: a pending timer holds the whole render (its tree, its data) for 11 s after the
    // page was sent, which under load was hundreds of finished pages kept in the heap.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const userAgent = request.headers.get("user-agent");
    // Bots and the no-JavaScript path get the whole document at once.
    const allAtOnce = Boolean((userAgent && isbot(userAgent)) || routerContext.isSpaMode);
    const output = () => {
      shellRendered = true;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      return import.meta.env.PROD && nonce ? deferModuleScripts(nonce) : new PassThrough();
    };
    const stream = () => {
      const body = output();
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    // A page with nothing left to wait for (most: loaders have answered before the render) is sent as one piece with
    // its length: its ~20 chunks no longer each pass through a Node stream, a web stream and the socket.
    const whole = () => {
      const body = output();
      const chunks: Buffer[] = [];
      body.on("data", (chunk: Buffer) => chunks.push(chunk));
      body.on("error", reject);
      body.on("end", () => {
        const bytes = Buffer.concat(chunks);
        responseHeaders.set("Content-Length", String(bytes.length));
        const response = new Response(bytes, { headers: responseHeaders, status: responseStatusCode });
        loadContext.keepWholeBody?.(response, bytes);
        resolve(response);
      });
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerShellData.Provider value={loadContext.shellData ?? null}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </ServerShellData.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // A Suspense boundary that is ready when the shell flushes stays in place in the HTML. React would otherwise
        // move a large one (the lazily hydrated list table) to the end behind a script, and without JavaScript the
        // rows would never show.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          // React calls onAllReady in the same turn when nothing is suspended; a page still waiting streams.
          if (!allAtOnce) queueMicrotask(() => (allReady ? whole() : stream()));
        },
        onAllReady() {
          clearTimeout(timer);
          allReady = true;
          if (allAtOnce) whole();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
