import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconX } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { userOrderDefaultPc as def } from "../../../resources/zhct/defaults";
import type { Route } from "./+types/accompany-cancel";
import { Fact } from "~/components/resource/Fact";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Accompanied {
  id: number;
  userInfoIdLabel: string | null;
  orderDate: string;
  restaurantIdLabel: string | null;
  mealType: string;
  guestCount: number;
  unitPrice: number;
  amount: number;
  payBy: string;
  deptIdLabel: string | null;
  reason: string;
  pcStatus: string;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Accompanied>(request, context, "GET", "/api/v1/zhct/userOrderDefaultPc/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { row: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const result = await apiCall<{ refunded: number }>(request, context, "POST", "/api/v1/zhct/userOrderDefaultPc/cancel", { body: { id: Number(params.id) } });
  if (result.status !== 200) return errorReply(result, "取消失败");
  const refunded = result.data.refunded;
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie(refunded ? `陪餐已取消，已退回 ${formatFen(refunded)} 元` : "陪餐已取消") } });
}

export function meta() {
  return [{ title: `取消陪餐 - ${t.appTitle}` }];
}

export default function AccompanyCancel({ loaderData, actionData }: Route.ComponentProps) {
  const { row } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const open = row.pcStatus === "1";
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between">
        <Title order={3}>取消陪餐</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Fact label="订餐人">{row.userInfoIdLabel}</Fact>
          <Fact label="就餐">
            {row.orderDate} {row.restaurantIdLabel} {dictLabel(dicts, "foodMenuType", row.mealType)}
          </Fact>
          <Fact label="陪餐人数">{row.guestCount} 人 × {formatFen(row.unitPrice)} 元</Fact>
          <Fact label="金额">{formatFen(row.amount)} 元</Fact>
          <Fact label="支付方">
            {dictLabel(dicts, "accompanyPayBy", row.payBy)}
            {row.payBy === "2" && row.deptIdLabel ? `（${row.deptIdLabel}）` : ""}
          </Fact>
          <Fact label="状态">
            <Badge variant="light" color={open ? "green" : "gray"}>
              {dictLabel(dicts, "accompanyStatus", row.pcStatus)}
            </Badge>
          </Fact>
        </SimpleGrid>
        <Text size="sm" mt="md" c="dimmed">
          陪餐事由
        </Text>
        <Text size="sm">{row.reason}</Text>
      </Card>
      {actionData?.error && (
        <Alert color="red" variant="light" role="alert">
          {actionData.error}
        </Alert>
      )}
      {open && (
        <Form method="post">
          <Group justify="flex-end">
            <Text size="sm" c="dimmed">
              {row.payBy === "1" ? "个人支付的金额将按原账户退回订餐人。" : "部门支付的陪餐只记录取消，不涉及个人余额。"}
            </Text>
            <Button type="submit" color="red" leftSection={<IconX size={16} />} loading={navigation.state === "submitting"}>
              确认取消
            </Button>
          </Group>
        </Form>
      )}
    </Stack>
  );
}
