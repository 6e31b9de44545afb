import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Suspense, useEffect, useMemo, useState } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, type LoaderFunctionArgs, type ActionFunctionArgs } from "react-router";
import { formFields } from "../../../resources/define";
import { DOC_NO, DOC_VERSION } from "../../../resources/document";
import { documentBase, documentFormSchema, documentToForm, formRows, totalledFields } from "../../../resources/document-form";
import { PlainLines } from "~/components/document/PlainLines";
import type { LinesProps } from "~/components/document/lines";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { useDicts } from "~/lib/dicts";
import { loadEditor, requireDocument, saveEditor } from "~/lib/document.server";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { t } from "~/lib/messages";
import { lazyPart } from "~/lib/lazy-part";

// The grid and mantine-react-table come in a chunk of their own, asked for only once a document's editor is up: no
// other page loads them (decision 061).
const LinesGrid = lazyPart(() => import("~/components/document/LinesGrid").then((m) => ({ default: m.LinesGrid })));

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadEditor(request, context, requireDocument(request), params.id);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return saveEditor(request, context, requireDocument(request), params.id);
}

export function meta({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> | undefined }) {
  return [{ title: `${loaderData?.mode === "edit" ? "编辑" : "新增"}${loaderData?.doc.title ?? ""} - ${t.appTitle}` }];
}

/** The plain table until the page's scripts run; then the grid, the same inputs by the same names. */
function LinesEditor(props: LinesProps & { totalled: string[] }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    LinesGrid.start();
    setHydrated(true);
  }, []);
  if (!hydrated) return <PlainLines {...props} />;
  return (
    <Suspense fallback={<PlainLines {...props} />}>
      <LinesGrid {...props} />
    </Suspense>
  );
}

/** A line row as conform gives it back after a refusal (a blank row comes back as nothing). */
const asRow = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v === null || v === undefined ? "" : String(v)]));

export default function DocumentEditor() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { doc, mode, record, sources } = loaderData;
  // A form that came back (增加行, a refusal) brings the narrowed pickers' options for the header as it was posted.
  const options = useMemo(() => ({ ...loaderData.options, ...(actionData?.options ?? {}) }), [loaderData.options, actionData?.options]);
  const result = actionData?.result as SubmissionResult<string[]> | undefined;
  const dicts = useDicts();
  const navigation = useNavigation();
  const schema = useMemo(() => documentFormSchema(doc, mode), [doc, mode]);
  const initial = useMemo(() => documentToForm(doc, record), [doc, record]);
  const [form, fields] = useForm({
    id: `${doc.docType}-${mode}-${record?.id ?? "new"}`,
    lastResult: result,
    defaultValue: { ...initial.header, ...(record ? { id: String(record.id), [DOC_VERSION]: String(record[DOC_VERSION]) } : {}) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(result);
  // The header fields that narrow line pickers (a return's source document), as chosen so far (decision 071).
  const narrowing = useMemo(() => [...new Set(doc.lines.fields.flatMap((f) => (f.narrowedBy ? [f.narrowedBy] : [])))], [doc]);
  const [header, setHeader] = useState<Record<string, string>>(() =>
    Object.fromEntries(narrowing.map((name) => [name, String((fields as Record<string, { initialValue?: unknown }>)[name]?.initialValue ?? "")])),
  );
  const onRelationChange = (name: string, value: string) => {
    if (narrowing.includes(name)) setHeader((current) => ({ ...current, [name]: value }));
  };
  // The rows as last posted (a refusal, 增加行), else the document's lines; spare blank rows up to the count.
  const posted = (result?.initialValue as { lines?: unknown } | undefined)?.lines;
  const lines = posted === undefined ? initial.lines : Array.from(Array.isArray(posted) ? posted : Object.values(posted ?? {}), asRow);
  const rows = formRows(doc, lines, actionData?.rows ?? loaderData.rows);
  const errors = form.allErrors;
  const base = documentBase(doc);
  const back = record ? `${base}/detail/${record.id}` : `${base}/index`;
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <Title order={3}>
          {mode === "edit" ? `编辑${doc.title}` : `新增${doc.title}`}
          {record && (
            <Text span c="dimmed" ml="sm" fz="lg">
              {String(record[DOC_NO])}
            </Text>
          )}
        </Title>
        {mode === "create" &&
          doc.pages
            .filter((p) => p.creates)
            .map((p) => (
              <Button key={p.path} component={Link} to={`${documentBase(doc)}/${p.path}`} variant="light">
                {p.label}
              </Button>
            ))}
      </Group>
      <Form method="post" {...focusOnRefusal(getFormProps(form))} data-testid="document-editor">
        {/* Enter in a field saves: the form's first submit button is its default, and 增加行 comes before 保存. */}
        <button type="submit" tabIndex={-1} aria-hidden="true" style={{ position: "absolute", left: -10000, width: 1, height: 1, overflow: "hidden" }} />
        <Stack gap="md">
          {form.errors?.[0] && (
            <Alert color="red" variant="light" role="alert">
              {form.errors[0]}
            </Alert>
          )}
          {record && (
            <>
              <input type="hidden" name="id" value={String(record.id)} />
              <input type="hidden" name={DOC_VERSION} value={String(record[DOC_VERSION])} />
            </>
          )}
          <Paper withBorder radius="md" p="lg">
            <ResourceFields fields={formFields(doc.header)} metas={metas} dicts={dicts} options={options} sources={sources} onRelationChange={onRelationChange} />
          </Paper>
          <Paper withBorder radius="md" p="lg">
            <Title order={5} mb="sm">
              {doc.linesTitle}
            </Title>
            {errors.lines?.[0] && (
              <Alert color="red" variant="light" role="alert" mb="sm" data-testid="lines-error">
                {errors.lines[0]}
              </Alert>
            )}
            <LinesEditor
              title={doc.linesTitle}
              fields={formFields(doc.lines)}
              rows={rows}
              errors={errors}
              dicts={dicts}
              options={options}
              sources={sources}
              header={header}
              totalled={totalledFields(doc).map((f) => f.name)}
            />
          </Paper>
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to={back} variant="default">
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
