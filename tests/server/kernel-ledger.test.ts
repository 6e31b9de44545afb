import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "../../server/http/envelope";
import { defineLedger, type LedgerEntry } from "../../server/kernel/ledger";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

// A ledger declared here, not in the product: a store's goods, kept in thousandths (the first measure, with the
// floor) and in fen (the second), the shape logistics' stock ledger will have. Its tables are created by the test.

const TENANT = 1;
const OTHER_TENANT = 2;
const DAY_MS = 86_400_000;
/** Moments before this one fall in a locked period. */
const LOCKED_BEFORE = Date.UTC(2026, 0, 1);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

const sampleDay = {
  name: "sampleDay",
  async apply(trx: AnyDb, line: { tenantId: number; key: Record<string, string | number>; quantity: number; amount?: number; occurredAt: number }) {
    await sql`insert into sample_day (tenant_id, day, goods_id, quantity, amount, lines) values (${line.tenantId}, ${dayOf(line.occurredAt)}, ${line.key.goodsId}, ${line.quantity}, ${line.amount ?? 0}, 1)
      on conflict (tenant_id, day, goods_id) do update set quantity = sample_day.quantity + excluded.quantity, amount = sample_day.amount + excluded.amount, lines = sample_day.lines + 1`.execute(trx);
  },
  async recount(db: AnyDb, tenantId?: number) {
    const ofTenant = tenantId === undefined ? sql`1 = 1` : sql`tenant_id = ${tenantId}`;
    await sql`delete from sample_day where ${ofTenant}`.execute(db);
    // The day number by integer division on both databases; its text is made here, as `apply` makes it.
    const day = sql`occurred_at / ${sql.lit(DAY_MS)}`;
    const rows = await sql<{ tenant_id: number; day_no: number; goods_id: number; quantity: number; amount: number; lines: number }>`
      select tenant_id, ${day} as day_no, goods_id, sum(quantity) as quantity, sum(amount) as amount, count(*) as lines
      from sample_line where ${ofTenant} group by tenant_id, ${day}, goods_id`.execute(db);
    for (const r of rows.rows) {
      await sql`insert into sample_day (tenant_id, day, goods_id, quantity, amount, lines) values (${r.tenant_id}, ${dayOf(Number(r.day_no) * DAY_MS)}, ${r.goods_id}, ${r.quantity}, ${r.amount}, ${r.lines})`.execute(db);
    }
  },
};

const stock = defineLedger({
  name: "sample stock",
  balances: { table: "sample_balance", id: "id", opens: true },
  lines: {
    table: "sample_line",
    columns: { docType: "doc_type", docId: "doc_id", docLineId: "doc_line_id", operatorId: "operator_id", remark: "remark", reversalOf: "reversal_of", balanceId: "balance_id" },
  },
  key: { storeId: "store_id", goodsId: "goods_id" },
  quantity: { balance: "quantity", line: "quantity", after: "quantity_after" },
  amount: { balance: "amount", line: "amount" },
  extra: { batchNo: "batch_no" },
  lockedPeriod: async (_trx, _tenantId, occurredAt) => (occurredAt < LOCKED_BEFORE ? "2025-12" : null),
  projections: [sampleDay],
  messages: { insufficient: "库存不足", zero: "数量不能为 0", locked: (period) => `${period} 已结账` },
});

