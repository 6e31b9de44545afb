import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Anchor, Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, formFields } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { formSchema, recordToForm } from "../../../resources/forms";
import { iccardInit } from "../../../resources/sys/iccardInit";
import type { Route } from "./+types/iccard-init";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { ts } from "~/lib/sys-messages";
import { useFocusOnRefusal } from "~/lib/form-focus";

type Row = Record<string, unknown>;
const BASE = `${iccardInit.screenBase}/${iccardInit.screen}`;

/** Spec §2 iccard init: record a card's initialisation, with the latest ones below. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const recent = await apiCall<{ records: Row[] }>(request, context, "GET", apiPath(iccardInit, "findPage"), {
    query: { pageSize: 10, sort: "initializedAt,desc" },
  });
  requirePermitted(recent);
  return { recent: recent.data?.records ?? [] };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: formSchema(iccardInit, "create") });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall<Row>(request, context, "POST", apiPath(iccardInit, "create"), { body: submission.value });
  if (result.status !== 200) return formReply(submission, result);
  return redirect(`${BASE}/init`, { headers: { "Set-Cookie": flashCookie(ts.iccard.done(String(result.data.cardSerial))) } });
}

export function meta() {
  return [{ title: `${ts.iccard.title} - ${t.appTitle}` }];
}

export default function IccardInit({ loaderData, actionData }: Route.ComponentProps) {
  const dicts = useDicts();
  const navigation = useNavigation();
  const schema = formSchema(iccardInit, "create");
  const [form, fields] = useForm({
    id: `iccard-init-${loaderData.recent[0]?.id ?? "first"}`,
    lastResult: actionData,
    defaultValue: recordToForm(iccardInit, null),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  const c = ts.iccard.columns;
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{ts.iccard.title}</Title>
      <Text size="sm" c="dimmed">
        {ts.iccard.hint}
      </Text>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            <ResourceFields fields={formFields(iccardInit)} metas={metas} dicts={dicts} options={{}} />
            <Group justify="flex-end">
              <Button type="submit" loading={navigation.state === "submitting"}>
                {ts.iccard.submit}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <Group justify="space-between">
        <Title order={5}>{ts.iccard.recent}</Title>
        <Anchor component={Link} to={`${BASE}/index`} size="sm">
          {ts.iccard.all}
        </Anchor>
      </Group>
      <Paper withBorder radius="md">
        <ScrollArea>
          <Table striped verticalSpacing="xs" data-testid="iccard-recent">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.serial}</Table.Th>
                <Table.Th>{c.keyVersion}</Table.Th>
                <Table.Th>{c.sectors}</Table.Th>
                <Table.Th>{c.result}</Table.Th>
                <Table.Th>{c.operator}</Table.Th>
                <Table.Th>{c.time}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loaderData.recent.map((r) => (
                <Table.Tr key={String(r.id)}>
                  <Table.Td ff="monospace">{String(r.cardSerial)}</Table.Td>
                  <Table.Td>{String(r.keyVersion)}</Table.Td>
                  <Table.Td>{String(r.sectors)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={String(r.result) === "1" ? "brand" : "red"} radius="sm">
                      {dictLabel(dicts, "iccardInitResult", r.result)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{String(r.operatorName ?? "")}</Table.Td>
                  <Table.Td>{formatTime(Number(r.initializedAt))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {!loaderData.recent.length && (
            <Text c="dimmed" ta="center" py="lg">
              {ts.iccard.empty}
            </Text>
          )}
        </ScrollArea>
      </Paper>
    </Stack>
  );
}
