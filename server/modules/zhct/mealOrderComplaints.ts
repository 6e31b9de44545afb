import { permissionCode } from "../../../resources/define";
import { mealOrderComplaints as def } from "../../../resources/zhct/mealOrderComplaints";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { findResource } from "../../../resources/index";
import { getInfo, getRow, type ResourceService } from "../resource/engine";
import { runResourceStep } from "../../kernel/transitions";
import type { Row } from "../resource/rows";
import { fieldSchema } from "../../../resources/schemas";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { type Trx } from "./ledger";
import { OrderStatus, refundPart } from "./payments";

/** Dict mealOrderComplaintsProcessStatus (spec §3). */
export const ComplaintStatus = { UNPROCESSED: 0, REVOKED: 1, PROCESSED: 2, REJECTED: 3 } as const;
const statusText: Record<number, string> = { 0: "未处理", 1: "已撤销", 2: "已处理", 3: "已驳回" };

export const complaintMessages = {
  notUnprocessed: (status: number, step: string) => `该申诉当前为「${statusText[status] ?? status}」，不能${step}`,
  notComplainant: "只有申诉人本人可以撤销申诉",
  replyRequired: "请填写处理回复",
  refundRejected: "驳回的申诉不能退款",
  refundNoOrder: "该申诉没有关联订单，不能退款",
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
 * Takes a declared step of the complaint (decision 070): its conditional update lets one of two racing handlers win
 * and tells the other with the 409. A refund moves money: the ledger's transaction (BEGIN IMMEDIATE on SQLite) with
 * the status change inside it, so a refused refund (more than refundable) leaves the complaint unprocessed.
 */
async function transition(ctx: SessionContext, id: number, step: "process" | "reject" | "revoke", set: Row, refundFen?: number | null): Promise<Row> {
  const run = <T,>(work: (trx: Trx) => Promise<T>) => (refundFen ? inWriteTransaction(ctx.services.db, ctx.services.dialect, work) : ctx.services.db.transaction().execute(work));
  await run((trx) =>
    runResourceStep(trx, ctx, def, step, {
      id,
      set,
      logAs: step === "revoke" ? "revoke" : "process",
      effect: async (current) => {
        if (refundFen) {
          const orderId = await orderOf(trx, ctx, current);
          await refundPart(trx, ctx, { orderId, amount: refundFen, reason: typeof set.reply === "string" ? set.reply.slice(0, 100) : null, docType: "mealOrderComplaints", docId: id });
          await trx.updateTable("meal_order_complaints").set({ refund_amount: refundFen, order_id: orderId }).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id).execute();
        }
        return set;
      },
    }),
  );
  return getInfo(ctx, def, id, findResource);
}

/** The complaint's order: its order relation, else the order of its order number (complaints made before the link). */
async function orderOf(trx: Trx, ctx: SessionContext, complaint: Row): Promise<number> {
  if (complaint.order_id !== null && complaint.order_id !== undefined) return Number(complaint.order_id);
  const order = await trx.selectFrom("meal_order").select("id").where("tenant_id", "=", ctx.session.tenantId).where("order_no", "=", String(complaint.order_no)).executeTakeFirst();
  if (!order) throw fieldError("refundAmount", complaintMessages.refundNoOrder);
  return order.id;
}

const idField = recordId();

/**
 * The order a complaint is about, as its processing needs it: the diner (申诉人 when none was recorded), what was
 * paid and refunded, and what a refund may still give back (paid − refunded; refundPart refuses more with 409).
 * Null when the complaint names no order found in the tenant.
 */
export async function complaintOrder(ctx: SessionContext, id: number) {
  const complaint = await getRow(ctx, def, id);
  const order = await ctx.services.db
    .selectFrom("meal_order as o")
    .leftJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "o.tenant_id").onRef("u.id", "=", "o.user_info_id"))
    .select(["o.id", "o.order_no", "o.order_date", "o.paid_amount", "o.refunded_amount", "o.order_status", "u.user_name", "u.user_code"])
    .where("o.tenant_id", "=", ctx.session.tenantId)
    .where((eb) => (complaint.order_id !== null && complaint.order_id !== undefined ? eb("o.id", "=", Number(complaint.order_id)) : eb("o.order_no", "=", String(complaint.order_no))))
    .executeTakeFirst();
  if (!order) return null;
  const paidAmount = Number(order.paid_amount);
  const refundedAmount = Number(order.refunded_amount);
  return {
    orderId: order.id,
    orderNo: order.order_no,
    orderDate: order.order_date,
    orderStatus: String(order.order_status),
    userName: order.user_name,
    userCode: order.user_code,
    paidAmount,
    refundedAmount,
    // A cancelled order gives nothing more back.
    refundable: Number(order.order_status) === OrderStatus.CANCELLED ? 0 : Math.max(0, paidAmount - refundedAmount),
  };
}

export const complaintEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealOrderComplaints/process",
    summary: "处理订餐申诉：未处理 → 已处理（result=processed）或已驳回（result=rejected），须填写回复；已处理时可带 refundAmount（分）经账户流水原路退回订单的部分金额（超过可退金额为 409）",
    access: permission(permissionCode(def, "process")),
    body: z.object({
      id: idField,
      result: z.enum(["processed", "rejected"], { error: "处理结果只能是 processed 或 rejected" }),
      reply: z.string({ error: complaintMessages.replyRequired }).trim().min(1, complaintMessages.replyRequired).max(1000),
      // Fen, only when upheld: given back through the ledger to the accounts that paid the order (payments.ts refundPart).
      refundAmount: fieldSchema({ name: "refundAmount", label: "退款金额", type: "money", min: 1, max: 1_000_000 }, false),
    }),
    handle: async (ctx, { body }) => {
      const session = ctx as SessionContext;
      const to = body.result === "processed" ? ComplaintStatus.PROCESSED : ComplaintStatus.REJECTED;
      const refundFen = (body.refundAmount as number | null | undefined) ?? null;
      if (refundFen && to !== ComplaintStatus.PROCESSED) throw fieldError("refundAmount", complaintMessages.refundRejected);
      return transition(
        session,
        body.id,
        to === ComplaintStatus.PROCESSED ? "process" : "reject",
        { reply: body.reply, handler_id: session.session.userId, handler_name: await userName(session), handled_at: session.now },
        refundFen,
      );
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/mealOrderComplaints/order",
    summary: "申诉的订单：{ orderId, orderNo, orderDate, orderStatus, userName, userCode, paidAmount, refundedAmount, refundable }（金额为分；可退 = 实付 − 已退，已取消为 0）；没有找到订单为 null",
    access: permission(permissionCode(def, "view")),
    query: z.strictObject({ id: idField }),
    handle: (ctx, { query }) => complaintOrder(ctx as SessionContext, query.id as number),
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
      return transition(session, body.id, "revoke", { revoked_by: session.session.userId, revoked_at: session.now });
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
