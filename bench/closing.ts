/**
 * Stocktaking and the month's stock account without HTTP (issue 41, decision 073): the product's own functions —
 * `createDocument` and the transition service for a stocktake, `generateMonth` for the month — on a database of its
 * own, seeded by SQL with BENCH_CLOSING_GOODS goods (2,000) in BENCH_CLOSING_WAREHOUSES warehouses (20) and
 * BENCH_CLOSING_LINES movement lines (1,000,000) over the last three months. Timed: a stocktake of the first
 * warehouse (5,000 batches: 3 per goods for its first 1,000 goods, 2 for the rest) created, its counts entered (one
 * line in ten differs), approved; the current month generated for every warehouse × goods (40,000 rows), twice.
 *
 *   vite-node bench/closing.ts [database]   (a temporary SQLite file unless given; a postgres:// URL works too)
 *
 * Prints one JSON line of milliseconds. The machine is shared: the figures are indicative.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql, type Kysely } from "kysely";
import { chinaDay } from "../resources/chinaTime";
import { warehouseCheck } from "../resources/zhhq/closing";
import { loadConfig } from "../server/config";
import { migrateToLatest, openDatabase } from "../server/db";
import type { ApiServices, SessionContext } from "../server/http/endpoint";
import { runTransition } from "../server/kernel/transitions";
import { seed } from "../server/modules/seed";
import { createDocument, updateDocument } from "../server/modules/resource/documents";
import { closingRules, closingWork } from "../server/modules/zhhq/closing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const GOODS = Number(process.env.BENCH_CLOSING_GOODS ?? 2_000);
const WAREHOUSES = Number(process.env.BENCH_CLOSING_WAREHOUSES ?? 20);
const LINES = Number(process.env.BENCH_CLOSING_LINES ?? 1_000_000);
const TENANT = 1;
const database = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), "bench-closing-")), "bench.db");
const handle = await openDatabase(database);
const db = handle.db as AnyDb;
await migrateToLatest(handle.db);
await seed(handle.db, { adminPassword: "Bench-Closing-2026" });
const services: ApiServices = { db: handle.db, dialect: handle.dialect, config: loadConfig({ ...process.env, DATABASE_URL: database }) };
const ctx = (): SessionContext => ({
  services,
  request: new Request("http://127.0.0.1/bench", { method: "POST" }),
  url: new URL("http://127.0.0.1/bench"),
  ip: "127.0.0.1",
  userAgent: null,
  now: Date.now(),
  responseHeaders: new Headers(),
  session: { tokenHash: "", bearerToken: null, userId: 1, homeTenantId: TENANT, tenantId: TENANT, userName: "admin", roles: ["admin"], roleTypes: ["admin"], pwdSecurityLevel: 2 },
});

const now = Date.now();
const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
const W = (w: number) => 920_000_000 + w;
const G = (g: number) => 921_000_000 + g;
async function chunked(table: string, rows: Record<string, unknown>[]) {
  for (let at = 0; at < rows.length; at += 400) await db.insertInto(table).values(rows.slice(at, at + 400)).execute();
}

const seeding = performance.now();
await chunked("warehouse", Array.from({ length: WAREHOUSES }, (_, i) => ({ tenant_id: TENANT, id: W(i + 1), warehouse_code: `BW${i + 1}`, name: `基准仓库${i + 1}`, status: 1, ...audit })));
await chunked("goods", Array.from({ length: GOODS }, (_, i) => ({ tenant_id: TENANT, id: G(i + 1), goods_code: `BG${i + 1}`, goods_name: `基准物资${i + 1}`, status: 1, ...audit })));
// One stock-in line per batch (its source line), then the movements spread over the batches, 1 unit each at the batch's price.
const batchesOf = (w: number, g: number) => (w === 1 && g <= 1000 ? 3 : 2);
const batches: Array<{ id: number; w: number; g: number; price: number; q: number }> = [];
let batchId = 930_000_000;
for (let w = 1; w <= WAREHOUSES; w++) for (let g = 1; g <= GOODS; g++) for (let b = 0; b < batchesOf(w, g); b++) batches.push({ id: ++batchId, w, g, price: 100 + ((g + b) % 500), q: 0 });
const inDoc = 940_000_001;
await db.insertInto("warehouse_in").values({ tenant_id: TENANT, id: inDoc, doc_no: "BENCH-IN", status: 2, warehouse_id: W(1), doc_date: chinaDay(now), version: 1, ...audit }).execute();
const lineId = (b: { id: number }) => b.id + 10_000_000;
await chunked("warehouse_in_line", batches.map((b, i) => ({ tenant_id: TENANT, id: lineId(b), document_id: inDoc, line_no: i + 1, goods_id: G(b.g), quantity: 0, price: b.price, ...audit })));
const months = [0, 1, 2].map((k) => chinaDay(now - k * 31 * 86_400_000));
for (let i = 0; i < LINES; i++) batches[i % batches.length].q += 1000;
await chunked("stock_batch", batches.map((b) => ({ tenant_id: TENANT, id: b.id, warehouse_id: W(b.w), goods_id: G(b.g), batch_no: `B${b.id}`, expiry_date: "2099-01-01", price: b.price, quantity: b.q, amount: (b.q / 1000) * b.price, received_at: now, in_line_id: lineId(b), ...audit })));
const lines: Record<string, unknown>[] = [];
let lineNo = 950_000_000;
for (let i = 0; i < LINES; i++) {
  const b = batches[i % batches.length];
  lines.push({ tenant_id: TENANT, id: ++lineNo, warehouse_id: W(b.w), goods_id: G(b.g), batch_id: b.id, batch_no: `B${b.id}`, quantity: 1000, amount: b.price, quantity_after: 0, amount_after: 0, doc_type: "zhhq/warehouseIn", doc_id: inDoc, doc_line_id: lineId(b), doc_date: months[i % 3], occurred_at: now, ...audit });
  if (lines.length >= 20_000) await chunked("stock_line", lines.splice(0));
}
await chunked("stock_line", lines.splice(0));
await sql`insert into stock_real (tenant_id, id, warehouse_id, goods_id, quantity, amount, average_price, created_at, updated_at)
  select tenant_id, min(id) + 5000000000, warehouse_id, goods_id, sum(quantity), sum(amount), 0, ${now}, ${now} from stock_batch where tenant_id = ${TENANT} group by tenant_id, warehouse_id, goods_id`.execute(db);
const seeded = Math.round(performance.now() - seeding);

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, Math.round((performance.now() - started) * 10) / 10];
};
const rules = closingRules[warehouseCheck.docType];
const step = (name: string, id: number) => runTransition(ctx(), warehouseCheck, rules, warehouseCheck.workflow.transitions.find((t) => t.name === name) as never, { id }, { id });

const [sheet, createMs] = await timed(() => createDocument(ctx(), warehouseCheck, { warehouseId: W(1), lines: [] }, { warehouseId: W(1) }, rules));
const sheetLines = sheet.lines as Array<{ id: number; bookQuantity: number }>;
const [, countMs] = await timed(() =>
  updateDocument(ctx(), warehouseCheck, { id: sheet.id as number, version: 1, lines: sheetLines.map((l, i) => ({ id: l.id, countedQuantity: i % 10 === 0 ? Math.max(0, l.bookQuantity - 1) : l.bookQuantity })) }, {}, rules),
);
await step("submit", sheet.id as number);
const [, approveMs] = await timed(() => step("approve", sheet.id as number));
const month = chinaDay(Date.now()).slice(0, 7);
const generate = () => db.transaction().execute((trx) => closingWork.generateMonth(trx as AnyDb, ctx(), month));
const [first, generateMs] = await timed(generate);
const [, generateAgainMs] = await timed(generate);
await handle.close();
console.log(JSON.stringify({ database: handle.dialect, goods: GOODS, warehouses: WAREHOUSES, movementLines: LINES, seededMs: seeded, stocktakeLines: sheetLines.length, createMs, countMs, approveMs, monthRows: first.rowCount, generateMs, generateAgainMs }));
