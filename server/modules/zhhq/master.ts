import type { Kysely } from "kysely";
import { resourceKey } from "../../../resources/define";
import { goodsThreshold, goodsType, supplierGoods, warehouse, warehouseType, zhhqMasterResources } from "../../../resources/zhhq/master";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { assertNoTreeCycle, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { declaredDefaults } from "../resource/declaredDefaults";

/**
 * The warehouse's master data (issue 40, decision 067): what the declarations cannot say. Checks that compare a row
 * with others run inside the write's transaction, after the row is written, so two clerks racing see each other.
 */

export const masterMessages = {
  thresholdOrder: "上限数量不能小于下限数量",
  validOrder: "失效日期不能早于生效日期",
  priceOverlap: (from: string, to: string | null) => `该供应商此物资已有 ${from} 至 ${to ?? "长期"} 的合同价格，有效期不能重叠`,
  typeInUse: (what: string) => `该类型仍被${what}使用，不能删除`,
  goodsTypeCycle: "上级分类不能是本分类或其下级分类",
};

// The engine hands its hooks an untyped transaction (it serves every table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

function checkThreshold(row: Row) {
  const lower = row.lower_quantity as number | null | undefined;
  const upper = row.upper_quantity as number | null | undefined;
  if (typeof lower === "number" && typeof upper === "number" && upper < lower) throw fieldError("upperQuantity", masterMessages.thresholdOrder);
}

/**
 * A supplier × goods has one contract price on any day: checked with the supplier's row locked (PostgreSQL; SQLite's
 * writer holds the database already), so of two overlapping prices written at once the second sees the first. NO KEY
 * UPDATE leaves alone the key share that the price's own foreign key holds on that row.
 */
async function checkContractPeriod(ctx: SessionContext, trx: AnyTrx, row: Row) {
  // A create's row holds only the columns it was given: no valid_to is an open end.
  const validTo = (row.valid_to ?? null) as string | null;
  if (validTo !== null && validTo < String(row.valid_from)) throw fieldError("validTo", masterMessages.validOrder);
  const tenantId = ctx.session.tenantId;
  if (ctx.services.dialect === "postgres") {
    await trx.selectFrom("supplier").select("id").where("tenant_id", "=", tenantId).where("id", "=", row.supplier_id).forNoKeyUpdate().execute();
  }
  let overlap = trx
    .selectFrom("supplier_goods")
    .select(["valid_from", "valid_to"])
    .where("tenant_id", "=", tenantId)
    .where("supplier_id", "=", row.supplier_id)
    .where("goods_id", "=", row.goods_id)
    .where("id", "!=", row.id)
    .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">=", row.valid_from)]));
  if (validTo !== null) overlap = overlap.where("valid_from", "<=", validTo);
  const other = await overlap.orderBy("valid_from").executeTakeFirst();
  if (other) throw fieldError("validFrom", masterMessages.priceOverlap(String(other.valid_from), other.valid_to === null ? null : String(other.valid_to)));
}

/** Columns that point at a warehouse type without a foreign key (the warehouse table predates it, migration 0056). */
async function refuseWarehouseTypeInUse(ctx: SessionContext, trx: AnyTrx, current: Row) {
  const used = await trx.selectFrom("warehouse").select("id").where("tenant_id", "=", ctx.session.tenantId).where("warehouse_type_id", "=", current.id).limit(1).executeTakeFirst();
  if (used) throw new ApiError(Status.CONFLICT, masterMessages.typeInUse(warehouse.title));
}

const rules: Record<string, ResourceService> = {
  [resourceKey(warehouseType)]: { onDelete: refuseWarehouseTypeInUse },
  [resourceKey(goodsType)]: {
    async beforeUpdate(ctx, values, current) {
      if (values.parentId !== undefined && values.parentId !== null) {
        await assertNoTreeCycle(ctx, goodsType, current.id as number, values.parentId as number, masterMessages.goodsTypeCycle);
      }
    },
  },
  [resourceKey(goodsThreshold)]: {
    afterCreate: async (_ctx, _trx, row) => checkThreshold(row),
    afterUpdate: async (_ctx, _trx, row) => checkThreshold(row),
  },
  [resourceKey(supplierGoods)]: {
    afterCreate: (ctx, trx, row) => checkContractPeriod(ctx, trx, row),
    afterUpdate: (ctx, trx, row) => checkContractPeriod(ctx, trx, row),
  },
};

/** The rules of the warehouse's master data by resource key, each with the declared defaults of its fields. */
export const masterServices: Record<string, ResourceService> = Object.fromEntries(
  zhhqMasterResources.map((def) => {
    const key = resourceKey(def);
    return [key, { ...declaredDefaults(def), ...rules[key] }];
  }),
);
