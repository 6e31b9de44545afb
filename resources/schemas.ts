import { filterFields, formFields, sortableFields, PAGE_SIZES, type FieldDef, type FieldType, type ResourceDef } from "./define";
import { UPLOAD_REFERENCE, uploadMessages } from "./uploads";
import { z } from "./z";

/**
 * The zod schemas a declaration implies: kept apart from define.ts so that list screens, which need only the
 * declarations, do not ship zod to the browser.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The API value schema of one field (money in integer fen, dates as YYYY-MM-DD, instants as epoch ms). */
function valueSchema(field: FieldDef): z.ZodType {
  switch (field.type) {
    case "number":
    case "relation":
    case "treeParent": {
      let s = z.coerce.number({ error: `${field.label}必须是数字` }).int(`${field.label}必须是整数`);
      if (field.min !== undefined) s = s.min(field.min, `${field.label}不能小于 ${field.min}`);
      if (field.max !== undefined) s = s.max(field.max, `${field.label}不能大于 ${field.max}`);
      return s;
    }
    case "money":
      return z.coerce
        .number({ error: `${field.label}必须是金额` })
        .int(`${field.label}必须是以分为单位的整数`)
        .min(field.min ?? 0, `${field.label}不能为负数`)
        .max(field.max ?? 1_000_000_000, `${field.label}过大`);
    case "boolean":
      return z.union([z.boolean(), z.literal(0), z.literal(1), z.literal("0"), z.literal("1"), z.literal("true"), z.literal("false")]).transform(
        (v) => (v === true || v === 1 || v === "1" || v === "true" ? 1 : 0),
      );
    case "enum":
      return z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1, `请选择${field.label}`).max(50));
    case "date":
      return z.string().regex(DATE, `${field.label}格式应为 YYYY-MM-DD`);
    case "time":
      return z.string().regex(TIME, `${field.label}格式应为 HH:mm`);
    case "datetime":
      return z.coerce.number({ error: `${field.label}必须是时间` }).int();
    case "image":
    case "file":
      return z.string().trim().regex(UPLOAD_REFERENCE, uploadMessages.reference(field.label));
    default: {
      let s = z.string().trim().max(field.max ?? (field.type === "longText" ? 2000 : 200), `${field.label}不能超过 ${field.max ?? (field.type === "longText" ? 2000 : 200)} 个字符`);
      if (field.required) s = s.min(1, `请输入${field.label}`);
      if (field.pattern) s = s.regex(field.pattern.regex, field.pattern.message);
      return s;
    }
  }
}

const PICKED = new Set<FieldType>(["enum", "relation", "treeParent", "date", "datetime", "time", "boolean", "image", "file"]);

/**
 * Empty form values ("" or null) mean "no value"; a required field then gets "请输入…/请选择…". In an
 * update an absent key leaves the column as it is.
 */
export function fieldSchema(field: FieldDef, forUpdate: boolean): z.ZodType {
  const base = valueSchema(field);
  const missing = `${PICKED.has(field.type) ? "请选择" : "请输入"}${field.label}`;
  return z.any().optional().transform((value, ctx) => {
    if (value === undefined && forUpdate) return undefined;
    if (value === "" || value === null || value === undefined || (typeof value === "string" && !value.trim() && field.type !== "longText")) {
      if (field.required) {
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
    id: z.coerce.number({ error: "缺少 id" }).int(),
    updatedAt: z.coerce.number({ error: "缺少 updatedAt" }).int().optional(),
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
      filters[f.name] = z.union([z.literal("").transform(() => undefined), valueSchema(f)]).optional();
    }
  }
  return z.strictObject({
    pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "每页条数只能是 10、20、50、100")
      .default(20),
    sort: z
      .string()
      .regex(/^[A-Za-z]+,(asc|desc)$/, "排序格式应为 字段,asc 或 字段,desc")
      .refine((s) => sortable.includes(s.split(",")[0]), "不能按该字段排序")
      .optional(),
    ...filters,
  });
}

