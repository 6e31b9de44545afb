import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type Migration } from "kysely";
import pg from "pg";
import { isPostgresUrl } from "../config";
import * as foundation from "./migrations/0001_foundation";
import * as operationLog from "./migrations/0002_operation_log";
import * as files from "./migrations/0006_files";
import * as searchIndexes from "./migrations/0007_search_indexes";
import * as sortTiebreakIndexes from "./migrations/0008_sort_tiebreak_indexes";
import * as ticketAudience from "./migrations/0011_ticket_audience";
import * as shell from "./migrations/0003_shell";
import * as auth from "./migrations/0005_auth";
import * as sys from "./migrations/0004_sys";
import * as loginRate from "./migrations/0013_login_rate";
import * as migration0014 from "./migrations/0014_zhct_ledger";
import * as migration0016 from "./migrations/0016_zhct_pay_settings";
import * as migration0017 from "./migrations/0017_zhct_message_outbox";
import * as migration0019 from "./migrations/0019_zhct_settle";
import * as migration0020 from "./migrations/0020_zhct_orders";
import * as migration0022 from "./migrations/0022_zhct_points";
import * as migration0021 from "./migrations/0021_zhct_tickets";
import * as migration0025 from "./migrations/0025_zhct_bookings";
import * as migration0026 from "./migrations/0026_zhct_default_orders";
import * as migration0027 from "./migrations/0027_zhct_rooms";
import * as migration0028 from "./migrations/0028_zhct_recognition_surveys";
import * as migration0032 from "./migrations/0032_charge_device";
import * as migration0056 from "./migrations/0056_zhhq_master";
import * as migration0057 from "./migrations/0057_zhhq_stock";
import * as migration0058 from "./migrations/0058_stock_batch_expiry_index";
import * as migration0059 from "./migrations/0059_top_up_channels";
import * as migration0060 from "./migrations/0060_zhhq_purchase";
import * as migration0069 from "./migrations/0069_zhhq_supplier_qualifications";
import * as migration0070 from "./migrations/0070_zhhq_stock_line_report_index";
import * as migration0067 from "./migrations/0067_sc";
import * as migration0062 from "./migrations/0062_zhhq_closing";
import * as migration0064 from "./migrations/0064_zhhq_dorm";
import * as migration0065 from "./migrations/0065_ledger_day_dorm_fee";
import * as migration0066 from "./migrations/0066_zhhq_repair";
import * as migration0079 from "./migrations/0079_sc_merchant_finance";
import * as migration0084 from "./migrations/0084_zhhq_stock_out_receiver";
import * as migration0088 from "./migrations/0088_zhhq_stock_day";
import * as migration0089 from "./migrations/0089_stock_document_kept_totals";
import * as migration0090 from "./migrations/0090_zhhq_report_indexes";
import * as migration0091 from "./migrations/0091_zhhq_stock_posting_sum";
import * as migration0092 from "./migrations/0092_zhhq_purchase_line_report_index";
import * as migration0077 from "./migrations/0077_zhhq_vehicles";
import * as migration0078 from "./migrations/0078_message_related_index";
import * as migration0085 from "./migrations/0085_food_recipe";
import { startCheckpointer, WRITER_CHECKPOINT_PAGES, type Checkpointer } from "./checkpointer";
import { logDatabaseFault } from "./faults";
import * as migration0009 from "./migrations/0009_zhct_catalogue";
import * as indexOnlyScreens from "./migrations/0018_index_only_screens";
import * as shellGeneration from "./migrations/0024_shell_generation";
import * as reportIndexes from "./migrations/0029_report_indexes";
import * as reportCoveringIndexes from "./migrations/0030_report_covering_indexes";
import * as foodSalesDay from "./migrations/0031_food_sales_day";
import * as dinerMonths from "./migrations/0033_diner_months";
import * as pointsOrderDays from "./migrations/0034_points_order_days";
import * as dinerDays from "./migrations/0035_diner_days";
import * as orderDays from "./migrations/0036_order_days";
import * as swipeDays from "./migrations/0037_swipe_days";
import * as ledgerDays from "./migrations/0038_ledger_days";
import * as dinerPlaceMonths from "./migrations/0039_diner_place_months";
import * as mealOrderDinerDayIndex from "./migrations/0040_meal_order_diner_day_index";
import * as menuSections from "./migrations/0041_menu_sections";
import * as orderRestaurantRepair from "./migrations/0042_order_restaurant_repair";
import * as complaintComplainant from "./migrations/0044_complaint_complainant_from_order";
import * as projectionRecount from "./migrations/0046_projection_recount";
import * as documentTables from "./migrations/0047_document_tables";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
export type Dialect = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** Runs `work` while no other instance on the same database runs its own (start-up: migrate and seed). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

