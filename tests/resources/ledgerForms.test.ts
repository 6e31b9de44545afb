import { describe, expect, test } from "vitest";
import { chargeFormSchema } from "../../resources/zhct/ledgerForms";

const base = { userInfoId: "123", accountType: "cash", channel: "cash", idempotencyKey: "k-1" };
const amountError = (amount: string) => {
  const parsed = chargeFormSchema.safeParse({ ...base, amount });
  return parsed.success ? null : parsed.error.issues.map((i) => i.message).join();
};

describe("the top-up/refund form's amount in yuan", () => {
  test("yuan with up to two decimals becomes fen", () => {
    expect(chargeFormSchema.parse({ ...base, amount: "12.5" }).amount).toBe(1250);
    expect(chargeFormSchema.parse({ ...base, amount: " 100.00 " }).amount).toBe(10000);
    expect(chargeFormSchema.parse({ ...base, amount: "0.01" }).amount).toBe(1);
    expect(chargeFormSchema.parse({ ...base, amount: "10000" }).amount).toBe(1_000_000);
    expect(chargeFormSchema.parse({ ...base, amount: "19.99" }).amount).toBe(1999);
  });

  test("more than two decimals, nothing, zero, too much or not a number is refused at the field", () => {
    expect(amountError("100.001")).toBe("金额最多两位小数");
    expect(amountError("0")).toBe("金额至少 0.01 元");
    expect(amountError("10000.01")).toBe("金额不能超过 10000 元");
    expect(amountError("-5")).toMatch(/金额应为以元为单位的数字/);
    expect(amountError("1e3")).toMatch(/金额应为以元为单位的数字/);
    expect(amountError("")).toMatch(/金额应为以元为单位的数字/);
  });
});
