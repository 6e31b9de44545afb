import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { userIcCard as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/card-action";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;
const OPS = {
  reportLoss: { title: "挂失", note: "挂失后此卡不能再支付，找回后可解挂。" },
  unlock: { title: "解挂", note: "解挂后此卡恢复正常使用。" },
  reissue: { title: "补卡", note: "原卡作废，为同一人员发新卡；账户和余额不变。" },
  cancel: { title: "注销", note: "注销后此卡作废，不能恢复。" },
} as const;
/** The statuses each step starts from: the row links' (the declaration's), which the API enforces with 409. */
const fromOf = (op: Op): readonly string[] => def.rowLinks?.find((link) => link.action === op)?.when?.values ?? [];
type Op = keyof typeof OPS;
const opOf = (value: string | undefined): Op => {
  if (value && value in OPS) return value as Op;
  throw data(null, { status: 404 });
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const op = opOf(params.op);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userIcCard/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { op, card: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const op = opOf(params.op);
  const form = await request.formData();
  const cardNo = String(form.get("cardNo") ?? "").trim();
  const cardSerial = String(form.get("cardSerial") ?? "").trim();
  const body = op === "reissue" ? { id: Number(params.id), cardNo, ...(cardSerial ? { cardSerial } : {}) } : { id: Number(params.id) };
  const result = await apiCall(request, context, "POST", `/api/v1/zhct/userIcCard/${op}`, { body });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return data({ error: fieldErrors.cardNo || fieldErrors.cardSerial ? null : result.message || "Error", fieldErrors, cardNo, cardSerial }, { status: refusalStatus(result) });
  }
  return redirect(`${BASE}/index`, { headers: { "Set-Cookie": flashCookie(`${OPS[op].title}成功`) } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${OPS[params.op as Op]?.title ?? ""} - ${t.appTitle}` }];
}

export default function CardAction({ loaderData, actionData }: Route.ComponentProps) {
  const { op, card } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const { title, note } = OPS[op];
  const allowed = fromOf(op).includes(String(card.cardStatus));
  const status = dictLabel(dicts, "cardStatus", card.cardStatus);
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Group gap="xs">
            <Text size="sm">
              卡号 {String(card.cardNo)} · {String(card.userInfoIdLabel ?? "")}
            </Text>
            <Badge variant="light" color={card.cardStatus === "1" ? "green" : card.cardStatus === "2" ? "orange" : "gray"} data-testid="card-status">
              {status}
            </Badge>
          </Group>
          {actionData?.error && (
            <Alert color="red" variant="light" role="alert">
              {actionData.error}
            </Alert>
          )}
          {allowed ? (
            <Form method="post">
              <Stack>
                <Text size="sm" c="dimmed">
                  {note}
                </Text>
                {op === "reissue" && (
                  <>
                    <TextInput name="cardNo" label="新卡号" withAsterisk required maxLength={32} defaultValue={actionData?.cardNo ?? ""} error={actionData?.fieldErrors?.cardNo?.[0]} />
                    <TextInput name="cardSerial" label="新卡物理卡号" maxLength={16} defaultValue={actionData?.cardSerial ?? ""} error={actionData?.fieldErrors?.cardSerial?.[0]} />
                  </>
                )}
                <Group justify="flex-end">
                  <Button type="submit" color={op === "cancel" || op === "reportLoss" ? "red" : undefined} leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                    确认{title}
                  </Button>
                </Group>
              </Stack>
            </Form>
          ) : (
            <Alert color="gray" variant="light">
              该卡当前为「{status}」，不能{title}。
            </Alert>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
