import { sql, type Kysely } from "kysely";

/**
 * 申诉人 was blank on complaints recorded without a complainant (the demo canteen's, and any filed for a diner who
 * has no sign-in): the diner of the complained-about order is who complained. Fills the name from that order's diner
 * (its order relation, else its order number in the tenant); complaints that name a complainant keep theirs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE meal_order_complaints SET complainant_name = (
      SELECT u.user_name FROM meal_order o JOIN user_info u ON u.tenant_id = o.tenant_id AND u.id = o.user_info_id
      WHERE o.tenant_id = meal_order_complaints.tenant_id
        AND (o.id = meal_order_complaints.order_id OR (meal_order_complaints.order_id IS NULL AND o.order_no = meal_order_complaints.order_no))
      ORDER BY o.id LIMIT 1
    )
    WHERE complainant_name IS NULL`.execute(db);
}

/** The names filled in cannot be told from those recorded: nothing to undo. */
export async function down(): Promise<void> {}
