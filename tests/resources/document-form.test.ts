import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, test } from "vitest";
import { documentFormSchema, documentToForm, filledRows, formFieldErrors, formRows, isBlankLine } from "../../resources/document-form";
import { sampleReceipt } from "../server/fixtures/sampleDocuments";

/** The editor's form as a browser without scripts posts it: every row of the table, blank ones too. */
function posted(values: Record<string, string>, rows: Array<Record<string, string>>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  rows.forEach((row, i) => {
    for (const [k, v] of Object.entries(row)) form.append(`lines[${i}].${k}`, v);
  });
  return form;
}

const header = { warehouseId: "3", supplier: "城东蔬菜", bizDate: "2026-11-28", remark: "" };
const blank = { goodsId: "", goodsName: "", quantity: "", amount: "" };
const line = (goodsId: string, amount: string) => ({ goodsId, goodsName: `物品${goodsId}`, quantity: "2000", amount });

describe("the document editor's form", () => {
  test("blank rows are not lines; money typed in yuan is sent in integer fen", () => {
    const form = posted(header, [blank, line("1", "12.5"), blank, line("2", "0.07"), blank]);
    const submission = parseWithZod(form, { schema: documentFormSchema(sampleReceipt, "create") });
    expect(submission.status).toBe("success");
    const value = submission.status === "success" ? submission.value : null;
    expect(value).toMatchObject({ warehouseId: 3, supplier: "城东蔬菜", bizDate: "2026-11-28" });
    expect(value?.lines).toEqual([
      { goodsId: 1, goodsName: "物品1", quantity: 2000, amount: 1250 },
      { goodsId: 2, goodsName: "物品2", quantity: 2000, amount: 7 },
    ]);
  });

  test("a bad cell is named by its row in the form, however many blank rows stand above it; the typed values come back", () => {
    const form = posted(header, [blank, blank, { ...line("1", "abc") }]);
    const submission = parseWithZod(form, { schema: documentFormSchema(sampleReceipt, "create") });
    expect(submission.status).toBe("error");
    const reply = submission.reply();
    expect(Object.keys(reply.error ?? {})).toEqual(["lines[2].amount"]);
    expect(reply.error?.["lines[2].amount"]?.[0]).toMatch(/金额/);
    expect((reply.initialValue as { lines: Array<Record<string, string>> }).lines[2]).toMatchObject({ goodsName: "物品1", amount: "abc" });
  });

  test("too few lines is one message on the lines, in Chinese", () => {
    const submission = parseWithZod(posted(header, [blank, blank]), { schema: documentFormSchema(sampleReceipt, "create") });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.lines).toEqual(["请至少填写 1 行入库明细"]);
  });

  test("an edit carries the id and version read, and each kept line its id", () => {
    const form = posted({ ...header, id: "41", version: "3" }, [{ id: "900", ...line("1", "1.00") }, line("5", "2")]);
    const submission = parseWithZod(form, { schema: documentFormSchema(sampleReceipt, "edit") });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toMatchObject({
      id: 41,
      version: 3,
      lines: [
        { id: 900, goodsId: 1, amount: 100 },
        { goodsId: 5, amount: 200 },
      ],
    });
  });

  test("the API's messages about the n-th line sent land on the row it came from", () => {
    const raw = [blank, line("1", "1"), blank, line("2", "2")];
    expect(filledRows(sampleReceipt, raw)).toEqual([1, 3]);
    expect(formFieldErrors({ "lines.1.goodsId": ["物品不存在"], supplier: ["请输入供应商"], "lines.0": ["重复"] }, [1, 3])).toEqual({
      "lines[3].goodsId": ["物品不存在"],
      supplier: ["请输入供应商"],
      "lines[1]": ["重复"],
    });
  });

  test("a document reads back as the form shows it, and the table offers spare blank rows", () => {
    const form = documentToForm(sampleReceipt, { ...header, id: 41, lines: [{ id: 900, goodsId: 1, goodsName: "白菜", quantity: 2000, amount: 1250 }] });
    expect(form.lines).toEqual([{ id: "900", goodsId: "1", goodsName: "白菜", quantity: "2000", amount: "12.50" }]);
    const rows = formRows(sampleReceipt, form.lines, 5);
    expect(rows).toHaveLength(5);
    expect(rows.slice(1).every((row) => isBlankLine(sampleReceipt, row))).toBe(true);
    expect(isBlankLine(sampleReceipt, rows[0])).toBe(false);
  });
});