const migrations: Record<string, Migration> = {
  "0001_foundation": foundation,
  "0002_operation_log": operationLog,
  "0006_files": files,
  "0007_search_indexes": searchIndexes,
  "0008_sort_tiebreak_indexes": sortTiebreakIndexes,
  "0011_ticket_audience": ticketAudience,
  "0003_shell": shell,
  "0005_auth": auth,
  "0004_sys": sys,
  "0013_login_rate": loginRate,
  "0009_zhct_catalogue": migration0009,
  "0014_zhct_ledger": migration0014,
  "0016_zhct_pay_settings": migration0016,
  "0017_zhct_message_outbox": migration0017,
  "0018_index_only_screens": indexOnlyScreens,
  "0019_zhct_settle": migration0019,
  "0020_zhct_orders": migration0020,
  "0021_zhct_tickets": migration0021,
  "0022_zhct_points": migration0022,
  "0024_shell_generation": shellGeneration,
  "0025_zhct_bookings": migration0025,
  "0026_zhct_default_orders": migration0026,
  "0027_zhct_rooms": migration0027,
  "0028_zhct_recognition_surveys": migration0028,
  "0029_report_indexes": reportIndexes,
  "0030_report_covering_indexes": reportCoveringIndexes,
  "0031_food_sales_day": foodSalesDay,
  "0032_charge_device": migration0032,
  "0033_diner_months": dinerMonths,
  "0034_points_order_days": pointsOrderDays,
  "0035_diner_days": dinerDays,
  "0036_order_days": orderDays,
  "0037_swipe_days": swipeDays,
  "0038_ledger_days": ledgerDays,
  "0039_diner_place_months": dinerPlaceMonths,
  "0040_meal_order_diner_day_index": mealOrderDinerDayIndex,
  "0041_menu_sections": menuSections,
  "0042_order_restaurant_repair": orderRestaurantRepair,
  "0044_complaint_complainant_from_order": complaintComplainant,
  "0046_projection_recount": projectionRecount,
  "0047_document_tables": documentTables,
  "0056_zhhq_master": migration0056,
  "0057_zhhq_stock": migration0057,
  "0058_stock_batch_expiry_index": migration0058,
  "0059_top_up_channels": migration0059,
  "0060_zhhq_purchase": migration0060,
  "0069_zhhq_supplier_qualifications": migration0069,
  "0070_zhhq_stock_line_report_index": migration0070,
  "0067_sc": migration0067,
  "0062_zhhq_closing": migration0062,
  "0064_zhhq_dorm": migration0064,
  "0065_ledger_day_dorm_fee": migration0065,
  "0066_zhhq_repair": migration0066,
  "0079_sc_merchant_finance": migration0079,
  "0077_zhhq_vehicles": migration0077,
  "0078_message_related_index": migration0078,
  "0084_zhhq_stock_out_receiver": migration0084,
  "0085_food_recipe": migration0085,
  "0088_zhhq_stock_day": migration0088,
  "0089_stock_document_kept_totals": migration0089,
  "0090_zhhq_report_indexes": migration0090,
  "0091_zhhq_stock_posting_sum": migration0091,
  "0092_zhhq_purchase_line_report_index": migration0092,
};

