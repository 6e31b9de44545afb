import { permissionCode } from "../../../resources/define";
import { mealOrderComplaints as def } from "../../../resources/zhct/mealOrderComplaints";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { findResource } from "../../../resources/index";
import { getInfo, getRow, type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";

/** Dict mealOrderComplaintsProcessStatus (spec §3). */
export const ComplaintStatus = { UNPROCESSED: 0, REVOKED: 1, PROCESSED: 2, REJECTED: 3 } as const;
const statusText: Record<number, string> = { 0: "未处理", 1: "已撤销", 2: "已处理", 3: "已驳回" };

export const complaintMessages = {
  notUnprocessed: (status: number, step: string) => `该申诉当前为「${statusText[status] ?? status}」，不能${step}`,
  notComplainant: "只有申诉人本人可以撤销申诉",
  replyRequired: "请填写处理回复",
};

/** The signed-in user as people read them: the real name, else the sign-in name. */
export async function userName(ctx: SessionContext): Promise<string> {
  const user = await ctx.services.db
    .selectFrom("user")
    .select(["user_name", "real_name"])
    .where("tenant_id", "=", ctx.session.homeTenantId)
    .where("id", "=", ctx.session.userId)
    .executeTakeFirst();
  return user?.real_name || user?.user_name || ctx.session.userName;
}

/** The generic create/update run through these rules: the complainant is the caller; only an unprocessed one changes. */
export const mealOrderComplaintsService: ResourceService = {
  async beforeCreate(ctx, values) {
    values.complainantId = ctx.session.tenantId === ctx.session.homeTenantId ? ctx.session.userId : null;
    values.complainantName = await userName(ctx);
    values.status = ComplaintStatus.UNPROCESSED;
  },
  beforeUpdate(_ctx, _values, current) {
    const status = Number(current.status);
    if (status !== ComplaintStatus.UNPROCESSED) throw new ApiError(Status.CONFLICT, complaintMessages.notUnprocessed(status, "修改"));
  },
};

/**
 * Moves an unprocessed complaint to `to`. The status check repeats in the UPDATE, so of two handlers racing
 * only one wins and the other gets the 409.
 */
async function transition(ctx: SessionContext, id: number, to: number, step: string, set: Row): Promise<Row> {
  const current = await getRow(ctx, def, id);
  const status = Number(current.status);
  if (status !== ComplaintStatus.UNPROCESSED) throw new ApiError(Status.CONFLICT, complaintMessages.notUnprocessed(status, step));
  const now = Math.max(ctx.now, Number(current.updated_at) + 1);
  await ctx.services.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("meal_order_complaints")
      .set({ ...set, status: to, updated_at: now, updated_by: ctx.session.userId })
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("id", "=", id)
      .where("status", "=", ComplaintStatus.UNPROCESSED)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      throw new ApiError(Status.CONFLICT, complaintMessages.notUnprocessed(ComplaintStatus.PROCESSED, step));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await recordOperation(trx as any, ctx, def, id, step === "撤销" ? "revoke" : "process", { status: [status, to], ...set });
  });
  return getInfo(ctx, def, id, findResource);
}

const idField = recordId();

export const complaintEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrderComplaints/process",
    summary: "处理订餐申诉：未处理 → 已处理（result=processed）或已驳回（result=rejected），须填写回复",
    access: permission(permissionCode(def, "process")),
    body: z.object({
      id: idField,
      result: z.enum(["processed", "rejected"], { error: "处理结果只能是 processed 或 rejected" }),
      reply: z.string({ error: complaintMessages.replyRequired }).trim().min(1, complaintMessages.replyRequired).max(1000),
    }),
    handle: async (ctx, { body }) => {
      const session = ctx as SessionContext;
      const to = body.result === "processed" ? ComplaintStatus.PROCESSED : ComplaintStatus.REJECTED;
      return transition(session, body.id, to, "处理", {
        reply: body.reply,
        handler_id: session.session.userId,
        handler_name: await userName(session),
        handled_at: session.now,
      });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrderComplaints/revoke",
    summary: "申诉人撤销自己未处理的申诉",
    access: { kind: "session" },
    body: z.object({ id: idField }),
    handle: async (ctx, { body }) => {
      const session = ctx as SessionContext;
      const current = await getRow(session, def, body.id);
      if (Number(current.complainant_id) !== session.session.userId || session.session.tenantId !== session.session.homeTenantId) {
        throw new ApiError(Status.FORBIDDEN, complaintMessages.notComplainant);
      }
      return transition(session, body.id, ComplaintStatus.REVOKED, "撤销", { revoked_by: session.session.userId, revoked_at: session.now });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/mealOrderComplaints/getComplaintsCount",
    summary: "未处理申诉数（字符串）与其中最新的申诉时间",
    access: permission(permissionCode(def, "view")),
    handle: async (ctx) => {
      const { session } = ctx as SessionContext;
      const row = await ctx.services.db
        .selectFrom("meal_order_complaints")
        .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.max("created_at").as("latest")])
        .where("tenant_id", "=", session.tenantId)
        .where("status", "=", ComplaintStatus.UNPROCESSED)
        .executeTakeFirstOrThrow();
      return { complaintsCount: String(Number(row.n)), maxCreatedTime: row.latest === null ? null : Number(row.latest) };
    },
  }),
];
