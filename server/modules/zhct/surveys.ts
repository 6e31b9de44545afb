import ExcelJS from "exceljs";
import { permissionCode } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { surveyCreateSchema, surveyUpdateSchema, type SurveyQuestionInput } from "../../../resources/zhct/surveyForms";
import { satisfactionSurve, satisfactionSurveStatics } from "../../../resources/zhct/surveys";
import { newId } from "../../db";
import { isUniqueViolation } from "../../db/faults";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { escapeCell } from "../resource/export";
import { createRecord, getInfo, getRow, updateRecord, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { nextRecord } from "../sys/rules";
import type { Trx } from "./ledger";
import { idempotent } from "../../kernel/idempotency";
import { dayOf } from "./months";

/**
 * Satisfaction surveys (issue 14 part D, decision 029): a survey of a restaurant for a period, its questions (single
 * or multiple choice) and options saved with it in one transaction; one diner's answers recorded once, inside the
 * period of a published survey; the answers counted per option.
 */

export const surveyMessages = {
  period: "结束日期不能早于开始日期",
  answered: "该问卷已有人作答，题目和选项不能再修改；可修改名称、说明、日期和发布状态",
  unpublished: "问卷未发布，不能作答",
  outside: (begin: string, end: string) => `不在问卷开放时间内（${begin} 至 ${end}）`,
  twice: "该人员已提交过此问卷，不能重复作答",
  dinerMissing: "答卷人不存在",
  dinerDisabled: "答卷人已被禁用或冻结，不能作答",
  notQuestion: "该题目不属于此问卷",
  repeatedQuestion: "同一题目只能作答一次",
  notOption: "所选选项不属于该题目",
  single: (n: number) => `第 ${n} 题是单选题，只能选择一个选项`,
  unanswered: (n: number, title: string) => `请回答第 ${n} 题「${title}」`,
};

/** Dictionary selectType. */
const SelectType = { SINGLE: 1, MULTIPLE: 2 } as const;
const PUBLISHED = 1;

const session = (ctx: unknown) => ctx as SessionContext;

// ---- The survey and its questions ------------------------------------------------------------------------------

export interface SurveyQuestion {
  id: number;
  questionTitle: string;
  selectType: string;
  sort: number;
  options: Array<{ id: number; optionText: string; sort: number }>;
}

async function questionsOf(db: Trx | SessionContext["services"]["db"], tenantId: number, surveyId: number): Promise<SurveyQuestion[]> {
  const questions = await db
    .selectFrom("satisfaction_surve_question")
    .select(["id", "question_title", "select_type", "sort"])
    .where("tenant_id", "=", tenantId)
    .where("survey_id", "=", surveyId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const options = questions.length
    ? await db
        .selectFrom("satisfaction_surve_option")
        .select(["id", "question_id", "option_text", "sort"])
        .where("tenant_id", "=", tenantId)
        .where(
          "question_id",
          "in",
          questions.map((q) => q.id),
        )
        .orderBy("sort")
        .orderBy("id")
        .execute()
    : [];
  return questions.map((q) => ({
    id: q.id,
    questionTitle: q.question_title,
    selectType: String(q.select_type),
    sort: q.sort,
    options: options.filter((o) => o.question_id === q.id).map((o) => ({ id: o.id, optionText: o.option_text, sort: o.sort })),
  }));
}

/** Whether the submitted questions say the same as the stored ones (titles, types and options, in order). */
function sameQuestions(stored: SurveyQuestion[], submitted: SurveyQuestionInput[]): boolean {
  const shape = (qs: Array<{ questionTitle: string; selectType: string; options: Array<{ optionText: string }> }>) =>
    JSON.stringify(qs.map((q) => [q.questionTitle, String(q.selectType), q.options.map((o) => o.optionText)]));
  return shape(stored) === shape(submitted);
}

async function writeQuestions(trx: Trx, ctx: SessionContext, surveyId: number, questions: SurveyQuestionInput[]) {
  const { tenantId, userId } = ctx.session;
  const audit = { created_at: ctx.now, created_by: userId, updated_at: ctx.now, updated_by: userId };
  // Options go with their question (cascade).
  await trx.deleteFrom("satisfaction_surve_question").where("tenant_id", "=", tenantId).where("survey_id", "=", surveyId).execute();
  for (const [index, question] of questions.entries()) {
    const questionId = newId();
    await trx
      .insertInto("satisfaction_surve_question")
      .values({ tenant_id: tenantId, id: questionId, survey_id: surveyId, question_title: question.questionTitle, select_type: Number(question.selectType), sort: index + 1, ...audit })
      .execute();
    await trx
      .insertInto("satisfaction_surve_option")
      .values(question.options.map((option, o) => ({ tenant_id: tenantId, id: newId(), question_id: questionId, option_text: option.optionText, sort: o + 1, ...audit })))
      .execute();
  }
}

function checkPeriod(record: Row) {
  if (record.beginDate && record.endDate && String(record.endDate) < String(record.beginDate)) throw fieldError("endDate", surveyMessages.period);
}

async function answerCount(db: Trx | SessionContext["services"]["db"], tenantId: number, surveyId: number): Promise<number> {
  const row = await db
    .selectFrom("satisfaction_surve_answer")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("tenant_id", "=", tenantId)
    .where("survey_id", "=", surveyId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Creates a survey with its questions and options, in the create's own transaction. */
export async function createSurvey(ctx: SessionContext, body: z.output<typeof surveyCreateSchema>) {
  const { questions: submitted, ...values } = body;
  const questions = submitted as SurveyQuestionInput[];
  const service: ResourceService = {
    beforeCreate(_ctx, v) {
      checkPeriod(v);
      v.questionCount = questions.length;
    },
    afterCreate: (c, trx, row) => writeQuestions(trx as Trx, c, Number(row.id), questions),
  };
  const record = await createRecord(ctx, satisfactionSurve, values, service);
  return { ...record, questions: await questionsOf(ctx.services.db, ctx.session.tenantId, Number(record.id)) };
}

/**
 * Saves a survey's fields and questions. Once anyone has answered, the questions and options stay as they were
 * (the answers name them): the same questions may be sent back, other ones are refused. The answers' check
 * repeats inside the update's transaction, so an answer arriving between the two does not slip past it.
 */
export async function updateSurvey(ctx: SessionContext, body: z.output<typeof surveyUpdateSchema>) {
  const { questions: submitted, ...values } = body;
  const questions = submitted as SurveyQuestionInput[];
  const { tenantId } = ctx.session;
  let unchanged = false;
  const service: ResourceService = {
    async beforeUpdate(c, v, current) {
      checkPeriod(nextRecord(satisfactionSurve, v, current));
      unchanged = sameQuestions(await questionsOf(c.services.db, tenantId, Number(current.id)), questions);
      if (!unchanged && (await answerCount(c.services.db, tenantId, Number(current.id))) > 0) throw new ApiError(Status.CONFLICT, surveyMessages.answered);
      v.questionCount = questions.length;
    },
    async afterUpdate(c, trx, row) {
      if (unchanged) return;
      if ((await answerCount(trx as Trx, tenantId, Number(row.id))) > 0) throw new ApiError(Status.CONFLICT, surveyMessages.answered);
      await writeQuestions(trx as Trx, c, Number(row.id), questions);
    },
  };
  const record = await updateRecord(ctx, satisfactionSurve, values, service);
  return { ...record, questions: await questionsOf(ctx.services.db, tenantId, Number(record.id)) };
}

export async function surveyInfo(ctx: SessionContext, id: number) {
  const record = await getInfo(ctx, satisfactionSurve, id, findResource);
  return { ...record, questions: await questionsOf(ctx.services.db, ctx.session.tenantId, id), answerCount: await answerCount(ctx.services.db, ctx.session.tenantId, id) };
}

// ---- Answers ---------------------------------------------------------------------------------------------------

export const answerSchema = z.strictObject({
  surveyId: recordId("问卷", "请选择问卷"),
  userInfoId: recordId("答卷人", "请选择答卷人"),
  answers: z
    .array(
      z.strictObject({
        questionId: recordId("题目", "请选择题目"),
        optionIds: z.array(recordId("选项", "请选择选项"), { error: "选项应为列表" }).min(1, "请至少选择一个选项").max(20, "选项过多"),
      }),
      { error: "答案应为列表" },
    )
    .min(1, "请作答")
    .max(50, "题目过多"),
});

/**
 * Records one diner's answers to a survey: published, today (China time) inside its period, every question answered
 * once with options of that question, one option for a single-choice question, and only once per diner — the
 * unique key (survey, diner) holds when two submissions race. Refusals write nothing.
 */
export async function answer(ctx: SessionContext, body: z.output<typeof answerSchema>) {
  const { tenantId } = ctx.session;
  const { db } = ctx.services;
  const survey = await getRow(ctx, satisfactionSurve, body.surveyId);
  if (Number(survey.entity_status) !== PUBLISHED) throw new ApiError(Status.CONFLICT, surveyMessages.unpublished);
  const today = dayOf(ctx.now);
  if (today < String(survey.begin_date) || today > String(survey.end_date)) throw new ApiError(Status.CONFLICT, surveyMessages.outside(String(survey.begin_date), String(survey.end_date)));
  const diner = await db.selectFrom("user_info").select(["id", "user_status"]).where("tenant_id", "=", tenantId).where("id", "=", body.userInfoId).executeTakeFirst();
  if (!diner) throw fieldError("userInfoId", surveyMessages.dinerMissing);
  if (diner.user_status != null && Number(diner.user_status) !== 1) throw new ApiError(Status.CONFLICT, surveyMessages.dinerDisabled);

  const questions = await questionsOf(db, tenantId, body.surveyId);
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<number>();
  const chosen: Array<{ questionId: number; optionId: number }> = [];
  for (const [i, a] of body.answers.entries()) {
    const question = byId.get(a.questionId);
    if (!question) throw fieldError(`answers[${i}].questionId`, surveyMessages.notQuestion);
    if (seen.has(a.questionId)) throw fieldError(`answers[${i}].questionId`, surveyMessages.repeatedQuestion);
    seen.add(a.questionId);
    const optionIds = [...new Set(a.optionIds)];
    const number = questions.indexOf(question) + 1;
    if (Number(question.selectType) === SelectType.SINGLE && optionIds.length > 1) throw fieldError(`answers[${i}].optionIds`, surveyMessages.single(number));
    for (const optionId of optionIds) {
      if (!question.options.some((o) => o.id === optionId)) throw fieldError(`answers[${i}].optionIds`, surveyMessages.notOption);
      chosen.push({ questionId: a.questionId, optionId });
    }
  }
  const missing = questions.findIndex((q) => !seen.has(q.id));
  if (missing >= 0) throw fieldError("answers", surveyMessages.unanswered(missing + 1, questions[missing].questionTitle));

  const by = ctx.session.userId;
  const audit = { created_at: ctx.now, created_by: by, updated_at: ctx.now, updated_by: by };
  try {
    return await idempotent(ctx, body, async (trx) => {
      const taken = await trx.selectFrom("satisfaction_surve_answer").select("id").where("tenant_id", "=", tenantId).where("survey_id", "=", body.surveyId).where("user_info_id", "=", body.userInfoId).executeTakeFirst();
      if (taken) throw new ApiError(Status.CONFLICT, surveyMessages.twice);
      const answerId = newId();
      await trx.insertInto("satisfaction_surve_answer").values({ tenant_id: tenantId, id: answerId, survey_id: body.surveyId, user_info_id: body.userInfoId, answered_at: ctx.now, ...audit }).execute();
      await trx
        .insertInto("satisfaction_surve_answer_item")
        .values(chosen.map((c) => ({ tenant_id: tenantId, id: newId(), answer_id: answerId, survey_id: body.surveyId, question_id: c.questionId, option_id: c.optionId, ...audit })))
        .execute();
      return { answerId, surveyId: body.surveyId, userInfoId: body.userInfoId, options: chosen.length };
    });
  } catch (error) {
    // Two submissions of one diner that both passed the check: the unique key refuses the later one.
    if (isUniqueViolation(error)) throw new ApiError(Status.CONFLICT, surveyMessages.twice);
    throw error;
  }
}

// ---- Statistics ------------------------------------------------------------------------------------------------

export interface SurveyStatics {
  surveys: Array<{ id: number; surveyName: string; beginDate: string; endDate: string }>;
  survey: { id: number; surveyName: string; restaurantName: string | null; beginDate: string; endDate: string; entityStatus: string } | null;
  answerCount: number;
  questions: Array<{ id: number; questionTitle: string; selectType: string; options: Array<{ id: number; optionText: string; count: number; percent: number }> }>;
}

/** Percent of the answers that chose an option, to one decimal (a multiple-choice question's add up past 100). */
const percentOf = (count: number, total: number) => (total ? Math.round((count * 1000) / total) / 10 : 0);

/**
 * The tenant's surveys (newest first) and, for the one asked (or the newest), how many answers chose each option:
 * one grouped count over the answer items (indexed by survey and option).
 */
export async function statics(ctx: SessionContext, surveyId: number | undefined): Promise<SurveyStatics> {
  const { tenantId } = ctx.session;
  const { db } = ctx.services;
  const surveys = await db
    .selectFrom("satisfaction_surve")
    .select(["id", "survey_name as surveyName", "begin_date as beginDate", "end_date as endDate"])
    .where("tenant_id", "=", tenantId)
    .orderBy("begin_date", "desc")
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  const id = surveyId ?? surveys[0]?.id;
  if (id === undefined) return { surveys, survey: null, answerCount: 0, questions: [] };
  const row = await getInfo(ctx, satisfactionSurve, id, findResource);
  const total = await answerCount(db, tenantId, id);
  const counts = await db
    .selectFrom("satisfaction_surve_answer_item")
    .select(["option_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("tenant_id", "=", tenantId)
    .where("survey_id", "=", id)
    .groupBy("option_id")
    .execute();
  const countOf = new Map(counts.map((c) => [c.option_id, Number(c.n)]));
  const questions = (await questionsOf(db, tenantId, id)).map((q) => ({
    id: q.id,
    questionTitle: q.questionTitle,
    selectType: q.selectType,
    options: q.options.map((o) => ({ id: o.id, optionText: o.optionText, count: countOf.get(o.id) ?? 0, percent: percentOf(countOf.get(o.id) ?? 0, total) })),
  }));
  return {
    surveys,
    survey: {
      id,
      surveyName: String(row.surveyName),
      restaurantName: (row.restaurantIdLabel as string | null | undefined) ?? null,
      beginDate: String(row.beginDate),
      endDate: String(row.endDate),
      entityStatus: String(row.entityStatus),
    },
    answerCount: total,
    questions,
  };
}

/** The statistics as a spreadsheet: one row per option under its question, with counts and percentages. */
export async function staticsWorkbook(ctx: SessionContext, surveyId: number): Promise<Response> {
  const result = await statics(ctx, surveyId);
  const survey = result.survey as NonNullable<SurveyStatics["survey"]>;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("满意度统计");
  sheet.columns = [{ width: 8 }, { width: 40 }, { width: 10 }, { width: 30 }, { width: 10 }, { width: 10 }];
  sheet.addRow([escapeCell(survey.surveyName)]).font = { bold: true, size: 14 };
  sheet.addRow([`餐厅：${escapeCell(survey.restaurantName ?? "")}`, "", "", `期间：${survey.beginDate} 至 ${survey.endDate}`, `答卷数：${result.answerCount}`]);
  sheet.addRow([]);
  sheet.addRow(["题号", "题目", "类型", "选项", "人数", "占比（%）"]).font = { bold: true };
  result.questions.forEach((q, i) => {
    for (const o of q.options) sheet.addRow([i + 1, escapeCell(q.questionTitle), Number(q.selectType) === SelectType.SINGLE ? "单选" : "多选", escapeCell(o.optionText), o.count, o.percent]);
  });
  const bytes = await workbook.xlsx.writeBuffer();
  const fileName = `${survey.surveyName}-满意度统计.xlsx`;
  return new Response(bytes as ArrayBuffer, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="satisfaction-statics-${survey.id}.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}

const STATICS_VIEW = permissionCode(satisfactionSurveStatics, "view");
const surveyQuery = z.object({ surveyId: recordId("问卷", "请选择问卷").optional() });

export const surveyEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/satisfactionSurve/create",
    replacesGenerated: true,
    summary: "新增满意度调查及其题目：{ surveyName, restaurantId, beginDate, endDate, entityStatus, description?, questions: [{ questionTitle, selectType（1 单选 2 多选）, options: [{ optionText }] }] }",
    access: permission(permissionCode(satisfactionSurve, "create")),
    body: surveyCreateSchema,
    handle: (ctx, { body }) => createSurvey(session(ctx), body),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/satisfactionSurve/update",
    replacesGenerated: true,
    summary: "修改满意度调查及其题目（整体替换）；已有人作答的问卷只能修改名称、说明、日期和发布状态",
    access: permission(permissionCode(satisfactionSurve, "update")),
    body: surveyUpdateSchema,
    handle: (ctx, { body }) => updateSurvey(session(ctx), body),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/satisfactionSurve/getInfo",
    replacesGenerated: true,
    summary: "满意度调查及其题目、选项与答卷数",
    access: permission(permissionCode(satisfactionSurve, "view")),
    query: z.object({ id: recordId() }),
    handle: (ctx, { query }) => surveyInfo(session(ctx), query.id),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/satisfactionSurve/answer",
    summary:
      "记录一位就餐人员的答卷：{ surveyId, userInfoId, answers: [{ questionId, optionIds: [...] }] }；问卷须已发布且今天（北京时间）在开放期间内，每题作答一次，单选题只能选一个，每人每卷只能作答一次（409）",
    access: permission(permissionCode(satisfactionSurve, "answer")),
    body: answerSchema,
    handle: (ctx, { body }) => answer(session(ctx), body),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/satisfactionSurveStatics/findPage",
    summary: "满意度统计：各题各选项的人数与占比（不带 surveyId 时为最新的问卷），以及可选的问卷列表",
    access: permission(STATICS_VIEW),
    query: surveyQuery,
    handle: (ctx, { query }) => statics(session(ctx), query.surveyId),
  }),
  endpoint({
    method: "GET",
    path: "/api/v1/zhct/satisfactionSurveStatics/export",
    summary: "导出满意度统计（xlsx）",
    access: permission(STATICS_VIEW),
    query: z.object({ surveyId: recordId("问卷", "请选择问卷") }),
    handle: (ctx, { query }) => staticsWorkbook(session(ctx), query.surveyId),
  }),
];
