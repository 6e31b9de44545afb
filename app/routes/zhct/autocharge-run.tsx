import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconPlayerPlay } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { autoChargeSetting as def } from "../../../resources/zhct/settle";
import type { Route } from "./+types/autocharge-run";
import { apiCall } from "~/lib/api.server";
import { refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/autoChargeSetting/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { setting: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const result = await apiCall<Row>(request, context, "POST", "/api/v1/zhct/autoChargeSetting/run", { body: { id: Number(params.id) } });
  if (result.status !== 200) return data({ error: result.message || "执行失败", run: null }, { status: refusalStatus(result) });
  return { error: null, run: result.data };
}

export function meta() {
  return [{ title: `立即执行 - ${t.appTitle}` }];
}

export default function AutoChargeRun({ loaderData, actionData }: Route.ComponentProps) {
  const { setting } = loaderData;
  const navigation = useNavigation();
  const run = actionData?.run;
  return (
    <Stack gap="md" maw={720}>
      <Group justify="space-between">
        <Title order={3}>立即执行</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Group gap="xs">
            <Text fw={600}>{String(setting.settingName)}</Text>
            <Badge variant="light">{setting.staffType ? `人员类别：${String(setting.staffType)}` : `部门：${String(setting.deptIdLabel ?? setting.deptId ?? "")}`}</Badge>
            <Badge variant="light" color="teal">每月 {formatFen(Number(setting.amount))} 元</Badge>
            {setting.clearUnused === 1 || setting.clearUnused === true ? <Badge variant="light" color="orange">月末清零</Badge> : null}
          </Group>
          <Text size="sm" c="dimmed">
            为本月尚未发放此补贴的人员发放一次；已发放的人员跳过，重复执行不会重复发放。最近发放月份：{String(setting.lastRunMonth ?? "无")}
            {setting.lastRunAt ? `（${formatTime(setting.lastRunAt as number)}）` : ""}
          </Text>
          {actionData?.error && (
            <Alert color="red" variant="light" role="alert">
              {actionData.error}
            </Alert>
          )}
          {run && (
            <Alert color={Number(run.failed) ? "orange" : "green"} variant="light" role="status" data-testid="run-result" title={`${String(run.month)} 执行完成`}>
              <SimpleGrid cols={3}>
                <Text>发放 {String(run.granted)} 人</Text>
                <Text>跳过 {String(run.skipped)} 人</Text>
                <Text>失败 {String(run.failed)} 人</Text>
              </SimpleGrid>
              {run.message ? <Text size="sm" mt="xs">{String(run.message)}</Text> : null}
            </Alert>
          )}
          <Form method="post">
            <Group justify="space-between">
              <Button component={Link} to={`/zhct/autochargerun/index?settingId=${String(setting.id)}`} variant="subtle">
                查看执行记录
              </Button>
              <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={navigation.state === "submitting"}>
                立即执行
              </Button>
            </Group>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