// int8 columns (ids, epoch-millisecond times) stay below 2^53, so they are read as plain numbers.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface OpenOptions {
  /** PostgreSQL only: the schema to work in (tests use one per run). */
  schema?: string;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (isPostgresUrl(url)) {
    const clientConfig = { connectionString: url, ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}) };
    const pool = new pg.Pool({ ...clientConfig, max: 10 });
    // A connection the server ends (restart, failover, pg_terminate_backend) emits 'error', idle or checked out
    // between two queries; unheard, that kills the process. The pool drops such a client and opens a new one.
    pool.on("connect", (client) => client.on("error", (error) => logDatabaseFault(error)));
    pool.on("error", () => {}); // the client's own listener above has logged it
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy(), exclusive: (work) => withStartupLock(clientConfig, work) };
  }
  const path = url.replace(/^file:/, "");
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // Balances and stock must survive a power cut: every commit reaches the disk.
  sqlite.pragma("synchronous = FULL");
  // A statement that may change several rows inside a savepoint (the ledger's group commit runs every movement in
  // one) keeps its undo pages in a statement journal, by default a temporary file whose writes cost a counter sale
  // ~15 % of its time (decision 049). In memory: a statement's pages, and the sorts a report spills, are small beside
  // the server's memory.
  sqlite.pragma("temp_store = MEMORY");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  let reader: Db | null = null;
  let checkpointer: Checkpointer | null = null;
  if (path !== ":memory:") {
    checkpointer = startCheckpointer(path);
    readers.set(db, () => {
      if (reader) return reader;
      const readOnly = new SQLite(path, { readonly: true });
      readOnly.pragma("busy_timeout = 5000");
      readOnly.pragma("temp_store = MEMORY");
      return (reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(readOnly) }) }));
    });
  }
  return {
    db,
    dialect: "sqlite",
    close: async () => (await checkpointer?.stop(), await reader?.destroy(), await db.destroy()),
    exclusive: (work) => (path === ":memory:" ? work() : withSqliteStartupLock(path, work)),
  };
}

/**
 * The start-up's writes (migrations, seed) are done: on SQLite the WAL they left (several MB after a first start) is
 * copied and emptied, and from now on the writer leaves the copying to the checkpointer up to
 * WRITER_CHECKPOINT_PAGES (decision 050). Until then the writer keeps SQLite's default of 1,000 pages, so a start
 * needs no more room on disk than it did.
 */
export async function startServing(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect !== "sqlite") return;
  await sql`pragma wal_checkpoint(truncate)`.execute(handle.db);
  await sql.raw(`pragma wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`).execute(handle.db);
}

const readers = new WeakMap<Db, () => Db>();

/**
 * The database to read committed rows from while the writer may be busy: on SQLite a second, read-only connection
 * to the same file (opened on first use), on PostgreSQL (and an in-memory SQLite) the database itself. A request
 * checks its session, its permissions and its Idempotency-Key here before it joins the ledger's group commit, so
 * it can do so while a group holds the writer's connection, and join that group (decision 050). It sees only
 * committed rows, never a group's own; what must be read together with a write is read in the write's transaction.
 */
export function readerOf(db: Db): Db {
  return readers.get(db)?.() ?? db;
}

/**
 * Instances starting at once on one PostgreSQL database take turns to migrate and seed: Kysely's migrator locks
 * the migrations, but two seeds could both find the first admin missing. The lock is a session advisory lock on a
 * connection of its own, keyed by the schema, released when the work ends (or the connection drops).
 */
