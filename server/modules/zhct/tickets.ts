import { sql } from "kysely";
import { permissionCode, resourceKey, type FieldDef } from "../../../resources/define";
import { builtInDicts } from "../../../resources/dicts";
import { findResource } from "../../../resources/index";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { mealRecovery, mealTicket, mealTicketSetting } from "../../../resources/zhct/tickets";
import { newId } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { getInfo, getRow, type ResourceService } from "../resource/engine";
import { runResourceStep } from "../../kernel/transitions";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import { yuan } from "./accounts";
import type { Trx } from "./ledger";
import { userName } from "./mealOrderComplaints";
import { dayOf, dayStart } from "./months";
import type { PaymentHooks } from "./payments";

/**
 * Meal tickets (issue 13, decision 024): a setting per ticket type says what a ticket is worth, for which meals and
 * who approves; an application is approved once by such a person (never its applicant), and an approved, unexpired
 * ticket with uses left pays for a meal inside the payment's transaction (`useTicket`), which a cancelled order
 * gives back (`returnTicket`).
 */

export const ticketMessages = {
  none: "没有可用的餐券",
  expired: "餐券已过期",
  wrongMeal: "餐券不适用于本餐次",
  overAmount: (amount: number, face: number) => `本餐金额 ${yuan(amount)} 元超出餐券面值 ${yuan(face)} 元，请改用其他方式支付`,
  notTicket: "该支付方式不是餐券",
  orderPaid: "该订单已用餐券支付",
  noSetting: "该餐券类型未设置或已停用，请先在餐券设置中启用",
  noApprover: "审批角色与审批人至少填一项",
  noMeal: "至少选择一个可用餐别",
  validTo: "有效期止不能早于有效期起",
  notPending: (status: number, step: string) => `该餐券当前为「${approvedLabel(status)}」，不能${step}`,
  ownTicket: "不能审批自己申请的餐券",
  notApprover: "您不是该类餐券的审批人，不能审批",
  rejectRemark: "请填写驳回理由",
  recoveryRemark: "回收状态为异常时，请在备注中说明情况",
};

/** Dictionary approvedStatus. */
export const ApprovedStatus = { PENDING: -1, REJECTED: 0, PASSED: 1 } as const;
/** Dictionary usedStatus: 1 is 已使用 (all used), 2 部分使用. */
export const UsedStatus = { UNUSED: 0, USED: 1, PARTLY: 2 } as const;
/** Dictionary userAccountFlag → ticketType: the payment methods a ticket pays (加班、接待、外卖、值班餐券). */
export const TICKET_TYPE_OF_PAY_FLAG: Readonly<Record<number, number>> = { 3: 1, 4: 2, 5: 3, 7: 5 };
/** The meal types (foodMenuType) a setting's check boxes stand for. */
const MEAL_TYPES = ["breakfast", "lunch", "dinner", "midnight"] as const;

const approvedLabel = (status: number) => builtInDicts.approvedStatus.options.find((o) => o.value === String(status))?.label ?? String(status);
const DAY_MS = 86_400_000;

// ---- Settings -------------------------------------------------------------------------------------------------

function checkSetting(record: Row) {
  if (!MEAL_TYPES.some((meal) => Number(record[meal]) === 1)) throw fieldError("lunch", ticketMessages.noMeal);
  if (record.approverRoleId == null && record.approverUserId == null) throw fieldError("approverRoleId", ticketMessages.noApprover);
}

export const mealTicketSettingService: ResourceService = {
  beforeCreate: (_ctx, values) => checkSetting(values),
  beforeUpdate: (_ctx, values, current) => checkSetting(nextRecord(mealTicketSetting, values, current)),
};

async function settingOf(db: Trx | SessionContext["services"]["db"], tenantId: number, ticketType: number) {
  return db.selectFrom("meal_ticket_setting").selectAll().where("tenant_id", "=", tenantId).where("ticket_type", "=", ticketType).executeTakeFirst();
}

// ---- Applications ---------------------------------------------------------------------------------------------

/**
 * The type must have an enabled setting; an empty 有效期起 is today (China time), an empty 有效期止 the setting's
 * default number of days from it.
 */
