import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCalculator, IconLock } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/month-settle";
import { ConfirmAction } from "~/components/ConfirmAction";
import { apiCall } from "~/lib/api.server";
import { confirmedOf } from "~/lib/confirm.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { placeOptions } from "~/lib/places.server";
import { formatCount, formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { chinaMonth } from "../../resources/chinaTime";
import { monthSettleForPath } from "../../resources/index";
import { monthSettlePath, type MonthSettleDef } from "../../resources/monthSettle";
import { fillTemplate } from "../../resources/workflow";

/**
 * A month close's steps (decision 084), one screen for every declared close (账户月结, 月末结账, 商户结算): the step's
 * form (the month, and the place when the close asks one), the locking step confirmed first in a dialog naming what
 * it locks, and below it the months made so far. What differs between closes is their declaration.
 */

type Row = Record<string, unknown>;

function closeOf(request: Request, stepName: string | undefined) {
  const def = monthSettleForPath(new URL(request.url).pathname);
  const step = def?.steps.find((s) => s.name === stepName);
  if (!def || !step) throw data(null, { status: 404 });
  return { def, step };
}

async function monthsOf(request: Request, context: Route.LoaderArgs["context"], def: MonthSettleDef) {
  const result = await apiCall<Row[] | { records: Row[] }>(request, context, "GET", def.months);
  const list = result.status !== 200 ? [] : Array.isArray(result.data) ? result.data : result.data.records;
  return { result, list };
}

/** The restaurants and stalls a close may be asked for, by their kind's order in the declaration. */
const placesOf = (request: Request, context: Route.LoaderArgs["context"], def: MonthSettleDef) => (def.place ? placeOptions(request, context, def.place.orgTypes) : Promise.resolve([]));

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const { def, step } = closeOf(request, params.step);
  const { result, list } = await monthsOf(request, context, def);
  requirePermitted(result);
  const url = new URL(request.url);
  const month = url.searchParams.get("month") ?? "";
  return {
    def,
    step,
    months: list,
    places: await placesOf(request, context, def),
    month: /^\d{4}-\d{2}$/.test(month) ? month : chinaMonth(Date.now()),
    place: def.place ? (url.searchParams.get(def.place.name) ?? "") : "",
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { def, step } = closeOf(request, params.step);
  const form = await request.formData();
  const month = String(form.get("month") ?? "").trim();
  const place = def.place ? String(form.get(def.place.name) ?? "") : "";
  // The locking step is for good: confirmed first, in a step naming the month and what it holds.
  if (step.locks && !confirmedOf(form, step.name) && /^\d{4}-\d{2}$/.test(month)) {
    const { list } = await monthsOf(request, context, def);
    const kept = list.find((m) => m.month === month && String(m[def.status.field]) !== def.status.locked && (!place || String(m[def.place?.name ?? ""]) === place));
    if (kept || step.locks.withoutRow === "ask") {
      const placeName = place ? (await placesOf(request, context, def)).find((o) => o.value === place)?.label ?? "" : "";
      return { error: null, fieldError: null, month, place, review: { summary: fillTemplate(step.locks.review, { ...kept, month, placeName }) } };
    }
  }
  const body = { month, ...(def.place && place ? { [def.place.name]: place } : {}) };
  const result = await apiCall<Row & { month: string }>(request, context, "POST", `${def.api}/${step.name}`, { body });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    const fieldError = fieldErrors.month?.[0] ?? null;
    return data({ error: fieldError ? null : result.message, fieldError, month, place, review: null }, { status: refusalStatus(result) });
  }
  const done = fillTemplate(step.done, result.data);
  return redirect(`${monthSettlePath(def)}/index?month=${result.data.month}`, { headers: { "Set-Cookie": flashCookie(done) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.step.title ?? ""} - ${t.appTitle}` }];
}

function cell(kind: MonthSettleDef["columns"][number]["kind"], value: unknown) {
  if (kind === "money") return formatFen(Number(value ?? 0));
  if (kind === "count") return formatCount(Number(value ?? 0));
  if (kind === "time") return value ? formatTime(Number(value)) : "—";
  return String(value ?? "");
}

export default function MonthSettle({ loaderData, actionData }: Route.ComponentProps) {
  const { def, step, months, places, month, place } = loaderData;
  const navigation = useNavigation();
  const base = monthSettlePath(def);
  const review = actionData?.review ?? null;
  const locked = (m: Row) => String(m[def.status.field]) === def.status.locked;
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={3}>{step.title}</Title>
        <Button component={Link} to={`${base}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" id="month-settle">
          <Stack>
            <Text size="sm" c="dimmed">
              {step.note}
            </Text>
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Group align="flex-end">
              <TextInput name="month" label="月份" description="格式 2026-05" withAsterisk required maxLength={7} w={200} defaultValue={actionData?.month ?? month} error={actionData?.fieldError ?? undefined} />
              {def.place && (
                <NativeSelect name={def.place.name} label={def.place.label} description="不选为全部" w={220} data={[{ value: "", label: "全部" }, ...places]} defaultValue={actionData?.place ?? place} />
              )}
              <Button type="submit" color={step.locks ? "orange" : undefined} leftSection={step.locks ? <IconLock size={16} /> : <IconCalculator size={16} />} loading={navigation.state === "submitting"}>
                {step.button}
              </Button>
            </Group>
          </Stack>
        </Form>
        {step.locks && (
          <ConfirmAction
            form="month-settle"
            review={review}
            name={step.name}
            title={step.title}
            confirmLabel={step.locks.confirmLabel}
            color="orange"
            summary={review?.summary}
          />
        )}
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Text fw={600}>{def.heading}</Text>
          {months.length ? (
            <Table striped highlightOnHover data-testid="settled-months">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>月份</Table.Th>
                  <Table.Th>状态</Table.Th>
                  {def.columns.map((c) => (
                    <Table.Th key={c.key} ta={c.kind === "money" || c.kind === "count" ? "right" : undefined}>
                      {c.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {months.map((m) => (
                  <Table.Tr key={String(m.id ?? m.month)}>
                    <Table.Td>
                      <Link to={`${base}/index?month=${String(m.month)}`}>{String(m.month)}</Link>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={locked(m) ? "green" : "gray"} leftSection={locked(m) ? <IconLock size={12} /> : undefined}>
                        {locked(m) ? def.status.lockedLabel : def.status.openLabel}
                      </Badge>
                    </Table.Td>
                    {def.columns.map((c) => (
                      <Table.Td key={c.key} ta={c.kind === "money" || c.kind === "count" ? "right" : undefined}>
                        {cell(c.kind, m[c.key])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              {def.empty}
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
