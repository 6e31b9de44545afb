import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconBuildingCommunity, IconShieldLock, IconUsers } from "@tabler/icons-react";
import { data } from "react-router";
import type { Route } from "./+types/dashboard";
import { apiCall } from "~/lib/api.server";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

interface Overview {
  userCount: number;
  roleCount: number;
  orgCount: number;
  recentLogins: Array<{ time: number; ip: string | null; result: string; message: string }>;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  const overview = await apiCall<Overview>(request, context, "GET", "/api/v1/sys/dashboard/overview");
  if (overview.status !== 200) throw data(overview.message, { status: 500 });
  return { user: { name: user.realName || user.userName, tenantName: user.tenantName, roles: user.roles }, overview: overview.data };
}

export function meta() {
  return [{ title: `${t.shell.home} - ${t.appTitle}` }];
}

const stats = [
  { key: "userCount", label: "用户", icon: IconUsers },
  { key: "roleCount", label: "角色", icon: IconShieldLock },
  { key: "orgCount", label: "机构", icon: IconBuildingCommunity },
] as const;

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { user, overview } = loaderData;
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
                  {overview[key]}
                </Text>
              </div>
              <Icon size={36} color="var(--mantine-primary-color-filled)" stroke={1.5} />
            </Group>
          </Card>
        ))}
      </SimpleGrid>
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
