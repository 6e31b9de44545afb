import { describe, expect, test } from "vitest";
import { busyResponse } from "../../server/http/listener";
import { createReadPacer, type ReadPacerOptions } from "../../server/http/readPacer";

const read = (path = "/api/v1/auth/user/findPage", init: RequestInit = {}) => new Request(`http://localhost${path}`, init);

function pacer(options: Partial<ReadPacerOptions> = {}) {
  return createReadPacer({
    msPerTurn: 20,
    maxWaitMs: 10_000,
    refused: () => busyResponse(true),
    waitsAnyTime: (request) => new URL(request.url).pathname.endsWith("/export"),
    ...options,
  });
}

/** Synchronous work of `ms`, as a SQLite read on a busy machine. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A read that logs its start and answers after `ms` of synchronous work, as a SQLite read does within its turn. */
const slowRead = (log: string[], name: string, ms = 0) => async () => {
  log.push(name);
  busyFor(ms);
  return new Response(name);
};
const answering = (log: string[], name: string) => slowRead(log, name);

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the read pacer (API_READ_MS_PER_TURN)", () => {
  test("starts reads in one turn of the event loop until they have taken `msPerTurn`; the others start in later turns, in the order they came", async () => {
    const p = pacer({ msPerTurn: 1 });
    const log: string[] = [];
    // Reads of 5 ms each: each spends a turn's whole millisecond, so one starts per turn.
    const answers = ["a", "b", "c"].map((name) => p.read(read(), slowRead(log, name, 5)));
    expect(log).toEqual(["a"]);
    expect(p.waiting).toBe(2);
    await turn();
    expect(log).toEqual(["a", "b"]);
    await turn();
    expect(log).toEqual(["a", "b", "c"]);
    expect(await Promise.all(answers.map(async (a) => (await a).text()))).toEqual(["a", "b", "c"]);
    expect(p.waiting).toBe(0);
    // Once the queue is empty a new turn starts its reads at once again.
    await turn();
    await p.read(read(), answering(log, "d"));
    expect(log.at(-1)).toBe("d");
  });

  test("reads that take nothing of the turn (a PostgreSQL read up to its query) all start in it", async () => {
    const p = pacer({ msPerTurn: 1000 });
    const log: string[] = [];
    const answers = ["a", "b", "c", "d"].map((name) => p.read(read(), answering(log, name)));
    expect(log).toEqual(["a", "b", "c", "d"]);
    expect(p.waiting).toBe(0);
    await Promise.all(answers);
  });

  test("a read that would wait past the deadline is answered 503 with Retry-After and 服务器繁忙 at once, and never run; an export waits", async () => {
    const p = pacer({ msPerTurn: 1, maxWaitMs: 30 });
    const log: string[] = [];
    // Each read is 40 ms of synchronous work and one runs per turn, so the pacer learns that a turn takes 40 ms or more
    // (exports, which wait however long, so that none of these is refused while it learns).
    const exportPath = "/api/v1/report/x/export";
    const slow = (name: string) => slowRead(log, name, 40);
    await Promise.all(["a", "b", "c"].map((name) => p.read(read(exportPath), slow(name))));
    expect(log).toEqual(["a", "b", "c"]);

    // This turn has started its read: the next would wait a whole turn, past 30 ms, so it is refused now, unrun.
    const late = p.read(read(), slow("late"));
    const exported = p.read(read(exportPath), slow("export"));
    const refused = await late;
    expect(log).toEqual(["a", "b", "c"]);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(await refused.json()).toMatchObject({ status: 503, message: expect.stringContaining("服务器繁忙") });
    expect(await (await exported).text()).toBe("export");
    expect(log).toEqual(["a", "b", "c", "export"]);
  });

  test("a read whose client went away while it waited is not run", async () => {
    const p = pacer({ msPerTurn: 1 });
    const log: string[] = [];
    const gone = new AbortController();
    const first = p.read(read(), slowRead(log, "first", 5));
    void p.read(read("/api/v1/a", { signal: gone.signal }), answering(log, "abandoned"));
    const next = p.read(read(), answering(log, "next"));
    gone.abort();
    await first;
    await next;
    expect(log).toEqual(["first", "next"]);
  });
});
