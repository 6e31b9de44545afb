import { formToPayload } from "../forms";
import { createSchema, isStorable, updateSchema } from "../schemas";
import { z } from "../z";
import { satisfactionSurve } from "./surveys";

/**
 * A survey's questions and their options, as its form and its create/update API take them (one schema in the
 * browser and on the server). Rows are posted as `questions[0].options[1].optionText`, so the form needs no script.
 */
export const SURVEY_LIMITS = { questions: 50, options: 20 } as const;

// A form sends nothing for an emptied input (conform reads "" as absent): that is a missing value, said as such.
const text = (label: string, max: number, missing: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : `${label}应为文本`) })
    .trim()
    .min(1, missing)
    .max(max, `${label}不能超过 ${max} 个字符`)
    .refine(isStorable, `${label}含有无法保存的字符`);

export const surveyOptionSchema = z.object({ optionText: text("选项", 100, "请输入选项内容") });

export const surveyQuestionSchema = z.object({
  questionTitle: text("题目", 200, "请输入题目"),
  selectType: z.enum(["1", "2"], { error: "请选择单选或多选" }),
  // A form whose rows were all removed posts no list at all.
  options: z.preprocess(
    (v) => v ?? [],
    z.array(surveyOptionSchema, { error: "选项应为列表" }).min(2, "每道题至少需要两个选项").max(SURVEY_LIMITS.options, `每道题最多 ${SURVEY_LIMITS.options} 个选项`),
  ),
});

export const surveyQuestionsSchema = z.preprocess(
  (v) => v ?? [],
  z.array(surveyQuestionSchema, { error: "题目应为列表" }).min(1, "请至少添加一道题目").max(SURVEY_LIMITS.questions, `最多 ${SURVEY_LIMITS.questions} 道题目`),
);

export type SurveyQuestionInput = z.output<typeof surveyQuestionSchema>;

/** The API bodies: the declared fields as any create/update takes them, plus the questions. */
export const surveyCreateSchema = createSchema(satisfactionSurve).extend({ questions: surveyQuestionsSchema });
export const surveyUpdateSchema = updateSchema(satisfactionSurve).extend({ questions: surveyQuestionsSchema });

/** The form's schema: the submitted strings become the API body first (as every declared form does). */
export function surveyFormSchema(mode: "create" | "edit") {
  const schema = mode === "create" ? surveyCreateSchema : surveyUpdateSchema;
  return z.preprocess((raw) => ({ ...formToPayload(satisfactionSurve, (raw ?? {}) as Record<string, unknown>), questions: (raw as { questions?: unknown } | null)?.questions }), schema);
}