async function createTables(db: AnyDb) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const audit = (t: CreateTableBuilder<string, any>) =>
    t.addColumn("created_at", "bigint").addColumn("created_by", "bigint").addColumn("updated_at", "bigint").addColumn("updated_by", "bigint");
  await audit(
    db.schema
      .createTable("sample_balance")
      .addColumn("tenant_id", "bigint", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("store_id", "bigint", (c) => c.notNull())
      .addColumn("goods_id", "bigint", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addColumn("amount", "bigint", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("sample_balance_pk", ["tenant_id", "store_id", "goods_id"])
    .execute();
  await audit(
    db.schema
      .createTable("sample_line")
      .addColumn("tenant_id", "bigint", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("store_id", "bigint", (c) => c.notNull())
      .addColumn("goods_id", "bigint", (c) => c.notNull())
      .addColumn("balance_id", "bigint", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addColumn("amount", "bigint", (c) => c.notNull())
      .addColumn("quantity_after", "bigint", (c) => c.notNull())
      .addColumn("doc_type", "text")
      .addColumn("doc_id", "bigint")
      .addColumn("doc_line_id", "bigint")
      .addColumn("operator_id", "bigint")
      .addColumn("remark", "text")
      .addColumn("batch_no", "text")
      .addColumn("reversal_of", "bigint")
      .addColumn("occurred_at", "bigint", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("sample_line_pk", ["tenant_id", "id"])
    .addUniqueConstraint("sample_line_reversal_of", ["tenant_id", "reversal_of"])
    .execute();
  await db.schema
    .createTable("sample_day")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("goods_id", "bigint", (c) => c.notNull())
    .addColumn("quantity", "bigint", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("lines", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("sample_day_pk", ["tenant_id", "day", "goods_id"])
    .execute();
}

for (const dialect of dialects) {
  describe(`${dialect}: a ledger declared with defineLedger`, () => {
    let database: TestDatabase;
    let db: AnyDb;
    let goods = 100;
    const now = Date.UTC(2026, 4, 12, 3);
    const entry = (goodsId: number, quantity: number, amount: number, more: Partial<LedgerEntry> = {}): LedgerEntry => ({
      tenantId: TENANT,
      key: { storeId: 1, goodsId },
      quantity,
      amount,
      docType: "sampleIn",
      docId: 1,
      occurredAt: now,
      ...more,
    });
    const run = <T>(work: (trx: AnyDb) => Promise<T>) => inWriteTransaction(database.db, database.dialect, work);
    const balanceOf = async (goodsId: number) =>
      (await db.selectFrom("sample_balance").select(["quantity", "amount"]).where("tenant_id", "=", TENANT).where("goods_id", "=", goodsId).executeTakeFirst()) as { quantity: number; amount: number } | undefined;
    const linesOf = async (goodsId: number) => (await db.selectFrom("sample_line").selectAll().where("tenant_id", "=", TENANT).where("goods_id", "=", goodsId).orderBy("id").execute()) as Array<Record<string, unknown>>;
    const refusal = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, message: (error as ApiError).message };
    };

    beforeAll(async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      db = database.db as AnyDb;
      await createTables(db);
    });
    afterAll(async () => {
      await database?.destroy();
    });

    test("post writes one line and moves both measures; the line records the balance after", async () => {
      const goodsId = ++goods;
      const first = await run((trx) => stock.post(trx, entry(goodsId, 12_345, 5_000, { docLineId: 7, operatorId: 9, remark: "入库", extra: { batchNo: "B1" } })));
      const second = await run((trx) => stock.post(trx, entry(goodsId, -2_345, -950)));
      expect(first.balanceAfter).toBe(12_345);
      expect(first.amountAfter).toBe(5_000);
      expect(second.balanceAfter).toBe(10_000);
      expect(second.amountAfter).toBe(4_050);
      expect(await balanceOf(goodsId)).toEqual({ quantity: 10_000, amount: 4_050 });
      const lines = await linesOf(goodsId);
      expect(lines.map((l) => [Number(l.quantity), Number(l.amount), Number(l.quantity_after), l.batch_no, l.remark])).toEqual([
        [12_345, 5_000, 12_345, "B1", "入库"],
        [-2_345, -950, 10_000, null, null],
      ]);
      expect(Number(lines[0].doc_line_id)).toBe(7);
      expect(Number(lines[0].operator_id)).toBe(9);
      expect(Number(lines[0].balance_id)).toBe(first.balanceId);
      expect(await stock.check(db, TENANT)).toEqual([]);
    });

    test("a posting below the floor is refused with the ledger's message and writes nothing", async () => {
      const goodsId = ++goods;
      await run((trx) => stock.post(trx, entry(goodsId, 1_000, 100)));
      expect(await refusal(run((trx) => stock.post(trx, entry(goodsId, -1_001, -100))))).toEqual({ status: 409, message: "库存不足" });
      expect(await balanceOf(goodsId)).toEqual({ quantity: 1_000, amount: 100 });
      expect(await linesOf(goodsId)).toHaveLength(1);
      expect(await refusal(run((trx) => stock.post(trx, entry(goodsId, 0, 0))))).toEqual({ status: 400, message: "数量不能为 0" });
      // Down to the floor exactly is allowed.
      expect((await run((trx) => stock.post(trx, entry(goodsId, -1_000, -100)))).balanceAfter).toBe(0);
    });

    test("a posting into a locked period is refused and writes nothing", async () => {
      const goodsId = ++goods;
      expect(await refusal(run((trx) => stock.post(trx, entry(goodsId, 500, 10, { occurredAt: LOCKED_BEFORE - 1 }))))).toEqual({ status: 409, message: "2025-12 已结账" });
      expect(await balanceOf(goodsId)).toBeUndefined();
      expect(await linesOf(goodsId)).toEqual([]);
      expect((await run((trx) => stock.post(trx, entry(goodsId, 500, 10, { occurredAt: LOCKED_BEFORE })))).balanceAfter).toBe(500);
    });

    test("reverse undoes a line once, with a line of the opposite sign that names it", async () => {
      const goodsId = ++goods;
      const line = await run((trx) => stock.post(trx, entry(goodsId, 3_000, 600, { extra: { batchNo: "B2" } })));
      const reversal = await run((trx) => stock.reverse(trx, TENANT, line.id, { operatorId: 5, remark: "录错" }));
      expect(reversal.quantity).toBe(-3_000);
      expect(reversal.amount).toBe(-600);
      expect(reversal.balanceAfter).toBe(0);
      expect(await balanceOf(goodsId)).toEqual({ quantity: 0, amount: 0 });
      const lines = await linesOf(goodsId);
      expect(lines.map((l) => [Number(l.quantity), l.batch_no, l.reversal_of === null ? null : Number(l.reversal_of)])).toEqual([
        [3_000, "B2", null],
        [-3_000, "B2", line.id],
      ]);
      expect(await refusal(run((trx) => stock.reverse(trx, TENANT, line.id)))).toEqual({ status: 409, message: "该流水已冲正" });
      expect(await refusal(run((trx) => stock.reverse(trx, TENANT, reversal.id)))).toEqual({ status: 409, message: "冲正流水不能再冲正" });
      expect(await linesOf(goodsId)).toHaveLength(2);
    });

    test("reverseDocument reverses every unreversed line the document posted, and nothing twice", async () => {
      const [a, b] = [++goods, ++goods];
      const doc = { docType: "sampleIn", docId: 4242 };
      const lines = await run(async (trx) => [
        await stock.post(trx, entry(a, 1_000, 10, { ...doc, docLineId: 1 })),
        await stock.post(trx, entry(b, 2_000, 20, { ...doc, docLineId: 2 })),
        await stock.post(trx, entry(a, 500, 5, { ...doc, docLineId: 3 })),
      ]);
      // Another document's line of the same goods stays.
      await run((trx) => stock.post(trx, entry(a, 7, 1, { docType: "sampleIn", docId: 4243 })));
      await run((trx) => stock.reverse(trx, TENANT, lines[2].id));
      const reversals = await run((trx) => stock.reverseDocument(trx, TENANT, "sampleIn", 4242, { operatorId: 3 }));
      expect(reversals.map((r) => [r.reversalOf, r.quantity, r.docId])).toEqual([
        [lines[0].id, -1_000, 4242],
        [lines[1].id, -2_000, 4242],
      ]);
      expect(await balanceOf(a)).toEqual({ quantity: 7, amount: 1 });
      expect(await balanceOf(b)).toEqual({ quantity: 0, amount: 0 });
      expect(await run((trx) => stock.reverseDocument(trx, TENANT, "sampleIn", 4242))).toEqual([]);
      expect(await stock.check(db, TENANT)).toEqual([]);
    });

    test("check finds a balance that differs from its lines, in its tenant only", async () => {
      const goodsId = ++goods;
      await run((trx) => stock.post(trx, entry(goodsId, 800, 80)));
      await run((trx) => stock.post(trx, { ...entry(goodsId, 900, 90), tenantId: OTHER_TENANT }));
      await db.updateTable("sample_balance").set({ quantity: 801 }).where("tenant_id", "=", TENANT).where("goods_id", "=", goodsId).execute();
      const drift = [{ tenantId: TENANT, key: { storeId: 1, goodsId }, measure: "quantity", balance: 801, lines: 800 }];
      expect(await stock.check(db, TENANT)).toEqual(drift);
      expect(await stock.check(db)).toEqual(drift);
      expect(await stock.check(db, OTHER_TENANT)).toEqual([]);
      expect(await stock.compare(db, TENANT, { storeId: 1, goodsId })).toEqual({ balance: 801, ledger: 800 });
      await db.updateTable("sample_balance").set({ quantity: 800, amount: 79 }).where("tenant_id", "=", TENANT).where("goods_id", "=", goodsId).execute();
      expect(await stock.check(db, TENANT)).toEqual([{ tenantId: TENANT, key: { storeId: 1, goodsId }, measure: "amount", balance: 79, lines: 80 }]);
      await db.updateTable("sample_balance").set({ amount: 80 }).where("tenant_id", "=", TENANT).where("goods_id", "=", goodsId).execute();
      expect(await stock.check(db)).toEqual([]);
    });

    test("postMany of more keys than SQLite nests in one expression (1,200 goods, as a stocktake of 2,000) posts them all", async () => {
      const first = goods + 1;
      goods += 1_200;
      const keys = Array.from({ length: 1_200 }, (_, i) => first + i);
      await run((trx) => stock.postMany(trx, keys.map((goodsId) => entry(goodsId, 2_000, 300))));
      const posted = await run((trx) => stock.postMany(trx, keys.map((goodsId, i) => entry(goodsId, i % 2 ? -500 : 1_000, i % 2 ? -75 : 150))));
      expect(posted).toHaveLength(1_200);
      expect(posted.slice(0, 2).map((l) => [l.balanceAfter, l.amountAfter])).toEqual([
        [3_000, 450],
        [1_500, 225],
      ]);
      expect(await balanceOf(keys[1_199])).toEqual({ quantity: 1_500, amount: 225 });
      expect(await stock.check(db, TENANT)).toEqual([]);
    });

    test("10 concurrent posts that together exceed the balance leave it at or above the floor and equal to its lines", async () => {
      const goodsId = ++goods;
      await run((trx) => stock.post(trx, entry(goodsId, 1_000, 1_000)));
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => run((trx) => stock.post(trx, entry(goodsId, -150, -150)))));
      const done = results.filter((r) => r.status === "fulfilled").length;
      expect(done).toBe(6);
      for (const r of results) if (r.status === "rejected") expect((r.reason as ApiError).message).toBe("库存不足");
      const balance = await balanceOf(goodsId);
      expect(balance).toEqual({ quantity: 100, amount: 100 });
      expect(await stock.compare(db, TENANT, { storeId: 1, goodsId })).toEqual({ balance: 100, ledger: 100 });
      expect(await linesOf(goodsId)).toHaveLength(7);
    });

    test("a projection is kept by each posting and recounted from the lines to the same figures", async () => {
      const goodsId = ++goods;
      await run((trx) => stock.post(trx, entry(goodsId, 1_500, 300, { occurredAt: now })));
      await run((trx) => stock.post(trx, entry(goodsId, -500, -100, { occurredAt: now + 60_000 })));
      await run((trx) => stock.post(trx, entry(goodsId, 250, 50, { occurredAt: now + DAY_MS })));
      const days = async () =>
        ((await db.selectFrom("sample_day").select(["tenant_id", "day", "goods_id", "quantity", "amount", "lines"]).orderBy("tenant_id").orderBy("day").orderBy("goods_id").execute()) as Array<Record<string, unknown>>).map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === "day" ? v : Number(v)])),
        );
      const kept = await days();
      expect(kept.filter((d) => d.goods_id === goodsId)).toEqual([
        { tenant_id: TENANT, day: dayOf(now), goods_id: goodsId, quantity: 1_000, amount: 200, lines: 2 },
        { tenant_id: TENANT, day: dayOf(now + DAY_MS), goods_id: goodsId, quantity: 250, amount: 50, lines: 1 },
      ]);
      await db.deleteFrom("sample_day").execute();
      await stock.recount(db);
      expect(await days()).toEqual(kept);
      await db.updateTable("sample_day").set({ quantity: 0 }).where("tenant_id", "=", TENANT).execute();
      await stock.recount(db, TENANT);
      expect(await days()).toEqual(kept);
    });
  });
}
