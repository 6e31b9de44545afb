import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { fenToYuan, formSchema, recordToForm, yuanToFen } from "../../resources/forms";
import { tenant } from "../../resources/sys/tenant";

describe("money in forms", () => {
  test("typed yuan becomes integer fen without floating-point error", () => {
    expect(yuanToFen("12.5")).toBe(1250);
    expect(yuanToFen("0.07")).toBe(7);
    expect(yuanToFen("19.99")).toBe(1999);
    expect(yuanToFen("-3.10")).toBe(-310);
    expect(yuanToFen("1.234")).toBe("1.234");
    expect(yuanToFen("abc")).toBe("abc");
  });

  test("fen shown as yuan reads back as the same fen", () => {
    fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), (fen) => yuanToFen(fenToYuan(fen)) === fen));
  });
});

describe("the one form schema", () => {
  test("an emptied optional field is cleared on update, not left unchanged", () => {
    const parsed = formSchema(tenant, "edit").parse({ id: "7", updatedAt: "100", tenantName: "东区食堂", tenantCode: "east", status: "1" });
    expect(parsed).toMatchObject({ id: 7, updatedAt: 100, contactName: null, contactPhone: null, remark: null });
  });

  test("an emptied required field gets its Chinese message", () => {
    const result = formSchema(tenant, "edit").safeParse({ id: "7", updatedAt: "100", tenantCode: "east", status: "1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((i) => i.path[0] === "tenantName")?.message).toBe("请输入租户名称");
  });

  test("a record shows in the form as it was stored", () => {
    expect(recordToForm(tenant, { tenantName: "东区", tenantCode: "east", contactName: null, status: "1", expireDate: "2027-01-31" })).toMatchObject({
      tenantName: "东区",
      contactName: "",
      status: "1",
      expireDate: "2027-01-31",
    });
  });
});
