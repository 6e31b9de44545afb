import { permissionCode, resourceKey } from "../../../resources/define";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { userOrderDefault, userOrderDefaultGenerate, userOrderDefaultLeave, userOrderDefaultPc } from "../../../resources/zhct/defaults";
import { newId, type Db } from "../../db";
import { databaseFault } from "../../db/faults";
import { endpoint, permission, type ApiServices, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import { startLeasedJob } from "../../kernel/leasedJob";
import { idempotencyMessages, idempotent } from "../../kernel/idempotency";
import { runResourceStep } from "../../kernel/transitions";
import { BusiType, deduct, PAY_FLAG_AUTO, post, type AccountType, type Trx } from "./ledger";
import { dayOf, dayStart } from "./months";
import { OrderStatus, pay, refundableByAccount, type PayInput } from "./payments";
import { chinaCalendar } from "../../../resources/chinaTime";

/**
 * Default orders (issue 14 part B, decision 027). A diner on default eats a meal type on the weekdays ticked; a run
 * makes the orders of one day for every such diner who is not on leave and has no order of that meal yet, each paid
 * through `pay` (自动扣款) with an Idempotency-Key of diner, day and meal type, so a second run, a retry or a second
 * instance running at the same moment charges nobody twice. Every diner's outcome is a detail row of the run.
 * Accompanied meals (陪餐) are paid by the diner through the ledger or recorded against the department.
 */

export const defaultOrderMessages = {
  amountOrFood: "请填写每餐金额或选择默认菜品（二选一）",
  concreteMeal: "请选择具体餐别（早餐、午餐、晚餐或夜宵）",
  noWeekday: "至少选择一天",
  leaveOrder: "结束日期不能早于开始日期",
  leaveLength: "请假时间最长 366 天",
  generateDay: "只能为明天起 30 天内的日期生成",
  onLeave: "请假",
  ordered: "当天此餐别已有订单",
  generatedBefore: "已生成过（订单取消后不再重复生成）",
  noMealTime: (restaurant: string, meal: string) => `餐厅「${restaurant}」没有启用的${meal}餐次`,
  deptPayNoDept: "订餐人没有所属部门，不能选择部门支付",
  pcPastDay: "就餐日期不能早于今天",
};

const MEAL_LABELS: Record<string, string> = { breakfast: "早餐", lunch: "午餐", dinner: "晚餐", midnight: "夜宵" };
/** Dictionary week order (getUTCDay: 0 is Sunday) → the default's check box of that weekday. */
const WEEKDAY_COLUMNS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
const DAY_MS = 86_400_000;
/** Dictionary defaultGenerateResult. */
export const GenerateResult = { CREATED: 1, SKIPPED: 2, FAILED: 3 } as const;
/** Dictionary accompanyPayBy and accompanyStatus. */
export const PayBy = { PERSONAL: 1, DEPARTMENT: 2 } as const;
const PcStatus = { ORDERED: 1, CANCELLED: 2 } as const;
/** The ledger lines of an accompanied meal name it with this document type. */
export const PC_DOC_TYPE = "userOrderDefaultPc";
/** Guests' meals are the diner's own money: the subsidy is the employer's for the diner's own meals. */
const PC_ACCOUNTS: AccountType[] = ["cash"];

// ---- Defaults and leave ---------------------------------------------------------------------------------------

function checkDefault(record: Row) {
  if (String(record.mealType) === "all") throw fieldError("mealType", defaultOrderMessages.concreteMeal);
  if ((record.amount == null) === (record.foodId == null)) throw fieldError("amount", defaultOrderMessages.amountOrFood);
  if (!WEEKDAY_COLUMNS.some((day) => Number(record[day]) === 1)) throw fieldError("monday", defaultOrderMessages.noWeekday);
}

function checkLeave(record: Row) {
  const begin = String(record.beginDate);
  const end = String(record.endDate);
  if (end < begin) throw fieldError("endDate", defaultOrderMessages.leaveOrder);
  if (dayStart(end) - dayStart(begin) > 366 * DAY_MS) throw fieldError("endDate", defaultOrderMessages.leaveLength);
}

// A create's values hold every field (defaults filled in), so the check sees the whole record.
const defaultService: ResourceService = {
  beforeCreate: (_ctx, values) => checkDefault(values),
  beforeUpdate: (_ctx, values, current) => checkDefault(nextRecord(userOrderDefault, values, current)),
};

const leaveService: ResourceService = {
  beforeCreate: (_ctx, values) => checkLeave(values),
  beforeUpdate: (_ctx, values, current) => checkLeave(nextRecord(userOrderDefaultLeave, values, current)),
};

// ---- Accompanied meals ----------------------------------------------------------------------------------------

/**
 * The amount is the server's (guests × unit price); the department is the diner's, so 部门支付 is recorded against
 * the department the diner belongs to. A personal payment is taken from the diner's cash account in the create's own
 * transaction (the row is inserted first, so on SQLite the transaction holds the write lock before it reads a balance):
 * 余额不足 refuses the whole create.
 */
const accompanyService: ResourceService = {
  async beforeCreate(ctx, values) {
    if (String(values.orderDate) < dayOf(ctx.now)) throw fieldError("orderDate", defaultOrderMessages.pcPastDay);
    values.amount = Number(values.guestCount) * Number(values.unitPrice);
    values.pcStatus = String(PcStatus.ORDERED);
    values.cancelledAt = null;
    const diner = await ctx.services.db.selectFrom("user_info").select("dept_id").where("tenant_id", "=", ctx.session.tenantId).where("id", "=", values.userInfoId as number).executeTakeFirst();
    values.deptId = diner?.dept_id ?? null;
    if (Number(values.payBy) === PayBy.DEPARTMENT && values.deptId === null) throw fieldError("payBy", defaultOrderMessages.deptPayNoDept);
  },
  async afterCreate(ctx, trx, row) {
    if (Number(row.pay_by) !== PayBy.PERSONAL) return;
    await deduct(trx as unknown as Trx, {
      tenantId: ctx.session.tenantId,
      userInfoId: Number(row.user_info_id),
      amount: Number(row.amount),
      accounts: PC_ACCOUNTS,
      creditLimit: 0,
      payFlag: PAY_FLAG_AUTO,
      operatorId: ctx.session.userId,
      operatorName: ctx.session.userName,
      docType: PC_DOC_TYPE,
      docId: Number(row.id),
      remark: `陪餐 ${String(row.guest_count)} 人（${String(row.order_date)}）`,
      occurredAt: ctx.now,
    });
  },
};

/** Cancels an accompanied meal once (its declared step, decision 070); a personal one gets back what its lines took. */
export async function cancelAccompanied(ctx: SessionContext, id: number) {
  const tenantId = ctx.session.tenantId;
  return idempotent(ctx, { id }, async (trx) => {
    let refunded = 0;
    await runResourceStep(trx, ctx, userOrderDefaultPc, "cancel", {
      id,
      set: { cancelled_at: ctx.now },
      effect: async (row) => {
        for (const account of await refundableByAccount(trx, tenantId, id, PC_DOC_TYPE)) {
          await post(trx, { tenantId, userInfoId: Number(row.user_info_id), accountType: account.accountType, amount: account.fen, busiType: BusiType.CONSUME_RETURN, payFlag: account.payFlag, operatorId: ctx.session.userId, operatorName: ctx.session.userName, docType: PC_DOC_TYPE, docId: id, remark: "取消陪餐", occurredAt: ctx.now });
          refunded += account.fen;
        }
        return { refunded };
      },
    });
    return { id, pcStatus: String(PcStatus.CANCELLED), refunded };
  });
}

export const defaultOrderServices: Record<string, ResourceService> = {
  [resourceKey(userOrderDefault)]: defaultService,
  [resourceKey(userOrderDefaultLeave)]: leaveService,
  [resourceKey(userOrderDefaultPc)]: accompanyService,
};

// ---- Generation -----------------------------------------------------------------------------------------------

export interface GenerateResultSummary {
  runId: number;
  orderDate: string;
  created: number;
  skipped: number;
  failed: number;
  /** Fen charged for the orders made. */
  amount: number;
}

/** Every payment of a run names the same path, so the key's request hash is the same for 立即生成 and the daily job. */
const GENERATE_PATH = "/api/v1/zhct/userOrderDefaultGenerate/generate";

/** The Idempotency-Key of one diner's meal on one day: at most one default order is ever paid for it. */
export const defaultOrderKey = (userInfoId: number, date: string, mealType: string) => `dflt:${date}:${userInfoId}:${mealType}`;

/**
 * Makes the orders of `date` for the tenant's diners on default, and logs the run and each diner's outcome:
 * 已生成 (an order paid through `pay`), 跳过 (on leave, an order of that meal already, generated before) or 失败 with
 * the payment's refusal (余额不足, a disabled diner, a dish not on that day's menu, a restaurant without that meal).
 */
export async function generateDefaultOrders(ctx: SessionContext, date: string, trigger: "手动" | "自动"): Promise<GenerateResultSummary> {
  const tenantId = ctx.session.tenantId;
  const db = ctx.services.db;
  const runId = newId();
  const audit = (at: number) => ({ created_at: at, created_by: ctx.session.userId, updated_at: at, updated_by: ctx.session.userId });
  await db
    .insertInto("user_order_default_generate")
    .values({ tenant_id: tenantId, id: runId, order_date: date, trigger_type: trigger, created_count: 0, skipped_count: 0, failed_count: 0, amount: 0, operator_name: ctx.session.userName, started_at: ctx.now, finished_at: null, ...audit(ctx.now) })
    .execute();

  const weekday = WEEKDAY_COLUMNS[new Date(`${date}T00:00:00Z`).getUTCDay()];
  const defaults = await db
    .selectFrom("user_order_default as d")
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "d.tenant_id").onRef("u.id", "=", "d.user_info_id"))
    .innerJoin("org as r", (j) => j.onRef("r.tenant_id", "=", "d.tenant_id").onRef("r.id", "=", "d.restaurant_id"))
    .select(["d.user_info_id", "d.restaurant_id", "d.meal_type", "d.amount", "d.food_id", "d.quantity", "r.org_name"])
    .where("d.tenant_id", "=", tenantId)
    .where("d.status", "=", 1)
    .where(`d.${weekday}`, "=", 1)
    .orderBy("d.user_info_id")
    .orderBy("d.meal_type")
    .execute();
  const leaves = await db
    .selectFrom("user_order_default_leave")
    .select(["user_info_id", "meal_type"])
    .where("tenant_id", "=", tenantId)
    .where("begin_date", "<=", date)
    .where("end_date", ">=", date)
    .execute();
  const onLeave = (userInfoId: number, mealType: string) => leaves.some((l) => l.user_info_id === userInfoId && (l.meal_type === null || l.meal_type === "all" || l.meal_type === mealType));
  const ordered = new Set(
    (
      await db
        .selectFrom("meal_order")
        .select(["user_info_id", "meal_type"])
        .where("tenant_id", "=", tenantId)
        .where("order_date", "=", date)
        .where("order_status", "!=", OrderStatus.CANCELLED)
        .where("meal_type", "is not", null)
        .execute()
    ).map((o) => `${o.user_info_id}:${String(o.meal_type)}`),
  );
  // Each restaurant's enabled meal time of a meal type (they do not overlap; the earliest if there are several).
  const mealTimes = new Map<string, number>();
  for (const t of await db.selectFrom("meal_times").select(["id", "restaurant_id", "meal_type"]).where("tenant_id", "=", tenantId).where("status", "=", 1).orderBy("begin_time").execute()) {
    const key = `${t.restaurant_id}:${String(t.meal_type)}`;
    if (!mealTimes.has(key)) mealTimes.set(key, t.id);
  }

  const counts = { created: 0, skipped: 0, failed: 0, amount: 0 };
  for (const d of defaults) {
    const mealType = String(d.meal_type);
    const outcome = await generateOne(ctx, date, d, mealType, { onLeave: onLeave(d.user_info_id, mealType), ordered: ordered.has(`${d.user_info_id}:${mealType}`), mealTimesId: mealTimes.get(`${d.restaurant_id}:${mealType}`) ?? null });
    if (outcome.result === GenerateResult.CREATED) {
      counts.created++;
      counts.amount += outcome.amount ?? 0;
    } else if (outcome.result === GenerateResult.SKIPPED) counts.skipped++;
    else counts.failed++;
    const at = Date.now();
    await db
      .insertInto("user_order_default_generate_detail")
      .values({ tenant_id: tenantId, id: newId(), run_id: runId, user_info_id: d.user_info_id, order_date: date, meal_type: mealType, result: outcome.result, order_no: outcome.orderNo ?? null, amount: outcome.amount ?? null, reason: outcome.reason?.slice(0, 500) ?? null, ...audit(at) })
      .execute();
  }
  const finishedAt = Math.max(Date.now(), ctx.now);
  await db
    .updateTable("user_order_default_generate")
    .set({ created_count: counts.created, skipped_count: counts.skipped, failed_count: counts.failed, amount: counts.amount, finished_at: finishedAt, updated_at: finishedAt })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", runId)
    .execute();
  return { runId, orderDate: date, ...counts };
}

