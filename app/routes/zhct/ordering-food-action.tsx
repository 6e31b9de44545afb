import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { orderingFood as def } from "../../../resources/zhct/bookings";
import type { Route } from "./+types/ordering-food-action";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;
const OPS = {
  pickUp: { title: "取餐", note: "仅限取餐当天；取餐时支付的计划此时从人员账户扣款。" },
  cancel: { title: "取消预订", note: "截止时间前可取消；已支付的按原支付账户原路退回。" },
} as const;
type Op = keyof typeof OPS;
const opOf = (value: string | undefined): Op => {
  if (value && value in OPS) return value as Op;
  throw data(null, { status: 404 });
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const op = opOf(params.op);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/orderingFood/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { op, reservation: result.data, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const op = opOf(params.op);
  const form = await request.formData();
  const result = await apiCall(request, context, "POST", `/api/v1/zhct/orderingFood/${op}`, {
    body: { id: Number(params.id) },
    // A second press of the same form (a slow terminal) charges or refunds once.
    headers: { "Idempotency-Key": String(form.get("idempotencyKey") ?? crypto.randomUUID()) },
  });
  if (result.status !== 200) return errorReply(result);
  return redirect(`${BASE}/index`, { headers: { "Set-Cookie": flashCookie(`${OPS[op].title}成功`) } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${OPS[params.op as Op]?.title ?? ""} - ${t.appTitle}` }];
}

export default function OrderingFoodAction({ loaderData, actionData }: Route.ComponentProps) {
  const { op, reservation: r, idempotencyKey } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const { title, note } = OPS[op];
  const status = dictLabel(dicts, "appointmentStatus", r.reserveStatus);
  const paid = r.orderId !== null && r.orderId !== undefined;
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
              {String(r.planIdLabel ?? "")} · {String(r.userInfoIdLabel ?? "")} · {String(r.orderDate)} · {String(r.quantity)} 份 · {formatFen(Number(r.amount))} 元
            </Text>
            <Badge variant="light" color={r.reserveStatus === "1" ? "blue" : r.reserveStatus === "2" ? "green" : "gray"} data-testid="reserve-status">
              {status}
            </Badge>
            <Badge variant="outline" color={paid ? "green" : "orange"}>
              {paid ? "已支付" : "未支付"}
            </Badge>
          </Group>
          {actionData?.error && (
            <Alert color="red" variant="light" role="alert">
              {actionData.error}
            </Alert>
          )}
          {r.reserveStatus === "1" ? (
            <Form method="post">
              <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
              <Stack>
                <Text size="sm" c="dimmed">
                  {note}
                </Text>
                <Group justify="flex-end">
                  <Button type="submit" color={op === "cancel" ? "red" : undefined} leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                    确认{title}
                  </Button>
                </Group>
              </Stack>
            </Form>
          ) : (
            <Alert color="gray" variant="light">
              该预订当前为「{status}」，不能{title}。
            </Alert>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
