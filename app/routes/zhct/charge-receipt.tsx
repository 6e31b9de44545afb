import { Button, Divider, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconPrinter } from "~/components/icons";
import { data, Link } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { userAccountCharge as def } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/charge-receipt";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";
import classes from "./receipt.module.css";

type Row = Record<string, unknown>;
const BASE = `${def.screenBase}/${def.screen}`;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userAccountCharge/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  const [diner, head] = await Promise.all([
    apiCall<Row>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: String(result.data.userInfoId) } }),
    apiCall<{ title: string; operatorName: string | null }>(request, context, "GET", "/api/v1/zhct/userAccountCharge/receipt", { query: { id: params.id } }),
  ]);
  // The canteen's title and the operator's name (issue 38); the record's own operator if the head cannot be read.
  const receipt = head.status === 200 ? head.data : { title: "", operatorName: (result.data.operatorName as string | null) ?? null };
  return { charge: result.data, diner: diner.status === 200 ? diner.data : null, receipt };
}

export function meta() {
  return [{ title: `回单 - ${t.appTitle}` }];
}

/** The printable receipt of a top-up, refund or reversal: the shell and buttons are hidden in print. */
export default function ChargeReceipt({ loaderData }: Route.ComponentProps) {
  const { charge, diner, receipt } = loaderData;
  const dicts = useDicts();
  const busi = dictLabel(dicts, "busiType", charge.busiType);
  const rows: Array<[string, string]> = [
    ["单号", String(charge.chargeNo)],
    ["人员", diner ? `${String(diner.userName)}（${String(diner.userCode)}）` : String(charge.userInfoId)],
    ["业务类型", busi],
    ["账户", dictLabel(dicts, "accountType", charge.accountType)],
    ["金额", `${formatFen(Number(charge.amount))} 元`],
    ["变动后余额", `${formatFen(Number(charge.balanceAfter))} 元`],
    // How the money came in or went out (decision 064); a document written before channels shows its payment flag.
    charge.channel ? ["充值渠道", dictLabel(dicts, "topUpChannel", charge.channel)] : ["支付方式", dictLabel(dicts, "userAccountFlag", charge.payFlag)],
    ["操作人", receipt.operatorName ?? ""],
    ["时间", formatTime(Number(charge.chargedAt))],
    ["备注", String(charge.remark ?? "")],
  ];
  return (
    <Stack gap="md" maw={560} className={classes.page}>
      <Group justify="space-between" className={classes.noPrint}>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
        <Button component="a" href="#print" onClick={(e) => { e.preventDefault(); window.print(); }} leftSection={<IconPrinter size={16} />}>
          打印回单
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg" className={classes.receipt} data-testid="receipt">
        <Title order={3} ta="center">
          {busi}回单
        </Title>
        <Text size="sm" c="dimmed" ta="center" data-testid="receipt-title">
          {receipt.title}
        </Text>
        <Divider my="sm" />
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={120} fw={500} c="dimmed">
                  {label}
                </Table.Th>
                <Table.Td data-field={label}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Divider my="sm" />
        <Group justify="space-between">
          <Text size="sm">经办人签字：</Text>
          <Text size="sm">顾客签字：</Text>
        </Group>
      </Paper>
    </Stack>
  );
}
