import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ActionIcon, Alert, Badge, Button, Card, Divider, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconPlus, IconTrash } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, formFields } from "../../../resources/define";
import { recordToForm } from "../../../resources/forms";
import { surveyFormSchema, SURVEY_LIMITS } from "../../../resources/zhct/surveyForms";
import { satisfactionSurve as def } from "../../../resources/zhct/surveys";
import type { Route } from "./+types/survey-form";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { t } from "~/lib/messages";
import { loadForm } from "~/lib/resource-form.server";
import { flashCookie } from "~/lib/session.server";

const LIST_PATH = `${def.screenBase}/${def.screen}/index`;
const NEW_OPTION = { optionText: "" };
const NEW_QUESTION = { questionTitle: "", selectType: "1", options: [NEW_OPTION, NEW_OPTION] };

interface StoredQuestion {
  questionTitle: string;
  selectType: string;
  options: Array<{ optionText: string }>;
}

/** A survey's form: its declared fields, then its questions, each with its options (spec §2 satisfactionsurve create, edit/{id}). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadForm(request, context, def, params.id);
}

/** The API names a row's field `questions.0.options`; the form's inputs are `questions[0].options`. */
const formName = (path: string) => path.replace(/\.(\d+)/g, "[$1]");

export async function action({ request, context, params }: Route.ActionArgs) {
  const mode = params.id ? "edit" : "create";
  // Adding or removing a row (a submit button's intent) comes back here too: the page re-renders with it, no script needed.
  const submission = parseWithZod(await request.formData(), { schema: surveyFormSchema(mode) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(def, mode === "create" ? "create" : "update"), { body: submission.value });
  if (result.status !== 200) {
    const errors = fieldErrorsOf(result);
    const fieldErrors = errors && Object.fromEntries(Object.entries(errors).map(([k, v]) => [formName(k), v]));
    return data(submission.reply(fieldErrors ? { fieldErrors } : { formErrors: [result.message || "Error"] }), { status: refusalStatus(result) });
  }
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie("保存成功") } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.mode === "edit" ? "编辑" : "新增"}满意度调查 - ${t.appTitle}` }];
}

type OptionMeta = FieldMetadata<{ optionText: string }>;

function QuestionCard({
  index,
  question,
  remove,
  addOption,
  removeOption,
  dicts,
}: {
  index: number;
  question: FieldMetadata<StoredQuestion>;
  remove: Record<string, unknown>;
  addOption: Record<string, unknown>;
  removeOption: (optionIndex: number) => Record<string, unknown>;
  dicts: ReturnType<typeof useDicts>;
}) {
  const q = question.getFieldset();
  const options = q.options.getFieldList() as OptionMeta[];
  return (
    <Card withBorder radius="md" padding="md" data-testid="survey-question">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <Badge variant="light" size="lg" mt={26} radius="sm">
          {index + 1}
        </Badge>
        <TextInput {...getInputProps(q.questionTitle, { type: "text" })} label={`第 ${index + 1} 题`} withAsterisk error={q.questionTitle.errors?.[0]} style={{ flex: 1 }} />
        <NativeSelect {...getSelectProps(q.selectType)} label="选择类型" withAsterisk data={dicts.selectType ?? []} error={q.selectType.errors?.[0]} w={120} />
        <ActionIcon {...remove} type="submit" variant="subtle" color="red" mt={26} aria-label={`删除第 ${index + 1} 题`}>
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
      <Stack gap={6} mt="sm" pl={44}>
        {q.options.errors?.[0] && (
          <Text size="sm" c="red" role="alert">
            {q.options.errors[0]}
          </Text>
        )}
        {options.map((option, o) => {
          const fields = option.getFieldset();
          return (
            <Group key={option.key} gap="xs" wrap="nowrap" data-testid="survey-option">
              <Text size="sm" c="dimmed" w={20} ta="right">
                {String.fromCharCode(65 + o)}
              </Text>
              <TextInput {...getInputProps(fields.optionText, { type: "text" })} aria-label={`第 ${index + 1} 题选项 ${String.fromCharCode(65 + o)}`} placeholder="选项内容" error={fields.optionText.errors?.[0]} style={{ flex: 1 }} size="sm" />
              <ActionIcon {...removeOption(o)} type="submit" variant="subtle" color="gray" aria-label={`删除第 ${index + 1} 题选项 ${String.fromCharCode(65 + o)}`}>
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          );
        })}
        {options.length < SURVEY_LIMITS.options && (
          <Group>
            <Button {...addOption} type="submit" variant="subtle" size="xs" leftSection={<IconPlus size={14} />}>
              添加选项
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

export default function SurveyForm({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, record, options } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const stored = (record?.questions as StoredQuestion[] | undefined)?.map((q) => ({ questionTitle: q.questionTitle, selectType: q.selectType, options: q.options.map((o) => ({ optionText: o.optionText })) }));
  const answered = Number(record?.answerCount ?? 0);
  const [form, fields] = useForm({
    id: `survey-${record?.id ?? "new"}-${record?.updatedAt ?? ""}`,
    lastResult: actionData,
    defaultValue: {
      ...recordToForm(def, record),
      ...(record ? { id: String(record.id), updatedAt: String(record.updatedAt) } : {}),
      questions: stored ?? [NEW_QUESTION],
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: surveyFormSchema(mode) }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  const questionsField = fields.questions as unknown as FieldMetadata<StoredQuestion[]>;
  const questions = questionsField.getFieldList();
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{mode === "edit" ? "编辑" : "新增"}满意度调查</Title>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            {answered > 0 && (
              <Alert color="blue" variant="light">
                已有 {answered} 人作答：题目和选项不能再修改，可修改名称、说明、日期和发布状态。
              </Alert>
            )}
            {record && (
              <>
                <input type="hidden" name="id" value={String(record.id)} />
                <input type="hidden" name="updatedAt" value={String(record.updatedAt)} />
              </>
            )}
            <ResourceFields fields={formFields(def)} metas={metas} dicts={dicts} options={options} />
            <Divider label="题目" labelPosition="left" mt="sm" />
            {questionsField.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {questionsField.errors[0]}
              </Alert>
            )}
            {questions.map((question, index) => (
              <QuestionCard
                key={question.key}
                index={index}
                question={question}
                dicts={dicts}
                remove={form.remove.getButtonProps({ name: questionsField.name, index })}
                addOption={form.insert.getButtonProps({ name: question.getFieldset().options.name, defaultValue: NEW_OPTION })}
                removeOption={(o) => form.remove.getButtonProps({ name: question.getFieldset().options.name, index: o })}
              />
            ))}
            <Group justify="space-between" mt="md">
              {questions.length < SURVEY_LIMITS.questions ? (
                <Button {...form.insert.getButtonProps({ name: questionsField.name, defaultValue: NEW_QUESTION })} type="submit" variant="light" leftSection={<IconPlus size={16} />}>
                  添加题目
                </Button>
              ) : (
                <span />
              )}
              <Group gap="sm">
                <Button component={Link} to={LIST_PATH} variant="default">
                  取消
                </Button>
                <Button type="submit" loading={navigation.state === "submitting"}>
                  保存
                </Button>
              </Group>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
