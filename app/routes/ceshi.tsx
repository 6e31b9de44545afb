import { Badge, Card, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import type { Route } from "./+types/ceshi";
import { apiCall } from "~/lib/api.server";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { collectPermissionCodes } from "~/lib/permissions";
import { requireUserInfo } from "~/lib/session.server";

/** Spec §2 `/ceshi/ceshi`: a test page — what the server says about this session, for checking a terminal. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  const started = Date.now();
  const health = await apiCall<{ database: string }>(request, context, "GET", "/healthz");
  return {
    serverTime: Date.now(),
    roundTripMs: Date.now() - started,
    database: health.data?.database ?? "error",
    userName: user.userName,
    tenantName: user.tenantName,
    roles: user.roles,
    codes: [...collectPermissionCodes(user.menuTreeList)].sort(),
    userAgent: request.headers.get("User-Agent") ?? "",
  };
}

export function meta() {
  return [{ title: `测试页 - ${t.appTitle}` }];
}

export default function Ceshi({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  return (
    <Stack maw={900}>
      <Title order={3}>测试页</Title>
      <Card withBorder radius="md">
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>服务器时间</Table.Th>
              <Table.Td>{formatTime(d.serverTime)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>数据库</Table.Th>
              <Table.Td>
                <Badge color={d.database === "ok" ? "green" : "red"} data-testid="ceshi-database">
                  {d.database === "ok" ? "正常" : "异常"}
                </Badge>{" "}
                <Text span size="sm" c="dimmed">
                  往返 {d.roundTripMs} ms
                </Text>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>当前用户</Table.Th>
              <Table.Td>
                {d.userName}（{d.tenantName}）
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>角色</Table.Th>
              <Table.Td>{d.roles.join("、")}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>浏览器</Table.Th>
              <Table.Td>
                <Code>{d.userAgent}</Code>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Card>
      <Card withBorder radius="md">
        <Text fw={600} mb="xs">
          权限标识（{d.codes.length}）
        </Text>
        <Group gap={6}>
          {d.codes.map((code) => (
            <Badge key={code} variant="light" radius="sm">
              {code}
            </Badge>
          ))}
        </Group>
      </Card>
    </Stack>
  );
}