interface Outcome {
  result: (typeof GenerateResult)[keyof typeof GenerateResult];
  orderNo?: string;
  amount?: number;
  reason?: string;
}

async function generateOne(
  ctx: SessionContext,
  date: string,
  d: { user_info_id: number; restaurant_id: number; amount: number | null; food_id: number | null; quantity: number; org_name: string },
  mealType: string,
  facts: { onLeave: boolean; ordered: boolean; mealTimesId: number | null },
): Promise<Outcome> {
  if (facts.onLeave) return { result: GenerateResult.SKIPPED, reason: defaultOrderMessages.onLeave };
  if (facts.ordered) return { result: GenerateResult.SKIPPED, reason: defaultOrderMessages.ordered };
  if (facts.mealTimesId === null) return { result: GenerateResult.FAILED, reason: defaultOrderMessages.noMealTime(d.org_name, MEAL_LABELS[mealType] ?? mealType) };
  const input: PayInput = {
    userInfoId: d.user_info_id,
    mealTimesId: facts.mealTimesId,
    ...(d.food_id !== null ? { items: [{ foodId: d.food_id, quantity: Number(d.quantity) }] } : { amount: Number(d.amount) }),
    payFlag: PAY_FLAG_AUTO,
    source: "default",
    orderType: "1",
    orderDate: date,
  };
  // The diner's own request as far as the idempotency is concerned: its key, and a response header to read the replay from.
  const url = new URL(GENERATE_PATH, "http://localhost");
  const child: SessionContext = { ...ctx, url, request: new Request(url, { method: "POST", headers: { "Idempotency-Key": defaultOrderKey(d.user_info_id, date, mealType) } }), responseHeaders: new Headers() };
  try {
    const paid = await pay(child, input);
    if (child.responseHeaders.get("Idempotent-Replayed") === "true") return { result: GenerateResult.SKIPPED, reason: defaultOrderMessages.generatedBefore };
    return { result: GenerateResult.CREATED, orderNo: paid.orderNo, amount: paid.amount };
  } catch (error) {
    if (databaseFault(error)) throw error;
    if (error instanceof ApiError && error.message === idempotencyMessages.reused) return { result: GenerateResult.SKIPPED, reason: defaultOrderMessages.generatedBefore };
    if (error instanceof ApiError) return { result: GenerateResult.FAILED, reason: reasonOf(error) };
    throw error;
  }
}

