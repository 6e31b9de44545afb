import { columnOf, type FieldDef, type ResourceDef, type ValueText } from "./define";

/**
 * The operation log in words (issue 38): a row names its entity, action and changes by codes (`zhct/mealOrder`,
 * `cancel`, `{"orderStatus":["1","3"]}`), which the API keeps for its clients; the list and its export show them as
 * the declarations name them. The declarations are found through the caller's `ValueText.resource` (the list page's,
 * the export's), so that the operation log's declaration, which uses this module, does not import the list of
 * declarations that holds it.
 */

/** A logged entity (`module/entity`) by its declaration's title. */
export function entityTitle(key: unknown, text: Pick<ValueText, "resource">): string {
  return text.resource(String(key))?.title ?? "其他数据";
}

/**
 * Keys a workflow logs beside its declared fields (a refund's reason, a batch's counts): their labels and how their
 * values read. A key neither declared nor here is left out of the text rather than shown as a code.
 */
type KeyText = { label: string; type?: FieldDef["type"] | "doc"; dict?: string; step?: boolean };

const OTHER_KEYS: Record<string, KeyText> = {
  reason: { label: "原因" },
  amount: { label: "金额", type: "money" },
  refundFen: { label: "退款金额", type: "money" },
  refunded: { label: "已退金额", type: "money" },
  paidBy: { label: "支付来源", type: "doc" },
  docType: { label: "单据类型", type: "doc" },
  source: { label: "来源", type: "enum", dict: "orderSource" },
  docId: { label: "单据号" },
  roleIds: { label: "角色" },
  menuIds: { label: "菜单" },
  warehouseIds: { label: "仓库" },
  restaurantIds: { label: "餐厅" },
  params: { label: "参数", step: true },
  month: { label: "月份" },
  count: { label: "条数" },
  granted: { label: "已发放" },
  skipped: { label: "已跳过" },
  failed: { label: "失败" },
  created: { label: "新增" },
  replaced: { label: "替换" },
  items: { label: "菜品条数" },
  foods: { label: "菜品数" },
  weekdays: { label: "星期" },
  replace: { label: "覆盖已有", type: "boolean" },
  beginDate: { label: "开始日期" },
  endDate: { label: "结束日期" },
  movedTo: { label: "换至餐桌" },
  replacedBy: { label: "新卡" },
  points: { label: "积分" },
  orderId: { label: "订单" },
  runId: { label: "执行记录" },
  message: { label: "说明" },
  trigger: { label: "触发方式" },
};

/**
 * A document that pays or asks for money, by its entity's title: a refund's `docType` (`mealOrderComplaints` → 订餐申诉),
 * an order's `paidBy` (`{kind: "ledger", lineIds}` → 账户流水, `{kind: "other", docType, docId}` → 餐券 12).
 */
export function documentTitle(docType: unknown, find: (key: string) => Pick<ResourceDef, "title"> | undefined): string {
  if (docType === "ledger") return "账户流水";
  return find(`zhct/${String(docType)}`)?.title ?? "其他单据";
}

function docText(value: unknown, text: ValueText): string {
  if (value === null || typeof value !== "object") return documentTitle(value, text.resource);
  const doc = value as { kind?: string; docType?: string; docId?: unknown; lineIds?: unknown[] };
  return doc.kind === "ledger" ? `账户流水 ${(doc.lineIds ?? []).join("、")}` : `${documentTitle(doc.docType, text.resource)} ${String(doc.docId ?? "")}`.trim();
}

function fieldOf(fields: readonly FieldDef[], key: string): KeyText | undefined {
  const declared = fields.find((f) => f.name === key || columnOf(f) === key);
  // A declared field holds one value: an array is the [before, after] of an update or a status step.
  return declared ? { label: declared.label, type: declared.type, dict: declared.dict, step: true } : OTHER_KEYS[key];
}

function valueText(field: KeyText, value: unknown, text: ValueText): string {
  if (value === null || value === undefined || value === "") return "空";
  if (field.type === "doc") return docText(value, text);
  if (Array.isArray(value)) return value.map((v) => valueText(field, v, text)).join("、") || "空";
  if (typeof value === "object") {
    // A device's parameters: their keys are the device's own names.
    return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${valueText({ label: k }, v, text)}`).join("，") || "空";
  }
  switch (field.type) {
    case "enum":
      return text.dict(field.dict ?? "", value);
    case "money":
      return field.label.includes("元") ? text.money(Number(value)) : `${text.money(Number(value))} 元`;
    case "datetime":
      return text.time(Number(value));
    case "boolean":
      return value === true || value === 1 || value === "1" ? "是" : "否";
    case "image":
    case "file":
      return "（文件）";
    default:
      return typeof value === "boolean" ? (value ? "是" : "否") : String(value);
  }
}

/**
 * A row's logged changes as `字段名: 旧值 → 新值` (an update, a status step) or `字段名: 值` (a create, a delete, a
 * workflow's facts), one per field in the declaration's labels, joined by `；`. Not JSON: the stored text as is.
 */
export function describeChanges(entity: unknown, changes: unknown, text: ValueText): string {
  let parsed: unknown;
  try {
    parsed = typeof changes === "string" ? JSON.parse(changes) : changes;
  } catch {
    return String(changes);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return "";
  const fields = text.resource(String(entity))?.fields ?? [];
  const parts: string[] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const field = fieldOf(fields, key);
    if (!field) continue;
    // An update and a status step log [before, after]; a list of ids (roleIds) is a value of its own.
    const step = field.step && Array.isArray(value) && value.length === 2;
    parts.push(step ? `${field.label}: ${valueText(field, value[0], text)} → ${valueText(field, value[1], text)}` : `${field.label}: ${valueText(field, value, text)}`);
  }
  return parts.join("；");
}
