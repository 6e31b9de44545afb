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

/** Permission management: user ↔ warehouse and user ↔ restaurant links, department discounts, the test entity. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // User codes are unique per tenant; org codes too (several orgs may have none).
  await db.schema.dropIndex("user_code_idx").execute();
  await db.schema.createIndex("user_code_uq").unique().on("user").columns(["tenant_id", "user_code"]).execute();
  await db.schema.createIndex("user_org_idx").on("user").columns(["tenant_id", "org_id"]).execute();
  await db.schema.createIndex("org_code_uq").unique().on("org").columns(["tenant_id", "org_code"]).execute();
  await db.schema.createIndex("org_parent_idx").on("org").columns(["tenant_id", "parent_id"]).execute();

  // The logistics module's warehouse master data starts here, with what the user links need.
  await audit(
    db.schema
      .createTable("warehouse")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("warehouse_pk", ["tenant_id", "id"]),
  ).execute();

  await db.schema
    .createTable("user_warehouse")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addColumn("warehouse_id", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_warehouse_pk", ["tenant_id", "user_id", "warehouse_id"])
    .addForeignKeyConstraint("user_warehouse_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .addForeignKeyConstraint("user_warehouse_warehouse_fk", ["tenant_id", "warehouse_id"], "warehouse", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();
  await db.schema.createIndex("user_warehouse_warehouse_idx").on("user_warehouse").columns(["tenant_id", "warehouse_id"]).execute();

  await db.schema
    .createTable("user_restaurant")
    .addColumn("tenant_id", "bigint", (c) => c.notNull())
    .addColumn("user_id", "bigint", (c) => c.notNull())
    .addColumn("org_id", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_restaurant_pk", ["tenant_id", "user_id", "org_id"])
    .addForeignKeyConstraint("user_restaurant_user_fk", ["tenant_id", "user_id"], "user", ["tenant_id", "id"], (fk) =>
      fk.onDelete("cascade"),
    )
    .addForeignKeyConstraint("user_restaurant_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"])
    .execute();
  await db.schema.createIndex("user_restaurant_org_idx").on("user_restaurant").columns(["tenant_id", "org_id"]).execute();

  await audit(
    db.schema
      .createTable("org_discount")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("org_id", "bigint", (c) => c.notNull())
      .addColumn("discount_rate", "integer", (c) => c.notNull())
      .addColumn("meal_type", "text", (c) => c.notNull())
      .addColumn("valid_from", "text", (c) => c.notNull())
      .addColumn("valid_to", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("org_discount_pk", ["tenant_id", "id"])
      .addForeignKeyConstraint("org_discount_org_fk", ["tenant_id", "org_id"], "org", ["tenant_id", "id"]),
  ).execute();
  await db.schema.createIndex("org_discount_org_idx").on("org_discount").columns(["tenant_id", "org_id", "valid_from"]).execute();

  await audit(
    db.schema
      .createTable("test")
      .addColumn("tenant_id", "bigint", (c) => c.notNull().references("tenant.id"))
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("value", "text")
      .addColumn("remark", "text")
      .addPrimaryKeyConstraint("test_pk", ["tenant_id", "id"]),
  ).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["test", "org_discount", "user_restaurant", "user_warehouse", "warehouse"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex("org_parent_idx").execute();
  await db.schema.dropIndex("org_code_uq").execute();
  await db.schema.dropIndex("user_org_idx").execute();
  await db.schema.dropIndex("user_code_uq").execute();
  await db.schema.createIndex("user_code_idx").on("user").columns(["tenant_id", "user_code"]).execute();
}
