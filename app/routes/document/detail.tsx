import { Alert, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link, useActionData, useLoaderData, useNavigation, type LoaderFunctionArgs, type ActionFunctionArgs } from "react-router";
import { DOC_NO, DOC_STATUS, DOC_VERSION } from "../../../resources/document";
import { documentBase, totalledFields } from "../../../resources/document-form";
import { ConfirmAction, type ConfirmRefusal } from "~/components/ConfirmAction";
import { DocumentAllocations, DocumentLines, shownLineFields } from "~/components/document/DocumentLines";
import { StatusBadge, statusIn } from "~/components/document/StatusBadge";
import { Fact } from "~/components/resource/Fact";
import { FieldValue } from "~/components/resource/cells";
import { IconArrowLeft, IconPencil, IconPrinter } from "~/components/icons";
import { useDicts } from "~/lib/dicts";
import { loadDetail, requireDocument, takeTransition } from "~/lib/document.server";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadDetail(request, context, requireDocument(request), params.id);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return takeTransition(request, context, requireDocument(request), params.id);
}

export function meta({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> | undefined }) {
  return [{ title: `${loaderData?.doc.title ?? ""} ${String(loaderData?.record[DOC_NO] ?? "")} - ${t.appTitle}` }];
}

interface HistoryRow {
  id: number;
  actionLabel: string;
  fromStatus: string | null;
  toStatus: string;
  reason: string | null;
  operatorName: string | null;
  createdAt: number;
}

/**
 * A document as read (decision 061): its header, lines with their sums, the status history, and the steps the loader
 * says the status and the user's permissions allow. A step that needs a reason or cannot be taken back asks in
 * the confirmation dialog (decision 055); a refusal shows in the API's words.
 */
export default function DocumentDetail() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { doc, record, status, transitions, canEdit, pages } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const base = documentBase(doc);
  const refusal = actionData as (ConfirmRefusal & { transition?: string; typed?: Record<string, string> }) | undefined;
  const version = String(record[DOC_VERSION]);
  const headerFields = doc.header.fields.filter((f) => !f.hidden && f.name !== DOC_NO && f.name !== DOC_STATUS);
  const lineFields = shownLineFields(doc.lines.fields);
  const history = (record.history as HistoryRow[] | undefined) ?? [];
  const plainSteps = transitions.filter((s) => !s.reasonRequired && !s.confirm && !s.input.length);
  const plainRefusal = refusal?.error && plainSteps.some((s) => s.name === refusal.transition) ? refusal.error : null;
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={3}>{doc.title}</Title>
            <StatusBadge status={status} />
          </Group>
          <Text c="dimmed" size="sm" mt={4} data-testid="document-number">
            {String(record[DOC_NO])}
          </Text>
        </div>
        <Group gap="xs">
          <Button component={Link} to={`${base}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
            返回列表
          </Button>
          {/* The print view opens in its own tab on the paper chosen here; it offers the other paper too (decision 082). */}
          <Button.Group>
            <Button component="a" href={`${base}/print/${record.id}?paper=a4`} target="_blank" variant="default" leftSection={<IconPrinter size={16} />}>
              打印
            </Button>
            <Button component="a" href={`${base}/print/${record.id}?paper=80mm`} target="_blank" variant="default" aria-label="打印 80mm 小票">
              80mm
            </Button>
          </Button.Group>
          {canEdit && (
            <Button component={Link} to={`${base}/edit/${record.id}`} variant="light" leftSection={<IconPencil size={16} />}>
              编辑
            </Button>
          )}
        </Group>
      </Group>
      {plainRefusal && (
        <Alert color="red" variant="light" role="alert">
          {plainRefusal}
        </Alert>
      )}
      {transitions.length + pages.length > 0 && (
        <Group gap="xs" data-testid="document-transitions">
          {plainSteps.map((step) => (
            <Form method="post" key={step.name}>
              <input type="hidden" name="transition" value={step.name} />
              <input type="hidden" name={DOC_VERSION} value={version} />
              <Button type="submit" loading={navigation.state === "submitting" && navigation.formData?.get("transition") === step.name}>
                {step.label}
              </Button>
            </Form>
          ))}
          {transitions
            .filter((s) => s.reasonRequired || s.confirm || s.input.length)
            .map((step) => (
              <ConfirmAction
                key={step.name}
                name={step.name}
                title={step.label}
                summary={step.confirm ?? `${step.label}${doc.title}「${String(record[DOC_NO])}」，状态将变为「${statusIn(doc.statuses, step.to).label}」。`}
                confirmLabel={`确认${step.label}`}
                reasonLabel={step.reasonRequired ? `${step.label}原因` : undefined}
                hidden={{ transition: step.name, [DOC_VERSION]: version }}
                refusal={refusal?.transition === step.name ? refusal : null}
                color={step.reasonRequired ? "red" : "blue"}
              >
                {step.input.map((f, i) => (
                  <TextInput
                    key={f.name}
                    name={f.name}
                    label={f.label}
                    withAsterisk={f.required}
                    required={f.required}
                    inputMode={f.type === "money" ? "decimal" : undefined}
                    defaultValue={refusal?.transition === step.name ? (refusal.typed?.[f.name] ?? "") : ""}
                    data-autofocus={i === 0 || undefined}
                  />
                ))}
              </ConfirmAction>
            ))}
          {pages.map((page) => (
            <Button key={page.to} component={Link} to={page.to} variant="light">
              {page.label}
            </Button>
          ))}
        </Group>
      )}
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {headerFields.map((f) => (
            <Fact key={f.name} label={f.label}>
              <FieldValue field={f} record={record} dicts={dicts} />
            </Fact>
          ))}
          <Fact label="制单时间">{formatTime(record.createdAt as number)}</Fact>
        </SimpleGrid>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Title order={5} mb="sm">
          {doc.linesTitle}
        </Title>
        <DocumentLines fields={lineFields} lines={(record.lines as Record<string, unknown>[]) ?? []} totalled={totalledFields(doc).map((f) => f.name)} dicts={dicts} />
      </Card>
      {((record.lines as Record<string, unknown>[]) ?? []).some((l) => (l.allocations as unknown[] | undefined)?.length) && (
        <Card withBorder radius="md" padding="lg">
          <Title order={5} mb="sm">
            批次明细
          </Title>
          <DocumentAllocations lines={(record.lines as Record<string, unknown>[]) ?? []} />
        </Card>
      )}
      <Card withBorder radius="md" padding="lg">
        <Title order={5} mb="sm">
          审批记录
        </Title>
        <Table verticalSpacing={6} data-testid="document-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>时间</Table.Th>
              <Table.Th>操作</Table.Th>
              <Table.Th>操作人</Table.Th>
              <Table.Th>状态</Table.Th>
              <Table.Th>原因</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>{formatTime(h.createdAt)}</Table.Td>
                <Table.Td>{h.actionLabel}</Table.Td>
                <Table.Td>{h.operatorName ?? "—"}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    {h.fromStatus !== null && (
                      <>
                        <StatusBadge plain status={statusIn(doc.statuses, h.fromStatus)} />
                        <Text span c="dimmed">
                          →
                        </Text>
                      </>
                    )}
                    <StatusBadge plain status={statusIn(doc.statuses, h.toStatus)} />
                  </Group>
                </Table.Td>
                <Table.Td>{h.reason ?? ""}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
