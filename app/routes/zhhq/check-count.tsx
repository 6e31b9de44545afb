import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { warehouseCheck as doc } from "../../../resources/zhhq/closing";
import type { Route } from "./+types/check-count";
import { apiCall } from "~/lib/api.server";
import { lineRefusals, loadDocument } from "~/lib/document.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/**
 * A stocktake's count (issue 41): the sheet's lines as the book made them — goods, batch, expiry, book quantity — each
 * with its counted quantity to type. The sheet's editor: its lines are the server's, so none is added or removed
 * here; a blank count means "as the book". A plain form: it works before scripts load.
 */

type Line = { id: number; lineNo: number; goodsIdLabel?: string; batchNo: string | null; expiryDate: string | null; bookQuantity: number | null; countedQuantity: number | null; diffQuantity: number | null };
type Sheet = { id: number; docNo: string; status: string; version: number; warehouseIdLabel?: string; lines: Line[] };
const BASE = `${doc.screenBase}/${doc.screen}`;
const API = "/api/v1/zhhq/warehouseCheck";

async function sheetOf(request: Request, context: Route.LoaderArgs["context"], id: string) {
  return (await loadDocument(request, context, doc, id)) as Sheet;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  return { sheet: await sheetOf(request, context, params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const sheet = await sheetOf(request, context, params.id);
  const form = await request.formData();
  const typed: Record<string, string> = {};
  const lines = sheet.lines.map((l) => {
    const value = String(form.get(`counted.${l.id}`) ?? "").trim();
    typed[l.id] = value;
    return { id: l.id, countedQuantity: value === "" ? null : value };
  });
  const result = await apiCall(request, context, "POST", `${API}/update`, { body: { id: sheet.id, version: Number(form.get("version")), lines } });
  if (result.status !== 200) {
    const errors = fieldErrorsOf(result) ?? {};
    // A line's refusal (`lines.3.countedQuantity`) shows at its row.
    const byLine = lineRefusals(errors, sheet.lines);
    return data({ error: Object.keys(byLine).length ? "请改正标红的实盘数量" : result.message, byLine, typed }, { status: refusalStatus(result) });
  }
  return redirect(`${BASE}/detail/${sheet.id}`, { headers: { "Set-Cookie": flashCookie(`${sheet.docNo} 的实盘数量已保存`) } });
}

export function meta() {
  return [{ title: `录入实盘数量 - ${t.appTitle}` }];
}

export default function CheckCount({ loaderData, actionData }: Route.ComponentProps) {
  const { sheet } = loaderData;
  const navigation = useNavigation();
  const typed = actionData?.typed ?? {};
  const byLine = (actionData?.byLine ?? {}) as Record<string, string | undefined>;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs" align="baseline">
          <Title order={3}>录入实盘数量</Title>
          <Text c="dimmed">
            {sheet.docNo} · {sheet.warehouseIdLabel ?? ""}
          </Text>
        </Group>
        <Button component={Link} to={`${BASE}/detail/${sheet.id}`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回详情
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post">
          <input type="hidden" name="version" value={sheet.version} />
          <Stack>
            <Text size="sm" c="dimmed">
              明细为开单时该仓库每个有库存批次的账面数量。填写清点出的数量；不填视为与账面一致。审核时按实盘数量记盘盈、盘亏。
            </Text>
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Table striped withTableBorder data-testid="count-lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>行号</Table.Th>
                  <Table.Th>物资</Table.Th>
                  <Table.Th>批次号</Table.Th>
                  <Table.Th>到期日期</Table.Th>
                  <Table.Th ta="right">账面数量</Table.Th>
                  <Table.Th w={180}>实盘数量</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sheet.lines.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>{l.lineNo}</Table.Td>
                    <Table.Td>{l.goodsIdLabel ?? ""}</Table.Td>
                    <Table.Td>{l.batchNo ?? "—"}</Table.Td>
                    <Table.Td>{l.expiryDate ?? "—"}</Table.Td>
                    <Table.Td ta="right">{l.bookQuantity ?? 0}</Table.Td>
                    <Table.Td>
                      <TextInput
                        name={`counted.${l.id}`}
                        aria-label={`第 ${l.lineNo} 行 实盘数量`}
                        inputMode="decimal"
                        placeholder={String(l.bookQuantity ?? 0)}
                        defaultValue={typed[l.id] ?? (l.countedQuantity === null ? "" : String(l.countedQuantity))}
                        error={byLine[String(l.id)]}
                        styles={{ input: { textAlign: "right" } }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group justify="flex-end">
              <Button type="submit" loading={navigation.state === "submitting"}>
                保存
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
