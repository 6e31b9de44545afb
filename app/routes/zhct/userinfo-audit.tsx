import { Alert, Badge, Button, Group, Paper, Radio, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { userInfo as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/userinfo-audit";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { diner: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const auditStatus = String(form.get("auditStatus") ?? "");
  const remark = String(form.get("remark") ?? "").trim();
  if (auditStatus !== "1" && auditStatus !== "2") return data({ error: null, statusError: "请选择审核结果", remark }, { status: 400 });
  const result = await apiCall(request, context, "POST", "/api/v1/zhct/userInfo/audit", { body: { id: Number(params.id), auditStatus, ...(remark ? { remark } : {}) } });
  if (result.status !== 200) return data({ error: result.message || "Error", statusError: null, remark }, { status: 400 });
  return redirect(`${BASE}/index`, { headers: { "Set-Cookie": flashCookie("审核完成") } });
}

export function meta() {
  return [{ title: `审核人员 - ${t.appTitle}` }];
}

export default function UserInfoAudit({ loaderData, actionData }: Route.ComponentProps) {
  const { diner } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={3}>审核人员</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post">
          <Stack>
            <Group gap="xs">
              <Text size="sm">
                {String(diner.userName)}（{String(diner.userCode)}）
              </Text>
              <Badge variant="light">{dictLabel(dicts, "userInfoAuditStatus", diner.auditStatus)}</Badge>
            </Group>
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Radio.Group name="auditStatus" label="审核结果" withAsterisk error={actionData?.statusError} defaultValue="1">
              <Group mt={6}>
                <Radio value="1" label="通过" />
                <Radio value="2" label="不通过" />
              </Group>
            </Radio.Group>
            <TextInput name="remark" label="审核意见" maxLength={200} defaultValue={actionData?.remark ?? ""} />
            <Group justify="flex-end">
              <Button type="submit" leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                提交审核
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
