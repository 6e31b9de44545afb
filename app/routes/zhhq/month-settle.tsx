import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCalculator, IconLock } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { warehouseAccountMonthSettle as def } from "../../../resources/zhhq/closing";
import type { Route } from "./+types/month-settle";
import { ConfirmAction } from "~/components/ConfirmAction";
import { apiCall } from "~/lib/api.server";
import { confirmedOf } from "~/lib/confirm.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { formatCount, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { chinaMonth } from "../../../resources/chinaTime";

/**
 * 月末结账's two steps (issue 41, decision 073): 生成 makes a month's stock account again from the ledger, 转正式
 * makes it again and locks the month (confirmed first: no document may then be dated into it). Below, the months
 * made so far and their status.
 */

type Month = { month: string; status: string; rowCount: number | null; generatedAt: number | null; confirmedAt: number | null };
const BASE = `${def.screenBase}/${def.screen}`;
const API = "/api/v1/zhhq";
const STEPS = {
  generate: { title: "生成月结", button: "生成", note: "按单据日期从库存流水重新计算该月每个仓库、每种物资的期初、入库、出库与期末（数量与金额），保存为临时结果，可重复生成。已结账（正式）的月份不能重新生成。" },
  confirm: { title: "转正式", button: "转正式", note: "重新生成该月并锁定：此后任何单据的日期都不能在该月（审核时提示“已结账”）。该月须已结束，且更早有出入库的月份都已转正式。" },
} as const;
type Step = keyof typeof STEPS;
const stepOf = (value: string | undefined): Step => {
  if (value === "generate" || value === "confirm") return value;
  throw data(null, { status: 404 });
};

async function months(request: Request, context: Route.LoaderArgs["context"]) {
  const result = await apiCall<{ records: Month[] }>(request, context, "GET", `${API}/warehouseAccountMonth/findPage?pageSize=50`);
  return { result, list: result.status === 200 ? result.data.records : [] };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const step = stepOf(params.step);
  const { result, list } = await months(request, context);
  requirePermitted(result);
  const month = new URL(request.url).searchParams.get("month") ?? "";
  return { step, months: list, month: /^\d{4}-\d{2}$/.test(month) ? month : chinaMonth(Date.now()) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const step = stepOf(params.step);
  const form = await request.formData();
  const month = String(form.get("month") ?? "").trim();
  // 转正式 locks a month for good: confirmed first, naming the month and what its last 生成 held.
  if (step === "confirm" && !confirmedOf(form, "confirm") && /^\d{4}-\d{2}$/.test(month)) {
    const { list } = await months(request, context);
    const kept = list.find((m) => m.month === month && m.status !== "1");
    return { error: null, fieldError: null, month, review: kept ?? { month, status: "0", rowCount: null, generatedAt: null, confirmedAt: null } };
  }
  const result = await apiCall<{ month: string; rowCount: number }>(request, context, "POST", `${API}/warehouseAccountMonthSettle/${step}`, { body: { month } });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return data({ error: fieldErrors.month ? null : result.message, fieldError: fieldErrors.month?.[0] ?? null, month, review: null }, { status: refusalStatus(result) });
  }
  const done = step === "generate" ? `${result.data.month} 已生成（${result.data.rowCount} 行）` : `${result.data.month} 已转正式并锁定`;
  return redirect(`${BASE}/index?month=${result.data.month}`, { headers: { "Set-Cookie": flashCookie(done) } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${STEPS[params.step as Step]?.title ?? ""} - ${t.appTitle}` }];
}

export default function StockMonthSettle({ loaderData, actionData }: Route.ComponentProps) {
  const { step, months, month } = loaderData;
  const navigation = useNavigation();
  const { title, button, note } = STEPS[step];
  const review = actionData?.review ?? null;
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" id="stock-month-settle">
          <Stack>
            <Text size="sm" c="dimmed">
              {note}
            </Text>
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Group align="flex-end">
              <TextInput name="month" label="月份" description="格式 2026-05" withAsterisk required maxLength={7} w={200} defaultValue={actionData?.month ?? month} error={actionData?.fieldError ?? undefined} />
              <Button type="submit" color={step === "confirm" ? "orange" : undefined} leftSection={step === "confirm" ? <IconLock size={16} /> : <IconCalculator size={16} />} loading={navigation.state === "submitting"}>
                {button}
              </Button>
            </Group>
          </Stack>
        </Form>
        {step === "confirm" && (
          <ConfirmAction
            form="stock-month-settle"
            review={review}
            name="confirm"
            title="转正式"
            confirmLabel="确认转正式"
            color="orange"
            summary={
              review &&
              `将重新生成 ${review.month} 的月结${review.rowCount !== null ? `（上次生成 ${formatCount(review.rowCount)} 行）` : ""}并转为正式：此后任何单据的日期都不能在 ${review.month}，转正式后不能撤销。`
            }
          />
        )}
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Text fw={600}>已生成的月份</Text>
          {months.length ? (
            <Table striped highlightOnHover data-testid="settled-months">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>月份</Table.Th>
                  <Table.Th>状态</Table.Th>
                  <Table.Th ta="right">行数</Table.Th>
                  <Table.Th>生成时间</Table.Th>
                  <Table.Th>转正式时间</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {months.map((m) => (
                  <Table.Tr key={m.month}>
                    <Table.Td>
                      <Link to={`${BASE}/index?month=${m.month}`}>{m.month}</Link>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={m.status === "1" ? "green" : "gray"} leftSection={m.status === "1" ? <IconLock size={12} /> : undefined}>
                        {m.status === "1" ? "正式（已结账）" : "临时"}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(m.rowCount ?? 0)}</Table.Td>
                    <Table.Td>{m.generatedAt ? formatTime(m.generatedAt) : "—"}</Table.Td>
                    <Table.Td>{m.confirmedAt ? formatTime(m.confirmedAt) : "—"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              还没有生成过的月份。
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
