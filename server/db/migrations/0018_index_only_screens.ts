import { sql, type Kysely } from "kysely";

/**
 * Food nutrition became index only (decision 015): a row per food, made with the food. The foods made before get
 * their empty row here (its id is the food's: one row per food, so it cannot collide), and the nutrition screen's
 * 新增 and 删除 buttons, seeded before, go with the roles' grants of them.
 */
/** The seed's id of a menu entry as it was made then (FNV-1a of its key), written out: the seed may change, this may not. */
function seededMenuId(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1_000_000 + hash;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    insert into food_nutrition (tenant_id, id, food_id, created_at, created_by, updated_at, updated_by)
    select f.tenant_id, f.id, f.id, f.created_at, f.created_by, f.created_at, f.created_by
    from food f
    where not exists (select 1 from food_nutrition n where n.tenant_id = f.tenant_id and n.food_id = f.id)
  `.execute(db);
  const buttons = ["create", "delete"].map((action) => seededMenuId(`button:/zhct/foodnutrition/index:${action}`));
  await db.deleteFrom("role_menu").where("menu_id", "in", buttons).execute();
  await db.deleteFrom("menu").where("id", "in", buttons).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(_db: Kysely<any>): Promise<void> {
  // The rows stay: they are what the food has had since; the buttons are not seeded any more.
}
