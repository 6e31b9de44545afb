/**
 * 收支管理 at volume (issue 37): the demo canteen at bench size (BENCH_SC_DINERS, default 20,000 diners;
 * BENCH_SC_DAYS, default 43: about 1,000,000 orders, as the reports bench, decision 048) and BENCH_SC_LINES stock
 * movement lines (default 1,000,000) that are stock-outs from the canteen's warehouses to its kitchens, over the same
 * days, into a database of its own (argument: a SQLite file, or a postgres:// URL, then schema bench_sc). Only seeds:
 * the scenario (scripts/bench/scenarios/sc.mjs) serves it and times the API. Prints one JSON line last.
 * BENCH_SC_REUSE=1 keeps the database a previous run seeded (the scenario keeps PostgreSQL's with BENCH_SC_KEEP=1).
 */
import { rmSync } from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { migrateToLatest, openDatabase } from "../server/db";
import { seed } from "../server/modules/seed";
import { seedDemo } from "../server/modules/zhct/demo";
import { dayOf, dayStart } from "../server/modules/zhct/months";

const DINERS = Number(process.env.BENCH_SC_DINERS ?? 20_000);
const DAYS = Number(process.env.BENCH_SC_DAYS ?? 43);
const LINES = Number(process.env.BENCH_SC_LINES ?? 1_000_000);
/** Lines of a stock-out document: a kitchen's daily requisition of many goods. */
const PER_DOC = 20;
const GOODS = 2_000;
/** One stock-out in RETURN_EVERY has two of its lines returned the next day. */
const RETURN_EVERY = 100;
const target = process.argv[2] ?? "bench/data/sc.db";
const postgres = target.startsWith("postgres");
const SCHEMA = "bench_sc";
const REUSE = process.env.BENCH_SC_REUSE === "1";
const log = (s: string) => console.error(`[sc] ${s}`);
// Ids of their own below 2^31 (PostgreSQL's integer arithmetic over generate_series); the demo's are far above.
const WAREHOUSE_BASE = 971_000_000;
const GOODS_BASE = 972_000_000;
const OUT_BASE = 973_000_000;
const RETURN_BASE = 974_000_000;
const OUT_LINE_BASE = 1_000_000_000;
const RETURN_LINE_BASE = 975_000_000;
const MOVE_BASE = 1_100_000_000;
const IN_BASE = 978_000_000;
const IN_LINE_BASE = 979_000_000;
const BATCH_BASE = 980_000_000;
const PURCHASE_BASE = 976_000_000;
const EXPENSE_BASE = 977_000_000;

const url = postgres ? `${target}${target.includes("?") ? "&" : "?"}options=-c%20search_path%3D${SCHEMA}` : target;
if (postgres && !REUSE) {
  const admin = new pg.Client({ connectionString: target });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
} else if (!REUSE) {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
}
const handle = await openDatabase(url);
// A reused database is migrated by the server that serves it, so a build's migrations are timed with its code.
if (!REUSE) await migrateToLatest(handle.db);
const db = handle.db;
const series = (n: number) => (postgres ? `select i from generate_series(1, ${n}) as i` : `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s`);
const count = async (table: string, tenantId: number) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(db)).rows[0].n);

/**
 * The canteen's warehouses and what they issued: a warehouse per restaurant and a central one serving none, GOODS
 * goods; each day stock-outs of PER_DOC lines (one movement line each, at stock cost) to the restaurants, their stalls
 * (by 领用餐厅/部门) and, one in seven, a department; one in eleven 维修出库, one in thirteen with no receiver (the
 * warehouse's restaurant); one in RETURN_EVERY with two lines returned the next day. Direct-food and expense purchases
 * and 成本费用 per place, a few a day. Set operations, so a million lines take seconds.
 */
