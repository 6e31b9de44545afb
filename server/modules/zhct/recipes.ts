import type { Kysely } from "kysely";
import { apiPath, permissionCode } from "../../../resources/define";
import { goods, unit } from "../../../resources/zhhq/master";
import { food, foodRecipe, foodRecipeForm } from "../../../resources/zhct/catalogue";
import { createSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { recordOperation } from "../resource/operationLog";
import { toColumns, toRecord, type Row } from "../resource/rows";

/**
 * A dish's 用料 (issue 37, decision 088): its recipe lines read and written together, as a document's lines are, so
 * a recipe is never half saved. The lines are the `foodRecipe` declaration's fields; 理论与实际成本
 * (server/modules/sc/reports.ts) reads them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const recipeMessages = {
  noFood: "菜品不存在",
  noGoods: "物资不存在",
  twice: (name: string) => `物资「${name}」在用料中重复`,
};

const session = (ctx: unknown) => ctx as SessionContext;

async function foodOf(db: AnyDb, tenantId: number, id: number): Promise<Row> {
  const row = (await db.selectFrom(food.table).select(["id", "food_name", "restaurant_id"]).where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst()) as Row | undefined;
  if (!row) throw new ApiError(Status.NOT_FOUND, recipeMessages.noFood);
  return row;
}

/** The dish and its lines, each with its goods' name, code and unit as the recipe page and the list show them. */
async function readRecipe(db: AnyDb, tenantId: number, id: number) {
  const dish = await foodOf(db, tenantId, id);
  const rows = (await db
    .selectFrom(`${foodRecipe.table} as r`)
    .innerJoin(`${goods.table} as g`, (j) => j.onRef("g.tenant_id", "=", "r.tenant_id").onRef("g.id", "=", "r.goods_id"))
    .leftJoin(`${unit.table} as u`, (j) => j.onRef("u.tenant_id", "=", "g.tenant_id").onRef("u.id", "=", "g.unit_id"))
    .selectAll("r")
    .select(["g.goods_name", "g.goods_code", "u.unit_name"])
    .where("r.tenant_id", "=", tenantId)
    .where("r.food_id", "=", id)
    .orderBy("g.goods_code")
    .execute()) as Row[];
  return {
    id,
    foodName: String(dish.food_name),
    restaurantId: dish.restaurant_id === null ? null : Number(dish.restaurant_id),
    lines: rows.map((r) => ({ ...toRecord(foodRecipe, r), goodsIdLabel: `${r.goods_name}（${r.goods_code}）`, unitName: r.unit_name ?? "" })),
  };
}

const line = createSchema(foodRecipe);
const saveBody = z.strictObject({
  id: recordId("菜品", recipeMessages.noFood),
  lines: z.array(line, { error: `${foodRecipeForm.linesTitle}应为列表` }).max(foodRecipeForm.maxLines, `${foodRecipeForm.linesTitle}不能超过 ${foodRecipeForm.maxLines} 行`),
});

/** Replaces the dish's lines with those sent, in one write transaction; a goods named twice or not the tenant's is a 400 at its line. */
async function saveRecipe(ctx: SessionContext, id: number, lines: Row[]) {
  const tenantId = ctx.session.tenantId;
  const { db, dialect } = ctx.services;
  await inWriteTransaction(db, dialect, async (trx) => {
    const any = trx as unknown as AnyDb;
    await foodOf(any, tenantId, id);
    const ids = [...new Set(lines.map((l) => Number(l.goodsId)))];
    const known = new Map(
      ids.length
        ? ((await any.selectFrom(goods.table).select(["id", "goods_name"]).where("tenant_id", "=", tenantId).where("id", "in", ids).execute()) as Row[]).map((g) => [Number(g.id), String(g.goods_name)])
        : [],
    );
    const seen = new Set<number>();
    lines.forEach((l, i) => {
      const goodsId = Number(l.goodsId);
      const name = known.get(goodsId);
      if (name === undefined) throw fieldError(`lines.${i}.goodsId`, recipeMessages.noGoods);
      if (seen.has(goodsId)) throw fieldError(`lines.${i}.goodsId`, recipeMessages.twice(name));
      seen.add(goodsId);
    });
    await any.deleteFrom(foodRecipe.table).where("tenant_id", "=", tenantId).where("food_id", "=", id).execute();
    const values = lines.map((l) => ({
      ...toColumns(foodRecipe, { goodsId: l.goodsId, quantity: l.quantity }),
      tenant_id: tenantId,
      id: newId(),
      food_id: id,
      created_at: ctx.now,
      created_by: ctx.session.userId,
      updated_at: ctx.now,
      updated_by: ctx.session.userId,
    }));
    if (values.length) await any.insertInto(foodRecipe.table).values(values).execute();
    await recordOperation(any, ctx, food, id, "recipe", { lines });
  });
  return readRecipe(db as unknown as AnyDb, tenantId, id);
}

export const recipeEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: apiPath(food, "recipe"),
    summary: "菜品用料：?id= 菜品 → { id, foodName, restaurantId, lines: [{ id, goodsId, goodsIdLabel, quantity（每份用量，物资的单位，最多 3 位小数）, unitName }] }",
    access: permission(permissionCode(food, "view")),
    query: z.strictObject({ id: recordId("菜品", recipeMessages.noFood) }),
    handle: (ctx, { query }) => readRecipe(session(ctx).services.db as unknown as AnyDb, session(ctx).session.tenantId, Number(query.id)),
  }),
  endpoint({
    method: "POST",
    path: apiPath(food, "recipe"),
    summary: "保存菜品用料：{ id, lines: [{ goodsId, quantity }] } 整体替换该菜品的用料（同一物资只能一行，最多 100 行）→ 与查询相同",
    access: permission(permissionCode(food, "recipe")),
    body: saveBody,
    handle: (ctx, { body }) => saveRecipe(session(ctx), Number(body.id), body.lines as Row[]),
  }),
];
