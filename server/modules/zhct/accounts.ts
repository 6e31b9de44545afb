import { permissionCode, type FieldDef } from "../../../resources/define";
import { builtInDicts } from "../../../resources/dicts";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { TOP_UP_CHANNELS, userAccountCharge, userIcCard, userInfo } from "../../../resources/zhct/ledger";
import { newId, type Db } from "../../db";
import { insertRow, preparedQuery } from "../../db/prepared";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { reasonField, requireReason } from "../../http/reason";
import { type ResourceService } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import { idempotent } from "../../kernel/idempotency";
import { runResourceStep } from "../../kernel/transitions";
import { BusiType, ledgerMessages, ledgerSettings, openAccounts, openAccountsOf, post, reverse, type AccountType, type Trx } from "./ledger";
import { isUniqueViolation } from "../../db/faults";
import { receiptTitle } from "../sys/receiptTitle";
import { staffName } from "./settings";

export const accountMessages = {
  dinerMissing: ledgerMessages.dinerMissing,
  amountRange: (min: number, max: number) => `金额应在 ${yuan(min)} 元到 ${yuan(max)} 元之间`,
  payFlag: "支付方式不是可选的值",
  channel: "充值渠道不是可选的值",
  chargeMissing: "充值记录不存在",
  notTopUp: "只有充值可以冲正",
  reversed: "该充值已冲正",
  cannotReverse: "余额不足，该充值的金额已被使用，不能冲正",
  cardMissing: "IC卡不存在",
  oneNormalCard: "该人员已有正常使用的卡，请先挂失或注销原卡",
  auditStatus: "审核结果只能是 1（通过）或 2（不通过）",
};

export const yuan = (fen: number) => (fen / 100).toFixed(2);

// ---- Diners ---------------------------------------------------------------------------------------------------

/** A diner opens with a cash and a subsidy account, in the create's (or the import's) transaction. */
export const userInfoService: ResourceService = {
  beforeCreate(_ctx, values) {
    values.userStatus ??= "1";
    values.userInfoRoleType ??= "user";
  },
  async afterCreate(ctx, trx, record) {
    await openAccounts(trx as Trx, ctx.session.tenantId, record.id as number, ctx.now, ctx.session.userId);
  },
  async afterImport(ctx, trx, rows) {
    await openAccountsOf(trx as Trx, ctx.session.tenantId, rows.map((r) => r.id as number), ctx.now, ctx.session.userId);
  },
};

// ---- Top-up channels (decision 064) ---------------------------------------------------------------------------

export const channelMessages = {
  codeFixed: "渠道代码创建后不能修改",
  builtIn: "预置的充值渠道不能删除，不再使用可将其停用",
  used: "该充值渠道已有充值记录，不能删除，不再使用可将其停用",
};

const BUILT_IN_CHANNELS = new Set<string>(TOP_UP_CHANNELS.map((c) => c.channelCode));

/**
 * A channel's code is what the top-ups and their ledger lines keep: it cannot change, and a channel in use or one of
 * the six every tenant starts with (the API's and the old rows' codes) is stopped, not deleted.
 */
export const topUpChannelService: ResourceService = {
  beforeUpdate(_ctx, values, current) {
    if (values.channelCode !== undefined && values.channelCode !== current.channel_code) throw fieldError("channelCode", channelMessages.codeFixed);
  },
  async beforeDelete(ctx, current) {
    const code = String(current.channel_code);
    if (BUILT_IN_CHANNELS.has(code)) throw new ApiError(Status.CONFLICT, channelMessages.builtIn);
    const used = await ctx.services.db.selectFrom("user_account_charge").select("id").where("tenant_id", "=", ctx.session.tenantId).where("channel", "=", code).limit(1).executeTakeFirst();
    if (used) throw new ApiError(Status.CONFLICT, channelMessages.used);
  },
};

// ---- Top-up, refund, reversal ---------------------------------------------------------------------------------

const field = (name: string, label: string, type: FieldDef["type"], extra: Partial<FieldDef> = {}) => fieldSchema({ name, label, type, ...extra }, false);

