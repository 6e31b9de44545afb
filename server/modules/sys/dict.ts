import { builtInDicts } from "../../../resources/dicts";
import { dictItem as itemDef } from "../../../resources/sys/dictItem";
import type { SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { sysMessages } from "./messages";
import { nextRecord } from "./rules";

const m = sysMessages.dict;

/** The screens and the seed read the built-in dictionaries by code and value, so those keys stay. */
const isBuiltIn = (code: unknown) => Object.hasOwn(builtInDicts, String(code));
const isBuiltInItem = (code: unknown, value: unknown) =>
  isBuiltIn(code) && builtInDicts[String(code)].options.some((o) => o.value === String(value));

export const dictService: ResourceService = {
  beforeUpdate(_ctx, values, current) {
    if (values.dictCode !== undefined && values.dictCode !== current.dict_code && isBuiltIn(current.dict_code)) {
      throw fieldError("dictCode", m.builtInCode);
    }
  },
  async beforeDelete(ctx, current) {
    if (isBuiltIn(current.dict_code)) throw new ApiError(Status.CONFLICT, m.builtInDelete);
    const item = await ctx.services.db.selectFrom("dict_item").select("id").where("dict_code", "=", current.dict_code as string).limit(1).executeTakeFirst();
    if (item) throw new ApiError(Status.CONFLICT, m.hasItems);
  },
};

async function checkItem(ctx: SessionContext, next: Row, id?: number) {
  const { db } = ctx.services;
  const dict = await db.selectFrom("dict").select("id").where("dict_code", "=", next.dictCode as string).executeTakeFirst();
  if (!dict) throw fieldError("dictCode", m.missing);
  if (String(next.itemType) === "1" && !/^-?\d+(\.\d+)?$/.test(String(next.itemValue))) throw fieldError("itemValue", m.notNumber);
  let same = db.selectFrom("dict_item").select("id").where("dict_code", "=", next.dictCode as string).where("item_value", "=", next.itemValue as string);
  if (id !== undefined) same = same.where("id", "!=", id);
  if (await same.executeTakeFirst()) throw fieldError("itemValue", m.duplicateValue);
}

export const dictItemService: ResourceService = {
  beforeCreate: (ctx, values) => checkItem(ctx, values),
  async beforeUpdate(ctx, values, current) {
    const next = nextRecord(itemDef, values, current);
    const keyChanges = next.dictCode !== current.dict_code || next.itemValue !== current.item_value;
    if (keyChanges && isBuiltInItem(current.dict_code, current.item_value)) throw fieldError("itemValue", m.builtInItemKey);
    await checkItem(ctx, next, current.id as number);
  },
  beforeDelete(_ctx, current) {
    if (isBuiltInItem(current.dict_code, current.item_value)) throw new ApiError(Status.CONFLICT, m.builtInItemDelete);
  },
};
