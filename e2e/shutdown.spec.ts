import { mkdtempSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { processDatabase } from "./support/databases";
import { adminSession, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer } from "./support/processes";

const DEADLINE_SECONDS = 5;

/** A PNG of 2×2 pixels: the upload in the mix. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==", "base64");
const BOUNDARY = "----canteen-shutdown";
const MULTIPART = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
  PNG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

interface Exchange {
  kind: string;
  mode: "close" | "keep-alive";
  /** When the request's last byte was handed to the kernel: from then on the server has it. */
  writtenAt?: number;
  status?: number;
  /** The envelope's status for an API call, or the first bytes of a page. */
  answer?: string;
  error?: string;
}

/** One request as a terminal, a script or a proxy sends it: `Connection: close`, or kept alive on `agent`. */
function exchange(port: number, entry: Exchange, request: { method: string; path: string; headers: Record<string, string>; body?: Buffer }, agent?: http.Agent): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: request.method,
        path: request.path,
        agent: agent ?? false,
        headers: { ...request.headers, ...(agent ? {} : { Connection: "close" }), ...(request.body ? { "Content-Length": String(request.body.length) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          entry.status = response.statusCode;
          const body = Buffer.concat(chunks);
          entry.answer = /json/.test(response.headers["content-type"] ?? "") ? String(JSON.parse(body.toString("utf8")).status) : body.subarray(0, 4).toString("latin1");
          resolve();
        });
        response.on("error", (error: NodeJS.ErrnoException) => {
          entry.error = error.code ?? String(error);
          resolve();
        });
      },
    );
    req.on("finish", () => (entry.writtenAt = Date.now()));
    req.on("error", (error: NodeJS.ErrnoException) => {
      entry.error = error.code ?? String(error);
      resolve();
    });
    req.end(request.body);
  });
}

interface Sent {
  code: string;
  sentAt: number;
  answer?: Answer;
  error?: string;
}

