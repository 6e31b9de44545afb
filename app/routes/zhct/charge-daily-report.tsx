import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconSearch } from "~/components/icons";
import { Form } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import type { Route } from "./+types/charge-daily-report";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

type Report = {
  from: string;
  to: string;
  records: Array<{ day: string; channel: string; operatorName: string; topUpCount: number; topUp: number; refundCount: number; refund: number; reversal: number; net: number }>;
  totals: { topUpCount: number; topUp: number; refundCount: number; refund: number; reversal: number; net: number };
};

/** The filters live in the URL (a GET form), so a report is bookmarkable and works before JavaScript loads. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const query = { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" };
  const result = await apiCall<Report>(request, context, "GET", "/api/v1/zhct/chargeDailyReport/findPage", { query });
  requirePermitted(result);
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return { report: null, query, error: result.message, fieldErrors };
  }
  return { report: result.data, query, error: null, fieldErrors: {} as Record<string, string[]> };
}

export function meta() {
  return [{ title: `充值日报 - ${t.appTitle}` }];
}

export default function ChargeDailyReport({ loaderData }: Route.ComponentProps) {
  const { report, query, error, fieldErrors } = loaderData;
  const dicts = useDicts();
  return (
    <Stack gap="md">
      <Title order={3}>充值日报</Title>
      <Paper withBorder radius="md" p="md">
        <Form method="get">
          <Group align="flex-end">
            <TextInput type="date" name="from" label="开始日期" defaultValue={report?.from ?? query.from} error={fieldErrors.from?.[0]} />
            <TextInput type="date" name="to" label="结束日期" defaultValue={report?.to ?? query.to} error={fieldErrors.to?.[0]} />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              查询
            </Button>
          </Group>
        </Form>
      </Paper>
      {error && !Object.keys(fieldErrors).length && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {report && (
        <Paper withBorder radius="md" p="md">
          <Text size="sm" c="dimmed" mb="xs">
            {report.from} 至 {report.to}（北京时间），金额单位：元；退款与冲正为负数，净额 = 充值 + 退款 + 冲正。
          </Text>
          <Table.ScrollContainer minWidth={800}>
            <Table striped highlightOnHover withTableBorder data-testid="daily-report">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>日期</Table.Th>
                  <Table.Th>充值渠道</Table.Th>
                  <Table.Th>操作人</Table.Th>
                  <Table.Th ta="right">充值笔数</Table.Th>
                  <Table.Th ta="right">充值金额</Table.Th>
                  <Table.Th ta="right">退款笔数</Table.Th>
                  <Table.Th ta="right">退款金额</Table.Th>
                  <Table.Th ta="right">冲正金额</Table.Th>
                  <Table.Th ta="right">净额</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.records.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={9}>
                      <Text size="sm" c="dimmed" ta="center">
                        该期间没有充值或退款
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {report.records.map((r) => (
                  <Table.Tr key={`${r.day}-${r.channel}-${r.operatorName}`}>
                    <Table.Td>{r.day}</Table.Td>
                    <Table.Td>{r.channel ? dictLabel(dicts, "topUpChannel", r.channel) : "未记录"}</Table.Td>
                    <Table.Td>{r.operatorName || "系统"}</Table.Td>
                    <Table.Td ta="right">{r.topUpCount}</Table.Td>
                    <Table.Td ta="right">{formatFen(r.topUp)}</Table.Td>
                    <Table.Td ta="right">{r.refundCount}</Table.Td>
                    <Table.Td ta="right">{formatFen(r.refund)}</Table.Td>
                    <Table.Td ta="right">{formatFen(r.reversal)}</Table.Td>
                    <Table.Td ta="right">{formatFen(r.net)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr fw={700} data-testid="daily-total">
                  <Table.Th colSpan={3}>合计</Table.Th>
                  <Table.Th ta="right">{report.totals.topUpCount}</Table.Th>
                  <Table.Th ta="right">{formatFen(report.totals.topUp)}</Table.Th>
                  <Table.Th ta="right">{report.totals.refundCount}</Table.Th>
                  <Table.Th ta="right">{formatFen(report.totals.refund)}</Table.Th>
                  <Table.Th ta="right">{formatFen(report.totals.reversal)}</Table.Th>
                  <Table.Th ta="right">{formatFen(report.totals.net)}</Table.Th>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}
