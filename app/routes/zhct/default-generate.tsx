import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconPlayerPlay } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { userOrderDefaultGenerate as def } from "../../../resources/zhct/defaults";
import type { Route } from "./+types/default-generate";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";
import { chinaDay, DAY_MS } from "../../../resources/chinaTime";

const BASE = `${def.screenBase}/${def.screen}`;
type Run = { runId: number; orderDate: string; created: number; skipped: number; failed: number; amount: number };


export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  // Tomorrow, China time: the day a run is usually for.
  return { orderDate: chinaDay(Date.now() + DAY_MS) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const orderDate = String((await request.formData()).get("orderDate") ?? "");
  const result = await apiCall<Run>(request, context, "POST", "/api/v1/zhct/userOrderDefaultGenerate/generate", { body: { orderDate } });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result);
    return data({ orderDate, error: fieldErrors?.orderDate?.[0] ?? null, formError: fieldErrors?.orderDate ? null : result.message || "生成失败", run: null }, { status: refusalStatus(result) });
  }
  return { orderDate, error: null, formError: null, run: result.data };
}

export function meta() {
  return [{ title: `立即生成 - ${t.appTitle}` }];
}

export default function DefaultGenerate({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const run = actionData?.run;
  return (
    <Stack gap="md" maw={720}>
      <Group justify="space-between">
        <Title order={3}>立即生成</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Text size="sm" c="dimmed">
            为所选日期，给默认订餐中当天勾选、未请假且此餐别尚无订单的人员下单，并从其账户自动扣款。已生成过的人员不会重复下单或扣款；余额不足等原因未能下单的人员列在明细中。每天也会按设定时间自动生成次日订单。
          </Text>
          {actionData?.formError && (
            <Alert color="red" variant="light" role="alert">
              {actionData.formError}
            </Alert>
          )}
          {run && (
            <Alert color={run.failed ? "orange" : "green"} variant="light" role="status" data-testid="generate-result" title={`${run.orderDate} 生成完成`}>
              <SimpleGrid cols={4}>
                <Text>生成 {run.created} 单</Text>
                <Text>跳过 {run.skipped} 人次</Text>
                <Text>失败 {run.failed} 人次</Text>
                <Text>扣款 {formatFen(run.amount)} 元</Text>
              </SimpleGrid>
              <Button component={Link} to={`/zhct/userorderdefaultgeneratedetail/index?runId=${run.runId}`} variant="subtle" size="compact-sm" mt="xs">
                查看明细
              </Button>
            </Alert>
          )}
          <Form method="post">
            <Group align="flex-end" justify="space-between">
              <TextInput type="date" name="orderDate" label="就餐日期" withAsterisk required defaultValue={actionData?.orderDate ?? loaderData.orderDate} error={actionData?.error ?? undefined} description="明天起 30 天内" />
              <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={navigation.state === "submitting"}>
                立即生成
              </Button>
            </Group>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
