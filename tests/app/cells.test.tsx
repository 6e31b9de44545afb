import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import type { FieldDef } from "../../resources/define";
import { mergeDictItems } from "../../resources/dicts";
import { FieldValue } from "../../app/components/resource/cells";

const dicts = mergeDictItems([]);
const cell = (field: FieldDef, record: Record<string, unknown>) => renderToString(<FieldValue field={field} record={record} dicts={dicts} />);

describe("list cells", () => {
  test("a value that means not in use is a grey tag, others the theme's", () => {
    const status: FieldDef = { name: "status", label: "状态", type: "enum", dict: "status" };
    const userStatus: FieldDef = { name: "status", label: "状态", type: "enum", dict: "userStatus" };
    expect(cell(status, { status: 0 })).toContain('data-tone="gray"');
    expect(cell(status, { status: 0 })).toContain("无效");
    expect(cell(status, { status: 1 })).not.toContain("data-tone");
    expect(cell(userStatus, { status: 2 })).toContain('data-tone="gray"');
    expect(cell(userStatus, { status: 2 })).toContain("禁用");
    expect(cell(userStatus, { status: 1 })).not.toContain("data-tone");
  });

  test("empty values are a dimmed dash; money is yuan; long text keeps its full text in the title", () => {
    expect(cell({ name: "phone", label: "手机号", type: "text" }, { phone: null })).toContain("—");
    expect(cell({ name: "amount", label: "金额", type: "money" }, { amount: 123456 })).toBe("1,234.56");
    const long = cell({ name: "remark", label: "备注", type: "longText" }, { remark: "很长的备注" });
    expect(long).toContain('title="很长的备注"');
  });
});