export const chargeBody = z.strictObject({
  userInfoId: field("userInfoId", "人员", "relation", { required: true, min: 1 }),
  amount: field("amount", "金额", "money", { required: true, min: 1 }),
  accountType: z.enum(["cash", "subsidy"], { error: "账户类型只能是 cash（现金）或 subsidy（补贴）" }).optional(),
  // Kept for the clients written before channels (decision 064): without `channel` it tells the channel.
  payFlag: field("payFlag", "支付方式", "enum", { dict: "userAccountFlag" }),
  /** How the money came in (or a refund's went out): a code of the tenant's 充值渠道 in use. */
  channel: field("channel", "充值渠道", "enum", { dict: "topUpChannel" }),
  remark: field("remark", "备注", "text", { max: 200 }),
  // A charge machine or counter terminal sends its device code, as a cashier terminal does with a payment.
  deviceCode: field("deviceCode", "设备编号", "text", { max: 64 }),
});
export type ChargeInput = z.output<typeof chargeBody> & { reason?: unknown };

/** A refund pays money out of the account: its reason is required (decision 055), kept on its ledger line and document. */
const REFUND_REASON = "退款原因";
export const refundBody = chargeBody.extend({ reason: reasonField(REFUND_REASON) });

/** Its reason is required (decision 055) and kept as the reversal's remark, on its ledger line and document. */
const REVERSE_REASON = "冲正原因";
export const reverseBody = z.strictObject({
  id: recordId("充值记录", "请选择要冲正的充值记录"),
  reason: reasonField(REVERSE_REASON),
});

/**
 * The tenant's payment methods: the dictionary's items on the server, or the built-in list. Money movements check it
 * on their transaction (`db`): inside the ledger's group a read costs a fraction of a read of its own (decision 049).
 */
export async function checkPayFlag(ctx: SessionContext, payFlag: string, db: Db | Trx = ctx.services.db) {
  const items = await payFlagItems(db);
  const allowed = items.length ? items.map((i) => String(i.item_value)) : builtInDicts.userAccountFlag.options.map((o) => o.value);
  if (!allowed.includes(payFlag)) throw fieldError("payFlag", accountMessages.payFlag);
}

/** Compiled once: every top-up and refund checks its payment method. */
const payFlagItems = preparedQuery("dict items userAccountFlag", (db: Db | Trx) => db.selectFrom("dict_item").select(["item_value", "item_text"]).where("dict_code", "=", "userAccountFlag"));

/** Compiled once: every top-up and refund checks its channel among the tenant's in use. */
const channelsInUse = preparedQuery("top-up channels in use", (db: Db | Trx, tenantId: number) =>
  db.selectFrom("top_up_channel").select("channel_code").where("tenant_id", "=", tenantId).where("status", "=", 1),
);

/**
 * The channel a payment flag tells, for a client that sends only `payFlag` (the form and the API before decision
 * 064), by the rule migration 0059 filled the old top-ups with: 0 (the counter's default) and any method named with
 * 现金 are 现金, 100 社交应用支付 is 微信, 101 钱包应用支付 is 支付宝, anything else 其他.
 */
function channelOfFlag(payFlag: string, flagItems: Array<{ item_value: string; item_text: string }>): string {
  if (payFlag === "0" || flagItems.some((i) => String(i.item_value) === payFlag && i.item_text.includes("现金"))) return "cash";
  return { "100": "wechat", "101": "alipay" }[payFlag] ?? "other";
}

/** The payment flag a channel's ledger line carries when a client sends only `channel`: the online wallets' own, else 0 as before. */
const FLAG_OF_CHANNEL: Record<string, string> = { wechat: "100", alipay: "101" };

/**
 * A top-up's or refund's channel and payment flag: the channel sent (400 naming the field unless it is one of the
 * tenant's in use), else the one its payment flag tells if the tenant uses it, else none; the flag sent, else the
 * channel's. Read in the movement's transaction, as the payment flag's check.
 */
async function channelAndFlag(ctx: SessionContext, trx: Trx, input: ChargeInput): Promise<{ channel: string | null; payFlag: string }> {
  const inUse = new Set((await channelsInUse(trx, ctx.session.tenantId)).map((r) => r.channel_code));
  const sent = (input.channel as string | null | undefined) ?? null;
  if (sent !== null && !inUse.has(sent)) throw fieldError("channel", accountMessages.channel);
  const payFlag = input.payFlag !== undefined && input.payFlag !== null ? String(input.payFlag) : sent !== null ? (FLAG_OF_CHANNEL[sent] ?? "0") : "0";
  await checkPayFlag(ctx, payFlag, trx);
  if (sent !== null) return { channel: sent, payFlag };
  const told = channelOfFlag(payFlag, await payFlagItems(trx));
  return { channel: inUse.has(told) ? told : null, payFlag };
}