async function stockOuts(tenantId: number, firstDay: string): Promise<void> {
  const places = (await db.selectFrom("org").select(["id", "org_type", "parent_id"]).where("tenant_id", "=", tenantId).where("org_type", "in", ["restaurant", "stall", "department"]).orderBy("id").execute()).map((r) => ({ id: Number(r.id), type: String(r.org_type), parent: Number(r.parent_id) }));
  const restaurants = places.filter((p) => p.type === "restaurant");
  const kitchens = places.filter((p) => p.type !== "department");
  const departments = places.filter((p) => p.type === "department");
  const now = Date.now();
  const audit = `${now}, ${now}`;
  const docs = Math.ceil(LINES / PER_DOC);
  const first = dayStart(firstDay);
  // PostgreSQL multiplies generate_series' integers as integers: the day's milliseconds need bigint.
  const day = (i: string) => (postgres ? `to_char(to_timestamp((${first} + 28800000 + cast(${i} as bigint) * 86400000) / 1000) at time zone 'UTC', 'YYYY-MM-DD')` : `strftime('%Y-%m-%d', (${first} + 28800000 + (${i}) * 86400000) / 1000, 'unixepoch')`);
  const pick = (list: Array<{ id: number }>, i: string) => `case (${i}) % ${list.length} ${list.map((p, k) => `when ${k} then ${p.id}`).join(" ")} end`;
  const warehouses = [...restaurants.map((r) => r.id), null];
  const padded = (prefix: string, width: number) => (postgres ? `'${prefix}' || lpad(i::text, ${width}, '0')` : `'${prefix}' || substr('00000000' || i, -${width})`);
  const statements = [
    `insert into warehouse (tenant_id, id, warehouse_code, name, restaurant_id, status, created_at, updated_at)
       values ${warehouses.map((r, k) => `(${tenantId}, ${WAREHOUSE_BASE + k + 1}, 'SC${k + 1}', '${r ? `餐厅仓库${k + 1}` : "中心仓库"}', ${r ?? "null"}, 1, ${audit})`).join(", ")}`,
    `insert into goods (tenant_id, id, goods_code, goods_name, shelf_life_days, reference_price, status, created_at, updated_at)
       select ${tenantId}, ${GOODS_BASE} + i, ${padded("SCG", 5)}, ${padded("食材", 5)}, 30, 100 + i % 900, 1, ${audit} from (${series(GOODS)}) as s`,
    // What the warehouses issue from: a receipt per warehouse before the first day, a batch per goods.
    `insert into warehouse_in (tenant_id, id, doc_no, status, warehouse_id, doc_date, version, created_at, updated_at)
       select ${tenantId}, ${IN_BASE} + i, ${padded("SCR", 3)}, 2, ${WAREHOUSE_BASE} + i, ${day("-1")}, 3, ${audit} from (${series(warehouses.length)}) as s`,
    `insert into warehouse_in_line (tenant_id, id, document_id, line_no, goods_id, quantity, price, amount, batch_no, created_at, updated_at)
       select ${tenantId}, ${IN_LINE_BASE} + i, ${IN_BASE} + (i - 1) / ${GOODS} + 1, (i - 1) % ${GOODS} + 1, ${GOODS_BASE} + (i - 1) % ${GOODS} + 1, 10000000, 100, 1000000, 'SC' || i, ${audit}
       from (${series(warehouses.length * GOODS)}) as s`,
    `insert into stock_batch (tenant_id, id, warehouse_id, goods_id, batch_no, price, quantity, amount, received_at, in_line_id, created_at, updated_at)
       select tenant_id, ${BATCH_BASE} + id - ${IN_LINE_BASE}, ${WAREHOUSE_BASE} + (id - ${IN_LINE_BASE} - 1) / ${GOODS} + 1, goods_id, batch_no, price, quantity, amount, ${first - 86_400_000}, id, ${audit}
       from warehouse_in_line where tenant_id = ${tenantId} and id > ${IN_LINE_BASE} and id <= ${IN_LINE_BASE + 10 * GOODS}`,
    // Document i: day (i − 1) % DAYS, warehouse i % W; receiver by i (kitchens, a department, none).
    `insert into warehouse_out (tenant_id, id, doc_no, status, warehouse_id, doc_date, out_kind, receiver_org_id, version, created_at, updated_at)
       select ${tenantId}, ${OUT_BASE} + i, ${padded("SCK", 8)}, 2, ${WAREHOUSE_BASE} + i % ${warehouses.length} + 1, ${day(`(i - 1) % ${DAYS}`)},
              case when i % 11 = 0 then 2 else 1 end,
              case when i % 13 = 0 then null when i % 7 = 0 then ${pick(departments, "i / 7")} else ${pick(kitchens, "i")} end, 3, ${audit}
       from (${series(docs)}) as s`,
    `insert into warehouse_out_line (tenant_id, id, document_id, line_no, goods_id, quantity, amount, created_at, updated_at)
       select ${tenantId}, ${OUT_LINE_BASE} + i, ${OUT_BASE} + (i - 1) / ${PER_DOC} + 1, (i - 1) % ${PER_DOC} + 1, ${GOODS_BASE} + i % ${GOODS} + 1,
              1000 * (1 + i % 7), (1 + i % 7) * (100 + (i % ${GOODS} + 1) % 900), ${audit}
       from (${series(LINES)}) as s`,
    // Each line's movement, as approval posts it (the stock reports' volume; the cost reports read the documents).
    `insert into stock_line (tenant_id, id, warehouse_id, goods_id, batch_id, batch_no, quantity, amount, quantity_after, amount_after, doc_type, doc_id, doc_line_id, operator_name, occurred_at, doc_date, created_at, updated_at)
       select l.tenant_id, ${MOVE_BASE} + l.id - ${OUT_LINE_BASE}, o.warehouse_id, l.goods_id, ${BATCH_BASE} + (o.warehouse_id - ${WAREHOUSE_BASE} - 1) * ${GOODS} + l.goods_id - ${GOODS_BASE}, 'SC', -l.quantity, -l.amount, 0, 0, 'zhhq/warehouseOut', o.id, l.id, 'bench',
              ${first} + ((o.id - ${OUT_BASE} - 1) % ${DAYS}) * 86400000 + 3600000, o.doc_date, ${audit}
       from warehouse_out_line l join warehouse_out o on o.tenant_id = l.tenant_id and o.id = l.document_id where l.tenant_id = ${tenantId} and l.id > ${OUT_LINE_BASE}`,
    `insert into warehouse_out_return (tenant_id, id, doc_no, status, warehouse_out_id, warehouse_id, doc_date, version, created_at, updated_at)
       select ${tenantId}, ${RETURN_BASE} + i, ${padded("SCT", 6)}, 2, ${OUT_BASE} + i * ${RETURN_EVERY}, ${WAREHOUSE_BASE} + (i * ${RETURN_EVERY}) % ${warehouses.length} + 1,
              ${day(`(i * ${RETURN_EVERY} - 1) % ${DAYS} + 1`)}, 3, ${audit}
       from (${series(Math.floor(docs / RETURN_EVERY))}) as s`,
    `insert into warehouse_out_return_line (tenant_id, id, document_id, line_no, out_line_id, goods_id, quantity, amount, created_at, updated_at)
       select l.tenant_id, ${RETURN_LINE_BASE} + 2 * (r.id - ${RETURN_BASE}) + l.line_no, r.id, l.line_no, l.id, l.goods_id, l.quantity / 2, l.amount / 2, ${audit}
       from warehouse_out_return r join warehouse_out_line l on l.tenant_id = r.tenant_id and l.document_id = r.warehouse_out_id and l.line_no <= 2
       where r.tenant_id = ${tenantId} and r.id > ${RETURN_BASE}`,
    // Each document's header keeps its lines' amount, as the document service writes it (decision 094).
    ...["warehouse_in", "warehouse_out", "warehouse_out_return"].map(
      (table) => `update ${table} set amount_total = (select coalesce(sum(l.amount), 0) from ${table}_line l where l.tenant_id = ${table}.tenant_id and l.document_id = ${table}.id)
       where tenant_id = ${tenantId} and id > ${table === "warehouse_in" ? IN_BASE : table === "warehouse_out" ? OUT_BASE : RETURN_BASE}`,
    ),
    // Three purchases a day per kitchen: two of food, one an expense.
    `insert into sc_purchase (tenant_id, id, doc_no, status, restaurant_id, purchase_date, cost_kind, total_amount, paid_amount, version, created_at, updated_at)
       select ${tenantId}, ${PURCHASE_BASE} + i, ${padded("SCP", 6)}, 1, ${pick(kitchens, `(i - 1) / 3`)}, ${day(`(i - 1) / (3 * ${kitchens.length})`)},
              case when i % 3 = 0 then 2 else 1 end, 5000 + (i * 37) % 20000, 0, 1, ${audit}
       from (${series(3 * kitchens.length * DAYS)}) as s`,
    // 成本费用: each kitchen's six categories for every month the days touch.
    ...[...new Set(Array.from({ length: DAYS }, (_, d) => dayOf(first + d * 86_400_000).slice(0, 7)))].map(
      (month, m) => `insert into sc_cost_expense (tenant_id, id, month, restaurant_id, category, amount, source_kind, created_at, updated_at)
       select ${tenantId}, ${EXPENSE_BASE} + ${m * 10_000} + i, '${month}', ${pick(kitchens, `(i - 1) / 6`)}, (i - 1) % 6 + 1, 100000 + (i * 7919) % 500000, 1, ${audit}
       from (${series(6 * kitchens.length)}) as s`,
    ),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

let tenantId: number;
let orders: number;
let seedSeconds = 0;
if (REUSE) {
  tenantId = Number((await db.selectFrom("tenant").select("id").where("tenant_code", "=", "demo").executeTakeFirstOrThrow()).id);
  orders = await count("meal_order", tenantId);
  // A seed stopped after the demo (which takes the time) gets its stock-outs.
  if (!(await count("warehouse_out_line", tenantId))) {
    await stockOuts(tenantId, String((await db.selectFrom("meal_order").select(sql<string>`min(order_date)`.as("d")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).d));
    await sql.raw(postgres ? "vacuum analyze" : "analyze").execute(db);
  }
} else {
  const started = Date.now();
  await seed(db, { adminPassword: "Bench-Sc-Admin-2026" });
  const demo = await seedDemo(db, { diners: DINERS, days: DAYS, password: "Bench-Demo-Pass-2026", log });
  tenantId = demo.tenantId;
  orders = demo.orders;
  log(`seeded ${demo.orders} orders in ${demo.seconds.toFixed(0)} s`);
  const firstDay = String((await db.selectFrom("meal_order").select(sql<string>`min(order_date)`.as("d")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).d);
  const t = Date.now();
  await stockOuts(tenantId, firstDay);
  log(`stock-outs from ${firstDay}: ${LINES} lines in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  // PostgreSQL: vacuum too, so index-only scans find the pages all-visible.
  await sql.raw(postgres ? "vacuum analyze" : "analyze").execute(db);
  seedSeconds = (Date.now() - started) / 1000;
}
const to = dayOf(Date.now());
const result = {
  dialect: handle.dialect,
  url,
  tenantId,
  diners: DINERS,
  days: DAYS,
  orders,
  outLines: await count("warehouse_out_line", tenantId),
  movementLines: await count("stock_line", tenantId),
  returnLines: await count("warehouse_out_return_line", tenantId),
  seedSeconds,
  month: to.slice(0, 7),
  to,
};
await handle.close();
console.log(JSON.stringify(result));