for (const dialect of ["sqlite", "postgres"] as const) {
  test.describe(`SIGTERM on ${dialect}`, () => {
    test.skip(dialect === "postgres" && !postgresUrl, "TEST_DATABASE_URL is not set");
    test.setTimeout(90_000);

    test("answers every request received, closes kept-alive connections, loses no acknowledged write and exits 0 within the deadline", async () => {
      const database = await processDatabase(dialect, "canteen-shutdown-");
      const server = spawnServer(processPorts.a, { DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS) });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);

        // A client that keeps its connection open and says nothing more: the server must not wait for it.
        const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        expect((await send(server.port, "GET", "/healthz", { agent: idleAgent })).status).toBe(200);
        // One that asks again on its kept-alive connection once the server is stopping: answered, told to close.
        const lateAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        expect((await send(server.port, "GET", "/healthz", { agent: lateAgent })).headers.connection).toBe("keep-alive");
        const stopping = server.seen("正在停止");
        const late = stopping.then(() => send(server.port, "GET", "/api/v1/auth/user/info", { token, agent: lateAgent }));

        const sent: Sent[] = [];
        let stop = false;
        const writer = async (w: number) => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          for (let i = 0; !stop; i++) {
            const entry: Sent = { code: `SD${w}x${i}`, sentAt: Date.now() };
            sent.push(entry);
            try {
              entry.answer = await send(server.port, "POST", "/api/v1/auth/org/create", {
                token,
                agent,
                body: { orgName: `停机${w}-${i}`, orgCode: entry.code, orgType: "org", status: "1" },
              });
            } catch (error) {
              entry.error = (error as NodeJS.ErrnoException).code ?? String(error);
              // After the signal the server no longer accepts connections; this writer is done.
              if (Date.now() > signalAt) return;
            }
          }
        };
        let signalAt = Number.POSITIVE_INFINITY;
        const writers = [0, 1, 2, 3].map(writer);
        // The signal comes while writes are in flight: once each writer has had a few answered.
        await expect.poll(() => sent.filter((s) => s.answer).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(20);
        signalAt = Date.now();
        server.child.kill("SIGTERM");
        const { code, at } = await server.exited;
        stop = true;
        await Promise.all(writers);
        idleAgent.destroy();
        lateAgent.destroy();
        const stoppingAt = await stopping;

        expect(code, server.output()).toBe(0);
        expect(at - signalAt).toBeLessThan(DEADLINE_SECONDS * 1000);
        expect(server.output()).toContain("正在停止");
        expect(server.output()).toContain("已停止");

        const before = sent.filter((s) => s.sentAt < signalAt);
        expect(before.length).toBeGreaterThan(10);
        // Every request sent before the signal was answered, and answered as a success.
        expect(before.filter((s) => !s.answer).map((s) => `${s.code} ${s.error}`)).toEqual([]);
        expect(before.filter((s) => s.answer?.body?.status !== 200)).toEqual([]);
        // What was answered once the server was stopping told the client to close the connection.
        const lateAnswer = await late;
        expect(lateAnswer.body?.status).toBe(200);
        expect(lateAnswer.headers.connection).toBe("close");
        for (const s of sent.filter((s) => s.answer && s.sentAt > stoppingAt)) expect(s.answer?.headers.connection).toBe("close");

        const stored = new Set((await database.rows<{ org_code: string }>("select org_code from org")).map((r) => r.org_code));
        const acknowledged = sent.filter((s) => s.answer?.body?.status === 200).map((s) => s.code);
        expect(acknowledged.filter((c) => !stored.has(c))).toEqual([]);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });

    test("answers every request whose bytes arrived before the signal, kept alive or Connection: close: pages, lists, exports and uploads", async () => {
      const database = await processDatabase(dialect, "canteen-shutdown-modes-");
      const server = spawnServer(processPorts.a, {
        DATABASE_URL: database.url,
        SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS),
        UPLOAD_DIR: join(mkdtempSync(join(tmpdir(), "canteen-shutdown-uploads-")), "uploads"),
      });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);
        const auth = { Authorization: `Bearer ${token}` };
        const kinds = {
          page: { method: "GET", path: "/admin/auth/user/index", headers: { Cookie: `Admin-Token=${token}` } },
          list: { method: "GET", path: "/api/v1/auth/user/findPage?pageNum=1&pageSize=50", headers: auth },
          export: { method: "GET", path: "/api/v1/auth/user/export", headers: auth },
          upload: { method: "POST", path: "/api/v1/sys/file/upload?kind=image", headers: { ...auth, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` }, body: MULTIPART },
        } as const;
        // What each kind answers when all is well: a page's HTML, an API envelope of 200, an XLSX (a zip: "PK").
        const expected = { page: "<!DO", list: "200", export: "PK\u0003\u0004", upload: "200" } as const;

        const sent: Exchange[] = [];
        let signalAt = Number.POSITIVE_INFINITY;
        const client = async (kind: keyof typeof kinds, mode: Exchange["mode"]) => {
          const agent = mode === "keep-alive" ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : undefined;
          // Two of each, so that connections queue at the server while others are being answered.
          while (Date.now() < signalAt + 1000) {
            const entry: Exchange = { kind, mode };
            sent.push(entry);
            await exchange(server.port, entry, kinds[kind], agent);
            if (entry.error && Date.now() > signalAt) break;
          }
          agent?.destroy();
        };
        const clients = (Object.keys(kinds) as (keyof typeof kinds)[]).flatMap((kind) => (["close", "keep-alive"] as const).flatMap((mode) => [client(kind, mode), client(kind, mode)]));
        await expect.poll(() => sent.filter((s) => s.status).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(60);
        signalAt = Date.now();
        server.child.kill("SIGTERM");
        const { code, at } = await server.exited;
        await Promise.all(clients);

        expect(code, server.output()).toBe(0);
        expect(at - signalAt).toBeLessThan(DEADLINE_SECONDS * 1000);
        const received = sent.filter((s) => s.writtenAt !== undefined && s.writtenAt < signalAt);
        for (const mode of ["close", "keep-alive"]) expect(received.filter((s) => s.mode === mode).length).toBeGreaterThan(10);
        // Every request the server had before the signal was answered, and answered as a success, in either mode.
        expect(received.filter((s) => s.error || s.answer !== expected[s.kind as keyof typeof expected]).map((s) => `${s.mode} ${s.kind}: ${s.error ?? `${s.status} ${s.answer}`}`)).toEqual([]);
        // Connections made after the signal are refused, not accepted and left unanswered.
        for (const s of sent.filter((s) => s.error && s.writtenAt === undefined)) expect(["ECONNREFUSED", "ECONNRESET"]).toContain(s.error);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });
  });
}
