import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { migrateToLatest, openDatabase } from "../server/db";
import { postgresUrl, processPorts, spawnServer } from "./support/processes";

// Root writes through any permission bits, so the read-only cases run the server as `nobody` when run as root.
const asOtherUser = process.getuid?.() === 0 ? { uid: 65534 } : {};

async function startFails(env: Record<string, string>, options: { uid?: number } = {}) {
  const server = spawnServer(processPorts.spare, env, options);
  const { code } = await server.exited;
  const lines = server.output().trim().split("\n");
  return { code, lines, output: server.output() };
}

function expectOneChineseLine(result: { code: number | null; lines: string[]; output: string }, what: RegExp) {
  expect(result.code, result.output).not.toBe(0);
  expect(result.code, result.output).not.toBeNull();
  // The notices of a first start (the admin's password, captcha off, the instance number) may come before it.
  const errorLines = result.lines.filter((line) => !/^(首次启动|警告)：|^实例编号 \d+$/.test(line));
  expect(errorLines, result.output).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^启动失败：/);
  expect(errorLines[0]).toMatch(what);
  expect(result.output).not.toMatch(/^\s+at /m);
}

test.describe("start-up errors print one line saying what to do, and exit non-zero", () => {
  let dir: string;
  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "canteen-start-"));
    chmodSync(dir, 0o755);
  });
  test.afterAll(() => {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  test("the database directory is a file", async () => {
    writeFileSync(join(dir, "plain-file"), "x");
    expectOneChineseLine(await startFails({ DATABASE_URL: join(dir, "plain-file", "canteen.db") }), /不是目录.*DATABASE_URL/);
  });

  test("the database directory is read-only", async () => {
    const readOnly = join(dir, "read-only");
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    expectOneChineseLine(await startFails({ DATABASE_URL: join(readOnly, "canteen.db") }, asOtherUser), /无法在 .*read-only.*打开或创建数据库.*权限/);
  });

  test("the database file is read-only", async () => {
    const folder = join(dir, "read-only-file");
    mkdirSync(folder);
    const file = join(folder, "canteen.db");
    const handle = await openDatabase(file);
    await migrateToLatest(handle.db);
    await handle.close();
    chmodSync(file, 0o444);
    chmodSync(folder, 0o555);
    expectOneChineseLine(await startFails({ DATABASE_URL: file }, asOtherUser), /只读.*写入/);
  });

  test("the port is taken", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(processPorts.spare, "127.0.0.1", resolve));
    try {
      expectOneChineseLine(await startFails({ DATABASE_URL: join(dir, "port.db") }), new RegExp(`端口 ${processPorts.spare} 已被占用.*PORT`));
    } finally {
      blocker.close();
    }
  });

  test.describe("PostgreSQL", () => {
    test.skip(!postgresUrl, "TEST_DATABASE_URL is not set");

    const withUrl = (change: (url: URL) => void) => {
      const url = new URL(postgresUrl as string);
      change(url);
      return url.toString();
    };

    test("nothing listens at the address", async () => {
      const unreachable = withUrl((url) => (url.port = String(processPorts.spare)));
      expectOneChineseLine(await startFails({ DATABASE_URL: unreachable }), /无法连接 PostgreSQL.*已启动/);
    });

    test("the database does not exist", async () => {
      const missing = withUrl((url) => (url.pathname = "/canteen_no_such_database"));
      expectOneChineseLine(await startFails({ DATABASE_URL: missing }), /数据库“canteen_no_such_database”不存在.*createdb/);
    });

    test("the database is read-only", async () => {
      const readOnly = withUrl((url) => url.searchParams.set("options", "-c default_transaction_read_only=on"));
      expectOneChineseLine(await startFails({ DATABASE_URL: readOnly }), /只读.*可写的主库/);
    });
  });
});
