import net from "node:net";
import { describe, expect, test } from "vitest";
import { busyResponse } from "../../server/http/listener";
import { createRenderGate, type RenderGateOptions } from "../../server/http/renderGate";
import { keepWholeBody } from "../../server/http/wholeBody";

const page = (path = "/admin/auth/user/index", init: RequestInit = {}) => new Request(`http://localhost${path}`, { headers: { Accept: "text/html" }, ...init });

function gate(options: Partial<RenderGateOptions> = {}) {
  return createRenderGate({
    limit: 2,
    // Long enough that the tests below, which take no time, never run out of a turn's time.
    msPerTurn: 1_000,
    maxWaitMs: 10_000,
    refused: (request) => busyResponse(!(request.headers.get("Accept") ?? "").includes("text/html")),
    waitsAnyTime: (request) => new URL(request.url).pathname.endsWith("/export"),
    ...options,
  });
}

/** A render that answers when told to, with a body that streams until it is read. */
function controlledRender(log: string[], name: string) {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const work = async () => {
    log.push(`start ${name}`);
    await answered;
    return new Response(`<html>${name}</html>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  };
  return { work, answer };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the render gate (MAX_RENDERS_AT_ONCE)", () => {
  test("a page rendered whole gives its turn back as soon as it is answered: nothing of it is left to stream", async () => {
    const g = gate({ limit: 1 });
    const log: string[] = [];
    const whole = async () => {
      log.push("start whole");
      const bytes = Buffer.from("<html>whole</html>");
      const response = new Response(bytes, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      keepWholeBody(response, bytes);
      return response;
    };
    const first = g.render(page(), whole);
    const next = controlledRender(log, "next");
    const second = g.render(page(), next.work);
    await first;
    await turn();
    // The whole page's body has not been read, yet the next page has its turn.
    expect(log).toEqual(["start whole", "start next"]);
    expect(await (await first).text()).toBe("<html>whole</html>");
    next.answer();
    expect(await (await second).text()).toBe("<html>next</html>");
  });

  test("pages that render synchronously start only for a turn's first msPerTurn ms: the loop accepts a waiting connection before the rest", async () => {
    const g = gate({ limit: 2, msPerTurn: 20 });
    const log: string[] = [];
    // A page rendered on SQLite: all synchronous work (8 ms here), sent whole.
    const synchronousPage = (name: string) => async () => {
      log.push(`start ${name}`);
      const until = performance.now() + 8;
      while (performance.now() < until);
      const bytes = Buffer.from(`<html>${name}</html>`);
      const response = new Response(bytes, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      keepWholeBody(response, bytes);
      return response;
    };
    const server = net.createServer((socket) => {
      log.push("accepted");
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    let client: net.Socket | undefined;
    try {
      // A client connects while the first page renders: the kernel queues the connection, the loop accepts it at a poll.
      const connecting = (render: () => Promise<Response>) => async () => {
        client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
        client.on("error", () => {});
        return render();
      };
      const names = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);
      const responses = names.map((name, i) => g.render(page(), i === 0 ? connecting(synchronousPage(name)) : synchronousPage(name)));
      expect((await Promise.all(responses.map(async (r) => (await r).text())))).toEqual(names.map((name) => `<html>${name}</html>`));
      const starts = log.filter((line) => line.startsWith("start"));
      expect(starts).toEqual(names.map((name) => `start ${name}`));
      // A turn of 20 ms starts three pages of 8 ms at most, so the poll that accepts comes before the twelfth page.
      // (One turn rendered them all before: the connection waited for the last.)
      expect(log.indexOf("accepted")).toBeGreaterThan(-1);
      expect(log.indexOf("accepted")).toBeLessThan(log.indexOf("start p12"));
    } finally {
      client?.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("renders at most `limit` pages at once; the others start in the order they came, as turns are given back", async () => {
    const g = gate();
    const log: string[] = [];
    const renders = ["a", "b", "c", "d"].map((name) => controlledRender(log, name));
    const responses = renders.map((r) => g.render(page(), r.work));
    await turn();
    expect(log).toEqual(["start a", "start b"]);
    expect([g.rendering, g.waiting]).toEqual([2, 2]);

    renders[1].answer();
    const b = await responses[1];
    // The turn is held while the page's body is being sent, not only until its headers are ready.
    await turn();
    expect(log).toEqual(["start a", "start b"]);
    expect(await b.text()).toBe("<html>b</html>");
    await turn();
    expect(log).toEqual(["start a", "start b", "start c"]);

    renders[0].answer();
    expect(await (await responses[0]).text()).toBe("<html>a</html>");
    await turn();
    expect(log).toEqual(["start a", "start b", "start c", "start d"]);
    renders[2].answer();
    renders[3].answer();
    expect(await (await responses[3]).text()).toBe("<html>d</html>");
    expect(await (await responses[2]).text()).toBe("<html>c</html>");
    expect([g.rendering, g.waiting]).toEqual([0, 0]);
  });

  test("a render that fails gives its turn back", async () => {
    const g = gate({ limit: 1 });
    const log: string[] = [];
    await expect(g.render(page(), async () => Promise.reject(new Error("数据库故障")))).rejects.toThrow("数据库故障");
    const next = controlledRender(log, "next");
    const response = g.render(page(), next.work);
    next.answer();
    expect(await (await response).text()).toBe("<html>next</html>");
  });

  test("a page that waited past the deadline is answered 503 with Retry-After and 服务器繁忙, and never rendered", async () => {
    const g = gate({ limit: 1, maxWaitMs: 50 });
    const log: string[] = [];
    const first = controlledRender(log, "first");
    const late = controlledRender(log, "late");
    const lateApi = controlledRender(log, "late-data");
    const exported = controlledRender(log, "export");
    const firstResponse = g.render(page(), first.work);
    const lateResponse = g.render(page(), late.work);
    const lateApiResponse = g.render(page("/admin/auth/user/index.data", { headers: { Accept: "*/*" } }), lateApi.work);
    const exportResponse = g.render(page("/report/x/export"), exported.work);
    await new Promise((resolve) => setTimeout(resolve, 80));
    first.answer();
    await (await firstResponse).text();

    const refused = await lateResponse;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(refused.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await refused.text()).toContain("服务器繁忙");
    const refusedData = await lateApiResponse;
    expect(refusedData.status).toBe(503);
    expect(await refusedData.json()).toMatchObject({ status: 503, message: expect.stringContaining("服务器繁忙") });
    // An export waits for its turn however long it takes: its client waits for the file.
    exported.answer();
    expect(await (await exportResponse).text()).toBe("<html>export</html>");
    expect(log).toEqual(["start first", "start export"]);
  });

  test("a page that would wait past the deadline (the pages ahead × the mean render) is refused at once, unrendered", async () => {
    const g = gate({ limit: 1, maxWaitMs: 30 });
    const log: string[] = [];
    // A render of 40 ms or more teaches the gate what a render costs (an export, which is never refused).
    const learned = controlledRender(log, "learned");
    const learning = g.render(page("/report/x/export"), learned.work);
    setTimeout(learned.answer, 40);
    await (await learning).text();

    const holding = controlledRender(log, "holding");
    const held = g.render(page("/report/x/export"), holding.work);
    const late = controlledRender(log, "late");
    const exported = controlledRender(log, "export");
    const refused = await g.render(page(), late.work);
    const exportResponse = g.render(page("/report/y/export"), exported.work);
    // Refused while the page ahead of it still renders: not at the deadline, at once.
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(await refused.text()).toContain("服务器繁忙");
    expect([g.rendering, g.waiting]).toEqual([1, 1]);
    holding.answer();
    await (await held).text();
    exported.answer();
    expect(await (await exportResponse).text()).toBe("<html>export</html>");
    expect(log).toEqual(["start learned", "start holding", "start export"]);
  });

  test("a client that goes away gives its turn back, whether its page was rendering or waiting", async () => {
    const g = gate({ limit: 1 });
    const log: string[] = [];
    const gone = new AbortController();
    const waitingGone = new AbortController();
    const abandoned = controlledRender(log, "abandoned");
    const neverStarted = controlledRender(log, "never");
    const next = controlledRender(log, "next");
    // Its answer is never read (node-fetch-server sends nothing to a closed socket).
    void g.render(page("/a", { signal: gone.signal }), abandoned.work);
    void g.render(page("/b", { signal: waitingGone.signal }), neverStarted.work);
    const nextResponse = g.render(page("/c"), next.work);
    await turn();
    waitingGone.abort();
    gone.abort();
    await turn();
    expect(log).toEqual(["start abandoned", "start next"]);
    next.answer();
    expect(await (await nextResponse).text()).toBe("<html>next</html>");
  });
});
