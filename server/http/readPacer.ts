export interface ReadPacerOptions {
  /** API reads started in one turn of the event loop at most (API_READS_PER_TURN); the others start in later turns. */
  perTurn: number;
  /** A read that would wait longer than this for its start is refused at once, and one that did is dropped unrun. */
  maxWaitMs: number;
  /** The answer to a read refused for load (503, Retry-After, 服务器繁忙). */
  refused(request: Request): Response;
  /** Reads that wait for their start however long it takes (exports: their clients wait for them). */
  waitsAnyTime(request: Request): boolean;
}

export interface ReadPacer {
  /** Runs the read in this turn if this turn has started fewer than `perTurn`, else in a later one, in order. */
  read(request: Request, work: () => Promise<Response>): Promise<Response>;
  /** Reads waiting for a later turn. */
  readonly waiting: number;
}

/** A mean that follows the recent past (an exponentially weighted one): what a wait is estimated from. */
export function movingMean(weight = 0.2) {
  let mean = 0;
  return {
    add(value: number) {
      mean = mean === 0 ? value : mean + weight * (value - mean);
    },
    get value() {
      return mean;
    },
  };
}

interface Waiting {
  request: Request;
  since: number;
  start(): void;
  refuse(): void;
}

/**
 * The event loop accepts one waiting connection per turn (libuv 1.46, Node 20: measured, decision 093), and a turn
 * holds every request that became readable in it. On SQLite an API read is synchronous work (better-sqlite3), so at
 * 100 connections one turn ran 20–100 reads, seconds, and connections waited in the kernel's queue for 20 s, where no
 * deadline of ours reaches them. Starting a few reads per turn keeps every turn short, so connections are accepted at
 * the pace reads are answered, and what waits, waits here, in order, where it can be counted: a read that would wait
 * past `maxWaitMs` (turns ahead of it × the mean turn) is refused at once rather than answered late.
 */
export function createReadPacer(options: ReadPacerOptions): ReadPacer {
  const queue: Waiting[] = [];
  const turnMs = movingMean();
  let started = 0;
  let scheduled = false;
  let lastTurn = 0;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  };
  function turn() {
    scheduled = false;
    const now = performance.now();
    // Only back-to-back turns measure a turn: after an idle spell the gap is idleness, not work.
    if (lastTurn) turnMs.add(now - lastTurn);
    started = 0;
    while (started < options.perTurn && queue.length) {
      const waiting = queue.shift()!;
      const late = Date.now() - waiting.since >= options.maxWaitMs && !options.waitsAnyTime(waiting.request);
      if (late || waiting.request.signal.aborted) waiting.refuse();
      else {
        started++;
        waiting.start();
      }
    }
    const busy = queue.length > 0 || started > 0;
    lastTurn = busy ? now : 0;
    if (busy) schedule();
  }
  const estimatedWaitMs = () => Math.ceil((queue.length + 1) / options.perTurn) * turnMs.value;

  return {
    read(request, work) {
      if (started < options.perTurn && !queue.length) {
        started++;
        schedule();
        return work();
      }
      if (estimatedWaitMs() > options.maxWaitMs && !options.waitsAnyTime(request)) return Promise.resolve(options.refused(request));
      return new Promise<Response>((resolve, reject) => {
        queue.push({ request, since: Date.now(), start: () => work().then(resolve, reject), refuse: () => resolve(options.refused(request)) });
        schedule();
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
