import { z } from "../z";

/**
 * The counter's top-up/refund form: yuan as typed, refused at the field past two decimals, sent as fen. The same
 * schema checks in the browser and in the route's action; the API checks the limits of the tenant.
 */
export const MAX_FEN = 1_000_000;
const YUAN = /^\d{1,7}(\.\d{1,2})?$/;

export const chargeFormSchema = z.object({
  userInfoId: z.string({ error: "请选择人员" }).regex(/^\d{1,16}$/, "请选择人员").transform(Number),
  amount: z
    .string({ error: "请输入金额" })
    .trim()
    .transform((v, ctx) => {
      const problem = /^\d+\.\d{3,}$/.test(v) ? "金额最多两位小数" : !YUAN.test(v) ? "金额应为以元为单位的数字，如 100 或 12.50" : null;
      const fen = problem ? 0 : Math.round(Number(v) * 100);
      const message = problem ?? (fen < 1 ? "金额至少 0.01 元" : fen > MAX_FEN ? `金额不能超过 ${MAX_FEN / 100} 元` : null);
      if (message === null) return fen;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }),
  accountType: z.enum(["cash", "subsidy"], { error: "请选择账户" }),
  // A code of the tenant's 充值渠道 (decision 064); the API refuses one it does not use.
  channel: z.string({ error: "请选择充值渠道" }).regex(/^[a-z][a-z0-9_]{0,19}$/, "请选择充值渠道"),
  remark: z.string().trim().max(200, "备注不能超过 200 个字符").optional(),
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,100}$/, "请刷新页面后重试"),
});