/** A refusal's message, with the field's own message when it names one (菜品不在菜单中 …). */
function reasonOf(error: ApiError): string {
  const fieldErrors = (error.data as { fieldErrors?: Record<string, string[]> } | null | undefined)?.fieldErrors;
  const first = fieldErrors ? Object.values(fieldErrors).flat()[0] : undefined;
  return first ?? error.message;
}

// ---- The daily run ----------------------------------------------------------------------------------------------

/** Tenant parameter (sys/parameterConfig): the China-time hour (0–23) from which the next day's orders are made. */
export const GENERATE_HOUR_CODE = "zhct.defaultOrder.generateHour";

async function generateHourOf(db: Db, tenantId: number, fallback: number): Promise<number> {
  const row = await db.selectFrom("parameter_config").select("param_value").where("tenant_id", "=", tenantId).where("param_code", "=", GENERATE_HOUR_CODE).executeTakeFirst();
  const hour = Number(row?.param_value?.trim());
  return row?.param_value?.trim() && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : fallback;
}

/** The job's own session in a tenant: user 0, 系统 (orders, ledger lines and logs name it as their operator). */
function systemContext(services: ApiServices, tenantId: number, now: number): SessionContext {
  const url = new URL(GENERATE_PATH, "http://localhost");
  return {
    services,
    request: new Request(url, { method: "POST" }),
    url,
    ip: "127.0.0.1",
    userAgent: null,
    now,
    responseHeaders: new Headers(),
    session: { tokenHash: "", bearerToken: null, userId: 0, homeTenantId: tenantId, tenantId, userName: "系统", roles: [], roleTypes: [], pwdSecurityLevel: 1 },
  };
}

