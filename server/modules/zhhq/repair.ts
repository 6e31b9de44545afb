import type { Kysely } from "kysely";
import { permissionCode, resourceKey, type FieldDef, type ResourceTransition } from "../../../resources/define";
import { repair, repairDetail, repairImage, REPAIR_IMAGES_MAX } from "../../../resources/zhhq/repair";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { reasonField } from "../../http/reason";
import { nextDocumentNumber, runResourceStep } from "../../kernel/transitions";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";

/**
 * Repairs (issue 36, decision 074): the request's number and place, its declared steps with who and when (the
 * operation log) and the times kept for the repair report, its work and pictures while it is open, and the cost of its
 * parts: the approved 维修出库 stock-outs that name its number, at the stock's cost (decision 068).
 */

export const repairMessages = {
  dormitory: "地点类型为宿舍时请选择宿舍房间",
  restaurant: "地点类型为餐厅时请选择餐厅",
  place: "地点类型为其他时请输入具体位置",
  closed: (status: string) => `该报修单当前为「${status}」，不能再添加`,
  tooManyImages: `每张报修单最多 ${REPAIR_IMAGES_MAX} 张图片`,
};

// The engine hands its hooks an untyped transaction (it serves every table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

const OPEN_FOR_WORK = ["1", "2", "3"];
const STATUS_NAMES: Record<string, string> = { "0": "已提交", "1": "已受理", "2": "维修中", "3": "已完成", "4": "已评价", "9": "已驳回" };

/** A place is a room, a restaurant or words, as its type says; the others are cleared. */
function checkPlace(values: Row) {
  const type = values.placeType;
  if (type === "dormitory" && !values.dormitoryId) throw fieldError("dormitoryId", repairMessages.dormitory);
  if (type === "restaurant" && !values.restaurantId) throw fieldError("restaurantId", repairMessages.restaurant);
  if (type === "other" && !(typeof values.place === "string" && values.place.trim())) throw fieldError("place", repairMessages.place);
  if (type !== "dormitory") values.dormitoryId = null;
  if (type !== "restaurant") values.restaurantId = null;
}

const REPAIR_NUMBERING = { docType: resourceKey(repair), numbering: { prefix: "WX", digits: 3 } };

/**
 * WX + the China day + the day's sequence (WX20261128-003, the documents' form), from the documents' counter in the
 * create's transaction, so reports made at once get different numbers.
 */
async function numberRepair(ctx: SessionContext, trx: AnyTrx, repairId: unknown): Promise<void> {
  const repairNo = await nextDocumentNumber(trx, REPAIR_NUMBERING, ctx.session.tenantId, ctx.now);
  await trx.updateTable("repair").set({ repair_no: repairNo }).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", repairId).execute();
}

