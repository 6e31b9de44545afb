import { sql, type Kysely, type RawBuilder } from "kysely";
import { CHINA_OFFSET_MS, chinaDayNo, DAY_MS } from "../../../resources/chinaTime";
import { chunksOf, updateFromValues } from "../../db/bulk";
import type { LedgerDrift, PostedLine, Projection } from "../../kernel/ledger";
import type { Row } from "../report/query";
import { dayOfNo } from "../zhct/ledgerDays";

/**
 * 库存日报's days (decision 090): per warehouse × goods and China day of posting, what came in (positive lines), what
 * went out (negative lines, as positive figures) and the closing stock — quantities and amounts — kept by the stock
 * ledger's postings in their own transaction, as the canteen keeps its days (decisions 038, 044). A day's opening is
 * its closing − in + out, so a period reads its own days and nothing before. A day is kept only when something moved.
 *
 * The closing is the balance the ledger has just written less what the key's later days moved: a posting dated
 * before days already kept (a back-dated correction, a recount) moves their closings too, and the one statement
 * that sets them reads only that key's days from the posting's on.
 */

// The table is the projection's own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const STOCK_DAY = "stock_day";
export const STOCK_POSTING_SUM = "stock_posting_sum";

const FIGURES = ["in_quantity", "in_amount", "out_quantity", "out_amount"] as const;

/** `where tenant_id = …` for one tenant, nothing for all. */
const ofTenant = (tenantId?: number) => (tenantId === undefined ? sql`` : sql`where tenant_id = ${tenantId}`);

/**
 * The lines summed per tenant, these key columns and China day of posting, in SQL of their own (the recounts and the
 * checks): in (positive lines) and out (negative lines, as positive figures), quantities and amounts.
 */
function linesPerDay(keys: string[], tenantId?: number, extra = sql``) {
  const dayNo = sql`(occurred_at + ${sql.lit(CHINA_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;
  const keyColumns = sql.join(keys.map((k) => sql.ref(k)));
  return sql`select tenant_id, ${keyColumns}, ${dayNo} as day_no, ${extra}
      sum(case when quantity > 0 then quantity else 0 end) as in_quantity, sum(case when quantity > 0 then amount else 0 end) as in_amount,
      sum(case when quantity < 0 then -quantity else 0 end) as out_quantity, sum(case when quantity < 0 then -amount else 0 end) as out_amount
    from stock_line ${ofTenant(tenantId)} group by tenant_id, ${keyColumns}, ${dayNo}`;
}

/** The lines' days (the recount and the check): figures and the running closing. */
function daysFromLines(tenantId?: number) {
  const running = sql`over (partition by tenant_id, warehouse_id, goods_id order by day_no rows between unbounded preceding and current row)`;
  return sql`select tenant_id, warehouse_id, goods_id, day_no, in_quantity, in_amount, out_quantity, out_amount,
      sum(in_quantity - out_quantity) ${running} as closing_quantity, sum(in_amount - out_amount) ${running} as closing_amount
    from (${linesPerDay(["warehouse_id", "goods_id"], tenantId)}) as d`;
}

/** A posted line added to its day's figures: in if positive, out (as a positive figure) if not. */
function addLine(figures: Record<(typeof FIGURES)[number], number>, line: PostedLine) {
  if (line.quantity > 0) {
    figures.in_quantity += line.quantity;
    figures.in_amount += line.amount ?? 0;
  } else {
    figures.out_quantity -= line.quantity;
    figures.out_amount -= line.amount ?? 0;
  }
}

/** A projection's rows counted afresh from the lines, one tenant's or all. */
async function refill(db: AnyDb, table: string, columns: string[], fromLines: RawBuilder<unknown>, tenantId?: number) {
  let clear = db.deleteFrom(table);
  if (tenantId !== undefined) clear = clear.where("tenant_id", "=", tenantId);
  await clear.execute();
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) ${fromLines}`.execute(db);
}

/** The closing of each day of a key from `day_no` on: the balance now less the net of the key's later days. */
const closingFrom = (figure: "quantity" | "amount") =>
  sql`(select r.${sql.ref(figure)} from stock_real r where r.tenant_id = stock_day.tenant_id and r.warehouse_id = stock_day.warehouse_id and r.goods_id = stock_day.goods_id)
    - (select coalesce(sum(s.${sql.ref(`in_${figure}`)} - s.${sql.ref(`out_${figure}`)}), 0) from stock_day s
       where s.tenant_id = stock_day.tenant_id and s.warehouse_id = stock_day.warehouse_id and s.goods_id = stock_day.goods_id and s.day_no > stock_day.day_no)`;

