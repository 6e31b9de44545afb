import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCalculator, IconLock } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { userAccountMonthSettle as def } from "../../../resources/zhct/settle";
import type { Route } from "./+types/month-settle";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { redirect } from "react-router";
import { chinaMonth } from "../../../resources/chinaTime";

type Month = { month: string; count: number; settleStatus: string; opening: number; closing: number; generatedAt: number };
const BASE = `${def.screenBase}/${def.screen}`;
const STEPS = {
  generate: { title: "生成月结", button: "生成", note: "按流水重新计算该月每个账户的期初、充值、退款、冲正、补贴、清零、消费与期末，保存为暂存。正式的月份不能重新生成。" },
  formal: { title: "转正式", button: "转正式", note: "核对暂存结算与流水一致、上月已正式，然后锁定该月：此后不能再有任何流水记入该月。当月转正式后本月不能再充值或消费。" },
} as const;
type Step = keyof typeof STEPS;
const stepOf = (value: string | undefined): Step => {
  if (value === "generate" || value === "formal") return value;
  throw data(null, { status: 404 });
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const step = stepOf(params.step);
  const result = await apiCall<Month[]>(request, context, "GET", "/api/v1/zhct/userAccountMonthSettle/months");
  requirePermitted(result);
  const month = new URL(request.url).searchParams.get("month") ?? "";
  return { step, months: result.status === 200 ? result.data : [], month: /^\d{4}-\d{2}$/.test(month) ? month : chinaMonth(Date.now()) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const step = stepOf(params.step);
  const form = await request.formData();
  const month = String(form.get("month") ?? "").trim();
  const result = await apiCall<{ month: string; count: number }>(request, context, "POST", `/api/v1/zhct/userAccountMonthSettle/${step}`, { body: { month } });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return data({ error: fieldErrors.month ? null : result.message, fieldError: fieldErrors.month?.[0] ?? null, month }, { status: refusalStatus(result) });
  }
  const done = step === "generate" ? `${result.data.month} 已生成（${result.data.count} 个账户）` : `${result.data.month} 已转正式并锁定`;
  return redirect(`${BASE}/index?month=${result.data.month}`, { headers: { "Set-Cookie": flashCookie(done) } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${STEPS[params.step as Step]?.title ?? ""} - ${t.appTitle}` }];
}

export default function MonthSettle({ loaderData, actionData }: Route.ComponentProps) {
  const { step, months, month } = loaderData;
  const navigation = useNavigation();
  const { title, button, note } = STEPS[step];
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post">
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
              <Button type="submit" color={step === "formal" ? "orange" : undefined} leftSection={step === "formal" ? <IconLock size={16} /> : <IconCalculator size={16} />} loading={navigation.state === "submitting"}>
                {button}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Text fw={600}>已结算的月份</Text>
          {months.length ? (
            <Table striped highlightOnHover data-testid="settled-months">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>月份</Table.Th>
                  <Table.Th>状态</Table.Th>
                  <Table.Th ta="right">账户数</Table.Th>
                  <Table.Th ta="right">期初合计（元）</Table.Th>
                  <Table.Th ta="right">期末合计（元）</Table.Th>
                  <Table.Th>生成时间</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {months.map((m) => (
                  <Table.Tr key={m.month}>
                    <Table.Td>
                      <Link to={`${BASE}/index?month=${m.month}`}>{m.month}</Link>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={m.settleStatus === "1" ? "green" : "gray"} leftSection={m.settleStatus === "1" ? <IconLock size={12} /> : undefined}>
                        {m.settleStatus === "1" ? "正式（已锁定）" : "暂存"}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{m.count}</Table.Td>
                    <Table.Td ta="right">{formatFen(m.opening)}</Table.Td>
                    <Table.Td ta="right">{formatFen(m.closing)}</Table.Td>
                    <Table.Td>{formatTime(m.generatedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              还没有结算过的月份。
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
