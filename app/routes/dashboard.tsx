import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconBuildingCommunity, IconShieldLock, IconUsers } from "~/components/icons";
import { data, Link } from "react-router";
import { dailyOrderDetail, dailyOrderSummary, chargeDailyReport, userConsumption, reportPath } from "../../resources/report/index";
import type { Route } from "./+types/dashboard";
import { apiCall } from "~/lib/api.server";
import { formatCount, formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";
import type { WarningKindCount } from "../../resources/zhhq/closing";

interface Overview {
  userCount: number;
  roleCount: number;
  orgCount: number;
  roleNames: string[];
  recentLogins: Array<{ time: number; ip: string | null; result: string; message: string }>;
}

interface Canteen {
  today: string;
  from: string;
  orders: number;
  net: number;
  meals: Array<{ mealType: string; label: string; orders: number; net: number }>;
  topUpCount: number;
  topUp: number;
  activeDiners: number;
  complaintsWaiting: number;
  trend: Array<{ day: string; orders: number; net: number }>;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  const overview = await apiCall<Overview>(request, context, "GET", "/api/v1/sys/dashboard/overview");
  if (overview.status !== 200) throw data(overview.message, { status: 500 });
  // The canteen's figures are the reports'; a user who may not open them sees the page without them.
  const canteen = await apiCall<Canteen>(request, context, "GET", "/api/v1/report/dashboard");
  // The warehouse's warnings (库存预警), for a user who may open them.
  const stock = await apiCall<{ kinds: WarningKindCount[] }>(request, context, "GET", "/api/v1/zhhq/warehouseWarning/findPage?kind=expired");
  return {
    user: { name: user.realName || user.userName, tenantName: user.tenantName, roles: overview.data.roleNames },
    overview: overview.data,
    canteen: canteen.status === 200 ? canteen.data : null,
    stockWarnings: stock.status === 200 ? { kinds: stock.data.kinds } : null,
  };
}

export function meta() {
  return [{ title: `${t.shell.home} - ${t.appTitle}` }];
}

const stats = [
  { key: "userCount", label: "用户", icon: IconUsers },
  { key: "roleCount", label: "角色", icon: IconShieldLock },
  { key: "orgCount", label: "机构", icon: IconBuildingCommunity },
] as const;

const day = (from: string, to = from) => `from=${from}&to=${to}`;

/** Thirty days of 实收 as bars, drawn on the server: the home page loads no chart library (decision 019). */
function Trend({ trend, from, today }: { trend: Canteen["trend"]; from: string; today: string }) {
  const byDay = new Map(trend.map((p) => [p.day, p]));
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${today}T00:00:00Z`); at += 86_400_000) days.push(new Date(at).toISOString().slice(0, 10));
  const max = Math.max(1, ...trend.map((p) => p.net));
  const width = 600;
  const height = 140;
  const step = width / days.length;
  return (
    <svg viewBox={`0 0 ${width} ${height + 18}`} width="100%" role="img" aria-label={`最近 30 天每日实收，${from} 至 ${today}`} data-testid="dashboard-trend">
      {days.map((d, i) => {
        const point = byDay.get(d);
        const h = point ? Math.max(2, (point.net / max) * height) : 0;
        return (
          <g key={d}>
            <title>{`${d}：${point?.orders ?? 0} 笔，实收 ${formatFen(point?.net ?? 0)} 元`}</title>
            <rect x={i * step + 2} y={height - h} width={step - 4} height={h} rx={2} fill="var(--mantine-primary-color-filled)" opacity={d === today ? 1 : 0.55} />
          </g>
        );
      })}
      <line x1={0} x2={width} y1={height} y2={height} stroke="var(--mantine-color-gray-4)" />
      <text x={0} y={height + 14} fontSize={11} fill="var(--mantine-color-dimmed)">
        {from}
      </text>
      <text x={width} y={height + 14} fontSize={11} textAnchor="end" fill="var(--mantine-color-dimmed)">
        {today}
      </text>
    </svg>
  );
}

function CanteenToday({ canteen }: { canteen: Canteen }) {
  const today = canteen.today;
  const figures = [
    { key: "orders", label: "今日订单", value: formatCount(canteen.orders), unit: "笔", to: `${reportPath(dailyOrderDetail)}?${day(today)}` },
    { key: "net", label: "今日实收", value: formatFen(canteen.net), unit: "元", to: `${reportPath(dailyOrderSummary)}?${day(today)}` },
    { key: "topUp", label: "今日充值", value: formatFen(canteen.topUp), unit: `元 · ${formatCount(canteen.topUpCount)} 笔`, to: `${reportPath(chargeDailyReport)}?${day(today)}` },
    { key: "activeDiners", label: "今日就餐人数", value: formatCount(canteen.activeDiners), unit: "人", to: `${reportPath(userConsumption)}?${day(today)}` },
    { key: "complaintsWaiting", label: "待处理申诉", value: formatCount(canteen.complaintsWaiting), unit: "条", to: "/zhct/mealordercomplaints/index?status=0" },
  ];
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
        {figures.map((f) => (
          <Card key={f.key} withBorder radius="md" padding="lg" component={Link} to={f.to} aria-label={`${f.label}：${f.value} ${f.unit}，查看明细`}>
            <Text c="dimmed" size="sm">
              {f.label}
            </Text>
            <Group gap={6} align="baseline">
              <Text fw={700} fz={26} data-testid={`canteen-${f.key}`}>
                {f.value}
              </Text>
              <Text size="sm" c="dimmed">
                {f.unit}
              </Text>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" padding="lg">
          <Title order={5} mb="sm">
            今日各餐次
          </Title>
          <Table data-testid="canteen-meals">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>餐别</Table.Th>
                <Table.Th ta="right">订单数</Table.Th>
                <Table.Th ta="right">实收（元）</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {canteen.meals.map((m) => (
                <Table.Tr key={m.mealType}>
                  <Table.Td>
                    {m.mealType === "none" ? (
                      m.label
                    ) : (
                      <Anchor component={Link} to={`${reportPath(dailyOrderDetail)}?${day(today)}&mealType=${m.mealType}`} size="sm">
                        {m.label}
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{formatCount(m.orders)}</Table.Td>
                  <Table.Td ta="right">{formatFen(m.net)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm">
            <Title order={5}>最近 30 天实收</Title>
            <Anchor component={Link} to={`${reportPath(dailyOrderSummary)}?${day(canteen.from, today)}`} size="sm">
              查看订单日汇总
            </Anchor>
          </Group>
          <Trend trend={canteen.trend} from={canteen.from} today={today} />
        </Card>
      </SimpleGrid>
    </>
  );
}

/** 库存预警's counts, each kind its API answers leading to its list (issue 41; supplier licences, decision 081). */
function StockWarnings({ kinds }: { kinds: WarningKindCount[] }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={5}>库存预警</Title>
        <Anchor component={Link} to="/zhhq/warehousewarning/index" size="sm">
          查看全部
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: Math.min(kinds.length, 7) }}>
        {kinds.map((k) => (
          <Card key={k.value} withBorder radius="md" padding="md" component={Link} to={`/zhhq/warehousewarning/index?kind=${k.value}`} aria-label={`${k.label}：${k.count} 项，查看明细`}>
            <Text c="dimmed" size="sm">
              {k.label}
              {k.note ? `（${k.note}）` : ""}
            </Text>
            <Text fw={700} fz={26} c={k.count ? `${k.color}.7` : undefined} data-testid={`stock-warning-${k.value}`}>
              {formatCount(k.count)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Card>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { user, overview, canteen, stockWarnings } = loaderData;
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Title order={3}>您好，{user.name}</Title>
        <Text c="dimmed" mt={4}>
          {user.tenantName} · 角色：{user.roles.join("、")}
        </Text>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {stats.map(({ key, label, icon: Icon }) => (
          <Card key={key} withBorder radius="md" padding="lg">
            <Group justify="space-between">
              <div>
                <Text c="dimmed" size="sm">
                  {label}
                </Text>
                <Text fw={700} fz={28} data-testid={`stat-${key}`}>
                  {formatCount(overview[key])}
                </Text>
              </div>
              <Icon size={36} color="var(--mantine-primary-color-filled)" stroke={1.5} />
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {canteen && <CanteenToday canteen={canteen} />}
      {stockWarnings && <StockWarnings {...stockWarnings} />}
      <Card withBorder radius="md" padding="lg">
        <Title order={5} mb="sm">
          最近登录记录
        </Title>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>时间</Table.Th>
              <Table.Th>IP 地址</Table.Th>
              <Table.Th>结果</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {overview.recentLogins.map((login) => (
              <Table.Tr key={`${login.time}-${login.result}`}>
                <Table.Td>{formatTime(login.time)}</Table.Td>
                <Table.Td>{login.ip}</Table.Td>
                <Table.Td>
                  <Badge color={login.result === "success" ? "green" : "red"} variant="light">
                    {login.message}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
