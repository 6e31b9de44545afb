import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconPlayerPlay } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { scIncome as def } from "../../../resources/sc/master";
import type { Route } from "./+types/income-generate";
import { DateField } from "~/components/dates/DateField";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { formatCount, formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";
import { chinaDay, DAY_MS } from "../../../resources/chinaTime";

const BASE = `${def.screenBase}/${def.screen}`;
type Run = { from: string; to: string; rows: number; removed: number; amount: number; meals: number };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  // Yesterday, China time: the day a cashier's takings are usually closed for.
  const yesterday = chinaDay(Date.now() - DAY_MS);
  return { from: yesterday, to: yesterday };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const from = String(form.get("from") ?? "");
  const to = String(form.get("to") ?? "");
  const result = await apiCall<Run>(request, context, "POST", "/api/v1/sc/scIncome/generate", { body: { from, to } });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result);
    return data(
      { from, to, errors: { from: fieldErrors?.from?.[0] ?? null, to: fieldErrors?.to?.[0] ?? null }, formError: fieldErrors ? null : result.message || "生成失败", run: null },
      { status: refusalStatus(result) },
    );
  }
  return { from, to, errors: { from: null, to: null }, formError: null, run: result.data };
}

export function meta() {
  return [{ title: `按订单生成收入 - ${t.appTitle}` }];
}

/** 按订单生成 (issue 37): the canteen's paid orders net of refunds become income rows per day, restaurant and payment method. */
export default function IncomeGenerate({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const run = actionData?.run;
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between">
        <Title order={3}>按订单生成收入</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Text size="sm" c="dimmed">
            按就餐日期汇总食堂订单的实收（实付 − 退款，已取消的订单不计份数），每天、每个餐厅、每种支付方式一行。重新生成会替换所选期间内由订单生成的收入，结果相同；之后发生的退款在重新生成时计入原订单日期。手工录入的收入不受影响。
          </Text>
          {actionData?.formError && (
            <Alert color="red" variant="light" role="alert">
              {actionData.formError}
            </Alert>
          )}
          {run && (
            <Alert color="green" variant="light" role="status" data-testid="generate-result" title={`${run.from} 至 ${run.to} 已生成`}>
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Text>收入 {formatCount(run.rows)} 行</Text>
                <Text>替换 {formatCount(run.removed)} 行</Text>
                <Text>就餐 {formatCount(run.meals)} 份</Text>
                <Text>实收 {formatFen(run.amount)} 元</Text>
              </SimpleGrid>
              <Button component={Link} to={`${BASE}/index?incomeDateBegin=${run.from}&incomeDateEnd=${run.to}`} variant="subtle" size="compact-sm" mt="xs">
                查看收入
              </Button>
            </Alert>
          )}
          <Form method="post">
            <Group align="flex-end" justify="space-between">
              <Group align="flex-start">
                <DateField name="from" label="开始日期" withAsterisk defaultValue={actionData?.from ?? loaderData.from} error={actionData?.errors.from ?? undefined} w={180} />
                <DateField name="to" label="结束日期" withAsterisk defaultValue={actionData?.to ?? loaderData.to} error={actionData?.errors.to ?? undefined} w={180} />
              </Group>
              <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={navigation.state === "submitting"}>
                生成
              </Button>
            </Group>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
