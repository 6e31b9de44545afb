import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from "@mantine/core";
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useBlocker, useNavigation } from "react-router";
import { formFields, resourceKey, type ResourceDef } from "../../../resources/define";
import { formSchema, recordToForm } from "../../../resources/forms";
import { findResource } from "../../../resources/index";
import type { Route } from "./+types/form";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";
import { focusFirstInvalid } from "~/lib/form-focus";
import { t } from "~/lib/messages";
import { apiPath, requireResource } from "~/lib/resource.server";
import { flashCookie } from "~/lib/session.server";

type Row = Record<string, unknown>;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const def = requireResource(request);
  const mode: "create" | "edit" = params.id ? "edit" : "create";
  let record: Row | null = null;
  if (params.id) {
    const result = await apiCall<Row>(request, context, "GET", apiPath(def, "getInfo"), { query: { id: params.id } });
    if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
    if (result.status !== 200) throw data(null, { status: 401 });
    record = result.data;
  }
  const options: Record<string, { value: string; label: string }[]> = {};
  for (const field of formFields(def).filter((f) => (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const target = findResource(field.relation as string);
    if (!target) continue;
    const page = await apiCall<{ records: Row[] }>(request, context, "GET", apiPath(target, "findPage"), { query: { pageSize: 100 } });
    const list = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: String(r[target.labelField]) }));
    const current = record?.[field.name];
    if (current !== null && current !== undefined && !list.some((o) => o.value === String(current))) {
      list.unshift({ value: String(current), label: String(record?.[`${field.name}Label`] ?? current) });
    }
    options[field.name] = list;
  }
  return { key: resourceKey(def), mode, record, options };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const def = requireResource(request);
  const mode = params.id ? "edit" : "create";
  const submission = parseWithZod(await request.formData(), { schema: formSchema(def, mode) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(def, mode === "create" ? "create" : "update"), { body: submission.value });
  if (result.status !== 200) {
    const fieldErrors = (result.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors;
    return data(submission.reply(fieldErrors ? { fieldErrors } : { formErrors: [result.message || "Error"] }), {
      status: result.status === 409 ? 409 : 400,
    });
  }
  return redirect(`${def.screenBase}/${def.screen}/index`, { headers: { "Set-Cookie": flashCookie("保存成功") } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData ? findResource(loaderData.key) : undefined;
  return [{ title: `${loaderData?.mode === "edit" ? "编辑" : "新增"}${def?.title ?? ""} - ${t.appTitle}` }];
}

export default function ResourceForm({ loaderData, actionData }: Route.ComponentProps) {
  const def = findResource(loaderData.key) as ResourceDef;
  const { mode, record, options } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const submitting = useRef(false);
  const schema = formSchema(def, mode);
  const [form, fields] = useForm({
    id: `${loaderData.key}-${mode}-${record?.id ?? "new"}`,
    lastResult: actionData,
    defaultValue: { ...recordToForm(def, record), ...(record ? { id: String(record.id), updatedAt: String(record.updatedAt) } : {}) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit: () => {
      submitting.current = true;
    },
  });
  const formRef = useRef<HTMLFormElement>(null);
  const formProps = getFormProps(form);
  useEffect(() => {
    if (actionData) focusFirstInvalid(formRef.current);
  }, [actionData]);
  const dirty = form.dirty && !submitting.current;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (navigation.state === "idle") submitting.current = false;
  }, [navigation.state]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const listPath = `${def.screenBase}/${def.screen}/index`;
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>
        {mode === "edit" ? "编辑" : "新增"}
        {def.title}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <Form
          method="post"
          {...formProps}
          ref={formRef}
          onSubmit={(event) => {
            formProps.onSubmit(event);
            const element = event.currentTarget;
            if (event.defaultPrevented && !submitting.current) requestAnimationFrame(() => focusFirstInvalid(element));
          }}
        >
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            {record && (
              <>
                <input type="hidden" name="id" value={String(record.id)} />
                <input type="hidden" name="updatedAt" value={String(record.updatedAt)} />
              </>
            )}
            <ResourceFields fields={formFields(def)} metas={metas} dicts={dicts} options={options} />
            <Group justify="flex-end" gap="sm" mt="md">
              <Button component={Link} to={listPath} variant="default">
                取消
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                保存
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <Modal opened={blocker.state === "blocked"} onClose={() => blocker.reset?.()} title="离开此页面？" centered>
        <Text size="sm">表单中有尚未保存的修改，离开后这些修改将丢失。</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            留在此页
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            离开
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
