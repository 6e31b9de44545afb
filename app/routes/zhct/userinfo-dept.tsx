import { Paper, Stack, Table, Text, Title } from "@mantine/core";
import { data, Link } from "react-router";
import type { Route } from "./+types/userinfo-dept";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

type Report = {
  records: Array<{ deptId: number | null; deptName: string; diners: number; cash: number; subsidy: number; balance: number }>;
  totals: { diners: number; cash: number; subsidy: number; balance: number };
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Report>(request, context, "GET", "/api/v1/zhct/userInfoDept/findPage");
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 500 });
  return { report: result.data };
}

export function meta() {
  return [{ title: `部门人员统计 - ${t.appTitle}` }];
}

export default function UserInfoDept({ loaderData }: Route.ComponentProps) {
  const { report } = loaderData;
  return (
    <Stack gap="md">
      <Title order={3}>部门人员统计</Title>
      <Paper withBorder radius="md" p="md">
        <Text size="sm" c="dimmed" mb="xs">
          点击部门查看该部门的人员列表。金额单位：元。
        </Text>
        <Table striped highlightOnHover withTableBorder data-testid="dept-report">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>部门</Table.Th>
              <Table.Th ta="right">人数</Table.Th>
              <Table.Th ta="right">现金余额</Table.Th>
              <Table.Th ta="right">补贴余额</Table.Th>
              <Table.Th ta="right">余额合计</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.records.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed" ta="center">
                    还没有人员
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {report.records.map((r) => (
              <Table.Tr key={r.deptId ?? "none"}>
                <Table.Td>{r.deptId === null ? r.deptName : <Link to={`/zhct/userinfo/index?deptId=${r.deptId}`}>{r.deptName}</Link>}</Table.Td>
                <Table.Td ta="right">{r.diners}</Table.Td>
                <Table.Td ta="right">{formatFen(r.cash)}</Table.Td>
                <Table.Td ta="right">{formatFen(r.subsidy)}</Table.Td>
                <Table.Td ta="right">{formatFen(r.balance)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>合计</Table.Th>
              <Table.Th ta="right">{report.totals.diners}</Table.Th>
              <Table.Th ta="right">{formatFen(report.totals.cash)}</Table.Th>
              <Table.Th ta="right">{formatFen(report.totals.subsidy)}</Table.Th>
              <Table.Th ta="right">{formatFen(report.totals.balance)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Paper>
    </Stack>
  );
}
