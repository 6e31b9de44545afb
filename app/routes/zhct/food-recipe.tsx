import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useMemo } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "../../../resources/z";
import { formFields } from "../../../resources/define";
import { ADDED_LINE_ROWS, BLANK_LINE_ROWS, documentFormSchema, documentToForm, filledRows, formFieldErrors, formRows, MAX_FORM_ROWS, totalledFields } from "../../../resources/document-form";
import { food, foodRecipeForm as form } from "../../../resources/zhct/catalogue";
import type { Route } from "./+types/food-recipe";
import { LinesEditor } from "~/components/document/LinesEditor";
import { IconArrowLeft } from "~/components/icons";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { pickers } from "~/lib/document.server";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/**
 * A dish's 用料 (issue 37, decision 088): its recipe lines in the lines editor every document uses (a plain table of
 * inputs without scripts, the grid once they load), saved together through `POST /api/v1/zhct/food/recipe`.
 */

type Row = Record<string, unknown>;
type Recipe = { id: number; foodName: string; lines: Row[] };
const API = `/api/v1/${food.module}/${food.entity}/recipe`;
const LIST = `${food.screenBase}/${food.screen}/index`;

async function recipeOf(request: Request, context: Route.LoaderArgs["context"], id: string | undefined): Promise<Recipe> {
  if (!id || !/^\d{1,16}$/.test(id)) throw data(null, { status: 404 });
  const result = await apiCall<Recipe>(request, context, "GET", API, { query: { id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(null, { status: 404 });
  return result.data;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const recipe = await recipeOf(request, context, params.id);
  const { options, sources } = await pickers(request, context, [form.lines], recipe.lines as never);
  return { recipe, options, sources, rows: recipe.lines.length + BLANK_LINE_ROWS };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const posted = await request.formData();
  const rows = Math.min(MAX_FORM_ROWS, Math.max(BLANK_LINE_ROWS, Number(posted.get("rowCount")) || 0));
  if (posted.get("intent") === "addRows") {
    posted.delete("intent");
    // Nothing is checked yet: the user is still typing.
    return data({ result: parseWithZod(posted, { schema: z.unknown() }).reply(), rows: Math.min(MAX_FORM_ROWS, rows + ADDED_LINE_ROWS) });
  }
  const submission = parseWithZod(posted, { schema: documentFormSchema(form, "create") });
  if (submission.status !== "success") return data({ result: submission.reply(), rows }, { status: 400 });
  const lines = (submission.value as { lines: Row[] }).lines.map(({ goodsId, quantity }) => ({ goodsId, quantity }));
  const result = await apiCall<Recipe>(request, context, "POST", API, { body: { id: params.id, lines } });
  if (result.status !== 200) {
    const fieldErrors = (result.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors;
    const placed = fieldErrors ? formFieldErrors(fieldErrors, filledRows(form, submission.payload.lines)) : null;
    return data(
      { result: submission.reply(placed ? { fieldErrors: placed } : { formErrors: [result.message || "保存失败"] }), rows },
      { status: result.status === 403 ? 403 : result.status === 404 ? 404 : 400 },
    );
  }
  return redirect(new URL(request.url).pathname, { headers: { "Set-Cookie": flashCookie("用料已保存") } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.recipe.foodName ?? ""} 用料 - ${t.appTitle}` }];
}

/** A line row as conform gives it back after a refusal (a blank row comes back as nothing). */
const asRow = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v === null || v === undefined ? "" : String(v)]));

export default function FoodRecipe({ loaderData, actionData }: Route.ComponentProps) {
  const { recipe, options, sources } = loaderData;
  const result = actionData?.result as SubmissionResult<string[]> | undefined;
  const dicts = useDicts();
  const navigation = useNavigation();
  const schema = useMemo(() => documentFormSchema(form, "create"), []);
  const initial = useMemo(() => documentToForm(form, recipe), [recipe]);
  const [conform] = useForm({
    id: `food-recipe-${recipe.id}`,
    lastResult: result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(result);
  const postedLines = (result?.initialValue as { lines?: unknown } | undefined)?.lines;
  const lines = postedLines === undefined ? initial.lines : Array.from(Array.isArray(postedLines) ? postedLines : Object.values(postedLines ?? {}), asRow);
  const rows = formRows(form, lines, actionData?.rows ?? loaderData.rows);
  const errors = conform.allErrors;
  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between">
        <Title order={3}>
          用料
          <Text span c="dimmed" ml="sm" fz="lg">
            {recipe.foodName}
          </Text>
        </Title>
        <Button component={Link} to={LIST} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回菜品
        </Button>
      </Group>
      <Form method="post" {...focusOnRefusal(getFormProps(conform))} data-testid="recipe-editor">
        {/* Enter in a field saves: the form's first submit button is its default, and 增加行 comes before 保存. */}
        <button type="submit" tabIndex={-1} aria-hidden="true" style={{ position: "absolute", left: -10000, width: 1, height: 1, overflow: "hidden" }} />
        <Stack gap="md">
          {conform.errors?.[0] && (
            <Alert color="red" variant="light" role="alert">
              {conform.errors[0]}
            </Alert>
          )}
          <Paper withBorder radius="md" p="lg">
            <Text size="sm" c="dimmed" mb="sm">
              每份菜品所用的仓库物资及用量（按物资的单位，最多 3 位小数）。「理论与实际成本」按售出份数 × 每份用量计算理论用量。
            </Text>
            <LinesEditor
              title={form.linesTitle}
              fields={formFields(form.lines)}
              rows={rows}
              errors={errors}
              dicts={dicts}
              options={options}
              sources={sources}
              totalled={totalledFields(form).map((f) => f.name)}
            />
          </Paper>
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to={LIST} variant="default">
              取消
            </Button>
            <Button type="submit" loading={navigation.state === "submitting"}>
              保存
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}