/**
 * For each tenant with diners on default whose generation hour has come (China time): the next day's orders, once a
 * day — a day that has had an automatic run that finished is not run again by the job (立即生成 may still run it).
 */
export async function runDueGenerations(services: ApiServices, now: number): Promise<GenerateResultSummary[]> {
  const { db } = services;
  const tomorrow = dayOf(now + DAY_MS);
  const hourNow = chinaCalendar(now).getUTCHours();
  const tenants = await db.selectFrom("user_order_default").select("tenant_id").distinct().where("status", "=", 1).execute();
  const results: GenerateResultSummary[] = [];
  for (const { tenant_id: tenantId } of tenants) {
    if (hourNow < (await generateHourOf(db, tenantId, services.config.DEFAULT_ORDER_HOUR))) continue;
    const done = await db
      .selectFrom("user_order_default_generate")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("order_date", "=", tomorrow)
      .where("trigger_type", "=", "自动")
      .where("finished_at", "is not", null)
      .executeTakeFirst();
    if (done) continue;
    try {
      results.push(await generateDefaultOrders(systemContext(services, tenantId, now), tomorrow, "自动"));
    } catch (error) {
      // One tenant's fault (a database fault aside) must not keep the others from their orders.
      if (databaseFault(error)) throw error;
      console.error(`租户 ${tenantId} 默认订餐生成失败：`, error);
    }
  }
  return results;
}

