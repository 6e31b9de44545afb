import { z } from "../z";
import { chargeFormSchema } from "./ledgerForms";

/**
 * The cashier's sale form (decision 023), read the same way with or without JavaScript: the scanned code, the
 * dishes' quantities (`qty-<foodId>`) or an amount in yuan, the payment method, and the key of the sale that the
 * server put in the form when it drew it.
 */
export const saleMessages = {
  code: "请刷卡、扫码或输入人员编号",
  nothing: "请选择菜品或输入金额",
  both: "请选择菜品或输入金额，二者选其一",
  quantity: "菜品数量应为 0 到 99 的整数",
  reused: "此收款单已办理过一笔业务，请重新刷卡",
};

export const QTY_PREFIX = "qty-";
const QTY = /^\d{1,2}$/;

export const cashierFormSchema = z.object({
  code: z.string({ error: saleMessages.code }).trim().min(1, saleMessages.code).max(64, "卡号或人员编号不能超过 64 个字符"),
  amount: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), chargeFormSchema.shape.amount.optional()),
  payFlag: z.string({ error: "请选择支付方式" }).regex(/^\d{1,4}$/, "请选择支付方式"),
  restaurantId: z.string().regex(/^\d{1,16}$/).transform(Number).optional().catch(undefined),
  mealTimesId: z.string().regex(/^\d{1,16}$/).transform(Number).optional().catch(undefined),
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,100}$/, "请刷新页面后重试"),
});

export type Sale = z.output<typeof cashierFormSchema> & { items: Array<{ foodId: number; quantity: number }> };

/** The form's fields → a sale, or the first problem in words the counter understands. */
export function readSale(form: FormData): { sale: Sale } | { error: string; code: string } {
  const fields: Record<string, unknown> = {};
  const items: Sale["items"] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    if (!name.startsWith(QTY_PREFIX)) {
      fields[name] = value;
      continue;
    }
    const foodId = name.slice(QTY_PREFIX.length);
    const text = value.trim();
    if (text === "" || text === "0") continue;
    if (!/^\d{1,16}$/.test(foodId) || !QTY.test(text)) return { error: saleMessages.quantity, code: String(form.get("code") ?? "") };
    items.push({ foodId: Number(foodId), quantity: Number(text) });
  }
  const parsed = cashierFormSchema.safeParse(fields);
  const code = typeof fields.code === "string" ? fields.code.trim().slice(0, 64) : "";
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? saleMessages.code, code };
  if (items.length && parsed.data.amount !== undefined) return { error: saleMessages.both, code };
  return { sale: { ...parsed.data, items } };
}
