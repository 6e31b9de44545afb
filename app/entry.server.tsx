import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { deferModuleScripts } from "./lib/defer-scripts.server";
import { NonceContext } from "./lib/nonce";
import { ServerShellData } from "./lib/shell-data";

export const streamTimeout = 10_000;

/**
 * Every page is rendered whole and sent in one piece with its length. Our loaders answer before the render (none
 * defers data), so what React would stream after the shell is only React Router's own copy of the loader data, a few
 * microtasks later: streamed, a page went out as ~20 chunks, each through a Node stream, a web stream and the socket,
 * with a script to move each late part into place. Whole, the parts stand where they belong, as a browser without
 * scripts and a bot need them, and the server writes the page once (issue 39).
 */
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
    // Cleared when the render ends: a pending timer holds the whole render (its tree, its data) for 11 s after the
    // page was sent, which under load was hundreds of finished pages kept in the heap.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const send = () => {
      const body = import.meta.env.PROD && nonce ? deferModuleScripts(nonce) : new PassThrough();
      const chunks: Buffer[] = [];
      body.on("data", (chunk: Buffer) => chunks.push(chunk));
      body.on("error", reject);
      body.on("end", () => {
        const bytes = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
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
        // A Suspense boundary stays in place in the HTML, however large. React would otherwise move a large one (the
        // lazily hydrated list table) to the end behind a script, and without JavaScript the rows would never show.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          clearTimeout(timer);
          send();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          // A part that failed after the shell is drawn again by the browser; the page itself stands.
          if (shellRendered) console.error(error);
          else responseStatusCode = 500;
        },
      },
    );
  });
}