async function checkApplication(ctx: SessionContext, record: Row, values: Row) {
  const setting = await settingOf(ctx.services.db, ctx.session.tenantId, Number(record.ticketType));
  if (!setting || Number(setting.status) !== 1) throw fieldError("ticketType", ticketMessages.noSetting);
  if (record.validFrom == null) values.validFrom = record.validFrom = dayOf(ctx.now);
  if (record.validTo == null) values.validTo = record.validTo = dayOf(dayStart(String(record.validFrom)) + (Number(setting.valid_days) - 1) * DAY_MS);
  if (String(record.validTo) < String(record.validFrom)) throw fieldError("validTo", ticketMessages.validTo);
}

export const mealTicketService: ResourceService = {
  async beforeCreate(ctx, values) {
    await checkApplication(ctx, values, values);
    Object.assign(values, {
      applicantId: ctx.session.userId,
      applicantName: await userName(ctx),
      appliedAt: ctx.now,
      approvedStatus: String(ApprovedStatus.PENDING),
      usedCount: 0,
      usedStatus: String(UsedStatus.UNUSED),
    });
  },
  // Only an application nobody has decided on changes; approval moves updated_at, so an edit racing it is stale.
  async beforeUpdate(ctx, values, current) {
    const status = Number(current.approved_status);
    if (status !== ApprovedStatus.PENDING) throw new ApiError(Status.CONFLICT, ticketMessages.notPending(status, "修改"));
    await checkApplication(ctx, nextRecord(mealTicket, values, current), values);
  },
};

/** Whether the signed-in user is the setting's approver or holds its approving role (in the tenant they belong to). */
async function mayApprove(ctx: SessionContext, ticketType: number): Promise<boolean> {
  const { session } = ctx;
  if (session.tenantId !== session.homeTenantId) return false;
  const setting = await settingOf(ctx.services.db, session.tenantId, ticketType);
  if (!setting) return false;
  if (setting.approver_user_id === session.userId) return true;
  if (setting.approver_role_id == null) return false;
  const held = await ctx.services.db
    .selectFrom("user_role")
    .select("role_id")
    .where("tenant_id", "=", session.tenantId)
    .where("user_id", "=", session.userId)
    .where("role_id", "=", setting.approver_role_id)
    .executeTakeFirst();
  return Boolean(held);
}

/**
 * 通过 or 驳回 an application nobody has decided on: its declared step (decision 070), whose conditional update lets
 * one of two racing approvers win and tells the other with the 409. Only the applicant's approver may decide.
 */
export async function decide(ctx: SessionContext, id: number, to: 0 | 1, remark: string | null) {
  // Who may decide is read before the step's transaction (its reads are the connection's, on SQLite); the step
  // refuses in its own order: the status first (409), then the applicant and the approver (403).
  const current = await getRow(ctx, mealTicket, id);
  const own = Number(current.applicant_id) === ctx.session.userId && ctx.session.tenantId === ctx.session.homeTenantId;
  const may = own || (await mayApprove(ctx, Number(current.ticket_type)));
  const approver = await userName(ctx);
  await ctx.services.db.transaction().execute((trx) =>
    runResourceStep(trx, ctx, mealTicket, to === ApprovedStatus.PASSED ? "approve" : "reject", {
      id,
      set: { approver_id: ctx.session.userId, approver_name: approver, approved_at: ctx.now, approve_remark: remark },
      guard: () => {
        if (own) throw new ApiError(Status.FORBIDDEN, ticketMessages.ownTicket);
        if (!may) throw new ApiError(Status.FORBIDDEN, ticketMessages.notApprover);
      },
      effect: async () => ({ approveRemark: remark }),
    }),
  );
  return getInfo(ctx, mealTicket, id, findResource);
}

// ---- Use in a payment -----------------------------------------------------------------------------------------

export interface TicketPayment {
  tenantId: number;
  userInfoId: number;
  /** userAccountFlag 3, 4, 5 or 7: which kind of ticket pays. */
  payFlag: number;
  /** The order's amount, fen. */
  amount: number;
  /** The meal type (foodMenuType) of the order's meal time; null for an amount-only sale. */
  mealType: string | null;
  orderId: number;
  at: number;
  operatorId?: number | null;
}

export interface TicketUsed {
  ticketId: number;
  useId: number;
  amount: number;
}

/**
 * Pays an order with one of the diner's tickets, inside the payment's transaction: the approved ticket of the pay
 * flag's type that is valid today (China time), has uses left and expires first. One use is taken by a conditional
 * UPDATE (`used_count < ticket_count`), so two terminals cannot take the last use twice: on SQLite the transaction
 * holds the write lock, on PostgreSQL the UPDATE waits for the other's row lock and re-checks. The use is recorded
 * against the order so a cancel gives it back. Refusals are 409s and write nothing.
 */
