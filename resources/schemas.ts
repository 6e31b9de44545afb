import { filterFields, formFields, sortableFields, PAGE_SIZES, type FieldDef, type FieldType, type ResourceDef } from "./define";
import { UPLOAD_REFERENCE, uploadMessages } from "./uploads";
import { isNumericDict } from "./dicts";
import { MAX_QUANTITY, parseQuantity, QUANTITY_SCALE, thousandthsToQuantity } from "./quantity";
import { z } from "./z";

/**
 * The zod schemas a declaration implies: kept apart from define.ts so that list screens, which need only the
 * declarations, do not ship zod to the browser.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** PostgreSQL refuses NUL in text, and a lone UTF-16 surrogate has no UTF-8 form: neither can be stored as typed. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/** PostgreSQL's `integer`: the column of a number or enum field unless its declaration allows more. */
export const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };
/** Epoch ms that a Date can show. */
const INSTANTS = { min: -8.64e15, max: 8.64e15 };

export const isStorable = (text: string) => !UNSTORABLE.test(text);

/** Text that every column can store: no NUL, no lone surrogate. */
export function storableText(label: string) {
  return z.string({ error: `${label}应为文本` }).refine(isStorable, `${label}含有无法保存的字符`);
}

/** A whole number within a column's range, from JSON (12) or a form or query (“12”); never 1.5, true, [12] or “abc”. */
export function integer(label: string, range: { min: number; max: number }, what = "数字", missing = `缺少 ${label}`) {
  return z.unknown().transform((value, ctx) => {
    const text = typeof value === "string" ? value.trim() : null;
    const n = typeof value === "number" ? value : text !== null && NUMERIC.test(text) ? Number(text) : Number.NaN;
    let message: string | null = null;
    if (value === undefined || value === null || text === "") message = missing;
    else if (Number.isNaN(n)) message = `${label}必须是${what}`;
    else if (!Number.isInteger(n)) message = `${label}必须是${what === "数字" ? "整数" : what}`;
    else if (n < range.min) message = range.min === 0 ? `${label}不能为负数` : `${label}不能小于 ${range.min}`;
    else if (n > range.max) message = `${label}不能大于 ${range.max}`;
    if (message === null) return n;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  });
}

/**
 * A quantity of goods sent as a decimal (12.345 or “12.345”), answered as that decimal (a number), so that parsing
 * its output again gives the same; the column holds thousandths (decision 067). `range` is in the goods' unit (min
 * 0.001: more than nothing).
 */
export function quantity(label: string, range: { min: number; max: number }) {
  return z.unknown().transform((value, ctx) => {
    const parsed = parseQuantity(value);
    let message: string | null = null;
    if ("problem" in parsed) {
      message = parsed.problem === "places" ? `${label}最多 3 位小数` : parsed.problem === "tooLarge" ? `${label}不能大于 ${range.max}` : `${label}必须是数字`;
    } else if (parsed.thousandths < Math.round(range.min * QUANTITY_SCALE)) {
      message = range.min > 0 ? `${label}必须大于 0` : range.min === 0 ? `${label}不能为负数` : `${label}不能小于 ${range.min}`;
    } else if (parsed.thousandths > Math.round(range.max * QUANTITY_SCALE)) {
      message = `${label}不能大于 ${range.max}`;
    }
    if (message === null && !("problem" in parsed)) return thousandthsToQuantity(parsed.thousandths);
    ctx.addIssue({ code: "custom", message: message ?? `${label}必须是数字` });
    return z.NEVER;
  });
}

/** 2026-02-30 has the shape of a date but names none (a text that is not of that shape gets the format message). */
function isRealDate(s: string): boolean {
  if (!DATE.test(s)) return true;
  const time = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(s);
}

/** A row's id, or a version (epoch ms): a whole number that JavaScript holds exactly. */
export function recordId(label = "id", missing?: string) {
  return integer(label, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }, "数字", missing);
}

