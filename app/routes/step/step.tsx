import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { allowedFrom, fillTemplate, statusColor } from "../../../resources/workflow";
import { ConfirmAction, type ConfirmRefusal } from "~/components/ConfirmAction";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { Fact } from "~/components/resource/Fact";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { Permission } from "~/components/shell/Permission";
import { FieldValue } from "~/components/resource/cells";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { loadStep, takeStep } from "~/lib/step.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadStep(request, context, params.id);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return takeStep(request, context, params.id);
}

export function meta({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> | undefined }) {
  return [{ title: `${loaderData?.step.title ?? ""} - ${t.appTitle}` }];
}

/** A refusal of the step's own fields (补卡's new card number), with what was typed. */
type FieldsRefusal = ConfirmRefusal & { fieldErrors?: Record<string, string[] | undefined>; typed?: Record<string, string> };

/** The step for a user who holds its button (or any user, when its endpoint decides who may take it). */
const Allowed = ({ code, children }: { code: string | null; children: ReactNode }) => (code ? <Permission code={code}>{children}</Permission> : <>{children}</>);

/** `bindStatus` → `bind-status`: the status badge's test id, named by its field. */
const testIdOf = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * One step of a row (decision 070): the row's facts and status, what the step does, and the step itself — a plain
 * button, or the confirmation (decision 055) when the declaration gives one or the step asks a reason. A status the
 * step does not start from says so instead; the API refuses it the same way.
 */
export default function Step() {
  const { record, listPath, facts, status, refusal, step, idempotencyKey, pickers } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as FieldsRefusal | undefined;
  const dicts = useDicts();
  const navigation = useNavigation();
  const statusLabel = dictLabel(dicts, status.dict ?? "", record[status.name]);
  const values = { ...record, label: step.label, status: statusLabel, note: step.note ?? "" };
  const hidden = idempotencyKey ? { idempotencyKey } : undefined;
  const inputs = step.input.map((f, i) =>
    f.type === "relation" ? (
      <RelationSelect
        key={f.name}
        name={f.name}
        label={f.label}
        source={pickers[f.name]?.source ?? null}
        initialOptions={pickers[f.name]?.options ?? []}
        defaultValue={answer?.typed?.[f.name] ?? ""}
        required={f.required}
        error={answer?.fieldErrors?.[f.name]?.[0]}
      />
    ) : (
      <TextInput
        key={f.name}
        name={f.name}
        label={f.label}
        withAsterisk={f.required}
        required={f.required}
        maxLength={f.max}
        defaultValue={answer?.typed?.[f.name] ?? ""}
        error={answer?.fieldErrors?.[f.name]?.[0]}
        data-autofocus={i === 0 || undefined}
      />
    ),
  );
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between">
        <Title order={3}>{step.title}</Title>
        <Button component={Link} to={listPath} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {facts.map((f) => (
            <Fact key={f.name} label={f.label}>
              <FieldValue field={f} record={record} dicts={dicts} />
            </Fact>
          ))}
          <Fact label={status.label}>
            <Badge variant="light" color={statusColor(status, record[status.name])} data-testid={testIdOf(status.name)}>
              {statusLabel}
            </Badge>
          </Fact>
        </SimpleGrid>
      </Card>
      {!step.confirm && !step.reasonLabel && answer?.error && (
        <Alert color="red" variant="light" role="alert">
          {answer.error}
        </Alert>
      )}
      {allowedFrom(step, record[status.name]) ? (
        <Allowed code={step.permission}>
          <Card withBorder radius="md" padding="lg">
            <Group justify="space-between" wrap="nowrap" gap="md">
              <Text size="sm" c="dimmed">
                {step.note}
              </Text>
              {/* The button keeps its width beside a long note. */}
              <div style={{ flexShrink: 0 }}>
                {step.confirm || step.reasonLabel ? (
                  <ConfirmAction
                    name={step.name}
                    title={step.title}
                    confirmLabel={`确认${step.title}`}
                    color={step.color}
                    reasonLabel={step.reasonLabel ?? undefined}
                    refusal={answer}
                    hidden={hidden}
                    summary={fillTemplate(step.confirm ?? "{label}：{note}", values)}
                  >
                    {inputs.length > 0 && inputs}
                  </ConfirmAction>
                ) : (
                  <Form method="post">
                    {idempotencyKey && <input type="hidden" name="idempotencyKey" value={idempotencyKey} />}
                    <Button type="submit" color={step.color} leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                      确认{step.title}
                    </Button>
                  </Form>
                )}
              </div>
            </Group>
          </Card>
        </Allowed>
      ) : (
        <Alert color="gray" variant="light">
          {fillTemplate(refusal, { status: statusLabel, action: step.label })}。
        </Alert>
      )}
    </Stack>
  );
}
