import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft } from "~/components/icons";
import { data, Link, redirect } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { userIcCard as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/card-action";
import { ConfirmAction } from "~/components/ConfirmAction";
import { apiCall } from "~/lib/api.server";
import { reasonOf, refusalOf } from "~/lib/confirm.server";
import { fieldErrorsOf, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;
/** Each step's confirmation (decision 055): what it does to whose card; 注销 cannot be undone, so it asks why. */
const OPS = {
  reportLoss: { title: "挂失", note: "挂失后此卡不能再支付，找回后可解挂。", color: "red", reasonLabel: undefined },
  unlock: { title: "解挂", note: "解挂后此卡恢复正常使用。", color: "blue", reasonLabel: undefined },
  reissue: { title: "补卡", note: "原卡作废，为同一人员发新卡；账户和余额不变。", color: "orange", reasonLabel: undefined },
  cancel: { title: "注销", note: "注销后此卡作废，不能恢复。", color: "red", reasonLabel: "注销原因" },
} as const;
/** The statuses each step starts from: the row links' (the declaration's), which the API enforces with 409. */
const fromOf = (op: Op): readonly string[] => def.rowLinks?.find((link) => link.action === op)?.when?.values ?? [];
type Op = keyof typeof OPS;
/** 补卡's refusal on its new card's fields, with what was typed. */
type NewCardRefusal = { fieldErrors: Record<string, string[] | undefined>; cardNo: string; cardSerial: string };
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
  const reason = reasonOf(form);
  const body = op === "reissue" ? { id: Number(params.id), cardNo, ...(cardSerial ? { cardSerial } : {}) } : op === "cancel" ? { id: Number(params.id), reason } : { id: Number(params.id) };
  const result = await apiCall(request, context, "POST", `/api/v1/zhct/userIcCard/${op}`, { body });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    // The new card's fields are the step's own: their messages go under them, the typed values kept.
    if (fieldErrors.cardNo || fieldErrors.cardSerial) return data({ error: null, reasonError: null, reason, fieldErrors, cardNo, cardSerial }, { status: 400 });
    return refusalOf(result, reason);
  }
  return redirect(`${BASE}/index`, { headers: { "Set-Cookie": flashCookie(`${OPS[op].title}成功`) } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${OPS[params.op as Op]?.title ?? ""} - ${t.appTitle}` }];
}

export default function CardAction({ loaderData, actionData }: Route.ComponentProps) {
  const { op, card } = loaderData;
  const dicts = useDicts();
  const { title, note, color, reasonLabel } = OPS[op];
  const allowed = fromOf(op).includes(String(card.cardStatus));
  const status = dictLabel(dicts, "cardStatus", card.cardStatus);
  const fields = actionData && "fieldErrors" in actionData ? (actionData as NewCardRefusal) : null;
  const diner = String(card.userInfoIdLabel ?? "该人员");
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
              卡号 {String(card.cardNo)} · {diner}
            </Text>
            <Badge variant="light" color={card.cardStatus === "1" ? "green" : card.cardStatus === "2" ? "orange" : "gray"} data-testid="card-status">
              {status}
            </Badge>
          </Group>
          {allowed ? (
            <>
              <Text size="sm" c="dimmed">
                {note}
              </Text>
              <Group justify="flex-end">
                <ConfirmAction
                  name={op}
                  title={title}
                  confirmLabel={`确认${title}`}
                  color={color}
                  reasonLabel={reasonLabel}
                  refusal={actionData}
                  summary={`将${title} ${diner} 的卡 ${String(card.cardNo)}（当前「${status}」）。${note}`}
                >
                  {op === "reissue" && (
                    <>
                      <TextInput name="cardNo" label="新卡号" withAsterisk required maxLength={32} defaultValue={fields?.cardNo ?? ""} error={fields?.fieldErrors.cardNo?.[0]} data-autofocus />
                      <TextInput name="cardSerial" label="新卡物理卡号" maxLength={16} defaultValue={fields?.cardSerial ?? ""} error={fields?.fieldErrors.cardSerial?.[0]} />
                    </>
                  )}
                </ConfirmAction>
              </Group>
            </>
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
