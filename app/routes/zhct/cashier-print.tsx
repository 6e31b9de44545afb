import { Alert, Button, Divider, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconPrinter, IconSearch } from "~/components/icons";
import { Form } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import type { Route } from "./+types/cashier-print";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";
import classes from "./cashier-print.module.css";

type Totals = { count: number; amount: number; refundCount: number; refunded: number; net: number };
type Summary = {
  from: string;
  to: string;
  restaurantId: number | null;
  restaurantName: string | null;
  cashierId: number | null;
  cashierName: string | null;
  /** The canteen the slip is printed for (tenant parameter zhct.receipt.title, else the tenant name). */
  title: string;
  restaurants: Array<{ id: number; name: string }>;
  cashiers: Array<{ id: number; name: string }>;
  totals: Totals;
  byPayFlag: Array<Totals & { payFlag: string }>;
  byMealTime: Array<Totals & { mealTimesId: number | null; name: string }>;
  printedAt: string;
};

const FILTERS = ["from", "to", "restaurantId", "cashierId"] as const;

/** The filters live in the URL (a GET form): a shift's summary is a bookmark and prints without scripts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const query = Object.fromEntries(FILTERS.map((f) => [f, url.searchParams.get(f) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const result = await apiCall<Summary>(request, context, "GET", "/api/v1/zhct/cashierPrint/summary", { query });
  requirePermitted(result);
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return { summary: null, query, error: result.message, fieldErrors };
  }
  return { summary: result.data, query, error: null, fieldErrors: {} as Record<string, string[]> };
}

export function meta() {
  return [{ title: `营业报表打印 - ${t.appTitle}` }];
}

function TotalsRows({ rows, head }: { rows: Array<Totals & { key: string; label: string }>; head: string }) {
  return (
    <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={4} className={classes.table}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{head}</Table.Th>
          <Table.Th ta="right">笔数</Table.Th>
          <Table.Th ta="right">收款</Table.Th>
          <Table.Th ta="right">退款</Table.Th>
          <Table.Th ta="right">净额</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={5}>
              <Text size="sm" c="dimmed" ta="center">
                无
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
        {rows.map((r) => (
          <Table.Tr key={r.key} data-row={r.label}>
            <Table.Td>{r.label}</Table.Td>
            <Table.Td ta="right">{r.count}</Table.Td>
            <Table.Td ta="right">{formatFen(r.amount)}</Table.Td>
            <Table.Td ta="right">{formatFen(r.refunded)}</Table.Td>
            <Table.Td ta="right">{formatFen(r.net)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function CashierPrint({ loaderData }: Route.ComponentProps) {
  const { summary, query, error, fieldErrors } = loaderData;
  const dicts = useDicts();
  return (
    <Stack gap="md" className={classes.page}>
      <Group justify="space-between" className={classes.noPrint}>
        <Title order={3}>营业报表打印</Title>
        {summary && (
          <Button component="a" href="#print" onClick={(e) => { e.preventDefault(); window.print(); }} leftSection={<IconPrinter size={16} />}>
            打印
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md" p="md" className={classes.noPrint}>
        <Form method="get">
          <Group align="flex-end" gap="sm">
            <TextInput type="datetime-local" name="from" label="开始时间" defaultValue={summary?.from ?? query.from} error={fieldErrors.from?.[0]} />
            <TextInput type="datetime-local" name="to" label="结束时间" defaultValue={summary?.to ?? query.to} error={fieldErrors.to?.[0]} />
            <NativeSelect
              name="restaurantId"
              label="餐厅"
              defaultValue={String(summary?.restaurantId ?? query.restaurantId ?? "")}
              data={[{ value: "", label: "全部餐厅" }, ...(summary?.restaurants ?? []).map((r) => ({ value: String(r.id), label: r.name }))]}
              error={fieldErrors.restaurantId?.[0]}
            />
            <NativeSelect
              name="cashierId"
              label="收银员"
              defaultValue={String(summary?.cashierId ?? query.cashierId ?? "")}
              data={[{ value: "", label: "全部收银员" }, ...(summary?.cashiers ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
              error={fieldErrors.cashierId?.[0]}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              查询
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={6}>
            时间为北京时间，默认今天全天；按下单时间统计该时段收银台收取的订单，退款为这些订单已退的金额。
          </Text>
        </Form>
      </Paper>
      {error && !Object.keys(fieldErrors).length && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {summary && (
        <Paper withBorder radius="md" p="md" className={classes.receipt} data-testid="cashier-summary">
          <Title order={4} ta="center">
            营业汇总
          </Title>
          <Text size="sm" ta="center" c="dimmed" data-testid="summary-title">
            {summary.title}
          </Text>
          <Divider my={6} variant="dashed" />
          <Text size="sm">餐厅：{summary.restaurantName ?? "全部餐厅"}</Text>
          <Text size="sm">收银员：{summary.cashierName ?? "全部收银员"}</Text>
          <Text size="sm">
            时段：{summary.from.replace("T", " ")} 至 {summary.to.replace("T", " ")}
          </Text>
          <Divider my={6} variant="dashed" />
          <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={4} className={classes.table} data-testid="summary-totals">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>订单笔数</Table.Td>
                <Table.Td ta="right" data-field="count">
                  {summary.totals.count}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>收款金额</Table.Td>
                <Table.Td ta="right" data-field="amount">
                  {formatFen(summary.totals.amount)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>退款/取消（{summary.totals.refundCount} 笔）</Table.Td>
                <Table.Td ta="right" data-field="refunded">
                  {formatFen(summary.totals.refunded)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr className={classes.net}>
                <Table.Td>净收入</Table.Td>
                <Table.Td ta="right" data-field="net">
                  {formatFen(summary.totals.net)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Divider my={6} variant="dashed" label="按支付方式" labelPosition="center" />
          <TotalsRows head="支付方式" rows={summary.byPayFlag.map((r) => ({ ...r, key: r.payFlag, label: dictLabel(dicts, "userAccountFlag", r.payFlag) }))} />
          <Divider my={6} variant="dashed" label="按餐次" labelPosition="center" />
          <TotalsRows head="餐次" rows={summary.byMealTime.map((r) => ({ ...r, key: String(r.mealTimesId ?? "none"), label: r.name }))} />
          <Divider my={6} variant="dashed" />
          <Text size="xs" c="dimmed">
            金额单位：元，打印时间：{summary.printedAt}
          </Text>
          <Text size="sm" mt="md">
            收银员签字：
          </Text>
        </Paper>
      )}
    </Stack>
  );
}