const JOB = "zhct.defaultOrders";

/** Checks every `everyMs` whether a tenant's hour has come; the instance holding the job's lease runs it. */
export function startDefaultOrderScheduler(services: ApiServices, everyMs = 60_000, leaseMs = 10 * 60_000): { stop(): Promise<void> } {
  return startLeasedJob(services.db, JOB, (now) => runDueGenerations(services, now), everyMs, leaseMs);
}

// ---- Endpoints ----------------------------------------------------------------------------------------------------

export const generateBody = z.strictObject({
  orderDate: fieldSchema({ name: "orderDate", label: "就餐日期", type: "date", required: true }, false),
});

const session = (ctx: unknown) => ctx as SessionContext;

export const defaultOrderEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: GENERATE_PATH,
    summary: "立即生成：为 orderDate（明天起 30 天内）在默认订餐中、未请假且当天此餐别尚无订单的人员下单并自动扣款 → { runId, orderDate, created, skipped, failed, amount }；重复执行不会重复下单或扣款",
    access: permission(permissionCode(userOrderDefaultGenerate, "generate")),
    body: generateBody,
    handle: async (context, { body }) => {
      const ctx = session(context);
      const date = body.orderDate as string;
      const today = dayOf(ctx.now);
      if (date <= today || date > dayOf(ctx.now + 30 * DAY_MS)) throw fieldError("orderDate", defaultOrderMessages.generateDay);
      const result = await generateDefaultOrders(ctx, date, "手动");
      await recordOperation(ctx.services.db, ctx, userOrderDefaultGenerate, result.runId, "generate", result);
      return result;
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/userOrderDefaultPc/cancel",
    summary: "取消陪餐：个人支付的按原账户退回（消费退回流水），部门支付的只改状态；重复取消为 409；支持 Idempotency-Key",
    access: permission(permissionCode(userOrderDefaultPc, "cancel")),
    body: z.strictObject({ id: recordId("陪餐订单", "请选择陪餐订单") }),
    handle: (ctx, { body }) => cancelAccompanied(session(ctx), body.id as number),
  }),
];
