import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconReceiptRefund } from "~/components/icons";
import { data, Link, redirect } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { permissionCode } from "../../../resources/define";
import { mealOrder as def } from "../../../resources/zhct/orders";
import type { Route } from "./+types/order-detail";
import { ConfirmAction } from "~/components/ConfirmAction";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { reasonOf, refusalOf } from "~/lib/confirm.server";
import { useDicts } from "~/lib/dicts";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const BASE = `${def.screenBase}/${def.screen}`;
const CANCEL_CODE = permissionCode(def, "cancel");

interface OrderInfo {
  id: number;
  orderNo: string;
  userName: string | null;
  userCode: string | null;
  orderDate: string;
  mealTimeName: string | null;
  cancelDeadline: string | null;
  restaurantName: string | null;
  amount: number;
  paidAmount: number;
  refundedAmount: number;
  payFlag: string;
  orderSource: string;
  orderStatus: string;
  cashierName: string | null;
  deviceCode: string | null;
  cardNo: string | null;
  paidAt: number;
  cancelReason: string | null;
  cancelledByName: string | null;
  cancelledAt: number | null;
  items: Array<{ id: number; foodName: string; price: number; quantity: number; subtotal: number }>;
  payments: Array<{ id: number; accountType: string; busiType: string; amount: number; balanceAfter: number; payFlag: string; operatorName: string | null; remark: string | null; occurredAt: number }>;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<OrderInfo>(request, context, "GET", "/api/v1/zhct/mealOrder/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  // One key per page shown: a second click or a resent form cancels once.
  return { order: result.data, idempotencyKey: crypto.randomUUID() };
}

/** 取消订单 from its confirmation step (decision 055): a plain form, so it works before the page's scripts arrive. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const reason = reasonOf(form);
  const result = await apiCall<{ refundAmount: number; balance: number }>(request, context, "POST", "/api/v1/zhct/mealOrder/cancel", {
    body: { id: Number(params.id), reason },
    headers: { "Idempotency-Key": String(form.get("idempotencyKey") ?? crypto.randomUUID()) },
  });
  if (result.status !== 200) return refusalOf(result, reason);
  const message = `订单已取消，退回 ${formatFen(result.data.refundAmount)} 元，当前余额 ${formatFen(result.data.balance)} 元`;
  return redirect(`${BASE}/detail/${params.id}`, { headers: { "Set-Cookie": flashCookie(message) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `订单 ${loaderData?.order.orderNo ?? ""} - ${t.appTitle}` }];
}

const statusColor: Record<string, string> = { "1": "green", "2": "gray", "3": "orange", "4": "orange" };

export default function OrderDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { order, idempotencyKey } = loaderData;
  const dicts = useDicts();
  const cancelled = order.orderStatus === "2";
  // What a cancel gives back: what was paid less what was refunded already (a complaint's part refund).
  const refundable = order.paidAmount - order.refundedAmount;
  const facts: Array<[string, string]> = [
    ["人员", order.userName ? `${order.userName}（${order.userCode ?? ""}）` : ""],
    ["就餐日期", order.orderDate],
    ["餐次", order.mealTimeName ?? "按金额收款"],
    ["餐厅", order.restaurantName ?? ""],
    ["支付方式", dictLabel(dicts, "userAccountFlag", order.payFlag)],
    ["来源", dictLabel(dicts, "orderSource", order.orderSource)],
    ["收银员", order.cashierName ?? ""],
    ["设备 / 卡号", [order.deviceCode, order.cardNo].filter(Boolean).join(" / ")],
    ["下单时间", formatTime(order.paidAt)],
    ["取消截止", order.cancelDeadline ? `${order.orderDate} ${order.cancelDeadline}` : "不限"],
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={3}>订单 {order.orderNo}</Title>
          <Badge color={statusColor[order.orderStatus] ?? "gray"} variant="light" size="lg" data-testid="order-status">
            {dictLabel(dicts, "mealOrderStatus", order.orderStatus)}
          </Badge>
        </Group>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {facts.map(([label, value]) => (
            <Text size="sm" key={label}>
              <Text span c="dimmed">
                {label}：
              </Text>
              {value}
            </Text>
          ))}
        </SimpleGrid>
        <Group mt="md" gap="xl">
          <Text size="sm">
            <Text span c="dimmed">订单金额 </Text>
            <Text span fw={700} size="lg" data-testid="order-amount">
              {formatFen(order.amount)}
            </Text>{" "}
            元
          </Text>
          <Text size="sm">
            <Text span c="dimmed">实付 </Text>
            {formatFen(order.paidAmount)} 元
          </Text>
          <Text size="sm">
            <Text span c="dimmed">已退 </Text>
            <span data-testid="order-refunded">{formatFen(order.refundedAmount)}</span> 元
          </Text>
        </Group>
        {cancelled && (
          <Alert mt="md" color="gray" variant="light" title={`${order.cancelledByName ?? ""} 于 ${formatTime(order.cancelledAt)} 取消`}>
            {order.cancelReason ?? "未填写原因"}
          </Alert>
        )}
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={5} mb="sm">
          菜品
        </Title>
        {order.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            按金额收款，没有菜品明细。
          </Text>
        ) : (
          <Table striped withTableBorder data-testid="order-items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>菜品</Table.Th>
                <Table.Th ta="right">单价（元）</Table.Th>
                <Table.Th ta="right">数量</Table.Th>
                <Table.Th ta="right">小计（元）</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {order.items.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.foodName}</Table.Td>
                  <Table.Td ta="right">{formatFen(i.price)}</Table.Td>
                  <Table.Td ta="right">{i.quantity}</Table.Td>
                  <Table.Td ta="right">{formatFen(i.subtotal)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Title order={5} mb="sm">
          支付与退款流水
        </Title>
        {order.payments.length === 0 ? (
          <Text size="sm" c="dimmed">
            没有账户流水（以餐券等其他方式支付）。
          </Text>
        ) : (
          <Table striped withTableBorder data-testid="order-payments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>时间</Table.Th>
                <Table.Th>业务类型</Table.Th>
                <Table.Th>账户</Table.Th>
                <Table.Th ta="right">金额（元）</Table.Th>
                <Table.Th ta="right">变动后余额（元）</Table.Th>
                <Table.Th>操作人</Table.Th>
                <Table.Th>备注</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {order.payments.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{formatTime(p.occurredAt)}</Table.Td>
                  <Table.Td>{dictLabel(dicts, "busiType", p.busiType)}</Table.Td>
                  <Table.Td>{dictLabel(dicts, "accountType", p.accountType)}</Table.Td>
                  <Table.Td ta="right" c={p.amount < 0 ? "red" : "green"}>
                    {formatFen(p.amount)}
                  </Table.Td>
                  <Table.Td ta="right">{formatFen(p.balanceAfter)}</Table.Td>
                  <Table.Td>{p.operatorName ?? ""}</Table.Td>
                  <Table.Td>{p.remark ?? ""}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      {!cancelled && (
        <Permission code={CANCEL_CODE}>
          <Card withBorder radius="md" padding="lg" data-testid="cancel-form">
            <Stack gap="xs">
              <Title order={5}>取消订单</Title>
              <Text size="sm" c="dimmed">
                取消后按原支付账户退回未退的金额，并退回菜品的已售数量。超过取消截止时间后须由主管填写原因取消。
              </Text>
            </Stack>
            <Group justify="flex-end" mt="sm">
              <ConfirmAction
                name="cancel"
                title="取消订单"
                confirmLabel="确认取消订单"
                icon={IconReceiptRefund}
                reasonLabel="取消原因"
                hidden={{ idempotencyKey }}
                refusal={actionData}
                summary={
                  <>
                    将取消订单 {order.orderNo}，退回{" "}
                    <Text span fw={700} data-testid="confirm-refund">
                      {formatFen(refundable)}
                    </Text>{" "}
                    元到 {order.userName ?? "该人员"}
                    {order.userCode ? `（${order.userCode}）` : ""} 的原支付账户。取消后不能恢复。
                  </>
                }
              />
            </Group>
          </Card>
        </Permission>
      )}
    </Stack>
  );
}
