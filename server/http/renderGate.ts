import { movingMean } from "./readPacer";
import { onBodySettled } from "./settled";
import { wholeBodyOf } from "./wholeBody";

export interface RenderGateOptions {
  /** Pages rendered at once at most (MAX_RENDERS_AT_ONCE); the others wait their turn, first come first served. */
  limit: number;
  /**
   * A page that waited this long for its turn is not rendered: `refused` answers it instead. One that would wait
   * longer (the pages ahead of it × the mean render ÷ `limit`) is refused at once, not answered at the deadline.
   */
  maxWaitMs: number;
  /** The answer to a page that waited too long (503, Retry-After, 服务器繁忙). */
  refused(request: Request): Response;
  /** Pages that wait for their turn however long it takes (exports, print views: their clients wait for them). */
  waitsAnyTime(request: Request): boolean;
}

export interface RenderGate {
  /** Renders the page when a turn is free; the turn is held until the page's body has been sent. */
  render(request: Request, work: () => Promise<Response>): Promise<Response>;
  /** Pages rendering now, and pages waiting for a turn. */
  readonly rendering: number;
  readonly waiting: number;
}

interface Waiting {
  request: Request;
  since: number;
  start(): void;
  refuse(): void;
}

/**
 * Server rendering is CPU and memory: with every page of 50 connections rendering at once (issue 39), each turn of the
 * event loop ran every render's next step, a turn took seconds, the loop accepted one waiting connection per turn
 * (libuv accepts one per poll), and V8 kept every half-done tree alive, so the heap grew to 400 MiB. A few turns
 * render the same pages per second on two cores: the loop turns often, connections are accepted at once, and only a
 * few trees are alive. Waiting pages are taken in order, so none is passed over; one that waited past its deadline
 * has already been answered 503 by the listener and is dropped here unrendered, so an overloaded server does not
 * render pages nobody waits for.
 */
export function createRenderGate(options: RenderGateOptions): RenderGate {
  let rendering = 0;
  const queue: Waiting[] = [];
  const renderMs = movingMean();
  const estimatedWaitMs = () => ((queue.length + 1) * renderMs.value) / options.limit;

  const next = () => {
    while (rendering < options.limit && queue.length) {
      const waiting = queue.shift()!;
      const late = Date.now() - waiting.since >= options.maxWaitMs && !options.waitsAnyTime(waiting.request);
      if (late || waiting.request.signal.aborted) waiting.refuse();
      else {
        rendering++;
        waiting.start();
      }
    }
  };
  const run = (request: Request, work: () => Promise<Response>): Promise<Response> => {
    let held = true;
    const began = performance.now();
    const release = () => {
      if (!held) return;
      held = false;
      renderMs.add(performance.now() - began);
      request.signal.removeEventListener("abort", release);
      rendering--;
      next();
    };
    // A client that goes away before the answer starts leaves its response unread (node-fetch-server sends nothing
    // to a closed socket), so its body would never end: the turn is given back when the request is aborted.
    request.signal.addEventListener("abort", release);
    return work().then(
      // A page rendered whole has nothing left to do: its turn is given back at once.
      (response) => (wholeBodyOf(response) ? (release(), response) : onBodySettled(response, release)),
      (error: unknown) => {
        release();
        throw error;
      },
    );
  };

  return {
    render(request, work) {
      if (rendering < options.limit && !queue.length) {
        rendering++;
        return run(request, work);
      }
      if (estimatedWaitMs() > options.maxWaitMs && !options.waitsAnyTime(request)) return Promise.resolve(options.refused(request));
      return new Promise<Response>((resolve, reject) => {
        queue.push({
          request,
          since: Date.now(),
          start: () => run(request, work).then(resolve, reject),
          refuse: () => resolve(options.refused(request)),
        });
      });
    },
    get rendering() {
      return rendering;
    },
    get waiting() {
      return queue.length;
    },
  };
}
