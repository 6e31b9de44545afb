import type { CreateTableBuilder, Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Builder = CreateTableBuilder<any, any>;

function audit(table: Builder): Builder {
  return table
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("created_by", "bigint")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "bigint");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await audit(
    db.schema
      .createTable("tenant")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("tenant_name", "text", (c) => c.notNull())
      .addColumn("tenant_code", "text", (c) => c.notNull().unique())
      .addColumn("contact_name", "text")
      .addColumn("contact_phone", "text")
      .addColumn("address", "text")
      .addColumn("expire_date", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text"),
  ).execute();

  await audit(
    db.schema
      .createTable("subsystem")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("sys_code", "text", (c) => c.notNull().unique())
      .addColumn("sys_name", "text", (c) => c.notNull())
      .addColumn("icon", "text")
      .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text"),
  ).execute();

  await audit(
    db.schema
      .createTable("menu")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("subsystem_id", "bigint", (c) => c.notNull().references("subsystem.id"))
      .addColumn("parent_id", "bigint", (c) => c.references("menu.id"))
      .addColumn("menu_name", "text", (c) => c.notNull())
      .addColumn("menu_path", "text")
      .addColumn("menu_icon", "text")
      .addColumn("menu_type", "text", (c) => c.notNull())
      .addColumn("menu_target", "text", (c) => c.notNull().defaultTo("other"))
      .addColumn("permission", "text")
      .addColumn("roles", "text")
      .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text"),
  ).execute();
  await db.schema.createIndex("menu_subsystem_idx").on("menu").columns(["subsystem_id", "parent_id", "sort"]).execute();

  await audit(
    db.schema
      .createTable("dict")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("dict_code", "text", (c) => c.notNull().unique())
      .addColumn("dict_name", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text"),
  ).execute();

  await audit(
    db.schema
      .createTable("dict_item")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("dict_code", "text", (c) => c.notNull().references("dict.dict_code").onUpdate("cascade"))
      .addColumn("item_value", "text", (c) => c.notNull())
      .addColumn("item_text", "text", (c) => c.notNull())
      .addColumn("item_type", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addUniqueConstraint("dict_item_code_value_uq", ["dict_code", "item_value"]),
  ).execute();

  await audit(
    db.schema
      .createTable("org")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("parent_id", "bigint")
      .addColumn("org_name", "text", (c) => c.notNull())
      .addColumn("org_code", "text")
      .addColumn("org_type", "text", (c) => c.notNull())
      .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("org_pk", ["tenant_id", "id"])
      .addForeignKeyConstraint("org_parent_fk", ["tenant_id", "parent_id"], "org", ["tenant_id", "id"]),
  ).execute();

  await audit(
    db.schema
      .createTable("role")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("role_code", "text", (c) => c.notNull())
      .addColumn("role_name", "text", (c) => c.notNull())
      .addColumn("role_type", "text", (c) => c.notNull().defaultTo("user"))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("role_pk", ["tenant_id", "id"])
      .addUniqueConstraint("role_code_uq", ["tenant_id", "role_code"]),
  ).execute();

  await audit(
    db.schema
      .createTable("user")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("user_name", "text", (c) => c.notNull())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("pwd_security_level", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("real_name", "text")
      .addColumn("user_code", "text")
      .addColumn("avatar", "text")
      .addColumn("introduction", "text")
      .addColumn("phone", "text")
      .addColumn("email", "text")
      .addColumn("sex", "integer")
      .addColumn("org_id", "bigint")
      .addColumn("navigation_mode", "text")
      .addColumn("settings", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("last_login_at", "bigint")
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("user_pk", ["tenant_id", "id"])
      .addUniqueConstraint("user_name_uq", ["tenant_id", "user_name"])
      .addForeignKeyConstraint("user_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"]),
  ).execute();
  await db.schema.createIndex("user_code_idx").on("user").columns(["tenant_id", "user_code"]).execute();

  await db.schema
    .createTable("login_name")
    .addColumn("user_name", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addForeignKeyConstraint("login_name_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();

  await db.schema
    .createTable("user_role")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addColumn("role_id", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_role_pk", ["tenant_id", "user_id", "role_id"])
    .addForeignKeyConstraint("user_role_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .addForeignKeyConstraint("user_role_role_fk", ["tenant_id", "role_id"], "role", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();

  await db.schema
    .createTable("role_menu")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("role_id", "bigint", (c) => c.notNull())
    .addColumn("menu_id", "bigint", (c) => c.notNull().references("menu.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("role_menu_pk", ["tenant_id", "role_id", "menu_id"])
    .addForeignKeyConstraint("role_menu_role_fk", ["tenant_id", "role_id"], "role", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_seen_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addForeignKeyConstraint("session_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();
  await db.schema.createIndex("session_user_idx").on("session").columns(["tenant_id", "user_id"]).execute();

  await db.schema
    .createTable("login_log")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("tenant_id", "bigint")
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("login_log_name_idx").on("login_log").columns(["user_name", "created_at"]).execute();
  await db.schema.createIndex("login_log_tenant_idx").on("login_log").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("login_lock")
    .addColumn("user_name", "text", (c) => c.primaryKey())
    .addColumn("locked_until", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("captcha")
    .addColumn("check_key", "text", (c) => c.primaryKey())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "captcha", "login_lock", "login_log", "session", "role_menu", "user_role", "login_name",
    "user", "role", "org", "dict_item", "dict", "menu", "subsystem", "tenant",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
