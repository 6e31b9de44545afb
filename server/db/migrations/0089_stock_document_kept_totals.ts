// Written by hand (decision 094). Released migrations are not edited.
// Issue 37: 直接成本分摊 and 经营毛利 summed every stock-out line of their period on every request (≈ 670,000 a month
// at volume). The four stock documents now keep their lines' amount on the header (`lines.keptTotals`, written with
// the lines by the document service); the documents written before this get it from their lines here.
import { sql, type Kysely } from "kysely";
import { addColumns, dropColumns, type ColumnSpec } from "../tables";

const DOCUMENTS = [
  ["warehouse_in", "warehouse_in_line"],
  ["warehouse_in_return", "warehouse_in_return_line"],
  ["warehouse_out", "warehouse_out_line"],
  ["warehouse_out_return", "warehouse_out_return_line"],
] as const;

const amountTotal: ColumnSpec = { name: "amount_total", type: "bigint", notNull: true, default: 0 };

/**
 * What the cost reports read of a period (server/modules/sc/reports.ts), covered: approved stock-outs and returns by
 * document date, with whose they are and their kept cost. Without it the read walks every approved header of the
 * tenant's history (the status index) to keep a month's; at the benchmark's 43 days it halved the statement's CPU
 * on SQLite (18 → 10 ms), and the gap grows with the history.
 */
const DAY_INDEXES = [
  { name: "warehouse_out_day_idx", table: "warehouse_out", columns: ["tenant_id", "status", "doc_date", "out_kind", "warehouse_id", "receiver_org_id", "amount_total"] },
  { name: "warehouse_out_return_day_idx", table: "warehouse_out_return", columns: ["tenant_id", "status", "doc_date", "warehouse_out_id", "amount_total"] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [header, lines] of DOCUMENTS) {
    await addColumns(db, header, [amountTotal]);
    // A line without an amount yet (a stock-out's draft, before approval costs it) counts as none.
    await sql`update ${sql.table(header)} set amount_total = (
        select coalesce(sum(l.amount), 0) from ${sql.table(lines)} l where l.tenant_id = ${sql.table(header)}.tenant_id and l.document_id = ${sql.table(header)}.id)
      where exists (select 1 from ${sql.table(lines)} l where l.tenant_id = ${sql.table(header)}.tenant_id and l.document_id = ${sql.table(header)}.id and l.amount <> 0)`.execute(db);
  }
  for (const index of DAY_INDEXES) await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of DAY_INDEXES) await db.schema.dropIndex(index.name).execute();
  for (const [header] of DOCUMENTS) await dropColumns(db, header, [amountTotal]);
}
