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
  // Meal-order complaints: 0 unprocessed → 2 processed | 3 rejected (by a handler), or 1 revoked (by the complainant).
  await audit(
    db.schema
      .createTable("meal_order_complaints")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("order_no", "text", (c) => c.notNull())
      .addColumn("order_id", "bigint")
      .addColumn("complainant_id", "bigint")
      .addColumn("complainant_name", "text")
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("images", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("reply", "text")
      .addColumn("handler_id", "bigint")
      .addColumn("handler_name", "text")
      .addColumn("handled_at", "bigint")
      .addColumn("revoked_by", "bigint")
      .addColumn("revoked_at", "bigint")
      .addPrimaryKeyConstraint("meal_order_complaints_pk", ["tenant_id", "id"])
      .addForeignKeyConstraint("meal_order_complaints_user_fk", ["tenant_id", "complainant_id"], "user", ["tenant_id", "id"]),
  ).execute();
  await db.schema
    .createIndex("meal_order_complaints_status_idx")
    .on("meal_order_complaints")
    .columns(["tenant_id", "status", "created_at"])
    .execute();

  await audit(
    db.schema
      .createTable("image_obj")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("image_type", "text", (c) => c.notNull())
      .addColumn("image", "text", (c) => c.notNull())
      .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("image_obj_pk", ["tenant_id", "id"]),
  ).execute();
  await db.schema.createIndex("image_obj_type_idx").on("image_obj").columns(["tenant_id", "image_type", "status"]).execute();

  // A one-time ticket lets a page opened in a new window sign in without the token in its URL.
  await db.schema
    .createTable("login_ticket")
    .addColumn("ticket_hash", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addColumn("session_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .addForeignKeyConstraint("login_ticket_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) => fk.onDelete("cascade"))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["login_ticket", "image_obj", "meal_order_complaints"]) await db.schema.dropTable(table).execute();
}
