import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ID_INSTANCES, IdGenerator } from "../../server/db";
import { claimInstanceNumber, holdInstanceNumber } from "../../server/db/instanceLease";
import { createTestDatabase, dialects, openAgain, type TestDatabase } from "../helpers/db";

const ID_EPOCH = Date.UTC(2024, 0, 1);
const instanceOf = (id: number) => Math.floor(id / 64) % 64;
const millisOf = (id: number) => Math.floor(id / 4096);

describe("id layout", () => {
  test("two generators with different numbers in the same milliseconds never make the same id", () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const clock = () => now;
    const a = new IdGenerator(1, clock);
    const b = new IdGenerator(2, clock);
    const made: number[] = [];
    // 300 ids each per millisecond: more than a millisecond's 64, so both borrow the following ones.
    for (let ms = 0; ms < 5; ms++, now++) for (let i = 0; i < 300; i++) made.push(a.next(), b.next());
    expect(new Set(made).size).toBe(made.length);
    expect(new Set(made.filter((_, i) => i % 2 === 0).map(instanceOf))).toEqual(new Set([1]));
    expect(new Set(made.filter((_, i) => i % 2 === 1).map(instanceOf))).toEqual(new Set([2]));
  });

  test("ids keep increasing within an instance, also when the clock steps back", () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const ids = new IdGenerator(5, () => now);
    const made = [ids.next(), ids.next()];
    now -= 1000;
    made.push(ids.next());
    now += 2000;
    made.push(ids.next());
    expect(made).toEqual([...made].sort((x, y) => x - y));
    expect(new Set(made).size).toBe(4);
    expect(millisOf(made[3])).toBe(now - ID_EPOCH);
  });

  test("ids order by time across instances: a later millisecond sorts after every id of an earlier one", () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const high = new IdGenerator(ID_INSTANCES - 1, () => now);
    const low = new IdGenerator(0, () => now);
    let earlier = 0;
    for (let i = 0; i < 64; i++) earlier = Math.max(earlier, high.next());
    now += 1;
    expect(low.next()).toBeGreaterThan(earlier);
  });

  test("new ids sort after every id of the first layout (ms × 4096 + 12-bit sequence) made before them", () => {
    const before = Date.UTC(2026, 10, 22, 12) - ID_EPOCH;
    const largestOldId = before * 4096 + 4095;
    expect(new IdGenerator(0, () => ID_EPOCH + before + 1).next()).toBeGreaterThan(largestOldId);
  });

  test("ids stay below 2^53 until 2093 with the largest instance number and sequence", () => {
    const ids = new IdGenerator(ID_INSTANCES - 1, () => Date.UTC(2093, 0, 1));
    let last = 0;
    for (let i = 0; i < 64; i++) last = ids.next();
    expect(last % 64).toBe(63);
    expect(last).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(Number.isSafeInteger(last + 1)).toBe(true);
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: instance number leases`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database?.destroy();
    });

    test("instances claiming at once get different numbers, the lowest free ones", async () => {
      await database.db.deleteFrom("instance_lease").execute();
      // Each with connections of its own, as instances starting at once have.
      const instances = await Promise.all(["a", "b", "c", "d"].map(async (holder) => ({ holder, handle: await openAgain(database) })));
      try {
        const claimed = await Promise.all(instances.map(({ holder, handle }) => claimInstanceNumber(handle.db, dialect, holder)));
        expect([...claimed].sort()).toEqual([0, 1, 2, 3]);
      } finally {
        await Promise.all(instances.map(({ handle }) => handle.close()));
      }
    });

    test("a lease that is not renewed expires and its number is claimed again; a held one is renewed", async () => {
      await database.db.deleteFrom("instance_lease").execute();
      const crashed = await claimInstanceNumber(database.db, dialect, "crashed", 500);
      const held = await holdInstanceNumber(database.db, dialect, 500);
      expect([crashed, held.number]).toEqual([0, 1]);
      expect(await claimInstanceNumber(database.db, dialect, "early", 500)).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // "crashed" and "early" were never renewed; the held lease was, four times per lease period.
      expect(await claimInstanceNumber(database.db, dialect, "restarted", 60_000)).toBe(0);
      expect(await claimInstanceNumber(database.db, dialect, "next", 60_000)).toBe(2);
      const rows = await database.db.selectFrom("instance_lease").select(["instance_no", "holder"]).orderBy("instance_no").execute();
      expect(rows.map((r) => [r.instance_no, r.holder])).toEqual([
        [0, "restarted"],
        [1, expect.stringContaining(`:${process.pid}:`)],
        [2, "next"],
      ]);
      await held.release();
      expect(await claimInstanceNumber(database.db, dialect, "after release", 60_000)).toBe(1);
    });

    test("when every number is held, none is claimed", async () => {
      await database.db.deleteFrom("instance_lease").execute();
      for (let i = 0; i < ID_INSTANCES; i++) await claimInstanceNumber(database.db, dialect, `holder ${i}`);
      expect(await claimInstanceNumber(database.db, dialect, "one too many")).toBeNull();
      await expect(holdInstanceNumber(database.db, dialect)).rejects.toMatchObject({ code: "INSTANCE_NUMBERS_TAKEN" });
    });
  });
}