async function applyMany(trx: AnyDb, lines: PostedLine[]): Promise<void> {
  if (!lines.length) return;
  const tenantId = lines[0].tenantId;
  const days = new Map<string, Row & Record<(typeof FIGURES)[number], number>>();
  const firstDay = new Map<string, { warehouse_id: number; goods_id: number; day_no: number }>();
  for (const line of lines) {
    const warehouseId = Number(line.key.warehouseId);
    const goodsId = Number(line.key.goodsId);
    const dayNo = chinaDayNo(line.occurredAt);
    const k = `${warehouseId}:${goodsId}`;
    const day = days.get(`${k}:${dayNo}`) ?? { tenant_id: tenantId, warehouse_id: warehouseId, goods_id: goodsId, day_no: dayNo, in_quantity: 0, in_amount: 0, out_quantity: 0, out_amount: 0, closing_quantity: 0, closing_amount: 0 };
    addLine(day, line);
    days.set(`${k}:${dayNo}`, day);
    const first = firstDay.get(k);
    if (!first || dayNo < first.day_no) firstDay.set(k, { warehouse_id: warehouseId, goods_id: goodsId, day_no: dayNo });
  }
  const rows = [...days.values()];
  for (const chunk of chunksOf(rows, Object.keys(rows[0]).length))
    await trx
      .insertInto(STOCK_DAY)
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(["tenant_id", "warehouse_id", "goods_id", "day_no"]).doUpdateSet(Object.fromEntries(FIGURES.map((f) => [f, sql`${sql.ref(`${STOCK_DAY}.${f}`)} + excluded.${sql.ref(f)}`]))),
      )
      .execute();
  await updateFromValues(trx, {
    table: STOCK_DAY,
    tenantId,
    columns: { warehouse_id: "bigint", goods_id: "bigint", day_no: "bigint" },
    match: ["warehouse_id", "goods_id"],
    rows: [...firstDay.values()],
    set: () => ({ closing_quantity: closingFrom("quantity"), closing_amount: closingFrom("amount") }),
    where: (v) => sql`${sql.ref(`${STOCK_DAY}.day_no`)} >= ${v("day_no")}`,
  });
}

/**
 * A kept projection's rows against the same figures counted from the lines (both as SQL with tenant_id, the keys and
 * the figures): each figure that differs, or whose row is kept without lines or missing, as the ledger's drift.
 */
async function keptAgainstLines(
  db: AnyDb,
  o: { lines: RawBuilder<unknown>; kept: RawBuilder<unknown>; keys: string[]; figures: readonly string[]; keyOf: (r: Row) => LedgerDrift["key"] },
): Promise<LedgerDrift[]> {
  const on = sql.join(["tenant_id", ...o.keys].map((c) => sql`e.${sql.ref(c)} = s.${sql.ref(c)}`), sql` and `);
  const differs = sql.join(o.figures.map((c) => sql`e.${sql.ref(c)} <> s.${sql.ref(c)}`), sql` or `);
  const pick = (from: "e" | "s") => sql.join(["tenant_id", ...o.keys].map((c) => sql`${sql.ref(`${from}.${c}`)} as ${sql.ref(c)}`));
  const figures = (from: "e" | "s", as: string) => sql.join(o.figures.map((c) => sql`${sql.ref(`${from}.${c}`)} as ${sql.raw(`${as}_${c}`)}`));
  const rows = (
    await sql<Row>`with e as (${o.lines}), s as (${o.kept})
      select ${pick("e")}, ${figures("e", "l")}, ${figures("s", "k")} from e left join s on ${on} where s.tenant_id is null or ${differs}
      union all
      select ${pick("s")}, ${figures("e", "l")}, ${figures("s", "k")} from s left join e on ${on} where e.tenant_id is null`.execute(db)
  ).rows;
  return rows.flatMap((r) =>
    o.figures.flatMap((c): LedgerDrift[] => {
      const held = Number(r[`k_${c}`] ?? 0);
      const lines = Number(r[`l_${c}`] ?? 0);
      if (held === lines && r[`k_${c}`] !== null && r[`l_${c}`] !== null) return [];
      return [{ tenantId: Number(r.tenant_id), key: { ...o.keyOf(r), figure: c }, measure: c.endsWith("amount") ? "amount" : "quantity", balance: held, lines }];
    }),
  );
}