async function openRepair(ctx: SessionContext, trx: AnyTrx, repairId: unknown): Promise<Row> {
  const row = (await trx.selectFrom("repair").selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", repairId).executeTakeFirst()) as Row;
  const status = String(row.repair_status);
  if (!OPEN_FOR_WORK.includes(status)) throw fieldError("repairId", repairMessages.closed(STATUS_NAMES[status] ?? status));
  return row;
}

/** What the repair's parts cost: its approved 维修出库 stock-outs' lines, at the stock's cost (fen). */
export async function partsCostOf(trx: AnyTrx, tenantId: number, repairNo: string): Promise<number> {
  const sum = await trx
    .selectFrom("warehouse_out_line as l")
    .innerJoin("warehouse_out as h", (join) => join.onRef("h.tenant_id", "=", "l.tenant_id").onRef("h.id", "=", "l.document_id"))
    .select((eb) => eb.fn.sum("l.amount").as("amount"))
    .where("h.tenant_id", "=", tenantId)
    .where("h.repair_no", "=", repairNo)
    .where("h.out_kind", "=", 2)
    .where("h.status", "=", 2)
    .executeTakeFirst();
  return Number(sum?.amount ?? 0);
}

export const repairServices: Record<string, ResourceService> = {
  [resourceKey(repair)]: {
    async beforeCreate(ctx, values) {
      checkPlace(values);
      values.repairNo = null;
      values.repairStatus = "0";
      if (values.priority === undefined) values.priority = "1";
    },
    async afterCreate(ctx, trx, row) {
      await numberRepair(ctx, trx, row.id);
    },
  },
  [resourceKey(repairDetail)]: {
    async afterCreate(ctx, trx, row) {
      const owner = await openRepair(ctx, trx, row.repair_id);
      if (!row.worker_name && owner.worker_name) await trx.updateTable("repair_detail").set({ worker_name: owner.worker_name }).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", row.id).execute();
    },
  },
  [resourceKey(repairImage)]: {
    async afterCreate(ctx, trx, row) {
      const owner = (await trx.selectFrom("repair").select(["image"]).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", row.repair_id).executeTakeFirst()) as Row;
      const count = await trx.selectFrom("repair_image").select((eb) => eb.fn.countAll().as("n")).where("tenant_id", "=", ctx.session.tenantId).where("repair_id", "=", row.repair_id).executeTakeFirst();
      if (Number(count?.n ?? 0) + (owner.image ? 1 : 0) > REPAIR_IMAGES_MAX) throw fieldError("image", repairMessages.tooManyImages);
    },
  },
};

// ---- Steps -------------------------------------------------------------------------------------------------------

type StepName = "accept" | "start" | "finish" | "rate" | "reject";
const transition = (name: StepName) => repair.workflow.transitions.find((t) => t.name === name) as ResourceTransition;
const inputs = (name: StepName) => Object.fromEntries((transition(name).input ?? []).map((f: FieldDef) => [f.name, fieldSchema(f, false)]));
const id = recordId("报修单", "请选择报修单");
const bodies = {
  accept: z.strictObject({ id, ...inputs("accept") }),
  start: z.strictObject({ id }),
  finish: z.strictObject({ id, ...inputs("finish") }),
  rate: z.strictObject({ id, ...inputs("rate") }),
  reject: z.strictObject({ id, reason: reasonField("驳回原因") }),
};

const minutesSince = (from: unknown, now: number) => Math.max(0, Math.round((now - Number(from)) / 60_000));

/** Takes a step of the repair: the status, who (the log) and when, and what the step adds. */
async function step(ctx: SessionContext, name: StepName, body: Row) {
  const now = ctx.now;
  const tenantId = ctx.session.tenantId;
  let answer: Row = {};
  await inWriteTransaction(ctx.services.db, ctx.services.dialect, async (trx) => {
    const any = trx as unknown as AnyTrx;
    const { row, reason } = await runResourceStep(trx, ctx, repair, name, {
      id: body.id as number,
      reason: body.reason,
      set: (current) => {
        switch (name) {
          case "accept":
            return { worker_name: body.workerName, worker_phone: body.workerPhone ?? null, accepted_at: now, accept_minutes: minutesSince(current.created_at, now) };
          case "start":
            return { started_at: now };
          case "finish":
            return { finished_at: now, finish_note: body.finishNote, finish_minutes: minutesSince(current.accepted_at ?? current.created_at, now) };
          case "rate":
            return { rating: body.rating, rating_comment: body.ratingComment ?? null };
          case "reject":
            return {};
        }
      },
      effect: async (current, why) => {
        if (name === "reject") await any.updateTable("repair").set({ reject_reason: why }).where("tenant_id", "=", tenantId).where("id", "=", current.id).execute();
        if (name !== "finish") return {};
        const partsCost = await partsCostOf(any, tenantId, String(current.repair_no));
        await any.updateTable("repair").set({ parts_cost: partsCost }).where("tenant_id", "=", tenantId).where("id", "=", current.id).execute();
        return { partsCost };
      },
    });
    const after = (await any.selectFrom("repair").selectAll().where("tenant_id", "=", tenantId).where("id", "=", row.id).executeTakeFirst()) as Row;
    answer = {
      id: row.id,
      repairNo: after.repair_no,
      repairStatus: String(after.repair_status),
      workerName: after.worker_name,
      partsCost: after.parts_cost,
      rating: after.rating,
      rejectReason: reason,
    };
  });
  return answer;
}

const session = (ctx: unknown) => ctx as SessionContext;
const SUMMARIES: Record<StepName, string> = {
  accept: "受理：已提交 → 已受理，指派维修人员 { id, workerName, workerPhone }",
  start: "开始维修：已受理 → 维修中 { id }",
  finish: "完成：维修中 → 已完成 { id, finishNote }；配件成本取本单号已审核的维修出库（按库存成本）",
  rate: "评价：已完成 → 已评价 { id, rating（1–5）, ratingComment }",
  reject: "驳回：已提交或已受理 → 已驳回，须填写原因 { id, reason }",
};

export const repairEndpoints: Endpoint[] = (Object.keys(bodies) as StepName[]).map((name) =>
  endpoint({
    method: "POST",
    path: `/api/v1/zhhq/repair/${name}`,
    summary: SUMMARIES[name],
    access: permission(permissionCode(repair, name)),
    body: bodies[name],
    handle: (ctx, { body }) => step(session(ctx), name, body as Row),
  }),
);

