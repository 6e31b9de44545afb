import * as http from "node:http";
import { expect, test } from "@playwright/test";
import { processDatabase } from "./support/databases";
import { adminSession, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer } from "./support/processes";

const DEADLINE_SECONDS = 5;

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
  });
}
