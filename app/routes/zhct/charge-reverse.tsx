import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { IconArrowBackUp, IconArrowLeft } from "~/components/icons";
import { data, Link, redirect } from "react-router";
import { userAccountCharge as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/charge-reverse";
import { ConfirmAction } from "~/components/ConfirmAction";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { reasonOf, refusalOf } from "~/lib/confirm.server";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userAccountCharge/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { charge: result.data, idempotencyKey: crypto.randomUUID() };
}

/** 冲正 from its confirmation step (decision 055), with the reason the API requires. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const reason = reasonOf(form);
  const result = await apiCall<{ id: number }>(request, context, "POST", "/api/v1/zhct/userAccountCharge/reverse", {
    body: { id: Number(params.id), reason },
    headers: { "Idempotency-Key": String(form.get("idempotencyKey") ?? crypto.randomUUID()) },
  });
  if (result.status !== 200) return refusalOf(result, reason);
  return redirect(`${BASE}/receipt/${result.data.id}`, { headers: { "Set-Cookie": flashCookie("冲正成功") } });
}

export function meta() {
  return [{ title: `冲正 - ${t.appTitle}` }];
}

export default function ChargeReverse({ loaderData, actionData }: Route.ComponentProps) {
  const { charge, idempotencyKey } = loaderData;
  const topUp = charge.busiType === "0";
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={3}>冲正充值</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Text size="sm">
            单号 {String(charge.chargeNo)} · {String(charge.userInfoIdLabel ?? "")} · 金额 {formatFen(Number(charge.amount))} 元 · {formatTime(Number(charge.chargedAt))}
          </Text>
          {!topUp && (
            <Alert color="gray" variant="light">
              只有充值可以冲正。
            </Alert>
          )}
          {topUp && (
            <>
              <Text size="sm" c="dimmed">
                冲正会记一笔金额相反的流水并指向原充值，原记录保留。每笔充值只能冲正一次。
              </Text>
              <Group justify="flex-end">
                <ConfirmAction
                  name="reverse"
                  title="冲正"
                  confirmLabel="确认冲正"
                  icon={IconArrowBackUp}
                  reasonLabel="冲正原因"
                  hidden={{ idempotencyKey }}
                  refusal={actionData}
                  summary={`将从 ${String(charge.userInfoIdLabel ?? "该人员")} 的账户扣回这笔充值的 ${formatFen(Number(charge.amount))} 元（单号 ${String(charge.chargeNo)}）。冲正后不能撤销。`}
                />
              </Group>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