/** The stock ledger's days (`stockDays`, counted after migration 0088 and by `npm run ledger:check`'s recount). */
export const stockDays: Projection = {
  name: "stockDays",
  apply: (trx, line) => applyMany(trx, [line]),
  applyMany,
  recount: (db: AnyDb, tenantId?: number) =>
    refill(db, STOCK_DAY, ["tenant_id", "warehouse_id", "goods_id", "day_no", ...FIGURES, "closing_quantity", "closing_amount"], daysFromLines(tenantId), tenantId),
  /** The days whose figures differ from their lines', and the days kept without lines or missing. */
  check: (db: AnyDb, tenantId?: number) =>
    keptAgainstLines(db, {
      lines: daysFromLines(tenantId),
      kept: sql`select * from ${sql.table(STOCK_DAY)} ${ofTenant(tenantId)}`,
      keys: ["warehouse_id", "goods_id", "day_no"],
      figures: [...FIGURES, "closing_quantity", "closing_amount"],
      keyOf: (r) => ({ warehouseId: Number(r.warehouse_id), goodsId: Number(r.goods_id), day: dayOfNo(Number(r.day_no)) }),
    }),
};

/** The lines' sums per tenant, warehouse and China day, keyed by the first of them (the recount and the check). */
const warehouseDaysFromLines = (tenantId?: number) => linesPerDay(["warehouse_id"], tenantId, sql`min(id) as line_id,`);

/**
 * What each posting moved per warehouse and China day (decision 099): the sums 库存月报 reads for a year of every
 * warehouse instead of the year's kept days. A posting inserts rows of its own and updates none, so postings into one
 * warehouse at once never wait on a shared row (a kept total per warehouse and day would make them queue, and lock
 * it in no order of theirs); what a day moved is the sum of its rows, each keyed by the first of the lines it sums. A
 * recount keeps one row per warehouse and day.
 */
export const stockPostingSums: Projection = {
  name: "stockPostingSums",
  apply: (trx, line) => stockPostingSums.applyMany!(trx, [line]),
  async applyMany(trx: AnyDb, lines: PostedLine[]) {
    if (!lines.length) return;
    const sums = new Map<string, Row & Record<(typeof FIGURES)[number] | "line_id", number>>();
    for (const line of lines) {
      const warehouseId = Number(line.key.warehouseId);
      const dayNo = chinaDayNo(line.occurredAt);
      const k = `${warehouseId}:${dayNo}`;
      const sum = sums.get(k) ?? { tenant_id: line.tenantId, warehouse_id: warehouseId, day_no: dayNo, line_id: line.id, in_quantity: 0, in_amount: 0, out_quantity: 0, out_amount: 0 };
      sum.line_id = Math.min(sum.line_id, line.id);
      addLine(sum, line);
      sums.set(k, sum);
    }
    const rows = [...sums.values()];
    for (const chunk of chunksOf(rows, Object.keys(rows[0]).length)) await trx.insertInto(STOCK_POSTING_SUM).values(chunk).execute();
  },
  recount: (db: AnyDb, tenantId?: number) => refill(db, STOCK_POSTING_SUM, ["tenant_id", "warehouse_id", "day_no", "line_id", ...FIGURES], warehouseDaysFromLines(tenantId), tenantId),
  /** The warehouse days whose kept sums differ from their lines' (a day kept without lines, or lines without it). */
  check: (db: AnyDb, tenantId?: number) =>
    keptAgainstLines(db, {
      lines: warehouseDaysFromLines(tenantId),
      kept: sql`select tenant_id, warehouse_id, day_no, ${sql.join(FIGURES.map((f) => sql`sum(${sql.ref(f)}) as ${sql.ref(f)}`))}
        from ${sql.table(STOCK_POSTING_SUM)} ${ofTenant(tenantId)} group by tenant_id, warehouse_id, day_no`,
      keys: ["warehouse_id", "day_no"],
      figures: FIGURES,
      keyOf: (r) => ({ warehouseId: Number(r.warehouse_id), day: dayOfNo(Number(r.day_no)) }),
    }),
};
