export interface ReadPacerOptions {
  /**
   * Milliseconds of API reads' synchronous work one turn of the event loop starts at most (API_READ_MS_PER_TURN);
   * once a turn has spent them, the other reads start in later turns. A turn always starts one.
   */
  msPerTurn: number;
  /** A read that would wait longer than this for its start is refused at once, and one that did is dropped unrun. */
  maxWaitMs: number;
  /** The answer to a read refused for load (503, Retry-After, 服务器繁忙). */
  refused(request: Request): Response;
  /** Reads that wait for their start however long it takes (exports: their clients wait for them). */
  waitsAnyTime(request: Request): boolean;
}

export interface ReadPacer {
  /** Runs the read in this turn if this turn has time left, else in a later one, in order. */
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
 * deadline of ours reaches them. Starting reads only for a few milliseconds of each turn keeps every turn short, so
 * connections are accepted at the pace reads are answered, and what waits, waits here, in order, where it can be
 * counted: a read that would wait past `maxWaitMs` (the turns its queue fills × the mean turn) is refused at once
 * rather than answered late. The time is a read's synchronous part (all of it on SQLite; on PostgreSQL, up to its
 * first query), so the same budget starts many reads that wait for PostgreSQL and few that compute on SQLite.
 */
export function createReadPacer(options: ReadPacerOptions): ReadPacer {
  const queue: Waiting[] = [];
  const turnMs = movingMean();
  const readMs = movingMean();
  /** Milliseconds of reads this turn has run; a turn starts none more past `msPerTurn`. */
  let spent = 0;
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
    spent = 0;
    let started = false;
    while (spent < options.msPerTurn && queue.length) {
      const waiting = queue.shift()!;
      const late = Date.now() - waiting.since >= options.maxWaitMs && !options.waitsAnyTime(waiting.request);
      if (late || waiting.request.signal.aborted) waiting.refuse();
      else {
        started = true;
        timed(waiting.start);
      }
    }
    const busy = queue.length > 0 || started;
    lastTurn = busy ? now : 0;
    if (busy) schedule();
  }
  function timed<T>(start: () => T): T {
    const began = performance.now();
    try {
      return start();
    } finally {
      const took = performance.now() - began;
      spent += took;
      readMs.add(took);
    }
  }
  // A turn starts at least one read, however long it takes.
  const estimatedWaitMs = () => Math.max(1, Math.ceil(((queue.length + 1) * readMs.value) / Math.max(options.msPerTurn, readMs.value))) * turnMs.value;

  return {
    read(request, work) {
      if (spent < options.msPerTurn && !queue.length) {
        schedule();
        return timed(work);
      }
      if (estimatedWaitMs() > options.maxWaitMs && !options.waitsAnyTime(request)) return Promise.resolve(options.refused(request));
      return new Promise<Response>((resolve, reject) => {
        // A read that throws before its first await rejects its own answer, not the turn that started it.
        const start = () => void new Promise<Response>((run) => run(work())).then(resolve, reject);
        queue.push({ request, since: Date.now(), start, refuse: () => resolve(options.refused(request)) });
        schedule();
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
