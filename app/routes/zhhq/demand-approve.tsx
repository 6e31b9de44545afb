import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from "@mantine/core";
import { IconArrowLeft } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { purchseDemand as doc } from "../../../resources/zhhq/purchase";
import type { Route } from "./+types/demand-approve";
import { Fact } from "~/components/resource/Fact";
import { apiCall } from "~/lib/api.server";
import { lineRefusals, loadDocument } from "~/lib/document.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/**
 * 审核 with changed quantities (issue 41, decision 072): the request's lines as asked, each with the quantity the
 * approver grants (the asked one unless changed; 0 grants none), and an optional note; 审核 sets them and approves
 * in one call (`purchseDemand/approveAdjusted`). A plain form: it works before scripts load; a refusal shows at its
 * line or at the note, with what was typed kept.
 */

type Line = {
  id: number;
  lineNo: number;
  goodsIdLabel?: string;
  quantity: number;
  approvedQuantity: number | null;
  remark: string | null;
};
type Demand = {
  id: number;
  docNo: string;
  status: string;
  warehouseIdLabel?: string;
  restaurantIdLabel?: string;
  needDate: string | null;
  remark: string | null;
  lines: Line[];
};
const BASE = `${doc.screenBase}/${doc.screen}`;
const API = "/api/v1/zhhq/purchseDemand";

async function demandOf(request: Request, context: Route.LoaderArgs["context"], id: string) {
  return (await loadDocument(request, context, doc, id)) as Demand;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  return { demand: await demandOf(request, context, params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const demand = await demandOf(request, context, params.id);
  const form = await request.formData();
  const typed: Record<string, string> = {};
  const lines = demand.lines.map((l) => {
    const value = String(form.get(`approved.${l.id}`) ?? "").trim();
    typed[l.id] = value;
    return { id: l.id, approvedQuantity: value };
  });
  const reason = String(form.get("reason") ?? "").trim();
  const result = await apiCall(request, context, "POST", `${API}/approveAdjusted`, { body: { id: demand.id, lines, ...(reason ? { reason } : {}) } });
  if (result.status !== 200) {
    const errors = fieldErrorsOf(result) ?? {};
    // A line's refusal (`lines.1.approvedQuantity`) shows at its row, the note's at the note.
    const byLine = lineRefusals(errors, demand.lines);
    const reasonError = errors.reason?.[0];
    const error = Object.keys(byLine).length ? "请改正标红的核定数量" : reasonError ? null : result.message;
    return data({ error, byLine, reasonError, typed, reason }, { status: refusalStatus(result) });
  }
  return redirect(`${BASE}/detail/${demand.id}`, {
    headers: { "Set-Cookie": flashCookie(`${demand.docNo} 已按核定数量审核`) },
  });
}

export function meta() {
  return [{ title: `按核定数量审核 - ${t.appTitle}` }];
}

export default function DemandApprove({ loaderData, actionData }: Route.ComponentProps) {
  const { demand } = loaderData;
  const navigation = useNavigation();
  const typed = actionData?.typed ?? {};
  const byLine = (actionData?.byLine ?? {}) as Record<string, string | undefined>;
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Group gap="xs" align="baseline">
          <Title order={3}>按核定数量审核</Title>
          <Text c="dimmed">{demand.docNo}</Text>
        </Group>
        <Button component={Link} to={`${BASE}/detail/${demand.id}`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回详情
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Fact label="申请仓库">{demand.warehouseIdLabel ?? "—"}</Fact>
          <Fact label="申请餐厅">{demand.restaurantIdLabel || "—"}</Fact>
          <Fact label="需用日期">{demand.needDate ?? "—"}</Fact>
        </SimpleGrid>
        {demand.remark && (
          <Text size="sm" mt="sm">
            备注：{demand.remark}
          </Text>
        )}
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Form method="post">
          <Stack>
            <Text size="sm" c="dimmed">
              核定数量默认等于申请数量；改小即少批，填 0 表示该物资不批。审核后采购单按核定数量下单。
            </Text>
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Table striped withTableBorder data-testid="approve-lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>行号</Table.Th>
                  <Table.Th>物资</Table.Th>
                  <Table.Th>说明</Table.Th>
                  <Table.Th ta="right">申请数量</Table.Th>
                  <Table.Th w={180}>核定数量</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {demand.lines.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>{l.lineNo}</Table.Td>
                    <Table.Td>{l.goodsIdLabel ?? ""}</Table.Td>
                    <Table.Td>{l.remark ?? ""}</Table.Td>
                    <Table.Td ta="right">{l.quantity}</Table.Td>
                    <Table.Td>
                      <TextInput
                        name={`approved.${l.id}`}
                        aria-label={`第 ${l.lineNo} 行 核定数量`}
                        inputMode="decimal"
                        required
                        defaultValue={typed[l.id] ?? String(l.approvedQuantity ?? l.quantity)}
                        error={byLine[String(l.id)]}
                        styles={{ input: { textAlign: "right" } }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Textarea name="reason" label="审核说明" description="选填，如少批的原因" maxLength={200} autosize minRows={2} defaultValue={actionData?.reason ?? ""} error={actionData?.reasonError} />
            <Group justify="flex-end">
              <Button type="submit" loading={navigation.state === "submitting"}>
                审核
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
