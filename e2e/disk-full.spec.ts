import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { adminSession, processPorts, send, spawnServer, stopServer, waitHealthy } from "./support/processes";

/**
 * A real full disk: the SQLite database on a small tmpfs. Mounting needs root (CI runs as root); elsewhere the
 * case is covered by tests/server/faults.test.ts, which reaches the same SQLITE_FULL through max_page_count.
 */
test.describe("SQLite on a disk that fills up", () => {
  test.setTimeout(120_000);
  let mountPoint = "";
  let mounted = false;
  test.beforeAll(() => {
    mountPoint = mkdtempSync(join(tmpdir(), "canteen-full-"));
    mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint]).status === 0;
  });
  test.afterAll(() => {
    if (mounted) spawnSync("umount", [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test("writes answer 503 存储空间不足 and leave nothing half-done; once space returns, writes succeed again", async () => {
    test.skip(!mounted, "cannot mount a tmpfs here (needs root)");
    const file = join(mountPoint, "canteen.db");
    const server = spawnServer(processPorts.a, { DATABASE_URL: file });
    try {
      await waitHealthy(server);
      const token = await adminSession(server.port);
      const create = (code: string) =>
        send(server.port, "POST", "/api/v1/auth/org/create", { token, body: { orgName: `满盘${code}`, orgCode: code, orgType: "org", status: "1", remark: "满".repeat(300) } });

      // Fill the disk but for a little room, then write until it is full.
      const free = () => {
        const stats = statfsSync(mountPoint);
        return stats.bavail * stats.bsize;
      };
      const ballast = join(mountPoint, "ballast");
      writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 200 * 1024)));
      const answers = [];
      for (let i = 0; i < 500; i++) {
        const answer = await create(`DF${i}`);
        answers.push({ code: `DF${i}`, answer });
        if (answers.filter((a) => a.answer.status !== 200).length >= 5) break;
      }
      const refused = answers.filter((a) => a.answer.status !== 200);
      expect(refused.length, "the disk never filled").toBe(5);
      for (const { answer } of refused) expect(answer.body).toEqual({ status: 503, message: "存储空间不足，数据未保存", data: null });
      // Reads still work while the disk is full.
      expect((await send(server.port, "GET", "/api/v1/auth/org/findPage", { token })).body?.status).toBe(200);
      expect(server.output()).toContain("[db] 存储空间不足");
      expect(server.output()).not.toContain("cannot rollback");

      // Space returns: the next write succeeds without a restart.
      rmSync(ballast);
      expect((await create("AFTER")).body?.status).toBe(200);

      server.child.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
      const db = new SQLite(file, { readonly: true });
      try {
        const stored = new Set((db.prepare("select org_code from org").all() as { org_code: string }[]).map((r) => r.org_code));
        // Every acknowledged write is there, no refused one is, and the database is whole.
        expect(answers.filter((a) => a.answer.status === 200 && !stored.has(a.code))).toEqual([]);
        expect(refused.filter((a) => stored.has(a.code))).toEqual([]);
        expect(stored.has("AFTER")).toBe(true);
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        // Each org has its operation-log row: a refused write left neither.
        const orphans = db.prepare("select count(*) as n from org o where o.org_code like 'DF%' and not exists (select 1 from operation_log l where l.entity_id = o.id)").get() as { n: number };
        expect(orphans.n).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      await stopServer(server);
    }
  });
});
