import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, test, vi } from "vitest";
import { readBody } from "../../server/http/body";
import { adminToken, createTestApp } from "../helpers/api";
import { ApiError, envelopeResponse } from "../../server/http/envelope";
import { answerClientError, createListener, type ListenerOptions, type Respond } from "../../server/http/listener";
import { keepWholeBody } from "../../server/http/wholeBody";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(respond: Respond, trustProxy = false, limits: Pick<ListenerOptions, "maxInFlight" | "readDeadlineMs"> = {}) {
  const onError = vi.fn((error: unknown) => new Response(`failed: ${String(error)}`, { status: 500 }));
  server = http.createServer(createListener(respond, { trustProxy, onError, isApiPath: (p) => p.startsWith("/api/"), ...limits }));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, onError };
}

/** A raw HTTP exchange, so nothing decodes or adds headers on the way. */
function exchange(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const envelope = { status: 200, message: "操作成功", data: { records: [{ id: 1, name: "张三" }], total: 1 } };

function withCookies() {
  const headers = new Headers();
  headers.append("Set-Cookie", "a=1; Path=/");
  headers.append("Set-Cookie", "b=2; Path=/");
  return headers;
}

describe("the server's request listener", () => {
  test("an API read's envelope arrives whole, with its status, headers, length and every cookie", async () => {
    const seen: Array<{ url: string; client: string; auth: string | null }> = [];
    const { base } = await listen(async (request, client) => {
      seen.push({ url: request.url, client, auth: request.headers.get("Authorization") });
      return envelopeResponse(envelope, withCookies());
    });
    const res = await exchange(`${base}/api/v1/x/findPage?pageNum=2&name=%E5%BC%A0`, { headers: { Authorization: "Bearer t0ken" } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString("utf8"))).toEqual(envelope);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(seen).toEqual([{ url: `${base}/api/v1/x/findPage?pageNum=2&name=%E5%BC%A0`, client: "127.0.0.1", auth: "Bearer t0ken" }]);
  });

  test("an envelope's HTTP status follows the envelope's, and the body stays readable by in-process callers", async () => {
    const { base } = await listen(async () => envelopeResponse({ status: 50014, message: "登录已过期", data: null }));
    const res = await exchange(`${base}/api/v1/x/info`);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString("utf8"))).toEqual({ status: 50014, message: "登录已过期", data: null });
    await expect(envelopeResponse(envelope).json()).resolves.toEqual(envelope);
  });

  test("a client that accepts gzip gets the envelope gzipped, on the API and the page path alike", async () => {
    const { base } = await listen(async () => envelopeResponse(envelope));
    for (const path of ["/api/v1/x/findPage", "/page"]) {
      const res = await exchange(`${base}${path}`, { headers: { "Accept-Encoding": "gzip, deflate" } });
      expect(res.headers["content-encoding"], path).toBe("gzip");
      expect(res.headers.vary, path).toContain("Accept-Encoding");
      expect(JSON.parse(gunzipSync(res.body).toString("utf8")), path).toEqual(envelope);
    }
  });

  test("a page rendered whole is sent in one piece with its length, gzipped or not", async () => {
    const html = `<!DOCTYPE html><html><body>${"<p>食堂</p>".repeat(3000)}</body></html>`;
    const { base } = await listen(async () => {
      const bytes = Buffer.from(html);
      const response = new Response(bytes, { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(bytes.length) } });
      keepWholeBody(response, bytes);
      return response;
    });
    const plain = await exchange(`${base}/admin/page`);
    expect(plain.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(html));
    expect(plain.body.toString("utf8")).toBe(html);
    const zipped = await exchange(`${base}/admin/page`, { headers: { "Accept-Encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(Buffer.byteLength(html) / 10);
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(html);
  });

  test("HEAD answers the headers without a body", async () => {
    const { base } = await listen(async () => envelopeResponse(envelope));
    const res = await exchange(`${base}/api/v1/x/info`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body.length).toBe(0);
  });

  test("an API read that streams (an export) is streamed as it comes", async () => {
    const parts = ["姓名,电话\n", "张三,13800000000\n", "李四,13900000000\n"];
    const { base } = await listen(async () => {
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const part of parts) {
            controller.enqueue(new TextEncoder().encode(part));
            await new Promise((r) => setTimeout(r, 5));
          }
          controller.close();
        },
      });
      return new Response(stream, { headers: { "Content-Type": "application/octet-stream" } });
    });
    const res = await exchange(`${base}/api/v1/x/export`);
    expect(res.status).toBe(200);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.body.toString("utf8")).toBe(parts.join(""));
  });

  test("a handler that throws answers the error response on either path", async () => {
    const { base, onError } = await listen(async () => {
      throw new Error("boom");
    });
    for (const path of ["/api/v1/x/info", "/page"]) {
      const res = await exchange(`${base}${path}`);
      expect(res.status, path).toBe(500);
      expect(res.body.toString("utf8"), path).toBe("failed: Error: boom");
    }
    expect(onError).toHaveBeenCalledTimes(2);
  });

  test("a body refused part way (413): the answer goes out at once, the connection closes once the rest has come", async () => {
    const { base } = await listen(async (request) => {
      try {
        await readBody(request);
        return new Response("read");
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return envelopeResponse({ status: error.status, message: error.message, data: null }, new Headers({ Connection: "close" }));
      }
    });
    // Over a raw socket, so the test sees when the server closes: a body with no declared length, 2 MB first.
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    let answer = "";
    let closed = false;
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("error", () => undefined);
    socket.on("close", () => (closed = true));
    const chunk = (bytes: number) => `${bytes.toString(16)}\r\n${"a".repeat(bytes)}\r\n`;
    socket.write("POST /api/v1/x/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (let i = 0; i < 32; i++) socket.write(chunk(64 * 1024));
    await vi.waitFor(() => expect(answer).toMatch(/1 MB/));
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain("connection: close");
    // The answer is out, the rest of the body still coming: the connection stays open for it (a close now would reset
    // the client's writes, and with them, often, the answer it had not read yet).
    await new Promise((r) => setTimeout(r, 300));
    expect(closed).toBe(false);
    for (let i = 0; i < 32; i++) socket.write(chunk(64 * 1024));
    socket.write("0\r\n\r\n");
    await vi.waitFor(() => expect(closed).toBe(true));

    // A declared length over the limit is refused before any of it is read: that connection ends with the answer,
    // without waiting for a body the client was told not to send.
    const declared = net.connect(Number(new URL(base).port), "127.0.0.1");
    let declaredClosed = false;
    let declaredAnswer = "";
    declared.on("data", (c: Buffer) => (declaredAnswer += c.toString("utf8")));
    declared.on("error", () => undefined);
    declared.on("close", () => (declaredClosed = true));
    declared.write(`POST /api/v1/x/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n{"a":`);
    await vi.waitFor(() => expect(declaredAnswer).toMatch(/^HTTP\/1\.1 413/));
    await vi.waitFor(() => expect(declaredClosed).toBe(true), { timeout: 2000 });
  });

  test("a client that writes a whole oversized body before reading reads the 413 envelope: 5 MB and 60 MB, JSON and multipart", async () => {
    const app = await createTestApp("sqlite");
    try {
      const token = await adminToken(app);
      const { base } = await listen((request, client) => app.api.handle(request, client));
      const port = Number(new URL(base).port);
      /** As a script does it: headers and the whole body written (each write waited for), and only then the answer read. */
      const sendWhole = (type: string, size: number) =>
        new Promise<{ answer: string; error?: string }>((resolve) => {
          const socket = net.connect(port, "127.0.0.1");
          let answer = "";
          socket.on("data", (c: Buffer) => (answer += c.toString("utf8")));
          socket.on("error", (error: NodeJS.ErrnoException) => resolve({ answer, error: error.code }));
          socket.on("close", () => resolve({ answer }));
          socket.pause();
          const write = (data: string | Buffer) => new Promise<void>((done, fail) => socket.write(data, (error) => (error ? fail(error) : done())));
          void (async () => {
            await write(`POST /api/v1/auth/role/create HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}\r\nContent-Length: ${size}\r\n\r\n`);
            const megabyte = Buffer.alloc(1024 * 1024, 0x61);
            for (let sent = 0; sent < size; sent += megabyte.length) await write(megabyte.subarray(0, Math.min(megabyte.length, size - sent)));
            socket.resume();
          })().catch(() => socket.resume());
        });
      for (const type of ["application/json", "multipart/form-data; boundary=----x"]) {
        for (const megabytes of [5, 60]) {
          const { answer, error } = await sendWhole(type, megabytes * 1024 * 1024);
          expect(error, `${type} ${megabytes} MB`).toBeUndefined();
          expect(answer, `${type} ${megabytes} MB`).toMatch(/^HTTP\/1\.1 413/);
          expect(answer.toLowerCase()).toContain("connection: close");
          const [head, body] = [answer.slice(0, answer.indexOf("\r\n\r\n")), answer.slice(answer.indexOf("\r\n\r\n") + 4)];
          // The envelope comes in one chunk when the answer is chunked.
          const envelope = JSON.parse(/transfer-encoding: chunked/i.test(head) ? body.split("\r\n")[1] : body);
          expect(envelope).toMatchObject({ status: 413, message: expect.stringMatching(/^请求体过大，不能超过 1 MB/) });
        }
      }
    } finally {
      await app.close();
    }
  }, 60_000);

  test("headers over the limit get a 431 envelope that a client still writing them reads, not a reset", async () => {
    const { base } = await listen(async () => new Response("not reached"));
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<{ answer: string; error?: string }>((resolve) => {
          const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
          let answer = "";
          socket.on("data", (c: Buffer) => (answer += c.toString("utf8")));
          socket.on("error", (error: NodeJS.ErrnoException) => resolve({ answer, error: error.code }));
          socket.on("close", () => resolve({ answer }));
          socket.pause();
          // 256 kB of cookies, written whole before anything is read.
          const cookies = Array.from({ length: 256 }, (_, i) => `Cookie: c${i}=${"v".repeat(1000)}\r\n`).join("");
          socket.write(`GET /api/v1/x/info HTTP/1.1\r\nHost: 127.0.0.1\r\n${cookies}\r\n`, () => socket.resume());
        }),
      ),
    );
    for (const { answer, error } of answers) {
      expect(error).toBeUndefined();
      expect(answer).toMatch(/^HTTP\/1\.1 431/);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ status: 431, message: expect.stringMatching(/^请求头过大，不能超过 16 KB/), data: null });
    }
  });

  test("past MAX_REQUESTS_IN_FLIGHT a request is refused at once: 503, Retry-After, the envelope for API clients and a page for browsers", async () => {
    const held: Array<() => void> = [];
    let started = 0;
    const { base } = await listen(
      async () => {
        started++;
        await new Promise<void>((resolve) => held.push(resolve));
        return envelopeResponse(envelope);
      },
      false,
      { maxInFlight: 2 },
    );
    const first = [exchange(`${base}/api/v1/x/findPage`), exchange(`${base}/api/v1/x/create`, { method: "POST" })];
    await vi.waitFor(() => expect(started).toBe(2));
    const at = Date.now();
    const api = await exchange(`${base}/api/v1/x/findPage`);
    const page = await exchange(`${base}/admin/auth/user/index`, { headers: { Accept: "text/html,application/xhtml+xml" } });
    const write = await exchange(`${base}/api/v1/x/create`, { method: "POST" });
    expect(Date.now() - at).toBeLessThan(1000);
    for (const refused of [api, page, write]) {
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("5");
    }
    expect(JSON.parse(api.body.toString("utf8"))).toEqual({ status: 503, message: "服务器繁忙，请 5 秒后重试", data: null });
    expect(JSON.parse(write.body.toString("utf8")).message).toBe("服务器繁忙，请 5 秒后重试");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body.toString("utf8")).toContain("服务器繁忙，请 5 秒后重试");
    expect(started).toBe(2);
    // The requests let in are answered as usual, and once they are, the next is let in.
    held.forEach((release) => release());
    for (const answer of await Promise.all(first)) expect(answer.status).toBe(200);
    const after = exchange(`${base}/api/v1/x/findPage`);
    await vi.waitFor(() => expect(held.length).toBe(3));
    held[2]();
    expect((await after).status).toBe(200);
  });

  test("a read not answered by its deadline gets 503 and Retry-After; a write is never cut short", async () => {
    const { base } = await listen(
      async () => {
        await new Promise((r) => setTimeout(r, 600));
        return envelopeResponse(envelope);
      },
      false,
      { readDeadlineMs: 150 },
    );
    const at = Date.now();
    const read = await exchange(`${base}/api/v1/x/findPage`);
    expect(Date.now() - at).toBeLessThan(550);
    expect(read.status).toBe(503);
    expect(read.headers["retry-after"]).toBe("5");
    expect(JSON.parse(read.body.toString("utf8")).message).toBe("服务器繁忙，请 5 秒后重试");
    const page = await exchange(`${base}/admin/dashboard`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(page.body.toString("utf8")).toContain("<title>服务繁忙");
    const write = await exchange(`${base}/api/v1/x/create`, { method: "POST" });
    expect(write.status).toBe(200);
  });

  test("a page's request is aborted when its client goes away", async () => {
    let signal: AbortSignal | undefined;
    const { base } = await listen(async (request) => {
      signal = request.signal;
      await new Promise((r) => setTimeout(r, 300));
      return new Response("late");
    });
    const req = http.request(`${base}/page`);
    req.on("error", () => undefined);
    req.end();
    await vi.waitFor(() => expect(signal).toBeDefined());
    req.destroy();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
  });

  test("behind a trusted proxy, API reads and pages alike see the forwarded client, scheme and host", async () => {
    const seen: Array<{ url: string; client: string }> = [];
    const { base } = await listen(async (request, client) => {
      seen.push({ url: request.url, client });
      return envelopeResponse(envelope);
    }, true);
    const forwarded = { "X-Forwarded-For": "10.1.2.3, 127.0.0.1", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "canteen.example" };
    await exchange(`${base}/api/v1/x/info`, { headers: forwarded });
    await exchange(`${base}/page`, { headers: forwarded });
    expect(seen).toEqual([
      { url: "https://canteen.example/api/v1/x/info", client: "10.1.2.3" },
      { url: "https://canteen.example/page", client: "10.1.2.3" },
    ]);
  });

  test("without a trusted proxy, forwarded headers are ignored", async () => {
    const seen: string[] = [];
    const { base } = await listen(async (_request, client) => {
      seen.push(client);
      return envelopeResponse(envelope);
    });
    await exchange(`${base}/api/v1/x/info`, { headers: { "X-Forwarded-For": "10.1.2.3" } });
    await exchange(`${base}/page`, { headers: { "X-Forwarded-For": "10.1.2.3" } });
    expect(seen).toEqual(["127.0.0.1", "127.0.0.1"]);
  });
});
