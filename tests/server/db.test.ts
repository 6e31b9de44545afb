import { copyFileSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, sql } from "kysely";
import { afterEach, describe, expect, test } from "vitest";
import { builtInDicts } from "../../resources/dicts";
import { loadConfig } from "../../server/config";
import { migrateToLatest, readerOf, startServing, type Db } from "../../server/db";
import { WRITER_CHECKPOINT_PAGES } from "../../server/db/checkpointer";
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, seed, stableId } from "../../server/modules/seed";
import * as indexOnlyScreens from "../../server/db/migrations/0018_index_only_screens";
import { createApi } from "../../server/http/api";
import { otherSwipes } from "../../server/modules/zhct/orderDays";
import { loginBody, ORIGIN } from "../helpers/api";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

async function count(db: Db, table: "user" | "tenant" | "dict" | "dict_item" | "role" | "menu" | "subsystem" | "org" | "login_name" | "user_role") {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function snapshot(db: Db) {
  const tables = ["user", "tenant", "dict", "dict_item", "role", "menu", "subsystem", "org", "login_name", "user_role"] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await count(db, table);
  return counts;
}

for (const dialect of dialects) {
  describe(dialect, () => {
    const open: TestDatabase[] = [];
    async function freshDatabase(options?: { migrate: boolean }) {
      const database = await createTestDatabase(dialect, options);
      open.push(database);
      return database;
    }
    afterEach(async () => {
      for (const database of open.splice(0)) await database.destroy();
    });

    describe("migrations", () => {
      // The server never ANALYZEs SQLite: without statistics it took the covering report index and read the tenant's
      // whole day of orders for every sale (decision 049).
      test.runIf(dialect === "sqlite")("a counter sale's count of the diner's other swipes reads that diner's day through their index", async () => {
        const { db } = await freshDatabase();
        const sale = { tenantId: DEFAULT_TENANT_ID, orderId: 1, userInfoId: 2, orderDate: "2026-11-25", source: "cashier", cardNo: null };
        for (const place of [{ restaurantId: 3, mealType: "lunch" }, { restaurantId: null, mealType: null }]) {
          const query = otherSwipes(db, { ...sale, ...place }).compile();
          const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
          expect(plan.rows.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH meal_order USING COVERING INDEX meal_order_diner_day_idx \(tenant_id=\? AND user_info_id=\? AND order_date=\?/)]);
        }
      });

      test("migrating a migrated database again changes nothing", async () => {
        const { db } = await freshDatabase();
        const before = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
        expect(before.rows.map((r) => r.name)).toContain("0001_foundation");
        await migrateToLatest(db);
        await migrateToLatest(db);
        const after = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
        expect(after.rows).toEqual(before.rows);
        // The schema is usable afterwards.
        await seed(db, { adminPassword: "Migrated-Pass-2026" });
        expect(await count(db, "tenant")).toBe(1);
      });

      test("0018 gives each food made before it its nutrition row and drops the nutrition screen's old create and delete buttons", async () => {
        const { db } = await freshDatabase();
        await seed(db, { adminPassword: "Migrated-Pass-2026" });
        const now = Date.now();
        const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
        // The database as 0009's seed left it: the buttons granted to the admin role, foods without nutrition.
        const page = stableId("page:/zhct/foodnutrition/index");
        const buttons = ["create", "delete"].map((action) => stableId(`button:/zhct/foodnutrition/index:${action}`));
        for (const [i, id] of buttons.entries()) {
          await db.insertInto("menu").values({ id, subsystem_id: 2, parent_id: page, menu_name: `按钮${i}`, menu_path: null, menu_icon: null, menu_type: "button", permission: `zhct:foodNutrition:${i ? "delete" : "create"}`, sort: i, menu_target: "other", status: 1, ...audit }).execute();
          await db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: ADMIN_ROLE_ID, menu_id: id }).execute();
        }
        await db.insertInto("food_type").values({ tenant_id: DEFAULT_TENANT_ID, id: 7, type_name: "热菜", parent_id: null, sort: 0, status: 1, remark: null, ...audit }).execute();
        const food = { tenant_id: DEFAULT_TENANT_ID, food_type_id: 7, restaurant_id: 1, price: 100, outsider_price: null, unit: "份", dish_class: null, on_shelf: 1, image: null, ingredients: null, description: null, ...audit };
        await db.insertInto("food").values([{ ...food, id: 11, food_name: "旧菜" }, { ...food, id: 12, food_name: "已有营养" }]).execute();
        await db.insertInto("food_nutrition").values({ tenant_id: DEFAULT_TENANT_ID, id: 99, food_id: 12, energy: 300, protein: null, fat: null, carbohydrate: null, fibre: null, sodium: null, ...audit }).execute();

        await indexOnlyScreens.up(db);
        const rows = await db.selectFrom("food_nutrition").select(["id", "food_id", "energy"]).orderBy("food_id").execute();
        expect(rows.map((r) => [Number(r.id), Number(r.food_id), r.energy])).toEqual([[11, 11, null], [99, 12, 300]]);
        expect(await db.selectFrom("menu").select("id").where("id", "in", buttons).execute()).toEqual([]);
        expect(await db.selectFrom("role_menu").select("menu_id").where("menu_id", "in", buttons).execute()).toEqual([]);
        // The seed does not bring them back.
        await seed(db);
        expect(await db.selectFrom("menu").select("id").where("id", "in", buttons).execute()).toEqual([]);
      });

      test("a new database migrates while another one of the same server is migrated", async () => {
        // On PostgreSQL both are schemas of one database: the migrator must look at its own schema only.
        const first = await freshDatabase({ migrate: false });
        const second = await freshDatabase({ migrate: false });
        await Promise.all(
          [first, second].map(async ({ db }) => {
            await migrateToLatest(db);
            await seed(db, { adminPassword: "Parallel-Pass-2026" });
          }),
        );
        const applied = await Promise.all([first, second].map(async ({ db }) => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows));
        expect(applied[0].map((r) => r.name)).toContain("0001_foundation");
        expect(applied[1]).toEqual(applied[0]);
        for (const { db } of [first, second]) expect(await count(db, "tenant")).toBe(1);
      });
    });

    describe("seed", () => {
      test("seeding twice leaves one admin, one tenant and the same dictionaries", async () => {
        const { db } = await freshDatabase();
        const first = await seed(db);
        expect(typeof first.adminPassword).toBe("string");
        expect((first.adminPassword as string).length).toBeGreaterThanOrEqual(12);
        const before = await snapshot(db);
        const hashBefore = await db.selectFrom("user").select("password_hash").where("user_name", "=", "admin").executeTakeFirstOrThrow();

        const second = await seed(db);
        expect(second.adminPassword).toBeUndefined();
        expect(await snapshot(db)).toEqual(before);

        expect(before.tenant).toBe(1);
        const admins = await db.selectFrom("user").select(["id", "password_hash", "pwd_security_level"]).where("user_name", "=", "admin").execute();
        expect(admins).toHaveLength(1);
        expect(admins[0].password_hash).toBe(hashBefore.password_hash);
        expect(admins[0].pwd_security_level).toBe(0);
        const expectedItems = Object.values(builtInDicts).reduce((n, d) => n + d.options.length, 0);
        expect(before.dict).toBe(Object.keys(builtInDicts).length);
        expect(before.dict_item).toBe(expectedItems);
      });

      test("a seed with a given admin password does not replace a password already set", async () => {
        const { db } = await freshDatabase();
        expect((await seed(db, { adminPassword: "First-Pass-2026" })).adminPassword).toBe("First-Pass-2026");
        expect((await seed(db, { adminPassword: "Second-Pass-2026" })).adminPassword).toBeUndefined();
        const database = { db, dialect };
        const api = createApi({ ...database, config: loadConfig({ CANTEEN_CAPTCHA: "off" }) });
        const login = async (password: string) => {
          const response = await api.handle(
            new Request(`${ORIGIN}/login`, { method: "POST", body: JSON.stringify(loginBody("admin", password)) }),
            "127.0.0.1",
          );
          return ((await response.json()) as { status: number }).status;
        };
        expect(await login("First-Pass-2026")).toBe(200);
        expect(await login("Second-Pass-2026")).toBe(400);
      });

      test("the seeded admin's random password signs in", async () => {
        const { db } = await freshDatabase();
        const { adminPassword } = await seed(db);
        const api = createApi({ db, dialect, config: loadConfig({ CANTEEN_CAPTCHA: "off" }) });
        const response = await api.handle(
          new Request(`${ORIGIN}/login`, { method: "POST", body: JSON.stringify(loginBody("admin", adminPassword as string)) }),
          "127.0.0.1",
        );
        const body = (await response.json()) as { status: number; data: { token: string } };
        expect(body.status).toBe(200);
        expect(body.data.token).toBeTruthy();
      });
    });

    describe("connections", () => {
      test("the reader sees committed rows only, and answers while a transaction holds the writer", async () => {
        const { db } = await freshDatabase();
        const tenants = (from: Db) => from.selectFrom("tenant").select("tenant_name").where("id", "=", 4242).execute();
        let seenInside: unknown;
        await db.transaction().execute(async (trx) => {
          await trx.insertInto("tenant").values({ id: 4242, tenant_name: "读连接租户", tenant_code: "reader", status: 1, created_at: 1, updated_at: 1 }).execute();
          expect(await tenants(trx)).toEqual([{ tenant_name: "读连接租户" }]);
          // On SQLite the writer's only connection is this transaction's: a read through it would wait for the commit.
          seenInside = await tenants(readerOf(db));
          if (dialect === "sqlite") expect(readerOf(db)).not.toBe(db);
        });
        expect(seenInside).toEqual([]);
        expect(await tenants(readerOf(db))).toEqual([{ tenant_name: "读连接租户" }]);
      });

      // The WAL index's header (mxFrame at byte 16) and checkpoint info (nBackfill at byte 96), as
      // https://sqlite.org/walformat.html lays out the -shm file; native byte order.
      const walIndex = (file: string) => {
        const shm = readFileSync(`${file}-shm`);
        return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
      };

      test.runIf(dialect === "sqlite")("committed pages reach the database file by the checkpointer, not in a COMMIT", async () => {
        const { db, url } = await freshDatabase();
        await sql`pragma wal_checkpoint(truncate)`.execute(db);
        for (let i = 0; i < 20; i++) {
          await db.insertInto("tenant").values({ id: 5000 + i, tenant_name: `检查点${i}`, tenant_code: `ckpt${i}`, status: 1, created_at: 1, updated_at: 1 }).execute();
        }
        expect(walIndex(url).frames).toBeGreaterThan(0);
        // Twenty commits are far below the writer's own checkpoint (1,000 pages): the worker copies every committed page.
        const deadline = Date.now() + 5000;
        while (walIndex(url).copied < walIndex(url).frames && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(walIndex(url).copied).toBe(walIndex(url).frames);
        // The rows are in the database file itself: a copy of that file alone, without its WAL, holds all twenty.
        // (Counting the WAL's frames instead raced the worker: once it has copied them all, the next commit starts
        // the WAL again from its first frame.)
        const copy = join(dirname(url), "file-only.db");
        copyFileSync(url, copy);
        const fileOnly = new SQLite(copy, { readonly: true });
        try {
          expect(fileOnly.prepare("select count(*) as n from tenant where id between 5000 and 5019").get()).toEqual({ n: 20 });
        } finally {
          fileOnly.close();
        }
      });

      test.runIf(dialect === "sqlite")("once serving, the start-up's WAL is emptied and the writer leaves the copying to the checkpointer", async () => {
        // The start-up's own migrations fill the WAL (a suite's database is otherwise a copy of the run's template).
        const database = await freshDatabase({ migrate: false });
        await migrateToLatest(database.db);
        expect(statSync(`${database.url}-wal`).size).toBeGreaterThan(0);
        await startServing(database);
        expect(statSync(`${database.url}-wal`).size).toBe(0);
        const [setting] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows;
        expect(setting.wal_autocheckpoint).toBe(WRITER_CHECKPOINT_PAGES);
      });
    });
  });
}