async function withStartupLock<T>(clientConfig: pg.ClientConfig, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client(clientConfig);
  client.on("error", () => {}); // a dropped lock connection fails the query below, which reports it
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('canteen-start'), hashtext(current_schema()))");
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Processes starting at once on one SQLite file take turns to migrate and seed. Kysely's migrator takes no lock on
 * SQLite and runs a migration's statements each on its own (no transaction), so two first starts both created the
 * same tables and one stopped with "table … already exists"; two seeds could both find the first admin missing.
 * The turn is an exclusive lock on a file of its own beside the database (`<file>-start-lock`, empty), held by a
 * connection of its own: not the database's write lock, which the migrations and the seed need for their writes.
 * SQLite's locks are the operating system's, so a process that dies holding the turn releases it. Waiting polls
 * rather than using busy_timeout, which would block the event loop.
 */
async function withSqliteStartupLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = new SQLite(`${path}-start-lock`, { timeout: 0 });
  try {
    for (;;) {
      try {
        lock.exec("begin exclusive");
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return await work();
  } finally {
    lock.close();
  }
}

// After SQLITE_FULL (or an I/O error) SQLite has already rolled the transaction back; Kysely's ROLLBACK would then
// fail with "cannot rollback - no transaction is active" and hide the real cause.
const NO_ROLLBACK = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as SQLite.Statement;

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles SQL on every prepare, and Kysely prepares every query it runs: on a list request the
 * compiles cost a third as much as running the queries. The engine's queries repeat (only parameters change), so
 * compiled statements are kept, least recently used out first. Kysely runs one query at a time on the connection,
 * so a kept statement is never in use twice.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      if (text === "rollback" && !sqlite.inTransaction) return NO_ROLLBACK;
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** Runs the migrations not yet run; `target` (a migration's name) stops after it, as a test of a later one needs. */
export async function migrateToLatest(db: Db, target?: string): Promise<void> {
  // Unless told a schema, Kysely takes its migration tables found in any schema of the database for
  // ours: on PostgreSQL name the schema in use, so another schema's migrations are not mistaken for them.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Streams of work land migrations out of name order; each is independent of the later-named ones.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`数据库迁移失败：${failed?.migrationName ?? ""} ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export async function checkDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export const ID_EPOCH = Date.UTC(2024, 0, 1);
/** Instance numbers that fit in an id (6 bits); each running instance holds one (server/db/instanceLease.ts). */
export const ID_INSTANCES = 64;
const ID_SEQUENCES = 64;

/**
 * Time-ordered ids below 2^53 (safe in JSON and JavaScript until 2093), made by the application so that tenant
 * tables can keep (tenant_id, id) as their primary key on both dialects: milliseconds since 2024 × 4096 + instance
 * number × 64 + a sequence within the millisecond. Two instances with different numbers never make the same id.
 * The millisecond keeps its place from the first layout (× 4096 + a 12-bit sequence), so ids made after an upgrade
 * sort after every id made before it. When a millisecond's 64 ids are used up, the next millisecond is borrowed.
 */
export class IdGenerator {
  private lastMillis = 0;
  private sequence = 0;

  constructor(
    public instance: number,
    private readonly clock: () => number = Date.now,
  ) {}

  next(): number {
    let millis = this.clock() - ID_EPOCH;
    // Same millisecond, or the clock stepped back: stay on the last one, so ids keep increasing.
    if (millis <= this.lastMillis) {
      this.sequence += 1;
      if (this.sequence === ID_SEQUENCES) {
        this.sequence = 0;
        this.lastMillis += 1;
      }
      millis = this.lastMillis;
    } else {
      this.sequence = 0;
    }
    this.lastMillis = millis;
    return millis * 4096 + this.instance * ID_SEQUENCES + this.sequence;
  }
}

const ids = new IdGenerator(0);

export function newId(): number {
  return ids.next();
}

/** Puts this process's instance number into the ids it makes from now on (0 until one is claimed). */
export function setIdInstance(instance: number): void {
  ids.instance = instance;
}
