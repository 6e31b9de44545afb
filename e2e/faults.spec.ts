import * as net from "node:net";
import { expect, test } from "@playwright/test";
import { adminSession, postgresSchema, postgresUrl, processPorts, send, spawnServer, stopServer, waitHealthy, type Answer } from "./support/processes";

const UNAVAILABLE = { status: 503, message: "数据库暂时不可用，请稍后重试", data: null };

test.describe("PostgreSQL ends the server's connections", () => {
  test.skip(!postgresUrl, "TEST_DATABASE_URL is not set");
  test.setTimeout(120_000);

  test("the process lives, answers 503 while cut off, reconnects within seconds and loses no acknowledged write", async () => {
    const pgSchema = await postgresSchema();
    const server = spawnServer(processPorts.a, { DATABASE_URL: pgSchema.url });
    const terminate = async () =>
      (await pgSchema.query("select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()", [pgSchema.appName])).rowCount ?? 0;
    try {
      await waitHealthy(server);
      const token = await adminSession(server.port);
      const create = (code: string) =>
        send(server.port, "POST", "/api/v1/auth/org/create", { token, body: { orgName: `断连${code}`, orgCode: code, orgType: "org", status: "1" } });

      // Idle pool connections ended (a restart, a failover): this used to kill the process.
      expect(await terminate()).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(server.child.exitCode).toBeNull();
      expect((await create("IDLE1")).body?.status).toBe(200);

      // Busy connections ended during a stream of writes.
      const results: { code: string; answer?: Answer; error?: string }[] = [];
      let writing = true;
      const writer = async (w: number) => {
        for (let i = 0; writing; i++) {
          const entry: (typeof results)[number] = { code: `PF${w}x${i}` };
          results.push(entry);
          try {
            entry.answer = await create(entry.code);
          } catch (error) {
            entry.error = String(error);
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      let ended = 0;
      const done = () => results.filter((r) => r.answer || r.error).length;
      for (let round = 0; round < 5; round++) {
        // Each cut lands among writes: a few more have ended since the last one.
        const before = done();
        await expect.poll(done, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 4);
        ended += await terminate();
      }
      const lastCut = Date.now();
      // Recovery: the first write after the last cut that succeeds, within seconds.
      let recoveredAt = 0;
      while (!recoveredAt && Date.now() - lastCut < 10_000) {
        if ((await create(`REC${Date.now()}`)).body?.status === 200) recoveredAt = Date.now();
        else await new Promise((r) => setTimeout(r, 100));
      }
      // The writers go on past the recovery before they stop.
      const recovered = done();
      await expect.poll(done, { timeout: 20_000 }).toBeGreaterThanOrEqual(recovered + 4);
      writing = false;
      await Promise.all(writers);

      expect(server.child.exitCode, server.output()).toBeNull();
      expect(ended).toBeGreaterThan(0);
      expect(recoveredAt, "no write succeeded within 10 s of the last cut").toBeGreaterThan(0);
      expect(recoveredAt - lastCut).toBeLessThan(5_000);
      // Every request was answered: a success, or the 503 envelope — never a 500 or a dropped connection.
      expect(results.filter((r) => r.error)).toEqual([]);
      const refused = results.filter((r) => r.answer?.body?.status !== 200);
      for (const r of refused) {
        expect(r.answer?.status).toBe(503);
        expect(r.answer?.body).toEqual(UNAVAILABLE);
      }
      expect(refused.length, "no write met an ended connection").toBeGreaterThan(0);
      // The fault is logged as a line, not a stack per request.
      expect(server.output()).toContain("[db] 数据库不可用");
      expect(server.output()).not.toMatch(/^\s+at /m);
      // The pool serves again and nothing acknowledged is missing.
      expect((await send(server.port, "GET", "/healthz")).status).toBe(200);
      const stored = new Set((await pgSchema.query(`select org_code from ${pgSchema.schema}.org`)).rows.map((r) => r.org_code as string));
      const acknowledged = results.filter((r) => r.answer?.body?.status === 200).map((r) => r.code);
      expect(acknowledged.length).toBeGreaterThan(10);
      expect(acknowledged.filter((c) => !stored.has(c))).toEqual([]);
    } finally {
      await stopServer(server);
      await pgSchema.drop();
    }
  });

  test("while PostgreSQL cannot be reached at all, requests get 503; when it is back, the server serves again by itself", async () => {
    const pgSchema = await postgresSchema();
    // The server reaches PostgreSQL through a TCP forwarder that the test can take down and bring back (an outage).
    const target = new URL(pgSchema.url);
    const sockets = new Set<net.Socket>();
    const forwarder = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    const listen = () => new Promise<void>((resolve) => forwarder.listen(processPorts.spare, "127.0.0.1", resolve));
    await listen();
    const viaForwarder = new URL(pgSchema.url);
    viaForwarder.hostname = "127.0.0.1";
    viaForwarder.port = String(processPorts.spare);
    const server = spawnServer(processPorts.a, { DATABASE_URL: viaForwarder.toString() });
    try {
      await waitHealthy(server);
      const token = await adminSession(server.port);
      const create = (code: string) =>
        send(server.port, "POST", "/api/v1/auth/org/create", { token, body: { orgName: `停库${code}`, orgCode: code, orgType: "org", status: "1" } });
      expect((await create("UP1")).body?.status).toBe(200);

      // Down: existing connections cut, new ones refused.
      await new Promise<void>((resolve) => {
        forwarder.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      for (let i = 0; i < 3; i++) {
        const refused = await create(`DOWN${i}`);
        expect(refused.status).toBe(503);
        expect(refused.body).toEqual(UNAVAILABLE);
      }
      expect((await send(server.port, "GET", "/api/v1/auth/org/findPage", { token })).body).toEqual(UNAVAILABLE);
      expect((await send(server.port, "GET", "/healthz")).status).toBe(503);
      expect(server.child.exitCode, server.output()).toBeNull();

      // Back: the next requests open new connections.
      await listen();
      const backAt = Date.now();
      let served = false;
      while (!served && Date.now() - backAt < 5_000) served = (await create(`UP${Date.now()}`)).body?.status === 200;
      expect(served, "no write succeeded within 5 s of PostgreSQL coming back").toBe(true);
      const codes = (await pgSchema.query(`select org_code from ${pgSchema.schema}.org where org_code like 'DOWN%' or org_code = 'UP1'`)).rows.map((r) => r.org_code);
      expect(codes).toEqual(["UP1"]);
    } finally {
      await stopServer(server);
      forwarder.close();
      for (const s of sockets) s.destroy();
      await pgSchema.drop();
    }
  });
});