export async function useTicket(trx: Trx, payment: TicketPayment): Promise<TicketUsed> {
  const ticketType = TICKET_TYPE_OF_PAY_FLAG[payment.payFlag];
  if (ticketType === undefined) throw fieldError("payFlag", ticketMessages.notTicket);
  const refuse = (message: string) => new ApiError(Status.CONFLICT, message);
  const setting = await settingOf(trx, payment.tenantId, ticketType);
  if (!setting || Number(setting.status) !== 1) throw refuse(ticketMessages.none);
  const today = dayOf(payment.at);
  const tickets = await trx
    .selectFrom("meal_ticket")
    .select(["id", "valid_from", "valid_to"])
    .where("tenant_id", "=", payment.tenantId)
    .where("user_info_id", "=", payment.userInfoId)
    .where("ticket_type", "=", ticketType)
    .where("approved_status", "=", ApprovedStatus.PASSED)
    .where(sql<boolean>`used_count < ticket_count`)
    .orderBy("valid_to", "asc")
    .orderBy("id", "asc")
    .execute();
  const valid = tickets.filter((t) => (t.valid_from ?? today) <= today && (t.valid_to ?? today) >= today);
  if (!valid.length) throw refuse(tickets.some((t) => t.valid_to !== null && t.valid_to < today) ? ticketMessages.expired : ticketMessages.none);
  // A ticket for every meal pays an amount-only sale too; one for some meals needs the sale's meal time.
  const allowed = MEAL_TYPES.filter((meal) => Number(setting[meal]) === 1);
  const fits = payment.mealType && payment.mealType !== "all" ? allowed.includes(payment.mealType as (typeof MEAL_TYPES)[number]) : allowed.length === MEAL_TYPES.length;
  if (!fits) throw refuse(ticketMessages.wrongMeal);
  if (payment.amount > Number(setting.amount)) throw refuse(ticketMessages.overAmount(payment.amount, Number(setting.amount)));
  const paid = await trx.selectFrom("meal_ticket_use").select("id").where("tenant_id", "=", payment.tenantId).where("order_id", "=", payment.orderId).executeTakeFirst();
  if (paid) throw refuse(ticketMessages.orderPaid);
  for (const ticket of valid) {
    const taken = await trx
      .updateTable("meal_ticket")
      .set({
        used_count: sql`used_count + 1`,
        used_status: sql`case when used_count + 1 >= ticket_count then ${sql.lit(UsedStatus.USED)} else ${sql.lit(UsedStatus.PARTLY)} end`,
        updated_at: payment.at,
      })
      .where("tenant_id", "=", payment.tenantId)
      .where("id", "=", ticket.id)
      .where("approved_status", "=", ApprovedStatus.PASSED)
      .where(sql<boolean>`used_count < ticket_count`)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    const useId = newId();
    const by = payment.operatorId ?? null;
    await trx
      .insertInto("meal_ticket_use")
      .values({ tenant_id: payment.tenantId, id: useId, ticket_id: ticket.id, user_info_id: payment.userInfoId, order_id: payment.orderId, amount: payment.amount, meal_type: payment.mealType, used_at: payment.at, returned_at: null, created_at: payment.at, created_by: by, updated_at: payment.at, updated_by: by })
      .execute();
    return { ticketId: ticket.id, useId, amount: payment.amount };
  }
  throw refuse(ticketMessages.none);
}

/**
 * Gives back the use that paid an order (the order was cancelled), once: the use is marked returned only if it was
 * not yet, and only then does its ticket get the use back. Returns the ticket's id, or null when no ticket paid.
 */
export async function returnTicket(trx: Trx, { tenantId, orderId, at }: { tenantId: number; orderId: number; at: number }): Promise<number | null> {
  const use = await trx
    .updateTable("meal_ticket_use")
    .set({ returned_at: at, updated_at: at })
    .where("tenant_id", "=", tenantId)
    .where("order_id", "=", orderId)
    .where("returned_at", "is", null)
    .returning("ticket_id")
    .executeTakeFirst();
  if (!use) return null;
  await trx
    .updateTable("meal_ticket")
    .set({
      used_count: sql`used_count - 1`,
      used_status: sql`case when used_count - 1 <= 0 then ${sql.lit(UsedStatus.UNUSED)} else ${sql.lit(UsedStatus.PARTLY)} end`,
      updated_at: at,
    })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", use.ticket_id)
    .where("used_count", ">", 0)
    .execute();
  return use.ticket_id;
}

