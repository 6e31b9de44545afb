// Written by hand: `migration:new` refuses a relation added to a released table (its foreign key). Released
// migrations are not edited.
// Issue 35: a stock-out names who takes it (领用餐厅/部门); those made before this went to the restaurant their
// warehouse serves, which is what 出库统计 and 收支 counted them under.
import { sql, type Kysely } from "kysely";
import { addRelationColumn, dropRelationColumn, type ColumnSpec, type ForeignKeySpec } from "../tables";

const receiver: ColumnSpec = { name: "receiver_org_id", type: "bigint", notNull: false };
const receiverKey: ForeignKeySpec = { columns: ["tenant_id", "receiver_org_id"], table: "org", to: ["tenant_id", "id"] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await addRelationColumn(db, "warehouse_out", receiver, receiverKey, async (trx) => {
    await sql`update warehouse_out set receiver_org_id = (select w.restaurant_id from warehouse w where w.tenant_id = warehouse_out.tenant_id and w.id = warehouse_out.warehouse_id)`.execute(trx);
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropRelationColumn(db, "warehouse_out", receiver, receiverKey);
}
