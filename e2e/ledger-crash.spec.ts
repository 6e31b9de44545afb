import * as http from "node:http";
import { expect, test } from "@playwright/test";
import { processDatabase } from "./support/databases";
import { adminSession, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer } from "./support/processes";

for (const dialect of ["sqlite", "postgres"] as const) {
  test.describe(`SIGKILL during top-ups on ${dialect}`, () => {
    test.skip(dialect === "postgres" && !postgresUrl, "TEST_DATABASE_URL is not set");
    test.setTimeout(120_000);

    test("no acknowledged top-up is lost, the ledger equals the balances, and retrying with the same keys tops up exactly once", async () => {
      const database = await processDatabase(dialect, "canteen-ledger-crash-");
      let server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
      try {
        await waitHealthy(server);
        const token = await adminSession(server.port);
        const diner = await send(server.port, "POST", "/api/v1/zhct/userInfo/create", { token, body: { userCode: "CRASH-1", userName: "断电测试" } });
        expect(diner.body?.status, JSON.stringify(diner.body)).toBe(200);
        const userInfoId = (diner.body?.data as { id: number }).id;

        const sent: Array<{ key: string; answer?: Answer }> = [];
        let stop = false;
        const writer = async (w: number) => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          for (let i = 0; !stop; i++) {
            const entry: { key: string; answer?: Answer } = { key: `crash-${w}-${i}` };
            sent.push(entry);
            try {
              entry.answer = await send(server.port, "POST", "/api/v1/zhct/userAccountCharge/create", { token, agent, body: { userInfoId, amount: 100 }, headers: { "Idempotency-Key": entry.key } });
            } catch {
              // the connection died with the process: not acknowledged
            }
          }
          agent.destroy();
        };
        const writers = [0, 1, 2, 3].map(writer);
        // Kill once a good stream of top-ups has been acknowledged, in the middle of more.
        const acked = () => sent.filter((s) => s.answer?.body?.status === 200).length;
        const started = Date.now();
        while (acked() < 60 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
        server.child.kill("SIGKILL");
        await server.exited;
        stop = true;
        await Promise.all(writers);

        const acknowledged = sent.filter((s) => s.answer?.body?.status === 200);
        expect(acknowledged.length).toBeGreaterThanOrEqual(60);
        // Every acknowledged top-up is in the ledger, and every account's balance is the sum of its lines.
        const keys = await database.keys();
        for (const s of acknowledged) expect(keys.has(s.key), s.key).toBe(true);
        for (const a of await database.accounts()) expect(a.ledger).toBe(a.balance);

        // Restarted, the clients retry what was not acknowledged with the same keys: each top-up lands once.
        server = spawnServer(processPorts.a, { DATABASE_URL: database.url });
        await waitHealthy(server);
        for (const s of sent.filter((s) => s.answer?.body?.status !== 200)) {
          const retry = await send(server.port, "POST", "/api/v1/zhct/userAccountCharge/create", { token, body: { userInfoId, amount: 100 }, headers: { "Idempotency-Key": s.key } });
          expect(retry.body?.status, JSON.stringify(retry.body)).toBe(200);
        }
        const accounts = await send(server.port, "GET", `/api/v1/zhct/userAccount/findPage?userInfoId=${userInfoId}&accountType=cash`, { token });
        expect((accounts.body?.data as { records: Array<{ balance: number }> }).records[0].balance).toBe(100 * sent.length);
        expect((await database.keys()).size).toBe(sent.length);
        for (const a of await database.accounts()) expect(a.ledger).toBe(a.balance);
      } finally {
        await stopServer(server);
        await database.dispose();
      }
    });
  });
}
