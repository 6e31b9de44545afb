import { Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconCash, IconCreditCard, IconReceiptRefund } from "~/components/icons";
import { userAccountIntegralDetail } from "../../../resources/zhct/points";
import { data, Link, useLocation } from "react-router";
import { permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { userAccountCharge, userIcCard, userInfo as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/userinfo-account";
import { ListPagination } from "~/components/resource/ListPagination";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen, formatTime } from "~/lib/format";
import { hrefWith } from "~/lib/list-url";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { requireUserInfo } from "~/lib/session.server";

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number; totalCapped?: boolean; pageNum: number; pageSize: number };
const PAGE_SIZES = new Set(["10", "20", "50", "100"]);

/** A diner's accounts, cards and ledger, newest line first. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const diner = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: params.id } });
  requirePermitted(diner);
  if (diner.status !== 200) throw data(diner.message, { status: 404 });
  const pageNum = /^\d{1,5}$/.test(url.searchParams.get("pageNum") ?? "") ? url.searchParams.get("pageNum") : "1";
  const pageSize = PAGE_SIZES.has(url.searchParams.get("pageSize") ?? "") ? url.searchParams.get("pageSize") : "20";
  const [accounts, cards, ledger, points] = await Promise.all([
    apiCall<Page>(request, context, "GET", "/api/v1/zhct/userAccount/findPage", { query: { userInfoId: params.id, pageSize: 10 } }),
    apiCall<Page>(request, context, "GET", "/api/v1/zhct/userIcCard/findPage", { query: { userInfoId: params.id, pageSize: 10 } }),
    apiCall<Page>(request, context, "GET", "/api/v1/zhct/userAccountLedger/findPage", { query: { userInfoId: params.id, pageNum, pageSize } }),
    apiCall<Page>(request, context, "GET", "/api/v1/zhct/userIntegralAccount/findPage", { query: { userInfoId: params.id } }),
  ]);
  return {
    diner: diner.data,
    // Cash first, then subsidy, as the counter names them.
    accounts: [...(accounts.data?.records ?? [])].sort((a, b) => String(a.accountType).localeCompare(String(b.accountType))),
    cards: cards.data?.records ?? [],
    ledger: ledger.status === 200 ? ledger.data : { records: [], total: 0, pageNum: 1, pageSize: 20 },
    // Null when the user may not see points: the card is left out. No account yet is 0 points.
    points: points.status === 200 ? Number(points.data.records[0]?.balance ?? 0) : null,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${String(loaderData?.diner.userName ?? "")}的账户 - ${t.appTitle}` }];
}

export default function UserInfoAccount({ loaderData }: Route.ComponentProps) {
  const { diner, accounts, cards, ledger, points } = loaderData;
  const dicts = useDicts();
  const can = usePermissions();
  const location = useLocation();
  const charge = `${userAccountCharge.screenBase}/${userAccountCharge.screen}`;
  const pointsBase = `${userAccountIntegralDetail.screenBase}/${userAccountIntegralDetail.screen}`;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>
          {String(diner.userName)}（{String(diner.userCode)}）的账户
        </Title>
        <Group gap="xs">
          {can(permissionCode(userAccountCharge, "charge")) && (
            <Button component={Link} to={`${charge}/charge?userInfoId=${String(diner.id)}`} leftSection={<IconCash size={16} />}>
              充值
            </Button>
          )}
          {can(permissionCode(userAccountCharge, "refund")) && (
            <Button component={Link} to={`${charge}/refund?userInfoId=${String(diner.id)}`} variant="light" color="orange" leftSection={<IconReceiptRefund size={16} />}>
              退款
            </Button>
          )}
          {can(permissionCode(userIcCard, "create")) && (
            <Button component={Link} to={`${userIcCard.screenBase}/${userIcCard.screen}/create?userInfoId=${String(diner.id)}`} variant="default" leftSection={<IconCreditCard size={16} />}>
              发卡
            </Button>
          )}
          <Button component={Link} to={`${def.screenBase}/${def.screen}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
            返回列表
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: points === null ? 3 : 4 }}>
        {accounts.map((a) => (
          <Card key={String(a.id)} withBorder radius="md" padding="lg" data-testid={`account-${String(a.accountType)}`}>
            <Text size="sm" c="dimmed">
              {dictLabel(dicts, "accountType", a.accountType)}
            </Text>
            <Text fz={28} fw={600}>
              {formatFen(Number(a.balance))} <Text span size="sm">元</Text>
            </Text>
          </Card>
        ))}
        <Card withBorder radius="md" padding="lg">
          <Text size="sm" c="dimmed">
            IC卡
          </Text>
          {cards.length === 0 && <Text size="sm">未发卡</Text>}
          {cards.map((c) => (
            <Group key={String(c.id)} gap="xs">
              <Text size="sm">{String(c.cardNo)}</Text>
              <Badge variant="light" color={c.cardStatus === "1" ? "green" : c.cardStatus === "2" ? "orange" : "gray"}>
                {dictLabel(dicts, "cardStatus", c.cardStatus)}
              </Badge>
            </Group>
          ))}
        </Card>
        {points !== null && (
          <Card withBorder radius="md" padding="lg" data-testid="account-points">
            <Group justify="space-between" align="flex-start">
              <Text size="sm" c="dimmed">
                积分
              </Text>
              <Group gap={4}>
                <Button component={Link} to={`${pointsBase}/index?userInfoId=${String(diner.id)}`} variant="subtle" size="compact-xs">
                  明细
                </Button>
                {can(permissionCode(userAccountIntegralDetail, "adjust")) && (
                  <Button component={Link} to={`${pointsBase}/adjust?userInfoId=${String(diner.id)}`} variant="subtle" size="compact-xs">
                    调整
                  </Button>
                )}
              </Group>
            </Group>
            <Text fz={28} fw={600}>
              {points} <Text span size="sm">分</Text>
            </Text>
          </Card>
        )}
      </SimpleGrid>
      <Title order={4}>账户流水</Title>
      <Paper withBorder radius="md" style={{ overflow: "hidden" }}>
        <Table striped highlightOnHover data-testid="ledger">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>时间</Table.Th>
              <Table.Th>账户</Table.Th>
              <Table.Th>业务类型</Table.Th>
              <Table.Th ta="right">金额（元）</Table.Th>
              <Table.Th ta="right">变动后余额（元）</Table.Th>
              <Table.Th>支付方式或渠道</Table.Th>
              <Table.Th>操作人</Table.Th>
              <Table.Th>备注</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ledger.records.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text size="sm" c="dimmed" ta="center">
                    暂无流水
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {ledger.records.map((l) => (
              <Table.Tr key={String(l.id)}>
                <Table.Td>{formatTime(Number(l.occurredAt))}</Table.Td>
                <Table.Td>{dictLabel(dicts, "accountType", l.accountType)}</Table.Td>
                <Table.Td>{dictLabel(dicts, "busiType", l.busiType)}</Table.Td>
                <Table.Td ta="right" c={Number(l.amount) < 0 ? "red.8" : "green.9"}>
                  {Number(l.amount) > 0 ? "+" : ""}
                  {formatFen(Number(l.amount))}
                </Table.Td>
                <Table.Td ta="right">{formatFen(Number(l.balanceAfter))}</Table.Td>
                {/* A top-up's, refund's or reversal's channel (decision 064); a payment's method. */}
                <Table.Td>{l.channel ? dictLabel(dicts, "topUpChannel", l.channel) : dictLabel(dicts, "userAccountFlag", l.payFlag)}</Table.Td>
                <Table.Td>{String(l.operatorName ?? "")}</Table.Td>
                <Table.Td>{String(l.remark ?? "")}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <ListPagination total={ledger.total} capped={ledger.totalCapped} pageNum={ledger.pageNum} pageSize={ledger.pageSize} hrefFor={(changes) => hrefWith(location, changes)} />
      </Paper>
    </Stack>
  );
}