/** A ticket pays the payments of its pay flags, and a cancelled order paid by one gives its use back. */
export const MEAL_TICKET_DOC_TYPE = "mealTicketUse";
/** Its part in a payment; the zhct manifest places it among the others (decision 062). */
export const ticketPaymentHooks: PaymentHooks = {
  // A ticket type without an enabled setting is a payment method not in use: the payment says 该支付方式未启用.
  async payOther(trx, facts) {
    const ticketType = TICKET_TYPE_OF_PAY_FLAG[facts.payFlag];
    if (ticketType === undefined) return null;
    const setting = await settingOf(trx, facts.tenantId, ticketType);
    if (!setting || Number(setting.status) !== 1) return null;
    // eslint-disable-next-line react-hooks/rules-of-hooks -- not a React hook: the payment's use of a ticket (issue 13's name)
    const used = await useTicket(trx, {
      tenantId: facts.tenantId,
      userInfoId: facts.userInfoId,
      payFlag: facts.payFlag,
      amount: facts.amount,
      mealType: facts.mealTime?.mealType ?? null,
      orderId: facts.orderId,
      at: facts.now,
      operatorId: facts.operator.id,
    });
    return { paid: true, docType: MEAL_TICKET_DOC_TYPE, docId: used.useId };
  },
  // Found by the order (its use is unique per order), so this does not depend on how the cancel describes the payment.
  async afterCancel(trx, order) {
    if (TICKET_TYPE_OF_PAY_FLAG[order.payFlag] !== undefined) await returnTicket(trx, { tenantId: order.tenantId, orderId: order.id, at: Date.now() });
  },
};

// ---- Dishware recovery ----------------------------------------------------------------------------------------

const RecoveryStatus = { ABNORMAL: 2 } as const;

function checkRecovery(record: Row) {
  if (Number(record.recoveryStatus) === RecoveryStatus.ABNORMAL && !String(record.remark ?? "").trim()) throw fieldError("remark", ticketMessages.recoveryRemark);
}

/** The order named is one of the tenant's (checked by the engine); its number and diner are copied onto the row. */
async function fromOrder(ctx: SessionContext, values: Row) {
  if (values.orderId == null) return;
  const order = await ctx.services.db.selectFrom("meal_order").select(["order_no", "user_info_id"]).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", values.orderId as number).executeTakeFirst();
  if (!order) return;
  values.orderNo = order.order_no;
  values.userInfoId = order.user_info_id;
}

export const mealRecoveryService: ResourceService = {
  async beforeCreate(ctx, values) {
    checkRecovery(values);
    await fromOrder(ctx, values);
    values.recordedBy = await userName(ctx);
    values.recordedAt = ctx.now;
  },
  async beforeUpdate(ctx, values, current) {
    checkRecovery(nextRecord(mealRecovery, values, current));
    await fromOrder(ctx, values);
  },
};

export const ticketServices: Record<string, ResourceService> = {
  [resourceKey(mealTicketSetting)]: mealTicketSettingService,
  [resourceKey(mealTicket)]: mealTicketService,
  [resourceKey(mealRecovery)]: mealRecoveryService,
};

// ---- Endpoints ------------------------------------------------------------------------------------------------

const remark = (required: boolean) => fieldSchema({ name: "remark", label: required ? "驳回理由" : "审批意见", type: "text", max: 500, required } satisfies FieldDef, false);
const APPROVE = permissionCode(mealTicket, "approve");
const session = (ctx: unknown) => ctx as SessionContext;

export const ticketEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealTicket/approve",
    summary: "审批通过餐券申请（未审批 → 通过）：只有餐券设置的审批角色或审批人可以审批，申请人不能审批自己的申请",
    access: permission(APPROVE),
    body: z.strictObject({ id: recordId("餐券", "请选择餐券"), remark: remark(false) }),
    handle: (ctx, { body }) => decide(session(ctx), body.id, ApprovedStatus.PASSED, (body.remark as string | null | undefined) ?? null),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/mealTicket/reject",
    summary: "驳回餐券申请（未审批 → 驳回），须填写理由；审批人规则同审批通过",
    access: permission(APPROVE),
    body: z.strictObject({ id: recordId("餐券", "请选择餐券"), remark: remark(true) }),
    handle: (ctx, { body }) => decide(session(ctx), body.id, ApprovedStatus.REJECTED, body.remark as string),
  }),
];
