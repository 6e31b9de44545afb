import { z } from "zod";

// Users read these: no type words (string, int, NaN, record), no raw patterns, and a bounded list of keys.
const EXPECTED: Record<string, string> = {
  string: "文本",
  number: "数字",
  int: "整数",
  bigint: "整数",
  boolean: "是或否",
  array: "列表",
  object: "对象",
  record: "对象",
  date: "日期",
};
const UNITS: Record<string, string> = { string: "个字符", array: "项", set: "项", file: "字节" };
const LISTED_KEYS = 5;

function chineseMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "必填";
      return `应为${EXPECTED[issue.expected] ?? "有效的值"}`;
    case "too_big":
      return issue.origin && UNITS[issue.origin]
        ? `不能超过 ${issue.maximum} ${UNITS[issue.origin]}`
        : `不能大于 ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string" && issue.minimum === 1) return "不能为空";
      return issue.origin && UNITS[issue.origin]
        ? `不能少于 ${issue.minimum} ${UNITS[issue.origin]}`
        : `不能小于 ${issue.minimum}`;
    case "unrecognized_keys": {
      const keys = issue.keys.slice(0, LISTED_KEYS).map((k) => `“${k.slice(0, 40)}”`).join("、");
      return issue.keys.length > LISTED_KEYS ? `不支持的参数 ${keys} 等 ${issue.keys.length} 个` : `不支持的参数 ${keys}`;
    }
    case "invalid_value":
      return "不是可选的值";
    case "not_multiple_of":
      return `应为 ${issue.divisor} 的倍数`;
    default:
      return "格式不正确";
  }
}

/** A message of this voice says what is wrong but not with what: the API puts the field's name before it. */
export const isSubjectless = (message: string) => /^(必填|应为|不能(超过|少于|大于|小于|为空)|不支持的参数|不是可选的值|格式不正确)/.test(message);

// One Chinese voice for every schema, on the server and in the browser.
z.config({ localeError: chineseMessage });

export { z };