const CHARGE_PREFIX: Record<number, string> = { [BusiType.TOP_UP]: "CZ", [BusiType.REFUND]: "TK", [BusiType.REVERSAL]: "CX" };

async function insertCharge(ctx: SessionContext, trx: Trx, id: number, values: { userInfoId: number; accountType: AccountType; busiType: number; amount: number; balanceAfter: number; payFlag: number; channel: string | null; ledgerId: number; reversalOf?: number | null; remark?: string | null; deviceCode?: string | null }) {
  await insertRow(trx, "user_account_charge", {
    tenant_id: ctx.session.tenantId,
    id,
    charge_no: `${CHARGE_PREFIX[values.busiType]}${id}`,
    user_info_id: values.userInfoId,
    account_type: values.accountType,
    busi_type: values.busiType,
    amount: values.amount,
    balance_after: values.balanceAfter,
    pay_flag: values.payFlag,
    channel: values.channel,
    ledger_id: values.ledgerId,
    reversal_of: values.reversalOf ?? null,
    operator_name: ctx.session.userName,
    device_code: values.deviceCode || null,
    remark: values.remark ?? null,
    charged_at: ctx.now,
    created_at: ctx.now,
    created_by: ctx.session.userId,
    updated_at: ctx.now,
    updated_by: ctx.session.userId,
  });
  await recordOperation(trx, ctx, userAccountCharge, id, CHARGE_PREFIX[values.busiType] === "CX" ? "reverse" : values.busiType === BusiType.TOP_UP ? "charge" : "refund", values);
}

/** A top-up (money in) or a refund (money out, 409 余额不足 past the balance) of one account, with its document. */
export async function charge(ctx: SessionContext, input: ChargeInput, kind: "charge" | "refund") {
  const tenantId = ctx.session.tenantId;
  const amount = input.amount as number;
  const accountType = (input.accountType ?? "cash") as AccountType;
  const busiType = kind === "charge" ? BusiType.TOP_UP : BusiType.REFUND;
  const remark = kind === "refund" ? refundRemark(requireReason(input.reason, REFUND_REASON), input.remark as string | null | undefined) : ((input.remark as string | null | undefined) ?? null);
  // Every diner of the tenant has both accounts: no account is no such diner (one query fewer per top-up).
  return idempotent(ctx, input, async (trx, key) => {
    // Checked in the movement's transaction: a refusal here undoes its savepoint, the idempotency key's row with it.
    const settings = await ledgerSettings(trx, tenantId);
    if (amount < settings.minAmount || amount > settings.maxAmount) throw fieldError("amount", accountMessages.amountRange(settings.minAmount, settings.maxAmount));
    const { channel, payFlag } = await channelAndFlag(ctx, trx, input);
    const id = newId();
    const line = await post(trx, {
      tenantId,
      userInfoId: input.userInfoId as number,
      accountType,
      amount: kind === "charge" ? amount : -amount,
      busiType,
      payFlag: Number(payFlag),
      channel,
      operatorId: ctx.session.userId,
      operatorName: ctx.session.userName,
      docType: "charge",
      docId: id,
      idempotencyKey: key,
      remark,
      occurredAt: ctx.now,
    }).catch((error: unknown) => {
      if (error instanceof ApiError && error.message === ledgerMessages.accountMissing) throw fieldError("userInfoId", accountMessages.dinerMissing);
      throw error;
    });
    await insertCharge(ctx, trx, id, { userInfoId: input.userInfoId as number, accountType, busiType, amount, balanceAfter: line.balanceAfter, payFlag: Number(payFlag), channel, ledgerId: line.id, remark, deviceCode: (input.deviceCode as string | null | undefined) ?? null });
    return { id, balance: line.balanceAfter };
  });
}

/** The reason first (what the ledger line must say), then the clerk's note if any: 「多充退回（退还现金）」. */
const refundRemark = (reason: string, remark: string | null | undefined) => (remark?.trim() ? `${reason}（${remark.trim()}）` : reason).slice(0, 200);

