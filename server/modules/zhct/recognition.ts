import { permissionCode, resourceKey, type FieldDef } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { imageDetectLog, imageLibrary, mealOrderImageDetail } from "../../../resources/zhct/surveys";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { getInfo, getRow, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import { runResourceStep } from "../../kernel/transitions";
import type { Row } from "../resource/rows";
import { assertUploaded } from "../sys/files";
import { formatInstant, nextRecord } from "../sys/rules";
import { idempotent } from "../../kernel/idempotency";
import { userName } from "./mealOrderComplaints";

/**
 * Plate recognition (issue 14 part D, decision 029): a `detect_server` device reports what it saw on a tray
 * (`report`), staff mark whether it was right (`mark`), and the cut pictures of single foods wait in the image
 * library until a person confirms their label or relabels them (`confirm`).
 */

export const recognitionMessages = {
  unknownDevice: "设备编码不存在",
  notDetectServer: "该设备不是识别服务器，不能上报识别记录",
  deviceDisabled: "该设备已停用",
  foodMissing: (index: number) => `第 ${index + 1} 个菜品不存在`,
  orderMissing: "关联订单不存在",
  markRemark: "识别状态不是正常时，请在备注中说明",
  confirmed: "该切图已确认添加到图片库，不能再修改",
  sourceDetect: "来源为识别时，请选择识别记录",
  sourceOrder: "来源为订单时，请选择订单",
};

/** Dictionary detectStatus: 1 正常; 2–4 are the kinds of mistake. */
const DetectStatus = { NORMAL: 1 } as const;
/** Dictionary cutImageStatus. */
export const CutImageStatus = { UNCONFIRMED: 0, ADDED: 1 } as const;

const field = (name: string, label: string, type: FieldDef["type"], extra: Partial<FieldDef> = {}) => fieldSchema({ name, label, type, ...extra } as FieldDef, false);
const session = (ctx: unknown) => ctx as SessionContext;

// ---- Recognition log ------------------------------------------------------------------------------------------

async function orderNoOf(ctx: SessionContext, orderId: unknown): Promise<string | null> {
  if (orderId == null) return null;
  const order = await ctx.services.db.selectFrom("meal_order").select("order_no").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", Number(orderId)).executeTakeFirst();
  return order?.order_no ?? null;
}

/** A recognition's name: the device's code and the minute it saw the tray (DS-01 2026-11-23 12:05). */
const detectNo = (deviceCode: string, at: number) => `${deviceCode} ${formatInstant(at)}`;

export const imageDetectLogService: ResourceService = {
  // Entered by hand: seen now, nothing priced yet, 正常 until someone marks it.
  async beforeCreate(ctx, values) {
    values.detectedAt = ctx.now;
    const device = await ctx.services.db.selectFrom("device").select("device_code").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", Number(values.deviceId)).executeTakeFirst();
    values.detectNo = detectNo(device?.device_code ?? "", ctx.now);
  },
};

export const reportSchema = z.strictObject({
  deviceCode: field("deviceCode", "设备编码", "text", { required: true, max: 50 }),
  imageUrl: field("imageUrl", "识别图片", "image", { required: true }),
  confidence: field("confidence", "置信度（‰）", "number", { required: true, min: 0, max: 1000 }),
  orderId: field("orderId", "关联订单", "relation"),
  detectedAt: field("detectedAt", "识别时间", "datetime"),
  foods: z
    .array(
      z.strictObject({
        foodId: field("foodId", "菜品", "relation", { required: true }),
        foodCount: field("foodCount", "份数", "number", { required: true, min: 1, max: 99 }),
        price: field("price", "单价（分）", "money", { max: 1_000_000 }),
        cutImageUrl: field("cutImageUrl", "切图", "image"),
      }),
      { error: "识别菜品应为数组" },
    )
    .max(50, "一次最多上报 50 个菜品"),
});

/**
 * A recognition server's report: the device is the tenant's, a recognition server and enabled; each food is the
 * tenant's (its price is the device's, or the food's when the device sends none); a cut picture of a food goes to
 * the image library, unconfirmed. One transaction; a device that retries sends the same Idempotency-Key and gets
 * the first answer, so a flaky network logs a tray once.
 */
export async function report(ctx: SessionContext, body: z.output<typeof reportSchema>) {
  const { tenantId } = ctx.session;
  const { db } = ctx.services;
  const device = await db.selectFrom("device").select(["id", "device_type", "status"]).where("tenant_id", "=", tenantId).where("device_code", "=", body.deviceCode as string).executeTakeFirst();
  if (!device) throw fieldError("deviceCode", recognitionMessages.unknownDevice);
  if (device.device_type !== "detect_server") throw fieldError("deviceCode", recognitionMessages.notDetectServer);
  if (Number(device.status) !== 1) throw new ApiError(Status.FORBIDDEN, recognitionMessages.deviceDisabled);
  await assertUploaded(db, tenantId, { name: "imageUrl", label: "识别图片", type: "image" }, body.imageUrl);
  if (body.orderId != null && (await orderNoOf(ctx, body.orderId)) === null) throw fieldError("orderId", recognitionMessages.orderMissing);
  const foodIds = [...new Set(body.foods.map((f) => f.foodId as number))];
  const known = foodIds.length ? await db.selectFrom("food").select(["id", "food_name", "price"]).where("tenant_id", "=", tenantId).where("id", "in", foodIds).execute() : [];
  const byId = new Map(known.map((f) => [f.id, f]));
  const lines: Array<{ food: (typeof known)[number]; count: number; price: number; amount: number; cut: string | null; sort: number }> = [];
  for (const [index, line] of body.foods.entries()) {
    const food = byId.get(line.foodId as number);
    if (!food) throw fieldError(`foods[${index}].foodId`, recognitionMessages.foodMissing(index));
    await assertUploaded(db, tenantId, { name: `foods[${index}].cutImageUrl`, label: "切图", type: "image" }, line.cutImageUrl);
    const price = (line.price as number | null | undefined) ?? Number(food.price);
    lines.push({ food, count: line.foodCount as number, price, amount: price * (line.foodCount as number), cut: (line.cutImageUrl as string | null | undefined) ?? null, sort: index });
  }
  const now = ctx.now;
  const by = ctx.session.userId;
  const audit = { created_at: now, created_by: by, updated_at: now, updated_by: by };
  return idempotent(ctx, body, async (trx) => {
    const id = newId();
    await trx
      .insertInto("image_detect_log")
      .values({
        tenant_id: tenantId,
        id,
        detect_no: detectNo(body.deviceCode as string, (body.detectedAt as number | null | undefined) ?? now),
        device_id: device.id,
        image_url: body.imageUrl as string,
        order_id: (body.orderId as number | null | undefined) ?? null,
        confidence: body.confidence as number,
        food_count: lines.reduce((sum, l) => sum + l.count, 0),
        amount: lines.reduce((sum, l) => sum + l.amount, 0),
        detect_status: DetectStatus.NORMAL,
        detected_at: (body.detectedAt as number | null | undefined) ?? now,
        marked_by: null,
        marked_at: null,
        remark: null,
        ...audit,
      })
      .execute();
    if (lines.length) {
      await trx
        .insertInto("image_detect_food")
        .values(lines.map((l) => ({ tenant_id: tenantId, id: newId(), detect_log_id: id, food_id: l.food.id, food_name: l.food.food_name, food_count: l.count, price: l.price, amount: l.amount, sort: l.sort, ...audit })))
        .execute();
    }
    const cuts = lines.filter((l) => l.cut);
    if (cuts.length) {
      await trx
        .insertInto("image_library")
        .values(cuts.map((l) => ({ tenant_id: tenantId, id: newId(), image_url: l.cut as string, food_id: l.food.id, cut_image_source: "detect", detect_log_id: id, order_id: (body.orderId as number | null | undefined) ?? null, cut_image_status: CutImageStatus.UNCONFIRMED, original_food_id: null, confirmed_by: null, confirmed_at: null, ...audit })))
        .execute();
    }
    await recordOperation(trx, ctx, imageDetectLog, id, "report", { deviceCode: body.deviceCode, foods: lines.length });
    return { id, foodCount: lines.reduce((sum, l) => sum + l.count, 0), amount: lines.reduce((sum, l) => sum + l.amount, 0), cutImages: cuts.length };
  });
}

export const markSchema = z.strictObject({
  id: recordId("识别记录", "请选择识别记录"),
  updatedAt: recordId("updatedAt").optional(),
  detectStatus: field("detectStatus", "识别状态", "enum", { dict: "detectStatus", required: true }),
  remark: field("remark", "备注", "longText", { max: 500 }),
});

/**
 * Staff say whether a recognition was right. Anything but 正常 needs a remark saying what was wrong. The update is
 * conditional on the version the marker saw (when sent), so two people marking at once do not overwrite unseen.
 */
export async function mark(ctx: SessionContext, body: z.output<typeof markSchema>) {
  const status = Number(body.detectStatus);
  if (![1, 2, 3, 4].includes(status)) throw fieldError("detectStatus", "识别状态不是可选的值");
  const remark = ((body.remark as string | null | undefined) ?? "").trim() || null;
  if (status !== DetectStatus.NORMAL && !remark) throw fieldError("remark", recognitionMessages.markRemark);
  const current = await getRow(ctx, imageDetectLog, body.id);
  const seen = body.updatedAt ?? Number(current.updated_at);
  const now = Math.max(ctx.now, Number(current.updated_at) + 1);
  const marker = await userName(ctx);
  await ctx.services.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("image_detect_log")
      .set({ detect_status: status, remark, marked_by: marker, marked_at: ctx.now, updated_at: now, updated_by: ctx.session.userId })
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("id", "=", body.id)
      .where("updated_at", "=", seen)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, "数据已被他人修改，请刷新后重试");
    await recordOperation(trx, ctx, imageDetectLog, body.id, "mark", { detectStatus: [String(current.detect_status), String(status)], remark: [current.remark, remark] });
  });
  return getInfo(ctx, imageDetectLog, body.id, findResource);
}

