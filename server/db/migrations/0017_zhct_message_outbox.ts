// Written by `npm run migration:new -- zhct/userInfoSendMessage` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "user_info_send_message",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "recipient_name", type: "text", notNull: true },
      { name: "phone", type: "text", notNull: false },
      { name: "template_code", type: "text", notNull: false },
      { name: "content", type: "text", notNull: true },
      { name: "state", type: "integer", notNull: true, default: 0 },
      { name: "attempts", type: "integer", notNull: true, default: 0 },
      { name: "last_error", type: "text", notNull: false },
      { name: "sent_at", type: "bigint", notNull: false },
      { name: "related_entity", type: "text", notNull: false },
      { name: "related_id", type: "bigint", notNull: false },
      { name: "next_attempt_at", type: "bigint", notNull: true, default: 0 },
      { name: "lease_holder", type: "text", notNull: false },
      { name: "leased_until", type: "bigint", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [["tenant_id", "state", "next_attempt_at"]],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
  // Written by hand: the dispatcher looks for due messages of every tenant at once (decision 018).
  await db.schema.createIndex("user_info_send_message_due_idx").on("user_info_send_message").columns(["state", "next_attempt_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