/** Undoes a top-up: a reversal line and document naming it; once per top-up, and only while the money is there. */
export async function reverseCharge(ctx: SessionContext, input: z.output<typeof reverseBody>) {
  const tenantId = ctx.session.tenantId;
  const original = await ctx.services.db.selectFrom("user_account_charge").selectAll().where("tenant_id", "=", tenantId).where("id", "=", input.id).executeTakeFirst();
  if (!original) throw new ApiError(Status.NOT_FOUND, accountMessages.chargeMissing);
  if (Number(original.busi_type) !== BusiType.TOP_UP) throw new ApiError(Status.CONFLICT, accountMessages.notTopUp);
  const reason = requireReason(input.reason, REVERSE_REASON);
  try {
    return await idempotent(ctx, input, async (trx, key) => {
      const done = await trx.selectFrom("user_account_charge").select("id").where("tenant_id", "=", tenantId).where("reversal_of", "=", original.id).executeTakeFirst();
      if (done) throw new ApiError(Status.CONFLICT, accountMessages.reversed);
      const id = newId();
      const line = await reverse(trx, tenantId, original.ledger_id, {
        operatorId: ctx.session.userId,
        operatorName: ctx.session.userName,
        docType: "charge",
        docId: id,
        idempotencyKey: key,
        remark: reason,
        occurredAt: ctx.now,
      }).catch((error: unknown) => {
        if (error instanceof ApiError && error.message === ledgerMessages.insufficient) throw new ApiError(Status.CONFLICT, accountMessages.cannotReverse);
        throw error;
      });
      const values = { userInfoId: original.user_info_id, accountType: original.account_type as AccountType, busiType: BusiType.REVERSAL, amount: original.amount, balanceAfter: line.balanceAfter, payFlag: Number(original.pay_flag), channel: original.channel === null ? null : String(original.channel), ledgerId: line.id, reversalOf: original.id, remark: reason };
      await insertCharge(ctx, trx, id, values);
      return { id, balance: line.balanceAfter };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(Status.CONFLICT, accountMessages.reversed);
    throw error;
  }
}

// ---- IC cards -------------------------------------------------------------------------------------------------

const CardStatus = { INVALID: 0, NORMAL: 1, LOST: 2 } as const;

async function hasNormalCard(db: Db | Trx, tenantId: number, userInfoId: number, exceptId?: number) {
  let query = db.selectFrom("user_ic_card").select("id").where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId).where("card_status", "=", CardStatus.NORMAL);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Boolean(await query.executeTakeFirst());
}

/** Issuing: the serial in upper case, at most one normal card per diner (a unique index also stops two racing). */
export const userIcCardService: ResourceService = {
  async beforeCreate(ctx, values) {
    if (typeof values.cardSerial === "string") values.cardSerial = values.cardSerial.toUpperCase();
    values.issuedAt = ctx.now;
    if (await hasNormalCard(ctx.services.db, ctx.session.tenantId, values.userInfoId as number)) throw fieldError("userInfoId", accountMessages.oneNormalCard);
  },
};

async function cardOf(ctx: SessionContext, id: number) {
  const card = await ctx.services.db.selectFrom("user_ic_card").selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id).executeTakeFirst();
  if (!card) throw new ApiError(Status.NOT_FOUND, accountMessages.cardMissing);
  return card;
}

type CardStep = "reportLoss" | "unlock" | "reissue" | "cancel";

