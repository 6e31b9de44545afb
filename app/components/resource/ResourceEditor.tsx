import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useRef } from "react";
import { Form, Link, useBlocker, useNavigation } from "react-router";
import { formFields, type ResourceDef } from "../../../resources/define";
import { formSchema, recordToForm } from "../../../resources/forms";
import type { RelationSource } from "./relation-search";
import { ResourceFields } from "./ResourceFields";
import { useDicts } from "~/lib/dicts";
import { useFocusOnRefusal } from "~/lib/form-focus";

type Row = Record<string, unknown>;

/**
 * A declared resource's form: its create or edit page, or the form an index-only list opens above its rows. Cancel
 * goes to `cancelTo`; leaving for another page with unsaved changes asks first.
 */
export function ResourceEditor({
  def,
  formKey,
  mode,
  record,
  prefill,
  options,
  sources,
  lastResult,
  cancelTo,
  intent,
}: {
  def: ResourceDef;
  formKey: string;
  mode: "create" | "edit";
  record: Row | null;
  /** A new record's values named by the page's URL (form values: a picker's id as a string). */
  prefill?: Record<string, string>;
  options: Record<string, { value: string; label: string }[]>;
  sources: Record<string, RelationSource>;
  lastResult: SubmissionResult<string[]> | undefined;
  cancelTo: string;
  /** Sent as `intent` when the form shares its page's action with others (an index-only list). */
  intent?: string;
}) {
  const dicts = useDicts();
  const navigation = useNavigation();
  const submitting = useRef(false);
  const schema = formSchema(def, mode);
  const [form, fields] = useForm({
    id: `${formKey}-${mode}-${record?.id ?? "new"}`,
    lastResult,
    defaultValue: { ...recordToForm(def, record), ...prefill, ...(record ? { id: String(record.id), updatedAt: String(record.updatedAt) } : {}) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit: () => {
      submitting.current = true;
    },
  });
  const focusOnRefusal = useFocusOnRefusal(lastResult);
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

  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  return (
    <>
      <Form method="post" {...focusOnRefusal(getFormProps(form))}>
        <Stack gap="md">
          {form.errors?.[0] && (
            <Alert color="red" variant="light" role="alert">
              {form.errors[0]}
            </Alert>
          )}
          {intent && <input type="hidden" name="intent" value={intent} />}
          {record && (
            <>
              <input type="hidden" name="id" value={String(record.id)} />
              <input type="hidden" name="updatedAt" value={String(record.updatedAt)} />
            </>
          )}
          <ResourceFields fields={formFields(def)} metas={metas} dicts={dicts} options={options} sources={sources} />
          <Group justify="flex-end" gap="sm" mt="md">
            <Button component={Link} to={cancelTo} variant="default">
              取消
            </Button>
            <Button type="submit" loading={navigation.state === "submitting"}>
              保存
            </Button>
          </Group>
        </Stack>
      </Form>
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
    </>
  );
}