/** The API value schema of one field (money in integer fen, dates as YYYY-MM-DD, instants as epoch ms). */
function valueSchema(field: FieldDef): z.ZodType {
  const { label } = field;
  switch (field.type) {
    case "number":
      return integer(label, { min: field.min ?? INT4.min, max: field.max ?? INT4.max });
    case "relation":
    case "treeParent":
      return recordId(label);
    case "money":
      return integer(label, { min: field.min ?? 0, max: field.max ?? 1_000_000_000 }, "以分为单位的整数");
    case "quantity":
      return quantity(label, { min: field.min ?? 0, max: field.max ?? MAX_QUANTITY });
    case "boolean":
      return z
        .union([z.boolean(), z.literal(0), z.literal(1), z.literal("0"), z.literal("1"), z.literal("true"), z.literal("false")], {
          error: `${label}只能是 0 或 1`,
        })
        .transform((v) => (v === true || v === 1 || v === "1" || v === "true" ? 1 : 0));
    case "enum":
      // Values are compared as strings (spec §3); a dictionary of whole numbers is kept in an integer column.
      if (field.dict && isNumericDict(field.dict)) {
        const whole = integer(label, INT4);
        return z.unknown().transform((value, ctx) => {
          const parsed = whole.safeParse(value);
          if (parsed.success) return String(parsed.data);
          ctx.addIssue({ code: "custom", message: `${label}不是可选的值` });
          return z.NEVER;
        });
      }
      return z
        .union([storableText(label), z.number()], { error: `${label}不是可选的值` })
        .transform(String)
        .pipe(z.string().min(1, `请选择${label}`).max(50, `${label}不是可选的值`));
    case "date":
      return storableText(label).regex(DATE, `${label}格式应为 YYYY-MM-DD`).refine(isRealDate, `${label}不是有效的日期`);
    case "time":
      return storableText(label).regex(TIME, `${label}格式应为 HH:mm`);
    case "datetime":
      return integer(label, INSTANTS, "时间");
    case "image":
    case "file":
      return storableText(label).trim().regex(UPLOAD_REFERENCE, uploadMessages.reference(label));
    default: {
      const max = field.max ?? (field.type === "longText" ? 2000 : 200);
      let s = storableText(label).trim().max(max, `${label}不能超过 ${max} 个字符`);
      if (field.required) s = s.min(1, `请输入${label}`);
      if (field.pattern) s = s.regex(field.pattern.regex, field.pattern.message);
      return s;
    }
  }
}

const PICKED = new Set<FieldType>(["enum", "relation", "treeParent", "date", "datetime", "time", "boolean", "image", "file"]);

/**
 * Empty form values ("" or null) mean "no value"; a required field then gets "请输入…/请选择…", and so does a
 * field with a declared default, whose column always holds a value. In an update an absent key leaves the column as
 * it is; in a create it takes the column's default.
 */
export function fieldSchema(field: FieldDef, forUpdate: boolean): z.ZodType {
  const base = valueSchema(field);
  const missing = `${PICKED.has(field.type) ? "请选择" : "请输入"}${field.label}`;
  const mustHoldValue = field.required || field.defaultValue !== undefined;
  return z.any().optional().transform((value, ctx) => {
    if (value === undefined && (forUpdate || !field.required)) return undefined;
    if (value === "" || value === null || value === undefined || (typeof value === "string" && !value.trim() && field.type !== "longText")) {
      if (mustHoldValue) {
        ctx.addIssue({ code: "custom", message: missing });
        return z.NEVER;
      }
      return value === undefined ? undefined : null;
    }
    const parsed = base.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** Body of `create`: declared, editable fields only; anything else (tenantId, ids of others) is dropped. */
export function createSchema(def: ResourceDef) {
  return z.object(Object.fromEntries(formFields(def).map((f) => [f.name, fieldSchema(f, false)])));
}

/** Body of `update`: the id, the version the editor saw, and the fields it changes. */
export function updateSchema(def: ResourceDef) {
  return z.object({
    id: recordId(),
    updatedAt: recordId("updatedAt").optional(),
    ...Object.fromEntries(formFields(def).map((f) => [f.name, fieldSchema(f, true)])),
  });
}

/** `findPage` query: paging, one sort, the declared filters; any other parameter is refused. */
export function findPageSchema(def: ResourceDef) {
  const sortable = sortableFields(def);
  const filters: Record<string, z.ZodType> = {};
  for (const f of filterFields(def)) {
    if (f.filter === "range") {
      filters[`${f.name}Begin`] = valueSchema(f).optional();
      filters[`${f.name}End`] = valueSchema(f).optional();
    } else {
      // An empty filter box is no filter.
      filters[f.name] = z.preprocess((v) => (v === "" ? undefined : v), valueSchema(f).optional());
    }
  }
  return z.strictObject({
    pageNum: integer("页码", { min: 1, max: 100_000 }).optional().transform((n) => n ?? 1),
    pageSize: integer("每页条数", { min: 1, max: 100 })
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "每页条数只能是 10、20、50、100")
      .optional()
      .transform((n) => n ?? 20),
    sort: z
      .string({ error: "排序格式应为 字段,asc 或 字段,desc" })
      .regex(/^[A-Za-z]+,(asc|desc)$/, "排序格式应为 字段,asc 或 字段,desc")
      .refine((s) => sortable.includes(s.split(",")[0]), "不能按该字段排序")
      .optional(),
    ...filters,
  });
}