/** Takes a declared step of the card (resources/zhct/ledger.ts userIcCard.workflow); a card made normal again must be the diner's only one. */
async function moveCard(ctx: SessionContext, id: number, step: CardStep, reason?: unknown, effect?: (trx: Trx) => Promise<Record<string, unknown>>) {
  const tenantId = ctx.session.tenantId;
  try {
    await ctx.services.db.transaction().execute((trx) =>
      runResourceStep(trx, ctx, userIcCard, step, {
        id,
        reason,
        guard: async (card) => {
          if (step === "unlock" && (await hasNormalCard(trx, tenantId, Number(card.user_info_id), id))) throw new ApiError(Status.CONFLICT, accountMessages.oneNormalCard);
        },
        effect: effect && (() => effect(trx)),
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(Status.CONFLICT, accountMessages.oneNormalCard);
    throw error;
  }
  const after = await cardOf(ctx, id);
  return { id, cardStatus: String(after.card_status), replacedBy: after.replaced_by };
}

const cardIdBody = z.strictObject({ id: recordId("IC卡", "请选择IC卡") });
/** 注销 cannot be undone: its reason is required (decision 055) and kept in the operation log. */
const CANCEL_CARD_REASON = "注销原因";
const cardCancelBody = cardIdBody.extend({ reason: reasonField(CANCEL_CARD_REASON) });
const cardField = (name: string) => fieldSchema(userIcCard.fields.find((f) => f.name === name) as FieldDef, false);
export const reissueBody = z.strictObject({
  id: recordId("IC卡", "请选择IC卡"),
  cardNo: cardField("cardNo"),
  cardSerial: cardField("cardSerial"),
});

/** 补卡: a new normal card for the same diner (the account stays with the diner); the old one becomes invalid. */
async function reissue(ctx: SessionContext, input: z.output<typeof reissueBody>) {
  const old = await cardOf(ctx, input.id);
  const cardNo = input.cardNo as string;
  const cardSerial = typeof input.cardSerial === "string" ? input.cardSerial.toUpperCase() : null;
  const tenantId = ctx.session.tenantId;
  const taken = await ctx.services.db.selectFrom("user_ic_card").select("id").where("tenant_id", "=", tenantId).where("card_no", "=", cardNo).executeTakeFirst();
  if (taken) throw fieldError("cardNo", "卡号已存在");
  if (cardSerial) {
    const serialTaken = await ctx.services.db.selectFrom("user_ic_card").select("id").where("tenant_id", "=", tenantId).where("card_serial", "=", cardSerial).executeTakeFirst();
    if (serialTaken) throw fieldError("cardSerial", "物理卡号已存在");
  }
  const newCardId = newId();
  try {
    // The old card is invalid before the new one is written, so the one-normal-card index holds at every step.
    await moveCard(ctx, old.id, "reissue", undefined, async (trx) => {
      await trx
        .insertInto("user_ic_card")
        .values({ tenant_id: tenantId, id: newCardId, card_no: cardNo, card_serial: cardSerial, user_info_id: old.user_info_id, card_type: old.card_type, card_status: CardStatus.NORMAL, deposit: null, replaced_by: null, issued_at: ctx.now, remark: `补卡，原卡 ${old.card_no}`, created_at: ctx.now, created_by: ctx.session.userId, updated_at: ctx.now, updated_by: ctx.session.userId })
        .execute();
      await trx.updateTable("user_ic_card").set({ replaced_by: newCardId }).where("tenant_id", "=", tenantId).where("id", "=", old.id).execute();
      return { replacedBy: newCardId, cardNo };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("cardNo", "卡号已存在");
    throw error;
  }
  return { id: newCardId, oldId: old.id, cardNo, cardStatus: String(CardStatus.NORMAL) };
}

// ---- Endpoints ------------------------------------------------------------------------------------------------

const session = (ctx: unknown) => ctx as SessionContext;

export const auditBody = z.strictObject({
  id: recordId("人员", "请选择人员"),
  auditStatus: z.enum(["1", "2"], { error: accountMessages.auditStatus }),
  remark: field("remark", "审核意见", "text", { max: 200 }),
});

async function audit(ctx: SessionContext, input: z.output<typeof auditBody>) {
  const diner = await ctx.services.db.selectFrom("user_info").select(["id", "audit_status", "updated_at"]).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", input.id).executeTakeFirst();
  if (!diner) throw new ApiError(Status.NOT_FOUND, accountMessages.dinerMissing);
  const now = Math.max(ctx.now, diner.updated_at + 1);
  await ctx.services.db.transaction().execute(async (trx) => {
    await trx.updateTable("user_info").set({ audit_status: Number(input.auditStatus), updated_at: now, updated_by: ctx.session.userId }).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", input.id).execute();
    await recordOperation(trx, ctx, userInfo, input.id, "audit", { auditStatus: [String(diner.audit_status), input.auditStatus], remark: input.remark ?? null });
  });
  return { id: input.id, auditStatus: input.auditStatus };
}

/** A top-up receipt's head (issue 38): the canteen's title and the operator's name, not the product's or a login. */
async function chargeReceipt(ctx: SessionContext, id: number) {
  const tenantId = ctx.session.tenantId;
  const row = await ctx.services.db.selectFrom("user_account_charge").select(["created_by", "operator_name"]).where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND, "充值记录不存在");
  const [title, operatorName] = await Promise.all([receiptTitle(ctx.services.db, tenantId), staffName(ctx.services.db, tenantId, row.created_by)]);
  // The operator is the user who wrote it (created_by); operator_name keeps the login they signed in with.
  return { title, operatorName: operatorName ?? row.operator_name };
}

const C = "/api/v1/zhct";
/** The API's words for the card's steps (their from- and to-statuses are the declaration's). */
const CARD_MOVES = [
  { action: "reportLoss", summary: "挂失：正常 → 挂失（挂失的卡不能支付）" },
  { action: "unlock", summary: "解挂：挂失 → 正常" },
  { action: "cancel", summary: "注销：正常或挂失 → 无效，不能恢复；须填写原因 reason（记入操作日志，未填为 400）", reason: CANCEL_CARD_REASON },
] as const;

export const accountEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: `${C}/userInfo/audit`,
    summary: "审核人员：auditStatus 1 通过、2 不通过",
    access: permission(permissionCode(userInfo, "audit")),
    body: auditBody,
    handle: (ctx, { body }) => audit(session(ctx), body),
  }),
  endpoint({
    method: "POST",
    path: `${C}/userAccountCharge/create`,
    summary: "充值（金额以分计；accountType 默认 cash；channel 为租户充值渠道的代码（如 cash、pos、wechat、alipay、transfer、other），不带时按 payFlag 对应（0 为现金，100 微信，101 支付宝，其余为其他），二者都不带为现金；充值机等终端带 deviceCode，不带为后台）→ { id, balance }；支持 Idempotency-Key 请求头",
    access: permission(permissionCode(userAccountCharge, "charge")),
    body: chargeBody,
    handle: (ctx, { body }) => charge(session(ctx), body, "charge"),
  }),
  endpoint({
    method: "GET",
    path: `${C}/userAccountCharge/receipt`,
    summary: "回单抬头：{ title（租户参数 zhct.receipt.title，未设为租户名称）, operatorName（经办人真实姓名，无则为登录名） }",
    access: permission(permissionCode(userAccountCharge, "view")),
    query: z.strictObject({ id: recordId("充值记录", "请选择充值记录") }),
    handle: (ctx, { query }) => chargeReceipt(session(ctx), query.id as number),
  }),
  endpoint({
    method: "POST",
    path: `${C}/userAccountCharge/refund`,
    summary: "退款（channel 为退回的渠道，规则同充值）：须填写原因 reason（记为退款流水和单据的备注，备注 remark 附在其后；未填为 400）；超过余额返回 409 余额不足 → { id, balance }；支持 Idempotency-Key 请求头",
    access: permission(permissionCode(userAccountCharge, "refund")),
    body: refundBody,
    handle: (ctx, { body }) => charge(session(ctx), body, "refund"),
  }),
  endpoint({
    method: "POST",
    path: `${C}/userAccountCharge/reverse`,
    summary: "冲正一笔充值：须填写原因 reason（记为冲正流水和单据的备注，未填为 400）；记一条反向流水指向原流水（每笔充值一次；余额不足时 409）；支持 Idempotency-Key 请求头",
    access: permission(permissionCode(userAccountCharge, "reverse")),
    body: reverseBody,
    handle: (ctx, { body }) => reverseCharge(session(ctx), body),
  }),
  // The card's status moves: one table, one endpoint each.
  ...CARD_MOVES.map((move) =>
    endpoint({
      method: "POST",
      path: `${C}/userIcCard/${move.action}`,
      summary: move.summary,
      access: permission(permissionCode(userIcCard, move.action)),
      body: "reason" in move ? cardCancelBody : cardIdBody,
      handle: (ctx, { body }) => moveCard(session(ctx), body.id, move.action, (body as { reason?: unknown }).reason),
    }),
  ),
  endpoint({
    method: "POST",
    path: `${C}/userIcCard/reissue`,
    summary: "补卡：原卡（正常或挂失）作废，为同一人员发新卡，账户不变 → { id（新卡）, oldId, cardNo }",
    access: permission(permissionCode(userIcCard, "reissue")),
    body: reissueBody,
    handle: (ctx, { body }) => reissue(session(ctx), body),
  }),
];
