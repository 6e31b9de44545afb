import { Alert, Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconDownload, IconFileImport } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { documentPath } from "../../../resources/document";
import { importMessages, type ImportReport } from "../../../resources/imports";
import { warehouseCheck as doc } from "../../../resources/zhhq/closing";
import type { Route } from "./+types/check-import";
import { apiCall } from "~/lib/api.server";
import { loadDocument } from "~/lib/document.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/**
 * 导入实盘数量 (issue 41): the sheet's lines as an XLSX to fill (下载盘点表), and the filled file uploaded back; the
 * server applies every count or none, and a refusal lists each bad row (行 N：…) with the upload offered again. A plain
 * multipart form: it works before scripts load.
 */

type Sheet = { id: number; docNo: string; status: string; warehouseIdLabel?: string };
const BASE = `${doc.screenBase}/${doc.screen}`;

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
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0) return data({ error: importMessages.missing, rows: [] as string[] }, { status: 400 });
  const result = await apiCall<ImportReport>(request, context, "POST", documentPath(doc, "importCount"), {
    query: { id: String(sheet.id) },
    rawBody: { bytes: new Uint8Array(await file.arrayBuffer()), type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  });
  if (result.status === 200) return redirect(`${BASE}/edit/${sheet.id}`, { headers: { "Set-Cookie": flashCookie(`${sheet.docNo} 的实盘数量已按文件导入`) } });
  requirePermitted(result);
  const report = result.data && typeof result.data === "object" && "errors" in result.data ? (result.data as ImportReport) : null;
  const rows = (report?.errors ?? []).map((e) => `行 ${e.row}：${e.reasons.join("；")}`);
  return data({ error: result.message || "导入失败", rows }, { status: result.status === 409 ? 409 : 400 });
}

export function meta() {
  return [{ title: `导入实盘数量 - ${t.appTitle}` }];
}

export default function CheckImport({ loaderData, actionData }: Route.ComponentProps) {
  const { sheet } = loaderData;
  const navigation = useNavigation();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs" align="baseline">
          <Title order={3}>导入实盘数量</Title>
          <Text c="dimmed">
            {sheet.docNo} · {sheet.warehouseIdLabel ?? ""}
          </Text>
        </Group>
        <Button component={Link} to={`${BASE}/detail/${sheet.id}`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回详情
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Text size="sm" c="dimmed">
            1. 下载盘点表，在「实盘数量」列填写清点出的数量（最多 3 位小数），不填的行保持原样，不要改动「明细ID」列；2. 选择填好的文件导入：全部正确才写入，有误的行逐行列出，一行也不写入。
          </Text>
          <Group>
            <Button component="a" href={`${documentPath(doc, "countSheet")}?id=${sheet.id}`} download variant="default" leftSection={<IconDownload size={16} />}>
              下载盘点表
            </Button>
          </Group>
          <Form method="post" encType="multipart/form-data">
            <Stack gap="xs">
              <label htmlFor="count-file">
                <Text size="sm" fw={500} component="span">
                  选择文件（.xlsx，不超过 10M）
                </Text>
              </label>
              <input id="count-file" name="file" type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required />
              <Group>
                <Button type="submit" loading={navigation.state === "submitting"} leftSection={<IconFileImport size={16} />}>
                  导入
                </Button>
              </Group>
            </Stack>
          </Form>
          {actionData?.error && (
            <Alert color="red" variant="light" role="alert" data-testid="import-error" title={actionData.error}>
              {actionData.rows.length > 0 && (
                <List size="sm" data-testid="import-errors">
                  {actionData.rows.map((row) => (
                    <List.Item key={row}>{row}</List.Item>
                  ))}
                </List>
              )}
            </Alert>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