/** A recognition with the foods it found, for the mark screen. */
export async function detectDetail(ctx: SessionContext, id: number) {
  const log = await getInfo(ctx, imageDetectLog, id, findResource);
  const foods = await ctx.services.db
    .selectFrom("image_detect_food")
    .select(["id", "food_id as foodId", "food_name as foodName", "food_count as foodCount", "price", "amount"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("detect_log_id", "=", id)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  return { ...log, foods };
}

// ---- Order pictures -------------------------------------------------------------------------------------------

export const mealOrderImageDetailService: ResourceService = {
  async beforeCreate(ctx, values) {
    values.orderNo = await orderNoOf(ctx, values.orderId);
  },
  async beforeUpdate(ctx, values) {
    if (values.orderId != null) values.orderNo = await orderNoOf(ctx, values.orderId);
  },
};

// ---- Image library --------------------------------------------------------------------------------------------

/** A cut picture names where it came from: a recognition for 识别, an order for 订单. */
function checkSource(record: Row) {
  if (record.cutImageSource === "detect" && record.detectLogId == null) throw fieldError("detectLogId", recognitionMessages.sourceDetect);
  if (record.cutImageSource === "order" && record.orderId == null) throw fieldError("orderId", recognitionMessages.sourceOrder);
}

export const imageLibraryService: ResourceService = {
  beforeCreate: (_ctx, values) => checkSource(values),
  // A picture already added to the training set is what the model learnt from: it is not changed afterwards.
  beforeUpdate(_ctx, values, current) {
    if (Number(current.cut_image_status) === CutImageStatus.ADDED) throw new ApiError(Status.CONFLICT, recognitionMessages.confirmed);
    checkSource(nextRecord(imageLibrary, values, current));
  },
};

export const confirmSchema = z.strictObject({
  id: recordId("切图", "请选择切图"),
  foodId: field("foodId", "菜品标签", "relation"),
});

/**
 * Adds a cut picture to the training set: with its label as it is, or relabelled to another food of the tenant (the
 * label it had is kept as 原标签). Only an unconfirmed picture moves, by a conditional UPDATE, so of two people
 * confirming at once one wins and the other is told it is already added.
 */
export async function confirm(ctx: SessionContext, body: z.output<typeof confirmSchema>) {
  const confirmer = await userName(ctx);
  await ctx.services.db.transaction().execute((trx) => {
    let relabelled: { from: number; to: number } | null = null;
    return runResourceStep(trx, ctx, imageLibrary, "confirm", {
      id: body.id,
      guard: async (current) => {
        const foodId = (body.foodId as number | null | undefined) ?? Number(current.food_id);
        if (foodId === Number(current.food_id)) return;
        const food = await trx.selectFrom("food").select("id").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", foodId).executeTakeFirst();
        if (!food) throw fieldError("foodId", "所选菜品标签不存在");
        relabelled = { from: Number(current.food_id), to: foodId };
      },
      // A picker's other food relabels the picture, keeping the label it had (read after the guard checked it).
      set: () => ({ confirmed_by: confirmer, confirmed_at: ctx.now, ...(relabelled ? { food_id: relabelled.to, original_food_id: relabelled.from } : {}) }),
      logAs: () => (relabelled ? "relabel" : "confirm"),
      effect: async () => (relabelled ? { foodId: [relabelled.from, relabelled.to] } : {}),
    });
  });
  return getInfo(ctx, imageLibrary, body.id, findResource);
}

export const recognitionServices: Record<string, ResourceService> = {
  [resourceKey(imageDetectLog)]: imageDetectLogService,
  [resourceKey(mealOrderImageDetail)]: mealOrderImageDetailService,
  [resourceKey(imageLibrary)]: imageLibraryService,
};

export const recognitionEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/imageDetectLog/report",
    summary:
      "识别服务器上报一次餐盘识别：{ deviceCode, imageUrl（先经 /api/v1/sys/file/upload 上传）, confidence（0–1000‰）, orderId?, detectedAt?, foods: [{ foodId, foodCount, price?（分，缺省为菜品价格）, cutImageUrl? }] } → { id, foodCount, amount, cutImages }；设备须为本租户启用的识别服务器；切图进入图片库待确认；重试请带同一 Idempotency-Key",
    access: permission(permissionCode(imageDetectLog, "report")),
    body: reportSchema,
    handle: (ctx, { body }) => report(session(ctx), body),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/imageDetectLog/mark",
    summary: "标记识别状态（正常、多识别、少识别、误识别）；非正常须填写备注",
    access: permission(permissionCode(imageDetectLog, "mark")),
    body: markSchema,
    handle: (ctx, { body }) => mark(session(ctx), body),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/imageDetectLog/getDetail",
    summary: "识别记录及其识别到的菜品",
    access: permission(permissionCode(imageDetectLog, "view")),
    query: z.object({ id: recordId("识别记录", "请选择识别记录") }),
    handle: (ctx, { query }) => detectDetail(session(ctx), query.id),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/imageLibrary/confirm",
    summary: "确认切图（未确认 → 已添加）；带另一 foodId 则改标后添加，原标签留作记录",
    access: permission(permissionCode(imageLibrary, "confirm")),
    body: confirmSchema,
    handle: (ctx, { body }) => confirm(session(ctx), body),
  }),
];

