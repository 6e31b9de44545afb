import { sql, type CreateTableBuilder, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Builder = CreateTableBuilder<any, any>;

/** A tenant table: (tenant_id, id) key and the audit columns every table keeps. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function tenantTable(db: Kysely<any>, name: string, columns: (table: Builder) => Builder): Builder {
  return columns(
    db.schema
      .createTable(name)
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull()),
  )
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("created_by", "bigint")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "bigint")
    .addPrimaryKeyConstraint(`${name}_pk`, ["tenant_id", "id"]);
}

const TABLES = [
  "iccard_init",
  "holiday",
  "device_detect_config",
  "print_device",
  "merchant_org",
  "merchant_config",
  "merchant",
  "announcement",
  "parameter_config",
  "exception_info",
  "model_version",
  "app_version",
  "device_param",
  "device",
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await tenantTable(db, "device", (t) =>
    t
      .addColumn("device_code", "text", (c) => c.notNull())
      .addColumn("device_name", "text", (c) => c.notNull())
      .addColumn("device_type", "text", (c) => c.notNull())
      .addColumn("org_id", "bigint")
      .addColumn("ip", "text")
      .addColumn("mac", "text")
      .addColumn("alive_status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("last_heartbeat_at", "bigint")
      .addColumn("app_version", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addUniqueConstraint("device_code_uq", ["tenant_id", "device_code"])
      .addForeignKeyConstraint("device_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"]),
  ).execute();

  await db.schema
    .createTable("device_param")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("device_id", "bigint", (c) => c.notNull())
    .addColumn("param_key", "text", (c) => c.notNull())
    .addColumn("param_value", "text", (c) => c.notNull())
    .addColumn("remark", "text")
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("created_by", "bigint")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "bigint")
    .addPrimaryKeyConstraint("device_param_pk", ["tenant_id", "device_id", "param_key"])
    .addForeignKeyConstraint("device_param_device_fk", ["tenant_id", "device_id"], "device", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();

  await tenantTable(db, "app_version", (t) =>
    t
      .addColumn("version_name", "text", (c) => c.notNull())
      .addColumn("version_code", "integer", (c) => c.notNull())
      .addColumn("file_type", "text", (c) => c.notNull())
      .addColumn("file_url", "text", (c) => c.notNull())
      .addColumn("file_size", "bigint")
      .addColumn("md5", "text")
      .addColumn("force_update", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("published_at", "bigint")
      .addColumn("release_notes", "text")
      .addUniqueConstraint("app_version_code_uq", ["tenant_id", "file_type", "version_code"]),
  ).execute();

  await tenantTable(db, "model_version", (t) =>
    t
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("file_url", "text", (c) => c.notNull())
      .addColumn("file_size", "bigint")
      .addColumn("md5", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("published_at", "bigint")
      .addColumn("release_notes", "text")
      .addUniqueConstraint("model_version_uq", ["tenant_id", "version"]),
  ).execute();

  await tenantTable(db, "exception_info", (t) =>
    t
      .addColumn("device_id", "bigint", (c) => c.notNull())
      .addColumn("occurred_at", "bigint", (c) => c.notNull())
      .addColumn("level", "integer", (c) => c.notNull())
      .addColumn("message", "text", (c) => c.notNull())
      .addColumn("detail", "text")
      .addColumn("handled", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("handled_at", "bigint")
      .addColumn("handler_name", "text")
      .addColumn("handle_note", "text")
      .addForeignKeyConstraint("exception_info_device_fk", ["tenant_id", "device_id"], "device", ["tenant_id", "id"]),
  ).execute();
  await db.schema.createIndex("exception_info_time_idx").on("exception_info").columns(["tenant_id", "occurred_at"]).execute();
  await db.schema.createIndex("exception_info_device_idx").on("exception_info").columns(["tenant_id", "device_id"]).execute();

  await tenantTable(db, "parameter_config", (t) =>
    t
      .addColumn("param_code", "text", (c) => c.notNull())
      .addColumn("param_name", "text", (c) => c.notNull())
      .addColumn("param_value", "text")
      .addColumn("remark", "text")
      .addUniqueConstraint("parameter_config_code_uq", ["tenant_id", "param_code"]),
  ).execute();

  await tenantTable(db, "announcement", (t) =>
    t
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("publish_status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("published_at", "bigint"),
  ).execute();
  await db.schema.createIndex("announcement_status_idx").on("announcement").columns(["tenant_id", "publish_status", "published_at"]).execute();

  await tenantTable(db, "merchant", (t) =>
    t
      .addColumn("merchant_code", "text", (c) => c.notNull())
      .addColumn("merchant_name", "text", (c) => c.notNull())
      .addColumn("contact_name", "text")
      .addColumn("contact_phone", "text")
      .addColumn("bank_name", "text")
      .addColumn("account_name", "text")
      .addColumn("settlement_account", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addUniqueConstraint("merchant_code_uq", ["tenant_id", "merchant_code"]),
  ).execute();

  await tenantTable(db, "merchant_config", (t) =>
    t
      .addColumn("merchant_id", "bigint", (c) => c.notNull())
      .addColumn("parameter_code", "text", (c) => c.notNull())
      .addColumn("param_value", "text")
      .addColumn("remark", "text")
      .addUniqueConstraint("merchant_config_uq", ["tenant_id", "merchant_id", "parameter_code"])
      .addForeignKeyConstraint("merchant_config_merchant_fk", ["tenant_id", "merchant_id"], "merchant", ["tenant_id", "id"], (fk) =>
        fk.onDelete("cascade"),
      )
      .addForeignKeyConstraint(
        "merchant_config_parameter_fk",
        ["tenant_id", "parameter_code"],
        "parameter_config",
        ["tenant_id", "param_code"],
        (fk) => fk.onUpdate("cascade"),
      ),
  ).execute();

  await tenantTable(db, "merchant_org", (t) =>
    t
      .addColumn("merchant_id", "bigint", (c) => c.notNull())
      .addColumn("org_id", "bigint", (c) => c.notNull())
      .addColumn("remark", "text")
      // A restaurant or stall is run by one merchant.
      .addUniqueConstraint("merchant_org_uq", ["tenant_id", "org_id"])
      .addForeignKeyConstraint("merchant_org_merchant_fk", ["tenant_id", "merchant_id"], "merchant", ["tenant_id", "id"])
      .addForeignKeyConstraint("merchant_org_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"]),
  ).execute();
  await db.schema.createIndex("merchant_org_merchant_idx").on("merchant_org").columns(["tenant_id", "merchant_id"]).execute();

  await tenantTable(db, "print_device", (t) =>
    t
      .addColumn("printer_name", "text", (c) => c.notNull())
      .addColumn("printer_sn", "text", (c) => c.notNull())
      .addColumn("printer_key", "text")
      .addColumn("org_id", "bigint")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addUniqueConstraint("print_device_sn_uq", ["tenant_id", "printer_sn"])
      .addForeignKeyConstraint("print_device_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"]),
  ).execute();

  await tenantTable(db, "device_detect_config", (t) =>
    t
      .addColumn("device_id", "bigint", (c) => c.notNull())
      .addColumn("confidence_threshold", "integer", (c) => c.notNull())
      .addColumn("weight_tolerance", "integer")
      .addColumn("detect_interval", "integer")
      .addColumn("max_items", "integer")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addUniqueConstraint("device_detect_config_uq", ["tenant_id", "device_id"])
      .addForeignKeyConstraint("device_detect_config_device_fk", ["tenant_id", "device_id"], "device", ["tenant_id", "id"], (fk) =>
        fk.onDelete("cascade"),
      ),
  ).execute();

  await tenantTable(db, "holiday", (t) =>
    t
      .addColumn("holiday_date", "text", (c) => c.notNull())
      .addColumn("holiday_name", "text", (c) => c.notNull())
      .addColumn("holiday_type", "integer", (c) => c.notNull())
      .addColumn("remark", "text")
      .addUniqueConstraint("holiday_date_uq", ["tenant_id", "holiday_date"]),
  ).execute();

  await tenantTable(db, "iccard_init", (t) =>
    t
      .addColumn("card_serial", "text", (c) => c.notNull())
      .addColumn("key_version", "integer", (c) => c.notNull())
      .addColumn("sectors", "text", (c) => c.notNull())
      .addColumn("result", "integer", (c) => c.notNull())
      .addColumn("message", "text")
      .addColumn("operator_name", "text")
      .addColumn("initialized_at", "bigint", (c) => c.notNull()),
  ).execute();
  // A card is initialised once per tenant; failed attempts are logged as often as they happen.
  await sql`create unique index iccard_init_serial_uq on iccard_init (tenant_id, card_serial) where result = 1`.execute(db);
  await db.schema.createIndex("iccard_init_time_idx").on("iccard_init").columns(["tenant_id", "initialized_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.dropTable(table).execute();
}
