import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, expect, test } from "vitest";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "../../server/db";
import { seed } from "../../server/modules/seed";

// Two handles in one process stand for two processes: SQLite locks between connections of one process as between
// processes. e2e/ledger-concurrency.spec.ts starts two real servers on one new file.
const dirs: string[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("two starts on one new SQLite file take turns to migrate and seed, so both succeed and seed once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "canteen-start-lock-"));
  dirs.push(dir);
  const file = join(dir, "canteen.db");
  handles.push(await openDatabase(file), await openDatabase(file));
  // What is tested is the order of the two starts, not their durability: no disk sync per migration statement.
  for (const h of handles) await sql`pragma synchronous = off`.execute(h.db);
  const turns: string[] = [];
  const start = (name: string, handle: DatabaseHandle) =>
    handle.exclusive(async () => {
      turns.push(`${name} begins`);
      await migrateToLatest(handle.db);
      const seeded = await seed(handle.db, { adminPassword: "Start-Lock-2026" });
      turns.push(`${name} ends`);
      return seeded;
    });
  // Without the turn, the second's migration met tables the first had just made: "table … already exists".
  const results = await Promise.all([start("a", handles[0]), start("b", handles[1])]);
  expect([
    ["a begins", "a ends", "b begins", "b ends"],
    ["b begins", "b ends", "a begins", "a ends"],
  ]).toContainEqual(turns);
  // One of them made the first admin; the other found it.
  expect(results.filter((r) => r.adminPassword)).toHaveLength(1);
  const admins = await handles[0].db.selectFrom("login_name").select("user_id").where("user_name", "=", "admin").execute();
  expect(admins).toHaveLength(1);
  // The turn's file stays beside the database, empty: nothing to back up or clean.
  expect(statSync(`${file}-start-lock`).size).toBe(0);
});
