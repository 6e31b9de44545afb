import { org as orgDef } from "../../../resources/auth/org";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { assertNoTreeCycle, db, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";

export const orgMessages = {
  cycle: "上级机构不能是本机构或其下级机构",
  hasChildren: "该机构下还有下级机构，请先删除或移走下级机构",
  hasUsers: "该机构下还有用户，请先删除或调走这些用户",
  hasRestaurantUsers: "该餐厅已分配给用户，请先取消这些用户的餐厅分配",
};

async function exists(trx: ReturnType<typeof db>, table: string, tenantId: number, column: string, id: unknown) {
  return !!(await trx.selectFrom(table).select(column).where("tenant_id", "=", tenantId).where(column, "=", id).limit(1).executeTakeFirst());
}

export const orgService: ResourceService = {
  async beforeUpdate(ctx, values, current) {
    if (values.parentId !== undefined && values.parentId !== null) await assertNoTreeCycle(ctx, orgDef, current.id as number, values.parentId as number, orgMessages.cycle);
  },
  // Inside the delete's transaction, so a subtree deleted leaves first in one batch goes through.
  async onDelete(ctx, trx, current: Row) {
    const tenantId = ctx.session.tenantId;
    if (await exists(trx, "org", tenantId, "parent_id", current.id)) throw new ApiError(Status.CONFLICT, orgMessages.hasChildren);
    if (await exists(trx, "user", tenantId, "org_id", current.id)) throw new ApiError(Status.CONFLICT, orgMessages.hasUsers);
    if (await exists(trx, "user_restaurant", tenantId, "org_id", current.id)) {
      throw new ApiError(Status.CONFLICT, orgMessages.hasRestaurantUsers);
    }
  },
};

export interface OrgNode {
  id: number;
  parentId: number | null;
  orgName: string;
  orgCode: string | null;
  orgType: string;
  sort: number;
  status: string;
  children: OrgNode[];
}

/** The tenant's whole org tree, ordered by sort; an org whose parent is missing shows at the top. */
export async function orgTree(ctx: SessionContext): Promise<OrgNode[]> {
  const rows = await ctx.services.db
    .selectFrom("org")
    .select(["id", "parent_id", "org_name", "org_code", "org_type", "sort", "status"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const nodes = new Map<number, OrgNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, parentId: r.parent_id, orgName: r.org_name, orgCode: r.org_code, orgType: r.org_type, sort: r.sort, status: String(r.status), children: [] },
    ]),
  );
  const roots: OrgNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
