import { movingMean } from "./readPacer";
import { onBodySettled } from "./settled";
import { wholeBodyOf } from "./wholeBody";

export interface RenderGateOptions {
  /** Pages rendered at once at most (MAX_RENDERS_AT_ONCE); the others wait their turn, first come first served. */
  limit: number;
  /**
   * Milliseconds of one turn of the event loop in which pages start at most (RENDER_MS_PER_TURN): once a turn has run
   * that long, the next page starts in a later turn, though a place among `limit` is free. A turn always starts one.
   */
  msPerTurn: number;
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
 * A few at once is not yet a few per turn: a page rendered on SQLite is all synchronous work, so a page that ended
 * gave its place to the next within the same turn, and one turn rendered 80–95 sign-in pages (500 ms) while 100 new
 * connections waited in the kernel's queue to be accepted one per turn (a request waited 22–28 s under saturation).
 * So a turn starts pages only for its first `msPerTurn` milliseconds; the next starts in a later turn, after the
 * loop's poll has accepted a connection and read what came.
 */
export function createRenderGate(options: RenderGateOptions): RenderGate {
  let rendering = 0;
  const queue: Waiting[] = [];
  const renderMs = movingMean();
  const estimatedWaitMs = () => ((queue.length + 1) * renderMs.value) / options.limit;
  /** When the gate's current turn began, and the pages it started in it. */
  let turnBegan = 0;
  let startedThisTurn = 0;
  let turnMarked = false;
  // A turn is known by starting a page in it: its end is the check phase after its poll, where a page held back for
  // lack of time starts (a new turn of its own), and the next poll accepts a waiting connection first. No mark is
  // made while nothing starts, so an idle gate, or one whose pages all wait on PostgreSQL, makes no turn of the loop.
  const markTurn = () => {
    if (turnMarked) return;
    turnMarked = true;
    turnBegan = performance.now();
    startedThisTurn = 0;
    setImmediate(() => {
      turnMarked = false;
      next();
    });
  };
  const hasTime = () => {
    markTurn();
    return startedThisTurn === 0 || performance.now() - turnBegan < options.msPerTurn;
  };

  const next = () => {
    while (rendering < options.limit && queue.length) {
      if (!hasTime()) return;
      const waiting = queue.shift()!;
      const late = Date.now() - waiting.since >= options.maxWaitMs && !options.waitsAnyTime(waiting.request);
      if (late || waiting.request.signal.aborted) waiting.refuse();
      else {
        rendering++;
        startedThisTurn++;
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
      if (rendering < options.limit && !queue.length && hasTime()) {
        rendering++;
        startedThisTurn++;
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
