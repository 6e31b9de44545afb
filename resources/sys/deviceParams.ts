import { z } from "../z";

export const MAX_DEVICE_PARAMS = 200;
/** An empty name is reported as missing alone. */
const PARAM_KEY = /^([A-Za-z][A-Za-z0-9_.-]*)?$/;

export const deviceParamMessages = {
  keyRequired: "请输入参数名",
  keyPattern: "参数名以字母开头，只能包含字母、数字、下划线、点和短横线",
  keyDuplicate: "参数名重复",
  keyLong: "参数名不能超过 50 个字符",
  valueLong: "参数值不能超过 2000 个字符",
  remarkLong: "说明不能超过 200 个字符",
  tooMany: `参数最多 ${MAX_DEVICE_PARAMS} 个`,
};
const m = deviceParamMessages;

/** The device's parameters (setting/{id}): key/value rows, names unique; the screen and the API share it. */
export const deviceParamList = z
  .array(
    z.object({
      paramKey: z.string({ error: m.keyRequired }).trim().min(1, m.keyRequired).max(50, m.keyLong).regex(PARAM_KEY, m.keyPattern),
      paramValue: z
        .union([z.string(), z.number(), z.boolean(), z.null()])
        .optional()
        .transform((v) => (v === null || v === undefined ? "" : String(v)))
        .pipe(z.string().max(2000, m.valueLong)),
      remark: z.string().trim().max(200, m.remarkLong).nullish(),
    }),
  )
  .max(MAX_DEVICE_PARAMS, m.tooMany)
  .superRefine((params, issues) => {
    const seen = new Set<string>();
    params.forEach((p, index) => {
      if (seen.has(p.paramKey)) issues.addIssue({ code: "custom", path: [index, "paramKey"], message: m.keyDuplicate });
      seen.add(p.paramKey);
    });
  });
