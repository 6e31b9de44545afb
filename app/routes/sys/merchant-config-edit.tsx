import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, formFields } from "../../../resources/define";
import { formSchema, recordToForm } from "../../../resources/forms";
import { merchantConfig } from "../../../resources/sys/merchantConfig";
import type { Route } from "./+types/merchant-config-edit";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { formReply } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { ts } from "~/lib/sys-messages";
import { useFocusOnRefusal } from "~/lib/form-focus";

type Row = Record<string, unknown>;

const LIST = `${merchantConfig.screenBase}/${merchantConfig.screen}/index`;
/** The merchant and the parameter are the page's address; only the value and remark are edited. */
const KEY_FIELDS = new Set(["merchantId", "parameterCode"]);
const editable = formFields(merchantConfig).filter((f) => !KEY_FIELDS.has(f.name));

/** Spec §2 merchantconfig edit/{merchantId}/{parameterCode}. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const result = await apiCall<Row>(request, context, "GET", apiPath(merchantConfig, "getByKey"), {
    query: { merchantId: params.merchantId, parameterCode: params.parameterCode },
  });
  if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
  if (result.status !== 200) throw data(null, { status: 401 });
  return { record: result.data };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: formSchema(merchantConfig, "edit") });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A field emptied in the form arrives absent; here that means "clear it".
  const body: Row = { ...submission.value };
  for (const field of editable) body[field.name] ??= null;
  const result = await apiCall(request, context, "POST", apiPath(merchantConfig, "update"), { body });
  if (result.status !== 200) return formReply(submission, result);
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ts.saved) } });
}

export function meta() {
  return [{ title: `${ts.merchantConfig.title} - ${t.appTitle}` }];
}

function Info({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value === null || value === undefined || value === "" ? ts.merchantConfig.none : String(value)}
      </Text>
    </div>
  );
}

export default function MerchantConfigEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { record } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const schema = formSchema(merchantConfig, "edit");
  const [form, fields] = useForm({
    id: `merchant-config-${record.id}-${record.updatedAt}`,
    lastResult: actionData,
    defaultValue: recordToForm(merchantConfig, record),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  const m = ts.merchantConfig;
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{m.title}</Title>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            <input type="hidden" name="id" value={String(record.id)} />
            <input type="hidden" name="updatedAt" value={String(record.updatedAt)} />
            <input type="hidden" name="merchantId" value={String(record.merchantId)} />
            <input type="hidden" name="parameterCode" value={String(record.parameterCode)} />
            <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="md" data-testid="merchant-config-key">
              <Info label={m.merchant} value={record.merchantIdLabel} />
              <Info label={m.code} value={record.parameterCode} />
              <Info label={m.name} value={record.parameterName} />
              <Info label={m.defaultValue} value={record.defaultValue} />
            </SimpleGrid>
            <ResourceFields fields={editable} metas={metas} dicts={dicts} options={{}} />
            <Group justify="flex-end" gap="sm" mt="md">
              <Button component={Link} to={LIST} variant="default">
                {ts.cancel}
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {ts.save}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
